"""Reading, appending to and creating ledger files; the lock; atomic writes."""

from __future__ import annotations

import hashlib
import os
import re
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from modtool.events import Event
from modtool.ledger import _cache, _fast
from modtool.ledger._dump import dump_event, dump_event_line, event_json
from modtool.problems import Problem, UserError

LOCK_NAME = ".ledger.lock"
LOCK_TIMEOUT = 5.0  # seconds a second writer waits before giving up

_EVENTS_KEY_RE = re.compile(r"^events:", re.M)
# The `events:` line the fast reader accepts: `events:` or `events: []`, maybe a comment.
_EVENTS_LINE_RE = re.compile(r"events:( +\[\])?(?: *| +#.*)$")
_EMPTY_FLOW_RE = re.compile(rb"(?:\xef\xbb\xbf)?events: *\[ *\]")
_BLOCK_KEY_RE = re.compile(rb"(?:\xef\xbb\xbf)?events:(?: *| +#.*)\r?$")


@dataclass
class LedgerData:
    header: dict
    events: list[Event]
    path: Path
    digest: str  # sha256 of the bytes read; pass to append(expect_digest=…)


@dataclass
class _Parsed:
    text: str
    header: dict
    items: list  # [(1-based line, item)]
    item_col: int | None  # column of the items' dashes (None: no items yet)
    events_line: int  # 0-based line of `events:`
    fast: bool


def digest_of(raw: bytes) -> str:
    return hashlib.sha256(raw).hexdigest()


def _read_bytes(path: Path, source: str) -> bytes:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        raise UserError(Problem(source, "找不到账本文件；先用 modtool new 建立游戏")) from None
    except IsADirectoryError:
        raise UserError(Problem(source, "这是一个文件夹，不是账本文件")) from None
    except OSError as exc:
        raise UserError(Problem(source, f"无法读取账本：{exc.strerror}")) from None


def _decode(raw: bytes, source: str) -> str:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        raise UserError(
            Problem(source, "账本不是 UTF-8 编码；请在编辑器里用 UTF-8 另存（第一处无法解码的字节在这一行）", line)
        ) from None
    if text.startswith("\ufeff"):
        text = text[1:]
    if "\r\n" in text:
        text = text.replace("\r\n", "\n")  # same YAML, same line numbers
    return text


def _parse_fast(text: str) -> _Parsed:
    from ruamel.yaml.error import YAMLError

    from modtool.ledger._slow import parse_header

    _fast.check_text(text)
    m = _EVENTS_KEY_RE.search(text)
    if m is None:
        raise _fast.GiveUp
    end = text.find("\n", m.start())
    line = text[m.start() : end if end >= 0 else len(text)]
    lm = _EVENTS_LINE_RE.match(line)
    if lm is None:
        raise _fast.GiveUp
    header_text = text[: m.start()]
    if "\n..." in "\n" + header_text:
        raise _fast.GiveUp  # a document end before events: let ruamel say what it means
    try:
        header = parse_header(header_text)
    except YAMLError:
        raise _fast.GiveUp from None
    if header is None:
        header = {}
    if not isinstance(header, dict) or "events" in header:
        raise _fast.GiveUp
    events_line = text.count("\n", 0, m.start())
    reader = _fast.Reader(text.split("\n"))
    if lm.group(1):  # events: []
        if reader.next_significant(events_line + 1) < reader.n:
            raise _fast.GiveUp
        return _Parsed(text, header, [], None, events_line, True)
    items = reader.events(events_line + 1)
    col = reader.item_indent(events_line + 1) if items else None
    return _Parsed(text, header, items, col, events_line, True)


def _parse(raw: bytes, source: str) -> _Parsed:
    text = _decode(raw, source)
    try:
        return _parse_fast(text)
    except _fast.GiveUp:
        pass
    from modtool.ledger._slow import read_full

    header, items, col, events_line = read_full(text, source)
    return _Parsed(text, header, items, col, events_line, False)


