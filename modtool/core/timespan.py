"""The game's span: a time the director types for a fact must fall inside it.

A year typed as 0026 or 2062, a month one off, a day a digit off: such a
time is never a fact, so every time a writing command takes (``--at``,
``--told-at``; ``command_time``, the mafia ``deadline``) is
checked here before anything is written, and refused naming the option and
the value:

- not before the game's first phase began (the pack's ``game_start``: M42's
  day 1 opening; by default the earliest time the ledger records);
- not more than a margin after the latest time the game knows: the latest
  time the ledger records, or the end of the current phase's window (the
  pack's ``phase_window``: a day's close, a night's last deadline), whichever
  is later.

The margin is ``DEFAULT_MARGIN_DAYS`` below (a few days: a fact recorded
late still carries its own time, inside the game; a month or a year off is
caught), unless the game option ``time_margin_days`` sets another (null in
the shipped files: this default; a ledger's ``options`` may set it). A game whose days run for weeks sets a longer one in its file
(``games/mafia.yaml``). A ledger that records no time yet (just made)
takes any time; the four-digit year is checked for every typed time
(``modtool.core.arguments.time_arg``).
"""

from __future__ import annotations

import dataclasses

from datetime import datetime, timedelta

from modtool.core.arguments import refuse, time_arg
from modtool.base.times import now_in
from modtool.base.problems import UserError
from modtool.core.registry import get_pack
from modtool.base.times import fmt, parse_time
DEFAULT_MARGIN_DAYS = 3


def margin(gd) -> timedelta:
    """The game's margin past its latest known time (option ``time_margin_days``)."""
    value = gd.options.get("time_margin_days")
    try:
        days = DEFAULT_MARGIN_DAYS if value is None else float(value)
    except (TypeError, ValueError):
        days = DEFAULT_MARGIN_DAYS
    return timedelta(days=days)


def recorded_times(gd) -> tuple[datetime | None, datetime | None]:
    """The earliest and the latest time the ledger's events record (a post's ``time``,
    any other event's ``at``); times that do not read are left to ``check``."""
    memo = gd.memo.get("timespan_recorded")
    if memo is not None:
        return memo

    if gd.zones:  # times written in several zones (GamePack.zone_event): each read in its own
        found = []
        for ev in gd.events:
            text = ev.data.get("time") if ev.type == "post" else ev.data.get("at")
            if text is not None:
                try:
                    found.append(parse_time(text, gd.zone_at(ev)).astimezone(gd.tz))
                except ValueError:
                    continue
        memo = gd.memo["timespan_recorded"] = (min(found), max(found)) if found else (None, None)
        return memo
    texts = [ev.data.get("time") if ev.type == "post" else ev.data.get("at") for ev in gd.events]
    # What modtool writes ("2026-11-17 21:00[:00]") orders as text: only the two ends are read.
    plain = [s for s in texts if type(s) is str and len(s) in (16, 19) and s[4] == "-"]
    found: list[datetime] = []
    for text in ([min(plain), max(plain)] if plain else []) + [s for s in texts if s is not None and not (
            type(s) is str and len(s) in (16, 19) and s[4] == "-")]:
        try:
            found.append(parse_time(text, gd.tz))
        except ValueError:
            continue
    memo = gd.memo["timespan_recorded"] = (min(found), max(found)) if found else (None, None)
    return memo


def span(gd, window: bool = True) -> tuple[datetime | None, datetime | None]:
    """(the game's start, the latest time it knows), None where the ledger tells nothing:
    the pack's ``time_span`` (``recorded_times`` when it gives none), the start no later than the
    pack's ``game_start``; ``window``: the latest no earlier than the end of the current
    phase's window (the pack's ``phase_window``, which may have to read the day's posts)."""
    pack = get_pack(gd.game.id)
    try:
        found = pack.time_span(gd)
        first, last = recorded_times(gd) if found is None else found
        start = pack.game_start(gd)
        end = pack.phase_window(gd).end if window else None
    except UserError:  # a ledger replay cannot read: the command's own checks name it
        return None, None
    if start is None:
        start = first
    elif first is not None:
        start = min(start, first)
    if end is not None:
        last = end if last is None else max(last, end)
    return start, last


def check(gd, when: datetime, option: str = "--at", *, opening: bool = False, replacing=None) -> datetime:
    """``when`` if it lies in the game's span, else a refusal naming ``option`` and the value.
    ``opening``: the time moves the game's start (``modtool open``), so it may lie up to
    the margin before the start known so far. ``replacing(event)``: the facts this time
    takes the place of (recorded again: the later wins), left out of the span, so a
    mistyped year can be put right by recording it again instead of bounding its own fix."""
    if replacing is not None:
        kept = [e for e in gd.events if not replacing(e)]
        if len(kept) != len(gd.events):
            gd = dataclasses.replace(gd, events=kept, memo={})
    slack = margin(gd)
    start, last = span(gd, window=False)  # what the game knows at no cost
    if last is not None and when > last + slack:
        start, last = span(gd)  # only a time that far ahead asks for the current phase's end
    shown = fmt(when, False)
    if start is not None and when < (start - slack if opening else start):
        raise refuse(option, "{value} 早于这局游戏开始的时间 {start}：多半是日期或年份打错了", value=shown, start=fmt(start, False))
    if last is not None and when > last + slack:
        days = slack.total_seconds() / 86400
        raise refuse(option, "{value} 比这局游戏已知的最晚时间 {last} 晚了 {days} 天以上：多半是日期或年份打错了"
                               "（最晚可写 {limit}；这个天数是游戏选项 time_margin_days）", value=shown, last=fmt(last, False), days=f"{days:g}", limit=fmt(last + slack, False))
    return when


def command_time(at: str | None, gd, option: str = "--at", *, opening: bool = False, replacing=None) -> datetime:
    """The one place a command's time comes from: ``at`` as written, if it lies in the
    game's span (``check``; ``opening``: it moves the game's start), else the wall
    clock only when it falls inside the current phase's window (modtool.base.times),
    which the game's pack tells."""
    if at:
        return check(gd, time_arg(at, gd.tz, option), option, opening=opening, replacing=replacing)
    return now_in(get_pack(gd.game.id).phase_window(gd), gd.tz, option)


def clock(gd):
    """``now(when, option)`` as the packs' shared commands take it (``GamePack.act``,
    ``advance``, ``announce``): ``command_time`` for the game ``gd``."""
    return lambda when, option="--at": command_time(when, gd, option)
