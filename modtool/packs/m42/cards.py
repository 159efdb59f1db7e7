"""Cards (M42-R13): 3 blue make a yellow, 3 yellow make a red; a red puts the
character out (红牌罚下). Pure bookkeeping over the cards given so far.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

COLORS = {"blue": "蓝牌", "yellow": "黄牌", "red": "红牌", "蓝牌": "蓝牌", "黄牌": "黄牌", "红牌": "红牌"}
# How a director may write each colour in a command (any case or width); the ledger keeps the id.
COLOR_WORDS = {"blue": ["蓝牌", "蓝"], "yellow": ["黄牌", "黄"], "red": ["红牌", "红"]}
COLOR_IDS = {"blue": "blue", "yellow": "yellow", "red": "red", "蓝": "blue", "黄": "yellow", "红": "red",
             "蓝牌": "blue", "黄牌": "yellow", "红牌": "red"}


@dataclass
class Card:
    number: int | None  # director's cards: 1-based in ledger order (what `withdraw` names); lurking: None
    character: str
    color: str  # blue | yellow | red
    reason: str
    at: datetime
    floor: int | None = None
    line: int | None = None
    source: str = "director"  # director | lurking
    withdrawn: str | None = None  # the reason, when a later event withdrew it
    event: int | str | None = None  # the card event's id (modtool.base.events.ref_of): what a withdraw names
    lurk: tuple[int, str] | None = None  # a lurking yellow's (day, rule a|b|c): what a waive names (M42-R14)


@dataclass
class Tally:
    blue: int = 0
    yellow: int = 0
    red: int = 0
    merged: list[str] = field(default_factory=list)  # "3 蓝 → 1 黄" notes


def _in_time(cards: list[Card]) -> list[Card]:
    """Cards in the order they were given (M42-R13 merges as they come), whatever the
    order they were recorded in; ties keep the ledger's order."""
    return sorted(cards, key=lambda c: c.at)


def standing(cards: list[Card]) -> Tally:
    """What a character's cards add up to, merges applied (withdrawn cards do not count)."""
    t = Tally()
    for c in _in_time(cards):
        if c.withdrawn:
            continue
        if c.color == "blue":
            t.blue += 1
            if t.blue == 3:
                t.blue = 0
                t.yellow += 1
                t.merged.append(f"{c.at:%m-%d %H:%M} 3 张蓝牌合并为 1 张黄牌")
        elif c.color == "yellow":
            t.yellow += 1
        else:
            t.red += 1
        if t.yellow >= 3:
            t.yellow -= 3
            t.red += 1
            t.merged.append(f"{c.at:%m-%d %H:%M} 3 张黄牌合并为 1 张红牌")
    return t


def red_reached_at(cards: list[Card]) -> datetime | None:
    """When the first red (given or merged) stood, or None."""
    acc: list[Card] = []
    for c in _in_time(cards):
        acc.append(c)
        if standing(acc).red > 0:
            return c.at
    return None
