"""Discuz! mobile API dumps (``api/mobile/index.php?module=viewthread``).

The envelope is ``{"Version", "Charset", "Variables": {"postlist": [...]}}``;
an error adds ``"Message": {"messageval", "messagestr"}`` and leaves
``postlist`` empty. Every scalar is a string and empty values are dropped, so
any key may be missing.

Per post: ``pid``; floor from ``position`` (the real floor, Version 4+), else
``number`` (the displayed floor); time from ``dbdateline`` (unix seconds),
else ``dateline`` "Y-n-j H:i" read in the game zone (relative datelines such
as "3&nbsp;分钟前" cannot be placed and give a problem); ``message`` is the
rendered HTML, turned back into BBCode by ``html2bb``.

This path is kept lean (tests/bench/bench_import.py): posts are read 5,000 at
a time, field by field (``_columns``), and a chunk of well-formed posts costs
few Python calls a post; any unusual item sends its chunk through ``_post``,
post by post, which reports it. The JSON tree is dropped chunk by chunk.
"""

from __future__ import annotations

import functools
import gc
import json
import operator
import re
from datetime import datetime, timedelta, tzinfo
from itertools import compress, repeat
from typing import Any, Callable

from modtool.forum.common import convert_quoted, make_post, quoted_post, reply_ref
from modtool.base.times import parse_shown_time as parse_time
from modtool.forum.html2bb import convert, convert_many, split_x3_quote
from modtool.base.i18n import Message, t
from modtool.forum.posts import Post
from modtool.base.problems import Problem

PROGRESS_EVERY = 5000

Progress = Callable[[int, int], None] | None


def _line_col(text: str, pos: int) -> tuple[int, int]:
    line = text.count("\n", 0, pos) + 1
    col = pos - (text.rfind("\n", 0, pos) + 1) + 1
    return line, col


def read_json(
    text: str | list[str], source: str, tz: tzinfo, progress: Progress = None, row: Callable[[Post], tuple] | None = None
) -> tuple[list, list[Problem]]:
    """``text`` may be given in a one-item list, which is emptied: the text
    can then be freed as soon as it is parsed. With ``row`` (see
    ``modtool.forum.read_dump_rows``) each post comes as a row, sorted by floor."""
    # Nothing read here forms a reference cycle; the cyclic collector would
    # only rescan the freshly loaded JSON tree again and again (~15% of the time).
    enabled = gc.isenabled()
    gc.disable()
    try:
        return _read_json(text, source, tz, progress, row)
    finally:
        if enabled:
            gc.enable()


def _read_json(text: str | list[str], source: str, tz: tzinfo, progress: Progress, row=None) -> tuple[list, list[Problem]]:
    problems: list[Problem] = []
    if text.__class__ is list:
        text = text.pop()
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        problems.append(Problem(source, "JSON 格式错误（第 {lineno} 行第 {colno} 列）：{json_reason}", line=e.lineno, lineno=e.lineno, colno=e.colno, json_reason=_json_reason(e.msg)))
        return [], problems
    except RecursionError:
        from modtool.forum.bounds import too_deep

        return [], [too_deep(source)]
    except ValueError as e:
        problems.append(Problem(source, "JSON 无法读取：{e}", e=e))
        return [], problems
    del text  # parsed; freed here when the caller gave it in a list

    envelopes = data if isinstance(data, list) else [data]
    postlists: list[list] = []
    for n, env in enumerate(envelopes, 1):
        where = t("第 {n} 个响应").format(n=n) if len(envelopes) > 1 else t("文件")
        if not isinstance(env, dict):
            problems.append(Problem(source, "{where}不是 Discuz! 接口响应（应为 JSON 对象，实为 {kind}）", where=where, kind=_kind(env)))
            continue
        variables = env.get("Variables")
        if not isinstance(variables, dict):
            if "postlist" in env:
                variables = env  # a bare Variables object
            else:
                msg = _message(env)
                problems.append(Problem(source, "{message}{said}", message=Message("{where}不是 Discuz! 帖子接口响应：缺少 Variables", where=where), said=Message("；论坛返回：{msg}", msg=msg) if msg else ""))
                continue
        postlist = variables.get("postlist")
        if postlist is None:
            msg = _message(env)
            problems.append(Problem(source, "{message}{said}", message=Message("{where}缺少帖子列表（Variables.postlist）", where=where), said=Message("；论坛返回：{msg}", msg=msg) if msg else ""))
            continue
        if isinstance(postlist, dict):  # some plugins key the list by pid
            postlist = list(postlist.values())
        if not isinstance(postlist, list):
            problems.append(Problem(source, "{where}的帖子列表（Variables.postlist）不是列表，而是 {kind}", where=where, kind=_kind(postlist)))
            continue
        if not postlist:
            msg = _message(env)
            if msg:
                problems.append(Problem(source, "论坛返回错误，没有帖子：{msg}", msg=msg))
            else:
                problems.append(Problem(source, "{where}的帖子列表为空（没有任何帖子）", where=where))
            continue
        postlists.append(postlist)

    total = sum(len(p) for p in postlists)
    posts: list[Post] = []
    done = 0
    for postlist in postlists:
        for at in range(0, len(postlist), PROGRESS_EVERY):
            chunk = postlist[at : at + PROGRESS_EVERY]
            fast = _posts_fast(chunk, source, tz) if row is None else _rows_fast(chunk, tz)
            if fast is None:
                fast = filter(None, [_post(item, done + k, source, tz, problems) for k, item in enumerate(chunk, 1)])
                if row is not None:
                    fast = map(row, fast)
            posts.extend(fast)
            done += len(chunk)
            # Drop what is converted: the JSON tree shrinks as the posts grow.
            postlist[at : at + PROGRESS_EVERY] = repeat(None, len(chunk))
            del chunk, fast
            if progress is not None and done < total:
                progress(done, total)
    if progress is not None:
        progress(total, total)
    posts.sort(key=_FLOOR if row is None else _ROW_FLOOR)
    return posts, problems


