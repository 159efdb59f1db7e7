"""The host's own commands for forum mafia, as data (``modtool.core.command``);
``modtool.packs.mafia.commands`` runs them. Light: modtool reads it to list
the commands, running none."""

from __future__ import annotations

from pathlib import Path

from modtool.sdk import Command, Param

RUN = "modtool.packs.mafia.commands:"
folder = Param("game_dir", "game folder", Path)

COMMANDS = (
    Command("replace", """Mafia: a replacement takes over a slot and its current vote.

    Examples:

    \b
      modtool replace examples/mafia lynchking DarthYoshi --post 141
      modtool replace examples/mafia AMP Meransiel --post 157 --account Meransiel
    """, (folder, Param("slot", "the slot: any of its players' names, or an alias", names="character"),
          Param("player", "the replacement's name"),
          Param("post", "the host's post announcing it; the new player's posts count from it on", int, ("--post",)),
          Param("account", "forum account, when not the name", str, ("--account",), None)),
        RUN + "replace", writes=True),
    Command("death", """Mafia: a death the host announced (night kill, modkill); lynches are replayed, never recorded.

    Examples:

    \b
      modtool death examples/mafia Klazam --post 2 --how "killed Night 0"
      modtool death examples/mafia Pine --post 293
    """, (folder, Param("who", "the slot: any of its players' names, or an alias", names="character"),
          Param("post", "the host's post announcing it; dead from it on", int, ("--post",)),
          Param("how", "e.g. \"killed Night 1, Vanilla Townie\"", str, ("--how",), None)),
        RUN + "death", writes=True),
    Command("start-day", """Mafia: where the host started a day (its first post).

    Examples:

    \b
      modtool start-day examples/mafia --day 1 --post 3
      modtool start-day examples/mafia --day 2 --post 293
    """, (folder, Param("day", "the day", int, ("--day",), min=1),
          Param("post", "its first post (the host's day start)", int, ("--post",))),
        RUN + "start_day", writes=True),
    Command("deadline", """Mafia: a day's deadline as the host set it; record it again when the host extends it (the later wins).

    Votes after it do not count; reached without a majority, nobody is lynched
    (MS-R3; option deadline_rule: plurality lynches the unique leader instead).

    Examples:

    \b
      modtool deadline examples/mafia --day 1 --at "2011-05-16 17:30"
      modtool deadline examples/mafia --day 1 --at "2011-05-17 17:30" --note "extended a day"
    """, (folder, Param("day", "the day", int, ("--day",), min=1),
          Param("at", "the deadline in the game's zone (UTC by default), e.g. \"2011-04-08 17:30\"", str, ("--at",)),
          Param("note", "e.g. \"extended 24 hours\"", str, ("--note",), None)),
        RUN + "deadline", writes=True),
    Command("alias", """Mafia: a name players use for a slot ("RotN"), declared by the host; votes for it count.

    Examples:

    \b
      modtool alias examples/mafia RotN RangeroftheNorth
      modtool alias examples/mafia DRK DeathRowKitty
    """, (folder, Param("alias", "the name as players write it, e.g. RotN"), Param("slot", "the slot it means", names="character")),
        RUN + "alias", writes=True),
    Command("host", """Mafia: an account of the host (or a co-host, a substitute host): its posts are never votes.

    Import does not call it "not in the roster", and a vote count it posts
    quoting "VOTE: X" counts for no one. Give --from-post when the account
    starts hosting mid-game (a substitute host, or a former player).

    Examples:

    \b
      modtool host examples/mafia Fenhl
      modtool host examples/mafia Zodiark13 --from-post 410
    """, (folder, Param("account", "the host's forum account, as the forum shows it"),
          Param("from_post", "the first post it hosts from (default: the whole game)", int, ("--from-post",), None)),
        RUN + "host", writes=True),
    Command("timezone", """Mafia: the game's time zone from now on (an IANA name, e.g. Europe/Berlin), recorded as a fact.

    Times already in the ledger keep their instants; times typed and shown from
    now on are in the new zone. A deadline may also name its zone itself:
    modtool deadline GAME --day 1 --at "2011-05-05 16:00 CET".

    Examples:

    \b
      modtool timezone examples/mafia Europe/Berlin
      modtool timezone examples/mafia UTC
    """, (folder, Param("zone", "an IANA zone name: Europe/Berlin, America/New_York, UTC")),
        RUN + "timezone", writes=True),
    Command("standing", """Mafia: the votes standing when the saved posts start mid-day (MS-R6: a host takes over).

    Typed in, one "Voter: Target" a vote (or several lines in one argument), in
    the order they were cast, at the day's first saved post (or --post N); or
    read from a host's vote count in a saved post with --from-post N (a table,
    "Name [L-n] - voters", "Name (n) - voters" or "k. Name - n (voters)", each
    with its "Not voting:" list). It shows what it read; --dry-run only shows.
    Posts from that post on move the votes. Again for the same day: the later wins.

    Examples:

    \b
      modtool standing examples/mafia --from-post 150 --dry-run
      modtool standing examples/mafia --from-post 150
      modtool standing examples/mafia --day 1 "Valern: Trendall" "Pine: Peabody" "DeathRowKitty: no lynch"
    """, (folder, Param("votes", "\"Voter: Target\", one an argument (or one a line)", str, (), None, many=True),
          Param("day", "the day (default: the day of the post, else the latest)", int, ("--day",), None, min=1),
          Param("post", "typed in: the post the votes stand at (default: the day's first saved post)", int, ("--post",), None),
          Param("from_post", "read them from the host's vote count in this saved post", int, ("--from-post",), None),
          Param("dry_run", "show what was read, write nothing", bool, ("--dry-run",), False)),
        RUN + "standing", writes=True),
    Command("lynch", """Mafia: an earlier day's lynch as the host announced it, for a day whose posts were not saved (MS-R6).

    A day whose posts are imported has its lynch replayed, never recorded.

    Examples:

    \b
      modtool lynch examples/mafia Trendall --day 1 --post 292 --how "Vanilla Townie"
      modtool lynch examples/mafia Peabody --day 2 --post 389
    """, (folder, Param("who", "the slot: any of its players' names, or an alias", names="character"),
          Param("day", "the day", int, ("--day",), min=1),
          Param("post", "the host's post announcing it", int, ("--post",)),
          Param("how", "e.g. \"Vanilla Townie\"", str, ("--how",), None)),
        RUN + "lynch", writes=True),
)
