"""The host's facts, checked and appended: replacements, deaths, day starts, deadlines, aliases.

Each refuses a bad argument before anything is written (exit 1, the ledger
untouched) and names what it could not read, with a "did you mean" when a
name is near one in the game.
"""

from __future__ import annotations

from pathlib import Path
from zoneinfo import available_timezones

from modtool.sdk import (
    check_time as check, closest, fmt, open_game, parse_time, Problem, record as record_fact, require_sound,
    Said, time_arg, UserError,
)
from modtool.packs.mafia.day import (_day_posts, day_of_post, days, facts, lynch_of, NO_LYNCH, not_started,
                                     replace_hint, tally_day, unrecorded_named)
from modtool.packs.mafia.events import NO_LYNCH_TARGET
from modtool.packs.mafia.hostcount import NO_LYNCH_LABELS, read_count
from modtool.packs.mafia.messages import Msg, _
from modtool.packs.mafia.zones import has_region, region_zones


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
    died = _death_of(gd, key, post)
    if died is not None:  # MS-R4: a replacement takes over a living slot
        raise UserError(Problem(Msg("command line SLOT"), Msg("{name} is dead: {how}, post #{at}; a dead slot is not "
                                                             "replaced (nothing was written)", name=facts(gd).slots.name(key, post),
                                                             how=died[0], at=died[1])))
    taken = facts(gd).slots.find(player)
    if taken is not None:
        raise UserError(Problem(Msg("command line PLAYER"), Msg("\"{player}\" already plays or played a slot ({slot})", player=player, slot=taken)))
    ev = {"type": "replace", "slot": key, "player": player, "post": _post_arg(post)}
    if account and account != player:
        ev["account"] = account
    _append(game_dir, gd, ev)
    return Said.lines(_("{player} replaces {old} in slot {slot} from post #{post} on.").format(
        player=player, old=facts(gd).slots.name(key, post), slot=key, post=post))


def _death_of(gd, key: str, post: int) -> tuple[str, int] | None:
    """How and where slot ``key`` died at or before post ``post``: a death fact, a recorded
    lynch (MS-R6) or a replayed one (MS-R3); None while it lives."""

    found = [(d.get("how") or _("dead"), d["post"]) for d in facts(gd).deaths if d["slot"] == key and d["post"] <= post]
    found += [(_("lynched Day {day}").format(day=e.data["day"]), e.data["post"]) for e in gd.of_type("lynch")
              if e.data.get("slot") == key and e.data["post"] <= post]
    for day in days(gd):
        t = tally_day(gd, day)
        if t.lynched == key and t.hammer_post is not None and t.hammer_post <= post:
            found.append((_("lynched Day {day}").format(day=day), t.hammer_post))
    return min(found, key=lambda f: f[1]) if found else None


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
    recorded = [e.data["day"] for e in gd.of_type("lynch")]  # MS-R6: a day known only by its lynch
    following = max([*starts, *recorded], default=0) + 1
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

    recorded = lynch_of(gd, day) if day not in known else None
    if recorded is not None:  # MS-R6: a day known only by its lynch has no posts for a deadline to close
        raise UserError(Problem(Msg("command line --day"), Msg(
            "day {day} is known only by its lynch ({name}, the host's post #{post}): none of its posts are saved, "
            "so it has no deadline to record (nothing was written)", day=day,
            name=facts(gd).slots.name(recorded["slot"], recorded["post"]), post=recorded["post"])))
    if day not in known:  # a deadline for a day that never started: a typo of the day
        raise not_started(day, known)
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
    note = ()
    posting = {p.author.casefold(): p.author for p in facts(gd).posts}
    if posting and account.casefold() not in posting:  # no posts saved yet: nothing to check it against
        # Accepted (its posts may come in a later import), but said: a typo would leave the host's counts read as votes.
        last = facts(gd).posts[-1].floor
        if from_post is not None and from_post > last:
            note = (_("No saved post is by {account} yet (it hosts from #{post}, after the last saved post #{last}).")
                    .format(account=account, post=from_post, last=last),)
        else:
            guess = closest(account, sorted(posting.values()))
            tail = _(" (did you mean {name}?)").format(name=guess) if guess else ""
            note = (_("{account} never posted in the saved posts{tail}. If that is a typo, take it back with "
                      "modtool undo GAME_DIR and give the account as the forum shows it.").format(account=account, tail=tail),)
    ev = {"type": "host", "account": account}
    if from_post is not None:
        ev["post"] = from_post
    _append(game_dir, gd, ev)
    since = _(" from post #{post} on").format(post=from_post) if from_post is not None else ""
    return Said.lines(_("{account} is a host account{since}: its posts are never read as votes.").format(
        account=account, since=since), notes=note)


def _slot_of_account(gd, account: str) -> str | None:
    folded = account.casefold()
    for slot in facts(gd).slots.slots.values():
        if any(acc.casefold() == folded for _post, _name, acc in slot.players):
            return slot.key
    return None


