"""Where the last replay of an M42 game ended, kept so the next command can
continue from it instead of replaying a long ledger from the start.

Replay (``engine.Engine.run``) takes the events in ledger order; an event's
handler sees the state so far, the event, and facts it looks up across the
whole ledger by type (posts, close, speedup, proxy, draw, waive: ``facts``).
So the state after the first N events is the same whatever follows them, as
long as nothing that follows is of a type looked up that way, and no revert
takes back one of them. When that holds, and the header, the ledger's first
N events (the read cache's marks) and modtool's own code are those of the
saved state, replay continues from it with the new events only. Anything
else replays from the start. tests/test_m42_snapshot.py checks, event by
event through the examples, that continuing gives what replaying gives.

The state is pickled behind the read cache's per-user MAC
(``ledger._cache.write_record``): a snapshot from someone else's game folder,
or a damaged one, is never unpickled.
"""

from __future__ import annotations

import hashlib
import pickle
from pathlib import Path

from modtool.sdk import code_fingerprint, read_record, write_record
from modtool.packs.m42.engine import Engine

# The event types whose handlers only look back (at the state), never ahead.
LOOKS_BACK_ONLY = frozenset({"advance", "act", "last_words", "bar", "card", "withdraw", "decision",
                             "substitute", "leave", "assistant"})
NAME = "replay-m42.bin"

def _without_gc(fn, *args):
    """Pickling builds or walks thousands of small objects and nothing cyclic:
    the cyclic collector would only slow it down (ten times, measured)."""
    import gc

    enabled = gc.isenabled()
    gc.disable()
    try:
        return fn(*args)
    finally:
        if enabled:
            gc.enable()


def _key(gd) -> str:
    return hashlib.sha256("\0".join((code_fingerprint(), gd.source, repr(gd.header), repr(sorted(gd.options.items())))).encode()
                          ).hexdigest()


def _path(gd) -> Path:
    return gd.ledger_path.parent / ".modtool" / NAME


def save(gd, eng) -> None:
    """Keep where this replay ended (best effort)."""
    if not gd.marks or gd.marks[-1][0] != gd.raw_count:
        return
    try:
        state = _without_gc(pickle.dumps, (eng.st, eng.lurk_watch), pickle.HIGHEST_PROTOCOL)
    except Exception:  # noqa: BLE001 - a state that does not pickle is simply not kept
        return
    n, token = gd.marks[-1]
    write_record(_path(gd), {"key": _key(gd), "n": n, "token": token, "eff": len(gd.events),
                             "last_line": gd.raw_last_line, "state": state})


def resume(gd):
    """An Engine holding the saved state, with ``resumed_from`` (how many of
    ``gd.events`` it has taken in), or None to replay from the start."""
    rec = read_record(_path(gd))
    try:
        if rec is None or rec["key"] != _key(gd) or (rec["n"], rec["token"]) not in gd.marks:
            return None
        eff, last_line = rec["eff"], rec["last_line"]
        events = gd.events
        if eff > len(events) or (eff and events[eff - 1].line > last_line):
            return None
        if eff < len(events) and events[eff].line <= last_line:
            return None  # a revert took back one of the events the state holds
        if any(ev.type not in LOOKS_BACK_ONLY for ev in events[eff:]):
            return None
        st, lurk_watch = _without_gc(pickle.loads, rec["state"])
    except (KeyError, TypeError, ValueError, pickle.UnpicklingError, AttributeError, EOFError):
        return None
    eng = Engine(gd, st)
    eng.lurk_watch = lurk_watch
    eng.resumed_from = eff
    return eng
