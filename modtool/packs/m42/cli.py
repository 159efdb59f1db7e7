"""M42's own commands (cards, substitutes, schedule, flags; a discussion day's facts:
open, close, 代投) and its answers to the shared commands (tally, status,
announce, act, advance). ``app``'s commands join the modtool app (modtool.packs.m42.pack).

The commands recording facts refuse a bad argument before writing (an unknown
name, an unreadable time, a day not started), so README never needs to ask a
director to edit the ledger.
"""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from modtool.cli.common import fmt as _fmt, now as _now, open_dir as _open, refused_error
from modtool.cli.common import show as _show
from modtool.cli.options import Choice
from modtool.packs.m42.queries import (  # the answers as values; the commands here print them
    cards_view, flags_view, m42_state, post_text, require_m42, schedule_view,
)
from modtool.core.problems import Problem, UserError

app = typer.Typer(rich_markup_mode=None)


def _m42_game(game_dir: Path):
    from modtool.core.gamefile import open_game

    gd = open_game(game_dir)
    require_m42(gd)
    return gd


def _character(gd, label: str, argument: str = "角色") -> str:
    """CHARACTER by name, alias or number (refused before writing otherwise)."""
    from modtool.core.arguments import character_arg

    return character_arg(gd.roster, label, argument)


def _record(game_dir: Path, ev: dict, done: str, validate=None) -> None:
    from modtool.packs.m42.commands import record_event

    _m42_game(game_dir)
    st, refused, gd = record_event(game_dir, ev, validate)
    if refused:
        raise refused_error(refused)
    _said(st, gd, [done])


def _said(st, gd, lines: list[str]) -> None:
    """What a recorded fact did, then what the director is asked (M42-R13) and the winner."""
    for line in lines:
        typer.echo(line)
    for p in st.pending:
        if p.kind == "camp_loss":
            typer.echo(f"请导演决定：{p.who}被判红牌，其阵营是否判负（M42-R13）？modtool decide {gd.folder_arg} {p.who} --camp-loses 或 --camp-stays")
    if st.winner:
        typer.echo(f"游戏结束：{gd.game.data['camps'][st.winner]['name']}胜利")


@app.command()
def card(
    game_dir: Path = typer.Argument(..., help="游戏文件夹"),
    character: str = typer.Argument(..., help="角色"),
    color: str = typer.Argument(..., help="蓝、黄、红（也可写 蓝牌 或 blue、yellow、red，大小写不限）"),
    reason: str = typer.Option(..., "--reason", help="判罚理由"),
    floor: Optional[int] = typer.Option(None, "--floor", help="违规的楼层"),
    at: Optional[str] = typer.Option(None, "--at", help="判罚时间（默认现在）"),
    again: bool = typer.Option(False, "--again", help="同一天再判一张同色同理由的牌（否则视为重复判罚，拒绝）"),
) -> None:
    """判罚一张牌，并列出合并与该角色现有的牌。3 蓝合 1 黄，3 黄合 1 红；红牌罚下出局（白天的在投票结算之后）。
    同一角色同一天同色同理由的牌要加 --again（多半是重复输入）。

    Examples:

    \b
      modtool card examples/m42 石宽 yellow --reason "情绪发言" --floor 35
      modtool card examples/m42 涂山雅雅 blue --reason "投票帖格式不对" --at "2026-11-05 20:10"
    """
    from modtool.core.arguments import choice_arg, refuse
    from modtool.packs.m42.cards import COLOR_WORDS, COLORS
    from modtool.packs.m42.cardsay import card_effect, game_day, repeat_of, repeat_refusal
    from modtool.packs.m42.commands import record_event

    if floor is not None and floor < 1:  # a floor of the thread is numbered from 1
        raise refuse("--floor", f"楼层应从 1 开始，而不是 {floor}")
    if not reason.strip():  # M42-R13: a card says why it was given
        raise refuse("--reason", "判罚理由不能为空")
    gd = _m42_game(game_dir)
    name = _character(gd, character, "角色 CHARACTER")
    color_id = choice_arg(color, COLOR_WORDS, "颜色 COLOR", "这种颜色的牌")  # M42-R13: blue, yellow, red
    when = _now(at, gd)
    ev = {"type": "card", "character": name, "color": color_id, "reason": reason, "at": _fmt(when)}
    if floor is not None:
        ev["floor"] = floor

    def not_a_repeat(st) -> None:  # the same card twice on a day is most likely a retry (issue 15)
        same = None if again else repeat_of(st, name, color_id, reason, when)
        if same is not None:
            raise refuse("--again", repeat_refusal(same, game_day(st, when)))

    st, refused, gd = record_event(game_dir, ev, not_a_repeat)
    if refused:
        raise refused_error(refused)
    # An editor's stale save right after the append may have taken the card out
    # again (the read just told it, with modtool restore): then no effect to tell.
    given = next((c for c in reversed(st.cards) if gd.events and c.line == gd.events[-1].line), None)
    _said(st, gd, [f"已判罚：{name} {COLORS[color_id]}（{reason}）", *(card_effect(st, given) if given else [])])