_FLOOR = operator.attrgetter("floor")
_ROW_FLOOR = operator.itemgetter(1)


def _post(item: dict, index: int, source: str, tz: tzinfo, problems: list[Problem]) -> Post | None:
    """The hot path: a well-formed post. Anything unusual goes to ``_post_careful``."""
    if item.__class__ is not dict:
        problems.append(Problem(source, "帖子列表第 {index} 项不是帖子对象（实为 {kind}），已跳过", index=index, kind=_kind(item)))
        return None
    get = item.get
    pos = get("position")
    pid = get("pid")
    author = get("author")
    db = get("dbdateline")
    authorid = get("authorid")
    message = get("message", "")
    tid = get("tid")
    if (
        pos.__class__ is not str
        or pid.__class__ is not str
        or author.__class__ is not str
        or db.__class__ is not str
        or authorid.__class__ is not str
        or message.__class__ is not str
        or not pid
        or not author
        or not (pid.isdigit() and pid.isascii())
        or (tid is not None and not (tid.__class__ is str and tid.isdigit() and tid.isascii()))
    ):
        return _post_careful(item, index, source, tz, problems)
    try:
        floor = int(pos)
        time = datetime.fromtimestamp(int(db), tz)
    except (ValueError, OverflowError, OSError):
        return _post_careful(item, index, source, tz, problems)
    if message.startswith('<div class="quote">'):
        quoted = convert_quoted(message)
        if quoted is not None:
            return make_post(pid, floor, author, time, quoted[0], quoted[1], quoted[2], source, {"authorid": authorid})
    body, edited = convert(message)
    return make_post(
        pid, floor, author, time, body, edited, reply_ref(body) if "[" in body else None, source, {"authorid": authorid}
    )


_FAST_FIELDS = operator.itemgetter("position", "pid", "author", "dbdateline", "authorid", "message")
_QUOTE_START = '<div class="quote">'
_fromtimestamp = datetime.fromtimestamp
_not_none = functools.partial(operator.is_not, None)


def _columns(chunk: list) -> tuple | None:
    """What ``_post`` makes of a chunk of well-formed posts, field by field
    rather than post by post: (pids, floors, authors, unix times, bodies,
    edit markers, reply refs, author ids). None when any item is unusual: the
    chunk then goes through ``_post``, which reports it."""
    try:
        pos, pid, author, db, authorid, messages = zip(*map(_FAST_FIELDS, chunk))
        for column in (pos, author, db, authorid, messages):
            "".join(column)  # TypeError unless all are text (pid: below)
        if not (all(pid) and all(author)):
            return None
        # The checks of ``_post`` on pid and tid: ASCII digits only.
        tids = list(filter(_not_none, map(dict.get, chunk, repeat("tid"))))
        digits = "".join(pid) + "".join(tids)  # TypeError: a tid that is not text
        if not (all(tids) and digits.isdigit() and digits.isascii()):
            return None
        floors = list(map(int, pos))
        stamps = list(map(int, db))
    except (KeyError, TypeError, ValueError):
        return None
    n = len(messages)
    messages = list(messages)
    refs: list = [None] * n
    # ``convert_quoted``: the quote apart, the rest of the message with the others.
    quoted = {}
    for i in compress(range(n), map(str.startswith, messages, repeat(_QUOTE_START))):
        parts = split_x3_quote(messages[i])
        if parts is not None:
            quoted[i] = parts
            messages[i] = parts[3]
    bodies, edited = convert_many(messages, quoted)
    del messages
    for i in compress(range(n), map(operator.contains, bodies, repeat("["))):
        if i not in quoted:
            refs[i] = reply_ref(bodies[i])
    for i, parts in quoted.items():
        bodies[i], edited[i], refs[i] = quoted_post(parts, bodies[i], edited[i])
    return pid, floors, author, stamps, bodies, edited, refs, authorid


