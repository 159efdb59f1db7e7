"""act / advance / status as a director runs them, on a fresh game."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.test_cli import EXAMPLE, run


@pytest.fixture
def game(tmp_path, capsys):
    g = tmp_path / "g"
    code, _, err = run(capsys, "new", g, "--roster", EXAMPLE / "roster.yaml", "--seed", 3)
    assert code == 0, err
    code, _, err = run(capsys, "import", g, EXAMPLE / "dumps" / "day1-vote.txt", "--thread", "vote", "--day", 1)
    assert code == 0, err
    return g


def test_a_night_from_advance_to_dawn(game, capsys):
    code, out, err = run(capsys, "advance", game, "--at", "2026-11-03 21:00")
    assert code == 0, err
    assert "第 1 天白天 → 第 1 夜" in out and "涂山红红最早，当选警长" in out
    code, out, err = run(capsys, "act", game, "狼人", "kill", "涂山苏苏", "--at", "2026-11-03 21:35")
    assert code == 0 and "已记录" in out
    code, out, _ = run(capsys, "status", game)
    assert "第 1 夜" in out and "女巫" in out
    code, out, err = run(capsys, "advance", game, "--at", "2026-11-03 22:40")
    assert code == 0 and "涂山苏苏出局" in out
    code, data, _ = run(capsys, "status", game, "--json")
    st = json.loads(data)
    assert st["phase"] == "dawn" and st["sheriff"] == "涂山红红"
    assert [p["kind"] for p in st["pending"]] == ["last_words"]
    out_row = next(c for c in st["characters"] if c["name"] == "涂山苏苏")
    assert out_row["alive"] is False and out_row["out"]["cause"] == "kill"


def test_refused_submission_is_kept_and_explained(game, capsys):
    run(capsys, "advance", game, "--at", "2026-11-03 21:00")
    before = (game / "ledger.yaml").read_text(encoding="utf-8")
    code, _, err = run(capsys, "act", game, "涂山容容", "save", "涂山容容", "--at", "2026-11-03 21:20")
    assert code == 0 and "不受理" in err and "不得自救" in err and "已记入账本" in err and "Traceback" not in err
    after = (game / "ledger.yaml").read_text(encoding="utf-8")
    assert after.startswith(before) and "ability: save" in after
    code, out, err = run(capsys, "check", game)
    # The record stays complete and check still says why; a refusal is not damage, so check passes.
    assert code == 0 and "不得自救" in out and "不受理的提交" in out


def test_unknown_ability_and_name_are_user_errors(game, capsys):
    run(capsys, "advance", game, "--at", "2026-11-03 21:00")
    code, _, err = run(capsys, "act", game, "涂山容容", "fly", "石宽")
    assert code == 1 and "没有这个技能「fly」" in err
    code, _, err = run(capsys, "act", game, "涂山容容", "poison", "石宽宽", "--at", "2026-11-03 21:20")
    assert code == 1 and "不是本局角色" in err


def test_random_sheriff_successor_is_recorded_as_a_draw(game, capsys):
    run(capsys, "advance", game, "--at", "2026-11-03 21:00")
    run(capsys, "act", game, "狼人", "kill", "涂山红红", "--at", "2026-11-03 21:30")
    run(capsys, "advance", game, "--at", "2026-11-03 22:30")
    code, out, err = run(capsys, "advance", game, "--at", "2026-11-04 10:00")
    assert code == 0, err
    text = (game / "ledger.yaml").read_text(encoding="utf-8")
    assert "type: draw" in text or '"type": "draw"' in text
    code, out, _ = run(capsys, "announce", game, "succession")
    assert code == 0 and "随机继任" in out


def test_undo_appends_a_revert_and_replay_forgets_the_event(game, capsys):
    run(capsys, "advance", game, "--at", "2026-11-03 21:00")
    run(capsys, "act", game, "狼人", "kill", "涂山苏苏", "--at", "2026-11-03 21:35")
    before = (game / "ledger.yaml").read_text(encoding="utf-8")
    code, out, err = run(capsys, "undo", game)
    assert code == 0 and "行动提交" in out  # the event named in Chinese
    after = (game / "ledger.yaml").read_text(encoding="utf-8")
    assert after.startswith(before) and "type: revert" in after  # history kept
    code, data, _ = run(capsys, "status", game, "--json")
    assert "等待狼人提交杀人目标" in " ".join(json.loads(data)["next"])
    code, out, _ = run(capsys, "undo", game)  # the advance goes next
    code, data, _ = run(capsys, "status", game, "--json")
    assert json.loads(data)["phase"] == "day"
