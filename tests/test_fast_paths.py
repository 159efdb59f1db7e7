"""The shortcuts that keep a 100,000-post ledger cheap give exactly what the
plain code gives: the event check, effective events, post times, lurking
counts (the speed bars of tests/bench/; every existing test still passes byte for byte)."""

from __future__ import annotations

import random
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from modtool.base.events import Event
from modtool.core.gamefile import effective_events, event_schemas, open_game
from modtool.packs.m42 import facts
from modtool.packs.m42.lurking import LurkDay, LurkWatch, count_posts, lurking, post_counts
from modtool.forum.posts import Post
from modtool.base.problems import UserError
from modtool.core.roster import Character, Roster
from modtool.core.schema import COMMON_EVENTS, check_event, check_events
from modtool.base.times import parse_time

TZ = ZoneInfo("Asia/Shanghai")


class Text(str):
    """A str subclass: the full check accepts it (isinstance)."""


def _post(**over) -> dict:
    d = {"thread": "discussion", "day": 2, "pid": "9001", "floor": 3, "author": "红红的红",
         "time": "2026-11-03 12:00:00", "body": "我是好人"}
    d.update(over)
    return {k: v for k, v in d.items() if v is not _DROP}


_DROP = object()
_ODD_VALUES = [None, True, False, 0, -1, 1, 2.0, "2", "", "vote", "lurk", Text("vote"), [], ["vote"], {}, {"pid": "1"}]


def _variants(rng: random.Random, n: int) -> list[dict]:
    """Posts with every kind of mistake a hand edit makes, and good ones."""
    fields = list(COMMON_EVENTS["post"]) + ["note", "type2"]
    out = [_post(), _post(pid=_DROP), _post(edited="x", reply_to={"pid": "1"}), _post(tid="7", source="a.json")]
    for _ in range(n):
        d = _post()
        for _ in range(rng.randint(1, 3)):
            key = rng.choice(fields)
            if rng.random() < 0.25:
                d.pop(key, None)
            else:
                d[key] = rng.choice(_ODD_VALUES)
        out.append(d)
    return out


def test_check_events_gives_what_check_event_gives_event_by_event():
    schemas = event_schemas("m42")
    rng = random.Random(42)
    events = [Event("post", d, i) for i, d in enumerate(_variants(rng, 3000), 1)]
    # other types, well formed or not, between the posts
    events += [Event("close", {"day": 1, "at": "2026-11-02 21:00"}, 9001),
               Event("close", {"day": 0, "at": "2026-11-02 21:00"}, 9002),
               Event("proxy", {"day": 1, "voter": "a", "target": "b", "at": "x", "kind": "oops"}, 9003),
               Event("act", {"night": [1], "actor": "a", "ability": "kill"}, 9004),
               Event("bar", {"day": 2, "voters": "a"}, 9005),
               Event("nonsense", {}, 9006),
               Event("close", {"day": 1, "at": "2026-11-02 21:00"}, 9007)]
    rng.shuffle(events)
    expected = [p for ev in events for p in check_event(ev, schemas, "账本")]
    assert check_events(events, schemas, "账本") == expected
    assert any("thread" in p.message for p in expected) and any(p.line == 9002 for p in expected)


def test_a_malformed_post_among_good_ones_is_reported_with_its_line(m42_game):
    good = "\n".join(
        f'- {{"type": "post", "thread": "discussion", "day": 1, "pid": "{i}", "floor": {i}, '
        f'"author": "红红的红", "time": "2026-11-02 12:00:00", "body": "好"}}' for i in range(1, 40))
    game = m42_game(good + '\n- {"type": "post", "thread": "discussion", "day": 1, "pid": "99", "floor": "三", '
                    '"author": "红红的红", "time": "2026-11-02 12:00:00", "body": "好"}\n' + good.replace('"pid": "', '"pid": "x'))
    gd = open_game(game)
    lines = (game / "ledger.yaml").read_text(encoding="utf-8").splitlines()
    bad_line = next(i for i, text in enumerate(lines, 1) if '"floor": "三"' in text)
    assert [(p.line, p.message) for p in gd.problems] == [(bad_line, "post 事件的 floor 应为整数，现在是「三」")]


