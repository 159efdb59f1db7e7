"""The 甄嬛 pack (血染甄嬛传, a Chinese Blood-on-the-Clocktower script): its hooks for modtool.core.registry.

Light on purpose: modtool imports it at start; the rules load inside the hooks.
"""

from __future__ import annotations

from pathlib import Path

from modtool import sdk
from modtool.sdk import data_dir, GamePack, Problem, rules_loader, UserError
from modtool.packs.zhenhuan.post_kinds import KINDS
from modtool.packs.zhenhuan.verbs import COMMANDS


_load = rules_loader(__package__)  # the one lazy load of the rules (modtool.core.pack.rules_loader)


class ZhenhuanPack(GamePack):
    id = "zhenhuan"
    name = "zhenhuan（血染甄嬛传）"
    kinds = KINDS
    phase_events = frozenset({"advance"})
    new_options = frozenset({"seed", "players", "require", "board"})

    def results(self, gd) -> dict:
        return _load("results").results(gd)
    # Discuz! threads: the mobile API's JSON, a saved page, or posts copied by hand.
    forum_formats = ("discuz-json", "discuz-html", "text")

    def data_file(self) -> Path:
        return data_dir("games") / "zhenhuan.yaml"

    def templates_dir(self) -> Path:
        return data_dir("templates") / "zhenhuan"

    def event_schemas(self) -> dict:
        return _load("events").ZH_EVENTS

    def header_roster(self, header: dict) -> dict:
        if "roster" in header or not isinstance(header.get("seats"), list):
            return header
        # Clocktower: the seats are the roster (a player's name is how votes and posts name them).
        return dict(header, roster=[
            {"name": str(s.get("player")), "account": str(s.get("account", s.get("player"))),
             "role": s.get("character"), "seat": s.get("seat")} for s in header["seats"] if isinstance(s, dict)])

    def new_game(self, game_dir, game, *, roster, seed, players, require, board, custom_roles=False):
        if custom_roles:  # ZH-R1: the deal follows the table; the storyteller's choices are --require / --board
            raise UserError(Problem("参数 --custom-roles", "甄嬛按人数表发身份（ZH-R1），没有自定义配置；指定角色请用 --require 或 --board（什么也没写）"))

        return _load("newgame").create_clocktower_game(game_dir, game, roster, players, seed, list(require), board)

    def replay_problems(self, gd) -> list:
        return list(_load("game").replay(gd)[1])

    def game_start(self, gd):
        """ZH-R13: night 1 comes before the first day, and its times are seldom recorded
        (act's --at is optional): the game may have begun up to a night before the
        earliest time the ledger records."""
        from datetime import timedelta

        first, _ = sdk.recorded_times(gd)
        return first - timedelta(days=1) if first is not None else None

    def header_warnings(self, gd) -> list[str]:
        return _load("setup").header_warnings(gd.game, gd.header)

    def post_view(self, game_dir, gd, kind, fmt, query):
        return _load("answers").post_view(game_dir, gd, kind, fmt, {"day": query.day, **query.options})

    def status_view(self, game_dir, gd):
        return _load("answers").status_view(gd)

    def announce(self, game_dir, gd, kind, fmt, *, options, now):
        return _load("answers").announce_command(game_dir, gd, kind, fmt, options)

    def act(self, game_dir, gd, actor, ability, targets, *, at, night, text, now):
        return _load("answers").act_command(game_dir, gd, actor, ability, targets, at, text, night)

    def advance(self, game_dir, gd, *, at, now):
        return _load("answers").advance_command(game_dir, gd, at)

    def chart(self, game_dir, gd, *, day, floor, at, close):
        if floor is not None or at is not None or close is not None:
            raise UserError(Problem("命令行", "血染甄嬛传的图按整天的提名画，不用 --floor、--at 或 --close"))
        board, _ = _load("game").replay(gd)
        return _load("chart").chart_of(gd, board, day)

    def commands(self):
        return COMMANDS


PACK = ZhenhuanPack()
