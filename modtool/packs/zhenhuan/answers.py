"""What the storyteller's commands for the 甄嬛 script answer (declared as data
in ``modtool.packs.zhenhuan.verbs``), and the script's answers to the shared
commands (status, announce, act, advance): values, printed by the CLI."""

from __future__ import annotations

from pathlib import Path
import re

from modtool.sdk import (
    command_time as _now, open_game as _open, PICTURES, Problem, recorded_refusal, render, render_each,
    require_chart as require, Said, screenshot, t, UserError, View, write_file,
)
from modtool.packs.zhenhuan import commands as zh
from modtool.packs.zhenhuan.game import today_report, replaced_choice, replay
from modtool.packs.zhenhuan.grimoire_page import CIRCLE, html
from modtool.packs.zhenhuan.view_labels import CAUSE
from modtool.packs.zhenhuan.views import night_json, night_text, post_context, status_json, status_text


def _zh_report(gd, board, refused, done, before: tuple[str, ...] = (), after: tuple[str, ...] = ()) -> Said:
    if refused:
        raise recorded_refusal(refused)
    lines = [*before, *([done] if done else []), *after]
    for q in board.questions:
        opts = f"（可选：{'、'.join(map(str, q.options))}）" if q.options else ""
        lines.append(f"请说书人回答：{q.text}{opts}  → modtool answer {gd.path} {q.key} 答案")
    if board.winner:
        lines.append(f"游戏结束：{gd.game.data['camps'][board.winner]['name']}胜利")
    return Said.lines(*lines)


def _recorded(gd) -> dict:
    """The event the command just appended, as the ledger keeps it (seats resolved)."""
    return gd.events[-1].data


def _zh_only(gd) -> None:
    if gd.game.id != "zhenhuan":
        raise UserError("这个命令目前只支持 {games}，这局是 {game}", games="zhenhuan", game=gd.game.id)


def night(game_dir: Path) -> View:
    """The night's steps in waking order (``modtool night``)."""
    gd = _open(game_dir)
    _zh_only(gd)
    board, _ = replay(gd)
    return View.of("night", gd.game.id, night_json(gd, board), night_text(gd, board))


def grimoire(game_dir: Path, out: Path, public: bool = False, png: Path | None = None) -> Said:
    """The grimoire as a web page (and a PNG of it): the files written, told."""
    if out.suffix.lower() not in (".html", ".htm"):
        raise UserError(Problem("命令行 -o", "网页文件应以 .html 结尾（现在是「{name}」）", name=out.name))
    if png is not None and png.suffix.lower() != ".png":
        raise UserError(Problem("命令行 --png", "图片文件应以 .png 结尾（现在是「{name}」）", name=png.name))
    gd = _open(game_dir)
    _zh_only(gd)
    if png is not None:
        require(PICTURES, "命令行 --png")  # Pillow comes with the chart extra
    board, _ = replay(gd)
    write_file(out, html(gd, board, game_dir, public=public).encode("utf-8"), "-o")
    lines = [f"已生成 {out}" + ("（公开版：没有角色、阵营和夜晚信息）" if public else "（说书人版：不要公开）")]
    if png is not None:
        screenshot(out, png, CIRCLE + 580, 2400)
        lines.append(f"已生成 {png}")
    return Said.lines(*lines)


def info(game_dir: Path, seat: str, given: str) -> Said:
    gd, board, refused = zh.info(game_dir, seat, given)
    return _zh_report(gd, board, refused, f"已记录：{_recorded(gd)['seat']}号得到的信息「{given}」")


def answer(game_dir: Path, key: str, value: str) -> Said:
    gd, board, refused = zh.answer(game_dir, key, value)
    return _zh_report(gd, board, refused, f"已记录：{key} = {value}")


def nominate(game_dir: Path, nominator: str, nominee: str, at: str | None = None) -> Said:
    gd = _open(game_dir)
    before = _deaths(gd)
    gd, board, refused = zh.nominate(game_dir, nominator, nominee, _now(at, gd) if at else None)
    ev = _recorded(gd)
    return _zh_report(gd, board, refused, f"已记录：{ev['nominator']}号 提名 {ev['nominee']}号", after=_died(gd, board, before))


def vote(game_dir: Path, voter: str, nominee: str, at: str | None = None) -> Said:
    gd = _open(game_dir)
    before = _deaths(gd)
    gd, board, refused = zh.vote(game_dir, voter, nominee, _now(at, gd) if at else None)
    ev = _recorded(gd)
    return _zh_report(gd, board, refused, f"已记录：{ev['voter']}号 投给 {ev['nominee']}号", after=_died(gd, board, before))


