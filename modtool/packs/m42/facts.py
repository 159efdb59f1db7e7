"""The M42 facts of a game folder, read as the rules need them.

Posts, delegated votes, close times, vote labels and options: each read from
the ledger events, nothing computed. The engine (``engine.py``) decides.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from operator import attrgetter, itemgetter

from modtool.sdk import GameDir, parse_time, parse_times, Post, Problem, ref_of, ReplyRef, UserError
from modtool.sdk import event_time, post_of  # noqa: F401 (M42's facts read them too)
from modtool.packs.m42.tally import ProxyVote, VoteOptions
from modtool.packs.m42.voteparse import VoteLabels


_DATA = attrgetter("data")
_TIME = itemgetter("time")


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


def vote_post_title(gd: GameDir, title: str | None) -> str:
    """The vote post's title as the director set it: ``--title``, else the option ``vote_post_title`` ("" = default)."""
    if title is not None:
        return title
    value = gd.options.get("vote_post_title") or ""
    if not isinstance(value, str):
        raise UserError(Problem(gd.source, "options → vote_post_title 应是文字（现在是「{value}」）", value=value))
    return value


def post_times(gd: GameDir, events: list) -> list[datetime]:
    """``event_time(gd, ev, "time")`` of each post event, read in bulk (``parse_times``)."""
    try:
        return parse_times(map(_TIME, map(_DATA, events)), gd.tz)
    except (KeyError, ValueError):  # a time missing or unreadable: the first one says which, with its line
        return [event_time(gd, ev, "time") for ev in events]


def post_stamps(gd: GameDir, thread: str, day: int) -> Iterator[tuple[str, int, str, datetime]]:
    """``(pid, floor, author, time)`` of the day's posts in ``thread``, as their Posts have them,
    without building the Posts (a discussion thread has thousands)."""
    events = _posts_by_day(gd, thread).get(day, [])
    for ev, time in zip(events, post_times(gd, events)):
        d = ev.data
        yield str(d.get("pid", "")), d["floor"], str(d["author"]), time


def close_of(gd: GameDir, day: int) -> datetime | None:
    """The last close event recorded for ``day`` (a later one corrects an earlier one)."""
    found = None
    for ev in gd.of_type("close"):
        if ev.data.get("day") == day:
            found = event_time(gd, ev)
    return found


def _posts_by_day(gd: GameDir, thread: str) -> dict[int, list]:
    """Post events of one thread grouped by day (every thread indexed in one pass, once per load)."""
    index = gd.memo.get("posts_by_thread_day")
    if index is None:
        index = gd.memo["posts_by_thread_day"] = {}
        for ev in gd.of_type("post"):
            d = ev.data
            by_day = index.get(d.get("thread"))
            if by_day is None:
                by_day = index[d.get("thread")] = {}
            group = by_day.get(d.get("day"))
            if group is None:
                by_day[d.get("day")] = [ev]
            else:
                group.append(ev)
    return index.get(thread, {})


def has_posts(gd: GameDir, thread: str, day: int) -> bool:
    """Posts of ``thread`` are saved for ``day``."""
    return bool(_posts_by_day(gd, thread).get(day))


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
            event=ref_of(ev),
        )
        for ev in gd.of_type("proxy")
        if ev.data.get("day") == day
    ]


def sped_up(gd: GameDir, day: int) -> bool:
    """The director declared a speed-up for ``day`` (M42-R15, when few remain)."""
    return any(ev.data.get("day") == day for ev in gd.of_type("speedup"))


def thread_posts(gd: GameDir, thread: str, day: int) -> list[Post]:
    return [post_of(ev, gd) for ev in _posts_by_day(gd, thread).get(day, ())]


def first_notice(gd: GameDir, to: str, since: datetime, night: int | None = None,
                 character: str | None = None) -> datetime | None:
    """M42-R15: when the director first told ``to`` (witch / hunter) at or after ``since``:
    the earliest ``notice`` event for that night or character, or None."""
    found = None
    for ev in gd.of_type("notice"):
        d = ev.data
        if d.get("to") != to or (night is not None and d.get("night") != night):
            continue
        if character is not None and not _names(gd, d.get("character"), character):
            continue
        at = event_time(gd, ev)
        if at >= since and (found is None or at < found):
            found = at
    return found


def _names(gd: GameDir, label, name: str) -> bool:
    return isinstance(label, str) and any(c.name == name for c in gd.roster.lookup(label))


def day1_opens(gd: GameDir) -> datetime | None:
    """Day 1 opens at its last ``open`` event (``modtool open``), else at the header's
    ``opens``, else at the first post saved for day 1 (M42-R15)."""
    opened = [ev for ev in gd.of_type("open") if ev.data.get("day") == 1]
    if opened:
        return event_time(gd, opened[-1])
    if gd.header.get("opens"):
        try:
            return parse_time(gd.header["opens"], gd.tz)
        except ValueError as exc:
            raise UserError(Problem(gd.source, "opens：{exc}", exc=exc)) from None
    times = [t for th in ("discussion", "vote", "process") for t in post_times(gd, _posts_by_day(gd, th).get(1, []))]
    return min(times) if times else None
