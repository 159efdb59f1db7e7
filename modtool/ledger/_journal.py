"""modtool's own records beside the ledger, in ``GAME_DIR/.modtool/``.

``append.intent``: written (and fsynced) before an append touches the ledger,
removed after. If a command dies mid-append (SIGKILL, power), the next
command finds it and puts the ledger back to the state before that append
(a torn tail is never mistaken for data), or keeps the append if it is
whole. Like a rollback journal, recovery runs on the next open.

``acknowledged.jsonl``: one line per append that a command reported as done,
holding the events themselves. An editor that saves a stale buffer over an
appended event cannot be prevented, but the next command compares what it
acknowledged with what the ledger holds, names what vanished, and
``modtool restore`` puts it back (or ``--forget`` accepts the removal).
The check is cheap while the ledger only grew by modtool's appends: the last
entry's bytes are where it wrote them.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

CACHE_DIR = ".modtool"
INTENT_NAME = "append.intent"
ACK_NAME = "acknowledged.jsonl"
TAIL = 65536  # bytes before an offset whose hash stands for "the file up to there"


def folder(ledger: Path) -> Path:
    return Path(ledger).parent / CACHE_DIR


def sha(data) -> str:
    return hashlib.sha256(data).hexdigest()


def fsync_dir(path: Path) -> None:
    """Make a rename or a new file in ``path`` durable (not on Windows, which cannot open a folder)."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _read_tail(fd: int, end: int) -> bytes:
    start = max(0, end - TAIL)
    return os.pread(fd, end - start, start)


# -- the intent of an append in progress -------------------------------------

# An append up to this size is kept whole in its intent (an import of a
# 100,000-post dump: about 30 MB, written and synced twice costs some 3% of
# the import), so recovery can tell byte for byte whether what follows the
# old end is a piece of it (and so modtool's to remove) or a person's edit
# (kept). A larger one keeps the hash of each block: a torn last block that
# no hash can vouch for is left for the director, never guessed at.
KEEP_WHOLE = 512 << 20
BLOCK = 1 << 16


def _blocks(chunk: bytes) -> list[str]:
    view = memoryview(chunk)
    return [sha(view[i:i + BLOCK]) for i in range(0, len(chunk), BLOCK)]


def write_intent(ledger: Path, ino: int, size: int, prefix_tail: str, chunk: bytes) -> Path:
    """Before an append touches the ledger. Raises OSError (disk full, a
    read-only folder) having left no intent behind."""
    d = folder(ledger)
    d.mkdir(exist_ok=True)
    path = d / INTENT_NAME
    head = {"ino": ino, "size": size, "tail": prefix_tail, "len": len(chunk)}
    whole = len(chunk) <= KEEP_WHOLE
    if not whole:
        head["blocks"] = _blocks(chunk)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    try:
        for data in (json.dumps(head).encode("ascii") + b"\n", chunk if whole else b""):
            view = memoryview(data)  # the append itself not copied into one more buffer
            while view:
                view = view[os.write(fd, view):]
        os.fsync(fd)
    except BaseException:
        os.close(fd)
        clear_intent(ledger)
        raise
    os.close(fd)
    fsync_dir(d)
    return path


def clear_intent(ledger: Path) -> None:
    try:
        os.unlink(folder(ledger) / INTENT_NAME)
    except OSError:
        pass


def has_intent(ledger: Path) -> bool:
    return (folder(ledger) / INTENT_NAME).exists()


def _read_intent(path: Path):
    """(head, the append's bytes or None) of an intent; None if there is none
    or it is not whole (torn before the ledger was touched)."""
    raw = path.read_bytes()
    nl = raw.find(b"\n")
    head = json.loads(raw[: nl if nl >= 0 else len(raw)].decode("ascii"))
    for k in ("ino", "size", "len"):
        head[k] = int(head[k])
    head["tail"] = str(head["tail"])
    if "blocks" in head:
        return head, None
    if "sha" in head:  # an intent written before appends were kept whole in it
        return head, None
    chunk = raw[nl + 1:] if nl >= 0 else b""
    if len(chunk) != head["len"]:
        raise ValueError("torn intent")
    return head, chunk


def _ours(head: dict, chunk: bytes | None, got: bytes) -> bool | None:
    """Is ``got`` (what follows the old end now) the whole append (True), a
    piece of it and nothing else (False), or something else, or a piece no
    record can vouch for (None: left alone)?"""
    length = head["len"]
    if chunk is not None:
        if got == chunk:
            return True
        return False if len(got) < length and chunk.startswith(got) else None
    if "sha" in head:  # an intent written before appends were kept in it: only the whole append's hash
        return True if len(got) == length and sha(got) == head["sha"] else None
    blocks = head["blocks"]
    if len(got) > length:
        return None
    whole = len(got) // BLOCK
    if _blocks(got[: whole * BLOCK]) != blocks[:whole]:
        return None
    if len(got) == length:
        return True if whole == len(blocks) or sha(got[whole * BLOCK:]) == blocks[whole] else None
    return False if len(got) % BLOCK == 0 else None


