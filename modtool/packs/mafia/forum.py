"""phpBB 3 topics read into ``Post`` values: JSON lines or saved prosilver pages.

Two forms, told apart by their content:

* JSON lines, one post a line, as the vca scraper saved MafiaScum threads:
  ``{"number": "3", "user": "Fenhl", "timestamp": "Fri Mar 25, 2011 12:30 pm", "content": "<html>"}``;
* a saved prosilver ``viewtopic.php`` page: each post a ``<div id="pNNN" class="post …">``
  with ``<p class="author">… <strong><a>NAME</a></strong> » TIME</p>`` and
  ``<div class="content">``. The post number is a ``#N`` in the post's header
  (MafiaScum shows one), else the page's ``start=`` (its canonical link) plus
  the post's place on the page.

Times are as the forum displayed them, with no zone: ``FORUM_UTC_OFFSET``
(MafiaScum's guest display, UTC-5: post #3 of Game 1145 at 12:30 pm sets a
14-day deadline of "Apr 8 17:30" UTC) is how they are read.
"""

from __future__ import annotations

import html
import json
import re
from datetime import datetime, timedelta, timezone, tzinfo

from modtool.sdk import (
    bounded_floor, HTMLScanner, MAX_FLOOR, parse_formatted, Post, Problem, replace_surrogates, short_number,
)
from modtool.packs.mafia.messages import Msg, _
from modtool.packs.mafia.phpbb import html_to_bbcode

FORUM_UTC_OFFSET = timezone(timedelta(hours=-5))
_TIME_FORMATS = ("%a %b %d, %Y %I:%M %p", "%b %d, %Y %I:%M %p", "%a %b %d, %Y %H:%M")
_JSONL_KEYS = ('"number"', '"user"', '"content"')
# A post's div: its id, then its class (the first id of the tag is enough: atomic). Each
# part stops at the tag's end or the next "<", so no text is read twice (linear).
_PROSILVER = re.compile(r"""<div(?>[^<>]*?id=["']p\d+["'])[^<>]*?class=["'][^"'<>]*\bpost\b|class=["']postbody["']""", re.I)


def is_jsonl(text: str) -> bool:
    """Is ``text`` phpBB posts as JSON lines (its first line tells)?"""
    first = text.lstrip("\ufeff \t\r\n")[:4096].split("\n", 1)[0]
    return first.startswith("{") and all(k in first for k in _JSONL_KEYS)


def detect(text: str) -> str | None:
    """"jsonl" or "viewtopic" when ``text`` is a phpBB topic, else None."""
    head = text.lstrip("\ufeff \t\r\n")[:4096]
    if is_jsonl(text):
        return "jsonl"
    if head.startswith(("{", "[")):  # JSON of another forum (a Discuz dump): never a saved page,
        return None  # whatever HTML its posts quote
    if _PROSILVER.search(text):
        return "viewtopic"
    return None


def parse_time(text: str, tz: tzinfo) -> datetime | None:
    """A post's time as the page prints it (``_TIME_FORMATS`` at ``FORUM_UTC_OFFSET``), in ``tz``."""
    text = " ".join(text.replace("»", " ").split())
    if len(text) > 64:  # no forum time is that long
        return None
    return parse_formatted(text, _TIME_FORMATS, FORUM_UTC_OFFSET, tz)


# phpBB's edit notice (its EDITED_TIMES_TOTAL words; MafiaScum's style separates with ";"),
# with the moderator's reason after it when one was given, on the body's last
# line (or the last two): "Last edited by NAME on DATE, edited N times in total."
# It is read piece by piece (``_notice``), never by one pattern with two
# open-ended parts, whose backtracking is quadratic in a long line.
_EDIT_HEAD = re.compile(r"[ \t]*Last edited by ", re.I)
_EDIT_ON = re.compile(r" on ", re.I)
_EDIT_TOTAL = re.compile(r"[,;] edited \d+ times? in total\.?", re.I)
_EDIT_END = re.compile(r"[ \t]*\Z")
_REASON = re.compile(r"[ \t]*(?:\[b\])?Reason:(?:\[/b\])?", re.I)


