"""Helpers every command module shares: the core commands (modtool.cli.app) and
each pack's own (``modtool/<game>/cli.py``). Imports nothing of the CLI shell,
so no command module imports another."""

from __future__ import annotations

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
    """The one place a command's time comes from: ``at`` as written, if it lies in the
    game's span (modtool.core.timespan; ``opening``: it moves the game's start), else the
    wall clock only when it falls inside the current phase's window (modtool.core.clock),
    which the game's pack tells."""
    from modtool.core.arguments import time_arg
    from modtool.core.clock import now_in

    if at:
        from modtool.core.timespan import check

        return check(gd, time_arg(at, gd.tz, option), option, opening=opening)
    from modtool.core.registry import get_pack

    return now_in(get_pack(gd.game.id).phase_window(gd), gd.tz, option)


def parse_at(text: str, gd, option: str) -> datetime:
    """A time given explicitly (never the wall clock): ``tally --at``, ``--close``, ``--told-at``."""
    from modtool.core.arguments import time_arg

    return time_arg(text, gd.tz, option)


def fmt(dt) -> str:
    from modtool.core.timeutil import fmt as format_time

    return format_time(dt)


def refused_error(refused: list[Problem]) -> UserError:
    """Refused submissions, recorded all the same (G-R1): told as 不受理, exit 0."""
    from modtool.core.problems import RecordedRefusal

    return RecordedRefusal([Problem(p.source, p.message + t("（已记入账本，不起作用；可以重新提交）"), p.line) for p in refused])


def problem_json(p: Problem) -> dict:
    return {"source": p.source, "line": p.line, "floor": p.floor, "message": p.message}
