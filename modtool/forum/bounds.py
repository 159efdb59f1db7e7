"""What a forum dump may hold, in one place: checked when a dump is imported, so
that nothing outside these bounds reaches the ledger (where a later command
would stumble on it: a floor of 1e+20, a post in the year 9999) and no reader
runs out of time or memory on a file no forum wrote.

* a dump file: at most ``MAX_DUMP_BYTES`` (a 100,000-post Discuz JSON dump,
  tests/bench/bench_import.py, is 62 MB); a larger one (or an endless one,
  ``/dev/zero``) is refused after reading at most that much;
* a floor or post number: a whole number from 0 (MafiaScum's opening post is
  #0) to ``MAX_FLOOR`` (nine digits); a post id: at most ``MAX_PID_DIGITS``
  digits (Discuz and phpBB keep them as 32-bit numbers);
* a post's time: a year from ``MIN_YEAR`` to ``MAX_YEAR``;
* an account name: at most ``MAX_NAME_CHARS`` characters (forums allow 15 to
  25) and no control character (no forum allows one); a body or an edit
  marker: at most ``MAX_TEXT_CHARS`` characters (forums cap posts at 10,000
  to 60,000);
* no lone surrogate anywhere (the ledger cannot store one: the readers turn
  it into U+FFFD, as a browser shows it, and this check names any left);
* JSON nesting: as deep as the JSON parser reads (about 1,000 levels; deeper
  is refused as such), and the readers never walk into a value of unknown
  shape (a value that is not text or a number where a field should be is
  refused as that field), so no depth inside a post can exhaust the stack.

Outside the bounds the import is refused, naming the file, the post (floor
or number, pid, account) and the field; the ledger is not touched. A player's
own text (a body, a quoted name) is stored as it is, control characters
included (the ledger escapes them); whatever the importer echoes to the
terminal shows them escaped (``shown``), so a name or a line of a dump can
never drive the terminal.
"""

from __future__ import annotations

import os
import re
import stat
from operator import itemgetter

from modtool.base.i18n import Message, t
from modtool.base.problems import Problem

MAX_DUMP_BYTES = 128 * 1024 * 1024
MAX_FLOOR = 999_999_999
MAX_PID_DIGITS = 20
MIN_YEAR, MAX_YEAR = 1990, 2099
MAX_NAME_CHARS = 100
MAX_TEXT_CHARS = 1_000_000

# Shown escaped: C0 and C1 controls, DEL, line and paragraph separators, bidi
# embeddings, overrides and isolates (which reorder what a terminal shows).
_UNSHOWN = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f]")
_SURROGATE = re.compile("[\ud800-\udfff]")


def _escape(m: re.Match) -> str:
    c = ord(m.group())
    return f"\\x{c:02x}" if c < 0x100 else f"\\u{c:04x}"


def shown(text: str) -> str:
    """``text`` as it may reach a terminal: control characters as ``\\x1b``,
    ``\\u202e`` (a lone surrogate as ``\\ud83d``)."""
    text = _UNSHOWN.sub(_escape, text)
    if _SURROGATE.search(text):
        text = _SURROGATE.sub(_escape, text)
    return text


def shown_problem(problem: Problem) -> Problem:
    """``problem`` with its message ``shown`` (what a reader quotes from a dump)."""
    message = problem.message
    if _UNSHOWN.search(message) is None and _SURROGATE.search(message) is None:
        return problem
    from dataclasses import replace

    return replace(problem, msgid=shown(problem.msgid), args={
        k: v if v is None or isinstance(v, (int, float, Message)) else shown(str(v)) for k, v in problem.args.items()})


def read_dump_bytes(path) -> bytes | Problem:
    """The bytes of a dump file, or the Problem that stops it (too large, unreadable)."""
    source = str(path)
    try:
        with open(path, "rb") as f:
            st = os.fstat(f.fileno())
            if stat.S_ISDIR(st.st_mode):
                return Problem(source, "这是一个文件夹，不是论坛存档文件")
            if stat.S_ISREG(st.st_mode) and st.st_size > MAX_DUMP_BYTES:
                return _too_large(source, st.st_size)
            data = f.read(MAX_DUMP_BYTES + 1)  # a device or a pipe may never end
    except FileNotFoundError:
        return Problem(source, "文件不存在")
    except IsADirectoryError:
        return Problem(source, "这是一个文件夹，不是论坛存档文件")
    except PermissionError:
        return Problem(source, "没有读取这个文件的权限")
    except OSError as e:
        return Problem(source, "无法读取文件：{value}", value=e.strerror or e)
    if len(data) > MAX_DUMP_BYTES:
        return _too_large(source, None)
    return data


def _size(n: int) -> str:
    for unit, scale in (("MB", 1 << 20), ("KB", 1 << 10)):
        if n >= scale:
            return f"{n / scale:.0f} {unit}"
    return f"{n} B"


def _too_large(source: str, size: int | None) -> Problem:
    limit = _size(MAX_DUMP_BYTES)
    if size is None:
        return Problem(source, "文件超过导入上限 {limit}（读到上限还没有结束）：这不是一页论坛存档", limit=limit)
    return Problem(source, "文件有 {size}，超过导入上限 {limit}：这不像论坛存档（请分页保存后分别导入）", size=_size(size), limit=limit)


def too_deep(source: str) -> Problem:
    """A JSON text nested deeper than its parser reads."""
    return Problem(source, "JSON 嵌套层数过多（上千层），无法读取：这不是论坛给出的数据")


