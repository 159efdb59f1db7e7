"""Cards, lurking, the schedule and substitutes inside the game replay (M42-R13..R16).

The pure rules have their own tests (test_m42_schedule, test_m42_lurking,
test_m42_flags); these check what the engine does with them.
"""

from modtool.core.gamefile import open_game
from modtool.packs.m42.engine import day_context
from modtool.packs.m42.replay import replay
from tests.test_m42_engine import DAY1, DAWN1, DAY2, act, adv, vote


def run(m42_game, events, header="game: m42\nseed: 1\n"):
    gd = open_game(m42_game(events, header=header))
    assert not gd.problems, gd.problems
    return gd, replay(gd)


def card(name, color, at, reason="违规"):
    return f'- {{type: card, character: {name}, color: {color}, reason: "{reason}", at: "{at}"}}\n'


def messages(st):
    return " ".join(p.message for p in st.problems)


def test_m42_r13_three_blue_make_a_yellow_three_yellow_a_red(m42_game):
    blues = "".join(card("石宽", "blue", f"2026-11-02 1{i}:00") for i in range(3))
    yellows = "".join(card("石宽", "yellow", f"2026-11-02 1{i}:30") for i in range(3, 5))
    gd, st = run(m42_game, blues + yellows)
    from modtool.packs.m42.cards import standing

    t = standing([c for c in st.cards if c.character == "石宽"])
    assert (t.blue, t.yellow, t.red) == (0, 0, 1)
    assert st.red_queue == ["石宽"]  # by day: out only after the vote


def test_m42_r13_red_card_exit_after_the_days_vote_without_last_words_or_shot(m42_game):
    events = card("王权富贵", "red", "2026-11-02 12:00", "恶意破坏游戏") + DAY1
    gd, st = run(m42_game, events)
    assert [(e.name, e.cause) for e in st.exits] == [("王权富贵", "redcard")]
    kinds = {p.kind for p in st.pending}
    assert "shoot" not in kinds and "last_words" not in kinds  # M42-R13: no last words, no hunter shot
    assert "camp_loss" in kinds  # the director is asked whether the camp loses
    assert st.sheriff == "涂山红红"  # elected by the vote before the red card resolved


def test_m42_r13_red_carded_sheriff_succeeded_at_random_and_camp_decision(m42_game):
    events = DAY1 + card("涂山红红", "red", "2026-11-03 21:30")
    gd, st = run(m42_game, events)
    assert st.exits[0].cause == "redcard" and st.sheriff not in (None, "涂山红红")
    assert "随机" in st.sheriff_log[-1][2]
    gd, st = run(m42_game, events + '- {type: decision, about: camp_loss, character: 涂山红红, loses: true, at: "2026-11-03 21:40"}\n')
    assert "village" in st.lost and st.winner == "wolf"


def test_m42_r13_out_characters_can_still_be_carded_and_withdrawal_keeps_history(m42_game):
    events = DAY1 + act("狼人", "kill", "涂山苏苏") + DAWN1 + card("涂山苏苏", "yellow", "2026-11-04 08:00", "诈尸")
    events += '- {type: withdraw, card: 1, reason: "看错楼层"}\n'
    gd, st = run(m42_game, events)
    mine = [c for c in st.cards if c.number == 1]  # director's cards are numbered; lurking yellows are not
    assert mine[0].character == "涂山苏苏" and mine[0].withdrawn == "看错楼层"


def test_m42_r14_lurking_yellow_for_no_vote_at_close(m42_game):
    gd, st = run(m42_game, DAY1)
    lurkers = {c.character for c in st.cards if c.source == "lurking"}
    assert "涂山雅雅" not in lurkers and "石宽" in lurkers and len(lurkers) == 12


def test_m42_r14_waived_yellow_is_listed_but_does_not_count(m42_game):
    gd, st = run(m42_game, DAY1 + '- {type: waive, day: 1, character: 石宽, rule: b, reason: "请假"}\n')
    mine = [c for c in st.cards if c.character == "石宽"]
    assert len(mine) == 1 and mine[0].withdrawn == "导演免除：请假"
    from modtool.packs.m42.cards import standing

    assert standing(mine).yellow == 0


def test_m42_r14_counts_discussion_posts_when_the_thread_was_imported(m42_game):
    chat = "".join(
        f'- {{type: post, thread: discussion, day: 1, floor: {i + 2}, author: 雅雅女王, time: "2026-11-02 1{i}:00", body: "聊天{i}"}}\n'
        for i in range(5)
    )
    gd, st = run(m42_game, chat + DAY1)
    reasons = {(c.character, c.reason[:12]) for c in st.cards}
    assert not any(n == "涂山雅雅" for n, _ in reasons)  # five posts and a vote
    assert any(n == "白月初" and "a" in r for n, r in reasons)  # no posts at all: (a)


