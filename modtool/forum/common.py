"""Pieces shared by the three readers: times, reply references, messages."""

from __future__ import annotations

import re
from bisect import bisect_left

from modtool.forum.bounds import bounded_floor
from modtool.forum.html2bb import convert, split_x3_quote
from modtool.forum.posts import Post, ReplyRef
from modtool.base.times import TIME_PATTERN, show_time

# --- reply references, read from the BBCode body ------------------------------

# Every pattern here is linear in the text it reads (tests/bench/bench_hostile_posts.py):
# a name is never followed by an open-ended run of white space (the callers strip
# it), a tag's value stops at the next "[", and the reply marker's parts that
# could run to the end of the text are looked up once for all (``_reply_mark``).
_PID = re.compile(r"[?&;]pid=(\d+)")
_TAGS = re.compile(r"\[/?[a-zA-Z*]+(?:=[^\]\n\[]*)?\]")
# X3: "NAME 发表于 TIME"; Discuz 7: "原帖由 NAME 于 TIME 发表"; mobile adds "引用:".
_QUOTE_HEAD = re.compile(r"^\s*(?:引用\s*[:：]?\s*)?(.+?)发表于\s*" + TIME_PATTERN)
_QUOTE_HEAD7 = re.compile(r"^\s*(?:引用\s*[:：]?\s*)?原帖由\s*(.+?)于\s*" + TIME_PATTERN + r"\s*发表")
# Discuz 6/7: [b]回复 [url=…pid=P…]N#[/url] [i]NAME[/i] [/b]
_REPLY_MARK_HEAD = re.compile(r"\[b\]\s*回复\s*\[url=")
_REPLY_MARK_TAIL = re.compile(r"\]\s*([0-9０-９]+)\s*[#＃楼]\s*\[/url\]\s*")
_REPLY_MARK_END = re.compile(r"\[/i\]\s*\[/b\]")


def _reply_mark(body: str) -> tuple[int, str, str, str | None] | None:
    """(start, href, floor, name or None) of the first Discuz 6/7 reply marker,
    ``[b]回复 [url=HREF]N#[/url] [i]NAME[/i] [/b]`` (the name part optional):
    what one regex would find, in time linear in ``body`` however many
    markers are never closed."""
    ends: list[int] | None = None  # where each "[/i] [/b]" starts, looked up once
    tails: dict[int, re.Match | None] = {}  # the rest after each "]", read once
    close = -1  # the first "]" at or after the current marker's href
    for head in _REPLY_MARK_HEAD.finditer(body):
        at = head.end()
        if close < at:
            close = body.find("]", at)
            if close < 0:
                return None
        if close not in tails:
            tails[close] = _REPLY_MARK_TAIL.match(body, close)
        tail = tails[close]
        if tail is None:
            continue
        href, floor, after = body[at:close], tail.group(1), tail.end()
        if body.startswith("[/b]", after):
            return head.start(), href, floor, None
        if body.startswith("[i]", after):
            if ends is None:
                ends = [m.start() for m in _REPLY_MARK_END.finditer(body)]
            k = bisect_left(ends, after + 3)
            if k < len(ends):
                return head.start(), href, floor, body[after + 3:ends[k]]
    return None


_QUOTE_OPEN_I = re.compile(r"\[quote\]", re.I)
_QUOTE_CLOSE_I = re.compile(r"\[/quote\]", re.I)


def _first_quote(body: str) -> tuple[int, str] | None:
    """(start, inner text) of the first [quote]…[/quote] (an unclosed one runs to the end)."""
    i = body.find("[quote]")
    if i < 0:
        m = _QUOTE_OPEN_I.search(body)
        if m is None:
            return None
        i, start = m.start(), m.end()
    else:
        start = i + 7
    j = body.find("[/quote]", start)
    if j < 0:
        m2 = _QUOTE_CLOSE_I.search(body, start)
        j = m2.start() if m2 else len(body)
    return i, body[start:j]


# The header Discuz X3 writes at the top of a quote, read in one step.
_X3_HEAD = re.compile(
    r"\s*\[size=[^\]\n]*\]\[url=([^\]\n]*)\]\[color=[^\]\n]*\]([^\[\n]+?)发表于\s*"
    + TIME_PATTERN
    + r"\s*\[/color\]"
)


def _ref(pid, floor, author, time) -> ReplyRef:
    if _FAST_REF:
        ref = _new(ReplyRef)
        _set(ref, "__dict__", {"pid": pid, "floor": floor, "author": author, "time": time})
        return ref
    return ReplyRef(pid=pid, floor=floor, author=author, time=time)


def reply_ref(body: str) -> ReplyRef | None:
    """What ``body`` replies to: its first quote block, else a reply marker."""
    if "[" not in body:
        return None
    mark = _reply_mark(body) if "回复" in body else None
    quote = _first_quote(body)
    if quote and (mark is None or quote[0] < mark[0]):
        inner = quote[1]
        x3 = _X3_HEAD.match(inner)
        if x3:
            pid_m = _PID.search(x3.group(1))
            return _ref(pid_m.group(1) if pid_m else None, None, x3.group(2).strip(), show_time(x3, 3))
        pid_m = _PID.search(inner) if "pid=" in inner else None
        head = None
        seen = 0
        for line in inner.split("\n", 4):
            if "[" in line:
                line = _TAGS.sub("", line)
            if not line.strip():
                continue
            if "发表于" in line:
                head = _QUOTE_HEAD.match(line)
            elif "原帖由" in line:
                head = _QUOTE_HEAD7.match(line)
            seen += 1
            if head or seen == 2:
                break
        author = head.group(1).strip() if head else None
        when = show_time(head, 2) if head else None
        return _ref(pid_m.group(1) if pid_m else None, None, author or None, when)
    if mark:
        pid_m = _PID.search(mark[1])
        author = (mark[3] or "").strip() or None
        return _ref(pid_m.group(1) if pid_m else None, bounded_floor(int(mark[2])), author, None)
    return None


