"""The ledger store: one YAML file per game, GAME_DIR/ledger.yaml.

A header mapping (game, seed, options, roster, …) and, last, ``events:`` with
a block sequence of event mappings. Directors edit it by hand, so it is never
re-dumped: new events are appended as text, atomically and under a lock.

Reading is fast: a line-based reader (``_fast``) handles what ``dump_event``
writes and ordinary hand edits; on anything else it gives up and the whole
file is read by ruamel's C-backed safe loader (``_slow``), which gives the
same data and turns every YAML error into a Chinese message with a line.
"""

from __future__ import annotations

from modtool.ledger._dump import dump_event, dump_event_line
from modtool.ledger._store import LedgerData, append, atomic_write, load, locked, write_new

__all__ = ["LedgerData", "load", "append", "write_new", "dump_event", "dump_event_line", "locked", "atomic_write"]
