"""The storyteller's commands for the 甄嬛 script: registered on modtool.cli.app."""

from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from modtool.cli import _fmt, _m42_state, _now, _open, _require_m42, _show, app
from modtool.problems import Problem, UserError

def _zh_report(gd, board, refused, done) -> None:
    if refused:
        raise UserError([Problem(p.source, p.message + "（已记入账本）", p.line) for p in refused])
    if done:
        typer.echo(done)
    for q in board.questions:
        opts = f"（可选：{'、'.join(map(str, q.options))}）" if q.options else ""
        typer.echo(f"请说书人回答：{q.text}{opts}  → modtool answer {gd.path} {q.key} 答案")
    if board.winner:
        typer.echo(f"游戏结束：{gd.game.data['camps'][board.winner]['name']}胜利")


def _recorded(gd) -> dict:
    """The event the command just appended, as the ledger keeps it (seats resolved)."""
    return gd.events[-1].data


def _zh_only(gd) -> None:
    if gd.game.id != "zhenhuan":
        raise UserError(f"这个命令只用于血染甄嬛传，这局是 {gd.game.id}")


@app.command()
def night(
    game_dir: Path = typer.Argument(..., help="游戏文件夹"),
    as_json: bool = typer.Option(False, "--json", help="以 JSON 输出"),
) -> None:
    """甄嬛：当前夜晚按行动顺序的步骤：唤醒谁、问什么、真实信息（醉/毒时标“可能给假信息”并给出建议的假信息）、待回答的问题。

    Examples:

    \b
      modtool night examples/zhenhuan
      modtool night examples/zhenhuan --json
    """
    from modtool.zhenhuan.game import replay
    from modtool.zhenhuan.views import night_json, night_text

    gd = _open(game_dir)
    _zh_only(gd)
    board, _ = replay(gd)
    _show(as_json, night_json(gd, board), night_text(gd, board))


@app.command()
def info(
    game_dir: Path = typer.Argument(..., help="游戏文件夹"),
    seat: str = typer.Argument(..., help="座位号或玩家"),
    given: str = typer.Argument(..., help="实际告诉这名玩家的信息"),
) -> None:
    """甄嬛：记录说书人在夜里实际给出的信息（醉/毒时可以是假的）。

    Examples:

    \b
      modtool info examples/zhenhuan 3 "是"
      modtool info examples/zhenhuan 6 "2号或8号是敬妃"
    """
    from modtool.zhenhuan import commands as zh

    gd, board, refused = zh.info(game_dir, seat, given)
    _zh_report(gd, board, refused, f"已记录：{_recorded(gd)['seat']}号得到的信息「{given}」")


@app.command()
def answer(
    game_dir: Path = typer.Argument(..., help="游戏文件夹"),
    key: str = typer.Argument(..., help="问题的编号（modtool status / night 列出）"),
    value: str = typer.Argument(..., help="说书人的决定"),
) -> None:
    """甄嬛：回答规则留给说书人决定的问题（狂徒之死、太上皇的继任者、祺贵人的随机死亡、假信息……）。

    Examples:

    \b
      modtool answer examples/zhenhuan night2/kuangtu 否
      modtool answer examples/zhenhuan night1/yurao_bind 8号
    """
    from modtool.zhenhuan import commands as zh

    gd, board, refused = zh.answer(game_dir, key, value)
    _zh_report(gd, board, refused, f"已记录：{key} = {value}")


@app.command()
def nominate(
    game_dir: Path = typer.Argument(..., help="游戏文件夹"),
    nominator: str = typer.Argument(..., help="提名者（座位号或玩家）"),
    nominee: str = typer.Argument(..., help="被提名者"),
    at: Optional[str] = typer.Option(None, "--at", help="时间"),
) -> None:
    """甄嬛：直接记录一次提名（也可以从投票帖导入「提名对象/提名理由」帖子）。

    Examples:

    \b
      modtool nominate examples/zhenhuan 3 7
      modtool nominate examples/zhenhuan 5 2 --at "2026-11-04 20:30"
    """
    from modtool.gamefile import open_game
    from modtool.zhenhuan import commands as zh

    gd = open_game(game_dir)
    gd, board, refused = zh.nominate(game_dir, nominator, nominee, _now(at, gd) if at else None)
    ev = _recorded(gd)
    _zh_report(gd, board, refused, f"已记录：{ev['nominator']}号 提名 {ev['nominee']}号")


@app.command()
def vote(
    game_dir: Path = typer.Argument(..., help="游戏文件夹"),
    voter: str = typer.Argument(..., help="投票者（座位号或玩家）"),
    nominee: str = typer.Argument(..., help="投给的被提名者"),
    at: Optional[str] = typer.Option(None, "--at", help="时间"),
) -> None:
    """甄嬛：直接记录一票（也可以从投票帖导入「投票对象」帖子）；死者的一票整局只能用一次。

    Examples:

    \b
      modtool vote examples/zhenhuan 5 7
      modtool vote examples/zhenhuan 8 7 --at "2026-11-04 21:10"
    """
    from modtool.gamefile import open_game
    from modtool.zhenhuan import commands as zh

    gd = open_game(game_dir)
    gd, board, refused = zh.vote(game_dir, voter, nominee, _now(at, gd) if at else None)
    ev = _recorded(gd)
    _zh_report(gd, board, refused, f"已记录：{ev['voter']}号 投给 {ev['nominee']}号")


