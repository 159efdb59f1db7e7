"""HTML entities as Discuz writes them, turned back into text (one home for
both HTML-to-BBCode paths: ``html2bb`` and ``html2bb_fast``)."""

from __future__ import annotations

import re


def unescape_entities(text: str) -> str:
    """``html.unescape``, with a fast path for the entities Discuz writes."""
    if "&" not in text:
        return text
    if text.count("&") == text.count("&amp;"):  # &amp; alone, as in every link
        return text.replace("&amp;", "&")
    return _unescape_each(text)


# html.unescape's own pattern (html/__init__.py): each match is replaced on its own,
# whatever is around it, so each distinct entity is decoded once and remembered.
_CHARREF = re.compile(r"(&(?:#[0-9]+;?|#[xX][0-9a-fA-F]+;?|[^\t\n\f <&#;]{1,32};?))")
_DECODED: dict[str, str] = {}


def _unescape_each(text: str) -> str:
    """``html.unescape(text)``, a Python call for each distinct entity rather than each one."""
    import html  # rare here, and html.entities is a large module to import

    parts = _CHARREF.split(text)
    decoded = _DECODED
    if len(decoded) > 10_000:
        decoded.clear()
    for i in range(1, len(parts), 2):
        entity = parts[i]
        value = decoded.get(entity)
        if value is None:
            value = decoded[entity] = html.unescape(entity)
        parts[i] = value
    return "".join(parts)


def _discuz_entities(text: str) -> str | None:
    """``html.unescape`` of text whose only entities are those Discuz writes
    (&lt; &gt; &quot; &#39; &nbsp; &amp;); None for any other."""
    if text.count("&") == text.count("&amp;"):  # &amp; alone, as in every link
        return text.replace("&amp;", "&")
    fast = (
        text.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", '"')
        .replace("&#39;", "'")
        .replace("&nbsp;", "\xa0")
    )
    if fast.count("&") == fast.count("&amp;"):
        return fast.replace("&amp;", "&")
    return None


def _unescape(text: str) -> str:
    if "&" in text:
        text = unescape_entities(text)
    if "\xa0" in text:
        text = text.replace("\xa0", " ")
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text
