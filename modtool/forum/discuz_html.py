"""Saved Discuz! X3 thread pages (``forum.php?mod=viewthread``).

Read with ``modtool.forum.htmlscan`` (linear in the page's length). Per post::

    div#post_PID / table#pidPID       starts the post (PID = post id)
    div.authi a.xw1                   author (the first one of the post;
                                      anonymous posts: the text of div.authi)
    a#postnumPID                      floor: "<em>12</em><sup>#</sup>", or
                                      楼主 / 沙发 / 板凳 / 地板 for floors 1-4
    em#authorpostonPID                "发表于 2024-3-1 12:00:05", or a
                                      <span title="2024-3-1 12:00:05"> in it
    td.t_f#postmessage_PID            the body, turned back into BBCode
                                      (``html2bb``); a banned author's post
                                      has div.locked instead
"""

from __future__ import annotations

import re
from datetime import tzinfo

from modtool.forum.bounds import short_number
from modtool.forum.common import reply_ref
from modtool.base.times import TIME_PATTERN, time_from_match
from modtool.forum.html2bb import BBWriter
from modtool.forum.htmlscan import HTMLScanner
from modtool.forum.posts import Post
from modtool.base.problems import Problem

FLOOR_LABELS = {"楼主": 1, "沙发": 2, "板凳": 3, "地板": 4}
_POST_ID = re.compile(r"post_(\d+)\Z")
_PID_ID = re.compile(r"pid(\d+)\Z")
_DIGITS = re.compile(r"[0-9０-９]+")
_TIME = re.compile(TIME_PATTERN)
# A saved page opens with one of these and, when whole, ends with </html>.
_PAGE_OPEN = re.compile(r"<!doctype\s+html|<html[\s>]", re.I)
_PAGE_CLOSE = re.compile(r"</html\s*>", re.I)


class _Raw:
    __slots__ = ("pid", "line", "author", "author_fallback", "floor_text", "time_text", "time_title", "writer", "locked")

    def __init__(self, pid: str, line: int):
        self.pid = pid
        self.line = line
        self.author: str | None = None
        self.author_fallback: list[str] = []
        self.floor_text: list[str] | None = None
        self.time_text: list[str] | None = None
        self.time_title: str | None = None
        self.writer: BBWriter | None = None
        self.locked: list[str] | None = None


