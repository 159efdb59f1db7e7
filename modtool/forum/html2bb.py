"""Rendered Discuz! post HTML back to the BBCode the poster typed.

Discuz stores posts as BBCode and renders them to HTML (``discuzcode()``); the
mobile API and saved pages only give us the HTML. ``BBWriter`` reverses the
renderer tag by tag. It consumes a stream of events (start tag, end tag,
text) so that both the fast regex tokenizer below (used for the JSON dumps)
and ``modtool.forum.htmlscan`` (used for saved pages) can drive it.

Mapping (Discuz X3 ``discuzcode.func.php`` in reverse)::

    <br>                                  newline (the source newline after it is dropped)
    <strong>, <b>                         [b]
    <i>                                   [i]  (but <i class="pstatus"> is the edit marker)
    <u>, <strike>/<s>/<del>               [u], [s]
    <font color|size|face>, <font style>  [color=], [size=], [font=], [backcolor=]
    <span style="color:…">                [color=…] (also background-color, font-size)
    <a href=U>T</a>                       [url=U]T[/url]   (mailto: → [email=…])
    <img smilieid> / smiley path          dropped
    <img aid=N>                           [attach]N[/attach]
    <img src=S>                           [img]S[/img]
    <div class="quote"><blockquote>       [quote]…[/quote]
    <div class="blockcode">               [code]…[/code]  (lines from <li>, "复制代码" dropped)
    <blockquote> (alone)                  [indent]
    <div align=X>                         [align=X]
    <hr>                                  [hr]
    <ul>/<ol> <li>                        [list] [*] [/list]  ([list=1], [list=a])
    <table> <tr> <td>                     [table] [tr] [td]
    <div class="showhide"><h4>…</h4>      [hide]…[/hide]
    <script>, <style>, display:none, .tip  dropped

Entities are unescaped and no-break spaces become plain spaces.
"""

from __future__ import annotations

import re
from collections.abc import Container
from itertools import compress, repeat
from operator import contains

from modtool.forum.entities import _unescape, unescape_entities
from modtool.forum.html2bb_fast import _QUOTE_OPEN, _X3_QUOTE, _br_lines, _fast, _fast_tags, _plain, _Unusual

# --- tokens -------------------------------------------------------------------

# A tag (or comment) as one token. No "<" inside a tag: Discuz escapes it in
# attribute values, and it keeps the scan linear on arbitrary input (so do
# the possessive repetitions: a long tag never closed is not backtracked into).
_SPLIT = re.compile(
    r"(<!--.*?(?:-->|\Z)"
    r"|</?[A-Za-z][A-Za-z0-9:_-]*+(?:[^>\"'<]|\"[^\"<]*+\"|'[^'<]*+')*+>)",
    re.S,
)
_NAME = re.compile(r"</?([A-Za-z][A-Za-z0-9:_-]*)")
_ATTR = re.compile(r"([^\s=/>\"']+)(?:\s*=\s*(?:\"([^\"]*)\"|'([^']*)'|([^\s>]+)))?")
# A declaration starts at the start of a word (a long word with no colon is read once, not from each of its letters).
_STYLE_DECL = re.compile(r"(?<![a-zA-Z-])([a-zA-Z-]++)\s*+:\s*([^;]+)")
_SMILEY_SRC = re.compile(r"/smil(?:e|ie)y?s?/|/smilies/", re.I)

_VOID = frozenset({"br", "img", "hr", "input", "meta", "link", "wbr", "area", "col", "embed", "source", "param"})
_SKIP_CONTENT = frozenset({"script", "style", "textarea", "title", "head"})

# What a tag does, decided once per distinct tag text (they repeat a lot):
# (kind, name, opening, closing, mode)
BR, VOID, OPEN, END, COMMENT = range(5)
Plan = tuple[int, str, str, str, str]
_PLAN_CACHE: dict[str, Plan] = {}
_PLAN_CACHE_MAX = 20000


