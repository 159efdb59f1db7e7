"""The 甄嬛 game by replay: the grimoire rebuilt from the ledger's facts.

``replay(seats, events, options, seed)`` walks the events in ledger order.
Night and day actions, answers and info are facts keyed by their night/day
number; only ``advance`` moves the clock: closing night N resolves the night
at dawn (ZH-R3..R10, in ZH-R13 order), closing day N resolves the execution
(ZH-R11) and begins night N+1 (night-start effects). Whatever the rules leave
to the storyteller is a ``Question`` until an ``answer`` with its key exists
(DESIGN.md principle 2); the engine never picks. The win is checked after
every death, revival and transformation (ZH-R12).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field

from modtool.events import Event
from modtool.zhenhuan import rules
from modtool.zhenhuan.rules import DEMONS, is_demon, is_woman, name, role
from modtool.zhenhuan.state import Death, Grimoire, Question, Seat, Status

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
    step_order: int = 0  # the night-order number being resolved (0: not at night)
    death_order: dict = field(default_factory=dict)  # seat -> step_order of its last death
    preview: "Board | None" = None  # the current night resolved so far (for night_steps)

    # -- helpers --------------------------------------------------------------------------
    def impaired(self, n: int) -> bool:
        """ZH-R3: poisoned, drunk or pinned."""
        return any(s.kind in IMPAIRING for s in self.seat(n).statuses)

    def acts(self, night: int, seat: int, ability: str) -> Event | None:
        for ev in self.night_actions.get(night, []):
            if ev.get("seat") == seat and ev.get("ability") == ability:
                return ev
        return None

    def answer(self, key: str):
        return self.answers.get(key, _MISSING)

    def ask(self, key: str, text: str, options: list[str]):
        if key not in self.answers and all(q.key != key for q in self.questions):
            self.questions.append(Question(key, text, options))

    def problem(self, ev: Event | None, msg: str):
        self.problems.append((ev.line if ev is not None else None, msg))

    def log(self, text: str, public: bool = False):
        self.timeline.append((None, text, public))

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


def _yes(value) -> bool:
    if isinstance(value, bool):
        return value
    return str(value).strip().lower() in ("yes", "true", "是", "1", "死亡", "y")


def _targets(b: Board, ev: Event | None) -> list[int]:
    if ev is None:
        return []
    out = []
    for t in ev.get("targets") or []:
        n = _seat_of(t)
        if n is None or not 1 <= n <= len(b.seats):
            b.problem(ev, f"目标「{t}」不是有效的座位号")
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


# -- deaths, transformations, winning --------------------------------------------------------


def kill(b: Board, n: int, cause: str) -> bool:
    """A character dies; what follows a death follows at once (ZH-R7, R9), then the win (ZH-R12)."""
    seat = b.seat(n)
    if not seat.alive or b.winner:
        return False
    seat.alive = False
    b.deaths.append(Death(n, cause, b.phase, b.number))
    b.death_order[n] = b.step_order
    b.log(f"{n}号（{seat.player}）死亡", public=True)
    _after_death(b, seat, cause)
    check_win(b)
    return True


def _after_death(b: Board, seat: Seat, cause: str):
    night = b.phase == "night"
    if seat.character == "huangshang":
        _empress_check(b)
    if seat.character == "kuangtu":
        b.kuangtu_dead = True
    if seat.character == "sundaying":
        _all_drunk(b, cause)
    if not night:
        return
    n = b.number
    if seat.character == "jingfei":
        # ZH-R9: 敬妃 dying at night learns the living evil characters.
        b.learned[(n, seat.number)] = [s.number for s in b.alive() if s.team == "evil"]
    if seat.character == "niangengyao":
        _nian_take(b, seat)
    if cause == "demon" and b.bound == seat.number:
        # ZH-R9: 玉娆 dies when the demon kills her first-night character, unless impaired.
        for y in b.by_character("yurao"):
            if y.alive and not b.impaired(y.number):
                kill(b, y.number, "yurao")


def _all_drunk(b: Board, cause: str):
    """ZH-R9: 孙答应's death makes every character drunk until the next dusk.

    Dying at night N or during day N: until dusk of day N (night N+1 begins);
    executed at dusk of day N: until dusk of day N+1.
    """
    at_dusk = b.phase == "day" and cause.startswith("execution")
    until = ("night", b.number + (2 if at_dusk else 1))
    for s in b.seats:
        s.statuses.append(Status("drunk", "sundaying", until, "孙答应死亡：全场醉酒"))
    b.log("孙答应死亡：全场醉酒至下一个黄昏")


def _nian_take(b: Board, seat: Seat):
    """ZH-R9: 年羹尧 dying at night takes one character (once; pinned: no take; impaired: nobody dies)."""
    n = b.number
    if seat.has("used") or any(st.kind == "pinned" for st in seat.statuses):
        return
    ev = b.acts(n, seat.number, "take")
    key = f"night{n}/take/seat{seat.number}"
    if ev is not None:
        targets = _targets(b, ev)
        target = targets[0] if targets else None
    else:
        ans = b.answer(key)
        if ans is _MISSING:
            b.ask(key, f"年羹尧（{seat.number}号）今夜死亡，可带走一名玩家：带走谁？（不带走请答「无」）",
                  [f"{s.number}号" for s in b.alive()] + ["无"])
            return
        target = _seat_of(ans)
    if target is None:
        return
    seat.statuses.append(Status("used", "niangengyao"))
    if any(st.kind in ("poisoned", "drunk") for st in seat.statuses):
        b.log(f"年羹尧（{seat.number}号）中毒/醉酒：选择了{target}号，但无人死亡")
        return
    kill(b, target, "nian_take")  # ZH-R4: protection does not stop the take


def _empress_check(b: Board):
    """ZH-R7: 皇上 dies with >= 5 alive, no 女皇 ever, 皇后 not impaired → 皇后 becomes 女皇 at once."""
    if b.empress_ever or len(b.alive()) < int(b.options.get("empress_min_alive", 5)):
        return
    for s in b.by_character("huanghou"):
        if s.alive and not b.impaired(s.number):
            transform(b, s, "nvhuang")
            b.empress_ever = True
            return


def transform(b: Board, seat: Seat, character: str, team: str | None = None):
    b.became[seat.number] = seat.character
    b.log(f"{seat.number}号 {name(seat.character)} → {name(character)}")
    seat.character = character
    seat.team = team or _team_of(character)
    check_win(b)


def check_win(b: Board):
    """ZH-R12: good when no demon lives and none arises at once; evil when two are alive and one is the demon."""
    if b.winner:
        return
    alive = b.alive()
    demons = [s for s in alive if is_demon(s.character)]
    if not demons and not b.pending_successor:
        _win(b, "good", "恶魔死亡且无新恶魔产生")
    elif demons and len(alive) <= 2:
        _win(b, "evil", "仅剩两名存活玩家且恶魔存活")


def _win(b: Board, team: str, why: str):
    b.winner = team
    b.phase = "over"
    b.log(f"{'善良' if team == 'good' else '邪恶'}阵营获胜：{why}", public=True)


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


def _anlingrong(b: Board, s: Seat, n: int):
    if not s.alive:
        return
    imp = b.impaired(s.number)
    poison = b.acts(n, s.number, "poison")
    for t in _targets(b, poison)[:1]:
        if not is_woman(b.seat(t).character):  # ZH-R2: 香粉 takes women only
            b.problem(poison, f"安陵容的香粉只能对女性使用（{t}号不是女性角色，ZH-R2）")
        elif imp:
            b.log(f"安陵容（{s.number}号）受影响：香粉无效（ZH-R3）")
        else:  # ZH-R3: poison lasts until the next night begins
            b.seat(t).statuses.append(Status("poisoned", "anlingrong", ("night", n + 1)))
    curse = b.acts(n, s.number, "curse")
    for t in _targets(b, curse)[:1]:
        if imp:
            b.log(f"安陵容（{s.number}号）受影响：诅咒无效（ZH-R3）")
        else:
            b.curses.setdefault(n + 1, []).append(t)


def _guojunwang(b: Board, s: Seat, n: int):
    """ZH-R4: protects one other character, never the same one two nights running."""
    ev = b.acts(n, s.number, "protect")
    ts = _targets(b, ev)[:1]
    if not s.alive or not ts:
        return
    t = ts[0]
    if t == s.number:
        b.problem(ev, "果郡王不可保护自己（ZH-R4）")
        return
    last = b.protected.get(n - 1)
    if last and last[0] == s.number and last[1] == t:
        b.problem(ev, "果郡王不可连续两晚保护同一人（ZH-R4）")
        return
    b.protected[n] = (s.number, t)
    if b.impaired(s.number):
        b.log(f"果郡王（{s.number}号）受影响：保护无效（ZH-R3）")
        return
    b.seat(t).statuses.append(Status("protected", "guojunwang", ("day", n)))


def _huafei(b: Board, s: Seat, n: int):
    ev = b.acts(n, s.number, "yizhanghong")
    ts = _targets(b, ev)[:1]
    if s.alive and ts and not b.impaired(s.number):  # ZH-R10: dies if it nominates the next day
        b.seat(ts[0]).statuses.append(Status("yizhanghong", "huafei", ("night", n + 1)))


def _chongfei(b: Board, s: Seat, n: int):
    """宠妃 pins one character for the night (not the same one two nights running): ZH-R3."""
    ev = b.acts(n, s.number, "pin")
    ts = _targets(b, ev)[:1]
    if not s.alive or not ts:
        return
    last = b.pinned_by.get(n - 1)
    if last and last[0] == s.number and last[1] == ts[0]:
        b.problem(ev, "宠妃不可连续两晚按住同一人")
        return
    b.pinned_by[n] = (s.number, ts[0])
    if b.impaired(s.number):
        return
    until = ("night", n + 1) if b.options.get("zh_pin_until") == "dusk" else ("day", n)
    b.seat(ts[0]).statuses.append(Status("pinned", "chongfei", until))


def _sanage(b: Board, s: Seat, n: int):
    """ZH-R8: 染指 a nearest living neighbour, from night 2."""
    ev = b.acts(n, s.number, "ranzhi")
    ts = _targets(b, ev)[:1]
    if not s.alive or not ts or n < 2:
        return
    t = b.seat(ts[0])
    left, right = b.neighbours(s.number)
    if t not in (left, right):
        b.problem(ev, "三阿哥只能染指左右最近的存活玩家（ZH-R8）")
        return
    rec = b.ranzhi.setdefault(n, {})
    if b.impaired(s.number) or t.has("protected"):  # ZH-R8 impaired / ZH-R4 protected: no effect, no death
        rec[s.number] = (t.number, None)
        return
    if t.character in ("nvhuang", "zhenhuan"):
        rec[s.number] = (t.number, "失败")
        kill(b, s.number, "sanage")
        return
    if rules.ranzhi_fails(t.character):
        rec[s.number] = (t.number, "失败")
        return
    rec[s.number] = (t.number, "成功")
    if t.character == "chongfei":  # back to her dealt character and its team
        transform(b, t, t.original)


def _demon(b: Board, s: Seat, n: int):
    """ZH-R6: the demon's step: 雨露均沾 (皇上, once, also night 1) and the kill (not night 1)."""
    if not s.alive:
        return
    if s.character == "huangshang":
        _favour(b, s, n)
    if (n == 1 and not b.options.get("first_night_demon_kills")) or not s.alive:
        return
    ev = b.acts(n, s.number, "kill")
    ts = _targets(b, ev)[:1]
    if not ts:
        return
    if b.impaired(s.number):
        b.log(f"恶魔（{s.number}号）受影响：杀人无效（ZH-R3）")
        return
    t = b.seat(ts[0])
    if not t.alive or t.has("protected"):  # ZH-R4
        return
    if t.number == s.number:  # ZH-R6 self-kill
        if s.character == "taishanghuang":
            b.pending_successor = True
            kill(b, s.number, "self")
            _successor(b, s, n)
        else:
            kill(b, s.number, "self")
        return
    if t.character == "zhenhuan" and not b.impaired(t.number) and (
        s.character == "huangshang" or (s.character == "nvhuang" and b.became.get(s.number) == "huanghou")
        or (s.character == "taishanghuang" and b.options.get("zhenhuan_counters_taishanghuang"))
    ):
        # ZH-R5: 甄嬛 survives, becomes 女皇 first (so 皇后 cannot: ZH-R7), the killer dies.
        transform(b, t, "nvhuang")
        b.empress_ever = True
        kill(b, s.number, "counter")
        return
    kill(b, t.number, "demon")


