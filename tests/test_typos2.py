"""A hand-written event that names what does not exist is damage (issue 16, second round).

``check`` used to pass such an event and every later command to ignore it: now
``check`` names its ledger line and exits 1 (and so every writing command refuses
to write after it). Next to each, the legitimate event still passes, so a check
that refuses too much fails here too. The director's typos at the command are
refused before writing (tests/test_typos.py's ``refused``: exit 1, the ledger
byte for byte as it was).
"""

from __future__ import annotations

import pytest

from tests.support.values import run_cli
from tests.test_typos import EXAMPLES, cut, ledger, refused, written  # noqa: F401


def appended(g, line: str) -> int:
    """Append one hand-written event; its ledger line number."""
    path = g / "ledger.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text + "  - " + line + "\n", encoding="utf-8")
    return text.count("\n") + 1


def damaged(capsys, g, line: int) -> str:
    code, out, err = run_cli(capsys, "check", g)
    assert code == 1, (out, err)
    assert f"ledger.yaml:{line}:" in err and "Traceback" not in err
    return err


def sound(capsys, g) -> None:
    code, out, err = run_cli(capsys, "check", g)
    assert code == 0, err


# -- 甄嬛: seats, nights, days and questions that do not exist ---------------------------------------


@pytest.fixture
def zh(tmp_path, capsys):
    g = tmp_path / "zh"
    code, _, err = run_cli(capsys, "new", g, "--game", "zhenhuan", "--players", 10, "--seed", 7)
    assert code == 0, err
    return g  # night 1; 10号 is 华妃; 玉娆's good character is asked (night1/yurao_bind)


@pytest.mark.parametrize("event, words", [
    ("{type: night_action, night: 1, seat: 99, ability: yizhanghong, targets: [3]}", "没有 99号座位"),
    ("{type: night_action, night: 1, seat: 0, ability: yizhanghong, targets: [3]}", "没有 0号座位"),
    ("{type: night_action, night: 7, seat: 10, ability: yizhanghong, targets: [3]}", "还没有到第 7 夜"),
    ("{type: info, night: 1, seat: 42, given: x}", "没有 42号座位"),
    ("{type: nominate, day: 1, nominator: 1, nominee: 99}", "没有 99号座位"),
    ("{type: vote, day: 1, voter: 77, nominee: 2}", "没有 77号座位"),
    ("{type: answer, key: night9/bogus, value: x}", "还没有到这个阶段"),
    ("{type: answer, key: night1/bogus, value: x}", "没有问过这个问题"),
], ids=["seat-99", "seat-0", "night-7", "info-seat", "nominee", "voter", "answer-night9", "answer-unasked"])
def test_zh_an_event_naming_a_seat_night_or_question_that_does_not_exist_is_damage(zh, capsys, event, words):
    err = damaged(capsys, zh, appended(zh, event))
    assert words in err, err


def test_zh_the_same_events_naming_what_exists_pass_check(zh, capsys):
    appended(zh, "{type: night_action, night: 1, seat: 10, ability: yizhanghong, targets: [3]}")
    appended(zh, "{type: info, night: 1, seat: 7, given: x}")
    appended(zh, "{type: answer, key: night1/yurao_bind, value: 2号}")
    sound(capsys, zh)


def test_zh_a_day_event_is_damage_before_its_day_and_fine_on_it(tmp_path, capsys):
    g = cut(tmp_path, "zhenhuan")
    sound(capsys, g)
    err = damaged(capsys, g, appended(g, "{type: nominate, day: 9, nominator: 1, nominee: 2}"))
    assert "还没有到第 9 天" in err


# -- M42: characters, days and nights that do not exist -------------------------------------------


@pytest.fixture
def m42(tmp_path):
    return cut(tmp_path, "m42")  # day 2 open (2026-11-04 10:00)