def test_m42_r15_close_comes_from_the_schedule_with_a_weekend(m42_game):
    # Day 1 opens Thu 2026-11-05 10:00: Thu, Fri + nothing; opening Fri 11-06: Fri, Sat, Sun.
    gd, st = run(m42_game, "", header='game: m42\nseed: 1\nopens: "2026-11-06 10:00"\n')
    ctx = day_context(gd, st, 1)
    assert ctx.close.strftime("%Y-%m-%d %H:%M") == "2026-11-08 21:00"


def test_m42_r15_sped_up_day_no_changes_no_lurking(m42_game):
    events = ('- {type: speedup, day: 1, note: 人数少}\n'
              + vote(1, 2, "雅雅女王", "涂山红红", "2026-11-02 10:00") + adv("day", 1, "2026-11-02 21:00"))
    gd, st = run(m42_game, events, header='game: m42\nseed: 1\nopens: "2026-11-02 09:00"\n')
    assert st.days[1].ctx.sped_up and st.days[1].ctx.close.strftime("%d %H:%M") == "02 21:00"
    assert st.cards == []


def test_m42_r5b_advancing_before_the_close_closes_the_day_and_says_so(m42_game):
    gd, st = run(m42_game, vote(1, 2, "雅雅女王", "涂山红红", "2026-11-02 10:00") + adv("day", 1, "2026-11-03 20:00"),
                 header='game: m42\nseed: 1\nopens: "2026-11-02 09:00"\n')
    assert any("于 2026-11-03 20:00 关门（M42-R5b）" in w.message for w in st.warnings)
    assert st.days[1].closed.strftime("%d %H:%M") == "03 20:00" == st.days[1].ctx.close.strftime("%d %H:%M")


def test_m42_r16_one_substitute_per_character_and_leave_is_a_red_card(m42_game):
    sub = '- {type: substitute, character: 石宽, player: 小石, at: "2026-11-02 12:00"}\n'
    gd, st = run(m42_game, sub + sub.replace("小石", "大石") + '- {type: leave, character: 白月初, at: "2026-11-02 13:00"}\n' + DAY1)
    assert st.substituted["石宽"]["player"] == "小石" and "已经更换过一次替补" in messages(st)
    assert ("白月初", "redcard") in [(e.name, e.cause) for e in st.exits]


def test_m42_r16_assistant_only_for_three_games_or_fewer(m42_game):
    ok = '- {type: assistant, character: 白月初, helper: 阿白, games: 3}\n'
    gd, st = run(m42_game, ok + ok.replace("games: 3", "games: 4"))
    assert messages(st).count("场外助理") == 1


def test_m42_r13_cards_merge_in_the_order_given_not_the_order_recorded():
    """A card recorded late with an earlier time merges in its place in time: three
    blues recorded as 12:00, 10:00, 11:00 become a yellow at 12:00, not at 11:00."""
    from datetime import datetime, timezone

    from modtool.packs.m42.cards import Card, red_reached_at, standing

    def card(n, color, hour):
        return Card(n, "石宽", color, "x", datetime(2026, 11, 4, hour, tzinfo=timezone.utc))

    blues = [card(1, "blue", 12), card(2, "blue", 10), card(3, "blue", 11)]
    t = standing(blues)
    assert (t.blue, t.yellow) == (0, 1) and t.merged == ["11-04 12:00 3 张蓝牌合并为 1 张黄牌"]
    yellows = [card(1, "yellow", 9), card(2, "yellow", 8), card(3, "yellow", 15), card(4, "yellow", 7)]
    assert red_reached_at(yellows) == datetime(2026, 11, 4, 9, tzinfo=timezone.utc)  # 7:00, 8:00, 9:00 make the red


def _camp_asked(st, name):
    return any(p.kind == "camp_loss" and p.who == name for p in st.pending)


def test_m42_r13_red_card_on_a_character_already_out_still_asks_about_the_camp(m42_game):
    """M42-R13: characters who are out can still be carded, and a red card asks the
    director whether the camp loses; a kill victim's red card asks it too."""
    events = DAY1 + act("狼人", "kill", "石宽") + DAWN1 + card("石宽", "red", "2026-11-03 23:00", "场外交流")
    gd, st = run(m42_game, events)
    assert "石宽" not in st.alive and _camp_asked(st, "石宽")
    decided = events + '- {type: decision, about: camp_loss, character: 石宽, loses: true, at: "2026-11-03 23:10"}\n'
    gd, st = run(m42_game, decided)
    assert "wolf" in st.lost and st.winner == "village"


