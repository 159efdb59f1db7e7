"""The host's facts, checked and appended: replacements, deaths, day starts, deadlines, aliases.

Each refuses a bad argument before anything is written (exit 1, the ledger
untouched) and names what it could not read, with a "did you mean" when a
name is near one in the game.
"""

from __future__ import annotations

from pathlib import Path

from modtool.core.announced import record as record_fact
from modtool.core.arguments import time_arg
from modtool.core.timespan import check
from modtool.core.timeutil import fmt, parse_time
from modtool.packs.mafia.day import days, facts
from modtool.packs.mafia.messages import Msg, _
from modtool.core.command import Said
from modtool.core.gamefile import open_game
from modtool.core.problems import Problem, UserError
from modtool.core.soundness import require_sound


def slot_arg(gd, label: str, argument: str) -> str:
    """The slot a command names: exact or case-insensitive name (any of its players) or alias."""
    slots = facts(gd).slots
    key = slots.find(label)
    if key is None:
        hint = slots.resolve(label)
        if hint.key is not None:  # a unique prefix: still refused, but named
            suggestion = slots.name(hint.key, 10**9)
        else:
            suggestion = hint.hint
        tail = _(" (did you mean {name}?)").format(name=suggestion) if suggestion else ""
        raise UserError(Problem(Msg("command line {argument}", argument=argument),
                                Msg("no slot is named \"{label}\"{tail}", label=label, tail=tail)))
    return key


def _game(game_dir: Path):
    """The mafia game in ``game_dir``, its ledger sound (a damaged one is named,
    line by line, before any argument is read against it)."""
    gd = open_game(game_dir)
    if gd.game.id != "mafia":
        raise UserError(Msg("this command is for mafia games; this one is {game}", game=gd.game.id))
    require_sound(gd)
    return gd


def _append(game_dir: Path, gd, ev: dict) -> None:
    require_sound(gd)
    record_fact(gd, [ev])


def _post_arg(post: int) -> int:
    if post < 0:
        raise UserError(Problem(Msg("command line --post"), Msg("a post number is 0 or more, not {n}", n=post)))
    return post


def replace(game_dir: Path, slot: str, player: str, post: int, account: str | None) -> Said:
    gd = _game(game_dir)
    key = slot_arg(gd, slot, "SLOT")
    player = " ".join(player.split())
    if not player:
        raise UserError(Problem(Msg("command line PLAYER"), Msg("the new player's name is empty")))
    taken = facts(gd).slots.find(player)
    if taken is not None:
        raise UserError(Problem(Msg("command line PLAYER"), Msg("\"{player}\" already plays or played a slot ({slot})", player=player, slot=taken)))
    ev = {"type": "replace", "slot": key, "player": player, "post": _post_arg(post)}
    if account and account != player:
        ev["account"] = account
    _append(game_dir, gd, ev)
    return Said.lines(_("{player} replaces {old} in slot {slot} from post #{post} on.").format(
        player=player, old=facts(gd).slots.name(key, post), slot=key, post=post))


def death(game_dir: Path, who: str, post: int, how: str | None) -> Said:
    gd = _game(game_dir)
    key = slot_arg(gd, who, "WHO")
    if any(d["slot"] == key for d in facts(gd).deaths):
        raise UserError(Problem(Msg("command line WHO"), Msg("{name} is already recorded dead", name=who)))
    ev = {"type": "death", "slot": key, "post": _post_arg(post)}
    if how:
        ev["how"] = how
    _append(game_dir, gd, ev)
    return Said.lines(_("{name} is dead from post #{post} on.").format(name=facts(gd).slots.name(key, post), post=post))


def start_day(game_dir: Path, day: int, post: int) -> Said:
    gd = _game(game_dir)
    starts = dict(facts(gd).starts)
    following = max(starts, default=0) + 1
    if day > following:  # a day number typo (12 for 2): days come one after another
        raise UserError(Problem(Msg("command line --day"), Msg("day {day} cannot start yet: the days started so far are {days}, "
                                                          "so the next one is day {next} (nothing was written)", day=day, days=", ".join(map(str, sorted(starts))) or Msg("none"), next=following)))
    starts[day] = _post_arg(post)
    ordered = sorted(starts.items())
    for (d, p), (later, later_post) in zip(ordered, ordered[1:]):
        if later_post <= p and day in (d, later):
            raise UserError(Problem(Msg("command line --post"), Msg("day {later} starts at post #{later_post}, not after day "
                                                                "{day}'s start (#{post}): days start in order", later=later, later_post=later_post, day=d, post=p)))
    _append(game_dir, gd, {"type": "start_day", "day": day, "post": post})
    return Said.lines(_("Day {day} starts at post #{post}.").format(day=day, post=post))


def deadline(game_dir: Path, day: int, at: str, note: str | None) -> Said:
    """The day's deadline as the host set it (MS-R3); a later one replaces it (an extension)."""
    gd = _game(game_dir)

    known = days(gd)
    if day not in known:  # a deadline for a day that never started: a typo of the day
        raise UserError(Problem(Msg("command line --day"), Msg("day {day} has not started; the days started so far: {days} "
                                                          "(modtool start-day records where a day starts)", day=day, days=", ".join(map(str, known)) or Msg("none"))))
    when = check(gd, time_arg(at, gd.tz, "--at"), "--at")  # a year or month typo is never a deadline
    ev = {"type": "close", "day": day, "at": fmt(when, False)}
    if note:
        ev["note"] = note
    _append(game_dir, gd, ev)
    return Said.lines(_("Day {day}'s deadline is {at} ({zone}).").format(day=day, at=ev["at"], zone=gd.tz))


