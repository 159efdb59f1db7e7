"""The mafia pack's ledger facts (each checked field by field, like the common ones).

* ``replace``: from post ``post`` on, ``player`` (forum ``account``) plays ``slot``;
* ``death``: ``slot`` is dead from post ``post`` on (a night kill, a modkill;
  a lynch is never stored: it is computed by replay);
* ``start_day``: day ``day`` starts with post ``post``;
* ``alias``: a vote naming ``alias`` means ``slot``;
* ``close``: day ``day``'s deadline as the host set it (``modtool deadline``; the
  last one recorded for a day counts).
* ``standing`` (MS-R6): the votes standing on day ``day`` before post ``post``, as the
  host recorded them when the saved posts start after the day opened: ``votes``, a
  list of ``{voter, target}`` slot keys in cast order (``target`` may be ``no lynch``),
  ``not_voting`` (optional) the slots without a vote in the host's order, and
  ``from_post`` when they were read from the host's vote count in that post (else typed
  in). Posts from ``post`` on move votes from that state; the last one for a day counts.
* ``lynch`` (MS-R6): day ``day``'s lynch of ``slot`` as the host announced it (``post``),
  for a day whose posts were not saved; a day whose posts show a lynch replays it.

* ``host``: forum ``account`` is the host's (from post ``post`` on, else from the
  start): import does not call it "not in the roster", and its posts are never
  read as votes (a vote count quoting "VOTE: X" is not a vote);
* ``timezone``: from this fact on, the game's times are written in ``zone`` (an
  IANA name); times written before it keep their zone (the same instants).

``slot`` is always the slot's key: the first player's name in the roster.
"""

from __future__ import annotations

from modtool.packs.mafia.messages import _

_STR, _INT = (str,), (int,)

MAFIA_EVENTS = {
    "replace": {"slot": (_STR, True), "player": (_STR, True), "account": (_STR, False), "post": (_INT, True)},
    "death": {"slot": (_STR, True), "post": (_INT, True), "how": (_STR, False)},
    "start_day": {"day": (_INT, True), "post": (_INT, True)},
    "alias": {"alias": (_STR, True), "slot": (_STR, True)},
    "close": {"day": (_INT, True), "at": (_STR, True), "note": (_STR, False)},
    "host": {"account": (_STR, True), "post": (_INT, False)},
    "timezone": {"zone": (_STR, True)},
    "standing": {"day": (_INT, True), "post": (_INT, True), "votes": ((list,), True), "not_voting": ((list,), False),
                 "from_post": (_INT, False)},
    "lynch": {"day": (_INT, True), "slot": (_STR, True), "post": (_INT, True), "how": (_STR, False)},
}

NO_LYNCH_TARGET = "no lynch"  # a standing vote's target for a vote for no lynch


def event_labels() -> dict[str, str]:
    """Each event type as a host reads it (undo and restore name what they touched)."""
    return {"replace": _("replacement"), "death": _("death"), "start_day": _("day start"), "alias": _("alias"),
            "close": _("deadline"), "host": _("host account"), "timezone": _("time zone"),
            "standing": _("standing votes"), "lynch": _("lynch")}
