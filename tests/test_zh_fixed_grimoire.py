"""A 甄嬛 roster that gives roles and seats is the grimoire (ZH-R1): honoured as written,
never re-dealt; a partial or inconsistent one is refused before anything is written;
``check`` warns when the composition is off the ZH-R1 table."""

from __future__ import annotations

import json

import pytest

from modtool.core import gamefile
from modtool.core.gamefile import open_game
from modtool.ledger import _store
from tests.test_cli import run

# 7 players: 5 townsfolk, 0 outsiders, 1 minion, 1 demon (ZH-R1).
SEVEN = [("甲", "甄嬛", 3), ("乙", "果郡王", 1), ("丙", "温太医", 7), ("丁", "敬妃", 2),
         ("戊", "三阿哥", 5), ("己", "华妃", 4), ("庚", "皇上", 6)]


def _roster(tmp_path, rows, fields=("role", "seat")) -> object:
    lines = []
    for name, role, seat in rows:
        parts = [f"name: {name}"]
        if "role" in fields and role is not None:
            parts.append(f"role: {role}")
        if "seat" in fields and seat is not None:
            parts.append(f"seat: {seat}")
        lines.append("- {" + ", ".join(parts) + "}")
    path = tmp_path / "roster.yaml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _seats(g) -> list[tuple]:
    _store._memo.clear()
    gamefile._opened.clear()
    return [(s["seat"], s["player"], s["character"]) for s in open_game(g).header["seats"]]


def test_zh_r1_new_honours_a_roster_with_roles_and_seats(tmp_path, capsys):
    roster = _roster(tmp_path, SEVEN)
    for seed in (1, 2):
        g = tmp_path / f"g{seed}"
        code, out, err = run(capsys, "new", g, "--game", "zhenhuan", "--roster", roster, "--seed", seed)
        assert code == 0, err
        assert _seats(g) == [(1, "乙", "guojunwang"), (2, "丁", "jingfei"), (3, "甲", "zhenhuan"), (4, "己", "huafei"),
                             (5, "戊", "sanage"), (6, "庚", "huangshang"), (7, "丙", "wentaiyi")]
        bluffs = open_game(g).header["bluffs"]
        assert len(bluffs) == 3 and not set(bluffs) & {c for _, _, c in _seats(g)}  # ZH-R1: 7+ players


def test_zh_r1_roles_without_seats_are_seated_in_roster_order(tmp_path, capsys):
    roster = _roster(tmp_path, SEVEN, fields=("role",))
    g = tmp_path / "g"
    code, _, err = run(capsys, "new", g, "--game", "zhenhuan", "--roster", roster, "--seed", 5)
    assert code == 0, err
    assert [(p, c) for _, p, c in _seats(g)] == [("甲", "zhenhuan"), ("乙", "guojunwang"), ("丙", "wentaiyi"),
                                                 ("丁", "jingfei"), ("戊", "sanage"), ("己", "huafei"), ("庚", "huangshang")]


def test_zh_r1_seats_without_roles_keep_the_players_where_they_sit(tmp_path, capsys):
    roster = _roster(tmp_path, SEVEN, fields=("seat",))
    g = tmp_path / "g"
    code, _, err = run(capsys, "new", g, "--game", "zhenhuan", "--roster", roster, "--seed", 5)
    assert code == 0, err
    assert [(n, p) for n, p, _ in _seats(g)] == [(1, "乙"), (2, "丁"), (3, "甲"), (4, "己"), (5, "戊"), (6, "庚"), (7, "丙")]


@pytest.mark.parametrize("rows,expect", [
    ([*SEVEN[:6], ("庚", None, 6)], "庚"),                      # a role missing: partial
    ([*SEVEN[:6], ("庚", "皇太子", 6)], "皇太子"),                   # not in the script
    ([*SEVEN[:6], ("庚", "宠妃", 6)], "宠妃"),                   # never dealt (ZH-R1)
    ([*SEVEN[:6], ("庚", "果郡王", 6)], "果郡王"),               # one character twice
    ([*SEVEN[:6], ("庚", "皇上", 1)], "1"),                      # two players on seat 1
    ([*SEVEN[:6], ("庚", "皇上", 8)], "8"),                      # seat out of range
    ([*SEVEN[:6], ("庚", "皇上", None)], "庚"),                  # a seat missing: partial
    ([*SEVEN[:6], ("庚", "皇上", "六")], "六"),                  # not a seat number
    ([*SEVEN[:5], ("己", "皇上", 4), ("庚", "太上皇", 6)], "恶魔"),  # two demons
])
def test_zh_r1_new_refuses_a_partial_or_inconsistent_grimoire(tmp_path, capsys, rows, expect):
    roster = _roster(tmp_path, rows)
    g = tmp_path / "g"
    code, _, err = run(capsys, "new", g, "--game", "zhenhuan", "--roster", roster, "--seed", 1)
    assert code == 1 and expect in err and "Traceback" not in err
    assert not (g / "ledger.yaml").exists()


def test_zh_r1_fixed_grimoire_refuses_board_and_missing_requirements(tmp_path, capsys):
    roster = _roster(tmp_path, SEVEN)
    code, _, err = run(capsys, "new", tmp_path / "g", "--game", "zhenhuan", "--roster", roster, "--require", "玉娆")
    assert code == 1 and "玉娆" in err
    assert not (tmp_path / "g" / "ledger.yaml").exists()


def test_zh_r1_off_table_composition_is_a_warning_at_new_and_in_check(tmp_path, capsys):
    rows = [*SEVEN[:4], ("戊", "安陵容", 5), ("己", "华妃", 4), ("庚", "皇上", 6)]  # 4 townsfolk, 2 minions
    g = tmp_path / "g"
    code, out, err = run(capsys, "new", g, "--game", "zhenhuan", "--roster", _roster(tmp_path, rows), "--seed", 1)
    assert code == 0, err
    assert "ZH-R1" in out and "爪牙2" in out
    code, out, err = run(capsys, "check", g)
    assert code == 0, err
    assert "提醒" in out and "ZH-R1" in out and "村民5" in out and "村民4" in out
    code, out, _ = run(capsys, "check", g, "--json")
    assert any("ZH-R1" in w for w in json.loads(out)["warnings"])


def test_zh_r1_check_has_no_composition_warning_for_a_dealt_game(tmp_path, capsys):
    g = tmp_path / "g"
    code, _, err = run(capsys, "new", g, "--game", "zhenhuan", "--players", 9, "--seed", 4)
    assert code == 0, err
    code, out, err = run(capsys, "check", g)
    assert code == 0 and "ZH-R1" not in out
