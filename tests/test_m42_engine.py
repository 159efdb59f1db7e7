"""The M42 game by replay: phases, nights, exits and what follows them, winning.

Rulings M42-R1, R6..R12 and the deadlines of M42-R15, each test written from the
rule text. Ledgers are written inline; the roster is the bundled example's
(狼人: 王权霸业 石宽 李去浊 金人凤; 预言家 涂山红红; 女巫 涂山容容;
替罪羊 东方淮竹; 猎人 王权富贵; the rest 村民).
"""

from modtool.core.gamefile import open_game
from modtool.packs.m42.replay import replay


def vote(day, floor, account, target, time):
    return (
        f'- {{type: post, thread: vote, day: {day}, floor: {floor}, author: {account}, '
        f'time: "{time}", body: "投票对象：{target}\\n投票理由：理由"}}\n'
    )


def adv(phase, number, at):
    return f'- {{type: advance, phase: {phase}, number: {number}, at: "{at}"}}\n'


def act(actor, ability, target=None, at="2026-11-03 21:30", night=None):
    t = f", target: {target}" if target else ""
    n = f", night: {night}" if night else ""
    return f'- {{type: act, actor: {actor}, ability: {ability}{t}{n}, at: "{at}"}}\n'


DAY1 = vote(1, 2, "雅雅女王", "涂山红红", "2026-11-02 10:00") + adv("day", 1, "2026-11-03 21:00")
DAWN1 = adv("night", 1, "2026-11-03 22:30")
DAY2 = adv("dawn", 1, "2026-11-04 10:00")


def run(m42_game, events):
    gd = open_game(m42_game(events))
    assert not gd.problems, gd.problems
    return replay(gd)


def messages(st):
    return " ".join(p.message for p in st.problems)


def test_m42_r1_phases_day1_sheriff_then_night(m42_game):
    st = run(m42_game, DAY1)
    assert st.phase == "night" and st.number == 1
    assert st.sheriff == "涂山红红" and st.exits == []
    st = run(m42_game, DAY1 + DAWN1 + DAY2)
    assert st.phase == "day" and st.number == 2


def test_m42_r1_advance_must_name_the_current_phase(m42_game):
    st = run(m42_game, DAY1 + adv("day", 1, "2026-11-03 21:05"))
    assert "此时是" in messages(st) and st.phase == "night"


def test_m42_r6_kill_then_poison_in_order(m42_game):
    st = run(m42_game, DAY1 + act("狼人", "kill", "涂山苏苏") + act("涂山容容", "poison", "石宽", "2026-11-03 21:40") + DAWN1)
    assert [(e.name, e.cause) for e in st.exits] == [("涂山苏苏", "kill"), ("石宽", "poison")]
    assert st.phase == "dawn"


def test_m42_r6_saved_kill_no_exit_and_witch_cannot_save_herself(m42_game):
    st = run(m42_game, DAY1 + act("狼人", "kill", "白月初") + act("容容", "save", "白月初", "2026-11-03 21:45") + DAWN1)
    assert st.exits == [] and "save" in st.potions_used
    st = run(m42_game, DAY1 + act("狼人", "kill", "涂山容容") + act("涂山容容", "save", "涂山容容", "2026-11-03 21:45") + DAWN1)
    assert "不得自救" in messages(st) and [e.name for e in st.exits] == ["涂山容容"]


def test_m42_r6_one_potion_a_night_each_once(m42_game):
    night2 = DAY2 + adv("day", 2, "2026-11-05 21:00")
    st = run(
        m42_game,
        DAY1 + act("狼人", "kill", "白月初") + act("涂山容容", "save", "白月初", "2026-11-03 21:45")
        + act("涂山容容", "poison", "石宽", "2026-11-03 21:50") + DAWN1 + night2
        + act("狼人", "kill", "东方月初", "2026-11-05 21:30") + act("涂山容容", "save", "东方月初", "2026-11-05 21:40"),
    )
    text = messages(st)
    assert "同一晚" in text and "已经用过" in text


def test_m42_r6_saving_a_non_target_wastes_the_save_with_a_warning(m42_game):
    st = run(m42_game, DAY1 + act("狼人", "kill", "白月初") + act("涂山容容", "save", "石宽", "2026-11-03 21:45") + DAWN1)
    assert [e.name for e in st.exits] == ["白月初"]
    assert "save" in st.potions_used and any("白白用掉" in w.message for w in st.warnings)


def test_m42_r6_targets_must_be_in_the_game_and_abilities_owned(m42_game):
    st = run(m42_game, DAY1 + act("狼人", "kill", "涂山苏苏") + DAWN1 + DAY2 + adv("day", 2, "2026-11-05 21:00")
             + act("狼人", "kill", "涂山苏苏", "2026-11-05 21:30") + act("白月初", "check", "石宽", "2026-11-05 21:31"))
    text = messages(st)
    assert "已出局" in text and "没有技能" in text


