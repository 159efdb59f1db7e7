"""The ledger store: one YAML file per game, GAME_DIR/ledger.yaml.

A header mapping (game, seed, options, roster, …) and, last, ``events:`` with
a block sequence of event mappings. Directors edit it by hand, so it is never
re-dumped: new events are appended at the end, in place, under the folder's
lock (``_lock``), with an intent record so a torn append is rolled back and
a record of what was acknowledged so a stale editor save is noticed
(``_journal``). A read cache that grows with the file (``_cache``) means a
read after an append parses only the new tail.

Reading is fast: a line-based reader (``_fast``) handles what ``dump_event``
writes and ordinary hand edits; on anything else it gives up and the whole
file is read by ruamel's C-backed safe loader (``_slow``), which gives the
same data and turns every YAML error into a Chinese message with a line.
"""

from __future__ import annotations

from modtool.ledger._append import append, atomic_write, restore, write_new
from modtool.ledger._dump import dump_event, dump_event_line
from modtool.ledger._lock import EXCLUSIVE, SHARED, locked, session
from modtool.ledger._store import LedgerData, load

__all__ = ["LedgerData", "load", "append", "write_new", "restore", "dump_event", "dump_event_line", "locked",
           "session", "atomic_write", "SHARED", "EXCLUSIVE"]
