"""甄嬛 abilities outside their window are refused on arrival: a Chinese message, exit 1,
the ledger byte for byte unchanged (the storyteller does not wake a character then, so
such an entry is a slip of the storyteller's, not a player's submission)."""

from __future__ import annotations

import json

import pytest

from modtool.core import gamefile
from modtool.core.gamefile import open_game
from modtool.ledger import _store
from tests.test_cli import run

REQUIRE = ("皇上", "三阿哥", "叶澜依", "年羹尧", "果郡王")


def _fresh() -> None:
    _store._memo.clear()
    gamefile._opened.clear()


@pytest.fixture
def zh(tmp_path, capsys):
    g = tmp_path / "zh"
    args = ["new", g, "--game", "zhenhuan", "--players", 10, "--seed", 3]
    for r in REQUIRE:
        args += ["--require", r]
    code, _, err = run(capsys, *args)
    assert code == 0, err
    return g


def seat_of(g, character: str) -> int:
    _fresh()
    return next(s["seat"] for s in open_game(g).header["seats"] if s["character"] == character)


def advance(capsys, g) -> None:
    """Close the current phase, answering the storyteller's open questions with their first option."""
    code, data, err = run(capsys, "status", g, "--json")
    assert code == 0, err
    for q in json.loads(data)["questions"]:
        code, _, err = run(capsys, "answer", g, q["key"], q["options"][0] if q["options"] else "否")
        assert code == 0, err
    code, _, err = run(capsys, "advance", g)
    assert code == 0, err


def refused(capsys, g, *args) -> str:
    path = g / "ledger.yaml"
    before = path.read_bytes()
    code, out, err = run(capsys, "act", g, *args)
    assert code == 1, out
    assert "Traceback" not in err and "已记入账本" not in err
    assert path.read_bytes() == before
    return err


def accepted(capsys, g, *args) -> None:
    code, _, err = run(capsys, "act", g, *args)
    assert code == 0, err


def neighbour(g, n: int) -> int:
    return n % 10 + 1


def test_zh_r8_ranzhi_on_night_1_is_refused_and_nothing_written(zh, capsys):
    sa = seat_of(zh, "sanage")
    err = refused(capsys, zh, sa, "ranzhi", neighbour(zh, sa))
    assert "ZH-R8" in err and "第二夜" in err


def test_zh_r8_ranzhi_on_night_2_is_accepted(zh, capsys):
    sa = seat_of(zh, "sanage")
    advance(capsys, zh)
    advance(capsys, zh)
    accepted(capsys, zh, sa, "ranzhi", neighbour(zh, sa))


def test_zh_r6_demon_kill_on_night_1_is_refused_and_nothing_written(zh, capsys):
    hs = seat_of(zh, "huangshang")
    err = refused(capsys, zh, hs, "kill", neighbour(zh, hs))
    assert "ZH-R6" in err and "首夜" in err


def test_zh_r6_first_night_demon_kills_option_lets_the_kill_in(zh, capsys):
    path = zh / "ledger.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("options: {}", "options: {first_night_demon_kills: true}"),
                    encoding="utf-8")
    hs = seat_of(zh, "huangshang")
    accepted(capsys, zh, hs, "kill", neighbour(zh, hs))


def test_zh_r13_yelanyi_and_nian_do_not_act_on_night_1(zh, capsys):
    ye, nian = seat_of(zh, "yelanyi"), seat_of(zh, "niangengyao")
    assert "ZH-R13" in refused(capsys, zh, ye, "revive", neighbour(zh, ye))
    assert "ZH-R13" in refused(capsys, zh, nian, "take", neighbour(zh, nian))


def test_zh_r13_a_day_ability_at_night_and_a_night_ability_by_day_are_refused(zh, capsys):
    gj = seat_of(zh, "guojunwang")
    err = refused(capsys, zh, gj, "silence", neighbour(zh, gj))
    assert "白天" in err
    advance(capsys, zh)
    err = refused(capsys, zh, gj, "protect", neighbour(zh, gj))
    assert "夜晚" in err


def test_zh_r6_favour_on_night_1_is_accepted_and_a_second_one_refused(zh, capsys):
    hs = seat_of(zh, "huangshang")
    _fresh()
    seats = open_game(zh).header["seats"]
    woman = next(s["seat"] for s in seats if s["character"] in ("yelanyi",))
    accepted(capsys, zh, hs, "favour", woman)  # ZH-R13: 皇上 wakes on night 1 for 雨露均沾 only
    advance(capsys, zh)
    advance(capsys, zh)
    other = next(s["seat"] for s in seats if s["character"] in ("jinxi", "yurao", "jingfei", "huanbi", "qiguiren",
                                                                 "chunyuan", "taihou", "zhenhuan") and s["seat"] != woman)
    err = refused(capsys, zh, hs, "favour", other)
    assert "一次" in err and "ZH-R6" in err


def test_zh_r10_a_dead_character_cannot_act(zh, capsys):
    gj, hs = seat_of(zh, "guojunwang"), seat_of(zh, "huangshang")
    advance(capsys, zh)
    code, _, err = run(capsys, "nominate", zh, hs, gj)
    assert code == 0, err
    for voter in range(1, 11):
        run(capsys, "vote", zh, voter, gj)
    advance(capsys, zh)
    _fresh()
    from modtool.packs.zhenhuan.game import replay

    assert not replay(open_game(zh))[0].seat(gj).alive
    err = refused(capsys, zh, gj, "protect", neighbour(zh, gj))
    assert "已死亡" in err


def test_zh_r9_nian_take_only_on_the_night_he_dies(zh, capsys):
    nian = seat_of(zh, "niangengyao")
    advance(capsys, zh)
    code, _, err = run(capsys, "nominate", zh, neighbour(zh, nian), nian)
    assert code == 0, err
    for voter in range(1, 11):
        run(capsys, "vote", zh, voter, nian)
    advance(capsys, zh)  # executed by day: his take never comes
    err = refused(capsys, zh, nian, "take", neighbour(zh, nian))
    assert "ZH-R9" in err


def test_zh_r9_nian_take_is_accepted_while_he_lives(zh, capsys):
    # A forum submission may come before the kill that makes it count.
    nian = seat_of(zh, "niangengyao")
    advance(capsys, zh)
    advance(capsys, zh)
    accepted(capsys, zh, nian, "take", neighbour(zh, nian))


def test_zh_r8_check_reports_a_hand_written_night_1_ranzhi(zh, capsys):
    sa = seat_of(zh, "sanage")
    path = zh / "ledger.yaml"
    text = path.read_text(encoding="utf-8").replace(
        "events:", f"events:\n  - {{type: night_action, night: 1, seat: {sa}, ability: ranzhi, targets: [{neighbour(zh, sa)}]}}")
    path.write_text(text, encoding="utf-8")
    code, out, err = run(capsys, "check", zh)
    # listed as refused (a fact that does not count), not as damage that would block every write
    assert code == 0 and "ZH-R8" in out and "不受理" in out