class _PageParser(HTMLScanner):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.posts: dict[str, _Raw] = {}
        self.order: list[_Raw] = []
        self.current: _Raw | None = None
        # what the text currently goes to: (kind, depth counter tag, depth)
        self.capture: str | None = None
        self.capture_tag = ""
        self.capture_depth = 0
        self.authi_depth = 0  # >0 inside div.authi
        self.body_depth = 0  # nesting of <td> inside the body cell

    # -- helpers ---------------------------------------------------------------

    def _post(self, pid: str) -> _Raw:
        raw = self.posts.get(pid)
        if raw is None:
            raw = _Raw(pid, self.getpos()[0])
            self.posts[pid] = raw
            self.order.append(raw)
        return raw

    def _begin(self, kind: str, tag: str) -> None:
        self.capture = kind
        self.capture_tag = tag
        self.capture_depth = 1

    # -- events ----------------------------------------------------------------

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in ("br", "img", "hr", "input", "meta", "link"):
            self.handle_endtag(tag)

    def handle_starttag(self, tag, attrs):
        a = {k.lower(): (v if v is not None else "") for k, v in attrs}
        cur = self.current
        if self.capture == "body" and cur is not None and cur.writer is not None:
            if tag == "td":
                self.body_depth += 1
            cur.writer.start(tag, a)
            return
        if self.capture is not None:
            if tag == self.capture_tag:
                self.capture_depth += 1
            if self.capture == "time" and tag == "span" and a.get("title") and cur is not None:
                cur.time_title = a["title"]
            return
        ident = a.get("id", "")
        if ident:
            m = _POST_ID.match(ident) if tag == "div" else (_PID_ID.match(ident) if tag == "table" else None)
            if m:
                self.current = cur = self._post(m.group(1))
                self.authi_depth = 0
                return
            if cur is not None:
                pid = cur.pid
                if tag == "a" and ident == "postnum" + pid:
                    cur.floor_text = []
                    self._begin("floor", "a")
                    return
                if tag == "em" and ident == "authorposton" + pid:
                    cur.time_text = []
                    self._begin("time", "em")
                    return
                if tag == "td" and ident == "postmessage_" + pid:
                    cur.writer = BBWriter()
                    self.body_depth = 1
                    self._begin("body", "td")
                    return
            elif tag == "td" and ident.startswith("postmessage_"):
                # a body without its post container: start a post for it
                self.current = cur = self._post(ident[len("postmessage_"):])
                cur.writer = BBWriter()
                self.body_depth = 1
                self._begin("body", "td")
                return
        if cur is None:
            return
        classes = a.get("class", "").split()
        if tag == "div":
            if self.authi_depth:
                self.authi_depth += 1
            elif "authi" in classes:
                self.authi_depth = 1
            elif "locked" in classes and cur.writer is None and cur.locked is None:
                cur.locked = []
                self._begin("locked", "div")
        elif tag == "a" and self.authi_depth and "xw1" in classes and cur.author is None:
            cur.author = ""
            self._begin("author", "a")

    def handle_endtag(self, tag):
        cur = self.current
        if self.capture == "body":
            if tag == "td":
                self.body_depth -= 1
                if self.body_depth <= 0:
                    self.capture = None
                    return
            if cur is not None and cur.writer is not None:
                cur.writer.end(tag)
            return
        if self.capture is not None:
            if tag == self.capture_tag:
                self.capture_depth -= 1
                if self.capture_depth <= 0:
                    self.capture = None
            return
        if tag == "div" and self.authi_depth:
            self.authi_depth -= 1

    def handle_data(self, data):
        cur = self.current
        if cur is None:
            return
        kind = self.capture
        if kind == "body":
            if cur.writer is not None:
                if "\xa0" in data or "\r" in data:
                    data = data.replace("\xa0", " ").replace("\r\n", "\n").replace("\r", "\n")
                cur.writer.data(data)
        elif kind == "author":
            cur.author = (cur.author or "") + data
        elif kind == "floor":
            cur.floor_text.append(data)  # type: ignore[union-attr]
        elif kind == "time":
            cur.time_text.append(data)  # type: ignore[union-attr]
        elif kind == "locked":
            cur.locked.append(data)  # type: ignore[union-attr]
        elif kind is None and self.authi_depth and cur.author is None and len(cur.author_fallback) < 20:
            cur.author_fallback.append(data)


def read_page(text: str, source: str, tz: tzinfo, progress=None) -> tuple[list[Post], list[Problem]]:
    problems: list[Problem] = []
    parser = _PageParser()
    try:
        parser.feed(text)
        parser.close()
    except Exception as e:  # the scanner is lenient; this is a last resort
        problems.append(Problem(source, "网页解析中断：{e}", e=e))
    raws = parser.order
    if not raws:
        problems.append(Problem(source, "网页中没有找到帖子（div#post_PID / td#postmessage_PID）：这不像是保存的 Discuz! 帖子页面"))
        return [], problems
    if _truncated(text, raws):
        return [], [_truncation_problem(text, raws, parser, source, tz)]
    posts: list[Post] = []
    total = len(raws)
    for n, raw in enumerate(raws, 1):
        post = _finish(raw, source, tz, problems)
        if post is not None:
            posts.append(post)
        if progress is not None and n % 5000 == 0:
            progress(n, total)
    if progress is not None:
        progress(total, total)
    posts.sort(key=lambda p: p.floor)
    return posts, problems


def _truncated(text: str, raws: list[_Raw]) -> bool:
    """A whole page (one that opens with <!DOCTYPE html> or <html>) ends with
    </html> after its last post; a file cut short by a failed save or copy
    does not."""
    if _PAGE_OPEN.search(text, 0, 4096) is None:
        return False  # a fragment of a page: nothing to tell its end by
    last = text.rfind("postmessage_" + raws[-1].pid)
    if last < 0:
        last = text.rfind("post_" + raws[-1].pid)
    return _PAGE_CLOSE.search(text, max(last, 0)) is None