def region_problem(name: str) -> Msg:
    """Why ``name``, a zone without a region (CET, EST, …), is not the game's zone, with region zones to choose."""

    return Msg("\"{zone}\" names no region: the IANA zone {zone} follows daylight saving, while a time typed "
               "as \"… {zone}\" is a fixed offset, so the two would differ by an hour in summer; write the zone "
               "of a place (did you mean {names}?) or UTC (nothing was written)", zone=name,
               names=" or ".join(region_zones(name)) or "UTC")


def timezone(game_dir: Path, zone: str) -> Said:
    """The game's zone from now on (a ``timezone`` fact; times recorded before keep their instants)."""
    gd = _game(game_dir)
    name = zone.strip()
    names = available_timezones()
    folded = {n.casefold(): n for n in names}
    known = name if name in names else folded.get(name.casefold())
    if known is not None and not has_region(known):  # CET follows DST, a typed "… CET" does not: name a place
        raise UserError(Problem(Msg("command line ZONE"), region_problem(known)))
    if name not in names:
        guess = known or closest(name, sorted(names))
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
    for ev in gd.of_type("lynch"):  # MS-R6: the slot it names (a hand edit)
        if ev.data.get("slot") not in keys:
            found.append(Problem(gd.source, Msg("{type} names slot \"{slot}\", which is not in the roster", type=ev.type, slot=ev.data.get("slot")), ev.line))
    for ev in gd.of_type("standing"):  # MS-R6: each standing vote names slots (a hand edit)
        for vote in ev.data.get("votes") or ():
            named = [vote.get("voter"), vote.get("target")] if isinstance(vote, dict) else [None]
            if any(k not in keys and k != NO_LYNCH_TARGET for k in named) or named[0] == NO_LYNCH_TARGET:
                found.append(Problem(gd.source, Msg("standing: \"{vote}\" is not a vote of a slot for a slot (voter, target)",
                                                    vote=vote), ev.line))
    for ev in gd.of_type("post"):
        try:
            parse_time(str(ev.data.get("time")), gd.tz)
        except ValueError:
            found.append(Problem(gd.source, Msg("post #{post}: unreadable time \"{time}\"", post=ev.data.get("floor"), time=ev.data.get("time")), ev.line))
    return found


def _living_at(gd, day: int, post: int) -> list[str]:
    """The living slots of day ``day`` at post ``post`` (deaths announced up to it)."""

    t = tally_day(gd, day, upto_post=-1)  # the day's opening roster, no post read
    gone = {d["slot"] for d in facts(gd).deaths if t.start < d["post"] <= post}
    return [k for k in t.living if k not in gone]


def _typed_votes(gd, votes: list[str], living: list[str], post: int) -> list[tuple[str, str]]:
    """``Voter: Target`` lines (one an argument, or several in one), checked like a vote's names (MS-R2)."""

    slots = facts(gd).slots
    got: list[tuple[str, str]] = []
    for line in (ln.strip() for arg in votes for ln in arg.splitlines()):
        if not line:
            continue
        voter, colon, target = line.partition(":")
        if not colon or not voter.strip() or not target.strip():
            raise UserError(Problem(Msg("command line VOTES"), Msg("\"{line}\" is not \"Voter: Target\"", line=line)))
        keys = []
        for label, what in ((voter.strip(), "voter"), (target.strip(), "target")):
            if what == "target" and " ".join(label.split()).casefold() in NO_LYNCH_LABELS:
                keys.append(NO_LYNCH_TARGET)
                continue
            if facts(gd).slots.find(label) is None:
                account = unrecorded_named(gd, label)
                if account is not None and account.casefold() == label.casefold():
                    raise UserError(Problem(Msg("command line VOTES"), replace_hint(account)))
            key = slot_arg(gd, label, "VOTES")
            if key not in living:
                raise UserError(Problem(Msg("command line VOTES"), Msg("\"{line}\": {name} is not alive at post #{post}",
                                                                      line=line, name=slots.name(key, post), post=post)))
            keys.append(key)
        if any(v == keys[0] for v, _t in got):
            raise UserError(Problem(Msg("command line VOTES"), Msg("{name} votes twice", name=slots.name(keys[0], post))))
        got.append((keys[0], keys[1]))
    return got


def _shown(gd, post: int, votes: list[tuple[str, str]], not_voting: list[str] | None) -> list[str]:
    """The standing votes as the count shows them: target (n): voters, in order; not voting."""

    slots = facts(gd).slots

    def name(key: str) -> str:
        return _("No lynch") if key == NO_LYNCH_TARGET else slots.name(key, post)

    rows: dict[str, list[str]] = {}
    for voter, target in votes:
        rows.setdefault(target, []).append(name(voter))
    lines = [f"  {name(t)} ({len(v)}): {', '.join(v)}" for t, v in rows.items()] or ["  " + _("No one is voting.")]
    if not_voting is not None:
        lines.append("  " + _("Not voting ({n}): {names}").format(n=len(not_voting), names=", ".join(name(k) for k in not_voting) or "-"))
    return lines


