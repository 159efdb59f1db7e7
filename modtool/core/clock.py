"""The game's clock: the time a command records.

A time given on the command line (``--at`` and the like) is read in the
game's zone. Without one, the wall clock is used only when it falls inside
the current phase's window; otherwise the command is refused before
anything is written, naming the window, so a fact is never stamped weeks
after the phase it belongs to. Each game says what its windows are (for M42:
``modtool.packs.m42.windows``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from modtool.core.problems import Problem, UserError


@dataclass(frozen=True)
class Window:
    """The span of a phase in which "now" may stand for a command's time."""

    label: str  # 第 3 天 / 第 3 夜 / …
    start: datetime | None
    end: datetime | None
    unknown: str = ""  # why there is no window (start or end not known), for the message


def wall_clock(tz) -> datetime:
    """The wall clock in the game's zone, to the second (tests replace this)."""
    return datetime.now(tz).replace(microsecond=0)


def span(w: Window) -> str:
    """「2026-11-05 09:00 至 21:00」: the end's date only when it differs."""
    start, end = w.start, w.end
    tail = end.strftime("%H:%M") if end.date() == start.date() else end.strftime("%Y-%m-%d %H:%M")
    return f"{start.strftime('%Y-%m-%d %H:%M')} 至 {tail}"


def now_in(window: Window, tz, option: str = "--at") -> datetime:
    """The wall clock if it falls inside ``window``; else a user error naming the window."""
    now = wall_clock(tz)
    shown = now.strftime("%Y-%m-%d %H:%M")
    if window.start is None or window.end is None:
        why = window.unknown or f"不知道{window.label}的起止时间"
        raise UserError(Problem("命令行", "现在是 {shown}；{why}，无法确定现在属于哪个阶段；请用 {option} 给出时间", shown=shown, why=why, option=option))
    if not window.start <= now <= window.end:
        raise UserError(Problem("命令行", "现在是 {shown}，不在{label}（{span}）之内；请用 {option} 给出时间", shown=shown, label=window.label, span=span(window), option=option))
    return now
