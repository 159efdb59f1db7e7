"""The regex path from Discuz HTML back to BBCode.

Discuz renders BBCode in a fixed shape, so most posts are converted by a few
C-speed substitutions; whatever is left over (any "<" remaining) sends the
ORIGINAL message through the tokenizer (``html2bb.BBWriter``).
tests/test_forum_html.py and tests/test_forum_bulk.py check that both paths
agree.
"""

from __future__ import annotations

import re

from modtool.forum.entities import _discuz_entities, _unescape

_BR_LINES = re.compile(r"<br />(?:\r\n?|\n)?")


def _br_lines(text: str) -> str:
    """Each <br /> with the source newline after it ("\r\n", "\n" or "\r") as
    one newline, as ``BBWriter`` reads it."""
    if "<br />" not in text:
        return text
    if "<br /><br />" in text:  # the replaces below would join the second's newline to the first
        return _BR_LINES.sub("\n", text)
    return text.replace("<br />\r\n", "\n").replace("<br />\n", "\n").replace("<br />\r", "\n").replace("<br />", "\n")


def _plain(text: str) -> str | None:
    """``_unescape`` of a message whose tags were replaced in place, or None
    when the tokenizer could read it otherwise: a "\r" left over may pair with
    a newline that stood for a tag, and an entity other than Discuz's own may
    be a newline right after a <br /> (which the tokenizer drops)."""
    if "\r" in text:
        return None
    if "&" in text:
        text = _discuz_entities(text)  # type: ignore[assignment]
        if text is None:
            return None
    if "\xa0" in text:
        text = text.replace("\xa0", " ")
    return text


class _Unusual(Exception):
    """An attribute value the regex path would read otherwise than the tokenizer."""


def _attr(value: str) -> str:
    # The tokenizer keeps a no-break space or "\r" in an attribute; ``_unescape`` would not.
    if "&nbsp;" in value or "\xa0" in value or "\r" in value:
        raise _Unusual
    return value

_EDIT_HEAD = re.compile(r'\A\s*<i class="pstatus">([^<]*)</i>')
_SMILEY = re.compile(r'<img src="[^"<>]*" smilieid="[^"<>]*"[^<>]*>')
_FONT = re.compile(r'<font (color|size)="([^"<>]*)">([^<]*)</font>')
_FONT_FACE = re.compile(r'<font face="([^"<>]*)">([^<]*)</font>')
_LINK = re.compile(r'<a href="(?![Mm][Aa][Ii][Ll][Tt][Oo]:)([^"<>]*)" target="_blank">([^<]*)</a>')
_QUOTE_OPEN = '<div class="quote"><blockquote>'
# the header Discuz X3 writes at the top of every quote
_QUOTE_HEAD = re.compile(
    r'<div class="quote"><blockquote><font size="([^"<>]*)"><a href="([^"<>]*)" target="_blank">'
    r'<font color="([^"<>]*)">([^<]*)</font></a></font>'
)


def _font_sub(m: re.Match) -> str:
    kind = m.group(1)
    return f"[{kind}={_attr(m.group(2))}]{m.group(3)}[/{kind}]"


def _face_sub(m: re.Match) -> str:
    return f"[font={_attr(m.group(1))}]{m.group(2)}[/font]"


def _link_sub(m: re.Match) -> str:
    return f"[url={_attr(m.group(1))}]{m.group(2)}[/url]"


def _quote_head_sub(m: re.Match) -> str:
    size, href, color, text = m.groups()
    return f"{_QUOTE_OPEN}[size={_attr(size)}][url={_attr(href)}][color={_attr(color)}]{text}[/color][/url][/size]"


_QUOTE_CLOSE = "</blockquote></div>"


def _fast(message: str, strip) -> tuple[str, str | None] | None:
    """The regex path; None when the message needs the tokenizer."""
    try:
        return _fast_or_raise(message, strip)
    except _Unusual:
        return None


def _fast_or_raise(message: str, strip) -> tuple[str, str | None] | None:
    edited = None
    if '<i class="pstatus">' in message:
        m = _EDIT_HEAD.match(message)
        if not m:
            return None
        edited = " ".join(_unescape(m.group(1)).split())
        message = message[m.end() :]
    has_quote = _QUOTE_OPEN in message
    if has_quote:
        message = _QUOTE_HEAD.sub(_quote_head_sub, message, 1)
    return _fast_tags(_br_lines(message), strip, edited, has_quote)


def _fast_tags(message: str, strip, edited: str | None, has_quote: bool) -> tuple[str, str | None] | None:
    """The rest of ``_fast``, once the edit marker, the quote header and the
    line breaks are done."""
    if "<" not in message:
        plain = _plain(message)
        return None if plain is None else (strip(plain), edited)
    if "<strong>" in message:
        message = message.replace("<strong>", "[b]").replace("</strong>", "[/b]")
    if "<i>" in message:
        message = message.replace("<i>", "[i]").replace("</i>", "[/i]")
    if "<u>" in message:
        message = message.replace("<u>", "[u]").replace("</u>", "[/u]")
    if "<strike>" in message:
        message = message.replace("<strike>", "[s]").replace("</strike>", "[/s]")
    if "<img" in message:
        message = _SMILEY.sub("", message)
    if "<font" in message:
        for _ in range(8):
            n = len(message)
            message = _FONT.sub(_font_sub, message)
            if "<font face" in message:
                message = _FONT_FACE.sub(_face_sub, message)
            if len(message) == n or "<font" not in message:
                break
    if "<a " in message:
        message = _LINK.sub(_link_sub, message)
        if "<font" in message:  # fonts around a link
            message = _FONT.sub(_font_sub, message)
    if has_quote:
        if message.count(_QUOTE_OPEN) != 1 or message.count(_QUOTE_CLOSE) != 1:
            return None
        i, j = message.index(_QUOTE_OPEN), message.index(_QUOTE_CLOSE)
        if j < i:
            return None
        message = message[:i] + "[quote]" + message[i + len(_QUOTE_OPEN) : j] + "[/quote]" + message[j + len(_QUOTE_CLOSE) :]
    if "<" in message:
        return None
    plain = _plain(message)
    if plain is None:
        return None
    return strip(plain), edited


# A post that starts with a Discuz X3 quote whose quoted text is plain lines.
_X3_QUOTE = re.compile(
    r'<div class="quote"><blockquote><font size="([^"<>]*)"><a href="([^"<>]*)" target="_blank">'
    r'<font color="([^"<>]*)">([^<]*)</font></a></font>((?:[^<]++|<br />)*+)</blockquote></div>'
)