def parse_attrs(raw: str) -> dict[str, str]:
    attrs: dict[str, str] = {}
    if not raw or raw.isspace() or raw.strip() == "/":
        return attrs
    for m in _ATTR.finditer(raw):
        name = m.group(1).lower()
        value = m.group(2)
        if value is None:
            value = m.group(3)
        if value is None:
            value = m.group(4) or ""
        if name not in attrs:
            attrs[name] = unescape_entities(value) if "&" in value else value
    return attrs


def _style(attrs: dict[str, str]) -> dict[str, str]:
    style = attrs.get("style")
    if not style:
        return {}
    return {m.group(1).lower(): m.group(2).strip() for m in _STYLE_DECL.finditer(style)}


def make_plan(tag: str, attrs: dict[str, str]) -> Plan:
    """What a start tag does, whatever its context (see ``BBWriter.start_plan``)."""
    if tag == "br":
        return (BR, tag, "", "", "")
    if tag == "img":
        return (VOID, tag, _img(attrs), "", "")
    if tag == "hr":
        return (VOID, tag, "[hr]", "", "")
    if tag in _VOID:
        return (VOID, tag, "", "", "")
    style = attrs.get("style", "")
    if tag in _SKIP_CONTENT or (style and "display:none" in style.replace(" ", "").lower()):
        return (OPEN, tag, "", "", "skip")
    cls = attrs.get("class", "")
    if tag in ("strong", "b"):
        return (OPEN, tag, "[b]", "[/b]", "")
    if tag == "i":
        if "pstatus" in cls.split():
            return (OPEN, tag, "", "", "edit")
        return (OPEN, tag, "[i]", "[/i]", "")
    if tag == "u":
        return (OPEN, tag, "[u]", "[/u]", "")
    if tag in ("strike", "s", "del"):
        return (OPEN, tag, "[s]", "[/s]", "")
    if tag in ("font", "span"):
        opening, closing = _font(tag, attrs)
        return (OPEN, tag, opening, closing, "")
    if tag == "a":
        href = attrs.get("href")
        if href is None:
            return (OPEN, tag, "", "", "")
        if href.lower().startswith("mailto:"):
            return (OPEN, tag, f"[email={href[7:]}]", "[/email]", "")
        return (OPEN, tag, f"[url={href}]", "[/url]", "")
    if tag == "div":
        classes = cls.split()
        if "quote" in classes:
            return (OPEN, tag, "[quote]", "[/quote]", "quote")
        if "blockcode" in classes:
            return (OPEN, tag, "", "", "code")
        if "showhide" in classes:
            return (OPEN, tag, "[hide]", "[/hide]", "hide")
        if "tip" in classes or "attach_nopermission" in classes:
            return (OPEN, tag, "", "", "skip")
        if attrs.get("align"):
            return (OPEN, tag, f"[align={attrs['align']}]", "[/align]", "")
        return (OPEN, tag, "", "", "")
    if tag == "blockquote":
        return (OPEN, tag, "[indent]", "[/indent]", "bq")
    if tag == "h4":
        return (OPEN, tag, "", "", "h4")
    if tag in ("ul", "ol"):
        kind = attrs.get("type", "")
        if tag == "ol" and not kind:
            kind = "1"
        return (OPEN, tag, f"[list={kind}]" if kind else "[list]", "[/list]", "")
    if tag == "li":
        return (OPEN, tag, "[*]", "", "")
    if tag == "table":
        return (OPEN, tag, "[table]", "[/table]", "")
    if tag == "tr":
        return (OPEN, tag, "[tr]", "[/tr]", "")
    if tag in ("td", "th"):
        colspan, rowspan = attrs.get("colspan"), attrs.get("rowspan")
        opening = f"[td={colspan or 1},{rowspan or 1}]" if (colspan or rowspan) else "[td]"
        return (OPEN, tag, opening, "[/td]", "")
    if tag == "p":
        return (OPEN, tag, "", "\n", "p")
    return (OPEN, tag, "", "", "")


def _img(attrs: dict[str, str]) -> str:
    src = attrs.get("src", "")
    if "smilieid" in attrs or _SMILEY_SRC.search(src):
        return ""
    aid = attrs.get("aid")
    if aid:
        return f"[attach]{aid}[/attach]"
    real = attrs.get("zoomfile") or attrs.get("file") or src
    return f"[img]{real}[/img]" if real else ""


