"""This game's own command, ``modtool deadline``, declared as data
(``modtool.core.command``): modtool lists it without importing the code that
runs it (``modtool_jushou.deadline``). modtool sends the command here for a
folder whose ledger says ``game: jushou`` (another game may have a
``deadline`` of its own)."""

from __future__ import annotations

from pathlib import Path

from modtool.sdk import Command, Param

COMMANDS = (
    Command("deadline", """举手：记下一天的截止时间；之后的举手不算（JS-R5）。延长时再记一次，后记的算数。

        Examples:

        \b
          modtool deadline 举手局 --day 1 --at "2026-11-03 21:00"
          modtool deadline 举手局 --day 1 --at "2026-11-03 22:00" --note 延长一小时
        """,
            (Param("game_dir", "游戏文件夹", Path),
             Param("day", "第几天", int, ("--day",), min=1),
             Param("at", "截止时间，例如 \"2026-11-03 21:00\"（本局的时区）", str, ("--at",)),
             Param("note", "备注，例如「延长一小时」", str, ("--note",), None)),
            "modtool_jushou.deadline:deadline", writes=True),
)
