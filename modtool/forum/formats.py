"""Forum dump formats: which reader a dump is for, and whether a game reads it.

A format has an id (what a pack lists in ``GamePack.forum_formats``), a label
for the director, a ``detect(text)`` and a ``read(text, source, tz)``. The
readers of ``modtool.forum`` are the core's (``CORE_FORMATS``: Discuz JSON, a
saved Discuz page, plain text; read by ``modtool.forum`` itself); a pack may
bring its own (``GamePack.dump_formats``, e.g. phpBB topics), detected before
the core's, whose detection is a fallback (anything else is plain text).

``modtool import`` reads a dump only in a format its game lists: a dump of
another format (a phpBB topic imported into a Discuz game) is refused, naming
what the game reads, and nothing is written.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import tzinfo
from typing import Callable, Collection

from modtool.base.i18n import Listing, t
from modtool.base.problems import Problem

# The core's readers: the id of each kind ``modtool.forum.detect_format`` tells.
DISCUZ_JSON, DISCUZ_HTML, TEXT = "discuz-json", "discuz-html", "text"
CORE_FORMATS = (DISCUZ_JSON, DISCUZ_HTML, TEXT)
CORE_KIND = {"json": DISCUZ_JSON, "html": DISCUZ_HTML, "text": TEXT}
# Message ids of the core's catalogue (modtool.base.i18n).
_CORE_LABELS = {
    DISCUZ_JSON: "Discuz 手机版 JSON",
    DISCUZ_HTML: "保存的 Discuz 帖子网页（HTML）",
    TEXT: "纯文本（手工复制的帖子）",
}


@dataclass(frozen=True)
class DumpFormat:
    """A forum format a pack brings: ``label`` in the pack's language,
    ``detect(text)`` True for a dump of this format, ``read(text, source, tz)``
    → (posts, problems)."""

    id: str
    label: str
    detect: Callable[[str], bool]
    read: Callable[[str, str, tzinfo], tuple[list, list[Problem]]]


def label(format_id: str, brought: Collection[DumpFormat] = ()) -> str:
    """A format as the director reads it (the id itself for one nothing knows);
    ``brought``: the formats the games bring, with their labels."""
    if format_id in _CORE_LABELS:
        return t(_CORE_LABELS[format_id])
    return next((f.label for f in brought if f.id == format_id), format_id)


def not_read(source: str, found: str, formats: Collection[str], brought: Collection[DumpFormat] = ()) -> Problem:
    """The refusal of a dump in format ``found`` by a game that reads ``formats``."""
    return Problem(source, "这份存档的格式是「{found}」，这局游戏不读这种格式；它读取的格式：{formats}（什么也没有导入）",
                   found=label(found, brought), formats=Listing(label(f, brought) for f in formats))