@pytest.mark.parametrize("lines", [[1, 2, 3, 4], [1, None, None, 4], [1, 2, 2, 4]])
def test_effective_events_without_revert_keeps_every_event_whatever_its_line(lines):
    """Events are known by their ids, never their lines: without a revert every
    event counts, even events without a line or sharing one (made in code)."""
    events = [Event("post", {"n": i}, line) for i, line in enumerate(lines)]
    got, problems = effective_events(events, "账本")
    assert [id(e) for e in got] == [id(e) for e in events] and problems == []


@pytest.mark.parametrize("text", ["2026-11-02 21:00", "2026-11-02 21:00:07", "2026-03-29 02:30:00"])
def test_parse_time_fast_path_is_replace_tzinfo(text):
    for tz in (TZ, ZoneInfo("Europe/Berlin")):
        got = parse_time(text, tz)
        want = datetime.fromisoformat(text).replace(tzinfo=tz)
        assert got == want and got.tzinfo is tz and got.fold == want.fold and got.utcoffset() == want.utcoffset()


def test_the_first_unreadable_post_time_is_the_one_reported(m42_game):
    game = m42_game("""
    - {type: post, thread: discussion, day: 1, pid: "1", floor: 1, author: 红红的红, time: "2026-11-02 12:00", body: 好}
    - {type: post, thread: discussion, day: 1, pid: "2", floor: 2, author: 红红的红, time: "明天中午", body: 好}
    - {type: post, thread: discussion, day: 1, pid: "3", floor: 3, author: 红红的红, time: "后天", body: 好}
    """)
    gd = open_game(game)
    events = facts._posts_by_day(gd, "discussion")[1]
    with pytest.raises(UserError) as err:
        facts.post_times(gd, events)
    assert [(p.line, "明天中午" in p.message) for p in err.value.problems] == [(events[1].line, True)]
    assert facts.post_times(gd, events[:1]) == [facts.post_of(events[0], gd).time]


ROSTER = Roster([Character("甲", "a"), Character("乙", "b"), Character("丙", "c")])


def _posts(rng: random.Random, start: datetime, n: int) -> list[Post]:
    out = []
    for i in range(n):
        pid = rng.choice(["", str(rng.randint(1, n // 2))])
        out.append(Post(pid, rng.randint(1, 20), rng.choice("abcx"), start + timedelta(minutes=rng.randint(-60, 600)), "…"))
    return out


def _reference_counts(day: LurkDay, roster=None) -> dict:
    """M42-R14 counting as first written: unique posts (pid, else floor+author+time), then the window."""
    seen, posts = set(), []
    for p in day.posts:
        key = ("pid", p.pid) if p.pid else ("floor", p.floor, p.author, p.time)
        if key not in seen:
            seen.add(key)
            posts.append(p)
    posts = [p for p in posts if day.start <= p.time <= day.end]
    if roster is None:
        out = {}
        for p in posts:
            out[p.author] = out.get(p.author, 0) + 1
        return out
    raw = {name: 0 for name in day.in_game}
    for p in posts:
        c = roster.by_account(p.author)
        if c is not None:
            raw[c.name] = raw.get(c.name, 0) + 1
    order = {name: i for i, name in enumerate(roster.names())}
    return {k: raw[k] for k in sorted(raw, key=lambda n: (order.get(n, len(order)), n))}


def test_lurking_counts_and_the_day_by_day_watch_match_the_plain_rule():
    rng = random.Random(7)
    days = []
    for n in range(1, 9):
        start = datetime(2026, 11, 1, 10, tzinfo=TZ) + timedelta(days=n)
        d = LurkDay(n, start, start + timedelta(hours=8), sped_up=n == 5, in_game={"甲", "乙"} if n != 3 else {"甲"},
                    posts=_posts(rng, start, rng.randint(0, 40)), voted={"甲"})
        assert post_counts(d, ROSTER) == _reference_counts(d, ROSTER)
        assert post_counts(d) == _reference_counts(d)
        assert list(post_counts(d)) == list(_reference_counts(d))
        stamps = [(p.pid, p.floor, p.author, p.time) for p in d.posts]
        counted = LurkDay(n, d.start, d.end, d.sped_up, d.in_game, [], d.voted,
                          count_posts(stamps, d.start, d.end, d.in_game, ROSTER))
        days.append((d, counted))
    watch = LurkWatch(ROSTER)
    by_day = [r for _, counted in days for r in watch.close(counted)]
    assert by_day == lurking([d for d, _ in days], ROSTER)
    assert any(r.rule == "c" for r in by_day)