def _truncation_problem(text: str, raws: list[_Raw], parser: _PageParser, source: str, tz: tzinfo) -> Problem:
    """The page was cut: name the last floor read whole (the last post is
    whole only when its body was read to its end)."""
    last = raws[-1]
    complete = raws
    if parser.capture is not None or (last.writer is None and last.locked is None):
        complete = raws[:-1]
    floor = None
    for raw in reversed(complete):
        post = _finish(raw, source, tz, [])
        if post is not None:
            floor = post.floor
            break
    line = text.count("\n") + 1
    if floor is None:
        return Problem(source, "网页文件不完整：在第一个帖子读完之前就被截断，请重新保存整页", line)
    return Problem(source, "网页文件不完整：在第 {floor} 楼之后被截断，请重新保存整页", line, args={"floor": floor})


def _finish(raw: _Raw, source: str, tz: tzinfo, problems: list[Problem]) -> Post | None:
    where = f"（pid {raw.pid}）"
    # floor
    floor = None
    if raw.floor_text is None:
        problems.append(Problem(source, "帖子缺少楼层号（a#postnum{pid}）{where}，已跳过", line=raw.line, pid=raw.pid, where=where))
        return None
    label = " ".join("".join(raw.floor_text).split())
    m = _DIGITS.search(label)
    if m and len(m.group()) > 30:  # int() of thousands of digits is refused, and no floor has 30
        problems.append(Problem(source, "楼层号 {value} 超出范围{where}，已跳过", line=raw.line, value=short_number(m.group()), where=where))
        return None
    if m:
        floor = int(m.group())
    else:
        for name, n in FLOOR_LABELS.items():
            if name in label:
                floor = n
                break
    if floor is None:
        problems.append(Problem(source, "楼层号无法识别「{label}」{where}，已跳过", line=raw.line, label=label, where=where))
        return None
    # the pid goes into links of the posts modtool writes ([url=…pid=P])
    if not (raw.pid.isdigit() and raw.pid.isascii()):
        problems.append(Problem(source, "帖子的 pid「{pid}」应是数字：这不是论坛给出的网页，已拒绝这一帖", line=raw.line, floor=floor, pid=raw.pid[:40]))
        return None
    # time
    time = None
    shown = " ".join("".join(raw.time_text or []).replace("\xa0", " ").split())
    for candidate in (raw.time_title, shown):
        if candidate:
            tm = _TIME.search(candidate)
            if tm:
                time = time_from_match(tm, tz)
                if time is not None:
                    break
    if time is None:
        if raw.time_text is None:
            what = f"缺少发帖时间（em#authorposton{raw.pid}）"
        else:
            what = f"发帖时间无法识别「{shown}」"
        problems.append(Problem(source, "{what}{where}，已跳过", line=raw.line, floor=floor, what=what, where=where))
        return None
    # author
    if raw.author is not None:
        author = raw.author.strip()
    else:
        author = " ".join("".join(raw.author_fallback).split())
    if not author:
        problems.append(Problem(source, "帖子缺少作者（div.authi a.xw1）{where}", line=raw.line, floor=floor, where=where))
    # body
    edited = None
    if raw.writer is not None:
        body, edited = raw.writer.finish()
    elif raw.locked is not None:
        body = " ".join("".join(raw.locked).replace("\xa0", " ").split())
        body = re.sub(r"^提示\s*[:：]\s*", "", body)
    else:
        body = ""
        problems.append(Problem(source, "帖子没有正文（td#postmessage_{pid}）{where}，按空帖处理", line=raw.line, floor=floor, pid=raw.pid, where=where))
    return Post(
        pid=raw.pid,
        floor=floor,
        author=author,
        time=time,
        body=body,
        edited=edited,
        reply_to=reply_ref(body) if "[" in body else None,
        source=source,
    )