@app.command()
def withdraw(
    game_dir: Path = typer.Argument(..., help="游戏文件夹"),
    number: int = typer.Argument(..., help="牌的编号（modtool cards 列出）"),
    reason: str = typer.Option(..., "--reason", help="撤销理由"),
) -> None:
    """撤销一张牌：记一条撤销事件，历史不删除。

    Examples:

    \b
      modtool withdraw examples/m42 3 --reason "误判，楼层看错"
      modtool withdraw examples/m42-full 1 --reason "玩家已私信说明"
    """
    def withdrawable(st) -> None:
        from modtool.core.arguments import refuse

        card = next((c for c in st.cards if c.number == number), None)
        if card is None:
            raise refuse("编号 NUMBER", f"没有第 {number} 张牌（modtool cards 列出编号；潜水黄牌用 modtool waive 免除）")
        if card.withdrawn:
            raise refuse("编号 NUMBER", f"第 {number} 张牌已经撤销过了（{card.withdrawn}）")
        if card.event is not None:
            ev["of"] = card.event  # named by its id, which no later undo moves

    from modtool.packs.m42.cardsay import totals
    from modtool.packs.m42.commands import record_event

    _m42_game(game_dir)
    ev = {"type": "withdraw", "card": number, "reason": reason}
    st, refused, gd = record_event(game_dir, ev, withdrawable)
    if refused:
        raise refused_error(refused)
    card = next(c for c in st.cards if (c.event == ev["of"] if "of" in ev else c.number == number))
    _said(st, gd, [f"已撤销第 {number} 张牌", totals(st, card.character)])  # M42-R13: what stands after it


@app.command()
def cards(
    game_dir: Path = typer.Argument(..., help="游戏文件夹"),
    as_json: bool = typer.Option(False, "--json", help="以 JSON 输出"),
) -> None:
    """每个角色的牌：编号、颜色、理由、楼层、撤销与合并。

    Examples:

    \b
      modtool cards examples/m42
      modtool cards examples/m42-discipline --json
    """
    view = cards_view(game_dir, None)
    _show(as_json, view.to_json(), view.text)




@app.command()
def decide(
    game_dir: Path = typer.Argument(..., help="游戏文件夹"),
    character: str = typer.Argument(..., help="被红牌罚下的角色"),
    camp_loses: bool = typer.Option(..., "--camp-loses/--camp-stays", help="红牌是否判负其阵营"),
    at: Optional[str] = typer.Option(None, "--at", help="决定的时间（默认现在）"),
) -> None:
    """导演对规则留给导演的问题作出决定（红牌罚下时是否判负其阵营，M42-R13）。

    Examples:

    \b
      modtool decide examples/m42 石宽 --camp-stays
      modtool decide examples/m42 金人凤 --camp-loses --at "2026-11-06 09:00"
    """
    gd = _m42_game(game_dir)
    name = _character(gd, character, "角色 CHARACTER")

    def asked(st) -> None:
        from modtool.core.arguments import refuse

        if not any(p.kind == "camp_loss" and p.who == name for p in st.pending):
            raise refuse("角色 CHARACTER", f"现在没有关于{name}的待决定事项（只有红牌罚下后才需要决定）")

    ev = {"type": "decision", "about": "camp_loss", "character": name, "loses": camp_loses, "at": _fmt(_now(at, gd))}
    _record(game_dir, ev, f"已记录：{name}的阵营{'判负' if camp_loses else '不判负'}", asked)


