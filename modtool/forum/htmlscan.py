"""A linear-time HTML tokenizer with the part of ``html.parser.HTMLParser``'s
interface that the forum readers use (``feed``, ``close``, the ``handle_*``
callbacks, ``getpos``, ``get_starttag_text``).

Why not ``html.parser`` itself: the CPython releases modtool supports take
quadratic time on some inputs (runs of ``</``, of ``<!--`` or ``<?`` never
closed, of ``<a `` tags never ended, of unclosed attribute values): one 420 KB
post kept an import busy for minutes (tests/bench/bench_hostile_posts.py).
Here each token is one match of ``_TOKEN``, whose every repetition stops at
the next ``<`` and never backtracks, so each character is looked at a
bounded number of times.

What it reads, as ``html.parser`` does on what forums write:

* start tags (``<b>``, ``<a href="x">``, ``<br/>`` as a start-end tag): name
  and attribute names in lower case, values unquoted and unescaped, None for
  an attribute without a value;
* end tags (``</b>``), comments, ``<!DOCTYPE …>``, ``<?…>`` (ignored);
* the contents of ``<script>`` and ``<style>`` as raw text up to their end tag;
* text: with ``convert_charrefs`` its entities are decoded (``html.unescape``),
  without it ``handle_entityref`` / ``handle_charref`` get them one by one.

Where it differs, only on markup no forum writes: a tag with a ``<`` inside
an attribute value (forums escape it as ``&lt;``) is read as text; a comment
never closed runs to the end of the text (as HTML5 says); ``</ x>`` is a bogus
comment; the whole text is read at ``close()``.

Why not an HTML tree library (selectolax, lxml) in place of this scanner and
``html2bb``'s regex split: measured by tests/bench/bench_html_libs.py (each
library's tree walked into the events today's two writers consume; 2026-12,
selectolax 1.0.2 with lexbor, lxml 6.1.3 with libxml2 2.14.6):

* selectolax (8 MB installed) builds trees in quadratic time on hostile
  posts: 420 KB of ``<span>`` then ``</b>`` takes 0.7 / 2.2 / 7.3 s at 105 /
  210 / 420 KB, 500 to 2,300 times a plain post of the same size (nested
  quotes 1-2 s, 100 to 360 times). Its Modest backend (selectolax 0.4) is as
  bad (16 s for 420 KB of ``<b>``) and was dropped in 1.0. It also ignores a
  ``<td>`` outside a table (HTML5), so 12 of the 554 real MafiaScum posts
  (the host's vote counts) come out otherwise.
* lxml (12 MB installed; size decides nothing, both fit the 50 MB budget of
  a plain install) is linear and gives the same BBCode on all 570 real
  posts, but libxml2 stops at a nesting depth of 2048 even with
  ``huge_tree``: the rest of the post, and on a saved page every later post,
  is silently dropped (a post of 2,100 ``<b>`` loses the page after it).
* Both follow HTML5 where these readers follow the forums: ``</``, ``<!``,
  ``<?``, ``<a `` and an unclosed attribute value swallow the text after
  them (here it stays text); a link inside a link is split in two; a tree
  cannot tell an element closed from one left open (Discuz renders a typed
  ``[b]x`` as ``<strong>x``, read back as ``[b]x``; a tree gives
  ``[b]x[/b]``, so a re-import would change stored posts). A lone surrogate
  (an emoji the forum cut) makes lxml drop the rest of the post and
  selectolax drop the character. With either library's tree in place of
  ``html2bb.convert`` and ``phpbb.html_to_bbcode``, 7 of the forum and
  import tests fail.
* Neither is a clear speed win, as the Python walk costs more than the
  tokenizing (three runs on 2 shared cores, so ranges): 554 real phpBB
  posts take 25-54 ms today, 42-51 ms with lxml, 35-41 ms with selectolax;
  the 100,000 messages of tests/bench/bench_import.py 0.2-0.5 s today (its
  regex path first), 1.8-3.6 s with lxml, 4.4-8.0 s with selectolax; a whole
  import's reading of that dump (bench_import (c), CPU) 1.4 s today, 2.4 s
  with ``html2bb.convert`` and ``convert_many`` replaced by the lxml walk.

html5-parser (gumbo into lxml trees) installs only with an lxml built from
source against the same libxml2, so not from wheels.
"""

from __future__ import annotations

import re
from modtool.forum.entities import unescape_entities as unescape

