"""``modtool deadline``: a day's deadline, checked and recorded; it returns what
to tell (``Said``) and prints nothing."""

from __future__ import annotations

from pathlib import Path

from modtool.sdk import check_time as check, fmt, open_game, record, require_sound, Said, time_arg

from modtool_jushou.messages import _


def deadline(game_dir: Path, day: int, at: str, note: str | None = None) -> Said:
    gd = open_game(game_dir)
    require_sound(gd)  # nothing is written on a damaged ledger
    when = check(gd, time_arg(at, gd.tz, "--at"), "--at")  # a typo of the year is never a deadline
    ev = {"type": "deadline", "day": day, "at": fmt(when, False)}
    if note:
        ev["note"] = note
    record(gd, [ev])
    return Said.lines(_("已记下第 {day} 天的截止时间：{at}").format(day=day, at=ev["at"]))