def _to_events(items: list, source: str) -> tuple[list[Event], list[Problem]]:
    events: list[Event] = []
    problems: list[Problem] = []
    for line, item in items:
        if not isinstance(item, dict):
            problems.append(Problem(source, f"事件应是映射（type: … 等字段），现在是「{item}」", line))
            continue
        if "type" not in item:
            problems.append(Problem(source, "事件缺少 type 字段", line))
            continue
        etype = item["type"]
        if not isinstance(etype, str) or not etype:
            problems.append(Problem(source, f"事件的 type 应为文字，现在是「{etype}」", line))
            continue
        del item["type"]  # the items are fresh dicts of ours: no copy
        events.append(Event(etype, item, line))
    return events, problems


def load(path: Path) -> LedgerData:
    """Read a ledger. Raises UserError with every problem found, each with its line."""
    path = Path(path)
    source = str(path)
    raw = _read_bytes(path, source)
    digest = digest_of(raw)
    cached = _cache.read(path, digest)
    if cached is not None:
        return LedgerData(cached[0], cached[1], path, digest)
    parsed = _parse(raw, source)
    events, problems = _to_events(parsed.items, source)
    if problems:
        raise UserError(problems)
    _cache.write(path, digest, parsed.header, events)
    return LedgerData(parsed.header, events, path, digest)


# -- lock ----------------------------------------------------------------------

_process_lock = threading.RLock()
_held: dict[str, list] = {}  # lock path -> [pid, depth, fd]


def _lock_path(path: Path) -> Path:
    path = Path(path)
    folder = path if path.is_dir() else path.parent
    return folder / LOCK_NAME


def _try_lock(fd: int) -> bool:
    try:
        import fcntl
    except ImportError:  # Windows
        import msvcrt

        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
            return True
        except OSError:
            return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return True
    except (BlockingIOError, PermissionError):
        return False


def _unlock(fd: int) -> None:
    try:
        import fcntl
    except ImportError:
        import msvcrt

        os.lseek(fd, 0, os.SEEK_SET)
        msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)
        return
    fcntl.flock(fd, fcntl.LOCK_UN)


def _busy(lock: Path, timeout: float) -> UserError:
    return UserError(
        Problem(str(lock), f"另一个 modtool 正在写这个账本，等了 {timeout:g} 秒仍未结束；请等它完成后再试")
    )


@contextmanager
def locked(path: Path, timeout: float = LOCK_TIMEOUT):
    """Hold the exclusive lock of a game folder (``GAME_DIR/.ledger.lock``).

    ``path`` is the ledger file or its folder. Re-entrant within one process;
    another process waits up to ``timeout`` seconds, then gets a UserError.
    """
    lock = _lock_path(path)
    key = os.path.abspath(lock)
    if not _process_lock.acquire(timeout=timeout):
        raise _busy(lock, timeout)
    try:
        held = _held.get(key)
        if held is not None and held[0] == os.getpid():
            held[1] += 1
            try:
                yield
            finally:
                held[1] -= 1
            return
        fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            deadline = time.monotonic() + timeout
            while not _try_lock(fd):
                if time.monotonic() >= deadline:
                    raise _busy(lock, timeout)
                time.sleep(0.02)
            _held[key] = [os.getpid(), 1, fd]
            try:
                yield
            finally:
                del _held[key]
                _unlock(fd)
        finally:
            os.close(fd)
    finally:
        _process_lock.release()


# -- writing -------------------------------------------------------------------


def _fsync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:  # Windows cannot open a folder
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def atomic_write(path: Path, data: bytes) -> None:
    """Temp file in the same folder, flush, fsync, os.replace, fsync the folder.

    A crash at any point leaves either the old file or the new one; the temp
    file is removed if anything fails before the rename."""
    path = Path(path)
    folder = path.parent
    try:
        mode = os.stat(path).st_mode & 0o7777
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    import tempfile

    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
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


def _check_event(e) -> None:
    if not isinstance(e, dict) or not isinstance(e.get("type"), str) or not e["type"]:
        raise ValueError(f"事件应是带有文字 type 字段的映射：{e!r}")


