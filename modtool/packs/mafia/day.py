"""A day replayed from the ledger's facts: votes, majority, hammer, lynch.

Rules (the rulings MS-R1 to MS-R5, from the host's post #1 of Game 1145):

* MS-R3: majority is floor(living / 2) + 1. Reaching it lynches at once, and
  the rest of the hammer post (an unvote too) and every later post of the day
  change nothing. No lynch needs the same count. Votes after the day's deadline
  (the host's latest ``close`` fact) do not count. At the deadline without a
  majority nobody is lynched (option ``deadline_rule: plurality``: the unique
  leader is).
* MS-R1: a vote moves the voter's vote. Voting the same target again changes
  nothing (the vote keeps its place in the cast order). An unvote with nothing,
  or with a name that resolves, takes the vote back. An unvote followed by words
  that name no one is prose. Bold text that mentions a vote word and names a
  player without the form is flagged, not counted.
* MS-R2: a name that does not resolve is unresolved, with a hint, until the
  host declares an alias.
* MS-R4: only living slots vote and are voted for; a replacement keeps the slot's vote.

* MS-R6: where the saved posts of a day start after it opened (its ``start_day``
  post), the votes standing at the first saved post are the host's ``standing``
  fact (typed in, or read from a host's count); posts from its post on move votes
  from it. Until it is recorded, the tally says so (``gap``) and gives no
  "deadline passed" result. A day whose posts were not saved at all ends in the
  host's ``lynch`` fact, if one is recorded.

The posts of day N are those from its start (a ``start_day`` fact, else the
first post imported as day N) to the post before day N+1 starts.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

import regex

from modtool.sdk import event_time, MarkupError, post_of, Problem, UserError
from modtool.packs.mafia.actions import own_actions, own_mentions
from modtool.packs.mafia.events import NO_LYNCH_TARGET
from modtool.packs.mafia.messages import Msg
from modtool.packs.mafia.slots import Slots

NO_LYNCH = "\0no lynch"


def majority(living: int) -> int:
    return living // 2 + 1


@dataclass
class Unresolved:
    post: int
    voter: str
    text: str
    hint: str | None = None
    reason: str = "unknown"  # "unknown" (no such name), "dead", or "unreadable" (the body could not be read)


@dataclass
class Flag:
    """Bold text that mentions a vote word and a player without the action form (MS-R1): not counted, shown to the host."""

    post: int
    voter: str
    kind: str  # "vote" or "unvote"
    text: str  # the words after the vote word
    names: str  # the slot key they name


@dataclass
class Edited:
    """A vote post edited on the forum (G-R3): counted as it reads now, shown to the host with the versions before."""

    post: int
    voter: str
    edited: str  # the forum's edit line ("Last edited by …"), or the core's note that the text changed
    now: list  # its actions as it reads now (``actions.Action``)
    before: list[list]  # the actions of each earlier saved version, oldest first


@dataclass
class DayTally:
    day: int
    start: int
    living: list[str]  # slot keys, roster order
    votes: dict[str, tuple[str, int]] = field(default_factory=dict)  # voter -> (target key, cast seq)
    lynched: str | None = None  # slot key, NO_LYNCH, or None
    hammer_post: int | None = None
    deadline: datetime | None = None  # the host's latest deadline for the day (MS-R3)
    deadline_passed: bool = False  # the day ran to its deadline without a majority
    unresolved: list[Unresolved] = field(default_factory=list)
    last_post: int | None = None  # the last post read
    stopped: list[str] = field(default_factory=list)  # voters whose vote went, in the order it went
    # After each post that moved a vote: (post, time, voter, {target key: count}, a vote moved
    # from one target to another). The chart's timeline.
    steps: list[tuple] = field(default_factory=list)
    flags: list[Flag] = field(default_factory=list)
    edited: list[Edited] = field(default_factory=list)
    standing: dict | None = None  # MS-R6: the host's ``standing`` fact the day starts from, if any
    gap: tuple[int, int] | None = None  # MS-R6: (day opened, first saved post) while no standing votes are recorded
    lynch_recorded: bool = False  # MS-R6: the lynch is the host's ``lynch`` fact (the day's posts were not saved)

    @property
    def majority(self) -> int:
        return majority(len(self.living))

    def voters_of(self, target: str) -> list[str]:
        return [v for v, (t, _) in sorted(self.votes.items(), key=lambda kv: kv[1][1]) if t == target]

    def targets(self) -> list[str]:
        """Targets in the order of their oldest standing vote."""
        seen: dict[str, None] = {}
        for _, (t, _) in sorted(self.votes.items(), key=lambda kv: kv[1][1]):
            seen.setdefault(t, None)
        return list(seen)

    def not_voting(self) -> list[str]:
        """Who never voted today (roster order), then who took a vote back, in the order they did."""
        stopped = [k for k in self.stopped if k in self.living and k not in self.votes]
        return [k for k in self.living if k not in self.votes and k not in stopped] + stopped

    def drop(self, voter: str) -> None:
        if self.votes.pop(voter, None) is not None:
            if voter in self.stopped:
                self.stopped.remove(voter)
            self.stopped.append(voter)


@dataclass
class Facts:
    slots: Slots
    posts: list  # post events' Posts (``eventfacts.post_of``: split once per load), by post number
    starts: dict[int, int]  # day -> first post
    deaths: list[dict]


def facts(gd) -> Facts:
    memo = gd.memo.get("mafia_facts")
    if memo is not None:
        return memo
    replacements = [e.data for e in gd.of_type("replace")]
    aliases = [e.data for e in gd.of_type("alias")]
    events = sorted(gd.of_type("post"), key=lambda e: e.data["floor"])
    starts: dict[int, int] = {}
    for e in events:
        starts.setdefault(e.data["day"], e.data["floor"])
    posts = [post_of(e, gd) for e in events]
    for e in gd.of_type("start_day"):
        starts[e.data["day"]] = e.data["post"]  # the host's word wins, the later fact over the earlier
    got = Facts(Slots(gd.roster, replacements, aliases), posts, starts, [e.data for e in gd.of_type("death")])
    gd.memo["mafia_facts"] = got
    return got


def hosts(gd) -> dict[str, int]:
    """The host's accounts (``modtool host`` facts), folded, each with the first post it
    hosts from (-1: the whole game; the earliest of its facts)."""
    memo = gd.memo.get("mafia_hosts")
    if memo is None:
        memo = {}
        for e in gd.of_type("host"):
            key = str(e.data.get("account", "")).casefold()
            post = e.data.get("post", -1)
            memo[key] = min(memo.get(key, post), post)
        gd.memo["mafia_hosts"] = memo
    return memo


def is_host(gd, account: str, post: int) -> bool:
    """``account`` posts as the host at ``post``: its posts are not votes."""
    since = hosts(gd).get(account.casefold())
    return since is not None and post >= since


def unrecorded_players(gd) -> list[str]:
    """Accounts with saved posts that were no slot's when they posted and are no host's: most
    likely a replacement the host has not recorded yet (``modtool replace``, MS-R4)."""
    f = facts(gd)
    found: dict[str, None] = {}
    for p in f.posts:
        if f.slots.of_author(p.author, p.floor) is None and not is_host(gd, p.author, p.floor) \
                and f.slots.find(p.author) is None:
            found.setdefault(p.author, None)
    return list(found)


def unrecorded_named(gd, text: str) -> str | None:
    """The account of ``unrecorded_players`` that ``text`` starts with (any case, whole words), the longest."""
    folded = text.casefold()
    hits = [a for a in unrecorded_players(gd) if folded.startswith(a.casefold())
            and (len(text) == len(a) or not (text[len(a)].isalnum() or text[len(a)] == "_"))]
    return max(hits, key=len) if hits else None


def replace_hint(name: str) -> Msg:
    """MS-R4: a name that is a posting account but plays no slot yet."""
    return Msg("\"{name}\" posts in the thread but plays no slot yet: if {name} replaced a player, record it "
               "first with modtool replace GAME_DIR SLOT \"{name}\" --post N (the host's announcement)", name=name)


def days(gd) -> list[int]:
    return sorted(facts(gd).starts)


def tally_day(gd, day: int, upto_post: int | None = None, upto_time: datetime | None = None) -> DayTally:
    f = facts(gd)
    start = f.starts.get(day)
    if start is None:
        t = DayTally(day, 0, [k for k in f.slots.keys() if not _dead_before(gd, f, k, 0, day)])
        _recorded_lynch(gd, t, upto_post, upto_time)
        return t
    living = [k for k in f.slots.keys() if not _dead_before(gd, f, k, start, day)]
    t = DayTally(day, start, living)
    t.deadline = deadline_of(gd, day)
    seq = 0
    deaths = sorted((d for d in f.deaths if d["post"] > start), key=lambda d: d["post"])
    posts = _day_posts(f, day, upto_post)
    standing = standing_of(gd, day)
    if standing is not None:  # MS-R6: the day is read from the votes standing at the host's post
        t.standing = standing
        posts = [p for p in posts if p.floor >= standing["post"]]
        while deaths and deaths[0]["post"] <= standing["post"]:
            _remove(t, deaths.pop(0)["slot"])
        seq = _stand(t, standing)
    else:
        saved = _day_posts(f, day, None)
        later = [p for d, p in f.starts.items() if d > day]
        if saved and saved[0].floor > start:
            t.gap = (start, saved[0].floor)
        elif not saved and later:  # a day gone by with none of its posts saved (a host took over later)
            t.gap = (start, min(later))
    for post in posts:
        n = post.floor
        if upto_time is not None and post.time > upto_time:
            break
        if t.deadline is not None and post.time > t.deadline:  # MS-R3: the day is over at its deadline
            t.deadline_passed = True
            break
        while deaths and deaths[0]["post"] <= n:  # a death in the day: the slot leaves, votes on it fall
            _remove(t, deaths.pop(0)["slot"])
        t.last_post = n
        if is_host(gd, post.author, n):  # the host's posts are never votes (a count quoting "VOTE: X")
            continue
        voter = f.slots.of_author(post.author, n)
        if voter is None or voter not in t.living:
            continue
        acts = own_actions(post.split(keep_tags=True), f.slots.names_someone)
        if acts is None:
            t.unresolved.append(Unresolved(n, voter, "", None, "unreadable"))
            continue
        if post.edited or post.extra.get("earlier"):
            _note_edit(t, post, voter, acts)
        split = post.split(keep_tags=True)
        for said in own_mentions(split, f.slots.names_someone):
            named = _names_someone(f, said.target)
            if named is not None:
                t.flags.append(Flag(n, voter, said.kind, said.target, named))
        had = t.votes.get(voter, (None,))[0]
        before = dict(t.votes)
        seq = _read_actions(t, f, acts, voter, n, seq)
        if t.votes != before:
            now = t.votes.get(voter, (None,))[0]
            t.steps.append((n, post.time, voter, _counts(t), had is not None and now is not None and now != had))
        if t.lynched is not None:
            return t
    if _recorded_lynch(gd, t, upto_post, upto_time):
        return t
    if t.gap is not None:  # MS-R6: without the votes standing before the saved posts, no deadline result
        t.deadline_passed = False
        return t
    if t.deadline is not None and not t.deadline_passed:
        # The day ran out when the next one started (and the tally reads to the day's end), or when asked at a later time.
        whole_day = upto_post is None or bool(posts) and upto_post >= _day_posts(f, day, None)[-1].floor
        ran_out = any(d > day for d in f.starts) and whole_day and upto_time is None
        t.deadline_passed = ran_out or (upto_time is not None and upto_time >= t.deadline)
    if t.deadline_passed:
        _at_deadline(gd, t)
    return t


def not_started(day: int | None, known: list[int]) -> UserError:
    """The refusal of a ``--day`` that names no started day (a typo of the day, most often)."""
    return UserError(Problem(Msg("command line --day"), Msg(
        "day {day} has not started; the days started so far: {days} (modtool start-day records where a day starts)",
        day="?" if day is None else day, days=", ".join(map(str, sorted(known))) or Msg("none"))))


def day_of_post(gd, post: int) -> int | None:
    """The day whose posts hold post ``post`` (from its start to the post before the next day's);
    None before the first day starts."""
    starts = facts(gd).starts
    held = [d for d, p in starts.items() if p <= post]
    return max(held, key=lambda d: starts[d]) if held else None


def day_upto(gd, day: int | None, upto_post: int) -> int:
    """The day a count as at post ``upto_post`` is of: the day given, or else the day whose posts
    hold it. Refused (``UserError``) where that day's posts do not hold it (the post just before a day
    given is its opening count: no post read), and where the votes
    standing at it are not known (MS-R6: before the host's recorded standing votes)."""
    f = facts(gd)
    ordered = sorted(f.starts.items(), key=lambda kv: kv[1])
    given = day
    if day is None:
        day = day_of_post(gd, upto_post)
        if day is None:
            if not ordered:
                return 1
            first, first_post = ordered[0]
            raise UserError(Problem(Msg("command line --upto-post"), Msg(
                "post #{post} is before day {day} starts (#{start}): no day holds it", post=upto_post, day=first,
                start=first_post)))
    start = f.starts.get(day)
    if start is not None:
        later = [p for d, p in f.starts.items() if d > day]
        end = min(later) - 1 if later else None
        # The post just before the day's start, with the day given: the count as the day opened (D.0), no post read.
        if upto_post < start - 1 or upto_post == start - 1 and given is None or (end is not None and upto_post > end):
            span = (Msg("its posts run from #{start} to #{end}", start=start, end=end) if end is not None
                    else Msg("its posts run from #{start} on", start=start))
            raise UserError(Problem(Msg("command line --upto-post"), Msg(
                "post #{post} is not a post of day {day}: {span}", post=upto_post, day=day, span=span)))
        standing = standing_of(gd, day)
        if standing is not None and upto_post < standing["post"]:
            saved = _day_posts(f, day, None)
            both = bool(saved) and saved[0].floor >= standing["post"]
            raise UserError(Problem(Msg("command line --upto-post"), Msg(
                "the votes before #{post} are not known: {which} start at #{post} (MS-R6)", post=standing["post"],
                which=Msg("the saved posts and the standing votes") if both else Msg("the standing votes"))))
    return day


def standing_of(gd, day: int) -> dict | None:
    """MS-R6: the host's latest ``standing`` fact for day ``day`` (a later one replaces it)."""
    found = [e.data for e in gd.of_type("standing") if e.data.get("day") == day]
    return found[-1] if found else None


def lynch_of(gd, day: int) -> dict | None:
    """MS-R6: the host's latest ``lynch`` fact for day ``day``."""
    found = [e.data for e in gd.of_type("lynch") if e.data.get("day") == day]
    return found[-1] if found else None


def _stand(t: DayTally, standing: dict) -> int:
    """The votes standing at the host's post, in the order given (cast order); the cast counter after them.
    The not-voting list keeps the host's order (``stopped``); who votes later leaves it as usual."""
    seq = 0
    for vote in standing.get("votes") or ():
        if not isinstance(vote, dict):
            continue
        voter, target = vote.get("voter"), vote.get("target")
        target = NO_LYNCH if target == NO_LYNCH_TARGET else target
        if voter in t.living and (target == NO_LYNCH or target in t.living) and voter not in t.votes:
            seq += 1
            t.votes[voter] = (target, seq)
    t.stopped = [k for k in standing.get("not_voting") or () if k in t.living and k not in t.votes]
    return seq


def _recorded_lynch(gd, t: DayTally, upto_post: int | None, upto_time: datetime | None) -> bool:
    """MS-R6: a day that ended without a replayed lynch ends in the host's ``lynch`` fact, from its post on."""
    fact = lynch_of(gd, t.day)
    if fact is None or upto_time is not None or (upto_post is not None and upto_post < fact["post"]):
        return False
    t.lynched, t.hammer_post, t.lynch_recorded, t.deadline_passed = fact["slot"], fact["post"], True, False
    return True


def _note_edit(t: DayTally, post, voter: str, acts) -> None:
    """G-R3, MS-R1: an edited post that is (or was) a vote post counts as it reads now and is
    shown with what each version before it did."""
    from dataclasses import replace

    before = []
    for version in post.extra.get("earlier") or ():
        old = own_actions(replace(post, body=str(version.get("body", "")), extra={}).split(keep_tags=True))
        before.append(old or [])
    if acts or any(before):
        t.edited.append(Edited(post.floor, voter, str(post.edited or ""), list(acts), before))


def deadline_of(gd, day: int) -> datetime | None:
    """The day's deadline: the host's latest ``close`` fact for it (a later extension replaces it)."""
    closes = [e for e in gd.of_type("close") if e.data.get("day") == day]
    return event_time(gd, closes[-1]) if closes else None


DEADLINE_RULES = ("no_lynch", "plurality")


def _at_deadline(gd, t: DayTally) -> None:
    """MS-R3: at the deadline without a majority nobody is lynched; with option
    ``deadline_rule: plurality`` the unique leader is (a tie, or no lynch ahead: nobody)."""
    rule = gd.options.get("deadline_rule", "no_lynch")
    if rule not in DEADLINE_RULES:
        raise UserError(Problem(gd.source, Msg("options → deadline_rule is {rules}, not \"{rule}\"", rules=" or ".join(DEADLINE_RULES), rule=rule)))
    if rule == "plurality":
        counts = {target: len(t.voters_of(target)) for target in t.targets()}
        if counts:
            top = max(counts.values())
            leaders = [k for k, v in counts.items() if v == top]
            if len(leaders) == 1 and leaders[0] != NO_LYNCH:
                t.lynched = leaders[0]


def _counts(t: DayTally) -> dict[str, int]:
    counts: dict[str, int] = {}
    for target, _ in t.votes.values():
        counts[target] = counts.get(target, 0) + 1
    return counts


def _read_actions(t: DayTally, f: Facts, acts, voter: str, n: int, seq: int) -> int:
    """One post's actions, in order; the cast counter after them. Stops at a reached majority."""
    for act in acts:
        if act.kind == "unvote":
            found = f.slots.resolve(act.target) if act.target else None
            if found is not None and found.key is None:
                # MS-R1: unvote takes nothing, a separator, or a name that resolves. A name
                # that does not (a typo) is unresolved, with a hint, as a vote's (MS-R2);
                # words that name no one are prose.
                named = _names_someone(f, act.target)
                if found.hint or named:
                    t.unresolved.append(Unresolved(n, voter, act.target, found.hint or f.slots.name(named, n)))
                continue
            t.drop(voter)
            continue
        if act.kind == "no_lynch":
            target = NO_LYNCH
        else:
            found = f.slots.resolve(act.target)
            if found.key is None or found.key not in t.living:
                t.unresolved.append(Unresolved(n, voter, act.target, found.hint,
                                               "unknown" if found.key is None else "dead"))
                continue
            target = found.key
        if t.votes.get(voter, (None,))[0] != target:
            seq += 1
            t.votes[voter] = (target, seq)
        if len(t.voters_of(target)) >= t.majority:
            t.lynched, t.hammer_post = target, n
            return seq
    return seq


def _names_someone(f: Facts, text: str) -> str | None:
    """The slot the first one to three words of ``text`` name (MS-R2), if any."""
    words = text.split()
    for k in (3, 2, 1):
        if len(words) >= k:
            key = f.slots.resolve(" ".join(words[:k]).strip(".,!?;:'\"()")).key
            if key is not None:
                return key
    return None


def _day_posts(f: Facts, day: int, upto_post: int | None):
    """The posts of day ``day`` (its start to the post before the next day's), up to ``upto_post``."""
    start = f.starts[day]
    later = [p for d, p in f.starts.items() if d > day]
    end = min(later) - 1 if later else None
    bounds = [x for x in (end, upto_post) if x is not None]
    last = min(bounds) if bounds else None
    return [p for p in f.posts if p.floor >= start and (last is None or p.floor <= last)]


_COUNT_TITLE = regex.compile(r"\bVote\s*Count\s*(\d+)\.(\d+)\b", regex.I)


def next_count_number(gd, t: DayTally) -> int:
    """N of the next "Vote Count D.N" of day ``t.day`` (the house style numbers a
    day's counts from D.0, the empty count that opens it): one more than the
    highest D.N posted that day up to the tallied post by an account that plays
    no slot (the host), in a post's own text, not in quotes; with none posted,
    0 while no one has voted, else 1."""
    f = facts(gd)
    if t.day not in f.starts or t.last_post is None:  # no post of the day read yet
        return 0
    found = [int(m.group(2)) for p in _day_posts(f, t.day, t.last_post)
             if f.slots.of_author(p.author, p.floor) is None  # the host's (no player's "unofficial" count)
             and not isinstance(own := p.split(), MarkupError)
             for m in _COUNT_TITLE.finditer(own.own) if int(m.group(1)) == t.day]
    if found:
        return max(found) + 1
    return 1 if t.votes or t.stopped or t.unresolved else 0


def _remove(t: DayTally, key: str) -> None:
    if key in t.living:
        t.living.remove(key)
    t.votes.pop(key, None)
    for voter in [v for v, (target, _) in t.votes.items() if target == key]:
        t.drop(voter)


def _dead_before(gd, f: Facts, key: str, start: int, day: int) -> bool:
    """Dead before day ``day`` starts: a death fact before its first post, or lynched on an earlier day."""
    if any(d["slot"] == key and d["post"] <= start for d in f.deaths):
        return True
    if any(e.data.get("slot") == key and e.data.get("day", day) < day for e in gd.of_type("lynch")):
        return True  # MS-R6: an earlier day's lynch the host recorded
    for earlier in (d for d in f.starts if d < day):
        if _lynched(gd, earlier) == key:
            return True
    return False


def _lynched(gd, day: int) -> str | None:
    memo = gd.memo.setdefault("mafia_lynched", {})
    if day not in memo:
        memo[day] = tally_day(gd, day).lynched
    return memo[day]