def standing(game_dir: Path, votes: list[str] | None, day: int | None, post: int | None, from_post: int | None,
             dry_run: bool) -> Said:
    """MS-R6: the votes standing at the first saved post of a day taken over mid-day, typed in
    (``Voter: Target``) or read from the host's vote count in a post (``--from-post``)."""

    gd = _game(game_dir)
    f = facts(gd)
    if bool(votes) == (from_post is not None):
        raise UserError(Problem(Msg("command line"), Msg("give the votes standing either typed in (\"Voter: Target\" "
                                                         "arguments) or read from a host's count (--from-post N), one of the two")))
    at = from_post if from_post is not None else post
    where = "--from-post" if from_post is not None else "--post"
    if at is not None:
        _post_arg(at)
        if day is None:
            day = day_of_post(gd, at)
    if day is None:
        day = max(f.starts, default=None)
    if day is None or day not in f.starts:
        raise not_started(day, list(f.starts))
    saved = _day_posts(f, day, None)
    if at is None:  # typed in: at the day's first saved post
        if not saved:
            raise UserError(Problem(Msg("command line --post"), Msg("day {day} has no saved post yet: give the post the "
                                                               "votes stand at with --post", day=day)))
        at = saved[0].floor
    if at < f.starts[day] or day_of_post(gd, at) != day:
        raise UserError(Problem(Msg("command line {option}", option=where), Msg("post #{post} is not a post of day {day}", post=at, day=day)))
    living = _living_at(gd, day, at)
    if from_post is not None:

        reading = read_count(gd, from_post, living)
        pairs = [(v, NO_LYNCH_TARGET if t == NO_LYNCH else t) for v, t in reading.votes()]
        not_voting = reading.not_voting + reading.added
        head = _("Read the vote count in post #{post} by {author} ({form} form):").format(
            post=from_post, author=reading.author, form=reading.form)
    else:
        pairs = _typed_votes(gd, votes or [], living, at)
        not_voting = None
        head = _("Votes standing at post #{post}, as typed:").format(post=at)
    lines = [head, *_shown(gd, at, pairs, not_voting)]
    notes = []
    if from_post is not None and reading.added:
        notes.append(_("{names}: in neither list of the count; read as not voting.").format(
            names=", ".join(f.slots.name(k, at) for k in reading.added)))
    if dry_run:
        lines.append(_("Nothing written (--dry-run). If this is what the count says, run it again without --dry-run."))
        return Said.lines(*lines, notes=tuple(notes))
    ev: dict = {"type": "standing", "day": day, "post": at, "votes": [{"voter": v, "target": t} for v, t in pairs]}
    if not_voting is not None:
        ev["not_voting"] = list(not_voting)
    if from_post is not None:
        ev["from_post"] = from_post
    before = [e for e in gd.of_type("standing") if e.data.get("day") == day]
    fields = ("day", "post", "votes", "not_voting", "from_post")  # the fact's own fields (not its id)
    if before and all(before[-1].data.get(k) == ev.get(k) for k in fields):
        lines.append(_("These votes standing are already recorded for day {day} at post #{post}; nothing written.")
                     .format(day=day, post=at))
        return Said.lines(*lines, notes=tuple(notes))
    _append(game_dir, gd, ev)
    if before:
        notes.append(_("It replaces the votes standing recorded before for day {day} (post #{post}).").format(
            day=day, post=before[-1].data.get("post")))
    lines.append(_("Recorded: day {day} starts from these votes at post #{post}; posts from #{post} on move them (MS-R6).")
                 .format(day=day, post=at))
    return Said.lines(*lines, notes=tuple(notes))


def lynch(game_dir: Path, who: str, day: int, post: int, how: str | None) -> Said:
    """MS-R6: an earlier day's lynch as the host announced it, for a day whose posts were not saved."""

    gd = _game(game_dir)
    known = days(gd)
    if known and day not in known and day > min(known):  # a day before the first saved one is fine (MS-R6)
        raise not_started(day, known)
    key = slot_arg(gd, who, "WHO")
    slots = facts(gd).slots
    if lynch_of(gd, day) is not None:
        raise UserError(Problem(Msg("command line --day"), Msg("day {day}'s lynch is already recorded ({name})",
                                                          day=day, name=slots.name(lynch_of(gd, day)["slot"], post))))
    if day in known:
        t = tally_day(gd, day)
        if t.lynched is not None and not t.lynch_recorded:
            raise UserError(Problem(Msg("command line --day"), Msg("day {day}'s posts already show a lynch at post #{at}: "
                                                              "it is replayed, not recorded", day=day, at=t.hammer_post)))
        if key not in t.living:
            raise UserError(Problem(Msg("command line WHO"), Msg("{name} is not alive on day {day}", name=who, day=day)))
    if any(d["slot"] == key and d["post"] <= post for d in facts(gd).deaths):
        raise UserError(Problem(Msg("command line WHO"), Msg("{name} is already recorded dead", name=who)))
    ev = {"type": "lynch", "day": day, "slot": key, "post": _post_arg(post)}
    if how:
        ev["how"] = how
    _append(game_dir, gd, ev)
    return Said.lines(_("Day {day}: {name} was lynched, as the host announced at post #{post}.").format(
        day=day, name=slots.name(key, post), post=post))
