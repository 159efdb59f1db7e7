"""A read cache of the parsed ledger that grows with it.

The ledger stays the only source of truth; the cache holds exactly what
parsing its bytes gave and may be deleted at any time. It lives in
``GAME_DIR/.modtool/``: a *base* (``ledger-cache.json``: header and events of
the first ``size`` bytes, with their sha256) and *segments*
(``ledger-cache.tail.jsonl``, one JSON line per later stretch of bytes with
its own sha256 and events). An append adds a segment, so writing costs the
event; a read after an append parses only the new tail. When segments pile
up the base is rewritten whole (amortised: when they hold as many events as
the base).

Both name the file's stat signature at the time they were written. A read
whose ledger has the same signature, last changed well before the cache was
written (git's "racy clean" rule), is answered without reading the ledger;
otherwise the bytes are hashed and checked stretch by stretch. JSON, not
pickle, so a game folder from someone else cannot run code here.
"""

from __future__ import annotations

import json
import math
import os
import time
from dataclasses import dataclass, field
from pathlib import Path

from modtool import __version__
from modtool.events import Event

CACHE_DIR = ".modtool"
BASE_NAME = "ledger-cache.json"
SEGMENTS_NAME = "ledger-cache.tail.jsonl"
_FORMAT = f"ledger-cache-2/{__version__}"
RACY_NS = 1_000_000_000  # a file changed within this long before the cache was written is hashed


def cache_path(ledger: Path) -> Path:
    return Path(ledger).parent / CACHE_DIR / BASE_NAME


def segments_path(ledger: Path) -> Path:
    return Path(ledger).parent / CACHE_DIR / SEGMENTS_NAME


def signature(st: os.stat_result) -> list[int]:
    return [st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns]


def trusted(sig: list[int], written_ns: int) -> bool:
    """The file behind ``sig`` cannot have changed unseen since ``written_ns``."""
    return max(sig[3], sig[4]) < written_ns - RACY_NS


def plain(value) -> bool:
    """True if JSON gives ``value`` back unchanged (str keys, no dates, no NaN)."""
    t = type(value)
    if t is str or t is int or t is bool or value is None:
        return True
    if t is dict:
        return all(type(k) is str and plain(v) for k, v in value.items())
    if t is list:
        return all(plain(v) for v in value)
    if t is float:
        return math.isfinite(value)
    return False


@dataclass
class Stretch:
    start: int
    end: int
    sha: str  # of ledger bytes [start:end]
    events: list  # [[type, data, line]]


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
            out.extend(Event(t, d, line) for t, d, line in s.events)
        return out

    def count(self) -> int:
        return sum(len(s.events) for s in self.stretches)


def read(ledger: Path) -> Cached | None:
    try:
        with open(cache_path(ledger), encoding="utf-8") as f:
            b = json.load(f)
        if b.get("format") != _FORMAT:
            return None
        c = Cached(b["header"], b["item_col"], b["events_line"], b["flow_empty"], b["lines"], b["ends_nl"],
                   b["crlf"], [Stretch(0, b["size"], b["sha"], b["events"])], b["sig"], b["at"])
    except (OSError, ValueError, KeyError, TypeError):
        return None
    try:
        with open(segments_path(ledger), encoding="utf-8") as f:
            text = f.read()
    except (OSError, ValueError):
        return c
    for line in text.split("\n"):
        if not line:
            continue
        try:
            s = json.loads(line)
            if s.get("format") != _FORMAT or s["start"] > c.size:
                break
            if s["start"] < c.size:
                continue  # written twice by two readers at once, or for an older base
            c.stretches.append(Stretch(s["start"], s["end"], s["sha"], s["events"]))
            c.sig, c.written_ns = s["sig"], s["at"]
            c.lines, c.ends_nl = s["lines"], s["ends_nl"]
        except (ValueError, KeyError, TypeError):
            break  # a torn or foreign line: the rest is not trusted
    return c


def _tmp_write(path: Path, text: str) -> None:
    path.parent.mkdir(exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, path)


def write_base(ledger: Path, c: Cached, sig: list[int]) -> None:
    """Best effort: a cache that cannot be written is simply not there."""
    if not plain(c.header) or not all(plain(d) for s in c.stretches for _, d, _ in s.events):
        drop(ledger)
        return
    events = [e for s in c.stretches for e in s.events]
    data = {"format": _FORMAT, "size": c.size, "sha": c.stretches[-1].sha if len(c.stretches) == 1 else None,
            "sig": sig, "at": time.time_ns(), "header": c.header, "item_col": c.item_col,
            "events_line": c.events_line, "flow_empty": c.flow_empty, "lines": c.lines, "ends_nl": c.ends_nl,
            "crlf": c.crlf, "events": events}
    if data["sha"] is None:
        return  # the caller passes one stretch covering the whole file
    try:
        _tmp_write(cache_path(ledger), json.dumps(data, ensure_ascii=False, separators=(",", ":")))
        try:
            os.unlink(segments_path(ledger))
        except FileNotFoundError:
            pass
    except (OSError, ValueError):
        drop(ledger)


def add_segment(ledger: Path, s: Stretch, sig: list[int], lines: int, ends_nl: bool) -> bool:
    """Append one stretch; False if it could not be (the caller drops the cache)."""
    if not all(plain(d) for _, d, _ in s.events):
        return False
    data = {"format": _FORMAT, "start": s.start, "end": s.end, "sha": s.sha, "sig": sig, "at": time.time_ns(),
            "lines": lines, "ends_nl": ends_nl, "events": s.events}
    try:
        text = json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n"
        fd = os.open(segments_path(ledger), os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
        try:
            os.write(fd, text.encode("utf-8"))
        finally:
            os.close(fd)
        return True
    except (OSError, ValueError):
        return False


def drop(ledger: Path) -> None:
    for p in (cache_path(ledger), segments_path(ledger)):
        try:
            os.unlink(p)
        except OSError:
            pass
