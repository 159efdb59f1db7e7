"""The M42 end post (issue 15): withdrawn cards are left out, and the timeline is in
time order whatever the order the facts were recorded in."""

from __future__ import annotations

import re

from modtool.core.gamefile import open_game
from modtool.packs.m42.announce import context
from modtool.packs.m42.replay import replay
from modtool.core.render import render
from tests.test_m42_discipline import card
from tests.test_m42_engine import DAY1, act


def end_post(game, fmt="bbcode"):
    gd = open_game(game)
    st = replay(gd)
    assert st.over
    return render("m42", "end", fmt, context(gd, st, "end", fmt, None, None), game)


SURRENDER = "".join(act(w, "surrender", at="2026-11-03 22:50") for w in ("王权霸业", "石宽", "李去浊", "金人凤"))


def test_m42_r13_end_post_leaves_out_withdrawn_and_waived_cards(m42_game):
    events = (card("东方月初", "yellow", "2026-11-03 20:00", "看错楼层的黄牌") + card("白月初", "blue", "2026-11-03 20:10", "格式")
              + '- {type: withdraw, card: 1, reason: "看错楼层"}\n'
              + '- {type: waive, day: 1, character: 石宽, rule: b, reason: "请假"}\n' + DAY1 + SURRENDER)
    for fmt in ("bbcode", "markdown"):
        text = end_post(m42_game(events), fmt)
        assert "看错楼层" not in text and "东方月初被判黄牌" not in text
        assert "石宽因潜水" not in text and "石宽第 1 天潜水" not in text
        assert "白月初被判蓝牌：格式" in text  # a card that stands is still there
        assert "李去浊因潜水被判黄牌" in text  # and so is a lurking yellow not waived


def test_m42_end_post_timeline_is_in_time_order(m42_game):
    """A card recorded after the day closed, with the time it was given (earlier), is
    listed at that time, not after the day's vote."""
    events = DAY1 + card("白月初", "blue", "2026-11-02 15:00", "补记的蓝牌") + SURRENDER
    for fmt in ("bbcode", "markdown"):
        text = end_post(m42_game(events), fmt)
        stamps = re.findall(r"(2026-11-\d\d \d\d:\d\d)　", text)
        assert len(stamps) > 5 and stamps == sorted(stamps)
        assert text.index("补记的蓝牌") < text.index("第 1 天投票")
