"""The storyteller's night sheet (RULINGS.md ZH-R13 order, ZH-R3 may-be-false, ZH-R2/R9 truths)."""

from __future__ import annotations

from pathlib import Path

import pytest

from modtool.base.events import Event
from modtool.packs.zhenhuan.engine import replay
from modtool.packs.zhenhuan.night import night_steps
from modtool.packs.zhenhuan.rules import FIRST_NIGHT, OTHER_NIGHT, role_table

GAME_YAML = Path(__file__).resolve().parent.parent / "games" / "zhenhuan.yaml"


def board(chars, events=(), seed=7, options=None):
    seats = [{"seat": i + 1, "player": f"P{i + 1}", "character": c} for i, c in enumerate(chars)]
    evs = [Event(t, d, i + 1) for i, (t, d) in enumerate(events)]
    return replay(seats, evs, options or {}, seed)


def act(night, seat, ability, *targets):
    return ("night_action", {"night": night, "seat": seat, "ability": ability, "targets": list(targets)})


def adv(phase, n):
    return ("advance", {"phase": phase, "number": n})


def to_night(n):
    out = []
    for k in range(1, n):
        out += [adv("night", k), adv("day", k)]
    return out


def by_char(steps):
    return {s.character: s for s in steps}


FIRST_BOARD = ["anlingrong", "guojunwang", "huafei", "huangshang", "jinxi", "wentaiyi", "yurao", "huanbi", "jingfei"]


def test_zh_r13_first_night_order():
    steps = night_steps(board(FIRST_BOARD))
    assert steps[0].order == FIRST_NIGHT["_evil_info"]
    wake = [s.character for s in steps if s.order != FIRST_NIGHT["_evil_info"]]
    assert wake == ["anlingrong", "guojunwang", "huafei", "huangshang", "jinxi", "wentaiyi", "yurao", "huanbi", "jingfei"]
    assert [s.order for s in steps] == sorted(s.order for s in steps)


def test_zh_r13_other_nights_order():
    chars = ["chongfei", "anlingrong", "guojunwang", "huafei", "sanage", "huangshang", "qiguiren", "yelanyi",
             "jinxi", "wentaiyi"]
    steps = night_steps(board(chars, to_night(2)))
    wake = [s.character for s in steps]
    assert wake == ["_night_start", "chongfei", "anlingrong", "guojunwang", "huafei", "sanage", "huangshang",
                    "yelanyi", "jinxi", "wentaiyi"]
    assert [s.order for s in steps] == sorted(s.order for s in steps)
    assert all(s.order == OTHER_NIGHT[s.character] for s in steps)


def test_zh_r13_order_numbers_match_game_yaml():
    if not GAME_YAML.exists():
        pytest.skip("games/zhenhuan.yaml not written yet")
    yaml = pytest.importorskip("yaml")
    data = yaml.safe_load(GAME_YAML.read_text(encoding="utf-8"))
    table = role_table(data)
    for rid, order in FIRST_NIGHT.items():
        assert table[rid].first_night == order, rid
    for rid, order in OTHER_NIGHT.items():
        assert table[rid].other_night == order, rid


def test_zh_r13_evil_info_only_with_seven_or_more():
    five = night_steps(board(["jinxi", "huangshang", "huafei", "guojunwang", "yelanyi"]))
    assert not any(s.order == FIRST_NIGHT["_evil_info"] for s in five)
    seven = night_steps(board(["jinxi", "huangshang", "huafei", "guojunwang", "yelanyi", "qifei", "wentaiyi"],
                              options={"bluffs": ["zhenhuan", "yurao", "taihou"]}))
    info = [s for s in seven if s.order == FIRST_NIGHT["_evil_info"]]
    assert {s.seat for s in info} == {2, 3}
    demon = next(s for s in info if s.seat == 2)
    assert demon.truth == {"minions": [3], "bluffs": ["zhenhuan", "yurao", "taihou"]}
    assert next(s for s in info if s.seat == 3).truth["demon"] == [2]


def test_zh_r13_only_characters_in_play_and_dead_skipped():
    chars = ["jinxi", "huangshang", "huafei", "guojunwang", "yelanyi", "wentaiyi"]
    g = board(chars, to_night(2) + [act(2, 2, "kill", 1), adv("night", 2), adv("day", 2)])
    steps = night_steps(g)
    assert "jinxi" not in by_char(steps)  # dead
    assert "anlingrong" not in by_char(steps)  # not in play


def test_zh_r13_killed_tonight_skips_later_step_keeps_earlier():
    chars = ["jinxi", "huangshang", "anlingrong", "guojunwang", "yelanyi", "niangengyao"]
    g = board(chars, to_night(2) + [act(2, 2, "kill", 3), act(2, 2, "kill", 1)])
    steps = by_char(night_steps(g))
    assert "jinxi" not in steps  # killed at the demon step, before her own (G-R1: the later choice counts)
    g = board(chars, to_night(2) + [act(2, 2, "kill", 3)])
    assert "anlingrong" in by_char(night_steps(g))  # acted before she died


def test_zh_r13_pinned_skipped():
    chars = ["jinxi", "huangshang", "huafei", "guojunwang", "yelanyi", "qifei"]
    g = board(chars, [act(1, 2, "favour", 1)] + to_night(2) + [act(2, 1, "pin", 4)])
    assert "guojunwang" not in by_char(night_steps(g))


def test_zh_r13_no_steps_by_day():
    g = board(["jinxi", "huangshang", "huafei", "guojunwang", "yelanyi"], [adv("night", 1)])
    assert night_steps(g) == []


# ---------------------------------------------------------------- truths (ZH-R2, R3, R9)


