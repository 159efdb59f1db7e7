"""M42-R15 (schedule: day length, weekends, speed-up / delay requests, the
director's speed-up when few remain, deadlines) -- modtool.packs.m42.schedule.

Calendar used: 2026-11-02 is a Monday, 2026-11-07 a Saturday; zone
Asia/Shanghai; close 21:00 unless a test says otherwise.
"""

from __future__ import annotations

import json
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.support.fuzz import examples

from modtool.packs.m42.schedule import (
    DaySchedule,
    compute_day_schedule,
    natural_day_bounds,
    should_auto_speedup,
)
from modtool.forum.posts import Post
from modtool.core.roster import Character, Roster

SH = ZoneInfo("Asia/Shanghai")
CLOSE = time(21, 0)

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
    ]
)
ACCOUNT = {c.name: c.account for c in ROSTER}
NAMES = [c.name for c in ROSTER]
# 8 living: 东方秦兰 and 涂山容容 are out. Half of 8 is 4.
LIVING8 = set(NAMES[:8])

_floor = iter(range(2, 100000))


def t(day: int, hm: str) -> datetime:
    """2026-11-<day> hh:mm in Shanghai."""
    h, m = hm.split(":")
    return datetime(2026, 11, day, int(h), int(m), tzinfo=SH)


def post(who: str, when: datetime, body: str, *, account: str | None = None) -> Post:
    f = next(_floor)
    return Post(pid=str(90000 + f), floor=f, author=account or ACCOUNT[who], time=when, body=body)


def sched(opens, posts=(), living=LIVING8, **kw) -> DaySchedule:
    return compute_day_schedule(2, opens, CLOSE, SH, set(living), list(posts), ROSTER, **kw)


def d(day: int) -> date:
    return date(2026, 11, day)


# --- day length -----------------------------------------------------------------


def test_m42_r15_weekday_day_lasts_two_natural_days():
    s = sched(t(2, "09:00"))  # Monday morning
    assert s.natural_days == [d(2), d(3)]
    assert s.closes == t(3, "21:00")
    assert s.cutoff == t(3, "18:00")
    assert s.freeze == t(3, "20:00")
    assert s.night_deadline == t(3, "22:00")
    assert not s.sped_up and s.delayed == 0 and not s.weekend_extended


def test_m42_r15_weekend_adds_a_day():
    # Friday + Saturday -> Sunday is added.
    s = sched(t(6, "10:00"))
    assert s.natural_days == [d(6), d(7), d(8)]
    assert s.closes == t(8, "21:00")
    assert s.weekend_extended
    # Saturday + Sunday -> Monday is added.
    s = sched(t(7, "10:00"))
    assert s.natural_days == [d(7), d(8), d(9)]
    assert s.weekend_extended
    # Sunday + Monday -> Tuesday is added.
    s = sched(t(8, "10:00"))
    assert s.natural_days == [d(8), d(9), d(10)]
    assert s.closes == t(10, "21:00")


def test_m42_r15_extension_day_itself_does_not_extend_again():
    # Thursday + Friday: no weekend day among the two, so no extension even
    # though the next day is a Saturday.
    s = sched(t(5, "10:00"))
    assert s.natural_days == [d(5), d(6)]
    assert not s.weekend_extended
    # Friday, Saturday, +Sunday: the added Sunday does not add a Monday.
    assert sched(t(6, "10:00")).natural_days == [d(6), d(7), d(8)]


def test_m42_r15_opens_after_close_time_starts_next_day():
    # Thursday 22:30: the first natural day is Friday, so Fri+Sat (+Sun).
    s = sched(t(5, "22:30"))
    assert s.natural_days == [d(6), d(7), d(8)]
    # Exactly at close_time is not "before" it.
    s = sched(t(2, "21:00"))
    assert s.natural_days == [d(3), d(4)]
    assert s.closes == t(4, "21:00")
    # Just before close_time: the opening date is the first natural day.
    s = sched(t(2, "20:59"))
    assert s.natural_days == [d(2), d(3)]


def test_m42_r15_other_close_time_and_zone():
    s = compute_day_schedule(3, t(2, "09:00"), time(22, 30), "Asia/Shanghai", LIVING8, [], ROSTER)
    assert s.closes == t(3, "22:30")
    assert s.cutoff == t(3, "19:30")
    assert s.freeze == t(3, "21:30")


