"""M42-R14 潜水: (a) fewer than 5 posts, (b) no vote (abstention is a vote),
(c) three consecutive discussion days under 10 posts; sped-up days give no
yellows and break the chain; only characters in the game for the whole day."""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from modtool.packs.m42.lurking import LurkDay, LurkOptions, LurkResult, lurking, post_counts
from modtool.forum.posts import Post
from modtool.core.roster import Character, Roster

TZ = ZoneInfo("Asia/Shanghai")

ROSTER = Roster(
    [
        Character("涂山苏苏", "苏苏今天也很努力", ("苏苏",), "villager"),
        Character("白月初", "月初不是白", (), "villager"),
        Character("涂山红红", "红红的红", ("红红",), "seer"),
        Character("王权富贵", "富贵不能淫", ("富贵",), "hunter"),
        Character("石宽", "石头宽宽", (), "werewolf"),
    ]
)
ACCOUNT = {c.name: c.account for c in ROSTER}
ALL = {c.name for c in ROSTER}

LINES = [
    "昨晚苏苏被刀，我觉得狼在试探女巫。",
    "石宽昨天那票很奇怪，为什么跟票这么快？",
    "我是村民，先听听预言家怎么说。",
    "红红跳预言家了，查杀石宽，我站边红红。",
    "富贵你怎么看？今天一句话都没说。",
    "顶一下，晚上再来。",
    "投票前再理一下逻辑：狼大概率在后置位。",
    "月初你的发言前后矛盾啊。",
    "我同意上面的分析。",
    "今天先投石宽吧。",
    "补充：昨天的平票很可疑。",
    "早上好，看了一遍帖子。",
]


def day_window(day: int) -> tuple[datetime, datetime]:
    """Day N opens at 21:30 the evening before and closes at 21:00 two days
    later (M42-R15 style; the exact times don't matter here)."""
    start = datetime(2026, 11, 2, 21, 30, tzinfo=TZ) + timedelta(days=2 * (day - 1))
    return start, start + timedelta(days=1, hours=23, minutes=30)


def make_day(day, counts, *, sped_up=False, in_game=None, voted=None, extra_posts=()):
    """counts: character -> number of discussion posts inside the window."""
    start, end = day_window(day)
    posts = []
    floor = 1
    for name, n in counts.items():
        for k in range(n):
            posts.append(
                Post(
                    pid=f"{day}{floor:04d}",
                    floor=floor,
                    author=ACCOUNT[name],
                    time=start + timedelta(minutes=30 + 17 * floor),
                    body=LINES[k % len(LINES)],
                )
            )
            floor += 1
    posts.extend(extra_posts)
    in_game = set(ALL if in_game is None else in_game)
    return LurkDay(
        day=day,
        start=start,
        end=end,
        sped_up=sped_up,
        in_game=in_game,
        posts=posts,
        voted=set(in_game if voted is None else voted),
    )


def busy(**over):
    """Everyone posts 12 times unless told otherwise."""
    c = {n: 12 for n in ALL}
    c.update(over)
    return c


def rules(results, name=None):
    return [(r.day, r.character, r.rule) for r in results if name is None or r.character == name]


def test_m42_r14_fewer_than_five_posts_one_yellow():
    d = make_day(1, busy(白月初=4, 涂山红红=5))
    res = lurking([d], ROSTER, LurkOptions())
    assert rules(res) == [(1, "白月初", "a")]
    r = res[0]
    assert isinstance(r, LurkResult)
    assert r.count == 4 and r.window == (d.start, d.end) and r.days == (1,)
    assert "4 帖" in r.note and "不足 5 帖" in r.note and "黄牌" in r.note


def test_m42_r14_zero_posts_counts_as_fewer_than_five():
    res = lurking([make_day(1, busy(王权富贵=0))], ROSTER)
    assert rules(res) == [(1, "王权富贵", "a")]
    assert res[0].count == 0


