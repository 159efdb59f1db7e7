"""phpBB 3 post HTML back to the BBCode the poster typed (MafiaScum markup).

What phpBB renders, and what comes back:

* ``<span class="noboldsig">x</span>`` and ``<b>x</b>`` → ``[b]x[/b]``;
* ``<span class="bbvote" title="This is an official vote.">VOTE: X</span>``
  → ``[vote]X[/vote]``, the unvote likewise → ``[unvote]X[/unvote]``;
* ``<blockquote><div><cite>NAME wrote:</cite>…</div></blockquote>`` →
  ``[quote="NAME"]…[/quote]``, ``<blockquote class="uncited">`` → ``[quote]…[/quote]``,
  nested as they were;
* colour, size, underline, italic, strike, links, images, lists;
  ``<br>`` → a new line; any other tag leaves its text.

Only markup becomes BBCode. Brackets in the post's text (``[quote]`` typed
where phpBB did not parse it, ``&#91;vote&#93;``, a ``<code>`` block) become
``［`` ``］``, and brackets and quotes in attribute values and quote names are
removed or %-encoded: text can never turn into a quote or a vote (MS-R1).

``modtool.forum.htmlscan`` reads the HTML (entities decoded, broken markup
tolerated) in time linear in its length, and a stray end tag costs one look-up
(``open``: how many of each tag are open), however deep the open tags: a post
of thousands of them never stalls an import (tests/bench/bench_hostile_posts.py).
"""

from __future__ import annotations

import re

from modtool.sdk import HTMLScanner

_VOID = {"br", "img", "input", "hr", "meta", "link", "wbr"}
_VOTE_TITLES = {"this is an official vote.": "vote", "this is an official unvote.": "unvote"}
_VOTE_WORD = re.compile(r"^\s*(?:un)?vote\s*:?\s*", re.I)
_SIZE = re.compile(r"font-size:\s*(\d+)%")
_COLOUR = re.compile(r"color:\s*([^;]+)")
_TEXT_BRACKETS = str.maketrans({"[": "［", "]": "］"})
_URL_BRACKETS = str.maketrans({"[": "%5B", "]": "%5D"})


def _value(v: str) -> str:
    """An attribute value inside a tag's ``=…``: no bracket or quote can end or open a tag."""
    return re.sub(r'[\[\]"\n]', "", v).strip()


class _ToBBCode(HTMLScanner):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.out: list[str] = []
        self.stack: list[tuple[str, str]] = []  # (tag, what closes it)
        self.open: dict[str, int] = {}  # how many of each tag the stack holds
        self.quotes: list[int] = []  # index in out of each open quote's opening tag
        self.cite: list[str] | None = None  # text of the <cite> being read
        self.vote: tuple[str, int] | None = None  # (kind, start in out) of an open bbvote span

    def handle_starttag(self, tag: str, attrs: list) -> None:
        a = {k: (v or "") for k, v in attrs}
        cls = a.get("class", "").split()
        opening, closing = "", ""
        if tag == "br":
            self.out.append("\n")
            return
        if tag == "img":
            self.out.append(f"[img]{a.get('src', '').translate(_URL_BRACKETS)}[/img]")
            return
        if tag in _VOID:
            return
        if tag == "span" and "bbvote" in cls:
            kind = _VOTE_TITLES.get(a.get("title", "").strip().lower(), "vote")
            self.vote = (kind, len(self.out))
            closing = "\0vote"
        elif tag == "b" or (tag == "span" and "noboldsig" in cls) or tag == "strong":
            opening, closing = "[b]", "[/b]"
        elif tag in ("i", "em"):
            opening, closing = "[i]", "[/i]"
        elif tag == "u" or (tag == "span" and "underline" in a.get("style", "")):
            opening, closing = "[u]", "[/u]"
        elif tag in ("strike", "s", "del"):
            opening, closing = "[s]", "[/s]"
        elif tag == "span" and _COLOUR.search(a.get("style", "")):
            opening, closing = f"[color={_value(_COLOUR.search(a['style']).group(1))}]", "[/color]"
        elif tag == "span" and _SIZE.search(a.get("style", "")):
            opening, closing = f"[size={_SIZE.search(a['style']).group(1)}]", "[/size]"
        elif tag == "a" and a.get("href"):
            opening, closing = f"[url={a['href'].translate(_URL_BRACKETS)}]", "[/url]"
        elif tag == "blockquote":
            self.quotes.append(len(self.out))
            opening, closing = "[quote]", "[/quote]"
        elif tag == "cite":
            self.cite = []
            closing = "\0cite"
        elif tag in ("ol", "ul"):
            opening, closing = ("[list=1]" if tag == "ol" else "[list]"), "[/list]"
        elif tag == "li":
            opening = "[*]"
        elif tag in ("tr", "div", "p") and self.out and not self.out[-1].endswith("\n"):
            opening = "\n" if tag == "tr" else ""
        elif tag in ("td", "th"):
            opening = " "
        if opening:
            self.out.append(opening)
        self.stack.append((tag, closing))
        self.open[tag] = self.open.get(tag, 0) + 1

    def handle_startendtag(self, tag: str, attrs: list) -> None:
        self.handle_starttag(tag, attrs)
        if tag not in _VOID:
            self.handle_endtag(tag)

    def handle_endtag(self, tag: str) -> None:
        if tag in _VOID or not self.open.get(tag):  # a stray end tag
            return
        stack, open_ = self.stack, self.open
        while True:  # close what was left open inside it
            name, closing = stack.pop()
            open_[name] -= 1
            self._close(closing)
            if name == tag:
                return

    def _close(self, closing: str) -> None:
        if closing == "\0cite":
            name = "".join(self.cite or []).strip()
            name = _value(re.sub(r"\s+wrote:?$", "", name))
            self.cite = None
            if self.quotes and name:
                self.out[self.quotes[-1]] = f'[quote="{name}"]'
        elif closing == "\0vote" and self.vote:
            kind, start = self.vote
            inner = _VOTE_WORD.sub("", "".join(self.out[start:]), count=1).strip()
            del self.out[start:]
            self.out.append(f"[{kind}]{inner}[/{kind}]")
            self.vote = None
        elif closing == "[/quote]":
            if self.quotes:
                self.quotes.pop()
            self.out.append(closing)
        else:
            self.out.append(closing)

    def handle_data(self, data: str) -> None:
        if self.cite is not None:
            self.cite.append(data)
        else:
            self.out.append(data.translate(_TEXT_BRACKETS))

    def result(self) -> str:
        self.close()
        for _, closing in reversed(self.stack):
            self._close(closing)
        self.stack.clear()
        return "".join(self.out).strip()


def html_to_bbcode(html: str) -> str:
    """The BBCode of one post body rendered by phpBB."""
    parser = _ToBBCode()
    parser.feed(html)
    return parser.result()