def _posts_fast(chunk: list, source: str, tz: tzinfo) -> list[Post] | None:
    """``_post`` over a chunk (see ``_columns``). tests/test_forum_bulk.py
    checks that both give the same posts."""
    columns = _columns(chunk)
    if columns is None:
        return None
    pid, floors, author, stamps, bodies, edited, refs, authorid = columns
    try:
        times = list(map(_fromtimestamp, stamps, repeat(tz)))
    except (ValueError, OverflowError, OSError):
        return None
    # One ``extra`` per account, shared by its posts (nothing changes a post's extra).
    extra_of = {a: {"authorid": a} for a in set(authorid)}
    extras = map(extra_of.__getitem__, authorid)
    return list(map(make_post, pid, floors, author, times, bodies, edited, refs, repeat(source), extras))


def _rows_fast(chunk: list, tz: tzinfo) -> list[tuple] | None:
    """``_posts_fast`` as rows (``modtool.forum.post_row``) without a Post or
    a datetime for each: the time is formatted once a minute."""
    columns = _columns(chunk)
    if columns is None:
        return None
    pid, floors, author, stamps, bodies, edited, refs, _ = columns
    try:  # a lone surrogate: ``make_post`` (by way of ``_post``) replaces it
        "".join(bodies).encode()
        "".join(author).encode()
        "".join(filter(None, edited)).encode()
        "".join(r.author for r in refs if r is not None and r.author is not None).encode()
    except UnicodeEncodeError:
        return None
    try:
        minutes = _MINUTES.get(tz)
        if minutes is None or len(minutes) > 100_000:
            minutes = _MINUTES[tz] = {}
    except TypeError:  # a zone that cannot be a key
        return None
    whole = list(map(operator.floordiv, stamps, repeat(60)))
    for m in set(whole).difference(minutes):
        head = _minute(m * 60, tz)
        if not head:
            return None
        minutes[m] = head
    texts = list(map(operator.add, map(minutes.__getitem__, whole), map(_SECONDS.__getitem__, map(operator.mod, stamps, repeat(60)))))
    return list(zip(pid, floors, author, texts, bodies, edited, refs, stamps))


_MINUTES: dict[tzinfo, dict[int, str]] = {}
_SECONDS = ["%02d" % s for s in range(60)]


def _minute(start: int, tz: tzinfo) -> str:
    """"YYYY-MM-DD HH:MM:" of the minute from unix time ``start`` in ``tz``;
    "" when its seconds do not run 00 to 59 there (an offset change inside
    it, an offset in seconds, out of range): such posts go through ``_post``."""
    try:
        first, last = _fromtimestamp(start, tz), _fromtimestamp(start + 59, tz)
    except (ValueError, OverflowError, OSError):
        return ""
    if first.second or last - first != _59S:  # one zone: the difference of the wall clocks
        return ""
    return "%04d-%02d-%02d %02d:%02d:" % (first.year, first.month, first.day, first.hour, first.minute)


_59S = timedelta(seconds=59)