def floor_ok(n) -> bool:
    return type(n) is int and 0 <= n <= MAX_FLOOR


def bounded_floor(n) -> int | None:
    """``n`` when it can be a floor, else None (a reference that cannot point anywhere)."""
    return n if floor_ok(n) else None


def year_ok(year: int) -> bool:
    return MIN_YEAR <= year <= MAX_YEAR


def short_number(n) -> str:
    text = str(n)
    return text if len(text) <= 24 else t("{head}…{tail}（{n} 位）").format(head=text[:10], tail=text[-6:], n=len(text))


# --- the importer's check of every post ------------------------------------------

_FLOOR, _PID, _AUTHOR, _STAMP, _BODY, _EDITED, _REPLY = 1, 0, 2, 3, 4, 5, 6


def check_rows(rows: list, source: str) -> list[Problem]:
    """The posts (rows, ``modtool.forum.post_row``) outside the bounds, each
    named. A pass of C-speed look-ups over all rows first; only when one of
    them finds something are the rows looked at one by one."""
    if not rows:
        return []
    floors = list(map(itemgetter(_FLOOR), rows))
    stamps = list(map(itemgetter(_STAMP), rows))
    authors = set(map(itemgetter(_AUTHOR), rows))
    bodies = list(map(itemgetter(_BODY), rows))
    edits = [e for e in map(itemgetter(_EDITED), rows) if e is not None]
    refs = [r for r in map(itemgetter(_REPLY), rows) if r is not None]
    suspect = (
        not all(type(f) is int for f in floors)
        or min(floors) < 0 or max(floors) > MAX_FLOOR
        or max(map(len, map(itemgetter(_PID), rows))) > MAX_PID_DIGITS
        or min(stamps) < f"{MIN_YEAR:04d}" or max(stamps) >= f"{MAX_YEAR + 1:04d}"
        or max(map(len, authors)) > MAX_NAME_CHARS
        or _CONTROL.search("".join(authors)) is not None
        or max(map(len, bodies)) > MAX_TEXT_CHARS
        or (edits and max(map(len, edits)) > MAX_TEXT_CHARS)
        or not _storable(bodies, authors, edits, refs)
    )
    if not suspect:
        return []
    problems: list[Problem] = []
    for row in rows:
        problems.extend(_row_problems(row, source))
    return problems


def _storable(bodies, authors, edits, refs) -> bool:
    texts = [*bodies, *authors, *edits]
    for r in refs:
        texts.extend(v for v in (r.author, r.pid, r.time) if isinstance(v, str))
    try:
        "".join(texts).encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _row_problems(row: tuple, source: str) -> list[Problem]:
    pid, floor, author, stamp, body, edited, reply_to = row[:7]
    ok_floor = floor_ok(floor)
    name = shown(author[:MAX_NAME_CHARS] + ("…" if len(author) > MAX_NAME_CHARS else ""))
    if pid and not ok_floor:  # the floor cannot say which post: its pid does
        post = Message("帖子 pid {pid}（{author}）", pid=shown(pid[:24]), author=name)
    else:  # the floor is in the problem's place (Problem.where)
        post = Message("{author} 的帖子", author=name)
    at = floor if ok_floor else None
    out: list[Problem] = []

    def say(message: str, /, **args) -> None:
        out.append(Problem(source, message, floor=at, **args))

    if not ok_floor:
        value = short_number(floor) if type(floor) is int else shown(repr(floor)[:40])
        say("{post}：楼层号 {value} 不在 0 至 {max} 之间：论坛不会这样编号，这不是论坛给出的楼层", post=post, value=value, max=MAX_FLOOR)
    if len(pid) > MAX_PID_DIGITS:
        say("{post}：帖子 pid 有 {n} 位，超过 {max} 位：这不是论坛给出的 pid", post=post, n=len(pid), max=MAX_PID_DIGITS)
    year = int(stamp[:4]) if stamp[:4].isdigit() else None
    if year is None or not year_ok(year):
        say("{post}：发帖时间 {time} 不在 {low} 至 {high} 年之间：请检查存档里的时间", post=post, time=shown(stamp), low=MIN_YEAR, high=MAX_YEAR)
    if len(author) > MAX_NAME_CHARS:
        say("{post}：账号有 {n} 个字符，超过上限 {max}：这不是论坛给出的账号", post=post, n=len(author), max=MAX_NAME_CHARS)
    if _CONTROL.search(author):
        say("{post}：账号「{name}」含有控制字符：论坛的账号名里不会有，这不是论坛给出的数据", post=post, name=name)
    for field, text in (("body", body), ("edited", edited)):
        if text is not None and len(text) > MAX_TEXT_CHARS:
            say("{post}：{field} 有 {n} 个字符，超过上限 {max}：论坛的帖子没有这么长", post=post, field=field, n=len(text), max=MAX_TEXT_CHARS)
    fields = [("author", author), ("body", body), ("edited", edited)]
    if reply_to is not None:
        fields += [(f"reply_to.{k}", getattr(reply_to, k)) for k in ("author", "pid", "time")]
    for field, text in fields:
        m = _SURROGATE.search(text) if isinstance(text, str) else None
        if m:
            say("{post}：字段 {field} 含有无法保存的字符 U+{code}（孤立的代理码位）", post=post, field=field, code=f"{ord(m.group()):04X}")
    return out
