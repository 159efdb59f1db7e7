"""The 甄嬛 replay board: the grimoire plus what replay remembers, and the small helpers the
rules share (reading targets and answers, status expiry: ZH-R3)."""

from __future__ import annotations

from dataclasses import dataclass, field

from modtool.sdk import Event
from modtool.packs.zhenhuan.rules import is_demon, role
from modtool.packs.zhenhuan.state import Grimoire, Question, Seat

IMPAIRING = ("poisoned", "drunk", "pinned")


@dataclass
class Board(Grimoire):
    """The Grimoire plus what replay needs to remember (all derived, never stored)."""

    seed: object = None
    options: dict = field(default_factory=dict)
    night_actions: dict = field(default_factory=dict)  # night -> [Event]
    day_actions: dict = field(default_factory=dict)  # day -> [Event]
    nominations: dict = field(default_factory=dict)  # day -> [Event]
    votes: dict = field(default_factory=dict)  # day -> [Event]
    infos: dict = field(default_factory=dict)  # (night, seat) -> given
    answers: dict = field(default_factory=dict)  # Question.key -> value
    became: dict = field(default_factory=dict)  # seat -> the character it was before its last change
    curses: dict = field(default_factory=dict)  # night -> [seat] dying when that night begins
    qi_wrong: dict = field(default_factory=dict)  # night -> [seat] (祺贵人 wrong accusation)
    qi_right: dict = field(default_factory=dict)  # night -> [祺贵人 seat] (a victim is due)
    protected: dict = field(default_factory=dict)  # night -> (guojunwang seat, target)
    pinned_by: dict = field(default_factory=dict)  # night -> (chongfei seat, target)
    ranzhi: dict = field(default_factory=dict)  # night -> {sanage seat: (target, "成功"/"失败" or None)}
    learned: dict = field(default_factory=dict)  # (night, seat) -> what the rules make the seat learn
    bound: int | None = None  # 玉娆's first-night good character (seat)
    pending_successor: bool = False  # 太上皇 self-killed, successor not named yet (ZH-R6)
    kuangtu_dead: bool = False
    problems: list = field(default_factory=list)  # (ledger line, Chinese message)
    damaged: list = field(default_factory=list)  # those of `problems` that are ledger damage, not refusals
    step_order: int = 0  # the night-order number being resolved (0: not at night)
    death_order: dict = field(default_factory=dict)  # seat -> step_order of its last death
    preview: "Board | None" = None  # the current night resolved so far (for night_steps)
    # per timeline entry: (phase, number, revealed at the end); the phase the entry happened in (ZH-R13)
    timeline_when: list = field(default_factory=list)
    # G-R1: how each night submission was judged (by its ledger line), for the sheet and `act`.
    counted: dict = field(default_factory=dict)  # (night, seat, ability) -> the Event that counts
    refused: dict = field(default_factory=dict)  # line -> why the rules refused it (kept as a fact)
    replaces: dict = field(default_factory=dict)  # line -> the earlier valid Event it replaced
    silenced_on: dict = field(default_factory=dict)  # day -> the seat 齐妃 validly silenced (ZH-R10)
    # Every question key the replay consulted or asked (shared with the preview's copy): an answer
    # to a key never asked is a typo (modtool.packs.zhenhuan.game.reference_problems).
    keys_seen: set = field(default_factory=set)

    # -- helpers --------------------------------------------------------------------------
    def impaired(self, n: int) -> bool:
        """ZH-R3: poisoned, drunk or pinned."""
        return any(s.kind in IMPAIRING for s in self.seat(n).statuses)

    def acts(self, night: int, seat: int, ability: str) -> Event | None:
        """The submission that counts (G-R1): as judged by its step, else the latest one."""
        judged = self.counted.get((night, seat, ability))
        if judged is not None:
            return judged
        evs = [ev for ev in self.submissions(night, seat, ability) if ev.line not in self.refused]
        return evs[-1] if evs else None

    def submissions(self, night: int, seat: int, ability: str) -> list[Event]:
        """Every submission of ``seat``'s ``ability`` on ``night``, in ledger order."""
        return [ev for ev in self.night_actions.get(night, [])
                if ev.get("seat") == seat and ev.get("ability") == ability]

    def choose(self, night: int, seat: int, ability: str, judge=None) -> tuple[Event | None, list[int]]:
        """G-R1: the submission that counts, with its targets. ``judge(targets)`` returns why the
        rules refuse a submission (Chinese, with its rule id) or None. A refused submission is
        kept as a fact and shown refused, and never counts (as a use, as tonight's choice, or as
        "the previous choice" of a no-repeat rule); the last valid one counts and replaces any
        earlier valid one."""
        chosen, chosen_ts = None, []
        for ev in self.submissions(night, seat, ability):
            ts = _targets(self, ev)
            if not ts:
                continue
            why = judge(ts) if judge is not None else None
            if why:
                self.problem(ev, why)
                self.refused[ev.line] = why
                continue
            if chosen is not None:
                self.replaces[ev.line] = chosen
            chosen, chosen_ts = ev, ts
        if chosen is not None:
            self.counted[(night, seat, ability)] = chosen
        return chosen, chosen_ts

    def answer(self, key: str):
        self.keys_seen.add(key)
        return self.answers.get(key, _MISSING)

    def ask(self, key: str, text: str, options: list[str]):
        self.keys_seen.add(key)
        if key not in self.answers and all(q.key != key for q in self.questions):
            self.questions.append(Question(key, text, options))

    def problem(self, ev: Event | None, msg: str):
        """A submission the rules refuse (kept as a fact, shown as 不受理)."""
        self.problems.append((ev.line if ev is not None else None, msg))

    def damage(self, ev: Event | None, msg: str):
        """A line replay cannot use (a seat that does not exist, an advance out of turn): ledger damage."""
        self.problem(ev, msg)
        self.damaged.append(self.problems[-1])

    def log(self, text: str, public: bool = False, reveal: bool = False):
        """An entry of the timeline. ``public``: the town saw it; ``reveal``: a fact of the grimoire that the
        end post shows (a role change); neither: a note for the storyteller only (principle 6)."""
        self.timeline.append((None, text, public))
        self.timeline_when.append((self.phase, self.number, public or reveal))

    def demon_seats(self, alive: bool = True) -> list[Seat]:
        return [s for s in self.seats if is_demon(s.character) and (s.alive or not alive)]


