"""Ledger events of the M42 game beyond the common ones (modtool.schema)."""

from modtool.schema import Schema

_STR = (str,)
_INT = (int,)

M42_EVENTS: dict[str, Schema] = {
    # A night submission as the player sent it to the director (M42-R6):
    # ability kill (wolves), save / poison (witch), check (seer).
    "act": {
        "night": (_INT, True),
        "actor": (_STR, True),
        "ability": (_STR, True),
        "target": (_STR, False),
        "at": (_STR, False),
        "note": (_STR, False),
    },
    # The scapegoat's choice of who may not vote on `day` (M42-R8).
    "bar": {"day": (_INT, True), "voters": ((list,), True), "note": (_STR, False)},
}