def recover(ledger: Path) -> str | None:
    """Finish or roll back an interrupted append (caller holds the exclusive
    lock). Returns a note for the director (its catalogue msgid and fields:
    the caller words it, so this module imports no catalogue), or None.

    Only bytes modtool wrote and nobody touched since are removed: what
    follows the ledger's old end must be a piece of the intended append, the
    bytes before it must be as they were, and it must be the same file. A
    person who fixed the torn line by hand keeps the fix (and is told)."""
    path = folder(ledger) / INTENT_NAME
    try:
        head, chunk = _read_intent(path)
    except FileNotFoundError:
        return None
    except (OSError, ValueError, KeyError, TypeError, UnicodeDecodeError):
        clear_intent(ledger)  # torn before it was whole: the ledger was not touched yet
        return None
    size, length = head["size"], head["len"]
    note = None
    try:
        fd = os.open(ledger, os.O_RDWR)
    except OSError:
        clear_intent(ledger)
        return None
    try:
        st = os.fstat(fd)
        same_prefix = st.st_ino == head["ino"] and st.st_size >= size and sha(_read_tail(fd, size)) == head["tail"]
        if same_prefix and st.st_size > size:
            got = os.pread(fd, min(length + 1, st.st_size - size), size)
            ours = _ours(head, chunk, got)
            line = _line_at(fd, size)
            if ours is False:
                os.ftruncate(fd, size)  # a torn tail: back to the state before the append
                os.fsync(fd)
                note = ("上一次写入账本时命令被中断，只写了一半；已把账本恢复到那次写入之前", {})
            elif ours is True:
                note = ("上一次写入账本的命令在报告完成之前被中断；它的记录已完整写入（第 {line} 行起），已保留：不要重复运行那次命令", {"line": line})
            else:
                note = ("上一次写入账本时命令被中断，之后账本又被改过（第 {line} 行起）；modtool 没有动它，请用 modtool check 检查那几行", {"line": line})
    finally:
        os.close(fd)
    clear_intent(ledger)
    return note


def _line_at(fd: int, offset: int) -> int:
    """The 1-based line that starts at or holds byte ``offset``."""
    n, pos = 1, 0
    while pos < offset:
        piece = os.pread(fd, min(1 << 20, offset - pos), pos)
        if not piece:
            break
        n += piece.count(b"\n")
        pos += len(piece)
    return n


# -- what modtool acknowledged ----------------------------------------------------


