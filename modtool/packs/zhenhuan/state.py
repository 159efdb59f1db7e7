"""The grimoire: the shared model of the 甄嬛 script's state, built by replay.

Every module of ``modtool.packs.zhenhuan`` reads and changes a ``Grimoire``; the
ledger only holds facts (setup, the storyteller's answers, nominations,
votes), and ``engine.replay`` rebuilds the grimoire from them each time.

Seats are numbered 1..N clockwise; neighbours wrap around (ZH-R8, 浣碧).
Phases: ``night`` N (night 1 is the first night), then ``day`` N.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime


@dataclass
class Status:
    """A reminder token on a seat, with when it ends (ZH-R3 explicit expiry).

    kind: poisoned | drunk | pinned | protected | cursed | yizhanghong (一丈红) |
    silenced | bound (玉娆's binding) | used (a once-per-game ability spent) | ...
    until: "dusk N" / "night N" / "day N" / "game" — the phase boundary at which
    it is removed: ("night", 3) means it ends when night 3 begins.
    """

    kind: str
    source: str  # seat/character id that caused it, or "storyteller"
    until: tuple[str, int] | None = None  # None: for the whole game
    note: str = ""


@dataclass
class Seat:
    number: int  # 1-based, clockwise
    player: str  # the forum account / player name
    character: str  # role id from games/zhenhuan.yaml (current character)
    original: str  # the character dealt at setup (宠妃 returns to it, ZH-R8)
    team: str  # good | evil (current)
    alive: bool = True
    ghost_vote: bool = True  # a dead player's one vote for the rest of the game (ZH-R11)
    statuses: list[Status] = field(default_factory=list)

    def has(self, kind: str) -> bool:
        return any(s.kind == kind for s in self.statuses)


@dataclass
class Death:
    seat: int
    cause: str  # demon | execution | curse | nian_take | sanage | qi_accused | madman | sun | ...
    phase: str  # night | day
    number: int
    at: datetime | None = None


@dataclass
class Question:
    """Something the rules leave to the storyteller (ZH-R3, R6, R9, R10): never answered by the tool."""

    key: str  # stable id, e.g. "night2/false_info/seat5" — the answer event names it
    text: str  # Chinese, the question as the storyteller reads it
    options: list[str] = field(default_factory=list)


@dataclass
class Grimoire:
    seats: list[Seat]
    phase: str = "night"  # night | day | over
    number: int = 1
    deaths: list[Death] = field(default_factory=list)
    bluffs: list[str] = field(default_factory=list)  # the demon's three good characters not in play (7+)
    winner: str | None = None  # good | evil
    empress_ever: bool = False  # a 女皇 has existed (ZH-R7)
    questions: list[Question] = field(default_factory=list)  # open questions for the storyteller
    timeline: list[tuple[datetime | None, str, bool]] = field(default_factory=list)  # (at, text, public)

    def seat(self, n: int) -> Seat:
        return self.seats[n - 1]

    def alive(self) -> list[Seat]:
        return [s for s in self.seats if s.alive]

    def by_character(self, character: str) -> list[Seat]:
        return [s for s in self.seats if s.character == character]

    def neighbours(self, n: int, alive_only: bool = True) -> tuple[Seat | None, Seat | None]:
        """Nearest (living) neighbour to the left (lower seat numbers, wrapping) and right."""
        total = len(self.seats)
        left = right = None
        for step in range(1, total):
            s = self.seats[(n - 1 - step) % total]
            if s.number != n and (s.alive or not alive_only):
                left = s
                break
        for step in range(1, total):
            s = self.seats[(n - 1 + step) % total]
            if s.number != n and (s.alive or not alive_only):
                right = s
                break
        return left, right
