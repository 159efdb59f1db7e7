"""What the command modules share: ``show`` a query's answer, and the two core
calls nearly every command makes, loaded when a command runs (``open_dir``,
``clock``): every run imports this module, ``--help`` too, and a game folder's
reader brings the ledger with it."""

from __future__ import annotations

import json
from pathlib import Path

import typer


def show(as_json: bool, data, text: str) -> None:
    """``data`` as JSON with --json, else ``text`` as it is."""
    if as_json:
        typer.echo(json.dumps(data, ensure_ascii=False, indent=2))
    else:
        typer.echo(text, nl=False)


def open_dir(game_dir: Path):
    """``modtool.core.gamefile.open_game``."""
    from modtool.core.gamefile import open_game

    return open_game(game_dir)


def clock(gd):
    """``now(when, option)`` for a pack's shared command on ``gd`` (``modtool.core.timespan.clock``)."""
    from modtool.core.timespan import clock

    return clock(gd)