def _font(tag: str, attrs: dict[str, str]) -> tuple[str, str]:
    opens: list[str] = []
    closes: list[str] = []
    if tag == "font":
        if attrs.get("color"):
            opens.append(f"[color={attrs['color']}]")
            closes.append("[/color]")
        if attrs.get("size"):
            opens.append(f"[size={attrs['size']}]")
            closes.append("[/size]")
        if attrs.get("face"):
            opens.append(f"[font={attrs['face']}]")
            closes.append("[/font]")
    style = _style(attrs)
    if style:
        if "color" in style:
            opens.append(f"[color={style['color']}]")
            closes.append("[/color]")
        if "background-color" in style:
            opens.append(f"[backcolor={style['background-color']}]")
            closes.append("[/backcolor]")
        if "font-size" in style:
            opens.append(f"[size={style['font-size']}]")
            closes.append("[/size]")
    return "".join(opens), "".join(reversed(closes))


def _token_plan(token: str) -> Plan:
    """A raw tag token → its plan (end tags: kind END; comments: COMMENT)."""
    if token.startswith("<!--"):
        return (COMMENT, "", "", "", "")
    m = _NAME.match(token)
    name = m.group(1).lower()  # type: ignore[union-attr]
    if token[1] == "/":
        return (END, name, "", "", "")
    return make_plan(name, parse_attrs(token[m.end() : -1]))  # type: ignore[union-attr]


