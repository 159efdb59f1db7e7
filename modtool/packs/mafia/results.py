"""The mafia results the thread has read (G-R2; ``modtool.core.announced``).

Each day's lynch once it is decided (MS-R3): a majority reached (the hammer:
a player, or no lynch), the host's deadline passed without one (nobody, or
the unique leader under ``deadline_rule: plurality``), or the day over
because the next one started. A day still running gives no result.

Deaths and replacements are not results here: the pack does not compute them,
they are the host's own announcements, recorded as facts (``modtool death``,
``modtool replace``). What they change (who is alive, the majority, whose
votes count) shows in the lynches they alter.

Keys name the day (``day2.lynch``), never a line; the value names the player
as the thread did at the hammer.
"""

from __future__ import annotations

from modtool.packs.mafia.day import NO_LYNCH, days, facts, tally_day
from modtool.packs.mafia.messages import _


def results(gd) -> dict[str, tuple[str, object]]:
    if gd.problems:
        return {}  # a damaged ledger: its problems are named first, nothing is replayed
    f = facts(gd)
    known = days(gd)
    out: dict[str, tuple[str, object]] = {}
    recorded = {e.data.get("day") for e in gd.of_type("lynch")}  # MS-R6: a day's lynch the host recorded
    for day in sorted(set(known) | {d for d in recorded if isinstance(d, int)}):
        t = tally_day(gd, day)
        ended = any(d > day for d in known)
        if t.lynched is None and not t.deadline_passed and (not ended or t.gap is not None):
            continue  # still running, or (MS-R6) its standing votes not recorded: nothing decided yet
        if t.lynched == NO_LYNCH:
            value = _("No lynch (majority reached)")
        elif t.lynched is not None:
            value = f.slots.name(t.lynched, t.hammer_post if t.hammer_post is not None else t.last_post or t.start)
        elif t.deadline_passed:
            value = _("Nobody (the deadline passed without a majority)")
        else:
            value = _("Nobody (the day ended without a majority)")
        out[f"day{day}.lynch"] = (_("Day {day} lynch").format(day=day), value)
    return out
