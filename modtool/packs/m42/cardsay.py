"""What ``modtool card`` says (M42-R13): the card's place in its merges and the
character's totals after it, computed from the replayed state (facts, not stored
results); and the guard against giving the same card twice by mistake.
"""

from __future__ import annotations

from datetime import datetime

from modtool.sdk import fold, t
from modtool.packs.m42.cards import COLORS, Card, standing
from modtool.packs.m42.state import State


def game_day(st: State, at: datetime) -> int:
    """The game day whose span holds ``at``: from its opening to the next day's
    opening (its night included). Before day 1's known opening: day 1."""
    day = 1
    for n, rec in sorted(st.days.items()):
        if rec.opened is not None and rec.opened <= at:
            day = n
    return day


def _same_reason(a: str, b: str) -> bool:
    return " ".join(fold(a).split()) == " ".join(fold(b).split())


def repeat_of(st: State, name: str, color: str, reason: str, at: datetime) -> Card | None:
    """A card the director already gave ``name`` of the same colour and reason on the
    same game day, not withdrawn: most likely the one being given again by mistake."""
    day = game_day(st, at)
    for c in st.cards:
        if (c.source == "director" and c.character == name and c.color == color and not c.withdrawn
                and _same_reason(c.reason, reason) and game_day(st, c.at) == day):
            return c
    return None


def repeat_refusal(card: Card, day: int) -> str:
    return t("{name}第 {day} 天已经有一张同样的{color}（#{number}，{at}，理由「{reason}」），多半是重复判罚；"
             "确实要再判一张，请在同一命令后加 --again").format(
        name=card.character, day=day, color=COLORS[card.color], number=card.number,
        at=card.at.strftime("%m-%d %H:%M"), reason=card.reason)


def _red_outcome(st: State, card: Card) -> str:
    name = card.character
    if name in st.red_queue:
        return t("罚下出局，在第 {day} 天投票结算之后执行（M42-R13）").format(day=st.number)
    if any(e.name == name and e.cause == "redcard" and e.at == card.at for e in st.exits):
        return t("罚下出局（M42-R13）")
    if st.over and name in st.alive:
        return t("游戏已经结束，只记录在案（M42-R13）")
    return t("{name}已经出局，不再出局一次；仍请导演决定其阵营是否判负（M42-R13）").format(name=name)


def card_effect(st: State, card: Card) -> list[str]:
    """The lines ``card`` prints after the card event is replayed: which blue or yellow
    it is and the merge it caused at its moment (3 blue → a yellow, 3 yellow → a
    red, M42-R13), what the red does, then the character's totals after every card."""
    mine = [c for c in st.cards if c.character == card.character]
    ordered = sorted(mine, key=lambda c: c.at)  # as M42-R13 merges them: in time, ties in ledger order
    before = standing(ordered[: ordered.index(card)])
    steps: list[str] = []
    red = False
    if card.color == "blue":
        steps.append(t("第 {n} 张蓝牌").format(n=before.blue + 1))
        if before.blue + 1 == 3:
            steps.append(t("合并为黄牌"))
            steps.append(t("第 {n} 张黄牌").format(n=before.yellow + 1))
            red = before.yellow + 1 == 3
    elif card.color == "yellow":
        steps.append(t("第 {n} 张黄牌").format(n=before.yellow + 1))
        red = before.yellow + 1 == 3
    else:
        steps.append(t("红牌"))
    if red:
        steps.append(t("合并为红牌"))
    text = " → ".join(steps)
    if card.color == "red" or red:
        text += t("：") + _red_outcome(st, card)
    return [text, totals(st, card.character)]


def totals(st: State, name: str) -> str:
    """``name``'s cards as they stand now, merges applied, withdrawn ones left out (M42-R13)."""
    now = standing([c for c in st.cards if c.character == name])
    return t("{name}现有：蓝 {blue}、黄 {yellow}、红 {red}").format(name=name, blue=now.blue, yellow=now.yellow, red=now.red)
