"""This game's own command, ``modtool deadline``: modtool sends it here for a
folder whose ledger says ``game: jushou`` (another game may have a
``deadline`` of its own)."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

app = typer.Typer()


@app.command("deadline")
def deadline_(
    game_dir: Path = typer.Argument(..., help="游戏文件夹"),
    day: int = typer.Option(..., "--day", min=1, help="第几天"),
    at: str = typer.Option(..., "--at", help="截止时间，例如 \"2026-11-03 21:00\"（本局的时区）"),
    note: Optional[str] = typer.Option(None, "--note", help="备注，例如「延长一小时」"),
) -> None:
    """举手：记下一天的截止时间；之后的举手不算（JS-R5）。延长时再记一次，后记的算数。

    Examples:

    \b
      modtool deadline 举手局 --day 1 --at "2026-11-03 21:00"
      modtool deadline 举手局 --day 1 --at "2026-11-03 22:00" --note 延长一小时
    """
    from modtool.cli.common import open_dir
    from modtool.core.announced import record
    from modtool.core.arguments import time_arg
    from modtool.core.soundness import require_sound
    from modtool.core.timespan import check
    from modtool.core.timeutil import fmt

    from modtool_jushou.messages import _

    gd = open_dir(game_dir)
    require_sound(gd)  # nothing is written on a damaged ledger
    when = check(gd, time_arg(at, gd.tz, "--at"), "--at")  # a typo of the year is never a deadline
    ev = {"type": "deadline", "day": day, "at": fmt(when, False)}
    if note:
        ev["note"] = note
    record(gd, [ev])
    typer.echo(_("已记下第 {day} 天的截止时间：{at}").format(day=day, at=ev["at"]))
