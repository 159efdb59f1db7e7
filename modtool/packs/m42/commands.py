"""``act`` and ``advance`` for M42, and the director's facts: record the fact, replay, say what it did.

Each appends facts only, after ``rehearse`` replayed them in memory: a
director's typo (a decision the rules refuse, a night's choice entered by
day) is refused before writing. A player's submission that breaks a rule
inside its window is appended all the same (the record is complete, G-R1)
and the refusal is reported from replay.
"""

from __future__ import annotations

from datetime import datetime

from modtool.sdk import (
    character_arg, choice_arg, fmt, GameDir, Message, open_game, Problem, record as record_fact, ref_of,
    require_sound, simulated, UserError,
)
from modtool.packs.m42 import facts
from modtool.packs.m42.engine import ABILITY_NAMES, day_context, day_tally, Engine, phase_label, State, WOLF_WORDS
from modtool.packs.m42.replay import replay
from modtool.packs.m42.windows import phase_window

EXTRA_ABILITIES = ("bar", "last_words")
# How a director may write each ability in `act` (the ledger keeps the id); the first name is shown.
ABILITY_WORDS = {
    "kill": ["杀人", "杀", "刀", "指杀"], "save": ["救药", "救"], "poison": ["毒药", "毒"], "check": ["验人", "验", "查验"],
    "shoot": ["最后一枪", "开枪"], "successor": ["指定继任警长", "继任", "移交警徽"], "surrender": ["投降"],
    "bar": ["禁票"], "last_words": ["遗言"],
}


def act_arguments(gd: GameDir, actor: str, ability: str, targets: list[str]) -> tuple[str, str, list[str]]:
    """``act``'s ACTOR, ABILITY and TARGETS as the ledger keeps them (character names, the ability's id),
    or UserError naming the argument: a typo is refused before anything is written."""
    ability = choice_arg(ability, ABILITY_WORDS, "技能 ABILITY", "这个技能")
    if not (ability == "kill" and actor in WOLF_WORDS):  # the wolves' kill may name the pack
        actor = character_arg(gd.roster, actor, "角色 ACTOR")
    return actor, ability, [character_arg(gd.roster, t, "目标 TARGETS") for t in targets]


def sound_state(gd: GameDir) -> State:
    """The replayed state, or UserError naming the damaged lines: nothing is written on a damaged ledger."""
    if gd.problems:
        require_sound(gd)
    try:
        st = replay(gd)
    except UserError as exc:  # a line replay cannot read (an unparsable time)
        require_sound(gd, exc.problems)
        raise
    require_sound(gd, st.problems)
    return st


def rehearse(gd: GameDir, events: list[dict], players: bool = False) -> None:
    """A director's typo is never a fact: the game is replayed with ``events`` appended,
    in memory, and a problem the replay finds with them refuses them before anything
    is written (as 甄嬛's windows do). Refused: a rule the director's own decision breaks
    (a second substitute, an assistant for a player of 5 games, a decision nobody was
    asked), a line the replay cannot use, and a slip (``Engine.refuse(slip=True)``: a
    night's choice entered by day, an actor who is out). ``players``: the events relay a
    player's submission (``act``): a rule the player broke inside the ability's window
    (a dead target, a self-save, a late save) is a fact, kept and shown as refused (G-R1)."""
    sim = simulated(gd, events)
    try:
        st = replay(sim)
        found = [p for p in st.problems if p.line is not None and p.line > gd.raw_last_line
                 and not (players and p.refused and p not in st.slips)]
    except UserError as exc:  # the new events leave a ledger replay cannot read
        found = [p for p in exc.problems if p.line is None or p.line > gd.raw_last_line] or exc.problems
    if found:
        mine = Message("这次要记下的事件")  # no ledger line names them: none was written
        raise UserError([Problem(mine, "{message}（什么也没写）", message=Message(p.msgid.removeprefix("不受理："), p.args))
                         for p in found])


def _events_after(gd: GameDir, st: State, line: int | None) -> list[Problem]:
    return [p for p in st.problems if line is not None and p.line is not None and p.line >= line]