def _successor(b: Board, s: Seat, n: int):
    """ZH-R6: after 太上皇's self-kill the storyteller names who becomes 皇上 (a Question)."""
    key = f"night{n}/successor"
    ans = b.answer(key)
    if ans is _MISSING:
        b.ask(key, f"太上皇（{s.number}号）自杀：由哪位玩家（上一个白天与说书人私聊者）成为新的皇上？",
              [f"{x.number}号" for x in b.alive()])
        return
    b.pending_successor = False
    t = _seat_of(ans)
    if t is not None and b.seat(t).alive:
        transform(b, b.seat(t), "huangshang", "evil")
    else:
        check_win(b)


def _favour(b: Board, s: Seat, n: int):
    """ZH-R6 雨露均沾: once, a woman joins evil as 宠妃 (ZH-R2 women only; ZH-R4 protected: no effect)."""
    ev = b.acts(n, s.number, "favour")
    ts = _targets(b, ev)[:1]
    if not ts or s.has("used"):
        return
    t = b.seat(ts[0])
    if not is_woman(t.character):
        b.problem(ev, f"雨露均沾只能选择女性角色（{t.number}号不是，ZH-R2）")
        return
    s.statuses.append(Status("used", "huangshang"))
    if b.impaired(s.number) or not t.alive or t.has("protected"):
        return
    # ZH-R8: 三阿哥 染指 the same target the same night → caught, dies; the 宠妃 stays.
    for sa, (target, result) in b.ranzhi.get(n, {}).items():
        if target == t.number and result is not None:
            kill(b, sa, "sanage_caught")
    transform(b, t, "chongfei", "evil")


