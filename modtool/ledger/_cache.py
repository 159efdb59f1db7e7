"""A read cache of the parsed ledger that grows with it.

The ledger stays the only source of truth; the cache holds exactly what
parsing its bytes gave and may be deleted at any time. It lives in
``GAME_DIR/.modtool/``: a *base* (``ledger-cache.bin``: header and events of
the first ``size`` bytes, with their sha256) and *segments*
(``ledger-cache.tail.bin``, one record per later stretch of bytes with
its own sha256 and events). An append adds a segment, so writing costs the
event; a read after an append parses only the new tail. When segments pile
up the base is rewritten whole (amortised: when they hold as many events as
the base).

Both name the file's stat signature at the time they were written. A read
whose ledger has the same signature, last changed well before the cache was
written (git's "racy clean" rule), is answered without reading the ledger;
otherwise the bytes are hashed and checked stretch by stretch.

Records are marshal bytes (three times faster to load than JSON for a large
ledger), each behind a MAC with a key private to this user
(``~/.cache/modtool/cache.key``): a cache that came with someone else's game
folder, or was damaged, is simply not used.
"""

from __future__ import annotations

import os
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from modtool import __version__
from modtool.base.events import Event

CACHE_DIR = ".modtool"
BASE_NAME = "ledger-cache.bin"
SEGMENTS_NAME = "ledger-cache.tail.bin"
# marshal's format belongs to the Python version: part of what the MAC signs.
_FORMAT = f"ledger-cache-6/{__version__}/{sys.version_info[0]}.{sys.version_info[1]}"
RACY_NS = 1_000_000_000  # a file changed within this long before the cache was written is hashed


def cache_path(ledger: Path) -> Path:
    return Path(ledger).parent / CACHE_DIR / BASE_NAME


def segments_path(ledger: Path) -> Path:
    return Path(ledger).parent / CACHE_DIR / SEGMENTS_NAME


_code_digest: str | None = None


def code_fingerprint() -> str:
    """modtool's own code and game data: what is derived and kept between
    commands (event checks, replay snapshots) is not used under other code."""
    global _code_digest
    if _code_digest is None:
        import hashlib

        import modtool
        from modtool.base.paths import data_dir

        root = Path(modtool.__file__).parent
        h = hashlib.sha256()
        for p in sorted(root.rglob("*.py")) + sorted(Path(data_dir("games")).glob("*.yaml")):
            h.update(str(p.relative_to(p.parents[1])).encode())
            h.update(p.read_bytes())
        _code_digest = h.hexdigest()
    return _code_digest


def signature(st: os.stat_result) -> list[int]:
    return [st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns]


def trusted(sig: list[int], written_ns: int) -> bool:
    """The file behind ``sig`` cannot have changed unseen since ``written_ns``."""
    return max(sig[3], sig[4]) < written_ns - RACY_NS


class Fields:
    """The fields of a stretch's events, kept as bytes until an event asks
    for its ``data`` (``Event.deferred_many``); decoded once for all. The
    bytes are marshal (``kind`` "marshal"), or for one-line events the JSON
    array of the whole events as written to the ledger ("json"). Read from
    the cache they stay in the cache file (a ``_Blob``) until then: a card
    on a 100,000-post ledger neither reads nor MACs the posts' fields."""

    __slots__ = ("blob", "kind", "_decoded", "recover")

    def __init__(self, blob, kind: str = "marshal", recover=None):
        self.blob, self.kind, self._decoded, self.recover = blob, kind, None, recover

    @classmethod
    def from_json(cls, array: bytes) -> "Fields":
        """One-line events' JSON array (each with its ``type``, dropped on decoding)."""
        return cls(array, "json")

    @classmethod
    def decoded(cls, datas: list) -> "Fields":
        """Fields already at hand (an append's): encoded only when the cache is written."""
        f = cls(None)
        f._decoded = datas
        return f

    def raw(self) -> bytes:
        """The encoded fields (encoded here, once, if they were only at hand)."""
        if self.blob is None:
            import marshal

            self.blob = marshal.dumps(self._decoded, 4)
        elif self.blob.__class__ is _Blob:
            self.blob = self.blob.read()
        return self.blob

    def datas(self) -> list:
        if self._decoded is None:
            import gc
            import marshal

            try:
                raw = self.raw()
            except _Damaged:
                self._decoded = self.recover()
                return self._decoded
            enabled = gc.isenabled()
            gc.disable()
            try:
                if self.kind == "json":
                    datas = _json_loads(raw)
                    for d in datas:
                        del d["type"]
                    self._decoded = datas
                else:
                    self._decoded = marshal.loads(raw)
            finally:
                if enabled:
                    gc.enable()
        return self._decoded


