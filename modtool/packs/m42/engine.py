"""The M42 game by replay: every event in ledger order through the phases.

Phases (M42-R1): day N is open → ``advance`` closes it (the vote resolves) →
night N → ``advance`` resolves the night (M42-R6) → dawn N (the night's exits
are known to the director, last words and prompts are pending) → ``advance``
opens day N+1 with the day-start post. Nothing is stored: exits, the sheriff,
potions, pending decisions and the winner are all recomputed here from the
facts (the ledger holds facts, never outcomes). Submissions the rules refuse stay in the ledger
and come back as problems with their line (issue: a refused submission is
kept as a fact).
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta

from modtool.sdk import fmt, GameDir, parse_clock, Problem, UserError
from modtool.packs.m42 import facts
from modtool.packs.m42.schedule import compute_day_schedule
from modtool.packs.m42.tally import DayContext, tally_day
from modtool.packs.m42.discipline_engine import DisciplineMixin
from modtool.packs.m42.state import (  # noqa: F401 (the state's names, also read from here by the views)
    ABILITY_NAMES, CAUSES, LAST_WORDS_LIMIT, NIGHT_ABILITIES, PRIVATE_CAUSES, WOLF_WORDS,
    DayRecord, Exit, Moment, NightRecord, Pending, State,
)
from modtool.packs.m42.wincheck import check_winner


class Engine(DisciplineMixin):
    def __init__(self, gd: GameDir, state: State | None = None):
        """``state``: continue from it (``snapshot``) instead of the game's start."""
        self.gd = gd
        self.roster = gd.roster
        self.role = {c.name: c.role for c in gd.roster}
        if state is None:
            state = State(alive=[c.name for c in gd.roster])
            state.days[1] = DayRecord(1, list(state.alive), facts.day1_opens(gd))
        self.st = state
        self.labels = facts.vote_labels(gd)
        self.options = facts.vote_options(gd)
        self.draws = {(ev.data.get("for"), ev.data.get("number")): ev for ev in gd.of_type("draw")}
        self.lurk_watch = None  # lurking.LurkWatch, from the first day judged (M42-R14)

    # -- helpers ---------------------------------------------------------------

    def problem(self, ev, message: str, /, **args) -> None:
        self.st.problems.append(Problem(self.gd.source, message, ev.line if ev is not None else None, **args))

    def refuse(self, ev, message: str, /, slip: bool = False, **args) -> None:
        """A submission the rules refuse: kept in the ledger as a fact, shown as 不受理, not damage.

        ``slip``: no player could have submitted it (outside any window of the ability:
        the wrong phase, an actor who is out or lacks the ability, a right nobody holds):
        the director's slip, which a command refuses before writing (as 甄嬛's windows)."""
        p = Problem(self.gd.source, message, ev.line if ev is not None else None, refused=True, **args)
        self.st.problems.append(p)
        if slip:
            self.st.slips.append(p)

    def note(self, at: datetime, text: str, public: bool, card=None) -> None:
        self.st.timeline.append(Moment(at, text, public, card))

    def character(self, label, ev) -> str | None:
        found = self.roster.lookup(str(label))
        if len(found) != 1:
            self.problem(ev, "「{label}」不是本局角色的名字" if not found else "「{label}」同时是几个角色的名字", label=label)
            return None
        return found[0].name

    def holders_in(self, names: set[str]) -> list[str]:
        """``names`` in roster order."""
        return [c.name for c in self.roster if c.name in names]

    def holders(self, role: str) -> list[str]:
        return [c.name for c in self.roster if c.role == role]

    def camp(self, name: str) -> str | None:
        return self.gd.game.camp_of(self.role.get(name))

    def night_deadline(self, n: int) -> datetime:
        """M42-R15: wolves and seer answer within an hour of the day's close."""
        return self.st.nights[n].start + timedelta(hours=1)

    def witch_told(self, n: int) -> tuple[datetime, bool]:
        """M42-R15: when the witch was told night ``n``'s kill target, and whether that is a
        recorded notice. The first notice sent at or after the counted kill submission;
        without one, the submission time (or the wolves' deadline when nobody was chosen)."""
        rec = self.st.nights[n]
        told = facts.first_notice(self.gd, "witch", rec.kill_at or rec.start, night=n)
        if told is not None:
            return told, True
        return rec.kill_at or self.night_deadline(n), False

    def witch_told_before(self, n: int) -> datetime | None:
        """M42-R15 with G-R1: a notice of night ``n`` sent before the counted kill submission,
        when none came after it: it told her the target the wolves then replaced (not a
        notice of this kill; she is to be told again). None otherwise."""
        if self.witch_told(n)[1]:
            return None
        return facts.first_notice(self.gd, "witch", self.st.nights[n].start, night=n)

    def witch_due(self, n: int) -> datetime:
        """M42-R15: the witch answers within half an hour of being told."""
        return self.witch_told(n)[0] + timedelta(minutes=30)

    def warn_once(self, message: str, line: int | None = None) -> None:
        p = Problem(self.gd.source, message, line)
        if p not in self.st.warnings:
            self.st.warnings.append(p)

    def day_close(self, n: int) -> datetime | None:
        """Day ``n``'s close: as it was closed, else the last close event, else the schedule (M42-R15)."""
        rec = self.st.days[n]
        if rec.closed is not None:
            return rec.closed
        sch = self.schedule(n)
        return facts.close_of(self.gd, n) or (sch.closes if sch is not None else None)

    # -- replay ------------------------------------------------------------------

    def run(self, events=None) -> State:
        """Replay ``events`` (all of the game's, by default) onto the state."""
        handlers = {"advance": self.advance, "act": self.act, "last_words": self.last_words, "bar": self.bar,
                    "card": self.card, "withdraw": self.withdraw, "decision": self.decision,
                    "substitute": self.substitute, "leave": self.leave, "assistant": self.assistant}
        for ev in self.gd.events if events is None else events:
            handler = handlers.get(ev.type)
            if handler is None:
                continue
            if self.st.over and ev.type not in ("card", "withdraw"):  # M42-R13: cards after the end still count
                self.refuse(ev, "不受理：游戏已经结束，这条记录不再起作用", slip=True)
                continue
            handler(ev)
        return self.st

    # -- advance -----------------------------------------------------------------

    def advance(self, ev) -> None:
        st = self.st
        at = facts.event_time(self.gd, ev)
        closing, number = ev.data.get("phase"), ev.data.get("number")
        if (closing, number) != (st.phase, st.number):
            self.problem(ev, "advance 记的是结束「{closing} {number}」，但此时是「{phase} {number2}」", closing=closing, number=number, phase=st.phase, number2=st.number)
            return
        self.expire(at)
        if st.phase == "day":
            self.close_day(at)
        elif st.phase == "night":
            self.resolve_night(at)
        elif st.phase == "dawn":
            self.open_day(at, ev)

    def expire(self, at: datetime) -> None:
        """Pending decisions past their deadline are forfeited (M42-R15), or drawn (M42-R9)."""
        keep = []
        for p in self.st.pending:
            if p.due is not None and p.due <= at:
                self.forfeit(p, p.due)
            else:
                keep.append(p)
        self.st.pending = keep

    def forfeit(self, p: Pending, at: datetime) -> None:
        if p.kind == "successor":
            self.random_successor(at, "殉职指定超时")
        elif p.kind == "shoot":
            self.note(at, f"{p.who}（猎人）未在时限内开枪，视为放弃", False)

    def schedule(self, n: int):
        """M42-R15: the day's schedule from its opening, the process thread's requests and the director's speed-up."""
        rec = self.st.days[n]
        if rec.opened is None:
            return None
        if rec.schedule is None:
            o = self.gd.options
            rec.schedule = compute_day_schedule(
                n, rec.opened, parse_clock(o["close_time"]), self.gd.tz, set(rec.alive_at_open),
                facts.thread_posts(self.gd, "process", n), self.roster, auto_speedup=facts.sped_up(self.gd, n),
                freeze_minutes=int(o["change_freeze_minutes"]), cutoff_hours=int(o["speed_cutoff_hours"]),
            )
        return rec.schedule

    def day_ctx(self, n: int, close: datetime) -> DayContext:
        st, rec = self.st, self.st.days[n]
        alive = set(rec.alive_at_open)
        sch = self.schedule(n)
        return DayContext(
            day=n,
            roster=self.roster,
            alive=alive,
            sheriff=st.sheriff if st.sheriff in alive else None,
            barred=st.barred.get(n, set()),
            close=close,
            sped_up=bool(sch.sped_up) if sch is not None else facts.sped_up(self.gd, n),
            scapegoat=next((x for x in self.holders("scapegoat") if x in alive), None),
        )

    def close_day(self, at: datetime) -> None:
        st, n = self.st, self.st.number
        rec = st.days[n]
        sch = self.schedule(n)
        close = facts.close_of(self.gd, n) or (sch.closes if sch is not None else at)
        if at < close:  # M42-R5b: the director closed the day early; it closes then, for every output
            st.warnings.append(Problem(self.gd.source, early_close_note(n, at, close)))
            close = at
        rec.closed = close
        rec.ctx = self.day_ctx(n, close)
        rec.tally = tally_day(rec.ctx, facts.vote_posts(self.gd, n), facts.proxies_of(self.gd, n), self.labels, self.options)
        result = rec.tally.result
        self.note(close, f"第 {n} 天投票：{result.get('explain', result['kind'])}", True)
        if result["kind"] == "sheriff":  # M42-R2
            st.sheriff = result["target"]
            st.sheriff_log.append((close, result["target"], "竞选当选"))
        elif result["kind"] in ("exile", "scapegoat"):  # M42-R4
            rec.exits.append(self.exit(result["target"], result["kind"], "day", close))
        self.lurking(n, close)
        for name in st.red_queue:  # M42-R13: a day's red-card exits resolve after its vote
            if st.over:
                break
            if name in st.alive:
                rec.exits.append(self.exit(name, "redcard", "day", close))
            elif not any(p.kind == "camp_loss" and p.who == name for p in st.pending):
                # Out by the vote first: the red card still asks the director about the camp (M42-R13).
                st.pending.append(Pending("camp_loss", name, close, None))
        st.red_queue = []
        if st.over:
            return
        st.phase = "night"
        st.nights[n] = NightRecord(n, close)

    def resolve_night(self, at: datetime) -> None:
        """M42-R6: the kill resolves (unless saved), then the poison."""
        st, n = self.st, self.st.number
        rec = st.nights[n]
        if rec.kill is None:
            self.note(at, f"第 {n} 夜：狼人没有提交杀人目标，无人被指杀", False)
        elif rec.kill == rec.saved:
            self.note(at, f"第 {n} 夜：{rec.kill}被指杀，女巫使用救药，未出局", False)
        else:
            rec.exits.append(self.exit(rec.kill, "kill", "night", at))
        if rec.poisoned and not st.over and rec.poisoned in st.alive:
            rec.exits.append(self.exit(rec.poisoned, "poison", "night", at))
        rec.resolved = True
        rec.resolved_at = at
        if not st.over:
            st.phase = "dawn"

    def open_day(self, at: datetime, ev) -> None:
        st = self.st
        for p in st.pending:  # what was due "before the next day opens"
            self.forfeit(p, at)
        st.pending = []
        st.number += 1
        st.phase = "day"
        st.days[st.number] = DayRecord(st.number, list(st.alive), at)
        self.note(at, f"第 {st.number} 天开始", True)

    # -- exits and what follows them ----------------------------------------------

    def exit(self, name: str, cause: str, phase: str, at: datetime) -> Exit:
        st = self.st
        ex = Exit(name, cause, phase, st.number, at)
        st.alive.remove(name)
        st.exits.append(ex)
        self.note(at, f"{name}{ex.public_cause}" if cause != "kill" and cause != "poison" else f"{name}出局", phase == "day")
        role = self.role.get(name)
        if cause != "redcard":
            st.pending.append(Pending("last_words", name, at, None))  # M42-R10
            if role == "hunter" and not st.shot_used:  # M42-R7: poisoned or not, only a red card stops the shot
                st.pending.append(Pending("shoot", name, at, self.hunter_told(name, at) + timedelta(minutes=30)))
            if cause == "scapegoat":  # M42-R8
                st.pending.append(Pending("bar", name, at, None))
        if cause == "redcard":  # M42-R13: the director is asked whether the camp loses
            st.pending.append(Pending("camp_loss", name, at, None))
        if name == st.sheriff:  # M42-R9
            if cause == "redcard":
                self.random_successor(at, "红牌罚下")
            else:
                due = at + timedelta(minutes=10) if cause in ("exile", "scapegoat") else None
                st.pending.append(Pending("successor", name, at, due))
        self.win_check(at)
        return ex

    def hunter_told(self, name: str, out_at: datetime) -> datetime:
        """M42-R15: the hunter's half-hour runs from the first notice sent to him at or after his
        exit; without one, from the exit itself, with a warning."""
        told = facts.first_notice(self.gd, "hunter", out_at, character=name)
        if told is None:
            self.warn_once(f"没有记录通知猎人的时间：{name}的开枪时限从出局时间 {fmt_short(out_at)} 起算"
                           f"（M42-R15；用 modtool announce {self.gd.folder_arg} hunter 记录通知时间）")
            return out_at
        return told

    def win_check(self, at: datetime) -> None:
        """M42-R11, after every single exit, in exit order."""
        st = self.st
        lost, winner = check_winner(self.gd.game, self.roster, set(st.alive), st.lost, st.surrendered)
        for camp in lost:
            if camp not in st.lost:
                st.lost.append(camp)
                self.note(at, f"{self.gd.game.data['camps'][camp]['name']}判负", False)
        if winner and not st.over:
            st.winner = winner
            st.ended_at = at
            st.phase = "over"
            st.pending = []
            self.note(at, f"{self.gd.game.data['camps'][winner]['name']}胜利，游戏结束", True)

    def random_successor(self, at: datetime, why: str) -> None:
        """M42-R9: a random successor, drawn from the game's seed and recorded as a draw event."""
        st = self.st
        key = ("sheriff", len(st.sheriff_log))
        recorded = self.draws.get(key)
        candidates = list(st.alive)
        if not candidates:
            return
        if recorded is not None and recorded.data.get("chosen") in candidates:
            chosen = recorded.data["chosen"]
        else:
            chosen = seeded_choice(self.gd.header.get("seed", 0), key, candidates)
        st.sheriff = chosen
        st.sheriff_log.append((at, chosen, f"随机继任（{why}）"))
        self.note(at, f"警长由{chosen}随机继任（{why}）", True)

    # -- submissions -------------------------------------------------------------

    def act(self, ev) -> None:
        st = self.st
        ability = ev.data.get("ability")
        at = facts.event_time(self.gd, ev) if ev.data.get("at") else None
        if ability not in ABILITY_NAMES:
            self.problem(ev, "未知的技能「{ability}」（可用：{ABILITY_NAMES}）", ability=ability, ABILITY_NAMES='、'.join(ABILITY_NAMES))
            return
        if at is None:
            self.problem(ev, "提交缺少时间 at，无法核对时限")
            return
        label = ev.data.get("actor")
        actor = None if label in WOLF_WORDS and ability == "kill" else self.character(label, ev)
        if actor is None and not (label in WOLF_WORDS and ability == "kill"):
            return
        target = None
        if ev.data.get("target") is not None:
            target = self.character(ev.data["target"], ev)
            if target is None:
                return
        slip = self.slip(ability, actor, target, ev)
        refusal = slip or self.refusal(ability, actor, target, at, ev)
        if refusal:
            self.refuse(ev, "不受理：{refusal}", slip=slip is not None, refusal=refusal)
            return
        getattr(self, f"do_{ability}")(actor, target, at, ev)

    def slip(self, ability: str, actor, target, ev) -> str | None:
        """Why no player could have made this submission now (the director's slip), or None:
        outside every window of the ability (M42-R6: its night; R7, R9: a pending shot or
        naming), an actor who is out or does not hold it (M42 roles never change), no target."""
        st = self.st
        who = actor or "狼人"
        role = self.role.get(actor) if actor else "werewolf"
        if ability in NIGHT_ABILITIES:
            if NIGHT_ABILITIES[ability] != role:
                return f"{who}没有技能<{ABILITY_NAMES[ability]}>"
            night = ev.data.get("night", st.number)
            if st.phase != "night" or night != st.number:
                return f"现在不是第 {night} 夜的行动时间（当前：{phase_label(st)}）"
            if actor is not None and actor not in st.alive:
                return f"{actor}已出局"
            if target is None:
                return "缺少目标"
            return None
        if ability == "surrender":
            return None if role == "werewolf" else f"{who}不是狼人，不能投降"
        pending_kind = {"shoot": "shoot", "successor": "successor"}[ability]
        if not any(p.kind == pending_kind and p.who == actor for p in st.pending):
            return f"{who}现在没有待执行的<{ABILITY_NAMES[ability]}>"
        if target is None:
            return "缺少目标"
        return None

    def refusal(self, ability: str, actor, target, at: datetime, ev) -> str | None:
        """Why the rules refuse a submission made inside its window (a player's, kept: G-R1), or None."""
        st = self.st
        if ability in NIGHT_ABILITIES:
            if target not in st.alive:  # M42-R6
                return f"目标{target}已出局"
            rec = st.nights[st.number]
            if ability in ("kill", "check") and at > self.night_deadline(st.number):
                return f"已过时限（关门后一小时，{fmt_short(self.night_deadline(st.number))}），视为放弃（M42-R15）"
            if ability == "kill" and "wolf" in st.lost:
                return "狼人阵营已判负，失去杀人技能"
            # G-R1: a second valid check the same night replaces the first (see do_check).
            if ability in ("save", "poison"):
                told, recorded = self.witch_told(st.number)
                due = told + timedelta(minutes=30)
                if not recorded:
                    self.warn_once(f"第 {st.number} 夜没有记录通知女巫的时间：女巫的时限从狼人提交时间 {fmt_short(told)} 起算"
                                   f"（M42-R15；用 modtool announce {self.gd.folder_arg} witch 记录通知时间）")
                if at > due:
                    return f"已过时限（得知被指杀角色后半小时，{fmt_short(due)}），视为放弃（M42-R15）"
                again = self.earlier_choice(("witch", actor, ability, st.number)) is not None
                if ability in st.potions_used and not again:  # G-R1: the same potion tonight is a retry
                    return f"{ABILITY_NAMES[ability]}已经用过（每种药只能用一次）"
                if rec.used & ({"save", "poison"} - {ability}) or (rec.used and not again):
                    return "救药和毒药不能在同一晚使用"
                if ability == "save" and target == actor and not self.gd.options.get("witch_self_save", False):
                    return "本场女巫不得自救"
            return None
        if ability == "surrender":
            return None
        pending_kind = {"shoot": "shoot", "successor": "successor"}[ability]
        p = next(p for p in st.pending if p.kind == pending_kind and p.who == actor)
        if p.due is not None and at > p.due:
            return f"已过时限（{fmt_short(p.due)}），视为放弃（M42-R15）"
        if target == actor:
            return "不能选择自己"
        if target not in st.alive:
            return f"目标{target}已出局"
        return None

    def earlier_choice(self, key):
        return self.st.__dict__.setdefault("choices", {}).get(key)

    def choice(self, key, ev, target, at) -> None:
        """G-R1: the last valid submission counts; remember which earlier one it replaces."""
        choices = self.st.__dict__.setdefault("choices", {})
        replaced = self.st.__dict__.setdefault("replaced", {})
        old = choices.get(key)
        if old is not None:
            replaced[ev.line] = old
        choices[key] = {"ability": ev.data.get("ability"), "target": target, "at": at, "line": ev.line}

    def do_kill(self, actor, target, at, ev) -> None:
        rec = self.st.nights[self.st.number]
        self.choice(("kill", rec.number), ev, target, at)
        rec.kill, rec.kill_at = target, at  # the wolves' latest submission counts (G-R1)
        self.note(at, f"第 {rec.number} 夜：狼人指杀{target}", False)

    def do_save(self, actor, target, at, ev) -> None:
        rec = self.st.nights[self.st.number]
        old = self.earlier_choice(("witch", actor, "save", rec.number))
        if old is not None:  # G-R1: a retry replaces tonight's save, and its warning
            self.st.warnings = [w for w in self.st.warnings if w.line != old["line"]]
        self.choice(("witch", actor, "save", rec.number), ev, target, at)
        rec.saved = target
        rec.used.add("save")
        self.st.potions_used.add("save")
        if target != rec.kill:
            self.st.warnings.append(Problem(self.gd.source, "女巫救的{target}不是被指杀的角色：救药白白用掉（M42-R6）", ev.line, target=target))
        self.note(at, f"第 {rec.number} 夜：女巫对{target}使用救药", False)

    def do_poison(self, actor, target, at, ev) -> None:
        rec = self.st.nights[self.st.number]
        self.choice(("witch", actor, "poison", rec.number), ev, target, at)
        rec.poisoned = target
        rec.used.add("poison")
        self.st.potions_used.add("poison")
        self.note(at, f"第 {rec.number} 夜：女巫对{target}使用毒药", False)

    def do_check(self, actor, target, at, ev) -> None:
        rec = self.st.nights[self.st.number]
        result = "村民阵营" if self.camp(target) == "village" else "非村民阵营"
        self.choice(("check", actor, rec.number), ev, target, at)
        rec.checks = [c for c in rec.checks if c["seer"] != actor]  # G-R1: the latest valid check counts
        rec.checks.append({"seer": actor, "target": target, "result": result, "at": at})
        self.note(at, f"第 {rec.number} 夜：预言家查验{target}，结果为{result}", False)

    def do_shoot(self, actor, target, at, ev) -> None:
        st = self.st
        st.pending = [p for p in st.pending if not (p.kind == "shoot" and p.who == actor)]
        st.shot_used = True
        self.note(at, f"猎人{actor}开枪带走{target}", False)
        self.exit(target, "shot", st.phase, at)

    def do_successor(self, actor, target, at, ev) -> None:
        st = self.st
        st.pending = [p for p in st.pending if not (p.kind == "successor" and p.who == actor)]
        st.sheriff = target
        st.sheriff_log.append((at, target, f"由{actor}指定继任"))
        self.note(at, f"警长{actor}殉职，指定{target}继任警长", True)

    def do_surrender(self, actor, target, at, ev) -> None:
        """M42-R12: every wolf, the dead ones too, must agree; then the wolves lose (not announced)."""
        st = self.st
        st.surrendered.add(actor)
        self.note(at, f"{actor}同意投降", False)
        self.win_check(at)

    def last_words(self, ev) -> None:
        """M42-R10: at most 4 posts, only for a character out not by red card, before the next day opens."""
        st = self.st
        name = self.character(ev.data.get("character"), ev)
        if name is None:
            return
        words = st.last_words.setdefault(name, [])
        if len(words) >= LAST_WORDS_LIMIT:
            self.refuse(ev, "不受理：{name}的遗言已满 {LAST_WORDS_LIMIT} 条（M42-R10）", name=name, LAST_WORDS_LIMIT=LAST_WORDS_LIMIT)
            return
        p = next((p for p in st.pending if p.kind == "last_words" and p.who == name), None)
        if p is None:
            self.refuse(ev, "不受理：{name}现在没有留遗言的权利（M42-R10）", slip=True, name=name)
            return
        text = str(ev.data.get("text", ""))
        words.append({"text": text, "at": facts.event_time(self.gd, ev) if ev.data.get("at") else None, "line": ev.line})
        if len(words) == LAST_WORDS_LIMIT:
            st.pending.remove(p)  # all four are in: nothing more is awaited
        if "[" in text and "]" in text:
            self.st.warnings.append(Problem(self.gd.source, "{name}的遗言里有论坛代码（M42-R10、R17：请导演判断）", ev.line, name=name))


    def bar(self, ev) -> None:
        """M42-R8 (amended): the scapegoat exiled by 冤死 names who may not vote the next day. Only
        characters still in the game may be named: naming one who is out is refused and he may
        name again; the latest valid naming before the next discussion day opens stands (G-R1)."""
        st = self.st
        p = next((p for p in st.pending if p.kind == "bar"), None)
        day = ev.data.get("day")
        if p is None or day != st.number + 1:
            self.refuse(ev, "不受理：第 {day} 天的禁票无效：只有前一天因冤死出局的替罪羊可以指定（M42-R8）", slip=True, day=day)
            return
        names = [n for n in (self.character(v, ev) for v in ev.data.get("voters", [])) if n]
        out = [n for n in names if n not in st.alive]
        if out:
            self.refuse(ev, "不受理：{out}已出局，只能指定仍在场上的角色；替罪羊可以重新指定（M42-R8）", out='、'.join(out))
            return
        at = facts.event_time(self.gd, ev) if ev.data.get("at") else p.since
        self.choice(("bar", day), ev, "、".join(sorted(names)), at)
        st.barred[day] = set(names)
        self.note(at, f"替罪羊{p.who}指定第 {day} 天不得投票：{'、'.join(sorted(names))}", True)