def test_m42_r14_no_vote_one_yellow():
    res = lurking([make_day(2, busy(), voted=ALL - {"石宽"})], ROSTER)
    assert rules(res) == [(2, "石宽", "b")]
    assert "没有有效投票" in res[0].note


def test_m42_r14_abstention_is_a_vote():
    # The caller puts abstainers (弃票) in ``voted``: no yellow for them.
    res = lurking([make_day(2, busy(), voted=ALL)], ROSTER)
    assert res == []


def test_m42_r14_few_posts_and_no_vote_two_yellows():
    res = lurking([make_day(2, busy(涂山苏苏=2), voted=ALL - {"涂山苏苏"})], ROSTER)
    assert rules(res) == [(2, "涂山苏苏", "a"), (2, "涂山苏苏", "b")]


def test_m42_r14_chain_of_three_days_under_ten():
    days = [make_day(1, busy(白月初=6)), make_day(2, busy(白月初=9)), make_day(3, busy(白月初=7))]
    res = lurking(days, ROSTER)
    assert rules(res) == [(3, "白月初", "c")]
    r = res[0]
    assert r.days == (1, 2, 3) and r.counts == (6, 9, 7) and r.count == 7
    assert "第1、2、3天" in r.note and "6、9、7" in r.note and "不足 10 帖" in r.note


def test_m42_r14_ten_posts_breaks_the_chain():
    days = [
        make_day(1, busy(白月初=6)),
        make_day(2, busy(白月初=10)),
        make_day(3, busy(白月初=7)),
        make_day(4, busy(白月初=8)),
    ]
    assert lurking(days, ROSTER) == []


def test_m42_r14_chain_restarts_after_firing():
    # Days 1-3 fire; days 4-5 are only two more, no second yellow until day 6.
    days = [make_day(n, busy(白月初=5)) for n in range(1, 6)]
    assert rules(lurking(days, ROSTER)) == [(3, "白月初", "c")]
    days.append(make_day(6, busy(白月初=5)))
    res = lurking(days, ROSTER)
    assert rules(res) == [(3, "白月初", "c"), (6, "白月初", "c")]
    assert res[1].days == (4, 5, 6)


def test_m42_r14_chain_and_fewer_than_five_on_same_day():
    days = [make_day(1, busy(石宽=8)), make_day(2, busy(石宽=8)), make_day(3, busy(石宽=3))]
    assert rules(lurking(days, ROSTER)) == [(3, "石宽", "a"), (3, "石宽", "c")]


def test_m42_r14_sped_up_day_gives_no_yellows():
    d = make_day(2, busy(白月初=0, 石宽=1), sped_up=True, voted=ALL - {"白月初"})
    assert lurking([d], ROSTER) == []


def test_m42_r14_sped_up_day_breaks_the_chain():
    days = [
        make_day(1, busy(白月初=6)),
        make_day(2, busy(白月初=6)),
        make_day(3, busy(白月初=2), sped_up=True),
        make_day(4, busy(白月初=6)),
    ]
    assert lurking(days, ROSTER) == []
    days.append(make_day(5, busy(白月初=6)))
    days.append(make_day(6, busy(白月初=6)))
    assert rules(lurking(days, ROSTER)) == [(6, "白月初", "c")]


def test_m42_r14_character_out_mid_day_not_judged():
    # 石宽 was shot by the hunter on the afternoon of day 2, so he was not in
    # the game for the whole of day 2: no (a), no (b) for that day.
    d = make_day(2, busy(石宽=1), in_game=ALL - {"石宽"}, voted=ALL - {"石宽"})
    assert lurking([d], ROSTER) == []


def test_m42_r14_not_in_game_whole_day_breaks_the_chain():
    # 涂山红红 is out of the game on day 2 (not judged) — her chain does not
    # carry over days 1 and 3. (Documented: a day not judged breaks the chain.)
    days = [
        make_day(1, busy(涂山红红=6)),
        make_day(2, busy(涂山红红=6), in_game=ALL - {"涂山红红"}),
        make_day(3, busy(涂山红红=6)),
        make_day(4, busy(涂山红红=6)),
    ]
    assert lurking(days, ROSTER) == []


