"""甄嬛 day: nominations, votes, day abilities and the execution (ZH-R10, ZH-R11, ZH-R12),
and the forum posts that carry nominations and votes."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from modtool.packs.zhenhuan.day import DayRules, apply_day, day_report, execution, winner_after_execution
from modtool.packs.zhenhuan.nominations import (
    FormatError,
    Nomination,
    TargetError,
    Vote,
    parse_post,
    post_event,
    resolve_target,
)
from modtool.forum.posts import Post
from modtool.packs.zhenhuan.state import Grimoire, Seat, Status

CST = timezone(timedelta(hours=8))


def grim(*chars: str, dead: tuple[int, ...] = ()) -> Grimoire:
    """7 seats: 1..7, players 玩家1..玩家7, the given characters (team from the default table)."""
    rules = DayRules()
    seats = []
    for i, c in enumerate(chars, 1):
        team = "evil" if rules.type_of(c) in ("minion", "demon") else "good"
        seats.append(Seat(number=i, player=f"玩家{i}", character=c, original=c, team=team, alive=i not in dead))
    return Grimoire(seats=seats, phase="day", number=2)


BASE = ("zhenhuan", "guojunwang", "qifei", "dunqinwang", "huafei", "huangshang", "wentaiyi")


def nom(a, b, floor=None, day=2):
    return {"day": day, "nominator": a, "nominee": b, "floor": floor}


def votes(nominee, *voters, day=2):
    return [{"day": day, "voter": v, "nominee": nominee} for v in voters]


def act(seat, ability, *targets, day=2, **kw):
    return {"day": day, "seat": seat, "ability": ability, "targets": list(targets), **kw}


def test_zh_r11_threshold_half_of_living_rounded_up():
    g = grim(*BASE)  # 7 living: 4 needed
    r = day_report(g, 2, [nom(1, 6)], votes(6, 1, 2, 3), [])
    assert r.nominations[0].threshold == 4 and r.execution is None
    r = day_report(g, 2, [nom(1, 6)], votes(6, 1, 2, 3, 4), [])
    assert r.execution.seat == 6 and r.execution.cause == "vote"
    assert g.seat(6).alive  # the input grimoire is untouched
    assert not r.grimoire.seat(6).alive
    g6 = grim(*BASE, dead=(7,))  # 6 living: 3 needed
    assert execution(g6, 2, [nom(1, 6)], votes(6, 1, 2, 3), []).seat == 6


def test_zh_r11_tie_executes_nobody():
    g = grim(*BASE)
    r = day_report(g, 2, [nom(1, 6), nom(2, 5)], votes(6, 1, 2, 3, 4) + votes(5, 1, 2, 3, 4), [])
    assert r.execution is None
    assert any("平票" in m for m in r.reminders)
    # More votes than the other nominee: executed.
    r = day_report(g, 2, [nom(1, 6), nom(2, 5)], votes(6, 1, 2, 3, 4, 7) + votes(5, 1, 2, 3, 4), [])
    assert r.execution.seat == 6


def test_zh_r11_ghost_vote_once():
    g = grim(*BASE, dead=(7,))
    r = day_report(g, 2, [nom(1, 6), nom(2, 5)], votes(6, 7) + votes(5, 7), [])
    assert r.nominations[0].voters == [7] and r.nominations[0].ghost_voters == [7]
    assert r.nominations[1].voters == []
    assert "亡魂票已经用过" in r.invalid[0].reason and "7号" in r.invalid[0].reason
    assert r.ghost_votes_spent == [7]
    assert r.grimoire.seat(7).ghost_vote is False and g.seat(7).ghost_vote is True
    # Spent on an earlier day: invalid.
    g.seat(7).ghost_vote = False
    r = day_report(g, 2, [nom(1, 6)], votes(6, 7), [])
    assert r.nominations[0].voters == [] and len(r.invalid) == 1


def test_zh_r11_nominate_once_nominated_once():
    g = grim(*BASE, dead=(7,))
    noms = [nom(1, 6, floor=10), nom(1, 5, floor=12), nom(2, 6, floor=15), nom(7, 5, floor=16), nom(3, 5, day=1)]
    r = day_report(g, 2, noms, votes(6, 1, 1) + votes(4, 2), [])
    assert [(n.nominator, n.nominee) for n in r.nominations] == [(1, 6)]
    reasons = [i.reason for i in r.invalid]
    assert "12楼" in reasons[0] and "1号（玩家1）今天已经提名过" in reasons[0]
    assert "15楼" in reasons[1] and "6号（玩家6）今天已经被提名过" in reasons[1]
    assert "16楼" in reasons[2] and "已死亡，不能提名" in reasons[2]
    assert "已经给6号（玩家6）投过票" in reasons[3]
    assert "今天没有被有效提名" in reasons[4]


def test_zh_r10_chunyuan_townsfolk_nominator_executed():
    g = grim("zhenhuan", "chunyuan", "qifei", "dunqinwang", "huafei", "huangshang", "wentaiyi")
    r = day_report(g, 2, [nom(1, 2), nom(3, 6)], votes(6, 1, 2, 3, 4, 5), [])
    assert r.execution.seat == 1 and r.execution.cause == "chunyuan"
    assert not r.grimoire.seat(1).alive
    assert "白天已结束" in r.invalid[0].reason  # nothing after the execution counts
    # An outsider nominates her first: no execution, and the ability is spent.
    r = day_report(g, 2, [nom(3, 2), nom(1, 6)], [], [])
    assert r.execution is None
    after = r.grimoire
    r2 = day_report(after, 3, [nom(1, 2, day=3)], [], [])
    assert r2.execution is None


def test_zh_r10_taihou_forces_execution_once():
    g = grim("zhenhuan", "taihou", "qifei", "dunqinwang", "huafei", "huangshang", "wentaiyi")
    r = day_report(g, 2, [nom(1, 6)], votes(6, 1), [act(2, "force_execute", 6)])
    assert r.execution.seat == 6 and r.execution.cause == "taihou" and r.execution.votes == 1
    # Spent: a second use (a later day) is invalid.
    g2 = r.grimoire
    g2.seat(6).alive = True
    r = day_report(g2, 3, [nom(1, 5, day=3)], [], [act(2, "force_execute", 5, day=3)])
    assert r.execution is None and "只能用一次" in r.invalid[0].reason
    # Poisoned: chosen, spent, nobody dies (ZH-R3).
    g.seat(2).statuses.append(Status("poisoned", "5"))
    r = day_report(g, 2, [nom(1, 6)], [], [act(2, "force_execute", 6)])
    assert r.execution is None and r.grimoire.seat(2).has("used")
    # Only a nominee of the day.
    r = day_report(grim("zhenhuan", "taihou", *BASE[2:]), 2, [], [], [act(2, "force_execute", 6)])
    assert "没有被提名" in r.invalid[0].reason


def test_zh_r10_huafei_yizhanghong():
    g = grim(*BASE)
    g.seat(1).statuses.append(Status("yizhanghong", "5", until=("night", 3)))
    r = day_report(g, 2, [nom(1, 6)], votes(6, 1, 2, 3, 4), [])
    assert [(d.seat, d.cause, d.phase, d.number) for d in r.deaths][:1] == [(1, "yizhanghong", "day", 2)]
    assert any("一丈红" in m for m in r.reminders)
    # The nomination stands; 6 living now: 3 needed, 4 votes (1 spends a ghost vote).
    assert r.nominations[0].threshold == 3 and r.execution.seat == 6
    assert r.nominations[0].ghost_voters == [1]
    # Expired (given for an earlier day): no death.
    g = grim(*BASE)
    g.seat(1).statuses.append(Status("yizhanghong", "5", until=("night", 2)))
    assert day_report(g, 2, [nom(1, 6)], [], []).deaths == []


def test_zh_r10_qifei_silence_not_twice_running():
    g = grim(*BASE)
    acts = [act(3, "silence", 1, day=1), act(3, "silence", 1, floor=20), act(3, "silence", 2), act(3, "silence", 4)]
    r = day_report(g, 2, [], [], acts)
    # G-R1: a second valid silence the same day replaces the first (2), it is not refused.
    assert r.silenced == [4] and len(r.invalid) == 1
    assert "20楼" in r.invalid[0].reason and "不能连续两天禁言同一人" in r.invalid[0].reason
    assert [(st.kind, seat) for seat, st in r.statuses] == [("silenced", 4)]
    # Not complying: executed at once.
    r = day_report(g, 2, [], [], [act(3, "silence", 2), act(0, "not_complied", 2)])
    assert r.execution.seat == 2 and r.execution.cause == "qifei"
    # 齐妃 impaired: no execution.
    g.seat(3).statuses.append(Status("drunk", "4", until=("day", 3)))
    r = day_report(g, 2, [], [], [act(3, "silence", 2), act(0, "not_complied", 2)])
    assert r.execution is None and r.silenced == [2]


def test_zh_r10_dunqinwang_drunk_until_next_day():
    g = grim("zhenhuan", "taihou", "qifei", "dunqinwang", "huafei", "huangshang", "wentaiyi")
    r = day_report(g, 2, [nom(1, 6)], [], [act(4, "drunk", 2), act(2, "force_execute", 6), act(4, "drunk", 3)])
    # G-R1: the later valid choice (3) replaces the first (2); the drunk ends when the next day begins.
    assert [(s, st.kind, st.until) for s, st in r.statuses if st.kind == "drunk"] == [(3, "drunk", ("day", 3))]
    assert r.execution is None and not r.invalid  # 太后 drunk: no effect
    # 敦亲王 impaired: no token.
    g.seat(4).statuses.append(Status("poisoned", "5", until=("night", 3)))
    r = day_report(g, 2, [], [], [act(4, "drunk", 2)])
    assert r.statuses == [] and r.reminders


def test_zh_r10_qiguiren_accusation_exposed():
    g = grim("qiguiren", *BASE[1:])
    r = day_report(g, 2, [], [], [act(1, "accuse", 6, guess="皇上")])
    a = r.accusations[0]
    assert (a.seat, a.target, a.actual, a.right, a.impaired) == (1, 6, "huangshang", True, False)
    r = day_report(g, 2, [], [], [act(1, "accuse", 5, guess="huanghou")])
    assert r.accusations[0].right is False


def test_zh_r12_longyue_executed_team_loses():
    g = grim("zhenhuan", "longyue", "qifei", "dunqinwang", "huafei", "huangshang", "wentaiyi")
    r = day_report(g, 2, [nom(1, 2)], votes(2, 1, 3, 4, 5), [])
    assert r.execution.seat == 2 and r.winner == "evil" and r.grimoire.winner == "evil"
    assert winner_after_execution(g, 2) == "evil"
    g.seat(2).statuses.append(Status("drunk", "4"))
    assert winner_after_execution(g, 2) is None
    apply_day(g, r)
    assert g.winner == "evil" and not g.seat(2).alive


def test_rules_from_game_roles():
    rules = DayRules.from_roles({"cy": {"name": "纯元皇后", "type": "townsfolk"}, "zh": {"name": "甄嬛", "type": "townsfolk"}})
    g = grim("zh", "cy", *BASE[2:])
    assert execution(g, 2, [nom(1, 2)], [], [], rules=rules).cause == "chunyuan"


def test_order_by_ledger_line():
    g = grim(*BASE)
    # The vote (line 3) comes before the nomination (line 5): not a nominee yet.
    r = day_report(g, 2, [{**nom(1, 6), "line": 5}], [{**votes(6, 2)[0], "line": 3}], [])
    assert r.nominations[0].voters == [] and "没有被有效提名" in r.invalid[0].reason


# ---------------------------------------------------------------- posts (ZH-R11)


def test_parse_nomination_full_and_half_width():
    p = parse_post("提名对象：3号\n提名理由：昨天跳得太急了，发言前后矛盾")
    assert isinstance(p, Nomination) and p.target == "3号" and p.reason.startswith("昨天")
    p = parse_post("提名对象:３号 提名理由:盘不清")
    assert isinstance(p, Nomination) and p.target == "3号"
    p = parse_post("提名对象：甄嬛本嬛提名理由：她一直在划水")
    assert isinstance(p, Nomination) and p.target == "甄嬛本嬛"


def test_parse_vote_reason_optional():
    p = parse_post("跟票\n投票对象：3号")
    assert isinstance(p, Vote) and p.target == "3号" and p.reason == ""
    p = parse_post("投票对象：小主 投票理由：票型很怪")
    assert isinstance(p, Vote) and p.target == "小主" and p.reason == "票型很怪"


def test_parse_errors_in_chinese():
    assert "缺少「提名理由」" in parse_post("提名对象：3号").reason
    assert "缺少冒号" in parse_post("我想提名对象3号").reason
    r = parse_post("今天先不提名，大家多聊聊")
    assert isinstance(r, FormatError) and r.not_a_vote
    assert "分开发帖" in parse_post("提名对象：3号\n提名理由：怪\n投票对象：3号").reason
    assert "出现了2次" in parse_post("投票对象：3号\n投票对象：4号").reason


def test_quoted_post_never_counts():
    post = Post(pid="1", floor=12, author="玩家2", time=datetime(2026, 11, 4, 20, 0, tzinfo=CST),
                body="[quote]提名对象：5号\n提名理由：怪[/quote]\n同意楼上，但我不提名")
    ev = post_event(post, 2, grim(*BASE).seats)
    assert not isinstance(ev, dict) and ev.not_a_vote


def test_post_event_and_targets():
    seats = grim(*BASE).seats
    post = Post(pid="1", floor=30, author="玩家2", time=datetime(2026, 11, 4, 20, 5, tzinfo=CST),
                body="提名对象：玩家6\n提名理由：夜里太安静")
    assert post_event(post, 2, seats) == {"type": "nominate", "day": 2, "nominator": 2, "nominee": 6,
                                          "at": "2026-11-04 20:05:00", "floor": 30}
    assert resolve_target("３号", seats) == 3 and resolve_target("3", seats) == 3
    assert resolve_target("小六", seats, aliases={"玩家6": ["小六"]}) == 6
    e = resolve_target("9号", seats)
    assert isinstance(e, TargetError) and "没有9号座位" in e.reason
    e = resolve_target("玩家66", seats)
    assert isinstance(e, TargetError) and "是不是" in e.reason


def test_labels_from_game_yaml_mapping():
    from modtool.packs.zhenhuan.nominations import Labels

    labels = Labels.from_mapping({"nominate_target": ["提名對象"], "nominate_reason": ["提名理由"]})
    assert isinstance(parse_post("提名對象：2號\n提名理由：可疑", labels), Nomination)
