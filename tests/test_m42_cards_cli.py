"""`modtool card` says what the card did (M42-R13), and refuses a likely repeat.

Issue 15, trap 5: the same yellow given twice (a retry after a typo) merged into a
red and put the sheriff out, while `card` said only 「已判罚」.
"""

from __future__ import annotations

import shutil

import pytest

from tests.test_cli import EXAMPLE, run


@pytest.fixture
def game(tmp_path):
    """The bundled example, open on day 2 (11-04 10:00 to 11-05 21:00); 涂山红红 is sheriff."""
    g = tmp_path / "g"
    shutil.copytree(EXAMPLE, g)
    return g


def card(capsys, g, name, color, reason, at, *more):
    return run(capsys, "card", g, name, color, "--reason", reason, "--at", at, *more)


def test_m42_r13_card_prints_the_totals_after_it(game, capsys):
    code, out, err = card(capsys, game, "涂山红红", "yellow", "情绪发言", "2026-11-05 10:00")
    assert code == 0, err
    assert "第 1 张黄牌" in out and "涂山红红现有：蓝 0、黄 1、红 0" in out


def test_m42_r13_third_yellow_says_it_merged_into_a_red_and_when_the_character_goes_out(game, capsys):
    for i, reason in enumerate(["情绪发言", "刷屏"]):
        assert card(capsys, game, "涂山红红", "黄", reason, f"2026-11-05 10:0{i}")[0] == 0
    code, out, err = card(capsys, game, "涂山红红", "黄牌", "人身攻击", "2026-11-05 10:05")
    assert code == 0, err
    assert "第 3 张黄牌 → 合并为红牌：罚下出局，在第 2 天投票结算之后执行（M42-R13）" in out
    assert "涂山红红现有：蓝 0、黄 0、红 1" in out


def test_m42_r13_third_blue_says_it_merged_into_a_yellow(game, capsys):
    for i in range(2):
        assert card(capsys, game, "石宽", "blue", f"格式{i}", f"2026-11-05 11:0{i}")[0] == 0
    code, out, err = card(capsys, game, "石宽", "blue", "格式2", "2026-11-05 11:05")
    assert code == 0, err
    assert "第 3 张蓝牌 → 合并为黄牌 → 第 1 张黄牌" in out and "石宽现有：蓝 0、黄 1、红 0" in out


def test_m42_r13_the_same_card_twice_on_a_day_is_refused_without_again_and_writes_nothing(game, capsys):
    assert card(capsys, game, "涂山红红", "yellow", "情绪发言", "2026-11-05 10:00")[0] == 0
    before = (game / "ledger.yaml").read_bytes()
    code, out, err = card(capsys, game, "涂山红红", "黄", " 情绪发言", "2026-11-05 10:01")  # a retry
    assert code == 1
    assert "同样的黄牌" in err and "#1" in err and "--again" in err and "什么也没写" in err
    assert (game / "ledger.yaml").read_bytes() == before
    code, out, err = card(capsys, game, "涂山红红", "yellow", "情绪发言", "2026-11-05 10:01", "--again")
    assert code == 0, err
    assert "第 2 张黄牌" in out and "黄 2" in out


def test_m42_r13_another_colour_reason_or_day_or_a_withdrawn_card_is_no_repeat(game, capsys):
    assert card(capsys, game, "涂山红红", "yellow", "情绪发言", "2026-11-04 12:00")[0] == 0
    assert card(capsys, game, "涂山红红", "blue", "情绪发言", "2026-11-04 12:01")[0] == 0
    assert card(capsys, game, "涂山红红", "yellow", "刷屏", "2026-11-04 12:02")[0] == 0
    assert card(capsys, game, "石宽", "yellow", "情绪发言", "2026-11-04 12:03")[0] == 0
    assert run(capsys, "withdraw", game, 4, "--reason", "给错人")[0] == 0
    assert card(capsys, game, "石宽", "yellow", "情绪发言", "2026-11-04 12:04")[0] == 0
    assert card(capsys, game, "涂山红红", "yellow", "情绪发言", "2026-11-03 12:00")[0] == 0  # day 1


def test_m42_r13_red_card_on_a_character_already_out_asks_the_director_about_the_camp(game, capsys):
    code, out, err = card(capsys, game, "涂山苏苏", "red", "诈尸", "2026-11-05 11:00")  # killed on night 1
    assert code == 0, err
    assert "已经出局" in out and "modtool decide" in out and "涂山苏苏" in out
    code, out, err = run(capsys, "decide", game, "涂山苏苏", "--camp-stays", "--at", "2026-11-05 11:10")
    assert code == 0, err


def test_m42_r13_withdraw_prints_the_totals_that_stand_after_it(game, capsys):
    for i, reason in enumerate(["情绪发言", "刷屏", "人身攻击"]):
        assert card(capsys, game, "石宽", "yellow", reason, f"2026-11-05 10:0{i}")[0] == 0
    code, out, err = run(capsys, "withdraw", game, 3, "--reason", "看错楼层")
    assert code == 0, err
    assert "已撤销第 3 张牌" in out and "石宽现有：蓝 0、黄 2、红 0" in out