def _qiguiren(b: Board, s: Seat, n: int):
    """ZH-R10: a right accusation → a character of the storyteller's choosing dies that night (Question)."""
    if s.number not in b.qi_right.get(n, []):
        return
    key = f"night{n}/qi_victim"
    ans = b.answer(key)
    if ans is _MISSING:
        b.ask(key, f"祺贵人（{s.number}号）昨日检举正确：今夜由说书人决定谁死亡？", [f"{x.number}号" for x in b.alive()])
        return
    t = _seat_of(ans)
    if t is not None:
        kill(b, t, "qi_accused")


def _yelanyi(b: Board, s: Seat, n: int):
    """ZH-R10 叶澜依 (once): choose a dead character; revival happens at dawn (_revive)."""
    ev = b.acts(n, s.number, "revive")
    ts = _targets(b, ev)[:1]
    if not s.alive or not ts or s.has("used"):
        return
    s.statuses.append(Status("used", "yelanyi"))
    t = b.seat(ts[0])
    if b.impaired(s.number) or t.alive or is_demon(t.character):  # spent, nobody revives
        return
    b.learned[(n, "revive")] = t.number


def _revive(b: Board, n: int):
    t = b.learned.get((n, "revive"))
    if t is None or b.winner:
        return
    seat = b.seat(t)
    seat.alive = True
    seat.ghost_vote = True
    seat.statuses = [st for st in seat.statuses if st.kind != "used"]  # abilities reset
    b.log(f"{t}号（{seat.player}）被叶澜依复活", public=True)
    check_win(b)


