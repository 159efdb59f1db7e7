"""M42-R2 (sheriff election), M42-R3 (double vote, abstention), M42-R4 (exile,
scapegoat), and the tally's report: counts, not_voted, upto_floor/upto_time,
to_json."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone

from modtool.packs.m42.tally import DayContext, ProxyVote, VoteOptions, scapegoat_of, tally_day
from modtool.packs.m42.voteparse import VoteLabels
from modtool.forum.posts import Post, ReplyRef
from modtool.core.roster import Character, Roster

CST = timezone(timedelta(hours=8))

ROSTER = Roster(
    [
        Character("涂山苏苏", "苏苏今天也很努力", ("苏苏",), "villager"),
        Character("白月初", "月初不是白", (), "villager"),
        Character("涂山红红", "红红的红", ("红红",), "seer"),
        Character("东方月初", "东方不败月", (), "villager"),
        Character("涂山雅雅", "雅雅女王", ("雅雅",), "villager"),
        Character("王权富贵", "富贵不能淫", ("富贵",), "hunter"),
        Character("东方淮竹", "淮竹清风", ("淮竹",), "scapegoat"),
        Character("王权霸业", "霸业未成", (), "werewolf"),
        Character("涂山容容", "容容的算盘", ("容容",), "witch"),
        Character("东方秦兰", "秦兰兰", ("秦兰",), "villager"),
        Character("石宽", "石头宽宽", (), "werewolf"),
        Character("李去浊", "去浊留清", (), "werewolf"),
        Character("金人凤", "金凤凰", (), "werewolf"),
    ]
)
ACCOUNT = {c.name: c.account for c in ROSTER}
ALL = {c.name for c in ROSTER}


def at(hm: str) -> datetime:
    h, m = hm.split(":")
    return datetime(2026, 11, 4, int(h), int(m), tzinfo=CST)


def post(floor, who, body, when=None, *, reply_to=None):
    return Post(
        pid=str(7000 + floor),
        floor=floor,
        author=ACCOUNT[who],
        time=at(when) if when else at("08:00") + timedelta(minutes=floor),
        body=body,
        reply_to=reply_to,
    )


def vote(target, reason="发言有问题"):
    return f"投票对象：{target}\n投票理由：{reason}"


def change(target, reason="重新考虑"):
    return f"改票对象：{target}\n改票理由：{reason}"


def ctx(day=2, alive=None, sheriff=None, barred=(), sped_up=False):
    alive = set(alive if alive is not None else ALL)
    return DayContext(
        day=day,
        roster=ROSTER,
        alive=alive,
        sheriff=sheriff,
        barred=set(barred),
        close=at("21:00"),
        sped_up=sped_up,
        scapegoat=scapegoat_of(ROSTER, alive),
    )


def run(c, posts, proxies=(), **kw):
    return tally_day(c, list(posts), list(proxies), VoteLabels(), VoteOptions(), **kw)


# --- M42-R2 --------------------------------------------------------------------


def test_m42_r2_most_votes_becomes_sheriff():
    t = run(
        ctx(day=1),
        [
            post(2, "白月初", vote("涂山红红")),
            post(3, "涂山雅雅", vote("涂山红红")),
            post(4, "石宽", vote("白月初")),
        ],
    )
    assert t.result["kind"] == "sheriff" and t.result["target"] == "涂山红红"
    assert t.result["rule"] == "M42-R2" and "当选警长" in t.result["explain"]


def test_m42_r2_tie_earliest_to_max():
    # 红红 reaches 2 at floor 3; 月初 reaches 2 at floor 5: 红红 wins.
    t = run(
        ctx(day=1),
        [
            post(2, "白月初", vote("涂山红红")),
            post(3, "涂山雅雅", vote("涂山红红")),
            post(4, "石宽", vote("白月初")),
            post(5, "李去浊", vote("白月初")),
        ],
    )
    assert t.result == {
        "kind": "sheriff",
        "target": "涂山红红",
        "tied": ["白月初", "涂山红红"],  # roster order
        "rule": "M42-R2",
        "explain": t.result["explain"],
    }


def test_m42_r2_tie_uses_the_last_rise_to_the_maximum():
    # 红红 reaches 2 first (floor 3), drops to 1 by a change (floor 6), and is
    # back at 2 at floor 8; 月初 reached 2 at floor 5 and stayed: 月初 wins.
    t = run(
        ctx(day=1),
        [
            post(2, "白月初", vote("涂山红红")),
            post(3, "涂山雅雅", vote("涂山红红")),
            post(4, "石宽", vote("白月初")),
            post(5, "李去浊", vote("白月初")),
            post(6, "涂山雅雅", change("金人凤"), reply_to=ReplyRef(floor=3)),
            post(8, "东方秦兰", vote("涂山红红")),
        ],
    )
    assert t.counts == {"涂山红红": 2, "白月初": 2, "金人凤": 1}
    assert t.result["target"] == "白月初" and t.result["tied"] == ["白月初", "涂山红红"]


def test_m42_r2_no_valid_votes_no_sheriff():
    t = run(ctx(day=1), [post(2, "白月初", vote("弃权")), post(3, "石宽", "投票对象：小明\n投票理由：x")])
    assert t.result["kind"] == "no_sheriff" and t.result["target"] is None


def test_m42_r3_day1_every_vote_weight_1():
    t = run(ctx(day=1, sheriff="白月初"), [post(2, "白月初", vote("石宽"))])
    assert t.valid[0]["weight"] == 1 and t.counts == {"石宽": 1}


# --- M42-R3 --------------------------------------------------------------------


def test_m42_r3_sheriff_vote_counts_double_from_day_2():
    t = run(
        ctx(day=2, sheriff="涂山红红"),
        [
            post(2, "涂山红红", vote("石宽")),
            post(3, "白月初", vote("李去浊")),
            post(4, "涂山雅雅", vote("李去浊")),
        ],
    )
    assert t.valid[0]["weight"] == 2
    assert t.counts == {"石宽": 2, "李去浊": 2}
    assert t.result["kind"] == "scapegoat" and t.result["tied"] == ["石宽", "李去浊"]


def test_m42_r3_sheriff_change_keeps_double_weight():
    t = run(
        ctx(day=3, sheriff="涂山红红"),
        [post(2, "涂山红红", vote("石宽")), post(3, "涂山红红", change("李去浊"), reply_to=ReplyRef(floor=2))],
    )
    assert t.counts == {"李去浊": 2}


def test_m42_r3_abstention_counts_nothing_even_from_sheriff():
    t = run(ctx(day=2, sheriff="涂山红红"), [post(2, "涂山红红", vote("弃权")), post(3, "白月初", vote("石宽"))])
    assert t.counts == {"石宽": 1}
    assert t.valid[0]["weight"] == 0
    assert t.result == {**t.result, "kind": "exile", "target": "石宽"}


# --- M42-R4 --------------------------------------------------------------------


def test_m42_r4_unique_top_is_exiled():
    t = run(ctx(), [post(2, "白月初", vote("石宽")), post(3, "涂山雅雅", vote("石宽")), post(4, "石宽", vote("白月初"))])
    assert t.result["kind"] == "exile" and t.result["target"] == "石宽" and t.result["rule"] == "M42-R4"


def test_m42_r4_tie_scapegoat_exiled_instead():
    t = run(ctx(), [post(2, "白月初", vote("石宽")), post(3, "石宽", vote("白月初"))])
    assert t.result["kind"] == "scapegoat" and t.result["target"] == "东方淮竹"
    assert t.result["tied"] == ["白月初", "石宽"]
    assert "替罪羊" in t.result["explain"]


def test_m42_r4_tie_scapegoat_among_the_tied():
    t = run(ctx(), [post(2, "白月初", vote("东方淮竹")), post(3, "石宽", vote("白月初"))])
    assert t.result["kind"] == "scapegoat" and t.result["target"] == "东方淮竹"


def test_m42_r4_tie_without_scapegoat_nobody_out():
    t = run(ctx(alive=ALL - {"东方淮竹"}), [post(2, "白月初", vote("石宽")), post(3, "石宽", vote("白月初"))])
    assert t.result["kind"] == "no_exile" and t.result["target"] is None and t.result["tied"] == ["白月初", "石宽"]


def test_m42_r4_no_votes_scapegoat_if_alive():
    t = run(ctx(), [post(2, "白月初", vote("弃权"))])
    assert t.result["kind"] == "scapegoat" and t.result["target"] == "东方淮竹" and t.result["tied"] == []
    t = run(ctx(), [])
    assert t.result["kind"] == "scapegoat"


def test_m42_r4_no_votes_no_scapegoat_nobody_out():
    t = run(ctx(alive=ALL - {"东方淮竹"}), [post(2, "白月初", vote("弃权"))])
    assert t.result["kind"] == "no_exile"


# --- the report ----------------------------------------------------------------


def test_counts_descending_then_roster_order():
    t = run(
        ctx(),
        [
            post(2, "白月初", vote("金人凤")),
            post(3, "涂山雅雅", vote("石宽")),
            post(4, "石宽", vote("涂山苏苏")),
            post(5, "李去浊", vote("石宽")),
        ],
    )
    assert list(t.counts.items()) == [("石宽", 2), ("涂山苏苏", 1), ("金人凤", 1)]


def test_m42_r8_not_voted_in_roster_order_without_barred():
    alive = ALL - {"涂山红红"}
    t = run(ctx(alive=alive, barred={"白月初"}), [post(2, "涂山雅雅", vote("石宽"))])
    assert t.not_voted == [c.name for c in ROSTER if c.name in alive - {"白月初", "涂山雅雅"}]


def test_upto_floor_and_upto_time():
    posts = [
        post(2, "白月初", vote("石宽"), "10:00"),
        post(3, "涂山雅雅", vote("李去浊"), "11:00"),
        post(4, "石宽", vote("李去浊"), "12:00"),
    ]
    proxies = [ProxyVote("金人凤", "石宽", at("11:30"), "vote")]
    assert run(ctx(), posts, proxies, upto_floor=2).counts == {"石宽": 1}
    # right after floor 3 (11:00): the 11:30 proxy had not happened yet
    assert run(ctx(), posts, proxies, upto_floor=3).counts == {"石宽": 1, "李去浊": 1}
    assert run(ctx(), posts, proxies, upto_floor=4).counts == {"石宽": 2, "李去浊": 2}
    t = run(ctx(), posts, proxies, upto_time=at("11:45"))
    assert t.counts == {"石宽": 2, "李去浊": 1}
    assert run(ctx(), posts, proxies).counts == {"石宽": 2, "李去浊": 2}


def test_to_json_is_json():
    t = run(
        ctx(),
        [post(2, "白月初", vote("石宽"), "10:00"), post(3, "白月初", change("李去浊"), "11:00", reply_to=ReplyRef(floor=2))],
        [ProxyVote("金人凤", "小明", at("12:00"))],
    )
    j = t.to_json()
    json.dumps(j, ensure_ascii=False)
    assert j["valid"][0]["time"] == "2026-11-04 10:00:00"
    assert j["valid"][0]["changed_to"] == "李去浊" and j["valid"][0]["changed_at_floor"] == 3
    assert j["changes"] == [{"floor": 3, "voter": "白月初", "from": "石宽", "to": "李去浊"}]
    assert j["invalid"][0]["proxy"] is True
    assert set(j) == {"day", "valid", "changes", "invalid", "ignored", "chatter", "flags", "not_voted", "counts", "result"}
