"""M42-R5 vote posts: the strict format, and every point of the ruling as the
tally applies it. Posts are written as players type them on the forum."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from modtool.packs.m42.tally import DayContext, ProxyVote, VoteOptions, tally_day
from modtool.packs.m42.voteparse import FormatError, ParsedVote, VoteLabels, parse_vote
from modtool.forum.posts import Post, ReplyRef
from modtool.core.roster import Character, Roster

CST = timezone(timedelta(hours=8))

ROSTER = Roster(
    [
        Character("涂山苏苏", "苏苏今天也很努力", ("苏苏",), "villager"),
        Character("白月初", "月初不是白", ("月初",), "villager"),
        Character("涂山红红", "红红的红", ("红红",), "seer"),
        Character("东方月初", "东方不败月", ("月初",), "villager"),
        Character("涂山雅雅", "雅雅女王", ("雅雅",), "villager"),
        Character("王权富贵", "富贵不能淫", ("富贵",), "hunter"),
        Character("东方淮竹", "淮竹清风", ("淮竹",), "scapegoat"),
        Character("王权霸业", "霸业未成", (), "werewolf"),
        Character("涂山容容", "容容的算盘", ("容容",), "witch"),
        Character("东方秦兰", "秦兰兰", ("秦兰",), "villager"),
        Character("石宽", "石头宽宽", (), "werewolf"),
        Character("李去浊", "去浊留清", (), "werewolf"),
        Character("Alice", "alice_acc", (), "werewolf"),
    ]
)
ACCOUNT = {c.name: c.account for c in ROSTER}
ALL = {c.name for c in ROSTER}


def at(hm: str, day: int = 4) -> datetime:
    h, m = hm.split(":")
    return datetime(2026, 11, day, int(h), int(m), tzinfo=CST)


def post(floor, who, body, when="12:00", *, reply_to=None, edited=None, pid=None, account=None):
    """A vote-thread post by character ``who`` (or by a raw ``account``)."""
    return Post(
        pid=pid or str(5000 + floor),
        floor=floor,
        author=account or ACCOUNT[who],
        time=at(when) if isinstance(when, str) else when,
        body=body,
        edited=edited,
        reply_to=reply_to,
    )


def vote(target, reason="理由见讨论帖"):
    return f"投票对象：{target}\n投票理由：{reason}"


def change(target, reason="改主意了"):
    return f"改票对象：{target}\n改票理由：{reason}"


def quote_of(p: Post, name=None):
    who = name or p.author
    return (
        f"[quote][size=2][url=forum.php?mod=redirect&goto=findpost&pid={p.pid}&ptid=77]"
        f"[color=#999999]{who} 发表于 {p.time:%Y-%m-%d %H:%M}[/color][/url][/size]\n{p.body}[/quote]\n"
    )


def ctx(day=2, alive=None, sheriff=None, barred=(), close=None, sped_up=False, scapegoat="东方淮竹"):
    alive = set(alive if alive is not None else ALL)
    return DayContext(
        day=day,
        roster=ROSTER,
        alive=alive,
        sheriff=sheriff,
        barred=set(barred),
        close=close or at("21:00"),
        sped_up=sped_up,
        scapegoat=scapegoat if scapegoat in alive else None,
    )


def run(posts, proxies=(), c=None, **kw):
    return tally_day(c or ctx(), list(posts), list(proxies), VoteLabels(), VoteOptions(**kw))


def invalid_at(t, floor):
    rows = [i for i in t.invalid if i["floor"] == floor]
    assert rows, f"floor {floor} not invalid: {t.invalid}"
    return rows[0]


# --- the format (voteparse) ------------------------------------------------------


def test_m42_r5_vote_format():
    r = parse_vote("投票对象：饺子\n投票理由：饺子好吃", VoteLabels())
    assert r == ParsedVote(kind="vote", target="饺子", raw_target="饺子", reason="饺子好吃", line=1)


def test_m42_r5_change_format():
    r = parse_vote("【改票格式】\n改票对象：包子\n改票理由：包子也好吃", VoteLabels())
    assert isinstance(r, ParsedVote) and r.kind == "change" and r.target == "包子" and r.line == 2


@pytest.mark.parametrize("colon", ["：", ":", "﹕"])
def test_m42_r5_colons_full_or_half_width(colon):
    r = parse_vote(f"投票对象{colon}饺子\n投票理由{colon}好吃", VoteLabels())
    assert isinstance(r, ParsedVote) and r.target == "饺子"


@pytest.mark.parametrize("text", ["投票对象：饺子 投票理由：好吃", "投票对象：饺子投票理由：好吃", "投票对象：饺子　投票理由：好吃"])
def test_m42_r5_target_and_reason_share_a_line(text):
    r = parse_vote(text, VoteLabels())
    assert isinstance(r, ParsedVote) and r.target == "饺子" and r.reason == "好吃"


def test_m42_r5_width_folding_keeps_raw_target():
    r = parse_vote("投票对象：Ａｌｉｃｅ\u200b \n投票理由：她的发言很怪", VoteLabels())
    assert r.target == "Alice" and r.raw_target.startswith("Ａｌｉｃｅ")


def test_m42_r5_traditional_labels_and_abstain():
    r = parse_vote("投票對象：棄權\n投票理由：沒想好", VoteLabels())
    assert r.abstain and r.kind == "vote"


def test_m42_r5_missing_reason_is_format_error():
    r = parse_vote("投票对象：涂山红红", VoteLabels())
    assert r == FormatError("格式错误：缺少「投票理由」")


def test_m42_r5_missing_target_is_format_error():
    r = parse_vote("投票理由：她太可疑了", VoteLabels())
    assert isinstance(r, FormatError) and r.reason == "格式错误：缺少「投票对象」"
    r = parse_vote("改票对象：白月初", VoteLabels())
    assert r.reason == "格式错误：缺少「改票理由」"


def test_m42_r5_no_label_is_not_a_vote():
    r = parse_vote("我觉得红红是狼，大家怎么看？", VoteLabels())
    assert r.reason == "不是投票帖：没有「投票对象」" and r.not_a_vote


def test_m42_r5_label_without_colon():
    r = parse_vote("投票对象 涂山红红\n投票理由 可疑", VoteLabels())
    assert isinstance(r, FormatError) and "冒号" in r.reason


def test_m42_r5_label_twice_is_ambiguous():
    r = parse_vote("投票对象：白月初\n投票对象：涂山红红\n投票理由：二选一", VoteLabels())
    assert isinstance(r, FormatError) and "「投票对象」出现了2次" in r.reason


def test_m42_r5_vote_and_change_pair_is_ambiguous():
    r = parse_vote(vote("白月初") + "\n" + change("涂山红红"), VoteLabels())
    assert isinstance(r, FormatError) and "既有投票格式又有改票格式" in r.reason


def test_m42_r5_empty_target():
    assert isinstance(parse_vote("投票对象：\n投票理由：还没想好", VoteLabels()), FormatError)
    assert isinstance(parse_vote("投票对象：　投票理由：还没想好", VoteLabels()), FormatError)


def test_m42_r5_reason_mentioning_a_label_is_not_a_field():
    r = parse_vote("投票对象：石宽\n投票理由：他的投票对象一直在变", VoteLabels())
    assert isinstance(r, ParsedVote) and r.target == "石宽"


def test_custom_labels_from_game_yaml():
    labels = VoteLabels(vote_target=["票投"], vote_reason=["原因"], abstain=["不投"])
    r = parse_vote("票投：不投 原因：没信息", labels)
    assert isinstance(r, ParsedVote) and r.abstain


# --- M42-R5 in the tally ---------------------------------------------------------


def test_m42_r5_valid_vote_counts():
    t = run([post(2, "白月初", vote("涂山红红"))])
    assert [(v["voter"], v["target"], v["weight"]) for v in t.valid] == [("白月初", "涂山红红", 1)]
    assert t.counts == {"涂山红红": 1}


def test_m42_r5_bbcode_in_vote_post():
    t = run([post(2, "白月初", "[b]投票对象[/b]：[color=red]涂山红红[/color]\n[size=5]投票理由：她跳得太急[/size]")])
    assert t.counts == {"涂山红红": 1}


def test_m42_r5_quoted_text_never_counts():
    # Quoting someone else's vote and commenting is not a vote: chatter, not an invalid vote.
    v = post(2, "白月初", vote("涂山红红"))
    only_quote = post(3, "涂山雅雅", quote_of(v) + "同意楼上")
    t = run([v, only_quote])
    assert t.invalid == [] and [c["floor"] for c in t.chatter] == [3]
    assert t.counts == {"涂山红红": 1}


def test_m42_r5_chatter_is_not_listed_as_an_invalid_vote():
    # Only a post that tries to vote (a vote label, with or without its colon) is an invalid vote.
    t = run([post(2, "白月初", "顶"), post(3, "涂山雅雅", "今天投票投谁？我还没想好"), post(4, "石宽", "投票对象石宽")])
    assert [c["floor"] for c in t.chatter] == [2, 3]
    assert t.chatter[0] == {"floor": 2, "pid": "5002", "author": "月初不是白", "voter": "白月初", "time": at("12:00")}
    assert [i["floor"] for i in t.invalid] == [4]
    assert "白月初" in t.not_voted


def test_m42_r5_a_line_opening_with_vote_and_a_colon_tries_to_vote():
    # 「投票：石宽」 is a vote with the wrong label: listed with the format to use, not taken as chatter.
    t = run([post(2, "白月初", "投票：石宽\n理由：跳得太急"), post(3, "涂山雅雅", "改票: 白月初")])
    assert [i["floor"] for i in t.invalid] == [2, 3] and t.chatter == []
    assert "投票对象" in invalid_at(t, 2)["reason"] and "改票对象" in invalid_at(t, 3)["reason"]


def test_m42_r17_out_character_chatter_is_flagged_but_no_invalid_vote():
    t = run([post(2, "涂山红红", "我已经出局了，大家加油")], c=ctx(alive=ALL - {"涂山红红"}))
    assert t.invalid == [] and [c["floor"] for c in t.chatter] == [2]
    assert [f["kind"] for f in t.flags] == ["zombie"]


def test_m42_r5_change_quoting_the_original_reads_only_own_text():
    v = post(2, "白月初", vote("涂山红红"), "10:00")
    c = post(9, "白月初", quote_of(v) + change("石宽"), "11:00", reply_to=ReplyRef(pid=v.pid))
    t = run([v, c])
    assert t.invalid == []
    assert t.counts == {"石宽": 1}
    assert t.changes == [{"floor": 9, "voter": "白月初", "from": "涂山红红", "to": "石宽"}]
    first = t.valid[0]
    assert first["changed_to"] == "石宽" and first["changed_at_floor"] == 9


def test_m42_r5_target_must_be_living_character():
    t = run([post(2, "白月初", vote("小明"))])
    assert invalid_at(t, 2)["reason"] == "投票对象「小明」不是存活角色的名字"
    assert t.counts == {}


def test_m42_r5_target_out_of_game():
    t = run([post(2, "白月初", vote("涂山红红"))], c=ctx(alive=ALL - {"涂山红红"}))
    assert invalid_at(t, 2)["reason"].endswith("已出局")


def test_m42_r5_alias_and_width_folded_name_count():
    t = run([post(2, "白月初", vote("红红")), post(3, "涂山雅雅", vote("Ａｌｉｃｅ"))])
    assert t.counts == {"涂山红红": 1, "Alice": 1}  # alias; full width folds to "Alice"
    assert t.valid[1]["raw_target"] == "Ａｌｉｃｅ"


def test_m42_r5_name_matching_two_characters_is_ambiguous():
    t = run([post(2, "涂山雅雅", vote("月初"))])
    r = invalid_at(t, 2)["reason"]
    assert "白月初" in r and "东方月初" in r and "无法判断" in r
    assert t.counts == {}


def test_m42_r5_did_you_mean_hint_never_counts():
    # 洪 is not 红 (a script variant such as 紅 now is the same name: M42-R5a)
    t = run([post(2, "白月初", vote("涂山红洪"))])
    bad = invalid_at(t, 2)
    assert bad["hint"] == "你是不是想投「涂山红红」？"
    assert t.counts == {}


def test_m42_r5_homoglyph_hint():
    t = run([post(2, "白月初", vote("Аlicе"))])  # Cyrillic А and е
    bad = invalid_at(t, 2)
    assert bad["hint"] == "你是不是想投「Alice」？"
    assert t.counts == {}


def test_m42_r5_first_valid_vote_counts_later_vote_invalid():
    t = run([post(2, "白月初", vote("涂山红红"), "10:00"), post(5, "白月初", vote("石宽"), "10:30")])
    assert t.counts == {"涂山红红": 1}
    bad = invalid_at(t, 5)
    assert bad["reason"] == "已经投过票；改票请用改票格式并回复原投票楼层"
    assert "第2楼" in bad["hint"]


def test_m42_r5_correct_invalid_vote_with_a_new_vote():
    t = run(
        [
            post(2, "白月初", "投票对象：涂山红红", "10:00"),
            post(3, "白月初", vote("小明"), "10:05"),
            post(4, "白月初", vote("涂山红红", "补上理由"), "10:10"),
        ]
    )
    assert [i["floor"] for i in t.invalid] == [2, 3]
    assert t.counts == {"涂山红红": 1}


def test_m42_r5_change_must_reply():
    v = post(2, "白月初", vote("涂山红红"), "10:00")
    t = run([v, post(6, "白月初", change("石宽"), "11:00")])
    bad = invalid_at(t, 6)
    assert bad["reason"] == "改票需回复原投票楼层"
    assert t.counts == {"涂山红红": 1}


@pytest.mark.parametrize(
    "ref",
    [
        ReplyRef(pid="5002"),
        ReplyRef(floor=2),
        ReplyRef(author="月初不是白", time="2026-11-4 10:00"),
        ReplyRef(author="月初不是白", time="2026-11-04 10:00:59"),
    ],
)
def test_m42_r5_change_must_reply_matches_pid_floor_or_author_time(ref):
    v = post(2, "白月初", vote("涂山红红"), "10:00")
    t = run([v, post(6, "白月初", change("石宽"), "11:00", reply_to=ref)])
    assert t.invalid == [] and t.counts == {"石宽": 1}


def test_m42_r5_change_must_reply_found_in_quote_header():
    v = post(2, "白月初", vote("涂山红红"), "10:00")
    t = run([v, post(6, "白月初", quote_of(v) + change("石宽"), "11:00")])
    assert t.counts == {"石宽": 1}


def test_m42_r5_change_must_reply_to_own_counted_vote():
    other = post(2, "涂山雅雅", vote("石宽"), "09:00")
    bad_vote = post(3, "白月初", vote("小明"), "09:30")
    v = post(4, "白月初", vote("涂山红红"), "10:00")
    to_other = post(6, "白月初", change("石宽"), "11:00", reply_to=ReplyRef(pid=other.pid))
    to_invalid = post(7, "白月初", change("石宽"), "11:05", reply_to=ReplyRef(floor=3))
    t = run([other, bad_vote, v, to_other, to_invalid])
    assert invalid_at(t, 6)["reason"] == "改票需回复原投票楼层"
    assert invalid_at(t, 7)["reason"] == "改票需回复原投票楼层"
    assert t.counts == {"涂山红红": 1, "石宽": 1}


def test_m42_r5_change_once_per_day():
    v = post(2, "白月初", vote("涂山红红"), "10:00")
    c1 = post(6, "白月初", change("石宽"), "11:00", reply_to=ReplyRef(floor=2))
    c2 = post(8, "白月初", change("李去浊"), "12:00", reply_to=ReplyRef(floor=2))
    t = run([v, c1, c2])
    assert "改票只允许一次" in invalid_at(t, 8)["reason"]
    assert t.counts == {"石宽": 1}


def test_m42_r5_change_limit_is_an_option():
    v = post(2, "白月初", vote("涂山红红"), "10:00")
    c1 = post(6, "白月初", change("石宽"), "11:00", reply_to=ReplyRef(floor=2))
    c2 = post(8, "白月初", change("李去浊"), "12:00", reply_to=ReplyRef(floor=6))
    t = run([v, c1, c2], change_limit=2)
    assert t.counts == {"李去浊": 1} and len(t.changes) == 2


def test_m42_r5_invalid_change_does_not_use_up_the_change():
    v = post(2, "白月初", vote("涂山红红"), "10:00")
    c_bad = post(6, "白月初", change("小明"), "11:00", reply_to=ReplyRef(floor=2))
    c_ok = post(8, "白月初", change("石宽"), "12:00", reply_to=ReplyRef(floor=2))
    t = run([v, c_bad, c_ok])
    assert [i["floor"] for i in t.invalid] == [6]
    assert t.counts == {"石宽": 1}


def test_m42_r5_change_needs_a_counted_vote():
    t = run([post(3, "白月初", change("石宽"), "11:00", reply_to=ReplyRef(floor=2))])
    assert "还没有有效的投票" in invalid_at(t, 3)["reason"]
    assert t.counts == {}


def test_m42_r5_change_frozen_in_the_last_hour():
    v = post(2, "白月初", vote("涂山红红"), "10:00")
    ok = post(6, "涂山雅雅", vote("石宽"), "20:10")  # a new vote in the last hour is fine
    late_change = post(8, "白月初", change("石宽"), "20:10", reply_to=ReplyRef(floor=2))
    t = run([v, ok, late_change])
    assert invalid_at(t, 8)["reason"] == "关门前一小时内不允许改票"
    assert t.counts == {"涂山红红": 1, "石宽": 1}


def test_m42_r5_no_change_on_a_sped_up_day():
    v = post(2, "白月初", vote("涂山红红"), "10:00")
    c = post(6, "白月初", change("石宽"), "11:00", reply_to=ReplyRef(floor=2))
    t = run([v, c], c=ctx(sped_up=True))
    assert invalid_at(t, 6)["reason"] == "今天执行加速，不允许改票"
    assert t.counts == {"涂山红红": 1}


def test_m42_r5_proxy_vote_counts_and_refused_in_last_hour():
    proxies = [
        ProxyVote("白月初", "涂山红红", at("15:00"), "vote", line=40, event=7),
        ProxyVote("涂山雅雅", "石宽", at("20:30"), "vote", line=41, event=8),
    ]
    t = run([], proxies)
    assert t.counts == {"涂山红红": 1}
    refused = [i for i in t.invalid if i["voter"] == "涂山雅雅"][0]
    assert "不接受代投" in refused["reason"] and refused["event"] == 8  # named by its id, never its line


def test_m42_r5_proxy_merged_after_posts_of_the_same_minute():
    # The post at 15:00 comes first, so the proxy (same minute) is a second vote.
    p = post(3, "白月初", vote("石宽"), datetime(2026, 11, 4, 15, 0, 40, tzinfo=CST))
    t = run([p], [ProxyVote("白月初", "涂山红红", at("15:00"), "vote")])
    assert t.counts == {"石宽": 1}
    assert t.invalid[0].get("proxy") and "已经投过票" in t.invalid[0]["reason"]
    # A proxy one minute earlier comes first.
    t = run([p], [ProxyVote("白月初", "涂山红红", at("14:59"), "vote")])
    assert t.counts == {"涂山红红": 1}
    assert invalid_at(t, 3)["reason"].startswith("已经投过票")


def test_m42_r5_proxy_change():
    t = run(
        [post(2, "白月初", vote("涂山红红"), "10:00")],
        [ProxyVote("白月初", "石宽", at("12:00"), "change", note="私信导演改票")],
    )
    assert t.counts == {"石宽": 1} and t.changes[0]["to"] == "石宽"


def test_m42_r5_late_post_invalid():
    t = run([post(20, "白月初", vote("涂山红红"), datetime(2026, 11, 4, 21, 0, 30, tzinfo=CST))])
    assert "关门后" in invalid_at(t, 20)["reason"]
    assert t.counts == {}


def test_m42_r5_account_not_in_roster_ignored_and_listed():
    t = run([post(2, None, vote("涂山红红"), account="路人甲")])
    assert t.ignored == [{"floor": 2, "pid": "5002", "author": "路人甲", "time": at("12:00")}]
    assert t.invalid == [] and t.counts == {}


def test_m42_r5_out_character_invalid_and_flagged_zombie():
    t = run([post(2, "涂山红红", vote("石宽"))], c=ctx(alive=ALL - {"涂山红红"}))
    assert "诈尸" in invalid_at(t, 2)["reason"]
    assert t.flags == [{"floor": 2, "voter": "涂山红红", "kind": "zombie", "note": "涂山红红已出局，仍在投票帖发帖（诈尸）"}]
    assert t.counts == {}


def test_m42_r8_barred_character_cannot_vote():
    t = run([post(2, "白月初", vote("涂山红红"))], c=ctx(barred={"白月初"}))
    assert "不得投票" in invalid_at(t, 2)["reason"]
    assert "白月初" not in t.not_voted
    assert t.counts == {}


def test_m42_r5_edited_post_counts_as_it_reads_and_is_flagged():
    p = post(2, "白月初", vote("石宽"), edited="本帖最后由 月初不是白 于 2026-11-04 12:40 编辑")
    t = run([p])
    assert t.counts == {"石宽": 1}
    assert t.flags[0]["kind"] == "edited" and t.flags[0]["floor"] == 2


def test_m42_r5_vote_inside_hide_is_not_public():
    t = run([post(2, "白月初", "[hide]" + vote("石宽") + "[/hide]")])
    assert "[hide]" in invalid_at(t, 2)["reason"]
    assert t.counts == {}
    t = tally_day(ctx(), [post(2, "白月初", "[hide]" + vote("石宽") + "[/hide]")], [], VoteLabels(), VoteOptions(vote_in_hide=True))
    assert t.counts == {"石宽": 1}


def test_m42_r5_every_invalid_post_has_floor_author_reason():
    t = run(
        [
            post(2, "白月初", "投票对象：石宽投票理由"),
            post(3, "涂山雅雅", "投票对象：石宽"),
            post(4, "石宽", vote("小明")),
        ]
    )
    assert [(i["floor"], i["author"], i["voter"]) for i in t.invalid] == [
        (2, "月初不是白", "白月初"),
        (3, "雅雅女王", "涂山雅雅"),
        (4, "石头宽宽", "石宽"),
    ]
    assert all(i["reason"] for i in t.invalid)


def test_m42_r5_abstention_is_a_vote_but_counts_nothing():
    t = run([post(2, "白月初", vote("弃权"))])
    assert t.valid[0]["target"] == "弃权" and t.valid[0]["weight"] == 0
    assert "白月初" not in t.not_voted
    assert t.counts == {}
