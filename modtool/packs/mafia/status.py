"""``modtool status`` for a mafia game: the game as it stands, from one replay.

The day (the last one started); every slot, living or dead, with its current
player and the former ones (MS-R4); how each dead slot died (the host's
``death`` fact, a lynch replayed, MS-R3, or the host's ``lynch`` fact, MS-R6); the standing votes, who is not
voting, the majority and the deadline of the day (``views.tally_json``, the
same as ``tally``); the host's accounts and the game's zone.
"""

from __future__ import annotations

from modtool.sdk import View
from modtool.packs.mafia.day import NO_LYNCH, days, facts, hosts, tally_day
from modtool.packs.mafia.messages import _
from modtool.packs.mafia.views import tally_json, tally_text


def status_json(gd) -> dict:
    f = facts(gd)
    slots = f.slots
    started = days(gd)
    day = started[-1] if started else None
    died: dict[str, dict] = {}
    for d in sorted(f.deaths, key=lambda d: d["post"]):
        died.setdefault(d["slot"], {"how": d.get("how") or _("dead"), "post": d["post"], "day": None})
    tallies = {n: tally_day(gd, n) for n in started}
    # MS-R6: a day known only by the host's ``lynch`` fact (its posts not saved) is not among the started ones
    recorded = sorted({e.data["day"] for e in gd.of_type("lynch")} - set(started))
    for n, t in sorted([*tallies.items(), *((n, tally_day(gd, n)) for n in recorded)]):
        if t.lynched not in (None, NO_LYNCH) and t.lynched not in died:
            died[t.lynched] = {"how": _("lynched Day {day}").format(day=n), "post": t.hammer_post, "day": n}
    rows = []
    for key in slots.keys():
        names = slots.slots[key].names()
        player = slots.current(key)
        row = {"slot": key, "player": player, "former": [n for n in names if n != player], "alive": key not in died}
        if key in died:
            row["died"] = died[key]
        rows.append(row)
    tally = tally_json(gd, tallies[day]) if day is not None else None
    return {
        "day": day,
        "day_start": f.starts.get(day) if day is not None else None,
        "last_post": f.posts[-1].floor if f.posts else None,
        "timezone": str(gd.tz),
        "living": [r["player"] for r in rows if r["alive"]],
        "dead": [r["player"] for r in rows if not r["alive"]],
        "slots": rows,
        "majority": tally["majority"] if tally else None,
        "deadline": tally["deadline"] if tally else None,
        "tally": tally,
        "hosts": sorted({str(e.data.get("account")) for e in gd.of_type("host")}),
        "host_from": {str(e.data.get("account")): e.data.get("post") for e in gd.of_type("host") if e.data.get("post") is not None},
    }


def _player(row: dict) -> str:
    if not row["former"]:
        return row["player"]
    return _("{player} (replaced {former})").format(player=row["player"], former=", ".join(row["former"]))


def status_text(data: dict, game: str = "GAME_DIR") -> str:
    if data["day"] is None:
        lines = [_("No day has started yet (modtool start-day records where a day starts).")]
    else:
        lines = [_("Day {day} (from post #{start}; last post read #{last}); times in {zone}").format(
            day=data["day"], start=data["day_start"], last=data["last_post"] if data["last_post"] is not None else "-",
            zone=data["timezone"])]
    alive = [r for r in data["slots"] if r["alive"]]
    dead = [r for r in data["slots"] if not r["alive"]]
    lines.append(_("Alive ({n}):").format(n=len(alive)))
    lines += [f"  {_player(r)}" for r in alive]
    lines.append(_("Dead ({n}):").format(n=len(dead)))
    for r in dead:
        where = _(", post #{post}").format(post=r["died"]["post"]) if r["died"]["post"] is not None else ""
        lines.append(f"  {_player(r)}: {r['died']['how']}{where}")
    if data["tally"] is not None:
        lines.append(_("Votes:"))
        lines += ["  " + line for line in tally_text(data["tally"], data["deadline"], game).splitlines()]
        if not data["deadline"]:
            lines.append(_("  No deadline recorded (modtool deadline {game} --day {day} --at TIME).").format(game=game, day=data["day"]))
    if data["hosts"]:
        shown = [a + (_(" (from post #{post})").format(post=data["host_from"][a]) if a in data["host_from"] else "")
                 for a in data["hosts"]]
        lines.append(_("Host accounts: {accounts}").format(accounts=", ".join(shown)))
    return "\n".join(lines) + "\n"


def status_view(gd) -> View:
    data = status_json(gd)
    return View.of("status", gd.game.id, data, status_text(data, gd.folder_arg))