def _deaths(gd) -> int:
    """How many of today's deaths so far take effect at once (ZH-R10; the execution waits
    for dusk), as the day is judged as it stands; a ledger that cannot be replayed: none."""
    try:
        return len(_at_once(gd, replay(gd)[0]))
    except UserError:
        return 0


def _at_once(gd, board) -> list:
    if board.phase != "day":
        return []
    return [d for d in today_report(gd, board).deaths if d.cause != "execution"]


def _died(gd, board, before: int) -> tuple[str, ...]:
    """The deaths the fact just recorded brought, at once (ZH-R10: 一丈红's nominator, 纯元皇后's
    townsfolk nominator): the command says them, as the day's own events take effect now."""
    return tuple(f"  {d.seat}号（{board.seat(d.seat).player}）{CAUSE.get(d.cause, d.cause)}（立即生效，ZH-R10）"
                 for d in _at_once(gd, board)[before:])


# --- the 甄嬛 script's answers to the shared commands (modtool.cli.app calls them through the pack) ---

def announce_command(game_dir: Path, gd, kind: str, fmt_: str, options: dict) -> Said:
    if options.get("character") is not None:
        raise UserError("--character 只用于 M42 的 roles；血染甄嬛传的私信用 --seat 座位号")
    if options.get("title") is not None:
        raise UserError(Problem("命令行", "--title 只用于 M42 的 vote 帖"))
    return Said(post_view(game_dir, gd, kind, fmt_, options).text)


def post_view(game_dir: Path, gd, kind: str, fmt_: str, options: dict) -> View:
    """An announcement post as a value, written nowhere (``modtool.api``)."""
    board, _ = replay(gd)
    ctx = post_context(gd, board, kind, day=options.get("day"), night=options.get("night"), seat=options.get("seat"))
    text = render(gd.game.id, kind, fmt_, ctx, game_dir)
    data = {"kind": kind, "format": fmt_, "text": text}
    if kind == "private":  # one message a seat, each sent on its own (to the seat's player)
        data["parts"] = render_each(gd.game.id, kind, fmt_, ctx, "messages",
                                    lambda m: t("{seat}号（发给 {player}）").format(seat=m["seat"], player=m["player"]),
                                    game_dir)
    return View.of("post", gd.game.id, data, text)


def act_command(game_dir: Path, gd, actor: str, ability: str, targets: list[str], at, text, night=None) -> Said:
    gd, board, refused = zh.act(game_dir, actor, ability, targets, _now(at, gd) if at else None, text, night)
    ev = _recorded(gd)
    done = f"已记录：{ev['seat']}号 {zh.ability_label(gd, ev['ability'])} {' '.join(f'{t}号' for t in ev['targets'])}".rstrip()
    old = None if refused else replaced_choice(gd, board, gd.events[-1].line)
    if old is not None:  # G-R1: the command says which earlier choice it replaces
        what = f"{zh.ability_label(gd, old.get('ability'))} {' '.join(f'{t}号' for t in old.get('targets') or [])}".rstrip()
        done += "\n  " + (t("替换了 {at} 的选择：{what}").format(at=_hhmm(old["at"]), what=what) if old.get("at")
                          else t("替换了之前的选择：{what}").format(what=what))
    return _zh_report(gd, board, refused, done)


def _hhmm(at) -> str:
    """A recorded time as the storyteller says it: 22:10."""
    m = re.search(r"\d{1,2}:\d{2}", str(at))
    return m.group(0) if m else str(at)


def advance_command(game_dir: Path, gd, at) -> Said:
    before, after, refused, gd = zh.advance(game_dir, _now(at, gd) if at else None)
    label = {"night": "夜", "day": "天"}
    lines = [f"第 {before.number} {label.get(before.phase, '')} → "
             + ("游戏结束" if after.phase == "over" else f"第 {after.number} {label[after.phase]}")]
    lines += [f"  {text_}{'' if public else '（不公开）'}" for _, text_, public in after.timeline[len(before.timeline):]]
    return _zh_report(gd, after, refused, None, tuple(lines))


def status_view(gd) -> View:
    """The grimoire's public state as it stands, as a value (``modtool.core.view.View``)."""
    board, problems = replay(gd)
    data = status_json(gd, board, problems)
    return View.of("status", gd.game.id, data, status_text(gd, board, problems))
