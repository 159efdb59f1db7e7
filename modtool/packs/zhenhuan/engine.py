"""The 甄嬛 game by replay: the grimoire rebuilt from the ledger's facts.

``replay(seats, events, options, seed)`` walks the events in ledger order.
Night and day actions, answers and info are facts keyed by their night/day
number; only ``advance`` moves the clock: closing night N resolves the night
at dawn (ZH-R3..R10, in ZH-R13 order), closing day N resolves the execution
(ZH-R11) and begins night N+1 (night-start effects). Whatever the rules leave
to the storyteller is a ``Question`` until an ``answer`` with its key exists
(discretion is an event); the engine never picks. The win is checked after
every death, revival and transformation (ZH-R12).

The board and its helpers live in ``board``, deaths and the win in ``deaths``, the
night handlers in ``abilities``; this module is the phase flow and ``replay``.
"""

from __future__ import annotations

import copy

from modtool.sdk import effective_events, Event
from modtool.packs.zhenhuan import rules
from modtool.packs.zhenhuan.abilities import FIRST, OTHER, _revive, _yurao_bind
from modtool.packs.zhenhuan.board import IMPAIRING, _MISSING, Board, _expire, _targets, _team_of, _yes  # noqa: F401
from modtool.packs.zhenhuan.deaths import _win, check_win, kill, transform  # noqa: F401
from modtool.packs.zhenhuan.night import night_steps
from modtool.packs.zhenhuan.rules import DEMONS, is_demon, name
from modtool.packs.zhenhuan.state import Seat, Status


# -- the night ----------------------------------------------------------------------------------


def start_night(b: Board, n: int):
    """Night n begins: statuses expire, then the night-start effects (ZH-R13, ZH-R3, R9, R10)."""
    b.phase, b.number = "night", n
    b.step_order = 1  # ZH-R13: night-start effects come first
    _expire(b, "night", n)  # clears 安陵容's poison of the night before (ZH-R3)
    if n == 1:
        return
    for t in b.curses.get(n, []):  # 安陵容's curse: dies when the next night begins
        kill(b, t, "curse")
    for q in b.qi_wrong.get(n, []):  # ZH-R10: wrong accusation → 祺贵人 dies when the next night begins
        kill(b, q, "qi_wrong")
    if b.kuangtu_dead:  # ZH-R9: 孙答应 dies at her step once 狂徒 is dead (impaired: next night again)
        for s in b.by_character("sundaying"):
            if s.alive:
                if b.impaired(s.number):
                    b.log(f"孙答应（{s.number}号）中毒/醉酒：今夜不死亡，下一夜再判断")
                else:
                    kill(b, s.number, "sun")


def _kuangtu(b: Board, phase: str, n: int):
    """狂徒 dies whenever the storyteller decides: a Question each phase (never decided by the tool)."""
    key = f"{phase}{n}/kuangtu"
    for s in b.by_character("kuangtu"):
        if not s.alive:
            continue
        ans = b.answer(key)
        if ans is _MISSING:
            continue
        if _yes(ans):
            kill(b, s.number, "madman")


def _night_order(b: Board, n: int) -> list[tuple[int, str]]:
    table = rules.role_table(b.options.get("_game_data"))
    col = "first_night" if n == 1 else "other_night"
    chars = {s.character for s in b.seats}
    order = [(getattr(table[c], col), c) for c in chars if c in table and getattr(table[c], col)]
    return sorted(order)


def resolve_night(b: Board, n: int):
    """Dawn of night n: every ability in ZH-R13 order, then revivals; no day begins here."""
    b.step_order = 2
    _kuangtu(b, "night", n)
    done: set[str] = set()
    for order, character in _night_order(b, n):
        handler = (FIRST if n == 1 else OTHER).get(character)
        if handler is None or character in done:
            continue
        if character in DEMONS:
            done.update(DEMONS)  # the demon step runs once, for whichever demon is in play
        b.step_order = order
        for s in [s for s in b.seats if s.character == character or (character in DEMONS and is_demon(s.character))]:
            if b.winner:
                return
            handler(b, s, n)
    b.step_order = 999
    if n == 1 and b.bound is None and b.by_character("yurao"):
        _yurao_bind(b)
    _revive(b, n)
    b.step_order = 0


# -- the day ------------------------------------------------------------------------------------


