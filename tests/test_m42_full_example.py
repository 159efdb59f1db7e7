"""examples/m42-full, a whole game from the deal to the win, replayed end to end.

Every post of the game is rendered (public and private, BBCode and Markdown)
and compared byte for byte with the committed files in
examples/m42-full/expected/; a second replay must give identical bytes.
Prompts that exist only for a while (hunter, sheriff) are rendered at the step
of the ledger where they were pending. To regenerate after an intended change:

    MODTOOL_UPDATE_EXPECTED=1 .venv/bin/pytest tests/test_m42_full_example.py
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from modtool.core.gamefile import open_game
from modtool.packs.m42.announce import context
from modtool.packs.m42.replay import replay
from modtool.base.problems import UserError
from modtool.core.render import render
from tests.support.inprocess import modtool_server

ROOT = Path(__file__).resolve().parent.parent
GAME = ROOT / "examples" / "m42-full"
EXPECTED = GAME / "expected"
FORMATS = {"bbcode": "bbcode", "markdown": "md"}


def _render(gd, st, kind, fmt, day=None, night=None):
    return render("m42", kind, fmt, context(gd, st, kind, fmt, day, night), gd.path)


def render_all(game: Path, tmp: Path) -> dict[str, str]:
    gd = open_game(game)
    st = replay(gd)
    out: dict[str, str] = {}
    for fmt, ext in FORMATS.items():
        out[f"roles.{ext}"] = _render(gd, st, "roles", fmt)
        for day in sorted(st.days):
            if st.days[day].tally is not None:
                out[f"day{day}-vote.{ext}"] = _render(gd, st, "vote", fmt, day=day)
            if day >= 2:
                out[f"day{day}-start.{ext}"] = _render(gd, st, "day-start", fmt, day=day)
            out[f"day{day}-schedule.{ext}"] = _render(gd, st, "schedule", fmt, day=day)
            out[f"day{day}-cards.{ext}"] = _render(gd, st, "cards", fmt, day=day)
            out[f"day{day}-speed.{ext}"] = _render(gd, st, "speed", fmt, day=day)
        for night in sorted(st.nights):
            out[f"night{night}-witch.{ext}"] = _render(gd, st, "witch", fmt, night=night)
            out[f"night{night}-wolves.{ext}"] = _render(gd, st, "wolves", fmt, night=night)
            if st.nights[night].checks:
                out[f"night{night}-seer.{ext}"] = _render(gd, st, "seer", fmt, night=night)
        out[f"end.{ext}"] = _render(gd, st, "end", fmt)
    # Prompts and successions, at the step of the ledger where they existed.
    lines = (game / "ledger.yaml").read_text(encoding="utf-8").split("\n")
    starts = [e.line for e in gd.events] + [len(lines) + 1]
    seen_succession = 0
    # One folder whose ledger grows event by event, as a director's does: each
    # step is read as the previous one plus its new tail (a fresh folder per
    # step re-parsed the whole ledger every time, minutes on m42-discipline).
    step = tmp / "step"
    step.mkdir(parents=True)
    for i in range(len(gd.events)):
        (step / "ledger.yaml").write_text("\n".join(lines[: starts[i + 1] - 1]) + "\n", encoding="utf-8")
        sgd = open_game(step)
        sst = replay(sgd)
        for kind in ("hunter", "sheriff"):
            for fmt, ext in FORMATS.items():
                try:
                    text = _render(sgd, sst, kind, fmt)
                except UserError:
                    continue
                out.setdefault(f"{kind}-{text.split('发给 ')[1].split('）')[0]}.{ext}", text)
        if len(sst.sheriff_log) >= 2 and len(sst.sheriff_log) - 1 > seen_succession:
            seen_succession = len(sst.sheriff_log) - 1
            for fmt, ext in FORMATS.items():
                out[f"succession{seen_succession}.{ext}"] = _render(sgd, sst, "succession", fmt)
    shutil.rmtree(step)
    return out


def test_full_game_ends_with_a_winner_and_a_clean_check():
    gd = open_game(GAME)
    st = replay(gd)
    assert not gd.problems and not st.problems
    assert st.winner == "village" and st.phase == "over"


GAMES = [GAME, ROOT / "examples" / "m42-discipline"]
# m42-discipline's ~500 events, each step replayed and rendered twice: a long
# probe (~15 s of CPU), run in the slow tier (`pytest -m slow`).
SLOW_GAMES = [GAME, pytest.param(GAMES[1], marks=pytest.mark.slow)]


@pytest.mark.parametrize("game", SLOW_GAMES, ids=lambda p: p.name)
def test_every_post_matches_the_committed_files_and_replays_identically(game, tmp_path):
    expected = game / "expected"
    first = render_all(game, tmp_path / "a")
    second = render_all(game, tmp_path / "b")
    assert first == second
    if os.environ.get("MODTOOL_UPDATE_EXPECTED"):
        shutil.rmtree(expected, ignore_errors=True)
        expected.mkdir()
        for name, text in first.items():
            (expected / name).write_text(text, encoding="utf-8")
    committed = {p.name: p.read_text(encoding="utf-8") for p in expected.iterdir()}
    assert sorted(committed) == sorted(first)
    for name, text in first.items():
        assert text == committed[name], name
    if game == GAME:
        assert any(n.startswith("hunter-") for n in first) and any(n.startswith("succession") for n in first)


@pytest.mark.slow  # each whole script, command by command, as real processes (3-5 s each): the slow tier
@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
@pytest.mark.parametrize("game", GAMES, ids=lambda p: p.name)
def test_build_script_rebuilds_the_same_ledger(game, tmp_path):
    target = tmp_path / "rebuilt"
    with modtool_server() as env:  # the script's commands run in this process, not as dozens of start-ups
        r = subprocess.run(["bash", str(game / "build.sh"), str(target)], cwd=ROOT, capture_output=True, text=True,
                           env=env)
    assert r.returncode == 0, r.stderr[-2000:]
    assert (target / "ledger.yaml").read_bytes() == (game / "ledger.yaml").read_bytes()
