"""The grimoire during an open day, with the day's facts so far already in effect.

The engine resolves a day at dusk (``engine.resolve_day``), but on the table a 一丈红
nominator dies the moment it nominates (ZH-R10), 敦亲王's drunk starts when he uses it
(ZH-R10, lasting until the next day begins: ZH-R3), an ability's execution (纯元皇后, 太后,
齐妃) happens at once, and a ghost vote is spent when cast (ZH-R11). ``day_so_far`` gives
the board as the storyteller's views (``status``, the grimoire page) must show it now; only
the execution by the vote waits for dusk (ZH-R11). Derived, never stored (principle 1).
"""

from __future__ import annotations

import copy

from modtool.packs.zhenhuan import day as day_module, engine
from modtool.packs.zhenhuan.deaths import kill


def report(b, day: int):
    """The day's report on ``b`` as ``engine.resolve_day`` computes it (``b`` is changed: 狂徒 first)."""
    engine._kuangtu(b, "day", day)  # as engine.resolve_day: 狂徒's death comes first
    gd = b.options.get("_game_data")
    roles = gd.get("roles") if isinstance(gd, dict) else None
    day_rules = day_module.DayRules.from_roles(roles) if isinstance(roles, dict) else None
    keep, b.preview = b.preview, None
    all_actions = [ev for d in sorted(b.day_actions) for ev in b.day_actions[d]]
    rep = day_module.day_report(b, day, engine._dicts(b.nominations.get(day, [])),
                                engine._dicts(b.votes.get(day, [])), engine._dicts(all_actions), day_rules)
    b.preview = keep
    return rep


def day_so_far(board):
    """``board`` itself outside an open day; during day N a copy with what has happened so far."""
    if board.phase != "day" or board.winner or getattr(board, "so_far", False):
        return board

    n = board.number
    g = copy.deepcopy(board)
    rep = report(g, n)
    for seat, st in rep.statuses:  # 敦亲王's drunk (ZH-R3), silence, spent abilities
        g.seat(seat).statuses.append(st)
    for v in rep.ghost_votes_spent:
        g.seat(v).ghost_vote = False
    deaths = list(rep.deaths)
    ex = rep.execution
    if ex is not None and ex.cause == "vote":  # the vote as it stands executes only at dusk (ZH-R11)
        deaths = [d for d in deaths if d.seat != ex.seat]
    for d in deaths:
        kill(g, d.seat, d.cause)  # what follows a death follows at once (ZH-R7, ZH-R9 孙答应, ZH-R12)
    if rep.winner and not g.winner:  # ZH-R12: 胧月 executed by an ability
        g.winner = rep.winner
    g.phase, g.number = "day", n  # still the open day: dusk is the director's advance
    g.so_far = True  # applied once: the views may pass the board on
    return g