def test_zh_huanbi_distance_demon_to_nearest_minion():
    chars = ["huanbi", "huangshang", "jinxi", "wentaiyi", "huafei", "anlingrong", "yelanyi", "qifei"]
    # demon 2; minions 5 (distance 3) and 6 (distance 4): nearest is 3
    assert by_char(night_steps(board(chars)))["huanbi"].truth == 3


def test_zh_r2_jingfei_counts_women_eunuch_and_physician():
    chars = ["jingfei", "huangshang", "supeisheng", "wentaiyi", "guojunwang", "jinxi"]
    # women: 敬妃, 瑾汐 (2) + eunuch 苏培盛 + physician 温太医 = 4
    assert by_char(night_steps(board(chars)))["jingfei"].truth == 4


def test_zh_jinxi_demon_among_two():
    chars = ["jinxi", "huangshang", "huafei", "wentaiyi", "yelanyi"]
    assert by_char(night_steps(board(chars, [act(1, 1, "check", 2, 3)])))["jinxi"].truth == "是"
    assert by_char(night_steps(board(chars, [act(1, 1, "check", 1, 3)])))["jinxi"].truth == "否"
    assert by_char(night_steps(board(chars)))["jinxi"].truth is None  # not chosen yet


def test_zh_wentaiyi_poisoned_or_drunk():
    chars = ["wentaiyi", "huangshang", "anlingrong", "jinxi", "yelanyi"]
    g = board(chars, [act(1, 3, "poison", 4), act(1, 1, "check", 4)])
    assert by_char(night_steps(g))["wentaiyi"].truth == "是"
    g = board(chars, [act(1, 1, "check", 5)])
    assert by_char(night_steps(g))["wentaiyi"].truth == "否"


def test_zh_yurao_learns_a_good_character_chosen_by_storyteller():
    chars = ["yurao", "huangshang", "huafei", "guojunwang", "jinxi"]
    g = board(chars)
    assert by_char(night_steps(g))["yurao"].truth is None
    assert any(q.key == "night1/yurao_bind" for q in g.questions)
    g = board(chars, [("answer", {"key": "night1/yurao_bind", "value": 4})])
    assert by_char(night_steps(g))["yurao"].truth == "4号：果郡王"


def test_zh_r9_jingfei_dying_step_shows_living_evil():
    chars = ["jingfei", "huangshang", "huafei", "guojunwang", "yelanyi", "qifei"]
    g = board(chars, to_night(2) + [act(2, 2, "kill", 1)])
    step = by_char(night_steps(g))["jingfei"]
    assert step.truth == [2, 3]
    g = board(chars, to_night(2))
    assert "jingfei" not in by_char(night_steps(g))  # not dying: no step


def test_zh_r9_niangengyao_step_only_when_dying():
    chars = ["niangengyao", "huangshang", "huafei", "guojunwang", "yelanyi", "qifei"]
    assert "niangengyao" not in by_char(night_steps(board(chars, to_night(2))))
    g = board(chars, to_night(2) + [act(2, 2, "kill", 1)])
    assert "niangengyao" in by_char(night_steps(g))
    assert any(q.key == "night2/take/seat1" for q in g.questions)


def test_zh_r8_sanage_step_truth():
    chars = ["jinxi", "sanage", "huangshang", "huafei", "guojunwang", "qifei"]
    g = board(chars, to_night(2) + [act(2, 2, "ranzhi", 1)])
    assert by_char(night_steps(g))["sanage"].truth == "成功"
    assert "sanage" not in by_char(night_steps(board(chars)))  # from night 2


def test_zh_r3_impaired_info_may_be_false_with_decoy_and_question():
    chars = ["jinxi", "huangshang", "anlingrong", "wentaiyi", "yelanyi"]
    evs = [act(1, 3, "poison", 1), act(1, 1, "check", 2, 4)]
    g = board(chars, evs)
    step = by_char(night_steps(g))["jinxi"]
    assert step.truth == "是" and step.may_be_false and step.decoy == "否"
    assert any(q.key == "night1/false_info/seat1" for q in g.questions)
    g = board(chars, evs + [("info", {"night": 1, "seat": 1, "given": "否"})])
    assert not any(q.key == "night1/false_info/seat1" for q in g.questions)
    healthy = by_char(night_steps(board(chars, [act(1, 1, "check", 2, 4)])))["jinxi"]
    assert not healthy.may_be_false


def test_zh_r3_decoy_is_deterministic_and_never_the_truth():
    chars = ["huanbi", "huangshang", "jinxi", "wentaiyi", "huafei", "anlingrong", "yelanyi", "guojunwang", "jingfei"]
    for seed in range(20):
        a = by_char(night_steps(board(chars, seed=seed)))
        b = by_char(night_steps(board(chars, seed=seed)))
        assert a["huanbi"].decoy == b["huanbi"].decoy and a["huanbi"].decoy != a["huanbi"].truth
        assert a["jingfei"].decoy != a["jingfei"].truth
    assert not by_char(night_steps(board(chars)))["huanbi"].may_be_false  # 果郡王 sits at 8, not next to 1
    beside = ["huanbi", "huangshang", "jinxi", "wentaiyi", "huafei", "anlingrong", "yelanyi", "jingfei", "guojunwang"]
    assert by_char(night_steps(board(beside)))["huanbi"].may_be_false  # ZH-R3: 9 wraps to 1


def test_zh_r9_sundaying_step_after_kuangtu():
    chars = ["sundaying", "huangshang", "huafei", "kuangtu", "jinxi", "guojunwang"]
    evs = [adv("night", 1), ("answer", {"key": "day1/kuangtu", "value": "是"}), adv("day", 1)]
    steps = night_steps(board(chars, evs))
    assert by_char(steps)["sundaying"].truth == "死亡"
    assert by_char(steps)["_night_start"].truth == [1]
