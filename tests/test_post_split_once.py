"""A post's body is split (own text / quotes / reply refs) once, when first
read, however many steps read it afterwards (tally, schedule requests,
nominations): ``Post.split`` memoises ``markup.split_body``."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

import pytest

from modtool.forum import markup
from modtool.packs.m42.schedule import compute_day_schedule
from modtool.forum.posts import Post, ReplyRef
from modtool.packs.zhenhuan.nominations import parse_forum_post
from tests.test_m42_tally import CST, ROSTER, at, change, ctx, post, run, vote


@pytest.fixture
def splits(monkeypatch):
    """Every split the splitter makes, whoever calls it and however it was
    imported: each split builds one ``markup.Body``."""
    calls = []

    class CountingBody(markup.Body):
        def __init__(self, *a, **kw):
            calls.append(kw.get("own", a[0] if a else None))
            super().__init__(*a, **kw)

    monkeypatch.setattr(markup, "Body", CountingBody)
    return calls


def test_each_post_body_is_split_once_however_many_steps_read_it(splits):
    quoted = "[quote]白月初 发表于 2026-11-04 08:02\n投票对象：石宽[/quote]\n"
    posts = [
        post(2, "白月初", vote("石宽")),
        post(3, "白月初", quoted + change("李去浊") + "\n申请加速", reply_to=ReplyRef(floor=2)),
    ]
    for _ in range(2):  # every step, twice over
        t = run(ctx(), posts)
        compute_day_schedule(2, at("08:00"), datetime(2026, 1, 1, 21).time(), CST, set(), posts, ROSTER)
        for p in posts:
            parse_forum_post(p)
    assert t.counts == {"李去浊": 1}  # the change counted: its body was read
    assert len(splits) == len(posts)


def test_the_memo_is_per_post_not_shared_through_extra(splits):
    shared = {}
    a = Post("1", 1, "甲", at("08:00"), "[b]甲[/b]", extra=shared)
    b = Post("2", 2, "乙", at("08:01"), "[b]乙[/b]", extra=shared)
    assert a.split().own == "甲" and b.split().own == "乙"
    assert replace(a, body="丙").split().own == "丙"  # a changed copy splits its own body
    assert a == replace(a) and a.split() is a.split()
    assert shared == {}


def test_keep_hidden_is_a_separate_view(splits):
    p = post(2, "白月初", "[hide]投票对象：石宽[/hide]")
    assert p.split().own.strip() == "" and "石宽" in p.split(keep_hidden=True).own
    assert len(splits) == 2


def test_the_mafia_day_splits_each_post_once_however_often_it_is_tallied(splits, tmp_path):
    """The mafia pack reads the same once-split posts (own text with its
    markup, ``Post.split(keep_tags=True)``), not the raw bodies."""
    from modtool.core.gamefile import open_game
    from modtool.packs.mafia.day import tally_day
    from tests.test_mafia_rules import game

    folder = game(tmp_path, [(1, "Alice", '[quote="Bob"][b]vote: Carol[/b][/quote][b]vote: Erin[/b]'),
                             (2, "Bob", "[b]vote: Erin[/b]"), (3, "Carol", "no vote here [b]at all[/b]")])
    gd = open_game(folder)
    for upto in (1, 2, 3, None, None):
        t = tally_day(gd, 1, upto)
    assert t.voters_of("Erin") == ["Alice", "Bob"]
    assert len(splits) == 3
