"""M42-R2's tie-break, explained as it is computed: among the tied, the earliest of
each one's LAST rise to the final maximum; a character who reached it first but fell
back is not "first to reach it" (issue 15: the post said 「最先达到」 against the chart)."""

from __future__ import annotations

from modtool.forum.posts import ReplyRef
from tests.test_m42_tally import change, ctx, post, run, vote

FELL_BACK = [
    post(2, "白月初", vote("涂山红红")),
    post(3, "涂山雅雅", vote("涂山红红")),  # 红红 at 2 first
    post(4, "石宽", vote("白月初")),
    post(5, "李去浊", vote("白月初")),  # 月初 at 2: his last rise to 2
    post(6, "涂山雅雅", change("金人凤"), reply_to=ReplyRef(floor=3)),  # 红红 back to 1
    post(8, "东方秦兰", vote("涂山红红")),  # 红红 at 2 again: her last rise
]


def test_m42_r2_tie_explanation_names_each_last_rise_and_never_says_first_to_reach():
    t = run(ctx(day=1), FELL_BACK)
    assert t.result["target"] == "白月初"
    explain = t.result["explain"]
    assert "最先达到" not in explain
    assert "最后一次升到2票" in explain and "M42-R2" in explain
    assert "白月初 5楼（11-04 08:05）、涂山红红 8楼（11-04 08:08）" in explain
    assert "白月初最早，当选警长" in explain
    assert "涂山红红在 3楼（11-04 08:03） 曾先到2票" in explain  # what the chart shows, accounted for


def test_m42_r2_tie_without_a_fall_back_names_the_last_rises_only():
    t = run(ctx(day=1), FELL_BACK[:4])
    explain = t.result["explain"]
    assert t.result["target"] == "涂山红红"
    assert "涂山红红 3楼（11-04 08:03）、白月初 5楼（11-04 08:05）" in explain and "曾先到" not in explain


def test_m42_r2_day1_vote_post_carries_the_explanation(m42_game):
    from modtool.core.gamefile import open_game
    from modtool.packs.m42.announce import context
    from modtool.packs.m42.replay import replay
    from modtool.core.render import render
    from tests.test_m42_engine import adv
    from tests.test_m42_engine import vote as ledger_vote

    events = (ledger_vote(1, 2, "月初不是白", "涂山红红", "2026-11-02 10:00")
              + ledger_vote(1, 3, "石头宽宽", "白月初", "2026-11-02 10:05") + adv("day", 1, "2026-11-03 21:00"))
    game = m42_game(events)
    gd = open_game(game)
    st = replay(gd)
    assert st.sheriff == "涂山红红"
    text = render("m42", "vote", "bbcode", context(gd, st, "vote", "bbcode", 1, None), game)
    assert "涂山红红 2楼（11-02 10:00）、白月初 3楼（11-02 10:05）；涂山红红最早，当选警长（M42-R2）" in text