# --- requests -------------------------------------------------------------------


def test_m42_r15_speedup_by_half_of_living():
    speakers = NAMES[:4]  # 4 of 8 living = half
    posts = [post(w, t(2, f"1{i}:00"), "申请加速，没什么好聊的了") for i, w in enumerate(speakers)]
    s = sched(t(2, "09:00"), posts)
    assert s.sped_up
    assert s.natural_days == [d(2)]
    assert s.closes == t(2, "21:00")
    assert s.cutoff == t(2, "18:00")
    assert s.freeze == t(2, "20:00")
    assert s.night_deadline == t(2, "22:00")
    (dec,) = [x for x in s.decisions if x["kind"] == "speedup"]
    assert dec == {"natural_day": d(2), "kind": "speedup", "count": 4, "needed": 4, "living": 8, "success": True}
    assert all(r["counted"] for r in s.requests)


def test_m42_r15_speedup_short_of_half_fails():
    posts = [post(w, t(2, "12:00"), "申请加速") for w in NAMES[:3]]
    s = sched(t(2, "09:00"), posts)
    assert not s.sped_up
    assert s.closes == t(3, "21:00")
    assert [x["count"] for x in s.decisions if x["kind"] == "speedup"] == [3, 0]
    assert all(not x["success"] for x in s.decisions)


def test_m42_r15_odd_living_needs_the_rounded_up_half():
    living9 = set(NAMES[:9])
    four = [post(w, t(2, "12:00"), "申请加速") for w in NAMES[:4]]
    s = sched(t(2, "09:00"), four, living=living9)
    assert not s.sped_up
    assert s.decisions[0]["needed"] == 5
    five = four + [post(NAMES[4], t(2, "12:05"), "申请加速")]
    assert sched(t(2, "09:00"), five, living=living9).sped_up


def test_m42_r15_speedup_on_second_natural_day():
    posts = [post(w, t(3, "17:59"), "我也申请加速") for w in NAMES[:4]]
    s = sched(t(2, "09:00"), posts)
    assert s.sped_up
    assert s.natural_days == [d(2), d(3)]
    assert s.closes == t(3, "21:00")


def test_m42_r15_speedup_on_weekend_day_cuts_the_extension():
    # Sat opening: Sat, Sun, Mon; a speed-up on Sunday closes Sunday 21:00.
    posts = [post(w, t(8, "15:00"), "申请加速") for w in NAMES[:4]]
    s = sched(t(7, "10:00"), posts)
    assert s.sped_up
    assert s.natural_days == [d(7), d(8)]
    assert s.closes == t(8, "21:00")
    assert s.weekend_extended  # the day was extended; the speed-up cut it


def test_m42_r15_requests_are_counted_per_natural_day():
    # 2 on Monday + 2 on Tuesday: never 4 on one natural day.
    posts = [post(w, t(2, "12:00"), "申请加速") for w in NAMES[:2]]
    posts += [post(w, t(3, "12:00"), "申请加速") for w in NAMES[2:4]]
    s = sched(t(2, "09:00"), posts)
    assert not s.sped_up
    assert [x["count"] for x in s.decisions if x["kind"] == "speedup"] == [2, 2]
    # The same character may request again on the next natural day.
    posts = [post(w, t(2, "12:00"), "申请加速") for w in NAMES[:2]]
    posts += [post(w, t(3, "12:00"), "申请加速") for w in NAMES[:4]]
    s = sched(t(2, "09:00"), posts)
    assert s.sped_up and s.closes == t(3, "21:00")


def test_m42_r15_delay_adds_a_natural_day():
    posts = [post(w, t(3, "16:00"), "申请延时，还有很多没聊清楚") for w in NAMES[:4]]
    s = sched(t(2, "09:00"), posts)
    assert not s.sped_up
    assert s.delayed == 1
    assert s.natural_days == [d(2), d(3), d(4)]
    assert s.closes == t(4, "21:00")


def test_m42_r15_two_delays_on_two_natural_days():
    posts = [post(w, t(3, "16:00"), "申请延时") for w in NAMES[:4]]
    posts += [post(w, t(4, "11:00"), "申请延时") for w in NAMES[3:7]]
    s = sched(t(2, "09:00"), posts)
    assert s.delayed == 2
    assert s.natural_days == [d(2), d(3), d(4), d(5)]
    assert s.closes == t(5, "21:00")


