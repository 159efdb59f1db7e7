"""The forum post as a fact, whatever the forum dump it came from.

Importers (``modtool.forum``) produce ``Post`` values; the ledger stores them
as ``post`` events; the rules read them back. ``body`` is the post's own
markup as Discuz BBCode (HTML from the forum is turned back into the BBCode
the poster typed), quotes included as ``[quote]…[/quote]``, so that every
derived view (plain text, quoted parts, fonts) is computed, not stored.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime


@dataclass(frozen=True)
class ReplyRef:
    """What a post says it replies to: any of pid, floor, author+time."""

    pid: str | None = None
    floor: int | None = None
    author: str | None = None
    time: str | None = None  # "YYYY-MM-DD HH:MM[:SS]" as the forum showed it, game zone


@dataclass(frozen=True)
class Post:
    pid: str  # forum post id; "" when the dump has none (plain text)
    floor: int
    author: str  # forum account name, as shown
    time: datetime  # timezone-aware
    body: str  # Discuz BBCode, quotes included
    edited: str | None = None  # the edit marker text, e.g. "本帖最后由 张三 于 2026-11-03 20:40 编辑"
    reply_to: ReplyRef | None = None
    source: str = ""  # file the post was read from, for messages
    extra: dict = field(default_factory=dict, compare=False)