def record_act(game_dir, actor: str, ability: str, targets: list[str], at, night: int | None,
               text: str | None) -> tuple[State, list[Problem], GameDir, list]:
    gd = open_game(game_dir)
    actor, ability, targets = act_arguments(gd, actor, ability, targets)
    before = sound_state(gd)
    if callable(at):  # the game's clock is asked only once the arguments are known good
        at = at()
    if ability == "bar":
        ev = {"type": "bar", "day": before.number + 1, "voters": list(targets), "at": fmt(at)}
    elif ability == "last_words":
        if not text:
            raise UserError("遗言需要 --text 给出内容")
        ev = {"type": "last_words", "character": actor, "text": text, "at": fmt(at)}
    else:
        if len(targets) > 1:
            raise UserError("<{ABILITY_NAMES}>只能选一个目标", ABILITY_NAMES=ABILITY_NAMES[ability])
        ev = {"type": "act"}
        if night is not None or before.phase == "night":
            ev["night"] = night if night is not None else before.number
        ev.update(actor=actor, ability=ability)
        if targets:
            ev["target"] = targets[0]
        ev["at"] = fmt(at)
    rehearse(gd, [ev], players=True)
    record_fact(gd, [ev])
    gd = open_game(game_dir)
    st = replay(gd)
    new_line = gd.events[-1].line
    return st, _events_after(gd, st, new_line), gd, st.timeline[len(before.timeline):]


def record_event(game_dir, ev: dict, validate=None) -> tuple[State, list[Problem], GameDir]:
    """Append one director's fact, replay, and return what replay says of it.

    ``validate(state)``: raises UserError for a director's mistake the state
    shows (a card number that does not exist), before anything is written."""
    gd = open_game(game_dir)
    st = sound_state(gd)
    if validate is not None:
        validate(st)
    rehearse(gd, [ev])
    record_fact(gd, [ev])
    gd = open_game(game_dir)
    st = replay(gd)
    return st, _events_after(gd, st, gd.events[-1].line), gd


def record_advance(game_dir, at: datetime, typed: bool = True) -> tuple[State, State, GameDir]:
    """Close the current phase; random draws it needs are recorded as ``draw`` events.
    ``typed``: ``at`` was given (``--at``), not the wall clock: only a typed time closes a
    discussion day before its close (M42-R5b); the wall clock before it is refused."""
    gd = open_game(game_dir)
    before = sound_state(gd)
    if before.over:
        raise UserError("游戏已经结束，不能再推进")
    if not typed and before.phase == "day":
        close = Engine(gd, before).day_close(before.number)
        if close is not None and at < close:
            raise UserError(Problem("参数 --at", "第 {day} 天要到 {close} 才关门（M42-R15）：现在（{now}）结算会提前关门，之后的帖子都算迟到，潜水也按这时判；"
                "确实要提前结算请用 --at 写明结算的时间（M42-R5b），否则到关门后再 advance（什么也没写）", day=before.number, close=fmt(close, False), now=fmt(at, False)))

    window = phase_window(gd, before)
    if window.start is not None and at < window.start:  # time does not run backwards
        raise UserError(Problem("参数 --at", "{fmt} 早于{label}开始的时间 {fmt2}，不能在这之前结束这个阶段（什么也没写）", fmt=fmt(at, False), label=window.label, fmt2=fmt(window.start, False)))
    ev = {"type": "advance", "phase": before.phase, "number": before.number, "at": fmt(at)}
    rehearse(gd, [ev])
    record_fact(gd, [ev])
    gd = open_game(game_dir)
    after = replay(gd)
    recorded = {(e.data.get("for"), e.data.get("number")) for e in gd.of_type("draw")}
    draws = []
    for i, (_, name, how) in enumerate(after.sheriff_log):
        if how.startswith("随机") and ("sheriff", i) not in recorded:
            draws.append({"type": "draw", "for": "sheriff", "number": i, "chosen": name,
                          "note": f"种子 {gd.header.get('seed')} 抽出（M42-R9）"})
    if draws:
        record_fact(gd, draws)
        gd = open_game(game_dir)
        after = replay(gd)
    return before, after, gd


# -- the director's facts of a day and of a notice ---------------------------------------


def _fresh(game_dir) -> tuple[GameDir, State]:
    gd = open_game(game_dir)
    if gd.problems:
        raise UserError(gd.problems)
    return gd, replay(gd)


def _started(gd: GameDir, st: State, day: int, what: str):
    rec = st.days.get(day)
    if rec is None:
        raise UserError(Problem("命令行 --day", "第 {day} 天还没有开始（当前：{phase_label}）；开始后再记录{what}", day=day, phase_label=phase_label(st), what=what))
    return rec


