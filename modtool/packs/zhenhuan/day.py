"""The day of the 甄嬛 script: nominations, votes, day abilities, the execution.

Pure functions over a ``Grimoire`` (the grimoire at the start of the day;
it is never changed: ``DayReport.grimoire`` is a changed copy, and
``apply_day`` copies it back for a caller that wants that).

Rulings: ZH-R11 (nominations, votes, execution), ZH-R10 (纯元皇后, 太后, 华妃's
一丈红, 齐妃, 敦亲王, 祺贵人), ZH-R12 (胧月 executed: her team loses), ZH-R3
(impaired = poisoned / drunk / pinned: no effect).

Events are ledger dicts (``modtool.packs.zhenhuan.events``): ``nominate``,
``vote`` and ``day_action``. The lists may hold every day's events: only
``day`` counts, except that yesterday's ``silence`` is read for 齐妃's "not
the same one two days running". Order: by ``line`` (ledger line) when every
event of the day has one, else by ``at``, else nominations, votes, actions in
list order. ``events_report`` takes one list already in ledger order (each
dict with ``type``).

Day actions (``ability``): ``silence`` (齐妃, targets [seat]),
``not_complied`` (the storyteller's fact: the silenced seat did not comply;
``targets`` [seat], or ``seat`` = the silenced seat), ``drunk`` (敦亲王,
targets [seat]), ``accuse`` (祺贵人, targets [seat], ``guess`` a role id or
its Chinese name), ``force_execute`` (太后, targets [nominee]).

An execution ends the day (the storyteller then calls night, as the script's
notes say for 纯元皇后, 太后 and 齐妃): later events of the day are invalid.

Spent once-per-game abilities (纯元皇后's first nomination, 太后) are read
from a ``Status(kind="used")`` on the seat, which ``DayReport`` adds.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from modtool.packs.zhenhuan.state import Death, Grimoire, Seat, Status

IMPAIRED = ("poisoned", "drunk", "pinned")  # ZH-R3

# Role id -> (Chinese name, type). Pinyin ids and Chinese names both resolve;
# ``DayRules.from_roles`` builds the table from games/zhenhuan.yaml instead.
_DEFAULT_ROLES: dict[str, tuple[str, str]] = {
    "zhenhuan": ("甄嬛", "townsfolk"),
    "jinxi": ("瑾汐姑姑", "townsfolk"),
    "guojunwang": ("果郡王", "townsfolk"),
    "wentaiyi": ("温太医", "townsfolk"),
    "qiguiren": ("祺贵人", "townsfolk"),
    "yurao": ("玉娆", "townsfolk"),
    "huanbi": ("浣碧", "townsfolk"),
    "jingfei": ("敬妃", "townsfolk"),
    "sanage": ("三阿哥", "townsfolk"),
    "niangengyao": ("年羹尧", "townsfolk"),
    "chunyuan": ("纯元皇后", "townsfolk"),
    "taihou": ("太后", "townsfolk"),
    "yelanyi": ("叶澜依", "townsfolk"),
    "qifei": ("齐妃", "outsider"),
    "dunqinwang": ("敦亲王", "outsider"),
    "longyue": ("胧月", "outsider"),
    "sundaying": ("孙答应", "outsider"),
    "kuangtu": ("狂徒", "outsider"),
    "supeisheng": ("苏培盛", "minion"),
    "anlingrong": ("安陵容", "minion"),
    "huafei": ("华妃", "minion"),
    "huanghou": ("皇后", "minion"),
    "chongfei": ("宠妃", "minion"),
    "huangshang": ("皇上", "demon"),
    "taishanghuang": ("太上皇", "demon"),
    "nvhuang": ("女皇", "demon"),
}
_ALIASES = {"nian": "niangengyao", "nian_gengyao": "niangengyao", "jinxi_guguo": "jinxi", "huangdi": "huangshang"}


@dataclass(frozen=True)
class DayRules:
    """Which role ids carry the day abilities, each role's type, and the judgement calls.

    ``names``: role id -> Chinese name; ``types``: role id -> townsfolk |
    outsider | minion | demon. Ability holders are found by Chinese name, so
    any role ids work once ``names`` is right."""

    names: Mapping[str, str] = field(default_factory=lambda: {k: v[0] for k, v in _DEFAULT_ROLES.items()})
    types: Mapping[str, str] = field(default_factory=lambda: {k: v[1] for k, v in _DEFAULT_ROLES.items()})
    # Judgement calls (RULINGS.md is silent; decided as a careful storyteller would):
    dead_nominee_allowed: bool = False  # ZH-R11 speaks of living characters being nominated
    accuse_once_per_day: bool = True  # 祺贵人: "by day" — one accusation a day

    @classmethod
    def from_roles(cls, roles: Mapping[str, Mapping], **options) -> DayRules:
        """From the ``roles`` mapping of games/zhenhuan.yaml: id -> {name, type|kind|category}."""
        names, types = {}, {}
        for rid, r in roles.items():
            r = r or {}
            names[str(rid)] = str(r.get("name", rid))
            t = r.get("type") or r.get("kind") or r.get("category") or ""
            types[str(rid)] = str(t)
        return cls(names=names, types=types, **options)

    def name(self, character: str) -> str:
        c = _ALIASES.get(character, character)
        return self.names.get(c, character)

    def type_of(self, character: str) -> str:
        c = _ALIASES.get(character, character)
        if c in self.types:
            return self.types[c]
        for rid, nm in self.names.items():  # a Chinese name used as the id
            if nm == character:
                return self.types.get(rid, "")
        return ""

    def is_(self, character: str, chinese: str) -> bool:
        return self.name(character) == chinese


# ---------------------------------------------------------------- results


@dataclass
class Invalid:
    kind: str  # nominate | vote | day_action
    event: dict
    reason: str  # Chinese, names the seat and the floor if any


@dataclass
class NominationResult:
    nominator: int
    nominee: int
    floor: int | None
    at: str | None
    living: int  # living characters when the nomination was made
    threshold: int  # half of the living, rounded up (ZH-R11)
    voters: list[int] = field(default_factory=list)  # in order, valid votes only
    ghost_voters: list[int] = field(default_factory=list)  # those of voters who spent their ghost vote

    @property
    def votes(self) -> int:
        return len(self.voters)

    @property
    def reaches(self) -> bool:
        return self.votes >= self.threshold


@dataclass
class Execution:
    seat: int
    cause: str  # vote | chunyuan | taihou | qifei
    votes: int | None = None
    note: str = ""  # Chinese


@dataclass
class Accusation:
    """祺贵人's accusation (ZH-R10); the night consequences are the engine's."""

    day: int
    seat: int  # 祺贵人
    target: int
    guess: str
    actual: str  # the target's current character id
    right: bool
    impaired: bool  # ZH-R3: the accusation has no effect
    floor: int | None = None


@dataclass
class DayReport:
    day: int
    nominations: list[NominationResult] = field(default_factory=list)
    invalid: list[Invalid] = field(default_factory=list)
    execution: Execution | None = None
    deaths: list[Death] = field(default_factory=list)  # every death of the day, in order
    statuses: list[tuple[int, Status]] = field(default_factory=list)  # added today (seat, status)
    ghost_votes_spent: list[int] = field(default_factory=list)
    silenced: list[int] = field(default_factory=list)
    accusations: list[Accusation] = field(default_factory=list)
    winner: str | None = None  # ZH-R12 胧月: the other team wins at once
    reminders: list[str] = field(default_factory=list)  # for the storyteller, Chinese
    replaced: dict = field(default_factory=dict)  # G-R1: line of a valid use -> the earlier use (dict) it replaced
    grimoire: Grimoire | None = None  # the grimoire at dusk (a copy)

    @property
    def ok(self) -> bool:
        return not self.invalid


# ---------------------------------------------------------------- helpers


def impaired(seat: Seat, day: int | None = None) -> bool:
    """ZH-R3: poisoned, drunk or pinned (a status still in force on ``day``)."""
    return any(s.kind in IMPAIRED and (day is None or _active(s, day)) for s in seat.statuses)


def _active(st: Status, day: int) -> bool:
    """Whether a status is still on during day ``day`` (its ``until`` not yet reached)."""
    if st.until is None:
        return True
    phase, n = st.until
    if phase == "dusk":
        return n >= day
    if phase == "day":  # ends when day n begins
        return n > day
    if phase == "night":  # night n begins after day n-1
        return n > day
    return True


def _has(seat: Seat, kind: str, day: int) -> bool:
    return any(s.kind == kind and _active(s, day) for s in seat.statuses)


def _who(grim: Grimoire, n: int | None) -> str:
    if isinstance(n, int) and 1 <= n <= len(grim.seats):
        return f"{n}号（{grim.seat(n).player}）"
    return f"{n}号"


def _where(ev: dict) -> str:
    f = ev.get("floor")
    return f"{f}楼 " if f is not None else ""


def _seat_ok(grim: Grimoire, n) -> bool:
    return isinstance(n, int) and not isinstance(n, bool) and 1 <= n <= len(grim.seats)


def half_of_living(grim: Grimoire) -> int:
    """ZH-R11: votes needed = half of the living, rounded up."""
    return (len(grim.alive()) + 1) // 2


def winner_after_execution(grim: Grimoire, seat: int, rules: DayRules | None = None, day: int | None = None) -> str | None:
    """ZH-R12: 胧月 executed -> her team loses at once; returns the winning team
    (or None). An impaired 胧月 has no ability (ZH-R3)."""
    rules = rules or DayRules()
    s = grim.seat(seat)
    if not rules.is_(s.character, "胧月") or impaired(s, day):
        return None
    return "evil" if s.team == "good" else "good"


def _ordered(day: int, nominations, votes, day_actions) -> list[dict]:
    evs: list[tuple[int, int, dict]] = []
    for k, (typ, lst) in enumerate((("nominate", nominations), ("vote", votes), ("day_action", day_actions))):
        for i, e in enumerate(lst or ()):
            if e.get("day") == day:
                evs.append((k, i, {**e, "type": typ}))
    if evs and all(e.get("line") is not None for _, _, e in evs):
        evs.sort(key=lambda t: t[2]["line"])
    elif evs and all(e.get("at") for _, _, e in evs):
        evs.sort(key=lambda t: (str(t[2]["at"]), t[0], t[1]))
    return [e for _, _, e in evs]


# ---------------------------------------------------------------- the day


def day_report(grim: Grimoire, day: int, nominations: list[dict], votes: list[dict], day_actions: list[dict],
               rules: DayRules | None = None) -> DayReport:
    """Everything that happened on day ``day`` (ZH-R10, ZH-R11, ZH-R12)."""
    yesterday = [a for a in day_actions or () if a.get("day") == day - 1]
    return events_report(grim, day, _ordered(day, nominations, votes, day_actions), rules, yesterday=yesterday)


def execution(grim: Grimoire, day: int, nominations: list[dict], votes: list[dict], day_actions: list[dict],
              rules: DayRules | None = None) -> Execution | None:
    """Who is executed on day ``day`` (at dusk by the vote, or at once by an ability), if anyone."""
    return day_report(grim, day, nominations, votes, day_actions, rules).execution


def events_report(grim: Grimoire, day: int, events: Iterable[dict], rules: DayRules | None = None,
                  yesterday: Iterable[dict] = ()) -> DayReport:
    """``day_report`` over one list of events in ledger order, each with ``type``."""
    rules = rules or DayRules()
    g = copy.deepcopy(grim)
    d = _Day(g, day, rules, list(yesterday))
    for ev in events:
        if ev.get("day", day) != day:
            continue
        typ = ev.get("type")
        if d.report.execution is not None:
            ex = d.report.execution
            d.bad(typ or "?", ev, f"{_where(ev)}今天已处决{_who(g, ex.seat)}，白天已结束，不再计入")
            continue
        if typ == "nominate":
            d.nominate(ev)
        elif typ == "vote":
            d.vote(ev)
        elif typ == "day_action":
            d.action(ev)
        else:
            d.bad(str(typ), ev, f"{_where(ev)}未知的白天事件：{typ}")
    if d.report.execution is None:
        d.dusk()
    d.report.grimoire = g
    return d.report


def apply_day(grim: Grimoire, report: DayReport) -> None:
    """Copy the dusk grimoire of ``report`` into ``grim`` (the one mutating helper)."""
    after = report.grimoire
    if after is None:
        return
    grim.seats = after.seats
    grim.deaths = after.deaths
    grim.winner = after.winner
    grim.phase = after.phase
    grim.timeline = after.timeline
    grim.questions = after.questions


class _Day:
    def __init__(self, g: Grimoire, day: int, rules: DayRules, yesterday: list[dict]):
        self.g, self.day, self.rules = g, day, rules
        self.report = DayReport(day=day)
        self.nominated_by: dict[int, dict] = {}  # nominator -> event
        self.noms: dict[int, NominationResult] = {}  # nominee -> result
        self.voted: set[tuple[int, int]] = set()
        self.used_today: dict[str, dict] = {}  # ability -> event (once-a-day abilities)
        self.silence: dict[int, tuple[int, bool]] = {}  # silenced seat -> (齐妃 seat, impaired then)
        self.accused_today: Accusation | None = None
        self.added: dict[str, list[tuple[int, Status]]] = {}  # ability -> statuses today's use added
        known = getattr(g, "silenced_on", None)
        if isinstance(known, dict):
            # G-R1: only yesterday's valid silence is "yesterday's" (the engine kept it at dusk).
            self.yesterday_silenced = {known[day - 1]} if known.get(day - 1) is not None else set()
        else:  # a bare grimoire: yesterday's silences as given
            self.yesterday_silenced = {
                a["targets"][0] for a in yesterday
                if a.get("ability") == "silence" and a.get("targets") and isinstance(a["targets"][0], int)
            }

    # -- results
    def bad(self, kind: str, ev: dict, reason: str) -> None:
        self.report.invalid.append(Invalid(kind, ev, reason))

    def add_status(self, seat: int, st: Status) -> None:
        self.g.seat(seat).statuses.append(st)
        self.report.statuses.append((seat, st))

    def die(self, seat: int, cause: str, at=None) -> None:
        s = self.g.seat(seat)
        s.alive = False
        death = Death(seat=seat, cause=cause, phase="day", number=self.day)
        self.g.deaths.append(death)
        self.report.deaths.append(death)

    def execute(self, seat: int, cause: str, votes: int | None, note: str) -> None:
        s = self.g.seat(seat)
        self.report.execution = Execution(seat=seat, cause=cause, votes=votes, note=note)
        if s.alive:
            win = winner_after_execution(self.g, seat, self.rules, self.day)
            self.die(seat, "execution")
            if win:  # ZH-R12
                self.report.winner = win
                self.g.winner = win
                self.g.phase = "over"
                self.report.reminders.append(f"{_who(self.g, seat)}是胧月，被处决：{_team(s.team)}阵营立即失败，游戏结束")
        self.g.timeline.append((None, f"第{self.day}天：{note}", True))

    def holder(self, seat: Seat, chinese: str) -> bool:
        return self.rules.is_(seat.character, chinese)

    # -- nominations (ZH-R11, ZH-R10 纯元皇后 / 华妃)
    def nominate(self, ev: dict) -> None:
        g, w = self.g, _where(ev)
        a, b = ev.get("nominator"), ev.get("nominee")
        if not _seat_ok(g, a):
            return self.bad("nominate", ev, f"{w}提名者{a}号不是本局的座位")
        if not _seat_ok(g, b):
            return self.bad("nominate", ev, f"{w}{_who(g, a)}提名的{b}号不是本局的座位")
        sa, sb = g.seat(a), g.seat(b)
        if not sa.alive:
            return self.bad("nominate", ev, f"{w}{_who(g, a)}已死亡，不能提名")
        if a in self.nominated_by:
            first = self.nominated_by[a]
            return self.bad("nominate", ev, f"{w}{_who(g, a)}今天已经提名过（{_where(first)}提名{_who(g, first['nominee'])}），每天只能提名一次")
        if b in self.noms:
            return self.bad("nominate", ev, f"{w}{_who(g, b)}今天已经被提名过，每天只能被提名一次")
        if not sb.alive and not self.rules.dead_nominee_allowed:
            return self.bad("nominate", ev, f"{w}{_who(g, b)}已死亡，不能被提名")
        self.nominated_by[a] = ev
        # 华妃's 一丈红 (ZH-R10): the character dies when it nominates; the day goes on.
        if _has(sa, "yizhanghong", self.day):
            self.die(a, "yizhanghong")
            self.report.reminders.append(f"{w}{_who(g, a)}身负一丈红并发起了提名，已因此死亡（ZH-R10；提名照常进行）")
        res = NominationResult(nominator=a, nominee=b, floor=ev.get("floor"), at=ev.get("at"),
                               living=len(g.alive()), threshold=half_of_living(g))
        self.noms[b] = res
        self.report.nominations.append(res)
        # 纯元皇后 (ZH-R10): the first time she is nominated, a townsfolk nominator is executed at once.
        if self.holder(sb, "纯元皇后") and sb.alive and not sb.has("used"):
            self.add_status(b, Status("used", source=str(b), note="chunyuan"))
            if impaired(sb, self.day):
                self.report.reminders.append(f"{w}纯元皇后{_who(g, b)}首次被提名，但她中毒/醉酒/被按住：技能无效（已用掉）")
            elif self.rules.type_of(sa.character) == "townsfolk" and g.seat(a).alive:
                self.execute(a, "chunyuan", None, f"{_who(g, a)}（村民）提名纯元皇后{_who(g, b)}，立即被处决")

    # -- votes (ZH-R11)
    def vote(self, ev: dict) -> None:
        g, w = self.g, _where(ev)
        v, b = ev.get("voter"), ev.get("nominee")
        if not _seat_ok(g, v):
            return self.bad("vote", ev, f"{w}投票者{v}号不是本局的座位")
        res = self.noms.get(b) if isinstance(b, int) else None
        if res is None:
            return self.bad("vote", ev, f"{w}{_who(g, v)}投给的{_who(g, b)}今天没有被有效提名（只能投给当天的被提名者）")
        if (v, b) in self.voted:
            return self.bad("vote", ev, f"{w}{_who(g, v)}已经给{_who(g, b)}投过票，同一被提名者只能投一次")
        sv = g.seat(v)
        if not sv.alive:
            if not sv.ghost_vote:
                return self.bad("vote", ev, f"{w}{_who(g, v)}已死亡，亡魂票已经用过（死亡角色整局只有一票）")
            sv.ghost_vote = False
            self.report.ghost_votes_spent.append(v)
            res.ghost_voters.append(v)
        self.voted.add((v, b))
        res.voters.append(v)

    # -- day abilities (ZH-R10)
    def action(self, ev: dict) -> None:
        ab = ev.get("ability")
        fn = {
            "silence": self.silence_,
            "not_complied": self.not_complied,
            "drunk": self.drunk,
            "accuse": self.accuse,
            "force_execute": self.force_execute,
        }.get(ab)
        if fn is None:
            return self.bad("day_action", ev, f"{_where(ev)}未知的白天技能：{ab}")
        fn(ev)

    def _actor(self, ev: dict, chinese: str) -> Seat | None:
        g, w, n = self.g, _where(ev), ev.get("seat")
        if not _seat_ok(g, n):
            self.bad("day_action", ev, f"{w}发动者{n}号不是本局的座位")
            return None
        s = g.seat(n)
        if not self.holder(s, chinese):
            self.bad("day_action", ev, f"{w}{_who(g, n)}不是{chinese}，不能发动此技能")
            return None
        if not s.alive:
            self.bad("day_action", ev, f"{w}{chinese}{_who(g, n)}已死亡，技能不能发动")
            return None
        return s

    def _target(self, ev: dict, living: bool = True) -> int | None:
        g, w = self.g, _where(ev)
        ts = ev.get("targets") or []
        t = ts[0] if ts else None
        if not _seat_ok(g, t):
            self.bad("day_action", ev, f"{w}{_who(g, ev.get('seat'))}的技能目标{t}号不是本局的座位")
            return None
        if living and not g.seat(t).alive:
            self.bad("day_action", ev, f"{w}{_who(g, ev.get('seat'))}的技能目标{_who(g, t)}已死亡")
            return None
        return t

    def _once_today(self, ev: dict, key: str, chinese: str) -> bool:
        """Once a day (ZH-R10), and G-R1: a later valid use the same day replaces the earlier
        one (its effect is taken back), so this only makes room for it and says which it replaces."""
        first = self.used_today.get(key)
        if first is not None:
            self.report.replaced[ev.get("line")] = first
            for seat, st in self.added.pop(key, []):
                if st in self.g.seat(seat).statuses:
                    self.g.seat(seat).statuses.remove(st)
                if (seat, st) in self.report.statuses:
                    self.report.statuses.remove((seat, st))
            if key == "silence":
                self.silence.clear()
                self.report.silenced.clear()
            elif key == "accuse" and self.accused_today in self.report.accusations:
                self.report.accusations.remove(self.accused_today)
        return True

    def _add_for(self, key: str, seat: int, st: Status) -> None:
        self.add_status(seat, st)
        self.added.setdefault(key, []).append((seat, st))

    def silence_(self, ev: dict) -> None:
        s = self._actor(ev, "齐妃")
        if s is None:
            return
        t = self._target(ev)
        if t is None:
            return
        if t in self.yesterday_silenced:  # ZH-R10; G-R1: a refused one is never "yesterday's"
            return self.bad("day_action", ev, f"{_where(ev)}齐妃{_who(self.g, s.number)}昨天已禁言{_who(self.g, t)}，不能连续两天禁言同一人（ZH-R10）")
        self._once_today(ev, "silence", "齐妃")
        self.used_today["silence"] = ev
        imp = impaired(s, self.day)
        self.silence[t] = (s.number, imp)
        self.report.silenced.append(t)
        self._add_for("silence", t, Status("silenced", source=str(s.number), until=("dusk", self.day),
                                  note="齐妃禁言" + ("（齐妃受损，不配合也不处决）" if imp else "")))

    def not_complied(self, ev: dict) -> None:
        g, w = self.g, _where(ev)
        ts = ev.get("targets") or []
        t = ts[0] if ts else ev.get("seat")
        if not _seat_ok(g, t) or t not in self.silence:
            return self.bad("day_action", ev, f"{w}{_who(g, t)}今天没有被齐妃有效禁言，「不配合」无从谈起")
        q, imp = self.silence[t]
        if imp or impaired(g.seat(q), self.day) or not g.seat(q).alive:
            self.report.reminders.append(f"{w}{_who(g, t)}不配合禁言，但齐妃{_who(g, q)}受损（中毒/醉酒/按住）或已死亡：不处决")
            return
        if not g.seat(t).alive:
            return self.bad("day_action", ev, f"{w}{_who(g, t)}已死亡")
        self.execute(t, "qifei", None, f"{_who(g, t)}不配合齐妃的禁言，被强制处决")

    def drunk(self, ev: dict) -> None:
        s = self._actor(ev, "敦亲王")
        if s is None:
            return
        t = self._target(ev)
        if t is None or not self._once_today(ev, "drunk", "敦亲王"):
            return
        self.used_today["drunk"] = ev
        if impaired(s, self.day):  # ZH-R3: played along, no token
            self.report.reminders.append(f"{_where(ev)}敦亲王{_who(self.g, s.number)}受损：配合演出，但{_who(self.g, t)}不醉酒")
            return
        # ZH-R3: drunk until the next day begins.
        self._add_for("drunk", t, Status("drunk", source=str(s.number), until=("day", self.day + 1), note="敦亲王"))

    def accuse(self, ev: dict) -> None:
        s = self._actor(ev, "祺贵人")
        if s is None:
            return
        t = self._target(ev, living=False)
        if t is None:
            return
        guess = str(ev.get("guess") or "")
        if not guess:
            return self.bad("day_action", ev, f"{_where(ev)}祺贵人{_who(self.g, s.number)}检举{_who(self.g, t)}，但没有写猜的角色")
        if self.rules.accuse_once_per_day:
            self._once_today(ev, "accuse", "祺贵人")
        self.used_today["accuse"] = ev
        actual = self.g.seat(t).character
        right = guess == actual or self.rules.name(guess) == self.rules.name(actual)
        self.accused_today = Accusation(day=self.day, seat=s.number, target=t, guess=guess, actual=actual,
                                        right=right, impaired=impaired(s, self.day), floor=ev.get("floor"))
        self.report.accusations.append(self.accused_today)

    def force_execute(self, ev: dict) -> None:
        g, w = self.g, _where(ev)
        s = self._actor(ev, "太后")
        if s is None:
            return
        if s.has("used"):
            return self.bad("day_action", ev, f"{w}太后{_who(g, s.number)}的强制处决整局只能用一次，已经用过")
        if _has(s, "pinned", self.day):
            return self.bad("day_action", ev, f"{w}太后{_who(g, s.number)}被宠妃按住，技能无法发动")
        ts = ev.get("targets") or []
        t = ts[0] if ts else None
        if not isinstance(t, int) or t not in self.noms:
            return self.bad("day_action", ev, f"{w}太后{_who(g, s.number)}的目标{_who(g, t)}今天没有被提名（只能在提名投票后处决被提名者）")
        self.add_status(s.number, Status("used", source=str(s.number), note="force_execute"))
        if impaired(s, self.day):  # poisoned/drunk: chosen, spent, nobody dies (ZH-R3)
            self.report.reminders.append(f"{w}太后{_who(g, s.number)}中毒/醉酒：强制处决{_who(g, t)}无效，技能已用掉")
            return
        self.execute(t, "taihou", self.noms[t].votes, f"太后发动强制处决：{_who(g, t)}不论票数被处决")

    # -- dusk (ZH-R11)
    def dusk(self) -> None:
        reach = [r for r in self.report.nominations if r.reaches]
        if not reach:
            return
        top = max(r.votes for r in reach)
        best = [r for r in reach if r.votes == top]
        if len(best) > 1:
            who = "、".join(_who(self.g, r.nominee) for r in best)
            self.report.reminders.append(f"{who}同为最高票（{top}票），平票：今天无人被处决")
            return
        r = best[0]
        self.execute(r.nominee, "vote", r.votes, f"{_who(self.g, r.nominee)}得{r.votes}票（需{r.threshold}票），被处决")


def _team(team: str) -> str:
    return {"good": "善良", "evil": "邪恶"}.get(team, team)