def _dump_lines_checked(events: list[dict], indent: int) -> str:
    """One JSON line per event, after checking each holds only what JSON and
    YAML read alike: str keys; str, int, bool, None, lists and mappings.

    The fast reader takes such a line as JSON where JSON and YAML agree on it
    (``_fast.json_item``); ``event_json`` escapes the characters where they
    would not. tests/test_ledger_roundtrip.py checks both readers agree."""
    for e in events:
        if not isinstance(e, dict) or not e or not _json_plain(e):
            raise ValueError(f"内部错误：这个事件无法无损写进账本：{e!r}")
    pad = " " * indent + "- "
    return "".join(pad + event_json(e) + "\n" for e in events)


_PLAIN_TYPES = (str, int, bool, type(None))


def _json_plain(v) -> bool:
    t = type(v)
    if t is dict:
        return all(type(k) is str and _json_plain(x) for k, x in v.items())
    if t is list:
        return all(_json_plain(x) for x in v)
    return t in _PLAIN_TYPES


def _dump_checked(events: list[dict], indent: int, one_line: bool = False) -> str:
    """The text of ``events``, verified to read back exactly as given."""
    for e in events:
        _check_event(e)
    if one_line:
        return _dump_lines_checked(events, indent)
    text = "".join(dump_event(e, indent=indent) for e in events)
    probe = "events:\n" + text
    try:
        back = [v for _, v in _fast.Reader(probe.split("\n")).events(1)]
    except _fast.GiveUp:
        from modtool.ledger._slow import read_full

        _, items, _, _ = read_full(probe, "<新事件>")
        back = [v for _, v in items]
    if repr(back) != repr([_normalize(e) for e in events]):
        raise ValueError(f"内部错误：这些事件无法无损写进账本：{events!r}")
    return text


def append(path: Path, events: list[dict], expect_digest: str | None = None, one_line: bool = False) -> None:
    """Append events to the end of the ledger, never re-dumping what is there.

    ``one_line`` writes each event as one JSON line (``dump_event_line``),
    for bulk imports; otherwise as a block mapping (``dump_event``).

    With ``expect_digest`` (LedgerData.digest from an earlier load) refuse if
    the file changed since. Comments and layout survive byte for byte; the
    write is atomic and done under ``locked``.
    """
    path = Path(path)
    source = str(path)
    events = list(events)
    for e in events:
        _check_event(e)
    with locked(path):
        raw = _read_bytes(path, source)
        if expect_digest is not None and digest_of(raw) != expect_digest:
            raise UserError(Problem(source, "账本在读取后被修改过（可能是编辑器保存了），请重试"))
        if not events:
            return
        parsed = _parse(raw, source)
        _, problems = _to_events(parsed.items, source)
        if problems:
            raise UserError(problems)
        text = _dump_checked(events, parsed.item_col if parsed.item_col is not None else 2, one_line)
        newline = b"\r\n" if b"\r\n" in raw else b"\n"
        lines = raw.split(b"\n")
        kline = lines[parsed.events_line]
        m = _EMPTY_FLOW_RE.match(kline)
        if m is not None and not parsed.items:  # `events: []` -> `events:`, rest of the line kept
            bom = b"\xef\xbb\xbf" if kline.startswith(b"\xef\xbb\xbf") else b""
            lines[parsed.events_line] = bom + b"events:" + kline[m.end() :]
        elif not _BLOCK_KEY_RE.match(kline):
            raise UserError(
                Problem(source, "追加事件要求 events: 单独占一行，下面是「- type: …」列表；请先这样改写", parsed.events_line + 1)
            )
        new = b"\n".join(lines)
        if new and not new.endswith(b"\n"):
            new += newline
        chunk = text.encode("utf-8")
        if newline != b"\n":
            chunk = chunk.replace(b"\n", newline)
        atomic_write(path, new + chunk)


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
    body = header_text + ("events:\n" + _dump_checked(list(events), 2) if events else "events: []\n")
    data = body.encode("utf-8")
    path.parent.mkdir(parents=True, exist_ok=True)
    with locked(path):
        if path.exists():
            raise UserError(Problem(source, "账本已存在，不会覆盖它；要重新开始请先把它移走"))
        atomic_write(path, data)