def _notice(line: str, reason_here: bool) -> bool:
    """Whether ``line`` (one line) is the edit notice; with ``reason_here`` the
    moderator's "Reason: …" may follow it on the same line."""
    head = _EDIT_HEAD.match(line)
    if head is None:
        return False
    on = _EDIT_ON.search(line, head.end() + 1)  # a name of one character at least
    if on is None:
        return False
    for total in _EDIT_TOTAL.finditer(line, on.end() + 1):  # a date of one character at least
        if _EDIT_END.match(line, total.end()) or (reason_here and _REASON.match(line, total.end())):
            return True
    return False


def edit_line(body: str) -> tuple[str, str | None]:
    """(body, edit line): a body that ends with phpBB's "Last edited by …" notice (a
    scraper that kept it in the post's text) gives it up as the post's edit line (G-R3)."""
    text = body[:-1] if body.endswith("\n") else body
    cut = text.rfind("\n")
    start = None
    if cut >= 0 and _REASON.match(text, cut + 1):  # the reason on a line of its own
        before = text.rfind("\n", 0, cut)
        if _notice(text[before + 1:cut], False):
            start, head = max(before, 0), before + 1
    if start is None and _notice(text[cut + 1:], True):
        start, head = max(cut, 0), cut + 1
    if start is None:
        return body, None
    return body[:start].rstrip(), " ".join(text[head:].replace("[b]", "").replace("[/b]", "").split())


def read_topic(text: str, source: str, tz: tzinfo) -> tuple[list[Post], list[Problem]]:
    kind = detect(text)
    posts, problems = (_read_jsonl if kind == "jsonl" else _read_viewtopic)(text, source, tz)
    posts.sort(key=lambda p: p.floor)
    return posts, problems


def _read_jsonl(text: str, source: str, tz: tzinfo) -> tuple[list[Post], list[Problem]]:
    posts, problems = [], []
    for line_no, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        rec, why = _record(line)
        if rec is None:
            problems.append(Problem(source, Msg("line is {what}", what=why), line=line_no))
            continue
        number, user, stamp, content = rec
        where = bounded_floor(number)
        when = parse_time(stamp, tz)
        if when is None:
            problems.append(Problem(source, Msg("unreadable time \"{time}\"", time=stamp), line=line_no, floor=where))
            continue
        user, content = _whole_characters(user, content, number, source, line_no, problems)
        body, edited = edit_line(html_to_bbcode(content))
        posts.append(Post("", number, user, when, body, edited, source=source))
    return posts, problems


def _record(line: str) -> tuple[tuple[int, str, str, str] | None, str]:
    """(number, user, timestamp, content) of one JSON line, or None and why not.
    Only what a scraper writes is taken: the number as digits (text or a JSON
    integer, never true or 3.5), the other fields as text, so no value of
    another shape (a list nested a thousand deep) is ever read further."""
    try:
        rec = json.loads(line)
    except RecursionError:
        return None, _("nested too deep to be a JSON post record")
    except ValueError:
        return None, _("not a JSON post record")
    if not isinstance(rec, dict):
        return None, _("not a JSON post record")
    for key in ("number", "user", "timestamp", "content"):
        if key not in rec:
            return None, _("no field '{key}'").format(key=key)
    number = rec["number"]
    if type(number) is str and number.strip().isdigit() and number.strip().isascii():  # "3", as scrapers write it
        digits = number.strip()
        number = int(digits) if len(digits) <= 30 else MAX_FLOOR + 1  # out of bounds all the same
    elif type(number) is not int:
        return None, _("not a JSON post record: its number {value} is not a post number (0, 1, 2, …)").format(value=_value_shown(number))
    for key in ("user", "timestamp", "content"):
        if type(rec[key]) is not str:
            return None, _("not a JSON post record: the field '{key}' is not text").format(key=key)
    return (number, rec["user"], rec["timestamp"], rec["content"]), ""


