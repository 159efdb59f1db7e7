"""The 举手 pack: the hooks modtool asks (``modtool.core.pack.GamePack``).

modtool finds ``PACK`` through this distribution's entry point (group
``modtool.games`` in pyproject.toml). Light on purpose: modtool imports it at
every start, so the rules and jinja2 load inside the hooks.

What the game brings: its data (``data/jushou.yaml``), its event
(``deadline``), the answers to the shared ``tally`` and ``announce``, one
post kind (``result``, ``templates/result.<bbcode|md>.j2``) and one command of
its own (``deadline``). ``new``, ``import``, ``check`` and ``undo`` are
modtool's, unchanged: ``new`` keeps the roster as given and deals nothing.
"""

from __future__ import annotations

from pathlib import Path

from modtool.sdk import GamePack

_HERE = Path(__file__).resolve().parent


class JushouPack(GamePack):
    id = "jushou"
    name = "jushou（举手）"
    kinds = {"result": "举手结果帖：每个名字的手数与举手的人、过半数、当选者"}

    def data_file(self) -> Path:
        return _HERE / "data" / "jushou.yaml"

    def templates_dir(self) -> Path:
        return _HERE / "templates"

    def event_schemas(self) -> dict:
        from modtool_jushou.events import JUSHOU_EVENTS

        return JUSHOU_EVENTS

    def results(self, gd) -> dict:
        """The settled results (G-R2: modtool refuses, without --force, a fact that would
        change one): the chosen of every day the game has gone past (a later day has posts)."""
        from modtool_jushou.messages import _
        from modtool_jushou.rules import replay

        days = replay(gd)
        last = max(days, default=0)
        return {f"day{n}.chosen": (_("第 {day} 天当选").format(day=n), d.chosen.target)
                for n, d in days.items() if d.chosen and n < last}

    def tally_view(self, game_dir, gd, query):
        """The day's hands as a value (``modtool tally`` prints it, ``--json`` its data;
        ``modtool.api`` returns it): the core's ``View``, from the core's ``Query``."""
        from modtool.sdk import Problem, UserError
        from modtool.sdk import View

        from modtool_jushou.messages import _
        from modtool_jushou.views import day_json, day_of, tally_text

        if query.floor is not None or query.at is not None or query.close is not None:
            raise UserError(Problem(_("命令行"), _("举手按整天计算，不用 --floor、--at 或 --close（截止时间用 modtool deadline 记下）")))
        data = day_json(day_of(gd, query.day))
        return View.of("tally", self.id, data, tally_text(data))

    def post_view(self, game_dir, gd, kind, fmt, query):
        """An announcement post as a value (``modtool announce`` prints it; it records nothing)."""
        from modtool.sdk import Problem, UserError
        from modtool.sdk import render
        from modtool.sdk import View

        from modtool_jushou.messages import _
        from modtool_jushou.views import day_json, day_of

        if kind not in self.kinds:
            raise UserError(Problem(_("命令行 KIND"), _("举手没有「{kind}」帖；有：{kinds}").format(
                kind=kind, kinds="、".join(self.kinds))))
        text = render(self.id, kind, fmt, day_json(day_of(gd, query.day)), game_dir)
        return View.of("post", self.id, {"kind": kind, "format": fmt, "text": text}, text)

    def commands(self):
        """The game's own commands, as data: listed without running any of its code."""
        from modtool_jushou.commands import COMMANDS

        return COMMANDS


PACK = JushouPack()
