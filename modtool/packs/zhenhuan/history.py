"""The 甄嬛 board at an earlier phase: the same ledger replayed with the ``advance`` events up to
that phase (the ledger holds facts, the rest is derived)."""

from __future__ import annotations

import copy

from modtool.sdk import GameDir, UserError
from modtool.packs.zhenhuan import engine
from modtool.packs.zhenhuan.game import events_with_posts, seats_of
from modtool.packs.zhenhuan.today import report
from modtool.packs.zhenhuan.view_labels import _dir, _ordinal


def board_at(gd: GameDir, phase: str, number: int):
    """The grimoire when ``phase`` ``number`` began (a night with its preview), by replaying the
    ledger with only the ``advance`` events that close earlier phases."""
    events, _ = events_with_posts(gd)
    limit = _ordinal(phase, number)

    def keep(ev) -> bool:
        if ev.type != "advance":
            return True
        p, n = ev.get("phase"), ev.get("number")
        return not (p in ("night", "day") and isinstance(n, int)) or _ordinal(p, n) < limit

    live = [ev for ev in engine._live_events(events) if keep(ev)]
    options = dict(gd.options)
    options.setdefault("bluffs", gd.header.get("bluffs", []))
    return engine.replay(seats_of(gd), live, options, gd.header.get("seed"), game_data=gd.game.data)


def _is(board, phase: str, n: int) -> bool:
    return board.phase == phase and board.number == n


def _night_board(gd: GameDir, night: int):
    b = board_at(gd, "night", night)
    if not _is(b, "night", night):
        raise UserError("第 {night} 夜还没有开始" if b.phase != "over" else "游戏在第 {night} 夜之前已经结束", night=night)
    return b


def _after_night(gd: GameDir, night: int):
    """The board after the dawn of ``night`` (UserError while the night is still open)."""
    _night_board(gd, night)
    b = board_at(gd, "day", night)
    if _is(b, "night", night):
        raise UserError("第 {night} 夜还没有结束（天亮：modtool advance {dir}）", night=night, dir=_dir(gd))
    return b


def _day_board(gd: GameDir, day: int):
    b = board_at(gd, "day", day)
    if not _is(b, "day", day):
        raise UserError("第 {day} 天还没有开始" if b.phase != "over" else "游戏在第 {day} 天之前已经结束", day=day)
    return b


def day_report(gd: GameDir, day: int):
    """(day board, DayReport, closed, board after dusk or None): day ``day`` as the engine resolves it."""
    b = _day_board(gd, day)
    after = board_at(gd, "night", day + 1)
    closed = not _is(after, "day", day)
    rep = report(copy.deepcopy(b), day)
    return b, rep, closed, (after if closed else None)
