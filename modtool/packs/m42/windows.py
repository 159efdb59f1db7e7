"""The window of the current M42 phase: when "now" may stand for a command's time
(``modtool.base.times``).

- Day N: from its opening (M42-R15: the day-start post; day 1: ``modtool open``,
  the header's ``opens`` or its first saved post) to its close (the last close
  event, else the schedule).
- Night N: from the day's close to the last night deadline: the wolves' and the
  seer's (close + 1 h), and the witch's half-hour after she was told (at the
  latest that deadline + 30 min, or later when a notice went out later).
- Dawn N (the night resolved, the next day not yet open): the rules set no
  length, so the option ``dawn_window_hours`` does (default 24, a careful
  director's reading: the day-start post goes out within a day).
- Game over: no window; a time must be given.
"""

from __future__ import annotations

from datetime import timedelta

from modtool.sdk import GameDir, Window
from modtool.packs.m42.engine import Engine, State

DEFAULT_DAWN_HOURS = 24


def phase_window(gd: GameDir, st: State) -> Window:
    n = st.number
    eng = Engine(gd, st)
    if st.phase == "day":
        rec = st.days[n]
        label = f"第 {n} 天"
        if rec.opened is None:
            return Window(label, None, None, f"不知道第 {n} 天何时开始（用 modtool open {gd.folder_arg} --day 1 --at … 记录）")
        return Window(label, rec.opened, eng.day_close(n))
    if st.phase == "night":
        start = st.nights[n].start
        return Window(f"第 {n} 夜", start, max(eng.night_deadline(n), eng.witch_due(n), start + timedelta(hours=1, minutes=30)))
    if st.phase == "dawn":
        start = st.nights[n].resolved_at
        hours = float(gd.options.get("dawn_window_hours", DEFAULT_DAWN_HOURS))
        return Window(f"第 {n} 夜结算后、第 {n + 1} 天开始前", start, start + timedelta(hours=hours) if start else None)
    return Window("游戏结束后", None, None, "游戏已经结束")