@pytest.mark.parametrize("event, words", [
    ('{type: proxy, day: 2, voter: 无名, target: 石宽, at: "2026-11-05 12:00"}', "voter「无名」不是本局角色的名字"),
    ('{type: proxy, day: 2, voter: 东方淮竹, target: 无名, at: "2026-11-05 12:00"}', "target「无名」不是本局角色的名字"),
    ("{type: assistant, character: 无名, helper: x, games: 1}", "character「无名」不是本局角色的名字"),
    ("{type: waive, day: 1, character: 无名, rule: a, reason: x}", "character「无名」不是本局角色的名字"),
    ('{type: notice, to: hunter, character: 无名, at: "2026-11-05 12:00"}', "character「无名」不是本局角色的名字"),
    ('{type: close, day: 9, at: "2026-11-05 21:00"}', "第 9 天还没有开始"),
    ("{type: speedup, day: 9}", "第 9 天还没有开始"),
    ('{type: proxy, day: 2, voter: 东方淮竹, target: 石宽, at: "2026-11-03 12:00"}', "早于第 2 天开始的时间 2026-11-04 10:00"),
], ids=["proxy-voter", "proxy-target", "assistant", "waive", "notice", "close-day-9", "speedup-day-9", "proxy-before-day"])
def test_m42_a_fact_naming_a_character_or_day_that_does_not_exist_is_damage(m42, capsys, event, words):
    err = damaged(capsys, m42, appended(m42, event))
    assert words in err, err


def test_m42_the_same_facts_naming_what_exists_pass_check(m42, capsys):
    appended(m42, '{type: proxy, day: 2, voter: 东方淮竹, target: 弃权, at: "2026-11-05 12:00"}')
    appended(m42, '{type: proxy, day: 2, voter: 东方淮竹, target: 石宽, at: "2026-11-05 12:10", kind: change}')
    appended(m42, "{type: speedup, day: 2}")
    sound(capsys, m42)


def test_m42_r5_a_proxy_timed_outside_its_day_is_refused_naming_the_days_span(m42, capsys):
    err = refused(capsys, m42, "proxy", m42, "东方淮竹", "石宽", "--day", "2", "--at", "2026-11-03 12:00")  # day 1's time
    assert "2026-11-03 12:00" in err and "2026-11-04 10:00 至 2026-11-05 21:00" in err and "M42-R5" in err
    err = refused(capsys, m42, "proxy", m42, "东方淮竹", "石宽", "--day", "1", "--at", "2026-11-05 12:00")  # settled day 1
    assert "2026-11-02 10:00 至 2026-11-03 21:00" in err
    written(capsys, m42, "proxy", m42, "东方淮竹", "石宽", "--day", "2", "--at", "2026-11-05 12:00")


# -- 甄嬛: act's typos ------------------------------------------------------------------------------


@pytest.mark.parametrize("night", ["5", "0"])
def test_zh_r13_act_refuses_a_night_that_is_not_tonight_naming_it(zh, capsys, night):
    err = refused(capsys, zh, "act", zh, "10", "yizhanghong", "3", "--night", night)
    assert "--night" in err and f"不是第 {night} 夜" in err and "现在是第 1 夜" in err
    written(capsys, zh, "act", zh, "10", "yizhanghong", "3", "--night", "1")


@pytest.mark.parametrize("targets, n", [([], 0), (["3", "4", "5"], 3)], ids=["none", "three"])
def test_zh_act_refuses_the_wrong_number_of_targets_naming_the_abilitys_count(zh, capsys, targets, n):
    err = refused(capsys, zh, "act", zh, "10", "yizhanghong", *targets)
    assert "要选 1 名玩家" in err and f"这次给了 {n} 名" in err and "None" not in err
    written(capsys, zh, "act", zh, "10", "yizhanghong", "3")


def test_zh_a_day_ability_without_its_target_is_refused_not_said_as_target_none(tmp_path, capsys):
    g = cut(tmp_path, "zhenhuan", 75)  # day 4, its votes cast; 9号 is 太后 (ZH-R10)
    err = refused(capsys, g, "act", g, "9", "force_execute")
    assert "要选 1 名玩家" in err and "None" not in err
    written(capsys, g, "act", g, "9", "force_execute", "2")


def test_m42_r13_a_card_with_a_floor_below_1_or_no_reason_is_refused(m42, capsys):
    err = refused(capsys, m42, "card", m42, "石宽", "yellow", "--reason", "x", "--floor", "-5", "--at", "2026-11-05 12:00")
    assert "--floor" in err and "-5" in err
    for reason in ("", "  "):
        err = refused(capsys, m42, "card", m42, "石宽", "yellow", "--reason", reason, "--at", "2026-11-05 12:00")
        assert "--reason" in err and "不能为空" in err
    written(capsys, m42, "card", m42, "石宽", "yellow", "--reason", "x", "--floor", "5", "--at", "2026-11-05 12:00")
