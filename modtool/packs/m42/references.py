"""What a hand-written M42 fact names must exist (issue 16): checked on the replayed state.

The engine reads proxies, waives, notices, closes and speed-ups by looking them up,
so one naming a character not in the roster, or a day or night the game has not
reached, would be passed by without a word. Each is ledger damage with its line:
``check`` fails on it, and so every writing command refuses after it.
"""

from __future__ import annotations

from modtool.sdk import effective_events, parse_time, Problem
from modtool.packs.m42 import facts
from modtool.packs.m42.engine import phase_label


_NAMING = frozenset(("proxy", "assistant", "waive", "notice", "close", "speedup"))


def reference_problems(gd, st) -> list[Problem]:
    abstain = set(facts.vote_labels(gd).abstain)
    now = phase_label(st)
    out: list[Problem] = []

    def bad(ev, msg):
        out.append(Problem(gd.source, msg, ev.line))

    def character(ev, field, label=None):
        value = ev.data.get(field)
        if not isinstance(value, str) or (label and value.strip() in abstain):
            return
        found = gd.roster.lookup(value)
        if len(found) != 1:
            bad(ev, f"{ev.type} 事件的 {field}「{value}」" + ("不是本局角色的名字" if not found else "同时是几个角色的名字"))

    def day(ev):
        n = ev.data.get("day")
        if isinstance(n, int) and not isinstance(n, bool) and n not in st.days:
            bad(ev, f"{ev.type} 事件的 day：第 {n} 天还没有开始（当前：{now}）")
            return None
        return st.days.get(n)

    # A simulated change (modtool.core.simulation.simulated, the check before every
    # write) looks at its new events only: an old event's fields are decoded a
    # stretch at a time, and a card on a 100,000-post ledger must read no post.
    # Damage already in the ledger is check's to name.
    since = gd.memo.get("new_from_line", 0)
    for ev in effective_events(gd.events, gd.source)[0]:
        if ev.type not in _NAMING or ev.line < since:
            continue
        d = ev.data
        if ev.type == "proxy":  # M42-R5: a delegated vote of a character, for a character or 弃权, on a started day
            character(ev, "voter")
            character(ev, "target", label=True)
            rec = day(ev)
            if rec is not None and rec.opened is not None and isinstance(d.get("at"), str):
                try:
                    at = parse_time(d["at"], gd.tz)
                except ValueError:
                    continue  # the schema names the time
                if at < rec.opened:
                    bad(ev, f"proxy 事件的 at {d['at']} 早于第 {d['day']} 天开始的时间 {rec.opened:%Y-%m-%d %H:%M}（M42-R5）")
        elif ev.type in ("assistant", "waive"):  # M42-R16, R14
            character(ev, "character")
            if ev.type == "waive":
                day(ev)
        elif ev.type == "notice":  # M42-R15
            character(ev, "character")
            n = d.get("night")
            if isinstance(n, int) and not isinstance(n, bool) and n not in st.nights:
                bad(ev, f"notice 事件的 night：第 {n} 夜还没有开始（当前：{now}）")
        elif ev.type in ("close", "speedup"):  # M42-R15
            day(ev)
    return out
