"""M42 state by replay: days and nights in order, from the ledger's facts.

Nothing here is stored: who is in, the sheriff and every exit are computed
from the posts and submissions each time (DESIGN.md principle 1). Day N's
vote is tallied against the state at the start of day N (M42-R1: day 1
elects the sheriff, from day 2 the vote exiles).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from modtool.gamefile import GameDir
from modtool.m42.tally import DayContext, ProxyVote, Tally, VoteOptions, tally_day
from modtool.m42.voteparse import VoteLabels
from modtool.posts import Post, ReplyRef
from modtool.problems import Problem, UserError
from modtool.timeutil import parse_time


@dataclass(frozen=True)
class Exit:
    name: str
    cause: str  # exile | scapegoat | kill | poison
    phase: str  # day | night
    number: int  # day or night number

    @property
    def label(self) -> str:
        return {"exile": "被投票放逐", "scapegoat": "冤死", "kill": "夜晚出局", "poison": "夜晚出局"}[self.cause]


@dataclass
class NightRecord:
    night: int
    kill: str | None = None
    saved: str | None = None
    poisoned: str | None = None
    checks: list[tuple[str, str]] = field(default_factory=list)  # (seer, target)
    exits: list[Exit] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)


@dataclass
class DayRecord:
    ctx: DayContext
    tally: Tally | None = None
    exits: list[Exit] = field(default_factory=list)


@dataclass
class Replay:
    days: list[DayRecord] = field(default_factory=list)
    nights: list[NightRecord] = field(default_factory=list)
    exits: list[Exit] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)


def vote_labels(gd: GameDir) -> VoteLabels:
    raw = gd.game.data.get("vote_labels", {})
    return VoteLabels(**{k: list(v) for k, v in raw.items()})


def vote_options(gd: GameDir) -> VoteOptions:
    o = gd.options
    return VoteOptions(
        change_limit=int(o["change_limit"]),
        change_freeze_minutes=int(o["change_freeze_minutes"]),
        sheriff_weight=int(o["sheriff_weight"]),
        proxy_freeze_minutes=int(o["proxy_freeze_minutes"]),
    )


def post_of(ev, gd: GameDir) -> Post:
    d = ev.data
    ref = d.get("reply_to")
    reply = None
    if isinstance(ref, dict):
        floor = ref.get("floor")
        reply = ReplyRef(
            pid=str(ref["pid"]) if ref.get("pid") is not None else None,
            floor=floor if isinstance(floor, int) else None,
            author=str(ref["author"]) if ref.get("author") is not None else None,
            time=str(ref["time"]) if ref.get("time") is not None else None,
        )
    return Post(
        pid=str(d.get("pid", "")),
        floor=d["floor"],
        author=str(d["author"]),
        time=parse_time(d["time"], gd.tz),
        body=d["body"],
        edited=d.get("edited"),
        reply_to=reply,
        source=f"{gd.source}:{ev.line}" if ev.line else gd.source,
    )


def _time(ev, key: str, gd: GameDir) -> datetime:
    try:
        return parse_time(ev.data[key], gd.tz)
    except ValueError as exc:
        raise UserError(Problem(gd.source, str(exc), ev.line)) from None


def close_of(gd: GameDir, day: int) -> datetime | None:
    """The last close event recorded for ``day`` (a later one corrects an earlier one)."""
    found = None
    for ev in gd.of_type("close"):
        if ev.data.get("day") == day:
            found = _time(ev, "at", gd)
    return found


def vote_posts(gd: GameDir, day: int) -> list[Post]:
    out = []
    for ev in _posts_by_day(gd, "vote").get(day, ()):
        try:
            out.append(post_of(ev, gd))
        except ValueError as exc:
            raise UserError(Problem(gd.source, str(exc), ev.line)) from None
    return out


def _posts_by_day(gd: GameDir, thread: str) -> dict[int, list]:
    """Post events of one thread grouped by day, computed once per loaded ledger."""
    cache = gd.__dict__.setdefault("_posts_by_day", {})
    if thread not in cache:
        grouped: dict[int, list] = {}
        for ev in gd.of_type("post"):
            if ev.data.get("thread") == thread:
                grouped.setdefault(ev.data.get("day"), []).append(ev)
        cache[thread] = grouped
    return cache[thread]


def proxies_of(gd: GameDir, day: int) -> list[ProxyVote]:
    return [
        ProxyVote(
            voter=ev.data["voter"],
            target=ev.data["target"],
            at=_time(ev, "at", gd),
            kind=ev.data.get("kind", "vote"),
            line=ev.line,
            note=ev.data.get("note", ""),
        )
        for ev in gd.of_type("proxy")
        if ev.data.get("day") == day
    ]


def _role_holder(gd: GameDir, role: str, alive: set[str]) -> str | None:
    for c in gd.roster:
        if c.role == role and c.name in alive:
            return c.name
    return None


def replay(gd: GameDir, until_day: int, close_override: datetime | None = None) -> Replay:
    """Replay every day before ``until_day`` and the nights between them.

    The last DayRecord is ``until_day`` with its context only; the caller
    tallies it (possibly as it stood at a floor or time).
    """
    if until_day < 1:
        raise UserError("天数应从 1 开始")
    rp = Replay()
    alive = {c.name for c in gd.roster}
    sheriff: str | None = None
    scapegoat_bar_day: int | None = None
    labels, options = vote_labels(gd), vote_options(gd)
    potions_used: set[str] = set()
    for day in range(1, until_day + 1):
        close = close_override if (day == until_day and close_override) else close_of(gd, day)
        if close is None:
            raise UserError(
                Problem(gd.source, f"第 {day} 天没有关门时间：在账本里记一条 close 事件，或用 --close 给出")
            )
        ctx = DayContext(
            day=day,
            roster=gd.roster,
            alive=set(alive),
            sheriff=sheriff if sheriff in alive else None,
            barred=_barred(gd, day, scapegoat_bar_day, alive, rp.problems),
            close=close,
            sped_up=any(ev.data.get("day") == day for ev in gd.of_type("speedup")),
            scapegoat=_role_holder(gd, "scapegoat", alive),
        )
        record = DayRecord(ctx)
        rp.days.append(record)
        if day == until_day:
            break
        record.tally = tally_day(ctx, vote_posts(gd, day), proxies_of(gd, day), labels, options)
        result = record.tally.result
        if result["kind"] == "sheriff":
            sheriff = result["target"]
        elif result["kind"] in ("exile", "scapegoat"):
            ex = Exit(result["target"], result["kind"], "day", day)
            record.exits.append(ex)
            alive.discard(ex.name)
            if result["kind"] == "scapegoat":
                scapegoat_bar_day = day + 1
        night = _night(gd, day, alive, potions_used)
        rp.nights.append(night)
        rp.problems += night.problems
        for ex in night.exits:
            alive.discard(ex.name)
        rp.exits += record.exits + night.exits
    return rp


def _barred(gd: GameDir, day: int, bar_day: int | None, alive: set[str], problems: list[Problem]) -> set[str]:
    """M42-R8: only a scapegoat exiled by 冤死 on day-1 may bar voters of day."""
    barred: set[str] = set()
    for ev in gd.of_type("bar"):
        if ev.data.get("day") != day:
            continue
        if bar_day != day:
            problems.append(Problem(gd.source, f"第 {day} 天的禁票无效：前一天替罪羊没有因冤死出局（M42-R8）", ev.line))
            continue
        for name in ev.data.get("voters", []):
            found = gd.roster.lookup(str(name))
            if len(found) != 1:
                problems.append(Problem(gd.source, f"禁票名单里的「{name}」不是角色名", ev.line))
            else:
                barred.add(found[0].name)
    return barred


def _night(gd: GameDir, night: int, alive: set[str], potions_used: set[str]) -> NightRecord:
    """M42-R6 order: wolves' kill, witch's save/poison, seer's check; kill then poison resolve."""
    rec = NightRecord(night)
    witch = next((c.name for c in gd.roster if c.role == "witch"), None)

    def character(label: str, ev) -> str | None:
        found = gd.roster.lookup(label)
        if len(found) != 1:
            rec.problems.append(Problem(gd.source, f"第 {night} 夜：「{label}」不是角色名", ev.line))
            return None
        return found[0].name

    used_tonight: set[str] = set()
    for ev in gd.of_type("act"):
        if ev.data.get("night") != night:
            continue
        ability, actor_label = ev.data["ability"], ev.data["actor"]
        target = character(ev.data["target"], ev) if ev.data.get("target") else None
        if ev.data.get("target") and target is None:
            continue
        if target is not None and target not in alive:
            rec.problems.append(Problem(gd.source, f"第 {night} 夜：目标「{target}」已出局（M42-R6）", ev.line))
            continue
        actor = None if actor_label in ("狼人", "wolves") else character(actor_label, ev)
        role = gd.roster.get(actor).role if actor else "werewolf"
        if actor is not None and actor not in alive:
            rec.problems.append(Problem(gd.source, f"第 {night} 夜：「{actor}」已出局，不能行动", ev.line))
            continue
        if ability == "kill" and role == "werewolf":
            rec.kill = target  # the wolves' latest submission of the night counts
        elif ability in ("save", "poison") and role == "witch":
            if ability in potions_used:
                rec.problems.append(Problem(gd.source, f"第 {night} 夜：女巫的{'救药' if ability == 'save' else '毒药'}已经用过（M42-R6）", ev.line))
            elif used_tonight:
                rec.problems.append(Problem(gd.source, f"第 {night} 夜：救药和毒药不能在同一夜使用（M42-R6）", ev.line))
            elif ability == "save" and target == witch and not gd.options.get("witch_self_save", False):
                rec.problems.append(Problem(gd.source, f"第 {night} 夜：女巫不能自救（M42-R6）", ev.line))
            else:
                used_tonight.add(ability)
                potions_used.add(ability)
                if ability == "save":
                    rec.saved = target
                else:
                    rec.poisoned = target
        elif ability == "check" and role == "seer":
            rec.checks.append((actor, target))
        else:
            rec.problems.append(Problem(gd.source, f"第 {night} 夜：「{actor_label}」没有技能 {ability}", ev.line))
    if rec.kill and rec.kill != rec.saved:
        rec.exits.append(Exit(rec.kill, "kill", "night", night))
    if rec.poisoned and rec.poisoned != (rec.exits[0].name if rec.exits else None):
        rec.exits.append(Exit(rec.poisoned, "poison", "night", night))
    return rec


def check_days(gd: GameDir) -> list[Problem]:
    """Replay every day the ledger speaks of; what replay finds are problems too."""
    days = [ev.data["day"] for ev in gd.events if isinstance(ev.data.get("day"), int)]
    days += [ev.data["night"] + 1 for ev in gd.of_type("act") if isinstance(ev.data.get("night"), int)]
    if not days:
        return []
    last = max(days)
    try:
        rp = replay(gd, last, close_override=close_of(gd, last) or datetime.max.replace(tzinfo=gd.tz))
    except UserError as exc:
        return exc.problems
    return rp.problems
