"""HTML entities as Discuz writes them, turned back into text (one home for
both HTML-to-BBCode paths: ``html2bb`` and ``html2bb_fast``)."""

from __future__ import annotations


def unescape_entities(text: str) -> str:
    """``html.unescape``, with a fast path for the entities Discuz writes."""
    if "&" not in text:
        return text
    fast = _discuz_entities(text)
    if fast is not None:
        return fast
    import html  # rare here, and html.entities is a large module to import

    return html.unescape(text)


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