def _json_loads(data: bytes):
    try:
        import orjson

        return orjson.loads(data)
    except ImportError:  # pragma: no cover - orjson is a dependency
        import json

        return json.loads(data)


class Stretch:
    """Bytes ``[start, end)`` of the ledger, their digest and their events:
    either as ``[type, data, line]`` lists, or (read from the cache, or just
    appended) as types, lines and the undecoded fields."""

    __slots__ = ("start", "end", "sha", "_events", "types", "lines", "_datas", "_top")

    def __init__(self, start: int, end: int, sha: str, events: list | None = None,
                 types: list | None = None, lines: list | None = None, datas: Fields | None = None,
                 top: int | None = None):
        self.start, self.end, self.sha = start, end, sha
        self._events, self.types, self.lines, self._datas = events, types, lines, datas
        self._top = top

    @property
    def top(self) -> int:
        """The highest event id in this stretch, ids that reverts name included
        (modtool.base.events): kept with the stretch, so that giving the next id
        decodes no old event."""
        if self._top is None:
            from modtool.base.events import highest_id

            self._top = highest_id([e[1] for e in self.events])
        return self._top

    @property
    def events(self) -> list:
        if self._events is None:
            self._events = [[t, d, line] for t, d, line in zip(self.types, self._datas.datas(), self.lines)]
        return self._events

    def __len__(self) -> int:
        return len(self._events) if self._events is not None else len(self.types)

    def make_events(self) -> list[Event]:
        if self._events is not None:
            return [Event(t, d, line) for t, d, line in self._events]
        return Event.deferred_many(self.types, self.lines, self._datas)

    def record(self) -> tuple[dict, bytes]:
        """Types, lines and the kind of the fields, for the cache file, and
        the fields' bytes (kept beside the record: see ``Fields``)."""
        if self._events is None and self._datas is not None:
            return ({"ev_types": self.types, "ev_lines": self.lines, "ev_kind": self._datas.kind, "ev_top": self.top},
                    self._datas.raw())
        import marshal

        ev = self._events or []
        return ({"ev_types": [e[0] for e in ev], "ev_lines": [e[2] for e in ev], "ev_kind": "marshal", "ev_top": self.top},
                marshal.dumps([e[1] for e in ev], 4))

    @classmethod
    def from_record(cls, start: int, end: int, sha: str, r: dict, recover) -> "Stretch":
        """``recover(start, end, sha, lines)``: the stretch's fields parsed from the
        ledger itself, asked for only if the cached bytes turn out damaged (the
        store's parser: this module does not import it)."""
        import functools

        recover = functools.partial(recover, start, end, sha, r["ev_lines"])
        top = r.get("ev_top")
        return cls(start, end, sha, types=r["ev_types"], lines=r["ev_lines"], datas=Fields(r["blob"], r["ev_kind"], recover),
                   top=top if type(top) is int else None)


@dataclass
class Cached:
    header: dict
    item_col: int | None
    events_line: int
    flow_empty: bool  # the events line is not a bare `events:` (e.g. `events: []`): items may not simply follow
    lines: int  # '\n' count of the bytes covered
    ends_nl: bool  # the covered bytes end with a newline
    crlf: bool
    stretches: list[Stretch] = field(default_factory=list)  # base first
    sig: list[int] | None = None  # of the file when the newest stretch was written
    written_ns: int = 0

    @property
    def size(self) -> int:
        return self.stretches[-1].end if self.stretches else 0

    def events(self) -> list[Event]:
        out = []
        for s in self.stretches:
            out.extend(s.make_events())
        return out

    def count(self) -> int:
        return sum(len(s) for s in self.stretches)


_MAGIC = b"MTCACHE3"
_MAC_LEN = 32


