"""When a discussion day runs, for checking an import against it: posts
imported into day N whose times fall outside day N's window are told to the
director (a likely wrong --day), never refused (M42-R15: a day runs from its
opening to its close; late posts of a day are normal and ruled late)."""

from __future__ import annotations

from datetime import datetime

from modtool.core.gamefile import GameDir
from modtool.core.problems import Problem, UserError
from modtool.forum import time_stamp
from modtool.packs.m42 import facts
from modtool.packs.m42.engine import Engine, phase_label
from modtool.packs.m42.replay import replay


def day_window(gd: GameDir, day: int) -> tuple[datetime | None, datetime | None]:
    """(opening, close) of ``day`` as far as the ledger tells; None where unknown."""
    st = replay(gd)
    rec = st.days.get(day)
    before = st.days.get(day - 1)
    start = rec.opened if rec is not None and rec.opened is not None else (before.closed if before else None)
    end = facts.close_of(gd, day) or (rec.closed if rec is not None else None)
    if end is None and rec is not None and rec.opened is not None:
        eng = Engine(gd)
        eng.st = st
        sch = eng.schedule(day)
        end = sch.closes if sch is not None else None
    return start, end


def outside_day(gd: GameDir, day: int, events: list[dict]) -> list[Problem]:
    """A notice when the posts about to be imported into ``day`` start before
    that day opened or only after it closed."""
    stamps = [ev["time"] for ev in events if ev.get("type") == "post"]
    if not stamps:
        return []
    try:
        start, end = day_window(gd, day)

        st = replay(gd)
    except UserError:
        return []  # a ledger that cannot be replayed: `modtool check` reports it
    first, last = min(stamps), max(stamps)
    if day not in st.days and (start is None or first >= time_stamp(start.astimezone(gd.tz))[:16]):
        opens = f"，它从 {time_stamp(start.astimezone(gd.tz))[:16]} 前一天关门后才开始" if start is not None else ""
        return [Problem("命令行 --day", "导入为第 {day} 天的帖子（{first} 至 {last}），但第 {day} 天还没有开始（现在是{phase_label}{opens}）：请检查 --day 是否选错（导错了可以用 modtool undo --import 撤销）",
                        notice=True, day=day, first=first[:16], last=last[:16], phase_label=phase_label(st), opens=opens)]
    show = lambda t: time_stamp(t.astimezone(gd.tz))[:16]  # noqa: E731
    if (start is not None and first < show(start)) or (end is not None and first > time_stamp(end.astimezone(gd.tz))):
        window = f"{show(start) if start else '（开始时间未知）'} 至 {show(end) if end else '（关门时间未知）'}"
        return [Problem("命令行 --day", "导入为第 {day} 天的帖子，但帖子时间是 {first} 至 {last}，不在第 {day} 天（{window}）之内：请检查 --day 是否选错（导错了可以用 modtool undo --import 撤销）",
                        notice=True, day=day, first=first[:16], last=last[:16], window=window)]
    return []
