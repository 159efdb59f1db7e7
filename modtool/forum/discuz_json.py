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

This path is kept lean: a 100,000-post dump is read in well under twice the
time of a bare ``json.load`` (see tests/bench/bench_import.py).
"""

from __future__ import annotations

import gc
import json
import operator
import re
from datetime import datetime, tzinfo
from typing import Any, Callable

from modtool.forum.common import convert_quoted, make_post, parse_time, reply_ref
from modtool.forum.html2bb import convert
from modtool.posts import Post
from modtool.problems import Problem

PROGRESS_EVERY = 5000

Progress = Callable[[int, int], None] | None


def _line_col(text: str, pos: int) -> tuple[int, int]:
    line = text.count("\n", 0, pos) + 1
    col = pos - (text.rfind("\n", 0, pos) + 1) + 1
    return line, col


def read_json(text: str, source: str, tz: tzinfo, progress: Progress = None) -> tuple[list[Post], list[Problem]]:
    # Nothing read here forms a reference cycle; the cyclic collector would
    # only rescan the freshly loaded JSON tree again and again (~15% of the time).
    enabled = gc.isenabled()
    gc.disable()
    try:
        return _read_json(text, source, tz, progress)
    finally:
        if enabled:
            gc.enable()


def _read_json(text: str, source: str, tz: tzinfo, progress: Progress) -> tuple[list[Post], list[Problem]]:
    problems: list[Problem] = []
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        problems.append(Problem(source, f"JSON 格式错误（第 {e.lineno} 行第 {e.colno} 列）：{_json_reason(e.msg)}", line=e.lineno))
        return [], problems
    except (ValueError, RecursionError) as e:
        problems.append(Problem(source, f"JSON 无法读取：{e}"))
        return [], problems

    envelopes = data if isinstance(data, list) else [data]
    postlists: list[list] = []
    for n, env in enumerate(envelopes, 1):
        where = f"第 {n} 个响应" if len(envelopes) > 1 else "文件"
        if not isinstance(env, dict):
            problems.append(Problem(source, f"{where}不是 Discuz! 接口响应（应为 JSON 对象，实为 {_kind(env)}）"))
            continue
        variables = env.get("Variables")
        if not isinstance(variables, dict):
            if "postlist" in env:
                variables = env  # a bare Variables object
            else:
                msg = _message(env)
                problems.append(Problem(source, f"{where}不是 Discuz! 帖子接口响应：缺少 Variables" + (f"；论坛返回：{msg}" if msg else "")))
                continue
        postlist = variables.get("postlist")
        if postlist is None:
            msg = _message(env)
            problems.append(Problem(source, f"{where}缺少帖子列表（Variables.postlist）" + (f"；论坛返回：{msg}" if msg else "")))
            continue
        if isinstance(postlist, dict):  # some plugins key the list by pid
            postlist = list(postlist.values())
        if not isinstance(postlist, list):
            problems.append(Problem(source, f"{where}的帖子列表（Variables.postlist）不是列表，而是 {_kind(postlist)}"))
            continue
        if not postlist:
            msg = _message(env)
            if msg:
                problems.append(Problem(source, f"论坛返回错误，没有帖子：{msg}"))
            else:
                problems.append(Problem(source, f"{where}的帖子列表为空（没有任何帖子）"))
            continue
        postlists.append(postlist)

    total = sum(len(p) for p in postlists)
    posts: list[Post] = []
    done = 0
    for postlist in postlists:
        for at in range(0, len(postlist), PROGRESS_EVERY):
            chunk = postlist[at : at + PROGRESS_EVERY]
            posts.extend(filter(None, [_post(item, done + k, source, tz, problems) for k, item in enumerate(chunk, 1)]))
            done += len(chunk)
            if progress is not None and done < total:
                progress(done, total)
    if progress is not None:
        progress(total, total)
    posts.sort(key=_FLOOR)
    return posts, problems


_FLOOR = operator.attrgetter("floor")


def _post(item: dict, index: int, source: str, tz: tzinfo, problems: list[Problem]) -> Post | None:
    """The hot path: a well-formed post. Anything unusual goes to ``_post_careful``."""
    if item.__class__ is not dict:
        problems.append(Problem(source, f"帖子列表第 {index} 项不是帖子对象（实为 {_kind(item)}），已跳过"))
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
        problems.append(Problem(source, f"帖子列表第 {index} 项{where_pid}{what}，已跳过"))
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
            problems.append(Problem(source, f"帖子的 {key} 应是数字，实为 {_show(value)}：这不是论坛给出的数据，已拒绝这一帖", floor=floor))
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
            problems.append(Problem(source, f"{what}{where_pid}，已跳过", floor=floor))
            return None

    author = get("author")
    if author is None or author == "":
        anonymous = _scalar(get("anonymous", "")) == "1" or _scalar(get("authorid", "")) == "0"
        if not anonymous:
            problems.append(Problem(source, f"帖子缺少作者（author）{where_pid}", floor=floor))
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
    text = repr(value) if not isinstance(value, str) else f"「{value}」"
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