_TOKEN = re.compile(
    r"<!--.*?(?:--!?>|\Z)"  # a comment (an unclosed one runs to the end)
    r"|<[A-Za-z][^\t\n\r\f />\x00<\"']*+(?:[^>\"'<]|\"[^\"<]*+\"|'[^'<]*+')*+>"  # a start tag
    r"|</[A-Za-z][^<>]*+>"  # an end tag
    r"|<[!?/][^<>]*+>",  # a declaration, a processing instruction, a bogus comment, </>
    re.S,
)
_NAME = re.compile(r"</?([A-Za-z][^\t\n\r\f />\x00<\"']*)")
_ATTR = re.compile(r"([^\s/>=][^\s/=>]*)(?:\s*=+\s*('[^']*'|\"[^\"]*\"|(?!['\"])[^>\s]*))?")
_REF = re.compile(r"&(?:#([0-9]+|[xX][0-9a-fA-F]+)|([a-zA-Z][-.a-zA-Z0-9]*));?")
_CDATA_END = {name: re.compile(rf"</\s*{name}\s*>", re.I) for name in ("script", "style")}


class HTMLScanner:
    """Subclass and override the ``handle_*`` methods, as with ``HTMLParser``."""

    def __init__(self, *, convert_charrefs: bool = True) -> None:
        self.convert_charrefs = convert_charrefs
        self._parts: list[str] = []
        self._text = ""
        self._at = 0  # where the current token starts
        self._line_at = 0  # a place whose line number is known
        self._line = 1
        self._starttag = ""

    # -- the interface the readers use --------------------------------------

    def feed(self, data: str) -> None:
        self._parts.append(data)

    def close(self) -> None:
        text = "".join(self._parts)
        self._parts.clear()
        if text:
            self._scan(text)

    def getpos(self) -> tuple[int, int]:
        """(line, column) where the current token starts; lines count from 1."""
        at = self._at
        if at < self._line_at:  # never asked backwards by the readers; correct anyway
            self._line_at, self._line = 0, 1
        self._line += self._text.count("\n", self._line_at, at)
        self._line_at = at
        return self._line, at - (self._text.rfind("\n", 0, at) + 1)

    def get_starttag_text(self) -> str:
        return self._starttag

    def handle_starttag(self, tag: str, attrs: list) -> None:
        pass

    def handle_endtag(self, tag: str) -> None:
        pass

    def handle_startendtag(self, tag: str, attrs: list) -> None:
        self.handle_starttag(tag, attrs)
        self.handle_endtag(tag)

    def handle_data(self, data: str) -> None:
        pass

    def handle_entityref(self, name: str) -> None:
        pass

    def handle_charref(self, name: str) -> None:
        pass

    def handle_comment(self, data: str) -> None:
        pass

    # -- the scan -------------------------------------------------------------

    def _scan(self, text: str) -> None:
        self._text = text
        self._line_at, self._line = 0, 1
        search = _TOKEN.search
        text_out = self._text_out
        pos = 0
        while True:
            m = search(text, pos)
            if m is None:
                if pos < len(text):
                    self._at = pos
                    text_out(text[pos:])
                return
            start, pos = m.span()
            if start > m.pos:
                self._at = m.pos
                text_out(text[m.pos:start])
            self._at = start
            token = m.group()
            second = token[1]
            if second == "/":
                if len(token) > 2 and token[2].isalpha():
                    self.handle_endtag(_NAME.match(token).group(1).lower())
            elif second == "!":
                if token.startswith("<!--"):
                    self.handle_comment(token[4:].removesuffix(">").removesuffix("!").removesuffix("--"))
            elif second != "?":
                name_m = _NAME.match(token)
                tag = name_m.group(1).lower()
                inner = token[name_m.end():-1]
                attrs = _attrs(inner) if inner and not inner.isspace() else []
                self._starttag = token
                if inner.endswith("/"):
                    self.handle_startendtag(tag, attrs)
                else:
                    self.handle_starttag(tag, attrs)
                    end = _CDATA_END.get(tag)
                    if end is not None:  # raw text up to its end tag
                        e = end.search(text, pos)
                        stop = e.start() if e else len(text)
                        if stop > pos:
                            self._at = pos
                            self.handle_data(text[pos:stop])
                        if e is None:
                            return
                        self._at = stop
                        self.handle_endtag(tag)
                        pos = e.end()

    def _text_out(self, data: str) -> None:
        if "&" not in data:
            self.handle_data(data)
        elif self.convert_charrefs:
            self.handle_data(unescape(data))
        else:
            at = 0
            for m in _REF.finditer(data):
                if m.start() > at:
                    self.handle_data(data[at:m.start()])
                if m.group(1) is not None:
                    self.handle_charref(m.group(1))
                else:
                    self.handle_entityref(m.group(2))
                at = m.end()
            if at < len(data):
                self.handle_data(data[at:])


def _attrs(inner: str) -> list[tuple[str, str | None]]:
    out = []
    for m in _ATTR.finditer(inner):
        value = m.group(2)
        if value is not None:
            if value[:1] in ("'", '"') and value[-1:] == value[:1] and len(value) > 1:
                value = value[1:-1]
            if "&" in value:
                value = unescape(value)
        out.append((m.group(1).lower(), value))
    return out
