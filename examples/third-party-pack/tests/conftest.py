"""The pack's tests run modtool's own command line in process
(``modtool.sdk.testing.run``), as every pack's tests may.

Installed (``pip install modtool .``), modtool finds the pack by its entry point;
run from this folder without installing it (``pytest`` puts ``src`` on the path),
the pack is registered in process instead (``use_pack``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from modtool.sdk.testing import new_game, run as _run, use_pack

HERE = Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True, scope="session")
def jushou_pack():
    from modtool_jushou.pack import PACK

    yield use_pack(PACK)


def run(capsys, *args) -> tuple[int, str, str]:
    """``modtool ARGS`` in process: (exit code, stdout, stderr)."""
    done = _run(*args)
    return done.exit_code, done.stdout, done.stderr


@pytest.fixture
def play(tmp_path, capsys):
    """``play(dump_text, day=1)``: a new game of the example roster with that day's posts imported."""
    game = new_game(tmp_path / "game", "jushou", roster=HERE / "roster.yaml")

    def importing(text: str, day: int = 1) -> Path:
        dump = tmp_path / f"day{day}.txt"
        dump.write_text(text, encoding="utf-8")
        code, _, err = run(capsys, "import", game, dump, "--thread", "vote", "--day", day)
        assert code == 0, err
        return game

    return importing