def alias(game_dir: Path, alias: str, slot: str) -> Said:
    gd = _game(game_dir)
    key = slot_arg(gd, slot, "SLOT")
    label = " ".join(alias.split())
    if not label:
        raise UserError(Problem(Msg("command line ALIAS"), Msg("the alias is empty")))
    other = facts(gd).slots.find(label)
    if other is not None and other != key:
        raise UserError(Problem(Msg("command line ALIAS"), Msg("\"{alias}\" already names slot {slot}", alias=label, slot=other)))
    _append(game_dir, gd, {"type": "alias", "alias": label, "slot": key})
    return Said.lines(_("A vote for \"{alias}\" now counts for {slot}.").format(alias=label, slot=key))


def host(game_dir: Path, account: str, from_post: int | None) -> Said:
    """A host account (``host`` fact): known to import, never a voter (from ``from_post`` on)."""
    gd = _game(game_dir)
    account = " ".join(account.split())
    if not account:
        raise UserError(Problem(Msg("command line ACCOUNT"), Msg("the account is empty")))
    if from_post is not None:
        _post_arg(from_post)
    for ev in gd.of_type("host"):
        if str(ev.data.get("account", "")).casefold() == account.casefold() and ev.data.get("post") == from_post:
            raise UserError(Problem(Msg("command line ACCOUNT"), Msg("{account} is already recorded as a host account "
                                                                    "(nothing was written)", account=account)))
    plays = _slot_of_account(gd, account)
    if plays is not None and from_post is None:
        raise UserError(Problem(Msg("command line --from-post"), Msg(
            "{account} plays or played slot {slot}: give --from-post N, the first post it hosts from, so its "
            "posts before it still count as votes (nothing was written)", account=account, slot=plays)))
    ev = {"type": "host", "account": account}
    if from_post is not None:
        ev["post"] = from_post
    _append(game_dir, gd, ev)
    since = _(" from post #{post} on").format(post=from_post) if from_post is not None else ""
    return Said.lines(_("{account} is a host account{since}: its posts are never read as votes.").format(
        account=account, since=since))


def _slot_of_account(gd, account: str) -> str | None:
    folded = account.casefold()
    for slot in facts(gd).slots.slots.values():
        if any(acc.casefold() == folded for _post, _name, acc in slot.players):
            return slot.key
    return None


def timezone(game_dir: Path, zone: str) -> Said:
    """The game's zone from now on (a ``timezone`` fact; times recorded before keep their instants)."""
    from zoneinfo import available_timezones

    from modtool.core.text import closest

    gd = _game(game_dir)
    name = zone.strip()
    names = available_timezones()
    if name not in names:
        folded = {n.casefold(): n for n in names}
        guess = folded.get(name.casefold()) or closest(name, sorted(names))
        tail = _(" (did you mean {name}?)").format(name=guess) if guess else ""
        raise UserError(Problem(Msg("command line ZONE"), Msg(
            "\"{zone}\" is not a time zone name{tail}; write an IANA name such as Europe/Berlin or UTC "
            "(nothing was written)", zone=name, tail=tail)))
    if str(gd.tz) == name:
        return Said.lines(_("The game's time zone is already {zone}; nothing was written.").format(zone=name))
    before = str(gd.tz)
    _append(game_dir, gd, {"type": "timezone", "zone": name})
    return Said.lines(_("The game's time zone is {zone} from now on (it was {before}); times already recorded "
                        "keep their instants.").format(zone=name, before=before))


def problems(gd) -> list[Problem]:
    """Damage only a replay would trip on, with its ledger line: facts that name
    no slot, day starts out of order, post times that cannot be read."""
    keys = {c.name for c in gd.roster}
    found = []
    for ev in gd.of_type("replace", "death", "alias"):
        if ev.data.get("slot") not in keys:
            found.append(Problem(gd.source, Msg("{type} names slot \"{slot}\", which is not in the roster", type=ev.type, slot=ev.data.get("slot")), ev.line))
    starts: dict[int, tuple[int, int | None]] = {}  # day -> (first post, line of the fact), the later fact winning
    for ev in gd.of_type("post"):
        starts.setdefault(ev.data["day"], (ev.data["floor"], None))
    for ev in gd.of_type("start_day"):
        starts[ev.data["day"]] = (ev.data["post"], ev.line)
    ordered = sorted(starts.items())
    for (day, (post, _line)), (later, (later_post, line)) in zip(ordered, ordered[1:]):
        if later_post <= post:
            found.append(Problem(gd.source, Msg("day {later} starts at post #{later_post}, not after day {day}'s start "
                                              "(#{post}): days start in order", later=later, later_post=later_post, day=day, post=post), line))
    for ev in gd.of_type("post"):
        try:
            parse_time(str(ev.data.get("time")), gd.tz)
        except ValueError:
            found.append(Problem(gd.source, Msg("post #{post}: unreadable time \"{time}\"", post=ev.data.get("floor"), time=ev.data.get("time")), ev.line))
    return found
