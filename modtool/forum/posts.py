"""The forum post as a fact, whatever the forum dump it came from.

Importers (``modtool.forum``) produce ``Post`` values; the ledger stores them
as ``post`` events; the rules read them back. ``body`` is the post's own
markup as Discuz BBCode (HTML from the forum is turned back into the BBCode
the poster typed), quotes included as ``[quote]…[/quote]``, so that every
derived view (plain text, quoted parts, fonts) is computed, not stored.

``Post.split()`` is the body split into own text / quotes / hidden parts /
reply references (``modtool.forum.markup.split_body``), computed on first use and
kept on the post: every step that reads a post's own text uses it, so a body
is split once however many steps read it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING

from modtool.forum.replyref import ReplyRef  # noqa: F401 - a post's reply reference, also read from here

if TYPE_CHECKING:
    from modtool.forum.markup import Body, MarkupError


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
    # (keep_hidden, keep_tags) -> split body; set once with object.__setattr__
    # (``extra`` is shared between posts, so the memo cannot live there).
    _splits: dict | None = field(default=None, init=False, repr=False, compare=False)

    def split(self, *, keep_hidden: bool = False, keep_tags: bool = False) -> Body | MarkupError:
        """``markup.split_body(self.body, keep_hidden=…, keep_tags=…)``, computed once per post."""
        memo = self._splits
        if memo is None:
            memo = {}
            object.__setattr__(self, "_splits", memo)
        key = (keep_hidden, keep_tags)
        r = memo.get(key)
        if r is None:
            from modtool.forum.markup import split_body  # lazy: regex and the tag tables, on first use

            r = memo[key] = split_body(self.body or "", keep_hidden=keep_hidden, keep_tags=keep_tags)
        return r

    def __getstate__(self) -> dict:
        """Pickled without the memo (a derived view, recomputed on demand)."""
        state = dict(self.__dict__)
        state.pop("_splits", None)
        return state