def test_m42_r15_delay_cancels_speedup():
    # Same natural day: both reach half. The delay wins (it cancels a speed-up):
    # the day keeps its length plus one natural day and is not sped up.
    posts = [post(w, t(2, "12:00"), "申请加速") for w in NAMES[:4]]
    posts += [post(w, t(2, "13:00"), "申请延时") for w in NAMES[4:8]]
    s = sched(t(2, "09:00"), posts)
    assert not s.sped_up
    assert s.delayed == 1
    assert s.natural_days == [d(2), d(3), d(4)]
    assert s.closes == t(4, "21:00")
    mon = {x["kind"]: x["success"] for x in s.decisions if x["natural_day"] == d(2)}
    assert mon == {"speedup": True, "delay": True}


def test_m42_r15_speedup_after_a_delay():
    posts = [post(w, t(3, "12:00"), "申请延时") for w in NAMES[:4]]
    posts += [post(w, t(4, "12:00"), "申请加速") for w in NAMES[:4]]
    s = sched(t(2, "09:00"), posts)
    assert s.delayed == 1 and s.sped_up
    assert s.natural_days == [d(2), d(3), d(4)]
    assert s.closes == t(4, "21:00")


def test_m42_r15_requests_after_cutoff_not_counted():
    posts = [post(w, t(2, "17:30"), "申请加速") for w in NAMES[:3]]
    late = post(NAMES[3], t(2, "18:01"), "申请加速")
    on_time = post(NAMES[4], t(2, "18:00"), "申请加速")  # at the cut-off: counted
    s = sched(t(2, "09:00"), posts + [late])
    assert not s.sped_up
    (r,) = [r for r in s.requests if r["floor"] == late.floor]
    assert not r["counted"] and "18:00" in r["why"]
    s = sched(t(2, "09:00"), posts + [on_time])
    assert s.sped_up


def test_m42_r15_requests_before_opening_or_after_close_not_counted():
    early = post(NAMES[0], t(2, "08:59"), "申请加速")
    after = post(NAMES[1], t(3, "21:30"), "申请延时")
    s = sched(t(2, "09:00"), [early, after])
    by_floor = {r["floor"]: r for r in s.requests}
    assert not by_floor[early.floor]["counted"] and "开始" in by_floor[early.floor]["why"]
    assert not by_floor[after.floor]["counted"] and "关门" in by_floor[after.floor]["why"]
    assert s.closes == t(3, "21:00")


def test_m42_r15_requests_after_speedup_close_not_counted():
    posts = [post(w, t(2, "12:00"), "申请加速") for w in NAMES[:4]]
    posts += [post(w, t(3, "12:00"), "申请延时") for w in NAMES[4:8]]
    s = sched(t(2, "09:00"), posts)
    assert s.sped_up and s.closes == t(2, "21:00")
    assert s.delayed == 0
    assert {r["natural_day"] for r in s.requests if r["counted"]} == {d(2)}
    assert all(d(3) != x["natural_day"] for x in s.decisions)


def test_m42_r15_request_before_first_natural_day_counts_for_it():
    # Opens Monday 22:00 (after close): first natural day Tuesday. A request
    # at Monday 23:10 is inside the discussion day and counts for Tuesday.
    posts = [post(NAMES[0], t(2, "23:10"), "申请加速")]
    posts += [post(w, t(3, "10:00"), "申请加速") for w in NAMES[1:4]]
    s = sched(t(2, "22:00"), posts)
    assert s.sped_up
    assert s.natural_days == [d(3)]
    assert s.closes == t(3, "21:00")
    assert s.requests[0]["natural_day"] == d(3)


def test_m42_r15_quotes_ignored_one_request_per_character_per_day():
    quoting = post(
        NAMES[1],
        t(2, "11:00"),
        "[quote][size=2][color=#999999]苏苏今天也很努力 发表于 2026-11-02 10:00[/color][/size]\n申请加速[/quote]\n"
        "我觉得还早，再聊聊",
    )
    posts = [
        post(NAMES[0], t(2, "10:00"), "申请加速"),
        quoting,
        post(NAMES[0], t(2, "12:00"), "再次申请加速！"),  # repeat: not counted
        post(NAMES[0], t(2, "12:30"), "[b]申请加速[/b]"),  # repeat again
        post(NAMES[2], t(2, "13:00"), "[quote]申请加速[/quote]+1 申请加速"),  # own text counts
    ]
    s = sched(t(2, "09:00"), posts)
    assert not any(r["floor"] == quoting.floor for r in s.requests)
    counted = [r for r in s.requests if r["counted"]]
    assert sorted(r["character"] for r in counted) == sorted([NAMES[0], NAMES[2]])
    repeats = [r for r in s.requests if r["character"] == NAMES[0] and not r["counted"]]
    assert len(repeats) == 2 and all("重复" in r["why"] for r in repeats)
    assert s.decisions[0]["count"] == 2


