"""Appending to and creating ledger files.

An append writes the new events at the end of the file, in place, under the
folder's exclusive lock: nothing before them is rewritten, so a write costs
the event, not the history, and an editor's save is never replaced. Before
writing, the file must still be what the command read (else nothing is
written and the director is told); an intent record lets the next command
undo a torn append; after the fsync the append is recorded as acknowledged
(``_journal``) and added to the read cache as one more stretch.
"""

from __future__ import annotations

import os
import signal
from itertools import repeat
from pathlib import Path

from modtool.base.i18n import Message, t
from modtool.ledger import _cache, _fast, _journal, _report
from modtool.ledger._journal import fsync_dir as _fsync_dir
from modtool.ledger._cache import Stretch, signature
from modtool.ledger._dump import Unstorable, dump_event
from modtool.ledger._lock import EXCLUSIVE, locked
from modtool.ledger._store import (
    _BLOCK_KEY_RE, _EMPTY_FLOW_RE, _EVENTS_KEY_RE, _State, _breaks, _key, _memo, _token, LedgerData, digest_of, keep, load, marks_of, quiet_gc,
)
from modtool.base.problems import Problem, UserError


def atomic_write(path: Path, data: bytes, prefix: str | None = None) -> None:
    """Temp file in the same folder, flush, fsync, os.replace, fsync the folder.

    A crash at any point leaves either the old file or the new one; the temp
    file is removed if anything fails before the rename. ``prefix`` names the
    temp file (default ``.<name>.``; a long name wants a short one)."""
    path = Path(path)
    folder = path.parent
    try:
        mode = os.stat(path).st_mode & 0o7777
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    import tempfile

    fd, tmp = tempfile.mkstemp(prefix=prefix or f".{path.name}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    _fsync_dir(folder)


def _normalize(v):
    if isinstance(v, dict):
        return {k: _normalize(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_normalize(x) for x in v]
    if isinstance(v, bool) or v is None or isinstance(v, (str, float)):
        return v
    if isinstance(v, int):
        return int(v)
    return v


def _with_ids(path: Path, data: LedgerData, events: list[dict]) -> tuple[list[dict], int]:
    """``events`` with an ``id`` each (kept where one is given), placed after
    ``type``; and the highest id now used. New ids count up from the highest
    id in the ledger, in a reference, among vanished events, or in the
    acknowledged record, so an id is never given twice, not even after a
    person deleted the event that had it."""
    from modtool.base.events import highest_id

    stretches = _memo[_key(path)].cached.stretches
    top = max(max((s.top for s in stretches), default=0), highest_id([v.event for v in data.vanished]),
              _journal.top_id(path))
    return _numbered(events, top)


def _numbered(events: list[dict], top: int) -> tuple[list[dict], int]:
    """Each event without an id numbered from ``top`` + 1 (the id right after
    ``type``); the highest id then in use."""
    from modtool.base.events import highest_id

    top = max(top, highest_id(events))
    out = []
    for e in events:
        if "id" not in e:
            top += 1
            e = {"type": e["type"], "id": top, **e}  # "type" keeps its place, first: one copy, not two
        out.append(e)
    return out, top


def _check_event(e) -> None:
    if not isinstance(e, dict) or not isinstance(e.get("type"), str) or not e["type"]:
        raise ValueError(f"事件应是带有文字 type 字段的映射：{e!r}")


def _check_events(events: list) -> None:
    """``_check_event`` of each: in three C-level passes when all are plain
    dicts with a text type (an import appends a hundred thousand)."""
    if frozenset((dict,)).issuperset(map(type, events)):
        types = list(map(dict.get, events, repeat("type")))
        if _STR.issuperset(map(type, types)) and all(types):
            return
    for e in events:
        _check_event(e)


class _Encoded:
    """New events as written: ``chunk`` (UTF-8, LF line ends), the line
    count of each event, and for one-line events their JSON array (the
    acknowledged record and the read cache keep it as is)."""

    __slots__ = ("chunk", "counts", "array")

    def __init__(self, chunk: bytes, counts: list[int] | None, array: bytes | None):
        self.chunk, self.counts, self.array = chunk, counts, array


def _dump_lines_checked(events: list[dict], indent: int) -> _Encoded:
    """One JSON line per event, after checking each holds only what JSON and
    YAML read alike: str keys; str, int, bool, None, lists and mappings.

    The fast reader takes such a line as JSON where JSON and YAML agree on it
    (``_fast.json_item``); ``event_json`` escapes the characters where they
    would not. tests/test_ledger_roundtrip.py checks both readers agree."""
    for e in events:
        if e.__class__ is not dict or not e or not _json_plain(e):
            raise ValueError(f"内部错误：这个事件无法无损写进账本：{e!r}")
    pad = " " * indent + "- "
    from modtool.ledger._dump import event_json, event_lines

    quick = event_lines(events, pad)
    if quick is not None:
        return _Encoded(quick[0], None, quick[1])
    # Event by event: escapes a character YAML does not read raw, or refuses it.
    texts = [event_json(e) for e in events]
    return _Encoded("".join([pad + t + "\n" for t in texts]).encode("utf-8"), None,
                    ("[" + ",".join(texts) + "]").encode("utf-8"))


_PLAIN_TYPES = (str, int, bool, type(None))
_PLAIN = frozenset(_PLAIN_TYPES)
_STR = frozenset((str,))


def _json_plain(v) -> bool:
    """Only str keys and str, int, bool, None, lists and mappings (the types
    of a container's items gathered at once: an import checks a hundred
    thousand events)."""
    t = type(v)
    if t is dict:
        if not _STR.issuperset(map(type, v)):
            return False
        values = v.values()
    elif t is list:
        values = v
    else:
        return t in _PLAIN
    kinds = set(map(type, values))
    if _PLAIN.issuperset(kinds):
        return True
    if not _PLAIN.issuperset(kinds - {dict, list}):
        return False
    return all(_json_plain(x) for x in values if type(x) is dict or type(x) is list)


def _dump_checked(events: list[dict], indent: int, one_line: bool = False) -> _Encoded:
    """The text of ``events`` (each checked by ``_check_event``), verified to
    read back exactly as given."""
    if one_line:
        return _dump_lines_checked(events, indent)
    texts = [dump_event(e, indent=indent) for e in events]
    probe = "events:\n" + "".join(texts)
    try:
        back = [v for _, v in _fast.Reader(probe.split("\n")).events(1)]
    except _fast.GiveUp:
        from modtool.ledger._slow import read_full

        _, items, _, _ = read_full(probe, "<新事件>")
        back = [v for _, v in items]
    if repr(back) != repr([_normalize(e) for e in events]):
        raise ValueError(f"内部错误：这些事件无法无损写进账本：{events!r}")
    return _Encoded("".join(texts).encode("utf-8"), [t.count("\n") for t in texts], None)


def _storable(events: list[dict], indent: int, one_line: bool, source: str) -> _Encoded:
    """Dump ``events``; a value that cannot be stored exactly (a lone
    surrogate, from a broken import) is a UserError raised before anything
    is written."""
    try:
        return _dump_checked(events, indent, one_line)
    except Unstorable as exc:
        raise UserError(Problem(source, "{exc}；这次什么也没写", exc=exc)) from None


class _NoInterrupt:
    """Ctrl-C (and a polite kill) wait until the append is whole and recorded."""

    _SIGNALS = {getattr(signal, n) for n in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, n)}

    def __enter__(self):
        self.old = None
        if hasattr(signal, "pthread_sigmask"):
            self.old = signal.pthread_sigmask(signal.SIG_BLOCK, self._SIGNALS)
        return self

    def __exit__(self, *exc):
        if self.old is not None:
            signal.pthread_sigmask(signal.SIG_SETMASK, self.old)
        return False


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        n = os.write(fd, view)
        view = view[n:]


def _newline(path: Path, crlf: bool) -> bytes:
    if not crlf:
        return b"\n"
    raw = path.read_bytes()
    return b"\r\n" if b"\r\n" in raw else (b"\r" if b"\r" in raw else b"\n")


_CHANGED = "账本在本命令读取之后被改动过（可能是编辑器保存了），这次什么也没写；请重新运行命令"
_CANNOT = "无法写入账本：{why}；这次什么也没写"
# After a write that an editor's save (or a replaced file) overlapped, by
# what _take_back found: the words say exactly what the ledger now holds.
_RACED = {
    "removed": "写入时账本被其他程序同时改动了（可能是编辑器保存了）；已把这次写进去的内容撤回，账本是那个程序保存的样子，这次什么也没写；请先用 modtool check 看一下账本，再重新运行命令",
    "absent": "写入时账本被其他程序同时替换或改动了（可能是编辑器保存了）；这次的记录不在账本里，什么也没写；请先用 modtool check 看一下账本，再重新运行命令",
    "partial": "写入时账本被其他程序同时改动了（可能是编辑器保存了）；账本末尾可能留有这次记录的一部分：请用 modtool check 看一下账本末尾，删掉残缺的那几行后再重新运行命令",
}
_UNACKNOWLEDGED = {
    "removed": "无法写入 modtool 的确认记录（.modtool/acknowledged.jsonl）：{why}；已把这次写进账本的内容撤回，这次什么也没写",
    "absent": "无法写入 modtool 的确认记录（.modtool/acknowledged.jsonl）：{why}；这次的记录不在账本里，什么也没写",
    "partial": "无法写入 modtool 的确认记录（.modtool/acknowledged.jsonl）：{why}；账本末尾可能留有这次记录的一部分：请用 modtool check 看一下账本末尾",
}


def _failed(exc: OSError, path: Path, size: int) -> Message:
    """A failed write (disk full), after recovery took its piece back out."""
    why = exc.strerror or str(exc)
    if os.path.getsize(path) == size:
        return Message("写入账本失败：{why}；已把账本恢复到写入之前，这次什么也没写", why=why)
    return Message("写入账本失败：{why}；账本末尾可能留有这次记录的一部分：请用 modtool check 看一下账本末尾", why=why)


def _landed(fd: int, path: Path, size: int, tail: str, blob: bytes, after: os.stat_result) -> bool:
    """Our bytes are in the ledger, right after the bytes we read, and the
    ledger is still the file we wrote to (read back, not assumed)."""
    try:
        now = os.stat(path)
    except OSError:
        return False
    if now.st_ino != after.st_ino or now.st_dev != after.st_dev or after.st_size != size + len(blob):
        return False
    start = max(0, size - _journal.TAIL)
    back = os.pread(fd, size + len(blob) - start, start)
    return back[size - start:] == blob and _journal.sha(back[: size - start]) == tail


def _take_back(fd: int, path: Path, size: int, blob: bytes) -> str:
    """Remove our append from the ledger if it is there, at its end, untouched:
    "removed"; "absent": the ledger holds none of it (the file was replaced,
    or our bytes were overwritten); "partial": a piece of it may remain."""
    try:
        if os.stat(path).st_ino != os.fstat(fd).st_ino:
            return "absent"  # we wrote to a file that is no longer the ledger
        end = os.fstat(fd).st_size
        if end >= len(blob) and os.pread(fd, len(blob), end - len(blob)) == blob:
            os.ftruncate(fd, end - len(blob))
            os.fsync(fd)
            return "removed"
        data = os.pread(fd, end, 0)
    except OSError:
        return "partial"
    if blob in data:
        return "partial"
    piece = blob[-min(len(blob), 16):]
    return "partial" if len(blob) > 16 and data.endswith(piece) else "absent"


@quiet_gc
def append(path: Path, events: list[dict], expect_digest: str | None = None, one_line: bool = False,
           _acknowledge: bool = True, _assign_ids: bool = True) -> LedgerData:
    """Append events to the end of the ledger, never rewriting what is there.

    ``one_line`` writes each event as one JSON line (``dump_event_line``),
    for bulk imports; otherwise as a block mapping (``dump_event``).

    With ``expect_digest`` (LedgerData.digest from an earlier load) refuse if
    the file changed since. Comments and layout survive byte for byte.
    Returns the ledger as it is after the append.

    Each event without an ``id`` gets the next one (``modtool.base.events``): one
    more than any id the ledger holds, names, or ever acknowledged.
    """
    path = Path(path)
    source = str(path)
    events = list(events)
    _check_events(events)
    with locked(path, EXCLUSIVE):
        data = load(path)
        if expect_digest is not None and data.digest != expect_digest:
            raise UserError(Problem(source, _CHANGED))
        if not events:
            return data
        top = None
        if _assign_ids:
            events, top = _with_ids(path, data, events)
        state = _memo[_key(path)]
        c = state.cached
        enc = _storable(events, c.item_col if c.item_col is not None else 2, one_line, source)
        newline = _newline(path, c.crlf)
        chunk = enc.chunk
        if newline != b"\n":
            chunk = chunk.replace(b"\n", newline)
        if c.flow_empty:
            return _append_rewriting_events_line(path, state, chunk, newline, events, one_line, enc.array, source, top)
        blob = chunk if c.ends_nl or c.size == 0 else newline + chunk
        first_line = c.lines + 1 + (0 if blob is chunk else 1)
        digest = digest_of(blob)
        try:
            fd = os.open(path, os.O_RDWR | os.O_APPEND)
        except OSError as exc:
            raise UserError(Problem(source, _CANNOT, why=exc.strerror or exc)) from None
        try:
            before = os.fstat(fd)
            if signature(before) != state.sig:
                raise UserError(Problem(source, _CHANGED))
            size = before.st_size
            tail = _journal.sha(os.pread(fd, min(size, _journal.TAIL), max(0, size - _journal.TAIL)))
            try:
                _journal.write_intent(path, before.st_ino, size, tail, blob)
            except OSError as exc:  # disk full, a read-only folder: the ledger not touched yet
                raise UserError(Problem(source, _CANNOT, why=exc.strerror or exc)) from None
            with _NoInterrupt():
                try:
                    _write_all(fd, blob)
                    os.fsync(fd)
                except OSError as exc:  # disk full, a file size limit
                    _journal.recover(path)
                    raise UserError(Problem(source, _failed(exc, path, size))) from None
                except BaseException:
                    _journal.recover(path)
                    raise
                after = os.fstat(fd)
                if not _landed(fd, path, size, tail, blob, after):
                    # An editor saved in place (or replaced the file) while we
                    # wrote: our bytes are taken back out if they are there.
                    outcome = _take_back(fd, path, size, blob)
                    _journal.clear_intent(path)
                    _memo.pop(_key(path), None)
                    _cache.drop(path)
                    raise UserError(Problem(source, _RACED[outcome]))
                if _acknowledge:
                    try:
                        _journal.record(path, size, blob, first_line, events, one_line, signature(after),
                                        not data.vanished, enc.array, top)
                    except OSError as exc:  # the acknowledged record cannot be written: not acknowledged, so not kept
                        outcome = _take_back(fd, path, size, blob)
                        _journal.clear_intent(path)
                        _memo.pop(_key(path), None)
                        _cache.drop(path)
                        why = exc.strerror or str(exc)
                        raise UserError(Problem(source, _UNACKNOWLEDGED[outcome], why=why)) from None
                _journal.clear_intent(path)
                _report.wrote(first_line, events)
        finally:
            os.close(fd)
        return _remember(path, state, data, blob, digest, enc, events, first_line, size, after, top)


def _remember(path: Path, state: _State, data: LedgerData, blob: bytes, digest: str, enc: _Encoded,
              events: list[dict], first_line: int, size: int, after: os.stat_result, top: int | None) -> LedgerData:
    """Our own append, added to what this process and the read cache know,
    so the next read parses nothing: the events are what was written (one-line
    events: their JSON array as written, decoded only if asked for; block
    events: normalised as the reader would give them)."""
    key = _key(path)
    c = state.cached
    if enc.array is not None:  # one line each
        types = [e["type"] for e in events]
        lines = list(range(first_line, first_line + len(events)))
        fields = _cache.Fields.from_json(enc.array)
    else:
        types, lines, datas = [], [], []
        line = first_line
        for e, n in zip(events, enc.counts):
            d = _normalize(e)
            types.append(d.pop("type"))
            datas.append(d)
            lines.append(line)
            line += n
        fields = _cache.Fields.decoded(datas)
    own = top if top is not None and events[-1].get("id") == top else None  # top is at least every id in them
    if own is None:
        from modtool.base.events import highest_id

        own = highest_id(events)
    stretch = Stretch(size, size + len(blob), digest, types=types, lines=lines, datas=fields, top=own)
    new = stretch.make_events()
    c.stretches.append(stretch)
    c.lines += _breaks(blob)
    c.ends_nl = True
    sig = signature(after)
    c = keep(path, c, stretch, sig)
    out = LedgerData(c.header, data.events + new, path, _token(c), marks=marks_of(c))
    _memo[key] = _State(sig, state.verified_ns, c, out, own=True)
    return out


def _append_rewriting_events_line(path: Path, state: _State, chunk: bytes, newline: bytes, events: list[dict],
                                  one_line: bool, array: bytes | None, source: str, top: int | None = None) -> LedgerData:
    """A hand-written `events: []` becomes `events:` (the rest of its line kept)
    and the events follow: the one append that rewrites the file, atomically,
    after checking it is still what was read."""
    from modtool.ledger._store import _verified_prefix

    raw = path.read_bytes()
    c = state.cached
    if len(raw) != c.size or _verified_prefix(c, raw) != len(c.stretches):
        raise UserError(Problem(source, _CHANGED))
    lines = raw.split(newline)
    kline = lines[c.events_line]
    m = _EMPTY_FLOW_RE.match(kline)
    if m is not None and not c.count():
        bom = b"\xef\xbb\xbf" if kline.startswith(b"\xef\xbb\xbf") else b""
        lines[c.events_line] = bom + b"events:" + kline[m.end():]
    elif not _BLOCK_KEY_RE.match(kline):
        raise UserError(
            Problem(source, "追加事件要求 events: 单独占一行，下面是「- type: …」列表；请先这样改写", c.events_line + 1)
        )
    new = newline.join(lines)
    if new and not new.endswith(newline):
        new += newline
    first_line = _breaks(new) + 1
    with _NoInterrupt():
        try:
            atomic_write(path, new + chunk)
        except OSError as exc:
            raise UserError(Problem(source, _CANNOT, why=exc.strerror or exc)) from None
        try:
            _journal.record(path, len(new), chunk, first_line, events, one_line, signature(os.stat(path)),
                            not state.data.vanished, array, top)
        except OSError as exc:  # not acknowledged: the ledger as it was read is put back
            why = exc.strerror or str(exc)
            try:
                atomic_write(path, raw)
            except OSError:
                raise UserError(Problem(source, _UNACKNOWLEDGED["partial"], why=why)) from None
            finally:
                _memo.pop(_key(path), None)
                _cache.drop(path)
            raise UserError(Problem(source, _UNACKNOWLEDGED["removed"], why=why)) from None
        _report.wrote(first_line, events)
    _memo.pop(_key(path), None)
    _cache.drop(path)
    return load(path)


def write_new(path: Path, header_text: str, events: list[dict]) -> None:
    """Create a ledger: ``header_text`` (YAML of the header mapping, no
    ``events``) followed by ``events:`` and the events. Refuses to overwrite."""
    from ruamel.yaml.error import YAMLError

    from modtool.ledger._slow import parse_header, yaml_problem

    path = Path(path)
    source = str(path)
    if header_text and not header_text.endswith("\n"):
        header_text += "\n"
    try:
        header = parse_header(header_text)
    except YAMLError as exc:
        raise UserError(yaml_problem(exc, header_text, source)) from None
    if header is not None and not isinstance(header, dict):
        raise UserError(Problem(source, "账本开头应是映射（键: 值）", 1))
    if (header and "events" in header) or _EVENTS_KEY_RE.search(header_text):
        raise ValueError("header_text 不能含有 events:")
    # An empty list is written `events:` (null), so the first append only adds lines.
    events = list(events)
    for e in events:
        _check_event(e)
    events, _ = _numbered(events, 0)
    data = (header_text + "events:\n").encode("utf-8") + (_storable(events, 2, False, source).chunk if events else b"")
    path.parent.mkdir(parents=True, exist_ok=True)
    with locked(path, EXCLUSIVE):
        if path.exists():
            raise UserError(Problem(source, "账本已存在，不会覆盖它；要重新开始请先把它移走"))
        atomic_write(path, data)


def restore(path: Path, forget: bool = False, check=None) -> list:
    """Put back the acknowledged events that vanished from the ledger (appended
    at its end, as they were written), or with ``forget`` accept that they
    are gone. Returns what was restored or forgotten (``_journal.Vanished``).
    ``check(missing)``, under the lock before anything is written, may refuse
    (raise)."""
    path = Path(path)
    with locked(path, EXCLUSIVE):
        data = load(path)
        missing = list(data.vanished)
        if not missing:
            return []
        if check is not None:
            check(missing)
        if forget:
            raw = path.read_bytes()
            try:
                _journal.rebase(path, lambda a, b: raw[a:b], len(raw), signature(os.stat(path)),
                                [_journal.canonical(v.event.get("type", ""), {k: x for k, x in v.event.items() if k != "type"})
                                 for v in missing], strict=True)
            except OSError as exc:
                raise UserError(Problem(str(path), "无法写入 modtool 的确认记录（.modtool/acknowledged.jsonl）：{why}；什么也没改", why=exc.strerror or exc)) from None
        else:
            flags = _journal.vanished_one_line(path)
            groups: list[tuple[bool, list[dict]]] = []
            for v in missing:
                flag = flags.get(_journal.canonical(v.event.get("type", ""), {k: x for k, x in v.event.items() if k != "type"}), False)
                if groups and groups[-1][0] == flag:
                    groups[-1][1].append(v.event)
                else:
                    groups.append((flag, [v.event]))
            for flag, evs in groups:
                append(path, evs, one_line=flag, _acknowledge=False, _assign_ids=False)
            raw = path.read_bytes()
            _journal.rebase(path, lambda a, b: raw[a:b], len(raw), signature(os.stat(path)), [])
        _memo.pop(_key(path), None)
        return missing
