"""A 甄嬛 game folder replayed: the ledger's facts → the engine → a Board.

Nominations and votes are read from the imported vote-thread posts (ZH-R11)
as well as recorded directly; the posts stay the facts and the derived
``nominate``/``vote`` events carry the post's ledger line.
"""

from __future__ import annotations

from modtool.events import Event
from modtool.gamefile import GameDir
from modtool.problems import Problem


def seats_of(gd: GameDir) -> list[dict]:
    return [dict(s) for s in gd.header.get("seats", []) if isinstance(s, dict)]


def events_with_posts(gd: GameDir) -> tuple[list[Event], list[Problem]]:
    from modtool.m42.facts import post_of
    from modtool.zhenhuan.nominations import Labels, PostError, post_event

    seats = seats_of(gd)
    labels = Labels.from_mapping(gd.game.data.get("vote_labels", {}))
    out: list[Event] = []
    problems: list[Problem] = []
    for ev in gd.events:
        if ev.type == "post" and ev.data.get("thread") == "vote":
            derived = post_event(post_of(ev, gd), ev.data["day"], seats, labels=labels)
            if isinstance(derived, PostError):
                if not derived.not_a_vote:
                    problems.append(Problem(gd.source, derived.reason, ev.line, ev.data.get("floor")))
                continue
            out.append(Event(derived.pop("type"), derived, ev.line))
        else:
            out.append(ev)
    return out, problems


def replay(gd: GameDir):
    """(board, problems): the engine's grimoire and every problem with its ledger line."""
    from modtool.zhenhuan import engine

    events, problems = events_with_posts(gd)
    options = dict(gd.options)
    options.setdefault("bluffs", gd.header.get("bluffs", []))
    board = engine.replay(seats_of(gd), events, options, gd.header.get("seed"), game_data=gd.game.data)
    problems += [Problem(gd.source, msg, line) for line, msg in board.problems]
    return board, problems