def _append(gd: GameDir, ev: dict) -> tuple[GameDir, State]:
    rehearse(gd, [ev])
    record_fact(gd, [ev])
    return _fresh(gd.path)


def record_close(game_dir, day: int, at: datetime, note: str | None, force: bool = False) -> list[str]:
    """A close event for ``day`` (M42-R15); a later one for the same day supersedes it.
    A day already settled takes a new close only with ``force``: replay then recounts
    that day, and every night and exit after it may change."""
    gd, st = _fresh(game_dir)
    rec = _started(gd, st, day, "关门时间")
    if rec.opened is not None and at <= rec.opened:
        raise UserError(Problem("命令行 --at", "关门时间 {fmt} 早于第 {day} 天开始的时间 {fmt2}", fmt=fmt(at, False), day=day, fmt2=fmt(rec.opened, False)))
    if rec.closed is not None and not force:
        raise UserError(Problem("命令行 --day", "第 {day} 天已经结算（{fmt} 关门）：改它的关门时间会重新计票，之后的夜晚行动、出局和已发的公告都可能改变；确实要改请加 --force（什么也没写）", day=day, fmt=fmt(rec.closed, False)))
    said = [f"已记录：第 {day} 天 {fmt(at, False)} 关门"]
    earlier = facts.close_of(gd, day)
    if earlier is not None:
        said.append(f"  取代之前记录的 {fmt(earlier, False)}")
    if rec.closed is not None:
        said.append(f"  第 {day} 天已经结算：重放按新的关门时间重新计票（提前 advance 的仍在 advance 时关门，M42-R5b）")
    ev = {"type": "close", "day": day, "at": fmt(at)}
    if note:
        ev["note"] = note
    _append(gd, ev)
    return said


def record_open(game_dir, day: int, at: datetime, force: bool = False) -> str:
    """When day 1 opened (M42-R15); later days open with ``advance`` from dawn."""
    if day != 1:
        raise UserError(Problem("命令行 --day", "第 {day} 天由黎明时的 modtool advance 开始，开始时间就是那次 advance 的 --at；open 只记录第 1 天的开始", day=day))
    gd, st = _fresh(game_dir)
    rec = st.days.get(1)
    if rec is not None and rec.closed is not None and not force:
        raise UserError(Problem("命令行 --day", "第 1 天已经结算（{fmt} 关门）：改开始时间会重算关门时间并重新计票，之后的一切都可能改变；确实要改请加 --force（什么也没写）", fmt=fmt(rec.closed, False)))
    first = min(facts.post_times(gd, [e for e in gd.of_type("post") if e.data.get("day") == 1]), default=None)
    if first is not None and at > first and not force:
        raise UserError(Problem("命令行 --at", "已经导入了 {fmt} 的帖子，早于这个开始时间 {fmt2}；确实是这个时间请加 --force（什么也没写）", fmt=fmt(first, False), fmt2=fmt(at, False)))
    _append(gd, {"type": "open", "day": 1, "at": fmt(at)})
    return f"已记录：第 1 天 {fmt(at, False)} 开始"


def _character(gd: GameDir, label: str, argument: str) -> str:
    return character_arg(gd.roster, label, argument)