def _user_key() -> bytes | None:
    """This user's secret for the cache's MACs (made once, mode 0600), so a
    cache that came with someone else's game folder is never unmarshalled."""
    global _KEY
    if _KEY is not None:
        return _KEY or None
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    path = os.path.join(base, "modtool", "cache.key")
    try:
        with open(path, "rb") as f:
            key = f.read()
        if len(key) < 32:
            raise OSError("short key")
    except OSError:
        try:
            os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
            key = os.urandom(32)
            tmp = f"{path}.{os.getpid()}.tmp"
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "wb") as f:
                f.write(key)
            try:
                os.link(tmp, path)  # the first writer wins; a racing one reads its key
            except FileExistsError:
                pass
            finally:
                os.unlink(tmp)
            with open(path, "rb") as f:
                key = f.read()
        except OSError:
            key = b""
    _KEY = key
    return key or None


_KEY: bytes | None = None


def digest_seed() -> int:
    """A 64-bit seed for the ledger digests, from this user's key (0 without one)."""
    key = _user_key()
    return int.from_bytes(key[:8], "little") if key else 0


def _mac(key: bytes, payload) -> bytes:
    import hmac

    h = hmac.new(key, _FORMAT.encode(), "sha256")
    h.update(payload)  # a memoryview: no copy of a large cache
    return h.digest()


def _pack(obj, blob: bytes | None = None) -> bytes | None:
    """``obj`` as a record: magic, length, MAC, marshal bytes; then ``blob``,
    if given, whose length and MAC the record holds (None: cannot be)."""
    import marshal

    key = _user_key()
    if key is None:
        return None
    if blob is not None:
        obj = dict(obj, blob_len=len(blob), blob_mac=_mac(key, blob))
    try:
        payload = marshal.dumps(obj, 4)
    except ValueError:  # a value marshal does not keep (a YAML timestamp): no cache
        return None
    return b"".join((_MAGIC, len(payload).to_bytes(8, "little"), _mac(key, payload), payload, blob or b""))


class _Damaged(Exception):
    pass


class _Blob:
    """A record's ``blob``, left in the (open) cache file until asked for."""

    __slots__ = ("f", "offset", "length", "mac", "ledger")

    def __init__(self, f, offset: int, length: int, mac: bytes, ledger: Path):
        self.f, self.offset, self.length, self.mac, self.ledger = f, offset, length, mac, ledger

    def read(self) -> bytes:
        import hmac

        key = _user_key()
        try:
            self.f.seek(self.offset)
            data = self.f.read(self.length)
        except (OSError, ValueError):
            data = b""
        if key is None or len(data) != self.length or not hmac.compare_digest(self.mac, _mac(key, data)):
            drop(self.ledger)  # changed in place: not by modtool; the fields come from the ledger itself
            raise _Damaged
        return data


def _unpack_all(f, ledger: Path) -> list:
    """The records of open file ``f`` whose MAC is right, up to the first that
    is not (or is cut short). A record's blob is not read: it stays in ``f``
    (``_Blob``), which is why ``f`` is left open."""
    import hmac
    import marshal

    key = _user_key()
    out = []
    if key is None:
        return out
    size = os.fstat(f.fileno()).st_size
    pos, head = 0, len(_MAGIC) + 8 + _MAC_LEN
    while pos + head <= size:
        f.seek(pos)
        h = f.read(head)
        if len(h) != head or h[:len(_MAGIC)] != _MAGIC:
            break
        n = int.from_bytes(h[len(_MAGIC):len(_MAGIC) + 8], "little")
        if pos + head + n > size:
            break  # a length no record this size can have (a torn or foreign file): never read
        payload = f.read(n)
        if len(payload) != n or not hmac.compare_digest(h[len(_MAGIC) + 8:], _mac(key, payload)):
            break  # torn, foreign or tampered: the rest is not trusted
        try:
            obj = marshal.loads(payload)
            pos += head + n
            if "blob_len" in obj:
                blob = _Blob(f, pos, obj.pop("blob_len"), obj.pop("blob_mac"), ledger)
                pos += blob.length
                if pos > size:
                    break  # cut short by a kill
                obj["blob"] = blob
        except (ValueError, EOFError, TypeError):
            break
        out.append(obj)
    return out