class BBWriter:
    """Collects BBCode from HTML events; ``finish()`` gives (body, edited)."""

    __slots__ = ("out", "stack", "open", "edited", "_edit_buf", "_after_br", "_skip", "_code", "_code_lines", "_code_skip")

    def __init__(self) -> None:
        self.out: list[str] = []
        # (tag, closing text, mode) for each open element
        self.stack: list[tuple[str, str, str]] = []
        # How many of each tag ``stack`` holds: a stray end tag costs one
        # look-up however deep the stack (a post of thousands of them stays linear).
        self.open: dict[str, int] = {}
        self.edited: str | None = None
        self._edit_buf: list[str] | None = None
        self._after_br = False
        self._skip = 0  # depth inside dropped content
        self._code: list[str] | None = None  # text of an open [code] block
        self._code_lines = 0
        self._code_skip = 0

    # -- events --------------------------------------------------------------

    def data(self, text: str) -> None:
        """Text, entities already unescaped."""
        if not text or self._skip:
            return
        if self._after_br:
            self._after_br = False
            if text[0] == "\n":
                text = text[1:]
                if not text:
                    return
        if self._edit_buf is not None:
            self._edit_buf.append(text)
        elif self._code is not None:
            if not self._code_skip:
                self._code.append(text)
        else:
            self.out.append(text)

    def start(self, tag: str, attrs: dict[str, str]) -> None:
        self.start_plan(make_plan(tag, attrs))

    def start_plan(self, plan: Plan) -> None:
        kind, name, opening, closing, mode = plan
        self._after_br = False
        if self._skip:
            if kind == OPEN:
                self._push(name, "", "skip")
                self._skip += 1
            return
        if kind == BR:
            self._emit("\n")
            self._after_br = True
            return
        if self._code is not None:
            self._code_start(name, kind)
            return
        if kind == VOID:
            if opening:
                self._emit(opening)
            return
        if mode:
            if mode == "skip":
                self._push(name, "", "skip")
                self._skip += 1
                return
            if self._edit_buf is not None:  # markup inside the edit marker
                self._push(name, "", "")
                return
            if mode == "edit":
                self._edit_buf = []
            elif mode == "code":
                self._code = []
                self._code_lines = 0
                self._code_skip = 0
            elif mode == "bq":
                if self.stack and self.stack[-1][2] == "quote":
                    opening = closing = ""
            elif mode == "h4":
                if self.stack and self.stack[-1][2] == "hide":
                    self._push(name, "", "skip")
                    self._skip += 1
                    return
            elif mode == "p":
                if self.out and not self.out[-1].endswith("\n"):
                    self.out.append("\n")
        elif self._edit_buf is not None:
            self._push(name, "", "")
            return
        if opening:
            self.out.append(opening)
        self.stack.append((name, closing, mode))  # _push, inlined (the commonest tag)
        open_ = self.open
        open_[name] = open_.get(name, 0) + 1

    def end(self, tag: str) -> None:
        self._after_br = False
        if tag in _VOID or not self.open.get(tag):
            return  # stray end tag
        stack, open_ = self.stack, self.open
        while True:
            name, closing, mode = stack.pop()
            open_[name] -= 1
            if mode or closing:
                self._close(closing, mode)
            if name == tag:
                return

    def finish(self, keep_leading: bool = False) -> tuple[str, str | None]:
        # Elements left open: their text is kept, but no closing tag is made
        # up; Discuz renders "[b]x" as "<strong>x" and the poster typed "[b]x".
        while self.stack:
            _, closing, mode = self.stack.pop()
            if mode:
                self._close("", mode)
        self.open.clear()
        body = "".join(self.out)
        body = body.rstrip() if keep_leading else body.strip()
        return body, self.edited

    # -- helpers -------------------------------------------------------------

    def _push(self, name: str, closing: str, mode: str) -> None:
        self.stack.append((name, closing, mode))
        self.open[name] = self.open.get(name, 0) + 1

    def _emit(self, text: str) -> None:
        if self._edit_buf is not None:
            self._edit_buf.append(text)
        elif self._code is not None:
            self._code.append(text)
        else:
            self.out.append(text)

    def _close(self, closing: str, mode: str) -> None:
        if mode == "skip":
            self._skip -= 1
            return
        if mode == "edit":
            text = " ".join("".join(self._edit_buf or []).split())
            self._edit_buf = None
            if self.edited is None:
                self.edited = text
            return
        if mode == "code":
            text = "".join(self._code or []).rstrip("\n")
            self._code = None
            self.out.append("[code]" + text + "[/code]")
            return
        if mode == "codeskip":
            self._code_skip -= 1
            return
        if closing:
            self._emit(closing)

    def _code_start(self, tag: str, kind: int) -> None:
        if tag == "li":  # one <li> a line; a <br /> may end the line as well
            code = self._code
            if self._code_lines and not self._code_skip and code and not code[-1].endswith("\n"):
                code.append("\n")
            self._code_lines += 1
        elif tag == "em" or tag in _SKIP_CONTENT:  # the "复制代码" button
            self._push(tag, "", "codeskip")
            self._code_skip += 1
            return
        if kind == OPEN:
            self._push(tag, "", "")


def split_x3_quote(message: str) -> tuple[str, str, str, str] | None:
    """For a post opening with a standard X3 quote: (the quote as BBCode,
    unescaped href, unescaped header text, the rest of the message still as
    HTML); else None. Converting the short rest alone is cheaper than the
    whole message."""
    m = _X3_QUOTE.match(message)
    if m is None:
        return None
    size, href, color, head, inner = m.groups()
    inner = _plain(_br_lines(inner))
    if inner is None:
        return None
    attrs = size + href + color  # ``_attr`` of each, at once
    if "&nbsp;" in attrs or "\xa0" in attrs or "\r" in attrs:
        return None
    href = _unescape(href)
    head = _unescape(head)
    if "&" in attrs:
        size, color = _unescape(size), _unescape(color)
    quote = f"[quote][size={size}][url={href}][color={color}]{head}[/color][/url][/size]{inner}[/quote]"
    return quote, href, head, message[m.end() :]


