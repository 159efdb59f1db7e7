"""What a post says it replies to (a value of ``modtool.forum.posts.Post``, read
out of a quote by ``modtool.forum.markup``): in its own module, so that markup
and posts need not import each other."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ReplyRef:
    """What a post says it replies to: any of pid, floor, author+time."""

    pid: str | None = None
    floor: int | None = None
    author: str | None = None
    time: str | None = None  # "YYYY-MM-DD HH:MM[:SS]" as the forum showed it, game zone
