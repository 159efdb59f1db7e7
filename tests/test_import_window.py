"""An import into a day that has not started warns with where the game is (issue 15, point 6)."""

from __future__ import annotations

import shutil
from pathlib import Path

from tests.support.values import run_main

ROOT = Path(__file__).resolve().parent.parent


def test_m42_r15_an_import_into_a_day_not_started_yet_is_told_with_the_current_phase(tmp_path, capsys):
    g = tmp_path / "g"
    shutil.copytree(ROOT / "examples" / "m42", g, ignore=shutil.ignore_patterns(".modtool", "*.lock"))
    dump = tmp_path / "d.txt"
    dump.write_text("#2 红红的红 2026-11-05 10:00\n投票对象：金人凤\n投票理由：x\n", encoding="utf-8")
    capsys.readouterr()
    assert run_main(["import", str(g), str(dump), "--thread", "vote", "--day", "4"]) == 0
    out = capsys.readouterr().out
    assert "第 4 天还没有开始（现在是第 2 天白天" in out and "请检查 --day" in out
    capsys.readouterr()
    assert run_main(["import", str(g), str(dump), "--thread", "discussion", "--day", "2"]) == 0  # the open day: nothing to tell
    assert "还没有开始" not in capsys.readouterr().out
