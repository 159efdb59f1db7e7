"""Ledger events of the M42 game beyond the common ones (modtool.core.schema)."""

from modtool.sdk import Schema

_STR = (str,)
_INT = (int,)

M42_EVENTS: dict[str, Schema] = {
    # The close (关门) time of a discussion day, as the director set it (M42-R5b, M42-R15).
    "close": {"day": (_INT, True), "at": (_STR, True), "note": (_STR, False)},
    # A sped-up day (加速), as the director declared or the requests decided (M42-R15).
    "speedup": {"day": (_INT, True), "note": (_STR, False)},
    # A delegated vote (代投, M42-R5): the director votes for a player, explicit target;
    # kind: vote (a new vote) or change (改票).
    "proxy": {
        "day": (_INT, True),
        "voter": (_STR, True),
        "target": (_STR, True),
        "at": (_STR, True),
        "kind": (_STR, False, ("vote", "change")),
        "note": (_STR, False),
    },
    # A submission as the player sent it to the director: kill (wolves), save /
    # poison (witch), check (seer) at night (M42-R6); shoot (hunter, M42-R7),
    # successor (sheriff, M42-R9), surrender (a wolf, M42-R12). A refused one
    # stays here; replay reports why.
    "act": {
        "night": (_INT, False),
        "actor": (_STR, True),
        "ability": (_STR, True),
        "target": (_STR, False),
        "at": (_STR, False),
        "note": (_STR, False),
    },
    # The director closes the current phase (M42-R1): phase day|night|dawn and
    # its number; closing dawn opens the next day.
    "advance": {"phase": (_STR, True), "number": (_INT, True), "at": (_STR, True), "note": (_STR, False)},
    # A last-words post sent to the director (M42-R10).
    "last_words": {"character": (_STR, True), "text": (_STR, True), "at": (_STR, False)},
    # A random draw made from the game's seed (M42-R9), recorded so a replay gives the same.
    "draw": {"for": (_STR, True), "number": (_INT, True), "chosen": (_STR, True), "note": (_STR, False)},
    # A card given by the director (M42-R13): color blue|yellow|red.
    "card": {"character": (_STR, True), "color": (_STR, True), "reason": (_STR, True), "at": (_STR, True),
             "floor": (_INT, False), "note": (_STR, False)},
    # Withdraw card number `card` (as `modtool cards` numbers them); history stays.
    "withdraw": {"card": (_INT, True), "of": ((int, str), False), "reason": (_STR, True), "at": (_STR, False)},
    # The director's answer to a question the rules leave open.
    "decision": {"about": (_STR, True), "character": (_STR, True), "loses": ((bool,), True), "at": (_STR, True),
                 "note": (_STR, False)},
    # M42-R16: a substitute takes over a character (account stays), at most once.
    "substitute": {"character": (_STR, True), "player": (_STR, True), "at": (_STR, True), "note": (_STR, False)},
    # M42-R16: a character who cannot continue and has no substitute.
    "leave": {"character": (_STR, True), "at": (_STR, True), "note": (_STR, False)},
    # M42-R16: an off-thread assistant for a player with at most 3 earlier games.
    "assistant": {"character": (_STR, True), "helper": (_STR, True), "games": (_INT, True), "at": (_STR, False)},
    # A lurking yellow the director waives (M42-R14), with the reason.
    "waive": {"day": (_INT, True), "character": (_STR, True), "rule": (_STR, True), "reason": (_STR, True)},
    # When a discussion day opened (M42-R15), as `modtool open` records it: day 1 only (later
    # days open with `advance` from dawn); the last one for the day counts.
    "open": {"day": (_INT, True), "at": (_STR, True), "note": (_STR, False)},
    # When the director told the witch the kill target (to: witch, night) or told the hunter
    # he may shoot (to: hunter, character): their half-hour runs from the first notice (M42-R15).
    "notice": {"to": (_STR, True), "at": (_STR, True), "night": (_INT, False), "character": (_STR, False),
               "note": (_STR, False)},
    # The scapegoat's choice of who may not vote on `day` (M42-R8).
    "bar": {"day": (_INT, True), "voters": ((list,), True), "at": (_STR, False), "note": (_STR, False)},
}