def canonical(etype: str, data: dict) -> str:
    return json.dumps({"type": etype, **data}, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def record(ledger: Path, start: int, chunk: bytes, first_line: int, events: list[dict], one_line: bool,
           sig: list[int], clean: bool, events_array: bytes | None = None, top: int | None = None) -> None:
    """Note an append that is about to be reported as done (after its fsync).

    ``sig`` is the ledger's stat signature right after it; ``clean``: nothing
    acknowledged was missing when the command read the ledger."""
    # The events go on a line of their own before the entry, so the newest
    # entry (read on every command) stays small however large the append was.
    # ``events_array``: the events' JSON array as written to the ledger (an
    # import's hundred thousand are not encoded twice).
    head = (b'{"events":', events_array, b"}") if events_array is not None else {"events": events}
    entry = {"start": start, "end": start + len(chunk), "sha": sha(chunk),
             "line": first_line, "one_line": one_line, "sig": sig, "clean": clean}
    top = max(top or 0, top_id(ledger))
    if top:
        entry["top"] = top  # the highest event id acknowledged so far (ids are never given twice)
    _append_line(ledger, head, entry, strict=True)


def top_id(ledger: Path) -> int:
    """The highest event id the acknowledged record names (0 without one)."""
    last = _last_line(ledger)
    v = last.get("top") if isinstance(last, dict) else None
    if type(v) is int:
        return v
    if last is _UNSURE:
        return max((e.get("top") for e in _entries(ledger) if type(e.get("top")) is int), default=0)
    return 0


def _append_line(ledger: Path, *entries: dict | tuple, strict: bool = False) -> None:
    """Add ``entries`` to the acknowledged record. ``strict`` (an append
    being acknowledged): a failure raises OSError, with the record as it was
    before; otherwise (a read noting what it checked) it is let go."""
    d = folder(ledger)
    pieces = []
    for e in entries:
        if isinstance(e, tuple):  # its JSON text already, in pieces: joined in one copy with the rest
            pieces.extend(e)
        else:
            pieces.append(json.dumps(e, ensure_ascii=False, separators=(",", ":")).encode("utf-8", "surrogatepass"))
        pieces.append(b"\n")
    data = b"".join(pieces)
    try:
        d.mkdir(exist_ok=True)
        fd = os.open(d / ACK_NAME, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    except OSError:
        if strict:
            raise
        return  # a read-only folder: a read notes nothing there
    try:
        start = os.fstat(fd).st_size
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
            os.fsync(fd)
        except OSError:
            try:
                os.ftruncate(fd, start)  # no torn entry left behind
            except OSError:
                pass
            if strict:
                raise
    finally:
        os.close(fd)


def _entries(ledger: Path) -> list[dict]:
    try:
        with open(folder(ledger) / ACK_NAME, encoding="utf-8", errors="surrogatepass") as f:
            lines = f.read().split("\n")
    except (OSError, UnicodeDecodeError):
        return []
    out = []
    events = None
    for line in lines:
        if not line:
            continue
        try:
            entry = json.loads(line)
        except ValueError:
            events = None
            continue  # a line torn by a kill: it was never acknowledged
        if not isinstance(entry, dict):
            continue
        if set(entry) == {"events"}:
            events = entry["events"]
            continue
        if "start" in entry:
            if events is None:
                continue
            entry["events"] = events
        events = None
        out.append(entry)
    return out


_UNSURE = {"clean": False}  # a last line that is not a whole entry: check everything


def _last_line(ledger: Path) -> dict | None:
    """The last whole entry, read from the end of the file (cheap)."""
    try:
        with open(folder(ledger) / ACK_NAME, "rb") as f:
            f.seek(0, os.SEEK_END)
            size = f.tell()
            step = 4096
            buf = b""
            pos = size
            while pos > 0:
                n = min(step, pos)
                pos -= n
                f.seek(pos)
                buf = f.read(n) + buf
                lines = buf.split(b"\n")
                # lines[-1] is b"" (file ends with a newline) or a torn piece
                for raw in reversed(lines[1:] if pos > 0 else lines):
                    if not raw:
                        continue
                    if raw.startswith(b'{"events":'):
                        return _UNSURE  # events without their entry: an append that was cut short
                    try:
                        entry = json.loads(raw.decode("utf-8", "surrogatepass"))
                    except ValueError:
                        return _UNSURE  # a torn line: look at every entry
                    return entry if isinstance(entry, dict) else _UNSURE
                step *= 4
    except OSError:
        return None
    return None


@dataclass
class Vanished:
    line: int  # where it stood when modtool wrote it
    event: dict


def quick_ok(read, size: int, sig: list[int], last: dict | None) -> bool:
    """True if the ledger (``size`` bytes, stat signature ``sig``;
    ``read(start, end)`` gives a slice) is untouched since the newest entry,
    and everything acknowledged was present then."""
    if last is None:
        return True
    try:
        if last.get("sig") != sig or not last.get("clean", True):
            return False
        if "rebase" in last:
            end = int(last["size"])
            return size == end and sha(read(max(0, end - TAIL), end)) == last["tail"]
        start, end = int(last["start"]), int(last["end"])
        return size == end and sha(read(start, end)) == last["sha"]
    except (KeyError, TypeError, ValueError, OSError):
        return False


def check(ledger: Path, read, size: int, sig: list[int], events) -> list[Vanished]:
    """Acknowledged events missing from ``events`` (the ledger as read now,
    ``size`` bytes with stat signature ``sig``, ``read(start, end)`` a slice).

    Cheap while the ledger is as modtool's last append or check left it;
    otherwise every acknowledged event is looked for (and, when all are
    there, that is noted so the next read is cheap again)."""
    last = _last_line(ledger)
    if quick_ok(read, size, sig, last):
        return []
    expected, forgotten = _expected(ledger)
    have = Counter(canonical(e.type, e.data) for e in events)
    missing = []
    for line, ev in expected:
        key = canonical(ev.get("type", ""), {k: v for k, v in ev.items() if k != "type"})
        if have[key] > 0:
            have[key] -= 1
        elif forgotten[key] > 0:
            forgotten[key] -= 1
        else:
            missing.append(Vanished(line, ev))
    if not missing:
        rebase(ledger, read, size, sig, [])
    return missing


def _expected(ledger: Path) -> tuple[list[tuple[int, dict]], Counter]:
    expected: list[tuple[int, dict]] = []
    forgotten: Counter = Counter()
    for entry in _entries(ledger):
        if "rebase" in entry:
            forgotten.update(entry.get("forgotten") or [])
            continue
        line = entry.get("line") or 0
        evs = entry.get("events") or []
        for i, ev in enumerate(evs):
            if isinstance(ev, dict):
                expected.append((line, ev))
    return expected, forgotten


def rebase(ledger: Path, read, size: int, sig: list[int], forgotten: list[str], strict: bool = False) -> None:
    """Everything acknowledged is present as of these ``size`` bytes (less ``forgotten``)."""
    entry = {"rebase": True, "size": size, "sig": sig, "clean": True,
             "tail": sha(read(max(0, size - TAIL), size)), "forgotten": forgotten}
    top = top_id(ledger)
    if top:
        entry["top"] = top
    _append_line(ledger, entry, strict=strict)


def vanished_one_line(ledger: Path) -> dict[str, bool]:
    """canonical text -> whether it was written as one JSON line (imports)."""
    out = {}
    for entry in _entries(ledger):
        for ev in entry.get("events") or []:
            if isinstance(ev, dict):
                out[canonical(ev.get("type", ""), {k: v for k, v in ev.items() if k != "type"})] = bool(entry.get("one_line"))
    return out