def _unrecoverable(start: int, end: int, sha: str, lines: list) -> list:
    raise ValueError(f"cached stretch {start}-{end} damaged, and no parser to recover it")


def _open(path: Path):
    try:
        return open(path, "rb")
    except OSError:
        return None


def read(ledger: Path, recover=None) -> Cached | None:
    """The cache of ``ledger``; ``recover`` as in ``Stretch.from_record`` (None: a
    damaged stretch is an error, for a look at the cache alone)."""
    recover = recover or _unrecoverable
    f = _open(cache_path(ledger))
    if f is None:
        return None
    records = _unpack_all(f, ledger)
    try:
        b = records[0]
        c = Cached(b["header"], b["item_col"], b["events_line"], b["flow_empty"], b["lines"], b["ends_nl"],
                   b["crlf"], [Stretch.from_record(0, b["size"], b["sha"], b, recover)], b["sig"], b["at"])
    except (IndexError, KeyError, TypeError):
        f.close()
        return None
    f = _open(segments_path(ledger))
    if f is None:
        return c
    for s in _unpack_all(f, ledger):
        try:
            if s["start"] > c.size:
                break
            if s["start"] < c.size:
                continue  # written twice by two readers at once, or for an older base
            c.stretches.append(Stretch.from_record(s["start"], s["end"], s["sha"], s, recover))
            c.sig, c.written_ns = s["sig"], s["at"]
            c.lines, c.ends_nl = s["lines"], s["ends_nl"]
        except (KeyError, TypeError):
            break
    return c


def write_base(ledger: Path, c: Cached, sig: list[int]) -> None:
    """Best effort: a cache that cannot be written is simply not there.
    The caller passes one stretch covering the whole file."""
    if len(c.stretches) != 1:
        return
    try:
        events, fields = c.stretches[0].record()
    except ValueError:  # a value marshal does not keep (a YAML timestamp): no cache
        drop(ledger)
        return
    data = {"size": c.size, "sha": c.stretches[0].sha, "sig": sig, "at": time.time_ns(), "header": c.header,
            "item_col": c.item_col, "events_line": c.events_line, "flow_empty": c.flow_empty, "lines": c.lines,
            "ends_nl": c.ends_nl, "crlf": c.crlf, **events}
    blob = _pack(data, fields)
    if blob is None:
        drop(ledger)
        return
    if not _replace(cache_path(ledger), blob):
        drop(ledger)
        return
    try:
        os.unlink(segments_path(ledger))
    except FileNotFoundError:
        pass
    except OSError:
        drop(ledger)


def add_segment(ledger: Path, s: Stretch, sig: list[int], lines: int, ends_nl: bool) -> bool:
    """Append one stretch; False if it could not be (the caller drops the cache)."""
    try:
        events, fields = s.record()
    except ValueError:
        return False
    blob = _pack({"start": s.start, "end": s.end, "sha": s.sha, "sig": sig, "at": time.time_ns(),
                  "lines": lines, "ends_nl": ends_nl, **events}, fields)
    if blob is None:
        return False
    try:
        fd = os.open(segments_path(ledger), os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
        try:
            view = memoryview(blob)
            while view:
                view = view[os.write(fd, view):]
        finally:
            os.close(fd)
        return True
    except OSError:
        return False


def write_record(path: Path, obj) -> None:
    """A side record beside the cache (same format and MAC); best effort."""
    blob = _pack(obj)
    if blob is not None:
        _replace(path, blob)


def _replace(path: Path, blob: bytes) -> bool:
    """``path`` now holds ``blob`` whole (a temp file renamed over it; no fsync:
    a cache is rebuilt from the ledger if a crash loses it). False if it could not be."""
    try:
        path.parent.mkdir(exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        with open(tmp, "wb") as f:
            f.write(blob)
        os.replace(tmp, path)
        return True
    except OSError:
        return False


def read_record(path: Path):
    try:
        with open(path, "rb") as f:
            records = _unpack_all(f, path)
    except OSError:
        return None
    return records[0] if records else None


def drop(ledger: Path) -> None:
    for p in (cache_path(ledger), segments_path(ledger)):
        try:
            os.unlink(p)
        except OSError:
            pass