def test_m42_r13_three_yellows_on_a_character_out_ask_once_about_the_camp(m42_game):
    yellows = "".join(card("石宽", "yellow", f"2026-11-03 23:0{i}", f"违规{i}") for i in range(4))
    gd, st = run(m42_game, DAY1 + act("狼人", "kill", "石宽") + DAWN1 + yellows)
    assert [p.who for p in st.pending if p.kind == "camp_loss"] == ["石宽"]  # the 4th yellow is no new red


def test_m42_r13_red_card_of_a_character_exiled_by_the_same_days_vote_asks_about_the_camp(m42_game):
    """A red given by day resolves after the vote (M42-R13); when the vote already put the
    character out, the red card still asks the director about the camp."""
    votes = "".join(vote(2, 2 + i, acc, "石宽", "2026-11-04 12:00") for i, acc in enumerate(["雅雅女王", "红红的红", "月初不是白"]))
    events = DAY1 + DAWN1 + DAY2 + card("石宽", "red", "2026-11-04 13:00", "场外交流") + votes + adv("day", 2, "2026-11-05 21:00")
    gd, st = run(m42_game, events)
    assert [(e.name, e.cause) for e in st.exits] == [("石宽", "exile")]
    assert _camp_asked(st, "石宽")


ACCOUNTS = {"涂山苏苏": "苏苏今天也很努力", "白月初": "月初不是白", "涂山红红": "红红的红", "东方月初": "东方不败月",
            "涂山雅雅": "雅雅女王", "王权富贵": "富贵不能淫", "东方淮竹": "淮竹清风", "王权霸业": "霸业未成",
            "涂山容容": "容容的算盘", "东方秦兰": "秦兰兰", "石宽": "石头宽宽", "李去浊": "去浊留清", "金人凤": "金凤凰"}


def test_m42_r14a_a_barred_voter_gets_no_b_yellow_but_a_and_c_still_apply(m42_game):
    """M42-R14a: the scapegoat, out by a tie on day 2, barred 石宽 from voting on day 3
    (M42-R8): no (b) yellow for day 3, while (a) (one post a day) and (c) (three days
    under ten posts) still give theirs; 白月初, not barred and not voting, gets (b)."""
    def chat(day, date):
        rows = []
        for name, account in ACCOUNTS.items():
            for k in range(1 if name == "石宽" else 5):
                rows.append(f'- {{type: post, thread: discussion, day: {day}, floor: {len(rows) + 2}, author: {account}, '
                            f'time: "{date} 1{k}:00", body: "发言"}}\n')
        return "".join(rows)

    def votes(day, date, targets):
        return "".join(vote(day, i + 2, ACCOUNTS[name], target, f"{date} 12:{i:02d}")
                       for i, (name, target) in enumerate(targets.items()))

    everyone = list(ACCOUNTS)
    day2 = {n: "石宽" for n in ["涂山红红", "白月初", "东方月初", "王权富贵", "东方淮竹"]}  # 2 + 4 (M42-R3)
    day2.update({n: "涂山雅雅" for n in ["王权霸业", "涂山容容", "东方秦兰", "石宽", "李去浊", "金人凤"]})
    day2.update({n: "弃权" for n in ["涂山苏苏", "涂山雅雅"]})
    day3 = {n: "金人凤" for n in everyone if n not in ("石宽", "白月初", "东方淮竹")}
    events = (chat(1, "2026-11-02") + votes(1, "2026-11-02", {n: "涂山红红" for n in everyone})
              + adv("day", 1, "2026-11-03 21:00") + DAWN1 + DAY2
              + chat(2, "2026-11-04") + votes(2, "2026-11-04", day2) + adv("day", 2, "2026-11-05 21:00")
              + "- {type: bar, day: 3, voters: [石宽]}\n"
              + adv("night", 2, "2026-11-05 22:30") + adv("dawn", 2, "2026-11-06 10:00")
              + chat(3, "2026-11-06") + votes(3, "2026-11-06", day3) + adv("day", 3, "2026-11-08 21:00"))
    gd, st = run(m42_game, events, header='game: m42\nseed: 1\nopens: "2026-11-02 09:00"\n')
    assert [(e.name, e.cause) for e in st.exits][0] == ("东方淮竹", "scapegoat") and st.barred[3] == {"石宽"}
    closed = st.days[3].closed

    def rules(name):
        return sorted(c.reason.split("R14 ")[1][0] for c in st.cards
                      if c.source == "lurking" and c.character == name and c.at == closed)

    assert rules("石宽") == ["a", "c"]  # no (b): barred from voting that day
    assert rules("白月初") == ["b", "c"]
