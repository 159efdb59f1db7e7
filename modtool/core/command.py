"""A pack's own commands as data, and what a command gives back as a value.

A pack declares each of its commands (``GamePack.commands``) as a
``Command``: its name, its help, its parameters (``Param``), whether it
writes to the ledger, and the function that runs it, named as
``"module:function"`` and imported only when the command runs (so listing
every pack's commands for ``--help`` loads none of their code). The command
line turns the declaration into a command (``modtool.cli.packcommands``),
calls the function with the parameters as keywords and prints its answer; a
program may call the same function.

The function prints nothing. It returns a ``View`` (a query: its text, or its
data under ``--json`` when the command declares ``json``) or ``Said`` (what a
command that recorded a fact has to tell), or raises ``UserError`` (nothing
written) or ``RecordedRefusal`` (a refused submission, recorded all the same).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Any, Callable

from modtool.base.i18n import Message
from modtool.base.problems import Problem, RecordedRefusal

REQUIRED: Any = ...  # a Param without a default must be given


@dataclass(frozen=True)
class Param:
    """One parameter of a command.

    ``flags`` empty: a positional argument; else the option's spellings
    (``("--reason",)``), or one ``"--on/--off"`` pair for a switch with two
    names. ``type`` is ``str``, ``int``, ``float``, ``bool`` or ``pathlib.Path``;
    ``default`` ``REQUIRED`` means it must be given; ``choices`` is a closed
    set of values; ``min`` a least number; ``many``: a positional argument that
    takes the rest of the words (a list); ``names``: ``"character"`` when the
    value names one of the game's characters (a name, an alias or, in a seated
    game, a seat): the desk offers the roster's names, the value stays free text."""

    name: str
    help: str
    type: type = str
    flags: tuple[str, ...] = ()
    default: Any = REQUIRED
    choices: tuple[str, ...] = ()
    min: int | None = None
    many: bool = False
    names: str = ""


@dataclass(frozen=True)
class Command:
    """One command of a pack: ``run`` is ``"module:function"`` (or, for a program
    or a test, the function itself); the function takes the parameters by name
    and returns a ``View`` or ``Said``. ``json``: the
    command line adds ``--json`` and prints the returned View's data with it."""

    name: str
    help: str
    params: tuple[Param, ...]
    run: str | Callable[..., Any]
    writes: bool = False
    json: bool = False

    def function(self) -> Callable[..., Any]:
        if callable(self.run):
            return self.run
        module, _, name = self.run.partition(":")
        return getattr(importlib.import_module(module), name)


@dataclass(frozen=True)
class Said:
    """What a command that recorded a fact tells: ``text`` for standard output
    (printed as it is), ``notes`` one line each for standard error, and
    ``data``: what the text tells as values, for a program (JSON-able; None
    when the command gives none; the command line prints only the text)."""

    text: str = ""
    notes: tuple[str, ...] = ()
    data: dict | None = field(default=None, hash=False)

    @classmethod
    def lines(cls, *lines: str, notes: tuple[str, ...] = (), data: dict | None = None) -> "Said":
        return cls("".join(f"{line}\n" for line in lines), tuple(notes), data)

    def to_json(self) -> dict:
        """``{"text", "notes"}`` and ``"data"`` when there is some, for a program
        that passes it on (the web desk, a bot)."""
        out = {"text": self.text, "notes": list(self.notes)}
        if self.data is not None:
            out["data"] = self.data
        return out


def recorded_refusal(refused: list[Problem]) -> RecordedRefusal:
    """Refused submissions, recorded all the same (G-R1): told as 不受理, exit 0."""
    return RecordedRefusal([Problem(p.source, "{message}{note}", p.line, message=p.msg,
                                    note=Message("（已记入账本，不起作用；时限之内可以重新提交）")) for p in refused])