def test_m42_r6_seer_learns_the_camp(m42_game):
    st = run(m42_game, DAY1 + act("涂山红红", "check", "金人凤") + DAWN1)
    assert st.nights[1].checks[0]["result"] == "非村民阵营"
    st = run(m42_game, DAY1 + act("涂山红红", "check", "东方淮竹") + DAWN1)
    assert st.nights[1].checks[0]["result"] == "村民阵营"


def test_m42_r6_no_wolf_submission_no_kill(m42_game):
    st = run(m42_game, DAY1 + DAWN1)
    assert st.exits == []


def test_m42_r15_wolves_and_seer_within_an_hour_of_close(m42_game):
    st = run(m42_game, DAY1 + act("狼人", "kill", "白月初", "2026-11-03 22:05") + act("涂山红红", "check", "石宽", "2026-11-03 22:01") + DAWN1)
    assert st.exits == [] and st.nights[1].checks == []
    assert messages(st).count("M42-R15") == 2


def test_m42_r15_witch_within_half_an_hour_of_being_told(m42_game):
    st = run(m42_game, DAY1 + act("狼人", "kill", "白月初", "2026-11-03 21:20") + act("涂山容容", "save", "白月初", "2026-11-03 21:51") + DAWN1)
    assert [e.name for e in st.exits] == ["白月初"] and "M42-R15" in messages(st)


def test_m42_r7_hunter_shoots_after_any_exit_but_red_card(m42_game):
    st = run(m42_game, DAY1 + act("涂山容容", "poison", "王权富贵", "2026-11-03 21:40") + DAWN1
             + act("王权富贵", "shoot", "金人凤", "2026-11-03 22:50"))
    assert [(e.name, e.cause) for e in st.exits] == [("王权富贵", "poison"), ("金人凤", "shot")]


def test_m42_r7_hunter_shot_deadline_and_only_others(m42_game):
    st = run(m42_game, DAY1 + act("狼人", "kill", "王权富贵") + DAWN1 + act("王权富贵", "shoot", "王权富贵", "2026-11-03 22:35")
             + act("王权富贵", "shoot", "石宽", "2026-11-03 23:05"))
    text = messages(st)
    assert "不能选择自己" in text and "M42-R15" in text
    assert [e.name for e in st.exits] == ["王权富贵"]


def test_m42_r9_sheriff_names_successor_or_random_from_seed(m42_game):
    base = DAY1 + act("狼人", "kill", "涂山红红") + DAWN1
    st = run(m42_game, base + act("涂山红红", "successor", "白月初", "2026-11-04 08:00") + DAY2)
    assert st.sheriff == "白月初"
    st1 = run(m42_game, base + DAY2)
    st2 = run(m42_game, base + DAY2)
    assert st1.sheriff == st2.sheriff and st1.sheriff in st1.alive  # random, but the same every replay
    assert "随机" in st1.sheriff_log[-1][2]


def test_m42_r9_recorded_draw_is_used(m42_game):
    st = run(m42_game, DAY1 + act("狼人", "kill", "涂山红红") + DAWN1 + DAY2
             + "- {type: draw, for: sheriff, number: 1, chosen: 石宽}\n")
    assert st.sheriff == "石宽"


def test_m42_r9_exiled_sheriff_has_ten_minutes(m42_game):
    day2 = (DAY1 + DAWN1 + DAY2 + vote(2, 2, "雅雅女王", "涂山红红", "2026-11-04 11:00")
            + vote(2, 3, "石头宽宽", "涂山红红", "2026-11-04 11:05") + adv("day", 2, "2026-11-05 21:00"))
    st = run(m42_game, day2 + act("涂山红红", "successor", "白月初", "2026-11-05 21:09"))
    assert st.sheriff == "白月初"
    st = run(m42_game, day2 + act("涂山红红", "successor", "白月初", "2026-11-05 21:11") + DAWN1.replace("night, number: 1", "night, number: 2").replace("11-03 22:30", "11-05 22:30"))
    assert "M42-R15" in messages(st) and st.sheriff != "涂山红红" and "随机" in st.sheriff_log[-1][2]


def test_m42_r10_last_words_at_most_four(m42_game):
    lw = "".join(f'- {{type: last_words, character: 涂山苏苏, text: "第{i}条", at: "2026-11-04 08:0{i}"}}\n' for i in range(5))
    st = run(m42_game, DAY1 + act("狼人", "kill", "涂山苏苏") + DAWN1 + lw)
    assert len(st.last_words["涂山苏苏"]) == 4 and "已满 4 条" in messages(st)


def test_m42_r10_last_words_only_before_the_next_day_and_bbcode_flagged(m42_game):
    st = run(m42_game, DAY1 + act("狼人", "kill", "涂山苏苏") + DAWN1
             + '- {type: last_words, character: 涂山苏苏, text: "[color=red]我是好人[/color]", at: "2026-11-04 08:00"}\n'
             + DAY2 + '- {type: last_words, character: 涂山苏苏, text: "晚了", at: "2026-11-04 11:00"}\n')
    assert len(st.last_words["涂山苏苏"]) == 1
    assert "没有留遗言的权利" in messages(st) and any("论坛代码" in w.message for w in st.warnings)