def convert(message: str, keep_leading: bool = False) -> tuple[str, str | None]:
    """Rendered post HTML → (BBCode body, edit marker text or None).

    The body is stripped of surrounding white space (only of trailing white
    space with ``keep_leading``, for the part of a post after a quote)."""
    strip = str.rstrip if keep_leading else str.strip
    if "<" not in message:
        return strip(_unescape(message)), None
    if '<i class="pstatus">' in message or _QUOTE_OPEN in message:
        fast = _fast(message, strip)
    else:  # the commonest game post: lines joined by <br />, maybe some bold or colour
        try:
            fast = _fast_tags(_br_lines(message), strip, None, False)
        except _Unusual:
            fast = None
    if fast is not None:
        return fast
    return convert_slow(message, keep_leading)


def convert_slow(message: str, keep_leading: bool = False) -> tuple[str, str | None]:
    """The tokenizer path: every tag through ``BBWriter``."""
    parts = _SPLIT.split(message)
    writer = BBWriter()
    cache = _PLAN_CACHE
    data = writer.data
    start = writer.start_plan
    end = writer.end
    tag = False
    for part in parts:
        if tag:
            plan = cache.get(part)
            if plan is None:
                plan = _token_plan(part)
                if len(cache) >= _PLAN_CACHE_MAX:
                    cache.clear()
                cache[part] = plan
            kind = plan[0]
            if kind == END:
                end(plan[1])
            elif kind != COMMENT:
                start(plan)
        elif part:
            data(_unescape(part))
        tag = not tag
    return writer.finish(keep_leading)


# --- many messages at once ------------------------------------------------------
#
# A 100,000-post dump is mostly posts of plain lines joined by <br />. Rather
# than calling ``convert`` on each, ``convert_many`` runs its first steps on
# all messages joined into one string (C-speed replaces and splits), so only
# the few messages that hold other markup, entities or odd white space cost a
# Python call. The result is the same as ``convert`` message by message:
# tests/test_forum_bulk.py checks it on generated messages.

_SEP = "\x00"  # cannot stand in a <br /> nor be stripped as white space


def convert_many(messages: list[str], keep_leading: Container[int] = ()) -> tuple[list[str], list[str | None]]:
    """``[convert(m, i in keep_leading) for i, m in enumerate(messages)]``
    as (bodies, edit markers)."""
    n = len(messages)
    joined = _SEP.join(messages)
    if joined.count(_SEP) != n - 1 or not n:  # a NUL of its own in some message
        done = [convert(m, i in keep_leading) for i, m in enumerate(messages)]
        return [b for b, _ in done], [e for _, e in done]
    hard: set[int] = set()
    if "<" in joined:
        # The first steps of ``_fast_tags``, on all messages at once.
        joined = _br_lines(joined)
        for opening, closing, code_open, code_close in _SIMPLE_TAGS:
            if opening in joined:
                # It turns a closing tag into BBCode only where the opening one is too.
                hard.update(i for i in compress(range(n), map(contains, messages, repeat(closing))) if opening not in messages[i])
                joined = joined.replace(opening, code_open).replace(closing, code_close)
    parts = joined.split(_SEP)
    del joined
    edited: list[str | None] = [None] * n
    # Messages with markup or a "\r" left: the whole conversion, from the original.
    hard.update(compress(range(n), map(contains, parts, repeat("<"))))
    hard.update(compress(range(n), map(contains, parts, repeat("\r"))))
    for i in hard:
        parts[i] = ""
    # Plain lines: what ``_plain`` would change, changed one by one.
    for i in compress(range(n), map(contains, parts, repeat("&"))):
        plain = _plain(parts[i])
        if plain is None:
            hard.add(i)
            plain = ""
        parts[i] = plain
    for i in compress(range(n), map(contains, parts, repeat("\xa0"))):
        parts[i] = parts[i].replace("\xa0", " ")
    bodies = list(map(str.strip, parts))
    for i in keep_leading:
        bodies[i] = parts[i].rstrip()
    for i in hard:
        bodies[i], edited[i] = convert(messages[i], i in keep_leading)
    return bodies, edited


_SIMPLE_TAGS = (
    ("<strong>", "</strong>", "[b]", "[/b]"),
    ("<i>", "</i>", "[i]", "[/i]"),
    ("<u>", "</u>", "[u]", "[/u]"),
    ("<strike>", "</strike>", "[s]", "[/s]"),
)
