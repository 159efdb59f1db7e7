"""The rules of 举手, replayed from the ledger's facts (JS-R1 … JS-R5).

- JS-R1: a post ``举手：名字`` (an optional ``理由：…`` line) in the vote
  thread is a hand for that character; the form is read by modtool's vote-form
  parser (``modtool.core.voteform``), names by the roster (name or alias,
  compared as modtool compares names: full/half width, 简繁).
- JS-R2: each player's latest valid hand counts; an invalid post leaves the
  earlier hand standing.
- JS-R3: with n living players, the first name to hold ⌊n/2⌋+1 hands is
  chosen, and the day ends there: hands after it do not count.
- JS-R4: the chosen player is out from the next day on: they raise no hand,
  and no hand may name them.
- JS-R5: hands after the day's deadline (``modtool deadline``; the latest
  record wins) do not count.

Nothing here is written to the ledger: the result is computed every time.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from modtool.sdk import fmt, FormatError, Kind, parse_vote as parse, VoteForm, VoteWords as Words

from modtool_jushou.messages import _

FORM = VoteForm(
    kinds=(Kind("hand", ("举手",), ("理由",), reason_required=False),),
    words=Words(not_a_vote="不是举手帖：没有「{hand_target}：」", mixed="格式错误：一帖只能举一次手"),
)


@dataclass(frozen=True)
class Hand:
    floor: int
    voter: str  # the character's name
    target: str  # the character's name
    reason: str
    time: datetime


@dataclass(frozen=True)
class Invalid:
    floor: int
    author: str
    reason: str


@dataclass
class Day:
    day: int
    living: list[str]
    deadline: datetime | None = None
    hands: dict[str, Hand] = field(default_factory=dict)  # voter -> their hand that counts (JS-R2)
    invalid: list[Invalid] = field(default_factory=list)
    chosen: Hand | None = None  # the hand that made the majority (JS-R3)

    @property
    def majority(self) -> int:
        return len(self.living) // 2 + 1

    def counts(self) -> list[tuple[str, list[str]]]:
        """(name, voters) for every name holding hands, most hands first, then roster order."""
        by: dict[str, list[str]] = {}
        for voter in self.living:
            hand = self.hands.get(voter)
            if hand is not None:
                by.setdefault(hand.target, []).append(voter)
        order = {name: i for i, name in enumerate(self.living)}
        return sorted(by.items(), key=lambda kv: (-len(kv[1]), order.get(kv[0], len(order))))

    def not_raised(self) -> list[str]:
        return [name for name in self.living if name not in self.hands]


def deadlines(gd) -> dict[int, datetime]:
    """Each day's deadline as last recorded (JS-R5)."""
    from modtool.sdk import event_time

    return {ev.data["day"]: event_time(gd, ev) for ev in gd.of_type("deadline")}


def replay(gd) -> dict[int, Day]:
    """Every day with posts in the vote thread, in order, from the ledger's facts."""
    from modtool.sdk import post_of

    by_day: dict[int, list] = {}
    for ev in gd.of_type("post"):
        if ev.data.get("thread") == "vote":
            by_day.setdefault(ev.data["day"], []).append(post_of(ev, gd))
    closes = deadlines(gd)
    out: set[str] = set()
    days: dict[int, Day] = {}
    for number in sorted(set(by_day) | set(closes)):
        day = Day(number, [c.name for c in gd.roster if c.name not in out], closes.get(number))
        for post in sorted(by_day.get(number, ()), key=lambda p: (p.time, p.floor)):
            _read(gd, day, post)
        days[number] = day
        if day.chosen is not None:
            out.add(day.chosen.target)  # JS-R4
    return days


def _read(gd, day: Day, post) -> None:
    """One post of the day's vote thread, in time order."""
    char = gd.roster.by_account(post.author)
    if char is None:
        return  # not a player: modtool import already named the account
    body = post.split()
    if not hasattr(body, "own"):
        day.invalid.append(Invalid(post.floor, char.name, body.reason))
        return
    action = parse(body.own, FORM)
    if isinstance(action, FormatError):
        if not action.not_a_vote:  # chatter is no hand, and not listed
            day.invalid.append(Invalid(post.floor, char.name, action.reason))
        return
    target, why = _target(gd, day, post, char.name, action.raw_target)
    if why is not None:
        day.invalid.append(Invalid(post.floor, char.name, why))
        return
    hand = Hand(post.floor, char.name, target, action.reason, post.time)
    day.hands[char.name] = hand  # JS-R2: the latest valid one
    if sum(1 for h in day.hands.values() if h.target == hand.target) >= day.majority:
        day.chosen = hand  # JS-R3


def _target(gd, day: Day, post, voter: str, target: str) -> tuple[str | None, str | None]:
    """(the character the hand is for, None), or (None, why the hand does not count)."""
    from modtool.sdk import closest

    if day.chosen is not None:
        return None, _("当天已有结果（{name} 当选），之后的举手不算（JS-R3）").format(name=day.chosen.target)
    if day.deadline is not None and post.time > day.deadline:
        return None, _("在截止时间 {at} 之后，不算（JS-R5）").format(at=fmt(day.deadline, False))
    if voter not in day.living:
        return None, _("{name} 已出局，不能举手（JS-R4）").format(name=voter)
    found = gd.roster.lookup(target)
    if not found:
        guess = closest(target, gd.roster.all_labels())
        hint = _("；是不是想写「{name}」？").format(name=guess) if guess else ""
        return None, _("没有叫「{target}」的玩家{hint}").format(target=target, hint=hint)
    if len(found) > 1:
        return None, _("「{target}」同时是 {names} 的名字或别名，请写全名").format(
            target=target, names="、".join(c.name for c in found))
    name = found[0].name
    if name not in day.living:
        return None, _("{name} 已出局，不能被举（JS-R4）").format(name=name)
    return name, None
