"""``modtool import``: forum dumps to ``post`` events, once each.

A post is keyed by its forum post id, or by (thread, day, floor) when the
dump has none, so importing the same dump twice appends nothing. Accounts not
in the roster are imported too (the tally lists them as ignored) and are
reported here, never guessed.

``plan_import`` is the hot loop of a large import (100,000 posts, see
tests/bench/bench_import.py): it reads the dumps as rows
(``modtool.forum.read_dump_rows``: no Post and no datetime for each post),
builds each event in one step and asks the roster once per account.
``post_event`` is the plain definition of an event; tests/test_forum_bulk.py
checks that both agree. Every post is checked against the bounds of
``modtool.forum.bounds`` (floors, post ids, years, sizes, account names,
unstorable characters) before anything is planned: a post outside them
refuses the import, named.
"""

from __future__ import annotations

import gc
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from modtool.base.events import fingerprint
from modtool.core.registry import dump_formats, get_pack
from modtool.forum import read_dump_rows, time_stamp
from modtool.forum.bounds import check_rows, shown
from modtool.core.gamefile import GameDir
from modtool.forum.posts import Post
from modtool.base.problems import Problem
from modtool.forum.formats import CORE_FORMATS


@dataclass
class ImportReport:
    added: int = 0
    skipped: int = 0
    # What the command prints of posts and accounts comes from the dump: their accounts as
    # ``modtool.forum.bounds.shown`` gives them (a bidi override escaped; the events keep the text).
    changed: list[Post] = field(default_factory=list)  # same key, different text now: recorded as a new version (G-R3)
    twice: list[Post] = field(default_factory=list)  # in this import twice with different texts: the first stands
    # Same post, same text, another time to the minute: skipped as before, but told (a time
    # mistyped in a saved file and put right is not taken by a re-import): (post, time in the ledger).
    retimed: list[tuple[Post, str, object]] = field(default_factory=list)  # (post, ledger's time, its event id)
    fresh: set = field(default_factory=set, repr=False)  # id() of the events this import adds
    unknown_accounts: dict[str, list[int]] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)
    notices: list[Problem] = field(default_factory=list)  # told, the import goes on


@dataclass(frozen=True)
class OutsideDay:
    """Posts about to be imported into ``day`` whose times fall outside that day
    (a likely wrong --day: told, never refused), as the game's pack decides
    (``GamePack.outside_day``, the one place of the rule): ``posts`` those
    posts (``floor``, ``author``, ``time``), ``first`` and ``last`` the times of
    the whole import, ``start`` and ``end`` the day's span where the ledger
    tells it ("YYYY-MM-DD HH:MM", else None), ``phase`` where the game is when
    the day has not begun yet (else None). ``notice`` is how the pack tells it,
    rendered by the pack from these values."""

    day: int
    posts: tuple[dict, ...]
    first: str
    last: str
    start: str | None = None
    end: str | None = None
    phase: str | None = None
    notice: Problem | None = None

    def rows(self) -> list[dict]:
        """Each post with the day's span, as ``Said.data`` lists it."""
        return [{**p, "day": self.day, "start": self.start, "end": self.end} for p in self.posts]


_stamp = time_stamp


def first_line(body: str, width: int = 40) -> str:
    """A post's first line that is not blank, cut to ``width`` characters, as it
    may be shown (``modtool.forum.bounds.shown``): what a list of posts quotes."""
    line = next((ln.strip() for ln in body.splitlines() if ln.strip()), "")
    return shown(line if len(line) <= width else line[:width - 1] + "…")


def post_event(post: Post, thread: str, day: int) -> dict:
    ev: dict = {"type": "post", "thread": thread, "day": day}
    if post.pid:
        ev["pid"] = post.pid
    ev.update(floor=post.floor, author=post.author, time=_stamp(post.time), body=post.body)
    if post.edited:
        ev["edited"] = post.edited
    if post.reply_to is not None:
        ref = {k: v for k, v in vars(post.reply_to).items() if v is not None}
        if ref:
            ev["reply_to"] = ref
    return ev


def _key(thread: str, day, pid: str, floor) -> str | tuple:
    """A post's identity: its pid (a str), else where it stands (a tuple;
    ``day`` None when post numbers run on through the game)."""
    return pid if pid else ("floor", thread, day, floor)