def _post_careful(item: dict, index: int, source: str, tz: tzinfo, problems: list[Problem]) -> Post | None:
    get = item.get
    # Floor: position is the real floor; number is what the page displayed.
    floor_raw = get("position")
    floor_from = "position"
    if floor_raw is None or floor_raw == "":
        floor_raw = get("number")
        floor_from = "number"
    floor = _int(floor_raw)
    pid = get("pid")
    if pid is None:
        pid = ""
    elif pid.__class__ is not str:
        pid = _scalar(pid)
    where_pid = f"（pid {pid}）" if pid else ""
    if floor is None:
        what = "缺少楼层号（position / number）" if floor_raw is None else f"楼层号无法识别：{_show(floor_raw)}"
        problems.append(Problem(source, "帖子列表第 {index} 项{where_pid}{what}，已跳过", index=index, where_pid=where_pid, what=what))
        return None
    if not pid:
        problems.append(Problem(source, "帖子缺少 pid", floor=floor))
    # pid and tid go into links of the posts modtool writes ([url=…pid=P]):
    # only ASCII digits, as Discuz itself gives them.
    tid = get("tid")
    for key, value in (("pid", pid), ("tid", tid)):
        if value is None or value == "":
            continue
        text = value if value.__class__ is str else _scalar(value)
        if not (text.isdigit() and text.isascii()):
            problems.append(Problem(source, "帖子的 {key} 应是数字，实为 {value}：这不是论坛给出的数据，已拒绝这一帖", floor=floor, key=key, value=_show(value)))
            return None

    # Time: dbdateline (unix seconds), else the displayed dateline.
    time = None
    db = get("dbdateline")
    if db is not None and db != "":
        ts = _int(db)
        if ts is not None:
            try:
                time = datetime.fromtimestamp(ts, tz)
            except (OverflowError, OSError, ValueError):
                time = None
    if time is None:
        shown = get("dateline")
        shown = _scalar(shown) if shown is not None else ""
        if shown:
            time = _dateline(shown, tz)
        if time is None:
            if db is not None and db != "":
                what = f"发帖时间 dbdateline 无法识别：{_show(db)}"
            elif not shown:
                what = "缺少发帖时间（dbdateline / dateline）"
            else:
                what = f"只有相对或无法识别的发帖时间「{_clean(shown)}」，没有 dbdateline，无法确定发帖时间"
            problems.append(Problem(source, "{what}{where_pid}，已跳过", floor=floor, what=what, where_pid=where_pid))
            return None

    author = get("author")
    if author is None or author == "":
        anonymous = _scalar(get("anonymous", "")) == "1" or _scalar(get("authorid", "")) == "0"
        if not anonymous:
            problems.append(Problem(source, "帖子缺少作者（author）{where_pid}", floor=floor, where_pid=where_pid))
        author = ""
    elif author.__class__ is not str:
        author = _scalar(author)

    message = get("message")
    if message is None:
        body, edited = "", None
    else:
        if message.__class__ is not str:
            message = _scalar(message)
        if "<" in message or "&" in message or "\r" in message:
            body, edited = convert(message)
        else:
            body, edited = message.strip(), None

    extra: dict[str, Any] = {}
    authorid = get("authorid")
    if authorid is not None:
        extra["authorid"] = _scalar(authorid)
    if floor_from == "number":
        extra["floor_from"] = "number"
    return make_post(pid, floor, author, time, body, edited, reply_ref(body) if "[" in body else None, source, extra)


def _int(value: Any) -> int | None:
    if value.__class__ is str:
        try:
            return int(value)
        except ValueError:
            try:
                return int(value.strip().rstrip("#").strip())
            except ValueError:
                return None
    if value.__class__ is int:
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return None


def _dateline(shown: str, tz: tzinfo) -> datetime | None:
    if "title=" in shown:  # "<span title="2024-3-1 12:00:05">1&nbsp;小时前</span>"
        m = re.search(r"title=[\"']([^\"']+)[\"']", shown)
        if m:
            t = parse_time(m.group(1), tz)
            if t is not None:
                return t
    return parse_time(_clean(shown), tz)


def _clean(shown: str) -> str:
    return convert(shown)[0] if ("&" in shown or "<" in shown) else shown.strip()


def _scalar(value: Any) -> str:
    if isinstance(value, str):
        return value
    if value is None:
        return ""
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, (int, float)):
        return str(value)
    return ""


def _show(value: Any) -> str:
    if isinstance(value, (dict, list)):  # never its repr: it may be nested a thousand deep
        return _kind(value)
    text = repr(value) if not isinstance(value, str) else f"「{value[:60]}」"
    return text if len(text) <= 40 else text[:37] + "…"


def _kind(value: Any) -> str:
    return {dict: "对象", list: "列表", str: "字符串", int: "数字", float: "数字", bool: "布尔值", type(None): "null"}.get(type(value), type(value).__name__)


def _message(env: dict) -> str:
    msg = env.get("Message")
    if not isinstance(msg, dict):
        return ""
    text = _scalar(msg.get("messagestr"))
    code = _scalar(msg.get("messageval"))
    if text and code:
        return f"{text}（{code}）"
    return text or code


def _json_reason(msg: str) -> str:
    reasons = {
        "Expecting value": "此处应有一个值",
        "Expecting ',' delimiter": "此处缺少逗号",
        "Expecting ':' delimiter": "此处缺少冒号",
        "Expecting property name enclosed in double quotes": "此处应是带双引号的键名",
        "Unterminated string starting at": "字符串没有结束",
        "Extra data": "JSON 结束后还有多余内容",
        "Invalid control character at": "字符串中有非法控制字符",
        "Invalid \\escape": "非法转义",
    }
    for en, zh in reasons.items():
        if msg.startswith(en):
            return f"{zh}（{msg}）"
    return msg