def test_m42_r15_only_living_characters_count():
    posts = [post(w, t(2, "12:00"), "申请加速") for w in NAMES[:3]]
    dead = post("东方秦兰", t(2, "12:10"), "申请加速")  # out
    stranger = post("", t(2, "12:20"), "申请加速", account="路过的吃瓜群众")
    s = sched(t(2, "09:00"), posts + [dead, stranger])
    assert not s.sped_up
    by_floor = {r["floor"]: r for r in s.requests}
    assert by_floor[dead.floor]["character"] == "东方秦兰"
    assert not by_floor[dead.floor]["counted"] and "出局" in by_floor[dead.floor]["why"]
    assert by_floor[stranger.floor]["character"] is None
    assert not by_floor[stranger.floor]["counted"] and by_floor[stranger.floor]["why"]


def test_m42_r15_account_matched_after_folding():
    # Full-width / zero-width variants of an account still map (roster folds).
    posts = [post(w, t(2, "12:00"), "申请加速") for w in NAMES[1:4]]
    posts.append(post("", t(2, "12:30"), "申请加速", account="苏苏今天也很努力\u200b"))
    assert sched(t(2, "09:00"), posts).sped_up


def test_m42_r15_traditional_full_width_and_spaced_forms():
    posts = [
        post(NAMES[0], t(2, "12:00"), "申請加速"),
        post(NAMES[1], t(2, "12:01"), "申请 加速"),
        post(NAMES[2], t(2, "12:02"), "申  請　加 速。"),
        post(NAMES[3], t(2, "12:03"), "加速申请"),  # the whole post: a request
    ]
    s = sched(t(2, "09:00"), posts)
    assert s.sped_up
    delays = [
        post(NAMES[0], t(3, "10:00"), "申請延時"),
        post(NAMES[1], t(3, "10:01"), "申请延迟"),
        post(NAMES[2], t(3, "10:02"), "延时申请！"),
        post(NAMES[3], t(3, "10:03"), "申请延时+1"),
    ]
    s = sched(t(2, "09:00"), delays)
    assert s.delayed == 1


def test_m42_r15_talk_about_requests_is_not_a_request():
    posts = [
        post(NAMES[0], t(2, "12:00"), "加速申请截止到几点？"),  # a question, reversed order
        post(NAMES[1], t(2, "12:01"), "我不申请加速，还想听听大家的"),
        post(NAMES[2], t(2, "12:02"), "别申请加速啊"),
        post(NAMES[3], t(2, "12:03"), "今天天气不错"),
    ]
    s = sched(t(2, "09:00"), posts)
    assert not any(r["counted"] for r in s.requests)
    assert s.decisions[0]["count"] == 0
    # Negated mentions are listed for the director, not counted.
    negated = [r for r in s.requests if r["floor"] in (posts[1].floor, posts[2].floor)]
    assert len(negated) == 2 and all("不" in r["why"] or "否定" in r["why"] for r in negated)


def test_m42_r15_one_post_may_request_both():
    # Odd, but each kind is read on its own.
    posts = [post(w, t(2, "12:00"), "申请加速。算了还是申请延时吧") for w in NAMES[:4]]
    s = sched(t(2, "09:00"), posts)
    assert not s.sped_up and s.delayed == 1


# --- the director's speed-up ----------------------------------------------------


def test_m42_r15_auto_speedup():
    living = set(NAMES[:5])
    assert should_auto_speedup(living)  # 5 remain: default auto_speedup_at_living=5
    assert not should_auto_speedup(set(NAMES[:6]))
    assert should_auto_speedup(set(NAMES[:6]), at_living=6)
    s = sched(t(2, "09:00"), living=living, auto_speedup=True)
    assert s.sped_up
    assert s.natural_days == [d(2)]
    assert s.closes == t(2, "21:00")
    # Even on a weekend: the first natural day closes the day.
    s = sched(t(6, "23:00"), living=living, auto_speedup=True)
    assert s.natural_days == [d(7)] and s.closes == t(7, "21:00")


