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

# The names below are imported when first used (PEP 562), so that importing
# one small part (the lock, the report hooks) does not load the whole store.
_WHERE = {
    "append": "_append", "atomic_write": "_append", "restore": "_append", "write_new": "_append",
    "dump_event": "_dump", "dump_event_line": "_dump",
    "EXCLUSIVE": "_lock", "SHARED": "_lock", "locked": "_lock", "session": "_lock", "unheld": "_lock",
    "LedgerData": "_store", "load": "_store",
}
__all__ = list(_WHERE)


def __getattr__(name: str):
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'modtool.ledger' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(f"modtool.ledger.{module}"), name)
    globals()[name] = value
    return value
