"""``modtool import``: forum dumps to ``post`` events, once each.

A post is keyed by its forum post id, or by (thread, day, floor) when the
dump has none, so importing the same dump twice appends nothing. Accounts not
in the roster are imported too (the tally lists them as ignored) and are
reported here, never guessed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from modtool.gamefile import GameDir
from modtool.posts import Post
from modtool.problems import Problem


@dataclass
class ImportReport:
    added: int = 0
    skipped: int = 0
    changed: list[Post] = field(default_factory=list)  # same key, different text now
    unknown_accounts: dict[str, list[int]] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)


def _stamp(t) -> str:
    """"YYYY-MM-DD HH:MM:SS" in the post's own zone (isoformat asks the zone for an offset: slow)."""
    return "%04d-%02d-%02d %02d:%02d:%02d" % (t.year, t.month, t.day, t.hour, t.minute, t.second)


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


def _key(thread: str, day, pid: str, floor) -> tuple:
    return ("pid", pid) if pid else ("floor", thread, day, floor)


def plan_import(gd: GameDir, files: list[Path], thread: str, day: int, progress=None) -> tuple[list[dict], ImportReport]:
    from modtool.forum import read_dump

    report = ImportReport()
    existing = {}
    for ev in gd.of_type("post"):
        d = ev.data
        existing[_key(d.get("thread"), d.get("day"), str(d.get("pid", "") or ""), d.get("floor"))] = d
    new_events: list[dict] = []
    for path in files:
        posts, problems = read_dump(Path(path), gd.tz, progress=progress)
        report.problems += problems
        for post in posts:
            key = _key(thread, day, post.pid, post.floor)
            old = existing.get(key)
            if old is not None:
                if (old.get("thread"), old.get("day")) != (thread, day):
                    report.problems.append(Problem(str(path), f"帖子 pid {post.pid} 已作为第 {old.get('day')} 天的"
                                                   f"{old.get('thread')} 帖导入过，这次要导入为第 {day} 天的 {thread} 帖：请检查是否选错了文件", floor=post.floor))
                elif old.get("body") != post.body:
                    report.changed.append(post)
                report.skipped += 1
                continue
            ev = post_event(post, thread, day)
            existing[key] = ev
            new_events.append(ev)
            if gd.roster.by_account(post.author) is None:
                report.unknown_accounts.setdefault(post.author, []).append(post.floor)
    report.added = len(new_events)
    return new_events, report
