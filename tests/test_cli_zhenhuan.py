"""The storyteller's commands on a 10-player 甄嬛 game, as a storyteller runs them."""

from __future__ import annotations

import json

import pytest

from tests.test_cli import run


@pytest.fixture
def zh(tmp_path, capsys):
    g = tmp_path / "zh"
    code, out, err = run(capsys, "new", g, "--game", "zhenhuan", "--players", 10, "--seed", 7)
    assert code == 0, err
    return g


def test_zh_r1_new_deals_seats_and_bluffs_from_the_seed(zh, tmp_path, capsys):
    text = (zh / "ledger.yaml").read_text(encoding="utf-8")
    assert "seats:" in text and "bluffs:" in text and "seed: 7" in text
    g2 = tmp_path / "zh2"
    run(capsys, "new", g2, "--game", "zhenhuan", "--players", 10, "--seed", 7)
    assert (g2 / "ledger.yaml").read_text(encoding="utf-8") == text  # same seed, same deal


def test_night_lists_steps_and_questions_are_never_answered_by_the_tool(zh, capsys):
    code, out, err = run(capsys, "night", zh)
    assert code == 0, err
    assert "第 1 夜" in out
    code, out, err = run(capsys, "advance", zh)
    assert code == 1 and "必须回答的问题" in err  # 玉娆's binding is the storyteller's choice
    code, data, _ = run(capsys, "status", zh, "--json")
    assert json.loads(data)["questions"]


def test_a_night_and_a_day_through_the_cli(zh, capsys):
    code, data, _ = run(capsys, "status", zh, "--json")
    key = json.loads(data)["questions"][0]["key"]
    code, out, err = run(capsys, "answer", zh, key, "5号")
    assert code == 0, err
    code, out, err = run(capsys, "advance", zh)
    assert code == 0, err
    code, out, err = run(capsys, "nominate", zh, 3, 7)
    assert code == 0, err
    for voter in (1, 2, 4, 5, 6):
        code, out, err = run(capsys, "vote", zh, voter, 7)
        assert code == 0, err
    code, out, err = run(capsys, "announce", zh, "nominations", "--day", 1)
    assert code == 0 and "7号" in out
    code, out, err = run(capsys, "advance", zh)
    assert code == 0, err
    code, out, err = run(capsys, "announce", zh, "execution", "--day", 1)
    assert code == 0, err
    assert "处决" in out


def test_refused_action_is_kept_and_explained(zh, capsys):
    code, _, err = run(capsys, "act", zh, 3, "kill", 5)  # 3号 is 皇后, not a demon
    assert code == 0 and "不受理" in err and "没有这个技能" in err and "已记入账本" in err
    code, out, err = run(capsys, "undo", zh)
    assert code == 0
    code, out, err = run(capsys, "check", zh)
    assert code == 0, err


def test_zh_r6_night_sheet_offers_no_kill_on_the_first_night(tmp_path, capsys):
    g = tmp_path / "hs"
    code, _, err = run(capsys, "new", g, "--game", "zhenhuan", "--players", 7, "--seed", 1, "--require", "皇上")
    assert code == 0, err
    code, data, err = run(capsys, "night", g, "--json")
    assert code == 0, err
    steps = [s for s in json.loads(data)["steps"] if s.get("character") == "huangshang" and s.get("record")]
    assert steps and "kill" not in steps[0]["record"] and "favour" in steps[0]["record"]