def test_m42_r15_delay_cancels_auto_speedup():
    living = set(NAMES[:5])  # half of 5 -> 3
    posts = [post(w, t(2, "15:00"), "申请延时") for w in NAMES[:3]]
    s = sched(t(2, "09:00"), posts, living=living, auto_speedup=True)
    assert not s.sped_up
    assert s.delayed == 1
    assert s.natural_days == [d(2), d(3)]
    assert s.closes == t(3, "21:00")


# --- options, helpers, JSON -----------------------------------------------------


def test_m42_r15_freeze_and_cutoff_options():
    posts = [post(w, t(2, "19:30"), "申请加速") for w in NAMES[:4]]
    s = sched(t(2, "09:00"), posts, cutoff_hours=1, freeze_minutes=30)
    assert s.sped_up
    assert s.cutoff == t(2, "20:00")
    assert s.freeze == t(2, "20:30")


def test_natural_day_bounds():
    start, end = natural_day_bounds(d(7), SH)
    assert start == t(7, "00:00")
    assert end == t(8, "00:00")
    assert start.tzinfo is not None


def test_m42_r15_to_json():
    posts = [post(w, t(2, "12:00"), "申请加速") for w in NAMES[:4]]
    s = sched(t(2, "09:00"), posts)
    j = s.to_json()
    json.dumps(j, ensure_ascii=False)  # plain JSON values only
    assert j["closes"] == "2026-11-02 21:00:00"
    assert j["natural_days"] == ["2026-11-02"]
    assert j["sped_up"] is True
    assert j["requests"][0]["natural_day"] == "2026-11-02"
    assert j["decisions"][0]["success"] is True


def test_m42_r15_naive_opens_is_in_game_zone():
    s = sched(datetime(2026, 11, 2, 9, 0))
    assert s.closes == t(3, "21:00")


# --- never raises ---------------------------------------------------------------

_BODIES = [
    "申请加速",
    "申请延时",
    "申請延時",
    "加速申请",
    "不申请加速",
    "[quote]申请加速[/quote]",
    "[quote]申请延时",
    "今天聊点啥",
    "",
    "[b]申请[/b]加速",
    "[hide]申请加速[/hide]",
    "延时申请？",
]


@st.composite
def _scenario(draw):
    opens = datetime(2026, 11, 1, tzinfo=SH) + timedelta(minutes=draw(st.integers(0, 14 * 24 * 60)))
    close = time(draw(st.integers(0, 23)), draw(st.sampled_from([0, 30, 59])))
    living = set(draw(st.lists(st.sampled_from(NAMES), unique=True, max_size=len(NAMES))))
    accounts = [c.account for c in ROSTER] + ["导演", "路人甲"]
    posts = []
    for i in range(draw(st.integers(0, 40))):
        when = opens + timedelta(minutes=draw(st.integers(-600, 8 * 24 * 60)))
        posts.append(Post(str(i), i + 2, draw(st.sampled_from(accounts)), when, draw(st.sampled_from(_BODIES))))
    kw = {
        "auto_speedup": draw(st.booleans()),
        "cutoff_hours": draw(st.integers(0, 6)),
        "freeze_minutes": draw(st.integers(0, 120)),
    }
    return opens, close, living, posts, kw


@settings(max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_scenario())
def test_m42_r15_random_requests_never_raise(sc):
    opens, close, living, posts, kw = sc
    s = compute_day_schedule(4, opens, close, SH, living, posts, ROSTER, **kw)
    assert s.closes >= opens
    assert s.closes.astimezone(SH).time() == close
    assert s.closes.astimezone(SH).date() == s.natural_days[-1]
    days = s.natural_days
    assert all(b - a == timedelta(days=1) for a, b in zip(days, days[1:]))
    assert s.freeze <= s.closes and s.cutoff <= s.closes
    for r in s.requests:
        if r["counted"]:
            assert r["character"] in living
            assert opens <= r["time"] <= s.closes
    for x in s.decisions:
        assert 0 <= x["count"] <= len(living)
    json.dumps(s.to_json(), ensure_ascii=False)