def start_day(b: Board, n: int):
    b.phase, b.number, b.step_order = "day", n, 0
    _expire(b, "day", n)  # 敦亲王's drunk, protection, pins end (ZH-R3, R4)


def _dicts(evs: list[Event]) -> list[dict]:
    return [{**ev.data, "line": ev.line} for ev in evs]


def resolve_day(b: Board, n: int):
    """Dusk of day n: the day's facts through ``modtool.packs.zhenhuan.day`` (ZH-R10, R11, R12), then
    each death through ``kill`` so that what follows a death follows (ZH-R7, R9, R12)."""
    _kuangtu(b, "day", n)
    if b.winner:
        return
    all_actions = [ev for d in sorted(b.day_actions) for ev in b.day_actions[d]]
    try:
        from modtool.packs.zhenhuan import day as day_module  # ZH-R10/R11, written alongside
    except ImportError:  # pragma: no cover - fallback when the day module is absent
        day_module = None
    if day_module is None or not hasattr(day_module, "day_report"):
        _minimal_day(b, n)
        return
    gd = b.options.get("_game_data")
    day_rules = None
    if isinstance(gd, dict) and isinstance(gd.get("roles"), dict):
        day_rules = day_module.DayRules.from_roles(gd["roles"])
    keep, b.preview = b.preview, None
    rep = day_module.day_report(b, n, _dicts(b.nominations.get(n, [])), _dicts(b.votes.get(n, [])),
                                _dicts(all_actions), day_rules)
    b.preview = keep
    for inv in rep.invalid:
        b.problems.append((inv.event.get("line"), inv.reason))
    for seat, st in rep.statuses:  # 敦亲王's drunk (until the next day: ZH-R3), spent abilities, silence
        b.seat(seat).statuses.append(st)
    if rep.silenced:  # G-R1: the valid silence of the day, read by tomorrow's no-repeat rule (ZH-R10)
        b.silenced_on[n] = rep.silenced[-1]
    for v in rep.ghost_votes_spent:
        b.seat(v).ghost_vote = False
    for acc in rep.accusations:  # ZH-R10 祺贵人: the night consequences are the engine's
        if acc.impaired:
            continue
        (b.qi_right if acc.right else b.qi_wrong).setdefault(n + 1, []).append(acc.seat)
    for text in rep.reminders:
        b.log(text)
    for d in rep.deaths:
        kill(b, d.seat, d.cause)
    if rep.winner and not b.winner:  # ZH-R12: 胧月 executed → her team loses at once
        _win(b, rep.winner, "胧月被处决，其阵营失败")


def _minimal_day(b: Board, n: int):
    """Fallback without modtool.packs.zhenhuan.day: 敦亲王, 祺贵人 and the ZH-R11 execution (rules.minimal_execution)."""
    for ev in b.day_actions.get(n, []):
        s = b.seat(ev.get("seat")) if 1 <= (ev.get("seat") or 0) <= len(b.seats) else None
        if s is None or not s.alive:
            continue
        ts = _targets(b, ev)
        if ev.get("ability") == "drunk" and s.character == "dunqinwang" and ts:
            if not b.impaired(s.number):  # ZH-R3: drunk until the next day begins
                b.seat(ts[0]).statuses.append(Status("drunk", "dunqinwang", ("day", n + 1)))
        elif ev.get("ability") == "accuse" and s.character == "qiguiren" and ts and not b.impaired(s.number):
            guess = str(ev.get("guess") or "")
            right = guess in (b.seat(ts[0]).character, name(b.seat(ts[0]).character))
            (b.qi_right if right else b.qi_wrong).setdefault(n + 1, []).append(s.number)
    result = rules.minimal_execution(b, n, b.nominations.get(n, []), b.votes.get(n, []), b.day_actions.get(n, []))
    for seat, cause in _as_deaths(result):
        victim = b.seat(seat)
        was_alive = victim.alive
        kill(b, seat, cause)
        if was_alive and victim.character == "longyue" and not b.winner:
            _win(b, "evil" if victim.team == "good" else "good", "胧月被处决，其阵营失败")


def _as_deaths(result) -> list[tuple[int, str]]:
    """Accept what day.execution returns: None, a seat, {seat, cause}, an object with .seat, or a list of them."""
    if result is None:
        return []
    if isinstance(result, (list, tuple)) and not (len(result) == 2 and isinstance(result[1], str)):
        return [d for r in result for d in _as_deaths(r)]
    if isinstance(result, tuple):
        return [(int(result[0]), result[1])]
    if isinstance(result, int):
        return [(result, "execution")]
    if isinstance(result, dict):
        return [(int(result["seat"]), result.get("cause", "execution"))] if result.get("seat") else []
    seat = getattr(result, "seat", None)
    return [(int(seat), getattr(result, "cause", "execution") or "execution")] if seat else []


