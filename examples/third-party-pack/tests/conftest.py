"""The pack's tests run modtool's own command line in process (``modtool.cli.app.main``).

Installed (``pip install modtool .``), modtool finds the pack by its entry point;
run from this folder without installing it (``pytest`` puts ``src`` on the path),
the pack is registered in process instead."""

from __future__ import annotations

from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True, scope="session")
def jushou_pack():
    from modtool.core import registry

    from modtool_jushou.pack import PACK

    if "jushou" not in registry.all_packs():
        registry.register(PACK)
    yield registry.get_pack("jushou")


def run(capsys, *args) -> tuple[int, str, str]:
    """``modtool ARGS`` in process: (exit code, stdout, stderr)."""
    from modtool.cli.app import main

    try:
        main([str(a) for a in args])
        code = 0
    except SystemExit as exc:
        code = exc.code or 0
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.fixture
def play(tmp_path, capsys):
    """``play(dump_text, day=1)``: a new game of the example roster with that day's posts imported."""
    game = tmp_path / "game"
    code, _, err = run(capsys, "new", game, "--game", "jushou", "--roster", HERE / "roster.yaml")
    assert code == 0, err

    def importing(text: str, day: int = 1) -> Path:
        dump = tmp_path / f"day{day}.txt"
        dump.write_text(text, encoding="utf-8")
        code, _, err = run(capsys, "import", game, dump, "--thread", "vote", "--day", day)
        assert code == 0, err
        return game

    return importing
