"""The mafia pack's ledger facts (each checked field by field, like the common ones).

* ``replace``: from post ``post`` on, ``player`` (forum ``account``) plays ``slot``;
* ``death``: ``slot`` is dead from post ``post`` on (a night kill, a modkill;
  a lynch is never stored: it is computed by replay);
* ``start_day``: day ``day`` starts with post ``post``;
* ``alias``: a vote naming ``alias`` means ``slot``.

``slot`` is always the slot's key: the first player's name in the roster.
"""

from __future__ import annotations

_STR, _INT = (str,), (int,)

MAFIA_EVENTS = {
    "replace": {"slot": (_STR, True), "player": (_STR, True), "account": (_STR, False), "post": (_INT, True)},
    "death": {"slot": (_STR, True), "post": (_INT, True), "how": (_STR, False)},
    "start_day": {"day": (_INT, True), "post": (_INT, True)},
    "alias": {"alias": (_STR, True), "slot": (_STR, True)},
}