_MISSING = object()


def _seat_of(value) -> int | None:
    """An answer naming a seat: 5, "5", "5号"; None/"无"/"none" → None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, list) and value:
        return _seat_of(value[0])
    if isinstance(value, str):
        v = value.strip().rstrip("号")
        if v.isdigit():
            return int(v)
    return None


# How a storyteller answers a yes/no question (狂徒's death); ``answer`` refuses any other word.
YES_WORDS = ("yes", "true", "是", "1", "死亡", "y")
NO_WORDS = ("no", "false", "否", "0", "存活", "n")


def _yes(value) -> bool:
    if isinstance(value, bool):
        return value
    return str(value).strip().lower() in YES_WORDS


def _targets(b: Board, ev: Event | None) -> list[int]:
    if ev is None:
        return []
    out = []
    for t in ev.get("targets") or []:
        n = _seat_of(t)
        if n is None or not 1 <= n <= len(b.seats):
            b.damage(ev, f"目标「{t}」不是有效的座位号")
            return []
        out.append(n)
    return out


def _ordinal(phase: str, n: int) -> int:
    return 2 * n - 1 if phase == "night" else 2 * n


def _expire(b: Board, phase: str, n: int):
    """ZH-R3: statuses end at the phase boundary they name."""
    now = _ordinal(phase, n)
    for s in b.seats:
        s.statuses = [st for st in s.statuses if st.until is None or _ordinal(*st.until) > now]


def _team_of(character: str) -> str:
    return role(character).team
