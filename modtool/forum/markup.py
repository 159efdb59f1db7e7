"""Reading Discuz BBCode post bodies: the poster's own text, quotes, hidden parts.

``Post.body`` is the BBCode the poster typed, quotes included
(``[quote]…[/quote]``). Rules never read the raw body: they read the poster's
own text (M42-R5: text inside quotations is never the poster's vote).

Tag facts (reference/discuz/FORMATS.md §3):

- simple tags are case-sensitive (``[b]`` is a tag, ``[B]`` is literal text);
- parameterised tags are case-insensitive (``[COLOR=red]``, ``[Quote]``, …);
- ``[code]`` content is not parsed: it is kept literally;
- unknown tags are text.

Product decisions:

- Quotes are removed with their nesting counted (the whole outer quote goes,
  even though Discuz itself closes the outer quote at the first ``[/quote]``:
  text between two ``[/quote]`` came from a quote, never from a vote typed by
  the poster). An unclosed ``[quote]`` hides the rest of the post.
- ``[hide]`` / ``[hide=N]`` blocks are removed (option ``vote_in_hide=false``:
  a vote hidden from other players is not public). An unclosed ``[hide]`` is
  shown by Discuz as literal text, so its text stays (only the tag is dropped).
- ``[img]``, ``[attach]``, ``[media]``, ``[audio]``, ``[flash]`` are removed
  with their content (a URL or an attachment id, never words).

Every regex runs with a timeout. ``split_body`` returns a ``MarkupError``
value on timeout; the convenience functions (``own_text``, ``quotes``,
``has_hidden``) never raise either.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import regex

from modtool.forum.replyref import ReplyRef

#: Seconds allowed for the regex work on one post body.
DEFAULT_TIMEOUT = 2.0

# One tag: [name], [/name], [name=param]. "*" is the list item tag.
_TAG = regex.compile(r"\[(/?)([A-Za-z]{1,12}|\*)(?:=([^\]\n]{0,2000}))?\]", regex.V1)

# Simple tags: case-sensitive, no parameter (besides the few fixed forms below).
_SIMPLE = frozenset({"b", "i", "u", "s", "list", "*", "indent", "hr", "p", "float"})
_SIMPLE_PARAM_FORMS = frozenset({("i", "s"), ("list", "1"), ("list", "a"), ("list", "A")})
# Parameterised tags: case-insensitive.
_PARAM = frozenset(
    {
        "color", "backcolor", "size", "font", "align", "url", "email", "img", "attach",
        "code", "quote", "free", "hide", "table", "tr", "td", "p", "float", "media",
        "audio", "flash", "qq", "sup", "sub",
    }
)
_DROP_CONTENT = frozenset({"img", "attach", "media", "audio", "flash"})
# Tags that end a visual line: replaced by a newline so that fields typed in
# list items or table rows stay on their own lines.
_LINE_BREAKS = frozenset({"*", "hr", "/tr", "/p", "/list"})


@dataclass(frozen=True)
class MarkupError:
    """The body could not be read (regex timeout on a pathological post)."""

    reason: str


@dataclass(frozen=True)
class Body:
    own: str  # the poster's own text, tags stripped
    quotes: tuple[str, ...] = ()  # plain text of each top-level quote
    hidden: tuple[str, ...] = ()  # plain text of each [hide] block
    refs: tuple[ReplyRef, ...] = field(default=())  # what the quotes point at


class _Timeout(Exception):
    pass


@dataclass(slots=True)
class _Tok:
    start: int
    end: int
    closing: bool
    name: str  # lower-cased for parameterised tags, as typed for simple tags
    param: str | None
    kind: str  # "simple", "param", or "" (not a tag: literal text)


def _classify(m) -> _Tok:
    closing = m.group(1) == "/"
    raw = m.group(2)
    param = m.group(3)
    low = raw.lower()
    kind, name = "", raw
    if closing and param is not None:
        pass  # "[/b=x]" is no tag
    elif raw in _SIMPLE and (param is None or (not closing and (raw, param) in _SIMPLE_PARAM_FORMS)):
        kind = "simple"
    elif low in _PARAM:
        kind, name = "param", low
    return _Tok(m.start(), m.end(), closing, name, param, kind)


def _tokens(body: str, deadline: float) -> list[_Tok]:
    remaining = deadline - time.monotonic()
    if remaining <= 0:
        raise _Timeout
    try:
        ms = list(_TAG.finditer(body, timeout=remaining))
    except TimeoutError as e:
        raise _Timeout from e
    out: list[_Tok] = []
    for m in ms:
        t = _classify(m)
        if t.kind:
            out.append(t)
    return out


def _is(t: _Tok, name: str, closing: bool) -> bool:
    return t.kind == "param" and t.name == name and t.closing == closing


def _render(body: str, toks: list[_Tok], lo: int, hi: int, a: int, b: int, acc: dict) -> str:
    """Plain text of body[a:b] given the tag tokens toks[lo:hi] inside it."""
    parts: list[str] = []
    pos = a
    i = lo
    code_close = acc["code_close"]
    hide_close = acc["hide_close"]
    keep_tags = acc["keep_tags"] and acc["top"]  # quotes' and hidden parts' text stays plain
    while i < hi:
        if not i & 1023 and time.monotonic() > acc["deadline"]:
            raise _Timeout
        t = toks[i]
        parts.append(body[pos : t.start])
        pos = t.end
        if _is(t, "code", False) and code_close.get(i, hi) < hi:
            j = code_close[i]
            literal = body[t.end : toks[j].start]
            parts.append(literal.translate(_LITERAL_BRACKETS) if keep_tags else literal)
            pos = toks[j].end
            i = j + 1
            continue
        if _is(t, "quote", False):
            depth = 1
            j = i + 1
            while j < hi and depth:
                u = toks[j]
                if _is(u, "code", False) and code_close.get(j, hi) < hi:
                    j = code_close[j] + 1
                    continue
                if _is(u, "quote", False):
                    depth += 1
                elif _is(u, "quote", True):
                    depth -= 1
                j += 1
            if depth:  # unclosed: the rest is quoted
                inner_end_tok, inner_end, pos = hi, b, b
            else:
                inner_end_tok, inner_end, pos = j - 1, toks[j - 1].start, toks[j - 1].end
            if acc["top"]:
                acc["top"] = False
                inner = _render(body, toks, i + 1, inner_end_tok, t.end, inner_end, acc)
                acc["top"] = True
                acc["quotes"].append(inner.strip())
                acc["refs"].extend(_refs_in(body[t.end : inner_end]))
            i = inner_end_tok + 1 if not depth else hi
            continue
        if _is(t, "hide", False) and hide_close.get(i, hi) < hi:
            j = hide_close[i]
            if acc["top"]:
                acc["top"] = False
                inner = _render(body, toks, i + 1, j, t.end, toks[j].start, acc)
                acc["top"] = True
                acc["hidden"].append(inner.strip())
                if acc["keep_hidden"]:
                    parts.append(inner)
            pos = toks[j].end
            i = j + 1
            continue
        if t.kind == "param" and not t.closing and t.name in _DROP_CONTENT:
            j = i + 1
            while j < hi and not _is(toks[j], t.name, True):
                j += 1
            if j < hi:
                pos = toks[j].end
                i = j + 1
                continue
        if keep_tags:
            parts.append(body[t.start : t.end])
        key = ("/" if t.closing else "") + t.name
        if key in _LINE_BREAKS:
            parts.append("\n")
        i += 1
    parts.append(body[pos:b])
    return "".join(parts)


_LITERAL_BRACKETS = str.maketrans("[]", "［］")


def _pairs(toks: list[_Tok]) -> tuple[dict[int, int], dict[int, int]]:
    """Matching close token for each [code] (first [/code] after it, no
    nesting, content not parsed) and each [hide] (nesting counted)."""
    code_close: dict[int, int] = {}
    hide_close: dict[int, int] = {}
    stack: list[int] = []
    i = 0
    n = len(toks)
    # Next [/code] after each index, computed backwards: linear time.
    next_code_close = [-1] * (n + 1)
    for k in range(n - 1, -1, -1):
        next_code_close[k] = k if _is(toks[k], "code", True) else next_code_close[k + 1]
    while i < n:
        t = toks[i]
        if _is(t, "code", False):
            j = next_code_close[i + 1]
            if j != -1:
                code_close[i] = j
                i = j + 1
                continue
        elif _is(t, "hide", False):
            stack.append(i)
        elif _is(t, "hide", True) and stack:
            hide_close[stack.pop()] = i
        i += 1
    return code_close, hide_close


_FINDPOST = regex.compile(r"goto=findpost&(?:amp;)?pid=(\d+)", regex.V1 | regex.IGNORECASE)
_SAID = regex.compile(
    r"([^\]\[\n]{1,60}?)\s*发表于\s*(\d{4}-\d{1,2}-\d{1,2}\s+\d{1,2}:\d{2}(?::\d{2})?)", regex.V1
)
_OLD_REPLY = regex.compile(
    r"回复\s*\[url=[^\]]*?pid=(\d+)[^\]]*\]\s*(\d+)\s*#\s*\[/url\]\s*(?:\[i\]([^\[]{1,60})\[/i\])?",
    regex.V1 | regex.IGNORECASE,
)
_STRIP_TAGS = regex.compile(r"\[/?[A-Za-z]{1,12}(?:=[^\]\n]{0,2000})?\]", regex.V1)


def _refs_in(quoted: str) -> list[ReplyRef]:
    """The post a quote points at, from its header line (pid link, NAME 发表于 TIME)."""
    head = quoted[:600]
    pid_m = _FINDPOST.search(head, timeout=DEFAULT_TIMEOUT)
    plain = _STRIP_TAGS.sub("", head, timeout=DEFAULT_TIMEOUT)
    said = _SAID.search(plain, timeout=DEFAULT_TIMEOUT)
    if not pid_m and not said:
        return []
    return [
        ReplyRef(
            pid=pid_m.group(1) if pid_m else None,
            author=said.group(1).strip() if said else None,
            time=said.group(2) if said else None,
        )
    ]


def split_body(body: str, *, keep_hidden: bool = False, keep_tags: bool = False,
               timeout: float = DEFAULT_TIMEOUT) -> Body | MarkupError:
    """Split a BBCode body into own text, quotes and hidden parts.

    ``keep_hidden=True`` keeps the text of ``[hide]`` blocks in the own text
    (option ``vote_in_hide``). ``keep_tags=True`` keeps the own text's
    markup as typed (``[b]…[/b]``), for games whose actions are marked up
    (a bold ``VOTE: X``); quotes and hidden parts go as always, and a
    ``[code]`` block's brackets become ``［ ］`` (shown literally, so nothing
    in it is markup). Never raises: a timeout gives ``MarkupError``.
    """
    deadline = time.monotonic() + timeout
    if "[" not in body and deadline > time.monotonic():
        # Fast path: no tag and no old-style reply marker (both need "["), so
        # the whole body is own text (what _split gives, tested to agree).
        return Body(own=body)
    return _split(body, keep_hidden, deadline, keep_tags)


def _split(body: str, keep_hidden: bool, deadline: float, keep_tags: bool = False) -> Body | MarkupError:
    try:
        toks = _tokens(body, deadline)
        code_close, hide_close = _pairs(toks)
        acc = {
            "code_close": code_close,
            "hide_close": hide_close,
            "top": True,
            "quotes": [],
            "hidden": [],
            "refs": [],
            "keep_hidden": keep_hidden,
            "keep_tags": keep_tags,
            "deadline": deadline,
        }
        own = _render(body, toks, 0, len(toks), 0, len(body), acc)
        refs = list(acc["refs"])
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise _Timeout
        if "回复" in body:  # _OLD_REPLY starts with this literal
            for m in _OLD_REPLY.finditer(body, timeout=remaining):
                refs.append(ReplyRef(pid=m.group(1), floor=int(m.group(2)), author=(m.group(3) or "").strip() or None))
    except (_Timeout, TimeoutError):
        return MarkupError("格式错误：帖子内容过于复杂，无法在限定时间内读取，请导演人工核对")
    except RecursionError:
        return MarkupError("格式错误：帖子的引用嵌套过深，无法读取，请导演人工核对")
    return Body(own=own, quotes=tuple(acc["quotes"]), hidden=tuple(acc["hidden"]), refs=tuple(refs))


def own_text(body: str) -> str:
    """The poster's own text: quotes and [hide] blocks removed, tags stripped.

    On a timeout returns "" (the post then reads as "not a vote"); callers that
    must tell the difference use ``split_body``.
    """
    r = split_body(body)
    return r.own if isinstance(r, Body) else ""


def has_hidden(body: str) -> bool:
    """Whether the body has a (closed) [hide] block."""
    r = split_body(body)
    return bool(r.hidden) if isinstance(r, Body) else False


def quotes(body: str) -> list[str]:
    """Plain text of each top-level quote (for messages)."""
    r = split_body(body)
    return list(r.quotes) if isinstance(r, Body) else []


def reply_refs(body: str) -> list[ReplyRef]:
    """What the body's quotes (and old-style 回复 markers) point at."""
    r = split_body(body)
    return list(r.refs) if isinstance(r, Body) else []