def _yurao_bind(b: Board):
    """玉娆's first-night good character: the storyteller's choice (a Question); bound even if pinned."""
    key = "night1/yurao_bind"
    ans = b.answer(key)
    if ans is _MISSING:
        ys = b.by_character("yurao")
        b.ask(key, f"玉娆（{ys[0].number}号）首夜得知哪位善良玩家的身份？",
              [f"{x.number}号" for x in b.seats if x.team == "good" and x.character != "yurao"])
        return
    b.bound = _seat_of(ans)


FIRST = {"anlingrong": _anlingrong, "guojunwang": _guojunwang, "huafei": _huafei, "huangshang": _demon}
OTHER = {
    "chongfei": _chongfei, "anlingrong": _anlingrong, "guojunwang": _guojunwang, "huafei": _huafei,
    "sanage": _sanage, "huangshang": _demon, "taishanghuang": _demon, "nvhuang": _demon,
    "qiguiren": _qiguiren, "yelanyi": _yelanyi,
}


# -- the day ------------------------------------------------------------------------------------


def start_day(b: Board, n: int):
    b.phase, b.number, b.step_order = "day", n, 0
    _expire(b, "day", n)  # 敦亲王's drunk, protection, pins end (ZH-R3, R4)


def _dicts(evs: list[Event]) -> list[dict]:
    return [{**ev.data, "line": ev.line} for ev in evs]


def resolve_day(b: Board, n: int):
    """Dusk of day n: the day's facts through ``modtool.zhenhuan.day`` (ZH-R10, R11, R12), then
    each death through ``kill`` so that what follows a death follows (ZH-R7, R9, R12)."""
    _kuangtu(b, "day", n)
    if b.winner:
        return
    all_actions = [ev for d in sorted(b.day_actions) for ev in b.day_actions[d]]
    try:
        from modtool.zhenhuan import day as day_module  # ZH-R10/R11, written alongside
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
    """Fallback without modtool.zhenhuan.day: 敦亲王, 祺贵人 and the ZH-R11 execution (rules.minimal_execution)."""
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
    """``revert`` removes the event at its line (undo); reverting a revert restores it."""
    by_line = {ev.line: ev for ev in events if ev.line is not None}
    dead: set[int] = set()
    for ev in reversed(events):  # a later revert decides over earlier ones
        if ev.type == "revert" and ev.line not in dead:
            target = ev.get("line")
            if target in by_line:
                dead.add(target)
    return [ev for ev in events if ev.type != "revert" and ev.line not in dead]


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
            b.problem(ev, f"推进的阶段（{phase} {number}）与当前阶段（{b.phase} {b.number}）不符")
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
    resolve_night(p, b.number)
    b.preview = p
    for q in p.questions:
        b.ask(q.key, q.text, q.options)
    from modtool.zhenhuan.night import night_steps

    for step in night_steps(b):
        if step.may_be_false and step.truth is not None and (b.number, step.seat) not in b.infos:
            key = f"night{b.number}/false_info/seat{step.seat}"
            b.ask(key, f"{step.seat}号（{name(step.character)}）受影响（ZH-R3）：给真实信息还是错误信息？",
                  [f"真实：{step.truth}", f"错误：{step.decoy}"])