@app.command()
def substitute(
    game_dir: Path = typer.Argument(..., help="游戏文件夹"),
    character: str = typer.Argument(..., help="角色"),
    player: Optional[str] = typer.Option(None, "--player", help="替补玩家"),
    none_found: bool = typer.Option(False, "--none", help="无法继续且没有替补：红牌罚下（M42-R16）"),
    at: Optional[str] = typer.Option(None, "--at", help="时间（默认现在）"),
) -> None:
    """更换替补（每个角色限一次，账号不变）；找不到替补时用 --none 红牌罚下。

    Examples:

    \b
      modtool substitute examples/m42 石宽 --player 新来的小石
      modtool substitute examples/m42 东方秦兰 --none --at "2026-11-04 12:00"
    """
    gd = _m42_game(game_dir)
    character = _character(gd, character, "角色 CHARACTER")
    when = _fmt(_now(at, gd))
    if none_found:
        _record(game_dir, {"type": "leave", "character": character, "at": when}, f"已记录：{character}无法继续且无替补，红牌罚下")
    elif not player:
        raise UserError("请用 --player 给出替补玩家，或用 --none 表示没有替补")
    else:
        _record(game_dir, {"type": "substitute", "character": character, "player": player, "at": when},
                f"已记录：{character}由{player}替补")


@app.command()
def assistant(
    game_dir: Path = typer.Argument(..., help="游戏文件夹"),
    character: str = typer.Argument(..., help="角色"),
    helper: str = typer.Option(..., "--helper", help="场外助理"),
    games: int = typer.Option(..., "--games", help="该玩家此前参加过的版杀场次"),
) -> None:
    """登记场外助理；只有累计三场或以下的玩家可以申请（M42-R16）。

    Examples:

    \b
      modtool assistant examples/m42 白月初 --helper 老玩家阿白 --games 2
      modtool assistant examples/m42 涂山苏苏 --helper 红红的红 --games 0
    """
    from modtool.packs.m42.named import earlier_games

    character = _character(_m42_game(game_dir), character, "角色 CHARACTER")
    earlier_games(games)
    _record(game_dir, {"type": "assistant", "character": character, "helper": helper, "games": games},
            f"已登记：{character}的场外助理 {helper}")


@app.command()
def schedule(
    game_dir: Path = typer.Argument(..., help="游戏文件夹"),
    day: Optional[int] = typer.Option(None, "--day", min=1, help="第几天（默认当前）"),
    as_json: bool = typer.Option(False, "--json", help="以 JSON 输出"),
) -> None:
    """讨论日的时间表：开始、自然日（周末延长）、加速/延时申请与结果、改票截止、关门、各项行动时限。

    Examples:

    \b
      modtool schedule examples/m42 --day 2
      modtool schedule examples/m42-discipline --day 3 --json
    """
    from modtool.core.view import Query

    view = schedule_view(game_dir, Query(day=day))
    _show(as_json, view.to_json(), view.text)




@app.command()
def flags(
    game_dir: Path = typer.Argument(..., help="游戏文件夹"),
    day: Optional[int] = typer.Option(None, "--day", min=1, help="只看这一天"),
    as_json: bool = typer.Option(False, "--json", help="以 JSON 输出"),
) -> None:
    """需要导演留意的帖子：红色或放大字体、诈尸、遗言含论坛代码、编辑过的投票帖（只提醒，不自动判罚）。

    Examples:

    \b
      modtool flags examples/m42 --day 2
      modtool flags examples/m42-discipline --json
    """
    from modtool.core.view import Query

    view = flags_view(game_dir, Query(day=day))
    _show(as_json, view.to_json(), view.text)




@app.command()
def waive(
    game_dir: Path = typer.Argument(..., help="游戏文件夹"),
    character: str = typer.Argument(..., help="角色"),
    day: int = typer.Option(..., "--day", min=1, help="第几天的潜水"),
    rule: str = typer.Option(..., "--rule", click_type=Choice(("a", "b", "c")),
                             help="a（不足五帖）、b（未投票）或 c（连续三天不足十帖）"),
    reason: str = typer.Option(..., "--reason", help="免除理由"),
) -> None:
    """免除一张潜水黄牌（M42-R14），记下理由。

    Examples:

    \b
      modtool waive examples/m42 东方淮竹 --day 2 --rule b --reason "已私信请假"
      modtool waive examples/m42-discipline 涂山雅雅 --day 3 --rule a --reason "网络故障，导演认可"
    """
    from modtool.packs.m42.named import LURK_RULES, lurking_yellow

    character = _character(_m42_game(game_dir), character, "角色 CHARACTER")
    _record(game_dir, {"type": "waive", "day": day, "character": character, "rule": rule, "reason": reason},
            f"已免除：{character}第 {day} 天潜水（{LURK_RULES[rule]}）的黄牌",
            lambda st: lurking_yellow(st, character, day, rule))


