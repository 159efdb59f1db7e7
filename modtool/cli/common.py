"""Helpers every command module shares: the core commands (modtool.cli.app) and
each pack's own (``modtool/<game>/cli.py``). Imports nothing of the CLI shell,
so no command module imports another."""

from __future__ import annotations

from modtool.core.command import recorded_refusal
from modtool.core.i18n import t

import json
from datetime import datetime
from pathlib import Path
from typing import Optional

import typer

from modtool.core.problems import Problem, UserError


def echo_json(data) -> None:
    typer.echo(json.dumps(data, ensure_ascii=False, indent=2))


def show(as_json: bool, data, text: str) -> None:
    """``data`` as JSON with --json, else ``text`` as it is."""
    if as_json:
        echo_json(data)
    else:
        typer.echo(text, nl=False)


def open_dir(game_dir: Path):
    from modtool.core.gamefile import open_game

    return open_game(game_dir)


def now(at: Optional[str], gd, option: str = "--at", *, opening: bool = False) -> datetime:
    """A command's time (``modtool.core.timespan.command_time``)."""
    from modtool.core.timespan import command_time

    return command_time(at, gd, option, opening=opening)


def parse_at(text: str, gd, option: str) -> datetime:
    """A time given explicitly (never the wall clock): ``tally --at``, ``--close``, ``--told-at``."""
    from modtool.core.arguments import time_arg

    return time_arg(text, gd.tz, option)


def fmt(dt) -> str:
    from modtool.core.timeutil import fmt as format_time

    return format_time(dt)


def refused_error(refused: list[Problem]) -> UserError:
    """Refused submissions, recorded all the same (``modtool.core.command.recorded_refusal``)."""
    return recorded_refusal(refused)


def problem_json(p: Problem) -> dict:
    """A problem as --json prints it: rendered now (the game's language) with its ``msgid`` and ``args``."""
    return p.to_json()
