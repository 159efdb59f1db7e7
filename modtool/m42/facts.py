"""The M42 facts of a game folder, read as the rules need them.

Posts, delegated votes, close times, vote labels and options: each read from
the ledger events, nothing computed. The engine (``engine.py``) decides.
"""

from __future__ import annotations

from datetime import datetime

from modtool.gamefile import GameDir
from modtool.m42.tally import ProxyVote, VoteOptions
from modtool.m42.voteparse import VoteLabels
from modtool.posts import Post, ReplyRef
from modtool.problems import Problem, UserError
from modtool.timeutil import parse_time


def vote_labels(gd: GameDir) -> VoteLabels:
    raw = gd.game.data.get("vote_labels", {})
    return VoteLabels(**{k: list(v) for k, v in raw.items()})


def vote_options(gd: GameDir) -> VoteOptions:
    o = gd.options
    return VoteOptions(
        change_limit=int(o["change_limit"]),
        change_freeze_minutes=int(o["change_freeze_minutes"]),
        sheriff_weight=int(o["sheriff_weight"]),
        proxy_freeze_minutes=int(o["proxy_freeze_minutes"]),
    )


def event_time(gd: GameDir, ev, key: str = "at") -> datetime:
    try:
        return parse_time(ev.data[key], gd.tz)
    except ValueError as exc:
        raise UserError(Problem(gd.source, str(exc), ev.line)) from None


def post_of(ev, gd: GameDir) -> Post:
    d = ev.data
    ref = d.get("reply_to")
    reply = None
    if isinstance(ref, dict):
        floor = ref.get("floor")
        reply = ReplyRef(
            pid=str(ref["pid"]) if ref.get("pid") is not None else None,
            floor=floor if isinstance(floor, int) else None,
            author=str(ref["author"]) if ref.get("author") is not None else None,
            time=str(ref["time"]) if ref.get("time") is not None else None,
        )
    return Post(
        pid=str(d.get("pid", "")),
        floor=d["floor"],
        author=str(d["author"]),
        time=event_time(gd, ev, "time"),
        body=d["body"],
        edited=d.get("edited"),
        reply_to=reply,
        source=f"{gd.source}:{ev.line}" if ev.line else gd.source,
    )


def close_of(gd: GameDir, day: int) -> datetime | None:
    """The last close event recorded for ``day`` (a later one corrects an earlier one)."""
    found = None
    for ev in gd.of_type("close"):
        if ev.data.get("day") == day:
            found = event_time(gd, ev)
    return found


def _posts_by_day(gd: GameDir, thread: str) -> dict[int, list]:
    """Post events of one thread grouped by day, computed once per loaded ledger."""
    cache = gd.__dict__.setdefault("_posts_by_day", {})
    if thread not in cache:
        grouped: dict[int, list] = {}
        for ev in gd.of_type("post"):
            if ev.data.get("thread") == thread:
                grouped.setdefault(ev.data.get("day"), []).append(ev)
        cache[thread] = grouped
    return cache[thread]


def vote_posts(gd: GameDir, day: int) -> list[Post]:
    return [post_of(ev, gd) for ev in _posts_by_day(gd, "vote").get(day, ())]


def proxies_of(gd: GameDir, day: int) -> list[ProxyVote]:
    return [
        ProxyVote(
            voter=ev.data["voter"],
            target=ev.data["target"],
            at=event_time(gd, ev),
            kind=ev.data.get("kind", "vote"),
            line=ev.line,
            note=ev.data.get("note", ""),
        )
        for ev in gd.of_type("proxy")
        if ev.data.get("day") == day
    ]


def sped_up(gd: GameDir, day: int) -> bool:
    """The director declared a speed-up for ``day`` (M42-R15, when few remain)."""
    return any(ev.data.get("day") == day for ev in gd.of_type("speedup"))


def thread_posts(gd: GameDir, thread: str, day: int) -> list[Post]:
    return [post_of(ev, gd) for ev in _posts_by_day(gd, thread).get(day, ())]


def day1_opens(gd: GameDir) -> datetime | None:
    """Day 1 opens at the header's ``opens``, else at the first post saved for day 1."""
    if gd.header.get("opens"):
        try:
            return parse_time(gd.header["opens"], gd.tz)
        except ValueError as exc:
            raise UserError(Problem(gd.source, f"opens：{exc}")) from None
    times = [post_of(ev, gd).time for t in ("discussion", "vote", "process") for ev in _posts_by_day(gd, t).get(1, ())]
    return min(times) if times else None