@app.command()
def speedup(
    game_dir: Path = typer.Argument(..., help="游戏文件夹"),
    day: int = typer.Option(..., "--day", min=1, help="加速的讨论日"),
    note: str = typer.Option("存活人数较少，导演执行加速", "--note", help="说明"),
) -> None:
    """导演宣布某个讨论日加速（人数较少时，M42-R15）：当天第一个自然日关门，不能改票，不判潜水。

    Examples:

    \b
      modtool speedup examples/m42-full --day 5
      modtool speedup examples/m42-discipline --day 4 --note "只剩五人，导演执行加速"
    """
    from modtool.packs.m42.named import discussion_day

    _record(game_dir, {"type": "speedup", "day": day, "note": note}, f"已记录：第 {day} 天执行加速",
            lambda st: discussion_day(st, day))





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
    from modtool.packs.m42.commands import record_close

    gd = _open(game_dir)
    require_m42(gd)
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
    from modtool.packs.m42.commands import record_open

    gd = _open(game_dir)
    require_m42(gd)
    typer.echo(record_open(game_dir, day, _now(at, gd, opening=True), force))


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
    from modtool.packs.m42.commands import record_proxy

    gd = _open(game_dir)
    require_m42(gd)
    said, refused = record_proxy(game_dir, voter, target, day, _now(at, gd), kind, note)
    if refused:
        raise refused_error(refused)
    typer.echo(said)


# --- M42's answers to the shared commands (modtool.cli.app calls them through the pack) ---







def announce_command(game_dir: Path, kind: str, fmt_: str, options: dict) -> None:
    gd, st = m42_state(game_dir)
    told_at, night = options.get("told_at"), options.get("night")
    if kind in ("witch", "hunter"):  # M42-R15: the half-hour runs from this notice; record when it went out
        from modtool.packs.m42.commands import record_notice

        gd, st, said = record_notice(game_dir, kind, night, lambda: _now(told_at, gd, "--told-at"), bool(told_at))
        typer.echo(said, err=True)
    elif told_at:
        raise UserError(Problem("命令行 --told-at", "只有 witch 和 hunter 通知需要记录发出时间"))
    typer.echo(post_text(game_dir, gd, st, kind, fmt_, options), nl=False)






def act_command(game_dir: Path, gd, actor: str, ability: str, targets: list[str], at, night, text) -> None:
    from modtool.packs.m42.commands import ABILITY_WORDS, act_arguments, record_act
    from modtool.core.timeutil import fmt

    require_m42(gd)
    actor, ability, targets = act_arguments(gd, actor, ability, targets)
    st, refused, gd, new = record_act(game_dir, actor, ability, targets, lambda: _now(at, gd), night, text)
    if refused:
        raise refused_error(refused)
    typer.echo(f"已记录：{actor} {ABILITY_WORDS[ability][0]} {' '.join(targets)}".rstrip())
    old = getattr(st, "replaced", {}).get(gd.events[-1].line)
    if old is not None:  # G-R1: the command says which earlier submission it replaces
        from modtool.core.i18n import t

        what = f"{ABILITY_WORDS[old['ability']][0] if old.get('ability') else ABILITY_WORDS['bar'][0]} {old['target'] or ''}".rstrip()
        typer.echo("  " + t("替换了 {at} 的选择：{what}").format(at=old["at"].strftime("%H:%M"), what=what))
    for m in new:  # what this submission did, the seer's result included (private: for the director)
        typer.echo(f"  {fmt(m.at, False)} {m.text}{'' if m.public else '（不公开）'}")
    if st.winner:
        typer.echo(f"游戏结束：{gd.game.data['camps'][st.winner]['name']}胜利")


def advance_command(game_dir: Path, gd, at) -> None:
    from modtool.packs.m42.commands import record_advance
    from modtool.packs.m42.engine import phase_label
    from modtool.packs.m42.status import next_steps
    from modtool.core.timeutil import fmt

    require_m42(gd)
    before, after, gd = record_advance(game_dir, _now(at, gd), typed=bool(at))
    typer.echo(f"{phase_label(before)} → {phase_label(after)}")
    for m in after.timeline[len(before.timeline):]:
        typer.echo(f"  {fmt(m.at, False)} {m.text}{'' if m.public else '（不公开）'}")
    for w in after.warnings:  # e.g. M42-R5b: an early advance closed the day then
        if w not in before.warnings:
            typer.echo(f"注意：{w.message}")
    typer.echo("下一步：")
    for step in next_steps(gd, after):
        typer.echo(f"  - {step}")