# --- a post opening with a quote, in one step ---------------------------------

_HEAD_TEXT = re.compile(r"\s*([^\[\n]+?)发表于\s*" + TIME_PATTERN + r"\s*\Z")


def convert_quoted(message: str) -> tuple[str, str | None, ReplyRef | None] | None:
    """``convert`` + ``reply_ref`` for the commonest reply shape: a post that
    opens with a standard Discuz X3 quote of plain lines. None otherwise."""
    parts = split_x3_quote(message)
    if parts is None:
        return None
    tail, edited = convert(parts[3], keep_leading=True)
    return quoted_post(parts, tail, edited)


def quoted_post(parts: tuple[str, str, str, str], tail: str, edited: str | None) -> tuple[str, str | None, ReplyRef | None]:
    """``convert_quoted`` from ``split_x3_quote``'s parts and the rest of
    the message converted (``tail``, with ``keep_leading``)."""
    quote, href, head, _ = parts
    body = (quote + tail).strip()
    m = _HEAD_TEXT.match(head)
    if m is None or not body.startswith("[quote]"):
        return body, edited, reply_ref(body)
    pid_m = _PID.search(href)
    return body, edited, _ref(pid_m.group(1) if pid_m else None, None, m.group(1).strip(), show_time(m, 2))


# --- building posts quickly ---------------------------------------------------
#
# A frozen dataclass sets each field through object.__setattr__, which costs
# about 4 µs a post: a tenth of the budget of a 100,000-post import. When Post
# is a plain (non-slots) dataclass with exactly the fields below, its instance
# dict is filled in one step instead; the result is the same value (equality,
# hash and repr only read the fields). Otherwise the constructor is used.

_FIELDS = ("pid", "floor", "author", "time", "body", "edited", "reply_to", "source", "extra")
_FAST_POST = (
    tuple(getattr(Post, "__dataclass_fields__", {})) == _FIELDS
    and "__slots__" not in Post.__dict__
    and getattr(Post, "__post_init__", None) is None
)
_FAST_REF = (
    tuple(getattr(ReplyRef, "__dataclass_fields__", {})) == ("pid", "floor", "author", "time")
    and "__slots__" not in ReplyRef.__dict__
    and getattr(ReplyRef, "__post_init__", None) is None
)
_new = object.__new__
_set = object.__setattr__


# --- lone surrogates -----------------------------------------------------------
#
# A Discuz JSON dump can hold half of a UTF-16 pair ("\ud83d": an emoji cut by
# the forum's length limit); json.loads keeps it as a lone surrogate, which no
# UTF-8 file and no YAML can hold: the post could not be saved. A browser shows
# U+FFFD for it, and so does the imported post, in every text field. Checked
# in ``make_post``, which every JSON post passes (the one reader that can meet
# one: the HTML and text readers get their text from a strict decoder, which
# refuses surrogates, and html.unescape turns &#xD83D; into U+FFFD). phpBB JSON lines
# can hold one as well: modtool.packs.mafia.forum reads it as U+FFFD the same way.


def replace_surrogates(text: str) -> str:
    """``text`` with each lone surrogate replaced by U+FFFD (a pair, which
    json.loads would already have joined, becomes its character)."""
    return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")


def _no_surrogates(value):
    if value.__class__ is str:
        return replace_surrogates(value)
    if isinstance(value, dict):
        return {_no_surrogates(k): _no_surrogates(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(map(_no_surrogates, value))
    if isinstance(value, ReplyRef):
        return _ref(_no_surrogates(value.pid), value.floor, _no_surrogates(value.author), _no_surrogates(value.time))
    return value


def make_post(pid, floor, author, time, body, edited, reply_to, source, extra) -> Post:
    # Encoding to UTF-8 is the quickest test for a surrogate (~0.2 µs for a
    # body; a regex over it costs more than building the post). ``extra``
    # (authorid, …) is not written anywhere: cleaned only with the rest.
    try:
        body.encode()
        author.encode()
        if not pid.isascii():
            pid.encode()
        if edited is not None:
            edited.encode()
        if reply_to is not None and reply_to.author is not None:
            reply_to.author.encode()
    except (UnicodeEncodeError, AttributeError):  # AttributeError: a field that is not text
        pid, author, body, edited, reply_to, extra = map(_no_surrogates, (pid, author, body, edited, reply_to, extra))
    if _FAST_POST:
        post = _new(Post)
        _set(
            post,
            "__dict__",
            {
                "pid": pid,
                "floor": floor,
                "author": author,
                "time": time,
                "body": body,
                "edited": edited,
                "reply_to": reply_to,
                "source": source,
                "extra": extra,
            },
        )
        return post
    return Post(pid, floor, author, time, body, edited, reply_to, source, extra)
