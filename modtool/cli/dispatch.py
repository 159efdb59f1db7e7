"""Which game a command line is for, and the commands each pack brings.

A pack's own commands (``GamePack.commands``, data made into commands by
``modtool.cli.packcommands``) belong to its game: the
command line sends a verb to the game of the folder it names (the ``game:``
line of that folder's ledger) or to the game ``new --game`` names, so two
packs may both have a ``deadline`` (``modtool.cli.app`` builds each run's
command tree from the core's commands and that game's). With no game named
(``modtool --help``), every pack's commands are listed, each name once.

A pack command named like a core command, or two commands of one pack with
one name, could not be told apart: ``pack_commands`` raises ``Clash`` and the
pack is refused when it joins (``modtool.core.registry.refuse``), with the
reason told, never a silent shadow.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from pathlib import Path

from modtool.cli.packcommands import command_info

_GAME_LINE = re.compile(rb"(?m)^game:[ \t]*[\"']?([A-Za-z0-9_.-]+)")


class Clash(Exception):
    """A pack's commands cannot join: ``message`` (the core's Chinese message id) and its ``fields``."""

    def __init__(self, message: str, **fields):
        super().__init__(message)
        self.message, self.fields = message, fields


def command_name(info) -> str:
    """The name a typer ``CommandInfo`` runs under (as typer names it)."""
    return info.name or info.callback.__name__.lower().replace("_", "-")


def pack_commands(pack, core: Collection[str]) -> dict:
    """The pack's own commands by name (typer ``CommandInfo``s, in its order).
    ``Clash`` when one is named like a core command or like another of its own."""
    found: dict = {}
    for command in pack.commands():
        name = command.name
        if name in core:
            raise Clash("游戏包「{game}」（{dist}）没有载入：它的命令 {command} 与 modtool 的命令 {command} 同名，"
                        "命令行分不清是哪一个；请游戏包的作者给它换个名字",
                        game=pack.id, dist=pack.distribution, command=name)
        if name in found:
            raise Clash("游戏包「{game}」（{dist}）没有载入：它有两个命令都叫 {command}；请游戏包的作者给其中一个换个名字",
                        game=pack.id, dist=pack.distribution, command=name)
        found[name] = command_info(command)
    return found


def game_of_folder(arg: str) -> str | None:
    """The game a folder's ledger says it is (its ``game:`` line), read cheaply."""
    try:
        ledger = Path(arg) / "ledger.yaml"
        if not ledger.is_file():
            return None
        with open(ledger, "rb") as f:
            head = f.read(65536)
    except (OSError, ValueError):
        return None
    m = _GAME_LINE.search(head)
    return m.group(1).decode("ascii") if m else None


def game_of_command(args: list[str]) -> str | None:
    """The game a command line is for: ``--game X``, else the game of the first
    folder it names that holds a ledger; None when it names neither."""
    for i, a in enumerate(args):
        if a == "--game" and i + 1 < len(args):
            return args[i + 1]
        if a.startswith("--game="):
            return a[len("--game="):]
    words = [a for a in args if not a.startswith("-")]
    for a in words[1:]:  # after the verb
        found = game_of_folder(a)
        if found:
            return found
    return None
