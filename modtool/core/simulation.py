"""A change replayed in memory before it is written: the game as it would be
with new events appended. G-R2's guard (``modtool.core.announced``), the check
that a write leaves no damage (``modtool.core.soundness``) and a pack's rehearsal
of a director's slip (``modtool.packs.m42.commands.rehearse``) all read it, so the
same change is simulated once for all of them."""

from __future__ import annotations

import dataclasses
import gc

from modtool import ledger
from modtool.base.events import Event
from modtool.core.gamefile import effective_events, event_schemas
from modtool.core.schema import check_events


def simulated(gd, new: list[dict]):
    """The game as it would be with ``new`` appended (in memory, nothing written):
    G-R2's replay of a change, and a pack's check that the change is no typo
    (modtool.packs.m42.commands.rehearse). Its new events' lines are past ``gd.raw_last_line``.

    It keeps the ledger's cache marks, so a pack's replay may continue from the
    state saved for the ledger as read (a card costs the card, not the game),
    but can never save its own: ``raw_count`` names no ledger. The same change asked
    twice of one ``gd`` (a pack's check, then G-R2's) gives the same simulation, so a
    replay of it that a pack keeps in its memo serves both."""
    key = _key(new)
    kept = gd.memo.get("simulated")
    if kept is not None and kept[0] == key:
        return kept[1]
    # Two objects an event and no cycle: as ``ledger.load`` does, the collector is
    # off while they are made, and they are frozen out of its way afterwards.
    enabled = gc.isenabled()
    gc.disable()
    try:
        added = [Event(ev["type"], _fields(ev), gd.raw_last_line + k) for k, ev in enumerate(new, 1)]
    finally:
        if enabled:
            gc.freeze()
            gc.enable()
    problems = list(gd.problems)
    if any(e.type in ("revert", "edit") for e in added):
        # Reverts and edits are weighed again with the new events: what a revert leaves
        # dangling counts (an undone import whose post a later import's edit, G-R3, names),
        # and what it mends no longer does (the undo of that undo).
        raw = list(ledger.load(gd.ledger_path).events)
        _, before = effective_events(raw, gd.source)
        events, after = effective_events(raw + added, gd.source)
        problems = [p for p in problems if p not in before] + after
    else:
        events = list(gd.events) + added
    # The new events' own shape too: a command writes well-formed events, a program (modtool.api) may not.
    shape = check_events(added, event_schemas(gd.game.id), gd.source)
    # new_from_line: where the new events begin, for checks that need look at nothing older
    sim = dataclasses.replace(gd, events=events, memo={"new_from_line": gd.raw_last_line + 1},
                              problems=problems + shape, digest="",
                              raw_count=-1, raw_last_line=gd.raw_last_line + len(added))
    gd.memo["simulated"] = (key, sim)
    return sim


def _fields(ev: dict) -> dict:
    """An event's fields but its type (a plain dict, a copy: the caller's stays whole)."""
    d = dict(ev)
    del d["type"]
    return d


def _key(new: list[dict]):
    """The content of ``new``, to know the same change asked again: orjson's text of
    it (a quarter of repr's time for an import's hundred thousand events), or its
    repr where orjson refuses a value (and for values orjson writes as it likes:
    datetimes, dataclasses, subclasses). A tuple and a list of the same items give
    one key: an event is written and read back with lists alike."""
    try:
        import orjson

        def refuse(o):
            raise TypeError

        flags = orjson.OPT_PASSTHROUGH_DATACLASS | orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_SUBCLASS
        return orjson.dumps(new, default=refuse, option=flags)
    except (ImportError, TypeError):
        return repr(new)