def test_m42_r14_day_one_counts():
    res = lurking([make_day(1, busy(涂山苏苏=3), voted=ALL - {"涂山苏苏"})], ROSTER)
    assert rules(res) == [(1, "涂山苏苏", "a"), (1, "涂山苏苏", "b")]


def test_m42_r14_posts_outside_window_not_counted():
    start, end = day_window(2)
    acc = ACCOUNT["王权富贵"]
    extra = [
        Post(pid="29001", floor=901, author=acc, time=start - timedelta(minutes=5), body="抢个沙发（开天前）"),
        Post(pid="29002", floor=902, author=acc, time=end + timedelta(minutes=1), body="关门后补一句"),
        Post(pid="29003", floor=903, author=acc, time=end + timedelta(days=1), body="第二天的帖子"),
    ]
    d = make_day(2, busy(王权富贵=4), extra_posts=extra)
    res = lurking([d], ROSTER)
    assert rules(res) == [(2, "王权富贵", "a")]
    assert res[0].count == 4
    assert post_counts(d, ROSTER)["王权富贵"] == 4


def test_m42_r14_window_edges_inclusive():
    start, end = day_window(2)
    acc = ACCOUNT["王权富贵"]
    extra = [
        Post(pid="29101", floor=911, author=acc, time=start, body="开天第一帖"),
        Post(pid="29102", floor=912, author=acc, time=end, body="卡点发言"),
    ]
    d = make_day(2, busy(王权富贵=3), extra_posts=extra)
    assert lurking([d], ROSTER) == []


def test_m42_r14_duplicate_posts_counted_once_and_unknown_accounts_ignored():
    d = make_day(2, busy(白月初=4))
    dup = d.posts[[p.author for p in d.posts].index(ACCOUNT["白月初"])]
    start, _ = day_window(2)
    d.posts.append(dup)  # the same post from an overlapping dump page
    d.posts.append(Post(pid="29201", floor=950, author="路过的观众", time=start + timedelta(hours=2), body="围观"))
    res = lurking([d], ROSTER)
    assert rules(res) == [(2, "白月初", "a")] and res[0].count == 4


def test_m42_r14_post_counts_summary():
    d = make_day(2, busy(白月初=4, 石宽=0), in_game=ALL - {"涂山红红"})
    # 涂山红红 went out that day but posted: still listed
    counts = post_counts(d, ROSTER)
    assert list(counts) == ["涂山苏苏", "白月初", "涂山红红", "王权富贵", "石宽"]
    assert counts["白月初"] == 4 and counts["石宽"] == 0 and counts["涂山红红"] == 12
    by_account = post_counts(d)
    assert by_account[ACCOUNT["白月初"]] == 4 and ACCOUNT["石宽"] not in by_account


def test_m42_r14_gap_in_days_breaks_the_chain():
    days = [make_day(1, busy(白月初=6)), make_day(2, busy(白月初=6)), make_day(4, busy(白月初=6))]
    assert lurking(days, ROSTER) == []


def test_m42_r14_options_thresholds():
    days = [make_day(n, busy(白月初=6)) for n in (1, 2)]
    opts = LurkOptions(min_posts=7, chain_days=2)
    assert rules(lurking(days, ROSTER, opts)) == [(1, "白月初", "a"), (2, "白月初", "a"), (2, "白月初", "c")]


def test_m42_r14_results_ordered_by_day_then_roster():
    days = [
        make_day(1, busy(石宽=1, 涂山苏苏=2)),
        make_day(2, busy(白月初=0), voted=ALL - {"涂山苏苏"}),
    ]
    assert rules(lurking(list(reversed(days)), ROSTER)) == [
        (1, "涂山苏苏", "a"),
        (1, "石宽", "a"),
        (2, "涂山苏苏", "b"),
        (2, "白月初", "a"),
    ]
