"""The storyteller's commands for the 甄嬛 script, and its answers to the shared
commands (status, announce, act, advance). ``app``'s commands join the modtool
app (modtool.packs.zhenhuan.pack)."""

from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from modtool.cli.common import now as _now, open_dir as _open, refused_error
from modtool.cli.common import show as _show
from modtool.core.problems import Problem, UserError

app = typer.Typer(rich_markup_mode=None)

def _zh_report(gd, board, refused, done) -> None:
    if refused:
        raise refused_error(refused)
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
    from modtool.core.i18n import t

    if gd.game.id != "zhenhuan":
        raise UserError(t("这个命令目前只支持 {games}，这局是 {game}").format(games="zhenhuan", game=gd.game.id))


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
    from modtool.packs.zhenhuan.game import replay
    from modtool.packs.zhenhuan.views import night_json, night_text

    gd = _open(game_dir)
    _zh_only(gd)
    board, _ = replay(gd)
    _show(as_json, night_json(gd, board), night_text(gd, board))


@app.command()
def grimoire(
    game_dir: Path = typer.Argument(..., help="游戏文件夹"),
    out: Path = typer.Option(..., "-o", "--output", help="网页文件（.html），单个文件，不联网即可打开"),
    public: bool = typer.Option(False, "--public", help="只画全镇都能看到的：名字、存活或死亡、死者票、今天的提名（可以贴出去）"),
    png: Optional[Path] = typer.Option(None, "--png", help="同时用无界面浏览器（Chromium）把网页截成这张 PNG 图"),
) -> None:
    """甄嬛：魔典网页：座位按顺序围成一圈，每个座位的玩家、角色、阵营、存活/死亡、死者票、醉酒/中毒等提示标记、
    变化（宠妃、女皇），旁边是伪装身份和今夜的唤醒顺序（谁还没被唤醒）。--public 只画公开的信息，可以贴到帖子里。

    Examples:

    \b
      modtool grimoire examples/zhenhuan -o 魔典.html
      modtool grimoire examples/zhenhuan -o 座位图.html --public --png 座位图.png
    """
    from modtool.packs.zhenhuan.game import replay
    from modtool.packs.zhenhuan.grimoire_page import CIRCLE, html

    if out.suffix.lower() not in (".html", ".htm"):
        raise UserError(Problem("命令行 -o", f"网页文件应以 .html 结尾（现在是「{out.name}」）"))
    if png is not None and png.suffix.lower() != ".png":
        raise UserError(Problem("命令行 --png", f"图片文件应以 .png 结尾（现在是「{png.name}」）"))
    gd = _open(game_dir)
    _zh_only(gd)
    if png is not None:
        from modtool.core.chart import PICTURES, require

        require(PICTURES, "命令行 --png")  # Pillow comes with the chart extra
    board, _ = replay(gd)
    from modtool.core.outfile import write_file

    write_file(out, html(gd, board, game_dir, public=public).encode("utf-8"), "-o")
    typer.echo(f"已生成 {out}" + ("（公开版：没有角色、阵营和夜晚信息）" if public else "（说书人版：不要公开）"))
    if png is not None:
        from modtool.core import browser

        browser.screenshot(out, png, CIRCLE + 580, 2400)
        typer.echo(f"已生成 {png}")


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
    from modtool.packs.zhenhuan import commands as zh

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
    from modtool.packs.zhenhuan import commands as zh

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
    from modtool.core.gamefile import open_game
    from modtool.packs.zhenhuan import commands as zh

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
    from modtool.core.gamefile import open_game
    from modtool.packs.zhenhuan import commands as zh

    gd = open_game(game_dir)
    gd, board, refused = zh.vote(game_dir, voter, nominee, _now(at, gd) if at else None)
    ev = _recorded(gd)
    _zh_report(gd, board, refused, f"已记录：{ev['voter']}号 投给 {ev['nominee']}号")


# --- the 甄嬛 script's answers to the shared commands (modtool.cli.app calls them through the pack) ---

def announce_command(game_dir: Path, gd, kind: str, fmt_: str, options: dict) -> None:
    if options.get("character") is not None:
        raise UserError("--character 只用于 M42 的 roles；血染甄嬛传的私信用 --seat 座位号")
    if options.get("title") is not None:
        raise UserError(Problem("命令行", "--title 只用于 M42 的 vote 帖"))
    typer.echo(post_view(game_dir, gd, kind, fmt_, options).text, nl=False)


def post_view(game_dir: Path, gd, kind: str, fmt_: str, options: dict):
    """An announcement post as a value, written nowhere (``modtool.api``)."""
    from modtool.core.render import render
    from modtool.core.view import View
    from modtool.packs.zhenhuan.game import replay
    from modtool.packs.zhenhuan.views import post_context

    board, _ = replay(gd)
    ctx = post_context(gd, board, kind, day=options.get("day"), night=options.get("night"), seat=options.get("seat"))
    text = render(gd.game.id, kind, fmt_, ctx, game_dir)
    return View.of("post", gd.game.id, {"kind": kind, "format": fmt_, "text": text}, text)


def act_command(game_dir: Path, gd, actor: str, ability: str, targets: list[str], at, text, night=None) -> None:
    from modtool.packs.zhenhuan import commands as zh

    from modtool.core.i18n import t as tr
    from modtool.packs.zhenhuan.game import replaced_choice

    gd, board, refused = zh.act(game_dir, actor, ability, targets, _now(at, gd) if at else None, text, night)
    ev = _recorded(gd)
    done = f"已记录：{ev['seat']}号 {zh.ability_label(gd, ev['ability'])} {' '.join(f'{t}号' for t in ev['targets'])}".rstrip()
    old = None if refused else replaced_choice(gd, board, gd.events[-1].line)
    if old is not None:  # G-R1: the command says which earlier choice it replaces
        what = f"{zh.ability_label(gd, old.get('ability'))} {' '.join(f'{t}号' for t in old.get('targets') or [])}".rstrip()
        done += "\n  " + (tr("替换了 {at} 的选择：{what}").format(at=_hhmm(old["at"]), what=what) if old.get("at")
                          else tr("替换了之前的选择：{what}").format(what=what))
    _zh_report(gd, board, refused, done)


def _hhmm(at) -> str:
    """A recorded time as the storyteller says it: 22:10."""
    import re

    m = re.search(r"\d{1,2}:\d{2}", str(at))
    return m.group(0) if m else str(at)


def advance_command(game_dir: Path, gd, at) -> None:
    from modtool.packs.zhenhuan import commands as zh

    before, after, refused, gd = zh.advance(game_dir, _now(at, gd) if at else None)
    label = {"night": "夜", "day": "天"}
    typer.echo(f"第 {before.number} {label.get(before.phase, '')} → "
               + ("游戏结束" if after.phase == "over" else f"第 {after.number} {label[after.phase]}"))
    for _, text_, public in after.timeline[len(before.timeline):]:
        typer.echo(f"  {text_}{'' if public else '（不公开）'}")
    _zh_report(gd, after, refused, None)


def status_view(gd):
    """The grimoire's public state as it stands, as a value (``modtool.core.view.View``)."""
    from modtool.packs.zhenhuan.game import replay
    from modtool.packs.zhenhuan.views import status_json, status_text

    from modtool.core.announced import contradictions
    from modtool.core.view import View

    board, problems = replay(gd)
    data = status_json(gd, board, problems)
    data["announced_changed"] = contradictions(gd)  # G-R2: what the forum must correct (the text lists it too)
    return View.of("status", gd.game.id, data, status_text(gd, board, problems))
