"""A pack's commands, declared as data (``modtool.core.command.Command``), made
into commands of the command line; their answers printed.

The function a command names is imported only when that command runs. It
returns a value; this module prints it: a ``View`` as its text (its data with
``--json``), ``Said`` as its text and its notes (on standard error).
"""

from __future__ import annotations

import inspect
from typing import List, Optional

import typer

from modtool.cli.common import show
from modtool.cli.options import Choice
from modtool.api import REQUIRED, Command, Param, Said
from modtool.api import View


def _typer_default(p: Param):
    default = ... if p.default is REQUIRED else p.default
    extra = {}
    if p.choices:
        extra["click_type"] = Choice(p.choices)
    if p.min is not None:
        extra["min"] = p.min
    if p.flags:
        return typer.Option(default, *p.flags, help=p.help, **extra)
    return typer.Argument(default, help=p.help, **extra)


def _annotation(p: Param):
    if p.many:
        return Optional[List[p.type]] if p.default is not REQUIRED else List[p.type]
    return Optional[p.type] if p.default is None else p.type


def print_answer(answer, as_json: bool = False) -> None:
    """Print what a command returned (see the module's text)."""
    if isinstance(answer, View):
        show(as_json, answer.to_json(), answer.text)
    elif isinstance(answer, Said):
        if answer.text:
            typer.echo(answer.text, nl=False)
        for note in answer.notes:
            typer.echo(note, err=True)
    elif answer is not None:
        raise TypeError(f"a command returned {type(answer).__name__}, not a View or Said")


def command_info(command: Command):
    """The typer command for ``command``: its parameters from the declaration."""
    params = [inspect.Parameter(p.name, inspect.Parameter.POSITIONAL_OR_KEYWORD,
                                default=_typer_default(p), annotation=_annotation(p)) for p in command.params]
    if command.json:
        params.append(inspect.Parameter("as_json", inspect.Parameter.POSITIONAL_OR_KEYWORD,
                                        default=typer.Option(False, "--json", help="以 JSON 输出"), annotation=bool))

    def run(**given):
        as_json = given.pop("as_json", False)
        print_answer(command.function()(**given), as_json)

    run.__signature__ = inspect.Signature(params)
    run.__annotations__ = {p.name: p.annotation for p in params}
    run.__doc__ = command.help
    run.__name__ = command.name.replace("-", "_")
    holder = typer.Typer()
    holder.command(command.name)(run)
    return holder.registered_commands[0]