def record_proxy(game_dir, voter: str, target: str, day: int | None, at: datetime, kind: str,
                 note: str | None) -> tuple[str, list[Problem]]:
    """A delegated vote (代投, M42-R5): recorded with an explicit target; the day's tally
    judges it (e.g. refused in the last hour before close) and the refusal stays on record."""
    if kind not in ("vote", "change"):
        raise UserError(Problem("命令行 --kind", "应为 vote（投票）或 change（改票），而不是「{kind}」", kind=kind))
    gd, st = _fresh(game_dir)
    if day is None:
        if st.phase != "day":
            raise UserError(Problem("命令行 --day", "现在是{phase_label}，请用 --day 给出是第几天的代投", phase_label=phase_label(st)))
        day = st.number
    rec = _started(gd, st, day, "代投")
    close = Engine(gd, st).day_close(day)
    if (rec.opened is not None and at < rec.opened) or (close is not None and at > close):
        # M42-R5: a delegated vote is a vote of its day; a time outside the day is a typo of --at or --day.
        span = f"{fmt(rec.opened, False) if rec.opened else '？'} 至 {fmt(close, False) if close else '？'}"
        raise UserError(Problem("命令行 --at", "代投时间 {fmt} 不在第 {day} 天之内（{span}，M42-R5）：请检查 --at 和 --day（什么也没写）", fmt=fmt(at, False), day=day, span=span))
    name = _character(gd, voter, "投票人 VOTER")
    abstain = target.strip() in facts.vote_labels(gd).abstain
    whom = target.strip() if abstain else _character(gd, target, "投票对象 TARGET")
    ev = {"type": "proxy", "day": day, "voter": name, "target": whom, "at": fmt(at)}
    if kind != "vote":
        ev["kind"] = kind
    if note:
        ev["note"] = note
    gd, st = _append(gd, ev)
    line = gd.events[-1].line

    ref = ref_of(gd.events[-1])
    t = day_tally(gd, day_context(gd, st, day))
    refused = [Problem(gd.source, "代投不受理：{removeprefix}", line, removeprefix=e['reason'].removeprefix('代投：'))
               for e in t.invalid if e.get("proxy") and e.get("event") == ref]
    return f"已记录代投：第 {day} 天 {name} → {whom}（{fmt(at, False)}）", refused


def record_notice(game_dir, to: str, night: int | None, when, explicit: bool = False) -> tuple[GameDir, State, str]:
    """M42-R15: when the witch was told the kill target / the hunter that he may shoot.
    Recorded once (the first notice counts); ``when()`` gives the time, asked only when
    a notice is to be written. A past night's witch notice is only re-rendered unless
    the time is given (``explicit``: ``--told-at``)."""
    gd, st = _fresh(game_dir)
    eng = Engine(gd, st)
    if to == "witch":
        n = night if night is not None else st.number
        rec = st.nights.get(n)
        if rec is None:
            raise UserError("第 {n} 夜还没有开始", n=n)
        since = rec.kill_at or rec.start
        already = facts.first_notice(gd, "witch", since, night=n)
        if already is not None:
            return gd, st, f"女巫已在 {fmt(already, False)} 得知第 {n} 夜的指杀目标（账本里已有记录），时限 {fmt(eng.witch_due(n), False)}"
        if not explicit and (st.phase, st.number) != ("night", n):
            return gd, st, f"第 {n} 夜已经过去，没有记录通知女巫的时间（要补记，用 --told-at 给出当时发出的时间）"
        at = when()
        if at < since:
            raise UserError(Problem("命令行", "通知时间 {fmt} 早于狼人提交指杀的时间 {fmt2}", fmt=fmt(at, False), fmt2=fmt(since, False)))
        if rec.kill is None and at < eng.night_deadline(n):
            # Told "no one" while the wolves may still submit: the notice would be wrong (M42-R15).
            raise UserError(Problem("命令行", "狼人还没有提交第 {n} 夜的指杀（时限 {fmt}）：先用 modtool act {folder_arg} 狼人 kill 目标 记下，或等时限过后再通知女巫（什么也没写）", n=n, fmt=fmt(eng.night_deadline(n), False), folder_arg=gd.folder_arg))
        ev = {"type": "notice", "to": "witch", "night": n, "at": fmt(at)}
        gd, st = _append(gd, ev)
        return gd, st, f"已记录：第 {n} 夜 {fmt(at, False)} 通知女巫，时限 {fmt(Engine(gd, st).witch_due(n), False)}（M42-R15）"
    p = next((p for p in st.pending if p.kind == "shoot"), None)
    if p is None:
        raise UserError("现在没有需要发出的猎人开枪通知")
    already = facts.first_notice(gd, "hunter", p.since, character=p.who)
    if already is not None:
        return gd, st, f"已在 {fmt(already, False)} 通知{p.who}（账本里已有记录），时限 {fmt(p.due, False)}"
    at = when()
    if at < p.since:
        raise UserError(Problem("命令行", "通知时间 {fmt} 早于{who}出局的时间 {fmt2}", fmt=fmt(at, False), who=p.who, fmt2=fmt(p.since, False)))
    gd, st = _append(gd, {"type": "notice", "to": "hunter", "character": p.who, "at": fmt(at)})
    due = next((q.due for q in st.pending if q.kind == "shoot" and q.who == p.who), None)
    return gd, st, f"已记录：{fmt(at, False)} 通知{p.who}可以开枪，时限 {fmt(due, False) if due else '—'}（M42-R15）"
