"""What a director's fact names must exist: checked on the replayed state before writing.

A waive names a lurking yellow (its day, character and rule, M42-R14); a
speed-up names a discussion day (M42-R15); an assistant a player's count of
earlier games (M42-R16). A day that has not started, a yellow that was never
given, a count below zero: the director's typo, refused naming the argument,
nothing written (the engine would take such a line without a word).
"""

from __future__ import annotations

from modtool.sdk import refuse, t
from modtool.packs.m42.engine import State, phase_label

# M42-R14's three kinds of lurking, as the director reads them.
LURK_RULES = {"a": "不足五帖", "b": "未投票", "c": "连续三天不足十帖"}


def lurking_yellow(st: State, character: str, day: int, rule: str):
    """The lurking yellow ``waive`` names (M42-R14), or a refusal naming what does not exist."""
    rec = st.days.get(day)
    if rec is None or rec.closed is None:
        raise refuse("--day", "第 {day} 天还没有结算（当前：{phase}）：潜水黄牌在那天关门结算时才判出，结算之后再免除", day=day, phase=phase_label(st))
    yellows = [c for c in st.cards if c.source == "lurking" and c.lurk is not None and c.lurk[0] == day]
    card = next((c for c in yellows if c.character == character and c.lurk[1] == rule), None)
    if card is None:
        given = t("、").join(f"{c.character}（{c.lurk[1]}，{LURK_RULES[c.lurk[1]]}）" for c in yellows) or t("没有")
        raise refuse("--rule", "{name}第 {day} 天没有潜水（{rule}，{label}）的黄牌；这一天的潜水黄牌：{given}", name=character, day=day, rule=rule, label=LURK_RULES[rule], given=given)
    if card.withdrawn:
        raise refuse("--rule", "{name}第 {day} 天潜水（{rule}）的黄牌已经免除过了（{why}）", name=character, day=day, rule=rule, why=card.withdrawn)
    return card


def discussion_day(st: State, day: int) -> None:
    """A speed-up's day (M42-R15): a discussion day that has started (a settled one may be
    corrected: G-R2 asks for --force when that changes what the forum read)."""
    if day not in st.days:
        raise refuse("--day", "第 {day} 天还没有开始（当前：{phase}）：加速只能宣布给已经开始的讨论日", day=day, phase=phase_label(st))


def earlier_games(games: int) -> None:
    """M42-R16's count of a player's earlier games: a number of games, never below zero."""
    if games < 0:
        raise refuse("--games", "此前参加的场次应是 0 或更多，而不是 {games}", games=games)
