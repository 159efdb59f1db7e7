"""examples/zhenhuan: a 10-player 甄嬛 game played to the end, replayed end to end.

Every post (dawn, nominations, execution, end, each night's private messages
and the storyteller's notes; BBCode and Markdown) is compared byte for byte
with examples/zhenhuan/expected/, and a second replay gives identical bytes.
Regenerate after an intended change:

    MODTOOL_UPDATE_EXPECTED=1 .venv/bin/pytest tests/test_zh_full_example.py
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from modtool.core.gamefile import open_game
from modtool.base.problems import UserError
from modtool.core.render import render
from tests.support.inprocess import modtool_server
from modtool.packs.zhenhuan.game import replay
from modtool.packs.zhenhuan.views import post_context

ROOT = Path(__file__).resolve().parent.parent
GAME = ROOT / "examples" / "zhenhuan"
EXPECTED = GAME / "expected"
FORMATS = {"bbcode": "bbcode", "markdown": "md"}


def render_all() -> dict[str, str]:
    gd = open_game(GAME)
    board, _ = replay(gd)
    out = {}
    for fmt, ext in FORMATS.items():
        for n in range(1, board.number + 1):
            for kind, key in (("dawn", "night"), ("private", "night"), ("notes", "night"),
                              ("nominations", "day"), ("execution", "day")):
                try:
                    ctx = post_context(gd, board, kind, **{key: n})
                except UserError:
                    continue  # e.g. no execution post for a day that ended the game by day
                out[f"{key}{n}-{kind}.{ext}"] = render("zhenhuan", kind, fmt, ctx, GAME)
        out[f"end.{ext}"] = render("zhenhuan", "end", fmt, post_context(gd, board, "end"), GAME)
    return out


def test_the_game_has_a_winner_and_only_the_deliberate_refusals():
    gd = open_game(GAME)
    board, problems = replay(gd)
    assert board.winner == "good"
    assert len(problems) == 3  # listed in examples/zhenhuan/README.md


def test_every_post_matches_the_committed_files_and_replays_identically():
    first, second = render_all(), render_all()
    assert first == second
    if os.environ.get("MODTOOL_UPDATE_EXPECTED"):
        shutil.rmtree(EXPECTED, ignore_errors=True)
        EXPECTED.mkdir()
        for name, text in first.items():
            (EXPECTED / name).write_text(text, encoding="utf-8")
    committed = {p.name: p.read_text(encoding="utf-8") for p in EXPECTED.iterdir()}
    assert sorted(committed) == sorted(first)
    for name, text in first.items():
        assert text == committed[name], name


@pytest.mark.slow  # the whole script, command by command, as real processes (6 s): the slow tier
@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
def test_build_script_rebuilds_the_same_ledger(tmp_path):
    target = tmp_path / "rebuilt"
    with modtool_server() as env:  # the script's commands run in this process, not as dozens of start-ups
        r = subprocess.run(["bash", str(GAME / "build.sh"), str(target)], cwd=ROOT, capture_output=True, text=True,
                           env=env)
    assert r.returncode == 0, r.stderr[-2000:]
    assert (target / "ledger.yaml").read_bytes() == (GAME / "ledger.yaml").read_bytes()
