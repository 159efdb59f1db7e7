"""What the command modules share: ``show`` a query's answer (every run imports
this module, ``--help`` too)."""

from __future__ import annotations

import json

import typer


def show(as_json: bool, data, text: str) -> None:
    """``data`` as JSON with --json, else ``text`` as it is."""
    if as_json:
        typer.echo(json.dumps(data, ensure_ascii=False, indent=2))
    else:
        typer.echo(text, nl=False)
