"""Ledger events of the 甄嬛 script (beyond the common ones in modtool.core.schema).

The ledger header holds the setup facts: ``seed``, ``seats`` (one entry per
seat, clockwise: {seat, player, character}), ``bluffs`` (the demon's three
good characters not in play, 7+ players) and ``board`` (preset name, if any).
Events, all facts:
"""

from modtool.sdk import Schema

_STR = (str,)
_INT = (int,)
_LIST = (list,)

ZH_EVENTS: dict[str, Schema] = {
    # The storyteller closes the current phase: night N (dawn: deaths resolve)
    # or day N (dusk: the execution stands). ZH-R13 numbering.
    "advance": {"phase": (_STR, True), "number": (_INT, True), "at": (_STR, False), "note": (_STR, False)},
    # A character's choice at night, as the player told the storyteller:
    # ability id from games/zhenhuan.yaml (e.g. kill, protect, poison, curse,
    # yizhanghong, favour (雨露均沾), ranzhi (染指), revive, check, pin, take).
    "night_action": {"night": (_INT, True), "seat": (_INT, True), "ability": (_STR, True),
                     "targets": (_LIST, False), "at": (_STR, False), "note": (_STR, False)},
    # A day ability: silence (齐妃), drunk (敦亲王), accuse (祺贵人, with guess),
    # force_execute (太后).
    "day_action": {"day": (_INT, True), "seat": (_INT, True), "ability": (_STR, True),
                   "targets": (_LIST, False), "guess": (_STR, False), "at": (_STR, False), "note": (_STR, False)},
    # A nomination (ZH-R11), recorded directly or read from an imported post.
    "nominate": {"day": (_INT, True), "nominator": (_INT, True), "nominee": (_INT, True),
                 "at": (_STR, False), "floor": (_INT, False)},
    # One vote for a nominee of the day (a dead voter spends the ghost vote).
    "vote": {"day": (_INT, True), "voter": (_INT, True), "nominee": (_INT, True), "at": (_STR, False),
             "floor": (_INT, False)},
    # The information the storyteller actually gave a seat (may be false when impaired: ZH-R3).
    "info": {"night": (_INT, True), "seat": (_INT, True), "given": (_STR, True), "note": (_STR, False)},
    # The storyteller's answer to a question the engine asked (Question.key).
    "answer": {"key": (_STR, True), "value": ((str, int, list, bool), True), "note": (_STR, False)},
}