def plan_import(gd: GameDir, files: list[Path], thread: str, day: int, progress=None) -> tuple[list[dict], ImportReport]:
    """The events that importing ``files`` would append, and what to tell the
    director. ``progress(done, total)`` is passed on to the readers."""
    report = ImportReport()
    existing = {}

    pack = get_pack(gd.game.id)
    spans = pack.post_numbers_span_days
    formats = pack.forum_formats or CORE_FORMATS  # a dump in a format the game does not read is refused
    brought = dump_formats()  # the formats the games bring, known to the readers below only as values
    for ev in gd.of_type("post"):
        d = ev.data
        existing[_key(d.get("thread"), None if spans else d.get("day"), str(d.get("pid", "") or ""), d.get("floor"))] = d
    new_events: list[dict] = []
    # Nothing built here forms a reference cycle: the cyclic collector would
    # only walk the growing lists of rows and events again and again.
    enabled = gc.isenabled()
    gc.disable()
    try:
        for path in files:
            rows, problems = read_dump_rows(Path(path), gd.tz, progress=progress, formats=formats, brought=brought)
            for problem in problems:
                (report.notices if problem.notice else report.problems).append(problem)
            out_of_bounds = check_rows(rows, str(path))  # modtool.forum.bounds: nothing out of them is written
            if out_of_bounds:
                report.problems += out_of_bounds
                continue
            _plan_rows(gd, rows, str(path), thread, day, existing, new_events, report, spans)
            del rows
    finally:
        if enabled:
            gc.freeze()  # the planned events, out of the collector's way while the write checks and appends them
            gc.enable()
    report.added = len(new_events) - len(report.changed)
    return new_events, report


def _plan_rows(gd: GameDir, rows: list, source: str, thread: str, day: int, existing: dict,
               new_events: list[dict], report: ImportReport, spans: bool = False) -> None:
    """``post_event`` for each post (as a ``post_row``) not imported yet, inlined."""
    append = new_events.append
    in_roster: dict[str, bool] = {}
    by_account = gd.roster.by_account
    key_day = None if spans else day
    fresh = report.fresh
    for row in rows:
        pid, floor, author, stamp, body, edited, reply_to, _ = row
        key = pid if pid else ("floor", thread, key_day, floor)  # _key, inlined
        old = existing.get(key)
        if old is not None:
            if (old.get("thread"), old.get("day")) != (thread, day):
                said = "帖子 pid {pid} 已作为第 {old_day} 天的 {old_thread} 帖导入过，这次要导入为第 {day} 天的 {thread} 帖：请检查是否选错了文件" \
                    if pid else "帖子 {floor} 已作为第 {old_day} 天的 {old_thread} 帖导入过，这次要导入为第 {day} 天的 {thread} 帖：请检查是否选错了文件"
                report.problems.append(Problem(source, said, floor=floor, args=dict(pid=pid, floor=floor, old_day=old.get("day"), old_thread=old.get("thread"),
                                                                   day=day, thread=thread)))
            elif old.get("body") != body and all(v.get("body") != body for v in old.get("earlier") or ()):
                post = _row_post(row, source, gd.tz)
                if old.get("type") == "post" and id(old) in fresh:  # twice in this import: the first copy stands
                    report.twice.append(_as_shown(post))
                    report.skipped += 1
                    continue
                # G-R3: the post was edited on the forum: its new text is a new version of the same post
                report.changed.append(_as_shown(post))
                ref = old.get("version_of") or old.get("id")
                if type(ref) is not int:
                    ref = ref or fingerprint("post", {k: v for k, v in old.items() if k != "type"})
                ev = {"type": "edit", "of": ref}
                ev.update({k: v for k, v in post_event(post, thread, day).items() if k != "type"})
                existing[key] = {**ev, "earlier": list(old.get("earlier") or []) + [{"body": old.get("body")}],
                                 "version_of": ref}
                append(ev)
                continue
            if str(old.get("time", ""))[:16] != stamp[:16] and id(old) not in fresh:
                report.retimed.append((_as_shown(_row_post(row, source, gd.tz)), str(old.get("time", ""))[:16], old.get("id")))
            report.skipped += 1
            continue
        if pid:
            ev = {"type": "post", "thread": thread, "day": day, "pid": pid, "floor": floor, "author": author,
                  "time": stamp, "body": body}
        else:
            ev = {"type": "post", "thread": thread, "day": day, "floor": floor, "author": author, "time": stamp,
                  "body": body}
        if edited:
            ev["edited"] = edited
        if reply_to is not None:
            ref = {k: v for k, v in vars(reply_to).items() if v is not None}
            if ref:
                ev["reply_to"] = ref
        existing[key] = ev
        fresh.add(id(ev))
        append(ev)
        known = in_roster.get(author)
        if known is None:
            known = in_roster[author] = by_account(author) is not None or _known_elsewhere(gd, author)
        if not known:
            report.unknown_accounts.setdefault(shown(author), []).append(floor)


def _known_elsewhere(gd: GameDir, account: str) -> bool:
    """An account the game's pack knows beyond the roster (a recorded replacement)."""
    return get_pack(gd.game.id).known_account(gd, account)


def _as_shown(post: Post) -> Post:
    """``post`` to be printed: its account as it may reach a terminal."""
    author = shown(post.author)
    if author == post.author:
        return post
    from dataclasses import replace

    return replace(post, author=author)


def _row_post(row: tuple, source: str, tz) -> Post:
    pid, floor, author, _, body, edited, reply_to, when = row
    if not isinstance(when, datetime):
        when = datetime.fromtimestamp(when, tz)
    return Post(pid, floor, author, when, body, edited, reply_to, source)
