"""The M42 game's state from its ledger, once per load: the engine's replay,
continued from the last command's snapshot when it can be.

Its own module so that the engine and the snapshot (which makes engines)
need not import each other.
"""

from __future__ import annotations

from modtool.sdk import GameDir
from modtool.packs.m42 import snapshot
from modtool.packs.m42.engine import Engine, State


def replay(gd: GameDir) -> State:
    """The game's state from its ledger. Continues from the state an earlier
    command left (``snapshot``) when the ledger only grew by events that
    nothing before them looks ahead at; otherwise replays it all. Kept in
    ``gd.memo``: the checks before a write (the span of typed times, the
    rehearsal, G-R2) and the command itself read one replay of one load."""
    kept = gd.memo.get("m42_replay")
    if kept is not None and kept[0] == len(gd.events):
        return kept[1]  # this load (or simulated change, simulation.simulated) replayed once for all who ask
    eng = snapshot.resume(gd)
    if eng is None:
        eng = Engine(gd)
        st = eng.run()
    elif eng.resumed_from == len(gd.events):
        gd.memo["m42_replay"] = (len(gd.events), eng.st)
        return eng.st  # nothing new since: the saved state is this one
    else:
        st = eng.run(gd.events[eng.resumed_from:])
    snapshot.save(gd, eng)
    gd.memo["m42_replay"] = (len(gd.events), st)
    return st
