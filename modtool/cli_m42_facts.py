"""M42 commands that record a discussion day's facts (open, close, 代投): registered on modtool.cli.app.

Each refuses a bad argument before writing (an unknown name, an unreadable time, a
day not started), so README never needs to ask a director to edit the ledger.
"""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from modtool.cli import _now, _open, _require_m42, app
from modtool.problems import Problem, UserError


@app.command()
def close(
    game_dir: Path = typer.Argument(..., help="游戏文件夹"),
    day: int = typer.Option(..., "--day", min=1, help="第几天"),
    at: str = typer.Option(..., "--at", help="关门时间，例如 \"2026-11-05 21:00\""),
    note: Optional[str] = typer.Option(None, "--note", help="说明"),
    force: bool = typer.Option(False, "--force", help="这一天已经结算时仍然改（会重新计票，之后的结果都可能改变）"),
) -> None:
    """记下一个讨论日的关门时间（不记时按 M42-R15 计算）；改关门时间就再记一次，后记的取代先记的。

    已经结算的一天要加 --force 才改：重放会按新的关门时间重新计票，之后的夜晚和出局都可能改变。

    Examples:

    \b
      modtool close examples/m42 --day 2 --at "2026-11-05 21:00"
      modtool close examples/m42 --day 2 --at "2026-11-05 22:00" --note "论坛维护，延后一小时"
    """
    from modtool.m42.commands import record_close

    gd = _open(game_dir)
    _require_m42(gd)
    for line in record_close(game_dir, day, _now(at, gd), note, force):
        typer.echo(line)


@app.command("open")
def open_(
    game_dir: Path = typer.Argument(..., help="游戏文件夹"),
    day: int = typer.Option(1, "--day", min=1, help="第几天（只有第 1 天；之后的讨论日由黎明时的 advance 开始）"),
    at: str = typer.Option(..., "--at", help="开始帖发出的时间，例如 \"2026-11-02 10:00\""),
    force: bool = typer.Option(False, "--force", help="第 1 天已结算、或已导入更早的帖子时仍然改"),
) -> None:
    """记下第 1 天讨论日开始（发开始帖）的时间：关门时间、加速/延时和各项时限都从它算起（M42-R15）。

    不记时，第 1 天从账本开头的 opens 或第 1 天最早导入的帖子算起。

    Examples:

    \b
      modtool open examples/m42 --day 1 --at "2026-11-02 10:00"
      modtool open examples/m42 --at "2026-11-02 09:30"
    """
    from modtool.m42.commands import record_open

    gd = _open(game_dir)
    _require_m42(gd)
    typer.echo(record_open(game_dir, day, _now(at, gd), force))


@app.command()
def proxy(
    game_dir: Path = typer.Argument(..., help="游戏文件夹"),
    voter: str = typer.Argument(..., help="请导演代投的角色"),
    target: str = typer.Argument(..., help="投票对象（角色名、别名或「弃权」）"),
    day: Optional[int] = typer.Option(None, "--day", min=1, help="第几天（默认当前的讨论日）"),
    at: Optional[str] = typer.Option(None, "--at", help="玩家请求代投的时间（默认现在，须在当前阶段内）"),
    kind: str = typer.Option("vote", "--kind", help="vote（投票）或 change（改票）"),
    note: Optional[str] = typer.Option(None, "--note", help="说明，例如玩家私信的内容"),
) -> None:
    """记下一张代投（M42-R5）：谁投谁、从什么时候起；关门前一小时内的代投也记下，并说明不受理。

    Examples:

    \b
      modtool proxy examples/m42 东方秦兰 白月初 --day 2 --at "2026-11-05 15:00"
      modtool proxy examples/m42 涂山雅雅 石宽 --day 2 --kind change --at "2026-11-05 16:10" --note "私信改票"
    """
    from modtool.m42.commands import record_proxy

    gd = _open(game_dir)
    _require_m42(gd)
    said, refused = record_proxy(game_dir, voter, target, day, _now(at, gd), kind, note)
    if refused:
        raise UserError([Problem(p.source, p.message + "（已记入账本）", p.line) for p in refused])
    typer.echo(said)
