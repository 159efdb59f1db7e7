"""What an M42 replay builds (``engine.Engine``): the game's state, its nights
and days, exits and pending decisions, and the words for them. Plain data:
nothing here reads the ledger or applies a rule.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from modtool.packs.m42.tally import DayContext, Tally
from modtool.sdk import Problem

NIGHT_ABILITIES = {"kill": "werewolf", "save": "witch", "poison": "witch", "check": "seer"}
ABILITY_NAMES = {
    "kill": "杀人", "save": "救药", "poison": "毒药", "check": "验人", "shoot": "最后一枪",
    "successor": "指定继任警长", "surrender": "投降",
}
CAUSES = {  # public wording; night causes are never told apart in public (M42-R6, R10)
    "exile": "被投票放逐", "scapegoat": "冤死", "kill": "出局", "poison": "出局", "shot": "出局", "redcard": "红牌罚下",
}
# The director's wording (status, the end post's reveal): every cause told apart.
PRIVATE_CAUSES = {"exile": "被投票放逐", "scapegoat": "冤死", "kill": "被狼人杀害", "poison": "被女巫毒杀",
                  "shot": "被猎人开枪带走", "redcard": "红牌罚下"}
LAST_WORDS_LIMIT = 4  # M42-R10: at most 4 last-word posts (none after a red card, M42-R13)
WOLF_WORDS = ("狼人", "狼队", "wolves")


@dataclass(frozen=True)
class Exit:
    name: str
    cause: str  # exile | scapegoat | kill | poison | shot | redcard
    phase: str  # day | night | dawn
    number: int
    at: datetime

    @property
    def public_cause(self) -> str:
        return CAUSES[self.cause]


@dataclass
class Pending:
    kind: str  # shoot | successor | last_words | bar | camp_loss
    who: str
    since: datetime
    due: datetime | None  # None: before the next day opens

    @property
    def label(self) -> str:
        return {"shoot": "猎人开枪", "successor": "指定继任警长", "last_words": "遗言", "bar": "替罪羊指定禁票",
                "camp_loss": "导演决定红牌是否判负其阵营"}[self.kind]


@dataclass
class NightRecord:
    number: int
    start: datetime
    kill: str | None = None
    kill_at: datetime | None = None
    saved: str | None = None
    poisoned: str | None = None
    checks: list[dict] = field(default_factory=list)  # {seer, target, result}
    used: set[str] = field(default_factory=set)
    exits: list[Exit] = field(default_factory=list)
    resolved: bool = False
    resolved_at: datetime | None = None


@dataclass
class DayRecord:
    number: int
    alive_at_open: list[str]
    opened: datetime | None
    ctx: DayContext | None = None
    tally: Tally | None = None
    exits: list[Exit] = field(default_factory=list)
    schedule: object | None = None  # schedule.DaySchedule, when the day's opening is known
    closed: datetime | None = None


@dataclass
class Moment:
    """One line of the game's timeline; ``public`` is what the thread may see."""

    at: datetime
    text: str
    public: bool
    card: object | None = None  # the cards.Card this line tells of (a withdrawn card's line is left out of the end post)


@dataclass
class State:
    phase: str = "day"  # day | night | dawn | over
    number: int = 1
    alive: list[str] = field(default_factory=list)
    exits: list[Exit] = field(default_factory=list)
    sheriff: str | None = None
    sheriff_log: list[tuple[datetime, str, str]] = field(default_factory=list)
    potions_used: set[str] = field(default_factory=set)
    shot_used: bool = False
    pending: list[Pending] = field(default_factory=list)
    days: dict[int, DayRecord] = field(default_factory=dict)
    nights: dict[int, NightRecord] = field(default_factory=dict)
    last_words: dict[str, list[dict]] = field(default_factory=dict)
    surrendered: set[str] = field(default_factory=set)
    lost: list[str] = field(default_factory=list)
    winner: str | None = None
    ended_at: datetime | None = None
    barred: dict[int, set[str]] = field(default_factory=dict)
    timeline: list[Moment] = field(default_factory=list)
    cards: list = field(default_factory=list)  # cards.Card, in the order given
    lurk_days: list = field(default_factory=list)  # lurking.LurkDay of every closed day
    red_queue: list[str] = field(default_factory=list)  # red cards of the open day, out after its vote
    substituted: dict[str, dict] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)
    # Refusals that are the director's slip, not a player's submission (a night's
    # choice entered by day, an actor who is out, a right nobody has): refused
    # before writing (modtool.packs.m42.commands.rehearse); in a ledger, shown as refused.
    slips: list[Problem] = field(default_factory=list)
    warnings: list[Problem] = field(default_factory=list)

    @property
    def over(self) -> bool:
        return self.winner is not None
