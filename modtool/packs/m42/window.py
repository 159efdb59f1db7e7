"""When a discussion day runs, for checking an import against it: posts
imported into day N whose times fall outside day N's window are told to the
director (a likely wrong --day), never refused (M42-R15: a day runs from its
opening to its close; late posts of a day are normal and ruled late)."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

from modtool.sdk import GameDir, OutsideDay, Problem, shown_text as shown, time_stamp, UserError
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


def outside_day(gd: GameDir, day: int, events: list[dict]) -> list[OutsideDay]:
    """The posts about to be imported into ``day`` that fall outside it, when
    they start before that day opened or only after it closed: those before
    the opening, or all of them (the day has not begun; they all come after
    its close). Posts of a day running past its close are not (ruled late)."""
    posts = [ev for ev in events if ev.get("type") == "post"]
    if not posts:
        return []
    try:
        start, end = day_window(gd, day)

        st = replay(gd)
    except UserError:
        return []  # a ledger that cannot be replayed: `modtool check` reports it
    stamps = [ev["time"] for ev in posts]
    first, last = min(stamps), max(stamps)
    show = lambda t: time_stamp(t.astimezone(gd.tz))[:16]  # noqa: E731
    opens, closes = (show(start) if start is not None else None), (show(end) if end is not None else None)
    phase = None
    if day not in st.days and (start is None or first >= opens):
        outside, phase = posts, phase_label(st)
    else:
        outside = [ev for ev in posts if opens is not None and ev["time"] < opens]
        if not outside and end is not None and first > time_stamp(end.astimezone(gd.tz)):
            outside = posts
    if not outside:
        return []
    found = OutsideDay(day, tuple({"floor": ev.get("floor"), "author": shown(ev["author"]), "time": ev["time"][:16]}
                                  for ev in outside), first[:16], last[:16], opens, closes, phase)
    return [replace(found, notice=_notice(found, partial=len(outside) < len(posts)))]


def _notice(found: OutsideDay, partial: bool = False) -> Problem:
    """How ``found`` is told to the director; ``partial``: only some of the import's
    posts are outside (a mistyped time more likely than a wrong --day), named by floor."""
    if partial:
        window = f"{found.start or '（开始时间未知）'} 至 {found.end or '（关门时间未知）'}"
        named = "、".join(f"{p['floor']}楼（{p['author']}，{p['time']}）" for p in found.posts[:5])
        more = f" 等 {len(found.posts)} 帖" if len(found.posts) > 5 else ""
        return Problem("命令行 --day", "导入为第 {day} 天的帖子中，{posts}{more}的时间不在第 {day} 天（{window}）之内：多半是帖子的日期或年份写错了，请核对原帖的时间",
                       notice=True, day=found.day, posts=named, more=more, window=window)
    if found.phase is not None:
        opens = f"，它从 {found.start} 前一天关门后才开始" if found.start is not None else ""
        return Problem("命令行 --day", "导入为第 {day} 天的帖子（{first} 至 {last}），但第 {day} 天还没有开始（现在是{phase_label}{opens}）：请检查 --day 是否选错（导错了可以用 modtool undo --import 撤销）",
                       notice=True, day=found.day, first=found.first, last=found.last, phase_label=found.phase, opens=opens)
    window = f"{found.start or '（开始时间未知）'} 至 {found.end or '（关门时间未知）'}"
    return Problem("命令行 --day", "导入为第 {day} 天的帖子，但帖子时间是 {first} 至 {last}，不在第 {day} 天（{window}）之内：请检查 --day 是否选错（导错了可以用 modtool undo --import 撤销）",
                   notice=True, day=found.day, first=found.first, last=found.last, window=window)
