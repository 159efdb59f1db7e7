"""What M42's own commands answer (declared as data in ``modtool.packs.m42.verbs``:
cards, substitutes, schedule, flags; a discussion day's facts: open, close,
代投), and its answers to the shared commands that record (announce, act,
advance): values (``View``, ``Said``), printed by the CLI.

The commands recording facts refuse a bad argument before writing (an unknown
name, an unreadable time, a day not started), so README never needs to ask a
director to edit the ledger.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from modtool.sdk import (
    character_arg, choice_arg, command_time as _now, fmt, open_game, Problem, Query,
    recorded_refusal as refused_error, refuse, Said, t, UserError, View,
)
from modtool.packs.m42.cards import COLOR_WORDS, COLORS
from modtool.packs.m42.cardsay import card_effect, game_day, repeat_of, repeat_refusal, totals
from modtool.packs.m42.commands import (
    ABILITY_WORDS, act_arguments, record_act, record_advance, record_close, record_event, record_notice,
    record_open, record_proxy,
)
from modtool.packs.m42.engine import Engine, phase_label
from modtool.packs.m42.facts import has_posts, post_stamps
from modtool.packs.m42.post_kinds import SENT_KINDS
from modtool.packs.m42.named import LURK_RULES, discussion_day, earlier_games, lurking_yellow
from modtool.packs.m42.queries import cards_view, flags_view, lurking_view, m42_state, post_text, require_m42, schedule_view
from modtool.packs.m42.status import next_steps


def _fmt(dt) -> str:
    return fmt(dt)


def _m42_game(game_dir: Path):
    gd = open_game(game_dir)
    require_m42(gd)
    return gd


def _character(gd, label: str, argument: str = "角色") -> str:
    """CHARACTER by name, alias or number (refused before writing otherwise)."""
    return character_arg(gd.roster, label, argument)


def _record(game_dir: Path, ev: dict, done: str, validate=None) -> Said:
    _m42_game(game_dir)
    st, refused, gd = record_event(game_dir, ev, validate)
    if refused:
        raise refused_error(refused)
    return _said(st, gd, [done])


def _said(st, gd, lines: list[str]) -> Said:
    """What a recorded fact did, then what the director is asked (M42-R13) and the winner."""
    lines = list(lines)
    for p in st.pending:
        if p.kind == "camp_loss":
            lines.append(f"请导演决定：{p.who}被判红牌，其阵营是否判负（M42-R13）？modtool decide {gd.folder_arg} {p.who} --camp-loses 或 --camp-stays")
    if st.winner:
        lines.append(f"游戏结束：{gd.game.data['camps'][st.winner]['name']}胜利")
    return Said.lines(*lines)


def card(game_dir: Path, character: str, color: str, reason: str, floor: int | None = None, at: str | None = None, again: bool = False) -> Said:
    if floor is not None and floor < 1:  # a floor of the thread is numbered from 1
        raise refuse("--floor", "楼层应从 1 开始，而不是 {floor}", args={"floor": floor})
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
    return _said(st, gd, [f"已判罚：{name} {COLORS[color_id]}（{reason}）", *(card_effect(st, given) if given else [])])


def withdraw(game_dir: Path, number: int, reason: str) -> Said:
    def withdrawable(st) -> None:
        card = next((c for c in st.cards if c.number == number), None)
        if card is None:
            raise refuse("编号 NUMBER", "没有第 {number} 张牌（modtool cards 列出编号；潜水黄牌用 modtool waive 免除）", number=number)
        if card.withdrawn:
            raise refuse("编号 NUMBER", "第 {number} 张牌已经撤销过了（{withdrawn}）", number=number, withdrawn=card.withdrawn)
        if card.event is not None:
            ev["of"] = card.event  # named by its id, which no later undo moves

    _m42_game(game_dir)
    ev = {"type": "withdraw", "card": number, "reason": reason}
    st, refused, gd = record_event(game_dir, ev, withdrawable)
    if refused:
        raise refused_error(refused)
    card = next(c for c in st.cards if (c.event == ev["of"] if "of" in ev else c.number == number))
    return _said(st, gd, [f"已撤销第 {number} 张牌", totals(st, card.character)])  # M42-R13: what stands after it


def cards(game_dir: Path) -> View:
    return cards_view(game_dir, None)


def lurking(game_dir: Path) -> View:
    return lurking_view(game_dir, None)


def decide(game_dir: Path, character: str, camp_loses: bool, at: str | None = None) -> Said:
    gd = _m42_game(game_dir)
    name = _character(gd, character, "角色 CHARACTER")

    def asked(st) -> None:
        if not any(p.kind == "camp_loss" and p.who == name for p in st.pending):
            raise refuse("角色 CHARACTER", "现在没有关于{name}的待决定事项（只有红牌罚下后才需要决定）", name=name)

    ev = {"type": "decision", "about": "camp_loss", "character": name, "loses": camp_loses, "at": _fmt(_now(at, gd))}
    return _record(game_dir, ev, f"已记录：{name}的阵营{'判负' if camp_loses else '不判负'}", asked)


def substitute(game_dir: Path, character: str, player: str | None = None, none_found: bool = False, at: str | None = None) -> Said:
    gd = _m42_game(game_dir)
    character = _character(gd, character, "角色 CHARACTER")
    when = _fmt(_now(at, gd))
    if none_found:
        return _record(game_dir, {"type": "leave", "character": character, "at": when}, f"已记录：{character}无法继续且无替补，红牌罚下")
    elif not player:
        raise UserError("请用 --player 给出替补玩家，或用 --none 表示没有替补")
    else:
        return _record(game_dir, {"type": "substitute", "character": character, "player": player, "at": when},
                f"已记录：{character}由{player}替补")


def assistant(game_dir: Path, character: str, helper: str, games: int) -> Said:
    character = _character(_m42_game(game_dir), character, "角色 CHARACTER")
    earlier_games(games)
    return _record(game_dir, {"type": "assistant", "character": character, "helper": helper, "games": games},
            f"已登记：{character}的场外助理 {helper}")


def schedule(game_dir: Path, day: int | None = None) -> View:
    return schedule_view(game_dir, Query(day=day))


def flags(game_dir: Path, day: int | None = None) -> View:
    return flags_view(game_dir, Query(day=day))


def waive(game_dir: Path, character: str, day: int, rule: str, reason: str) -> Said:
    character = _character(_m42_game(game_dir), character, "角色 CHARACTER")
    return _record(game_dir, {"type": "waive", "day": day, "character": character, "rule": rule, "reason": reason},
            f"已免除：{character}第 {day} 天潜水（{LURK_RULES[rule]}）的黄牌",
            lambda st: lurking_yellow(st, character, day, rule))


def speedup(game_dir: Path, day: int, note: str = '存活人数较少，导演执行加速') -> Said:
    return _record(game_dir, {"type": "speedup", "day": day, "note": note}, f"已记录：第 {day} 天执行加速",
            lambda st: discussion_day(st, day))


def close(game_dir: Path, day: int, at: str, note: str | None = None, force: bool = False) -> Said:
    gd = _m42_game(game_dir)
    # Recorded again, a close takes the place of the day's earlier ones: they do not bound it.
    return Said.lines(*record_close(game_dir, day, _now(at, gd, replacing=lambda e: e.type == "close" and e.data.get("day") == day),
                                    note, force))


def open_(game_dir: Path, at: str, day: int = 1, force: bool = False) -> Said:
    gd = _m42_game(game_dir)
    # Recorded again (a mistyped year put right), the opening takes the place of the earlier one.
    return Said.lines(record_open(game_dir, day, _now(at, gd, opening=True,
                                                      replacing=lambda e: e.type == "open" and e.data.get("day") == day), force))


def proxy(game_dir: Path, voter: str, target: str, day: int | None = None, at: str | None = None, kind: str = 'vote', note: str | None = None) -> Said:
    gd = _m42_game(game_dir)
    said, refused = record_proxy(game_dir, voter, target, day, _now(at, gd), kind, note)
    if refused:
        raise refused_error(refused)
    return Said.lines(said)


# --- M42's answers to the shared commands that record (modtool.cli calls them through the pack) ---

def announce_command(game_dir: Path, kind: str, fmt_: str, options: dict) -> Said:
    gd, st = m42_state(game_dir)
    told_at, night = options.get("told_at"), options.get("night")
    notes: tuple[str, ...] = ()
    if kind in SENT_KINDS:  # M42-R15: the half-hour runs from this notice; record when it went out
        gd, st, said = record_notice(game_dir, kind, night, lambda: _now(told_at, gd, "--told-at"), bool(told_at))
        notes = (said,)
    elif told_at:
        raise UserError(Problem("命令行 --told-at", "只有 witch 和 hunter 通知需要记录发出时间"))
    return Said(post_text(game_dir, gd, st, kind, fmt_, options), notes)


def act_command(game_dir: Path, gd, actor: str, ability: str, targets: list[str], at, night, text) -> Said:
    require_m42(gd)
    actor, ability, targets = act_arguments(gd, actor, ability, targets)
    st, refused, gd, new = record_act(game_dir, actor, ability, targets, lambda: _now(at, gd), night, text)
    if refused:
        raise refused_error(refused)
    lines = [f"已记录：{actor} {ABILITY_WORDS[ability][0]} {' '.join(targets)}".rstrip()]
    old = getattr(st, "replaced", {}).get(gd.events[-1].line)
    if old is not None:  # G-R1: the command says which earlier submission it replaces
        what = f"{ABILITY_WORDS[old['ability']][0] if old.get('ability') else ABILITY_WORDS['bar'][0]} {old['target'] or ''}".rstrip()
        lines.append("  " + t("替换了 {at} 的选择：{what}").format(at=old["at"].strftime("%H:%M"), what=what))
        if ability == "kill" and st.phase == "night":  # M42-R15: a notice before this kill told the old target
            stale = Engine(gd, st).witch_told_before(st.number)
            if stale is not None:
                lines.append(f"  女巫在 {stale.strftime('%H:%M')} 被告知的是之前的目标：要把新的目标再告诉她"
                             f"（modtool announce {gd.folder_arg} witch，时限从那时算起）")
    # what this submission did, the seer's result included (private: for the director)
    lines += [f"  {fmt(m.at, False)} {m.text}{'' if m.public else '（不公开）'}" for m in new]
    if st.winner:
        lines.append(f"游戏结束：{gd.game.data['camps'][st.winner]['name']}胜利")
    return Said.lines(*lines)


def _thread_short_of_close(gd, before, after) -> list[str]:
    """M42-R14 judges a day by the discussion posts imported when it closes: a thread
    saved only up to well before the close (a page not saved yet) is said, with the way
    back, since the lurking yellows just given count those posts alone."""
    if before.phase != "day" or after.phase == "day":
        return []
    n = before.number
    rec = after.days.get(n)
    close = rec.closed if rec is not None else None
    stamps = [when for *_, when in post_stamps(gd, "discussion", n)] if has_posts(gd, "discussion", n) else []
    last = max(stamps, default=None)
    if close is None or last is None or close - last <= timedelta(hours=2):
        return []
    return [f"注意：第 {n} 天的讨论帖只导入到 {fmt(last, False)}（关门 {fmt(close, False)}）：潜水（M42-R14）按已导入的帖子判；"
            f"如果还有没存的页，先 modtool undo {gd.folder_arg} 撤销这次结算，导入后再 advance"]


def advance_command(game_dir: Path, gd, at) -> Said:
    require_m42(gd)
    before, after, gd = record_advance(game_dir, _now(at, gd), typed=bool(at))
    lines = [f"{phase_label(before)} → {phase_label(after)}"]
    lines += [f"  {fmt(m.at, False)} {m.text}{'' if m.public else '（不公开）'}" for m in after.timeline[len(before.timeline):]]
    # e.g. M42-R5b: an early advance closed the day then
    lines += [f"注意：{w.message}" for w in after.warnings if w not in before.warnings]
    lines += _thread_short_of_close(gd, before, after)
    lines.append("下一步：")
    lines += [f"  - {step}" for step in next_steps(gd, after)]
    return Said.lines(*lines)