def seeded_choice(seed, key: tuple, candidates: list[str]) -> str:
    """A draw from the recorded seed: the same ledger always draws the same (M42-R9)."""
    rng = random.Random(f"{seed}/{'/'.join(map(str, key))}")
    return rng.choice(sorted(candidates))


def early_close_note(n: int, at: datetime, close: datetime) -> str:
    """M42-R5b, in the director's words."""
    return (f"第 {n} 天在计算的关门时间 {fmt(close, False)} 之前结算：第 {n} 天于 {fmt(at, False)} 关门（M42-R5b），"
            "之后的帖子不计入投票和发帖数")


def fmt_short(dt: datetime) -> str:
    return dt.strftime("%m-%d %H:%M")


def phase_label(st: State) -> str:
    return {
        "day": f"第 {st.number} 天白天",
        "night": f"第 {st.number} 夜",
        "dawn": f"第 {st.number} 夜已结算，等待第 {st.number + 1} 天开始",
        "over": "游戏已结束",
    }[st.phase]



def day_context(gd: GameDir, st: State, day: int, close: datetime | None = None) -> DayContext:
    """The vote context of ``day``: as it was closed, or the open day as it stands."""
    rec = st.days.get(day)
    if rec is None:
        raise UserError(Problem(gd.source, "第 {day} 天还没有开始（当前：{phase_label}）", day=day, phase_label=phase_label(st)))
    if rec.ctx is not None:
        return rec.ctx
    close = close or Engine(gd, st).day_close(day)
    if close is None:
        raise UserError(Problem(gd.source, "第 {day} 天没有关门时间：用 modtool open 记下第 1 天开始的时间（由它算出关门时间），或用 modtool close {folder_arg} --day {day} --at … 记下关门时间", day=day, folder_arg=gd.folder_arg))
    return Engine(gd, st).day_ctx(day, close)


def day_tally(gd: GameDir, ctx: DayContext, upto_floor: int | None = None, upto_time: datetime | None = None):
    """Day ``ctx.day``'s votes (M42-R4, R5) from the posts and proxies the ledger holds, as at
    a floor or a time if given: the one reading of a day's tally outside the replay's close."""
    day = ctx.day
    return tally_day(ctx, facts.vote_posts(gd, day), facts.proxies_of(gd, day), facts.vote_labels(gd),
                     facts.vote_options(gd), upto_floor=upto_floor, upto_time=upto_time)
