"""Rosters are checked where they enter (``new``) and where they are read (``check``):
two characters answering to one name would make a valid vote ambiguous (M42-R5)."""

from __future__ import annotations

from tests.conftest import M42_ROSTER, write_game
from tests.test_cli import run


def _m42_roster_file(tmp_path, replace: tuple[str, str]):
    path = tmp_path / "roster.yaml"
    body = M42_ROSTER.replace("roster:\n", "").replace(*replace)
    assert body != M42_ROSTER.replace("roster:\n", "")
    path.write_text(body, encoding="utf-8")
    return path


def test_m42_r5_new_refuses_two_characters_with_the_same_name(tmp_path, capsys):
    roster = _m42_roster_file(tmp_path, ("{name: 白月初,", "{name: 石宽,"))
    code, _, err = run(capsys, "new", tmp_path / "g", "--game", "m42", "--roster", roster, "--seed", 1)
    assert code == 1 and "石宽" in err and "Traceback" not in err
    assert not (tmp_path / "g" / "ledger.yaml").exists()


def test_m42_r5_new_refuses_a_name_equal_to_another_alias_after_folding(tmp_path, capsys):
    # 白月初's alias is 石宽 in full width with a zero-width space: folds to 石宽's name.
    roster = _m42_roster_file(tmp_path, ("{name: 白月初,", "{name: 白月初, aliases: [\"石\u200b宽 \"],"))
    code, _, err = run(capsys, "new", tmp_path / "g", "--game", "m42", "--roster", roster, "--seed", 1)
    assert code == 1 and "白月初" in err and "石宽" in err
    assert not (tmp_path / "g").exists() or not (tmp_path / "g" / "ledger.yaml").exists()


def test_m42_r5_check_reports_a_hand_edited_duplicate_name(tmp_path, capsys):
    g = write_game(tmp_path, '- {type: close, day: 1, at: "2026-11-03 21:00"}\n')
    path = g / "ledger.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("{name: 白月初,", "{name: 石宽,"), encoding="utf-8")
    before = path.read_bytes()
    code, _, err = run(capsys, "check", g)
    assert code == 1 and "「石宽」" in err and "roster" in err
    assert path.read_bytes() == before


def test_m42_r5_check_reports_one_alias_shared_by_two_characters(tmp_path, capsys):
    g = write_game(tmp_path, '- {type: close, day: 1, at: "2026-11-03 21:00"}\n')
    path = g / "ledger.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("aliases: [红红]", "aliases: [苏苏]"), encoding="utf-8")
    code, _, err = run(capsys, "check", g)
    assert code == 1 and "苏苏" in err and "涂山红红" in err and "涂山苏苏" in err


def test_zhenhuan_new_refuses_player_names_equal_after_folding(tmp_path, capsys):
    roster = tmp_path / "players.txt"
    names = ["甲", "乙", "丙", "丁", "戊", "ＡＢ", "AB\u200b"]
    roster.write_text("\n".join(names) + "\n", encoding="utf-8")
    code, _, err = run(capsys, "new", tmp_path / "g", "--game", "zhenhuan", "--roster", roster, "--seed", 1)
    assert code == 1 and "重复" in err and "AB" in err
    assert not (tmp_path / "g" / "ledger.yaml").exists()


def test_zhenhuan_check_reports_two_seats_with_one_player_name(tmp_path, capsys):
    g = tmp_path / "g"
    code, _, err = run(capsys, "new", g, "--game", "zhenhuan", "--players", 7, "--seed", 1)
    assert code == 0, err
    path = g / "ledger.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("player: 玩家2,", "player: 玩家1,"), encoding="utf-8")
    code, _, err = run(capsys, "check", g)
    assert code == 1 and "玩家1" in err