WOLVES = {"王权霸业", "石宽", "李去浊", "金人凤"}
POWER = {"涂山红红", "涂山容容", "东方淮竹", "王权富贵"}
VILLAGERS = {"涂山苏苏", "白月初", "东方月初", "涂山雅雅", "东方秦兰"}


def winner(m42_game, alive, surrendered=()):
    from modtool.packs.m42.wincheck import check_winner

    gd = open_game(m42_game(""))
    return check_winner(gd.game, gd.roster, set(alive), [], set(surrendered))


def test_m42_r11_wolves_win_at_half_of_the_living(m42_game):
    assert winner(m42_game, WOLVES | {"涂山红红", "涂山容容", "白月初", "东方月初"}) == ([], "wolf")
    assert winner(m42_game, WOLVES | {"涂山红红", "涂山容容", "白月初", "东方月初", "涂山雅雅"}) == ([], None)


def test_m42_r11_village_loses_without_power_roles_or_without_villagers(m42_game):
    assert winner(m42_game, {"石宽"} | VILLAGERS) == (["village"], "wolf")
    assert winner(m42_game, {"石宽"} | POWER) == (["village"], "wolf")


def test_m42_r11_wolves_lose_when_every_wolf_is_out(m42_game):
    assert winner(m42_game, POWER | VILLAGERS) == (["wolf"], "village")


def test_m42_r11_no_winner_while_both_camps_stand_after_each_exit(m42_game):
    # Two exits in one night, checked one by one: neither ends the game.
    events = DAY1 + act("狼人", "kill", "王权富贵") + act("涂山容容", "poison", "金人凤", "2026-11-03 21:40") + DAWN1
    st = run(m42_game, events)
    assert [e.name for e in st.exits] == ["王权富贵", "金人凤"] and st.winner is None


def test_m42_r11_village_wins_when_every_wolf_is_out_checked_per_exit(m42_game):
    events = DAY1 + act("狼人", "kill", "王权富贵") + act("涂山容容", "poison", "金人凤", "2026-11-03 21:40") + DAWN1
    events += act("王权富贵", "shoot", "石宽", "2026-11-03 22:40")
    st = run(m42_game, events)
    assert st.winner is None and len(st.exits) == 3
    # the last two wolves go in one day: exile, then the game ends at once
    st = run(m42_game, events + DAY2 + vote(2, 2, "雅雅女王", "李去浊", "2026-11-04 11:00") + adv("day", 2, "2026-11-05 21:00")
             + act("狼人", "kill", "白月初", "2026-11-05 21:30", night=2) + adv("night", 2, "2026-11-05 22:30"))
    assert st.winner is None  # 王权霸业 still in
    st2 = run(m42_game, events + DAY2 + vote(2, 2, "雅雅女王", "李去浊", "2026-11-04 11:00") + adv("day", 2, "2026-11-05 21:00")
              + act("涂山容容", "poison", "王权霸业", "2026-11-05 21:30", night=2))
    assert "已经用过" in messages(st2)


def test_m42_r11_game_ends_at_first_winner_and_later_events_are_refused(m42_game):
    events = DAY1 + act("狼人", "kill", "涂山苏苏") + DAWN1
    for w, t in (("王权霸业", "21:41"), ("石宽", "21:42"), ("李去浊", "21:43"), ("金人凤", "21:44")):
        events += act(w, "surrender", at=f"2026-11-03 {t}")
    st = run(m42_game, events + DAY2)
    assert st.winner == "village" and "wolf" in st.lost  # M42-R12
    assert "游戏已经结束" in messages(st)


def test_m42_r12_surrender_needs_every_wolf_dead_ones_too(m42_game):
    events = DAY1 + act("涂山容容", "poison", "金人凤", "2026-11-03 21:40") + DAWN1
    for w in ("王权霸业", "石宽", "李去浊"):
        events += act(w, "surrender", at="2026-11-03 22:50")
    st = run(m42_game, events)
    assert st.winner is None
    st = run(m42_game, events + act("金人凤", "surrender", at="2026-11-03 22:55"))
    assert st.winner == "village"
    st = run(m42_game, DAY1 + act("白月初", "surrender", at="2026-11-03 22:55"))
    assert "不是狼人" in messages(st)


def test_m42_r8_bar_only_after_scapegoat_exiled_by_tie(m42_game):
    tie = (DAY1 + DAWN1 + DAY2 + vote(2, 2, "雅雅女王", "石宽", "2026-11-04 10:00")
           + vote(2, 3, "石头宽宽", "涂山雅雅", "2026-11-04 10:05") + adv("day", 2, "2026-11-05 21:00")
           + "- {type: bar, day: 3, voters: [石宽, 李去浊]}\n")
    st = run(m42_game, tie)
    assert [(e.name, e.cause) for e in st.exits] == [("东方淮竹", "scapegoat")]
    assert st.barred[3] == {"石宽", "李去浊"}


def test_m42_r8_bar_without_scapegoat_exile_is_refused(m42_game):
    st = run(m42_game, DAY1 + DAWN1 + "- {type: bar, day: 2, voters: [石宽]}\n" + DAY2)
    assert st.barred == {} and "M42-R8" in messages(st)