# -- replay ---------------------------------------------------------------------------------------


def _live_events(events: list[Event]) -> list[Event]:
    """The events that count, reverts applied (the one rule for it: gamefile.effective_events)."""
    return effective_events(events, "")[0]


def new_board(seats: list[dict], options: dict | None, seed) -> Board:
    built = []
    for i, s in enumerate(sorted(seats, key=lambda d: d.get("seat", 0)), start=1):
        ch = s["character"]
        built.append(Seat(number=i, player=str(s.get("player", "")), character=ch, original=ch, team=_team_of(ch)))
    b = Board(seats=built, seed=seed, options=dict(options or {}))
    b.bluffs = list(b.options.get("bluffs") or [])
    for s in b.by_character("huanbi") if b.options.get("huanbi_drunk_permanent", True) else []:  # ZH-R3: 浣碧 next to 果郡王: drunk for the whole game
        left, right = b.neighbours(s.number, alive_only=False)
        if "guojunwang" in (left.character if left else None, right.character if right else None):
            s.statuses.append(Status("drunk", "guojunwang", None, "坐在果郡王身边：永久醉酒"))
    return b


def replay(seats: list[dict], events: list[Event], options: dict | None = None, seed=None,
           game_data=None) -> Board:
    """The grimoire after the ledger's events (pure: same input, same grimoire)."""
    defaults = dict(game_data.get("options") or {}) if isinstance(game_data, dict) else {}
    b = new_board(seats, {**defaults, **(options or {})}, seed)
    if game_data is not None:
        b.options["_game_data"] = game_data
    live = _live_events(events)
    for ev in live:
        t, d = ev.type, ev.data
        if t == "night_action":
            b.night_actions.setdefault(d.get("night"), []).append(ev)
        elif t == "day_action":
            b.day_actions.setdefault(d.get("day"), []).append(ev)
        elif t == "nominate":
            b.nominations.setdefault(d.get("day"), []).append(ev)
        elif t == "vote":
            b.votes.setdefault(d.get("day"), []).append(ev)
        elif t == "info":
            b.infos[(d.get("night"), d.get("seat"))] = d.get("given")
        elif t == "answer":
            b.answers[d.get("key")] = d.get("value")
    start_night(b, 1)
    for ev in live:
        if ev.type != "advance":
            continue
        if b.phase == "over":
            b.problem(ev, "游戏已结束，此后的推进不再计算")
            continue
        phase, number = ev.get("phase"), ev.get("number")
        if (phase, number) != (b.phase, b.number):
            b.damage(ev, f"推进的阶段（{phase} {number}）与当前阶段（{b.phase} {b.number}）不符")
            continue
        if phase == "night":
            resolve_night(b, number)
            if not b.winner:
                start_day(b, number)
        else:
            resolve_day(b, number)
            if not b.winner:
                start_night(b, number + 1)
    if b.phase == "night":
        _preview(b)
    if b.phase in ("night", "day"):
        for s in b.by_character("kuangtu"):
            if s.alive:
                b.ask(f"{b.phase}{b.number}/kuangtu",
                      f"狂徒（{s.number}号）是否在{'今夜' if b.phase == 'night' else '今天'}死亡？（由说书人决定）",
                      ["是", "否"])
    return b


def _preview(b: Board):
    """The current night resolved with the actions known so far, for night_steps and open questions."""
    b.preview = None
    p = copy.deepcopy(b)
    p.questions = []
    p.keys_seen = b.keys_seen  # the preview's questions are the board's too
    resolve_night(p, b.number)
    b.preview = p
    for q in p.questions:
        b.ask(q.key, q.text, q.options)

    for step in night_steps(b):
        if step.may_be_false and step.truth is not None and (b.number, step.seat) not in b.infos:
            key = f"night{b.number}/false_info/seat{step.seat}"
            b.ask(key, f"{step.seat}号（{name(step.character)}）受影响（ZH-R3）：给真实信息还是错误信息？",
                  [f"真实：{step.truth}", f"错误：{step.decoy}"])