def _value_shown(value) -> str:
    if isinstance(value, (dict, list)):
        return "a list" if isinstance(value, list) else "an object"
    text = json.dumps(value, ensure_ascii=True)
    return text if len(text) <= 40 else text[:37] + "…"


def _whole_characters(user: str, content: str, number: int, source: str, line: int | None,
                      problems: list[Problem]) -> tuple[str, str]:
    """``user`` and ``content`` with each lone surrogate (half of an emoji the
    forum cut, kept by the JSON) read as U+FFFD, as a browser shows it and as
    the Discuz reader does (modtool.forum.common): the post is named in a notice."""
    out = []
    for field, text in (("user", user), ("content", content)):
        try:
            text.encode("utf-8")
        except UnicodeEncodeError as e:
            code = f"{ord(text[e.start]):04X}"
            text = replace_surrogates(text)
            problems.append(Problem(source, Msg("post #{number} ({author}): its {field} holds a broken character U+{code} "
                                              "(half of an emoji the forum cut); it is read as U+FFFD, as a browser shows it", number=number, author=replace_surrogates(user), field=field, code=code),
                                    line=line, floor=bounded_floor(number), notice=True))
        out.append(text)
    return out[0], out[1]


class _Page(HTMLScanner):
    """The posts of a prosilver page: (pid, number or None, author, time text, content HTML)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=False)
        self.posts: list[dict] = []
        self.start = ""  # the digits of the canonical link's start=
        self.depth = 0  # div depth
        self.post: dict | None = None
        self.post_depth = 0
        self.field: str | None = None  # "author", "content" being read
        self.field_depth = 0
        self.in_strong = False
        self.outer: tuple[str | None, int] = (None, 0)  # the field a notice interrupted

    def handle_starttag(self, tag, attrs):
        a = {k: (v or "") for k, v in attrs}
        cls = a.get("class", "").split()
        if tag == "link" and a.get("rel") == "canonical":
            m = re.search(r"start=(\d+)", a.get("href", ""))
            self.start = m.group(1) if m else self.start
        if tag == "div" and self.post is not None and "notice" in cls and self.field in (None, "content"):
            # G-R3: phpBB's "Last edited by NAME on DATE, edited N times in total." is the post's
            # edit line (Post.edited), never its text, wherever the style puts it.
            self.depth += 1
            self.outer = (self.field, self.field_depth)
            self.field, self.field_depth = "notice", self.depth
            return
        if self.field == "notice":
            if tag == "div":
                self.depth += 1
            return
        if self.field == "content":
            self.post["html"].append(self.get_starttag_text() or "")
        if tag == "div":
            self.depth += 1
            if re.fullmatch(r"p\d+", a.get("id", "")) and "post" in cls:
                self.post = {"pid": a["id"][1:], "author": "", "time": [], "html": [], "number": None, "head": [],
                             "notice": [], "whole": False}
                self.posts.append(self.post)
                self.post_depth = self.depth
            elif self.post is not None and "content" in cls and self.field is None:
                self.field, self.field_depth = "content", self.depth
        elif self.post is not None and tag == "p" and "author" in cls:
            self.field, self.field_depth = "author", -1
        elif self.field == "author" and tag in ("strong", "a") and ("username" in " ".join(cls) or tag == "strong"):
            self.in_strong = True

    def handle_endtag(self, tag):
        if self.field == "notice":
            if tag == "div":
                if self.depth == self.field_depth:
                    self.field, self.field_depth = self.outer
                self.depth -= 1
            elif tag == "br":
                self.post["notice"].append(" ")
            return
        if self.field == "content":
            if tag == "div" and self.depth == self.field_depth:
                self.field = None
            else:
                self.post["html"].append(f"</{tag}>")
        if tag == "p" and self.field == "author":
            self.field = None
        if tag in ("strong", "a"):
            self.in_strong = False
        if tag == "div":
            if self.post is not None and self.depth == self.post_depth:
                self.post["whole"] = True  # its div closed: not cut short
                self.post = None
            self.depth -= 1

    def handle_startendtag(self, tag, attrs):
        if self.field == "notice":
            self.post["notice"].append(" ")
        elif self.field == "content":
            self.post["html"].append(self.get_starttag_text() or "")
        else:
            self.handle_starttag(tag, attrs)

    def handle_data(self, data):
        if self.post is None:
            return
        if self.field == "notice":
            self.post["notice"].append(data)
        elif self.field == "content":
            self.post["html"].append(data)
        elif self.field == "author":
            if self.in_strong and not self.post["author"]:
                self.post["author"] = data.strip()
            elif not self.in_strong:
                self.post["time"].append(data)
                # The post's number as the forum shows it ("#12" in its author line), never one
                # from the subject ("Re: Mini 1145 #2") or a user name ("Player#5").
                if self.post["number"] is None:
                    m = re.search(r"#(\d{1,9})\b", data)
                    if m:
                        self.post["number"] = int(m.group(1))

    def handle_entityref(self, name):
        self.handle_data({"raquo": "»", "amp": "&", "lt": "<", "gt": ">", "quot": '"', "nbsp": " "}.get(name, ""))
        if self.field == "content":  # keep the entity as it was for the body's own parser
            self.post["html"][-1] = f"&{name};"

    def handle_charref(self, name):
        if self.field == "content":
            self.post["html"].append(f"&#{name};")
        else:
            self.handle_data(html.unescape(f"&#{name};"))  # an impossible code point reads as U+FFFD


def _read_viewtopic(text: str, source: str, tz: tzinfo) -> tuple[list[Post], list[Problem]]:
    page = _Page()
    page.feed(text)
    page.close()
    if not page.posts:
        return [], [Problem(source, Msg("no phpBB posts found on this page"))]
    if len(page.start) > 9:
        return [], [Problem(source, Msg("the page's canonical link says start={start}: no topic has that many posts, "
                                      "so this is not a page the forum gave", start=short_number(page.start)))]
    start = int(page.start or 0)
    if _cut_short(text, page):
        return [], [_cut_problem(page, start, source)]
    posts, problems = [], []
    for i, p in enumerate(page.posts):
        number = _number(p, start, i)
        stamp = "".join(p["time"]).split("»")[-1].strip()
        when = parse_time(stamp, tz)
        if not p["author"] or when is None:
            problems.append(Problem(source, Msg("post p{pid}: no author or unreadable time \"{time}\"", pid=p["pid"], time=stamp[:80]), floor=bounded_floor(number)))
            continue
        body, edited = edit_line(html_to_bbcode("".join(p["html"])))
        notice = " ".join("".join(p["notice"]).split())
        posts.append(Post(p["pid"], number, p["author"], when, body, notice or edited, source=source))
    return posts, problems


def _number(post: dict, start: int, i: int) -> int:
    return post["number"] if post["number"] is not None else start + i


# A saved page opens with one of these and, when whole, ends with </html> (as modtool.forum.discuz_html).
_PAGE_OPEN = re.compile(r"<!doctype\s+html|<html[\s>]", re.I)
_PAGE_CLOSE = re.compile(r"</html\s*>", re.I)


def _cut_short(text: str, page: _Page) -> bool:
    """A whole page (one that opens with <!DOCTYPE html> or <html>) ends with
    </html> after its last post; a file cut short by a failed save or copy
    does not. A fragment of a page has nothing to tell its end by."""
    if _PAGE_OPEN.search(text, 0, 4096) is None:
        return False
    last = text.rfind("p" + page.posts[-1]["pid"])
    return _PAGE_CLOSE.search(text, max(last, 0)) is None


def _cut_problem(page: _Page, start: int, source: str) -> Problem:
    """The page was cut: name the last post read whole (nothing of the page is imported)."""
    whole = [i for i, p in enumerate(page.posts) if p["whole"]]
    if not whole:
        return Problem(source, Msg("the page is cut short before its first post was read whole: save the whole page "
                                 "again and import it (nothing of it was imported)"))
    number = _number(page.posts[whole[-1]], start, whole[-1])
    return Problem(source, Msg("the page is cut short after post #{number}: save the whole page again and import it "
                             "(nothing of it was imported)", number=short_number(number)))
