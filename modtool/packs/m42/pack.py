"""The M42 pack (狐妖小红娘版杀, Chinese forum werewolf): its hooks for modtool.core.registry.

Light on purpose: modtool imports it at start; the rules load inside the hooks.
"""

from __future__ import annotations

from pathlib import Path

from modtool.core.games import data_dir
from modtool.packs.m42.post_kinds import KINDS
from modtool.core.pack import GamePack


class M42Pack(GamePack):
    id = "m42"
    name = "m42（狐妖小红娘版杀）"
    default_for_new = True
    kinds = KINDS
    corrections = frozenset({"waive", "withdraw"})
    phase_events = frozenset({"advance"})
    new_options = frozenset({"seed", "custom_roles"})

    def data_file(self) -> Path:
        return data_dir("games") / "m42.yaml"

    def templates_dir(self) -> Path:
        return data_dir("templates") / "m42"

    def new_game(self, game_dir, game, *, roster, seed, players, require, board, custom_roles=False):
        """M42: the roster's blank roles dealt from the rule post's role set by the seed,
        and the role set checked (unless --custom-roles)."""
        from modtool.core.newgame import create_game
        from modtool.core.problems import UserError

        if roster is None:
            raise UserError("请用 --roster 给出名单文件")
        return create_game(game_dir, self.id, roster, seed, custom_roles), []

    def event_schemas(self) -> dict:
        from modtool.packs.m42.events import M42_EVENTS

        return M42_EVENTS

    # Discuz! threads: the mobile API's JSON, a saved page, or posts copied by hand.
    forum_formats = ("discuz-json", "discuz-html", "text")

    def check_options(self, options: dict, source: str) -> list:
        """M42-R15: the daily close (关门) is a clock time."""
        from modtool.core.problems import Problem
        from modtool.core.timeutil import parse_clock

        try:
            parse_clock(options.get("close_time", "21:00"))
        except ValueError as exc:
            return [Problem(source, "options → close_time：{exc}", exc=exc)]
        return []

    def results(self, gd) -> dict:
        from modtool.packs.m42.results import results

        return results(gd)

    def replay_problems(self, gd) -> list:
        from modtool.packs.m42.replay import replay
        from modtool.core.problems import UserError

        from modtool.packs.m42.references import reference_problems

        try:
            st = replay(gd)
        except UserError as exc:
            return list(exc.problems)
        return list(st.problems) + reference_problems(gd, st)

    def phase_window(self, gd):
        from modtool.packs.m42.replay import replay
        from modtool.packs.m42.windows import phase_window
        from modtool.core.problems import UserError

        if gd.problems:
            raise UserError(gd.problems)
        return phase_window(gd, replay(gd))

    def game_start(self, gd):
        """Day 1's opening (M42-R1, R15: the game starts with day 1's start post)."""
        return self.time_span(gd)[0]

    def time_span(self, gd):
        """From the replay (continued from its snapshot: a card on a 100,000-post ledger
        decodes no post): day 1's opening, and the latest time of the timeline, the cards,
        the days' closes and the nights' submissions; the current phase's window end is
        added by ``modtool.core.timespan``."""
        from modtool.packs.m42.replay import replay
        from modtool.core.problems import UserError

        if "m42_time_span" in gd.memo:
            return gd.memo["m42_time_span"]
        if gd.problems:
            raise UserError(gd.problems)
        st = replay(gd)
        opened = st.days[1].opened if 1 in st.days else None
        times = [m.at for m in st.timeline] + [c.at for c in st.cards]
        times += [d.opened for d in st.days.values() if d.opened] + [d.closed for d in st.days.values() if d.closed]
        times += [t for n in st.nights.values() for t in (n.start, n.kill_at, n.resolved_at) if t]
        times = [t for t in times if t is not None]
        gd.memo["m42_time_span"] = found = (opened, max(times) if times else None)
        return found

    def import_notices(self, gd, day, events) -> list:
        if not events or gd.problems:
            return []
        from modtool.packs.m42.window import outside_day

        return outside_day(gd, day, events)

    def tally_view(self, game_dir, gd, query):
        from modtool.packs.m42.queries import tally_view

        return tally_view(game_dir, query.day, query.floor, query.at, query.close)

    def chart(self, game_dir, gd, *, day, floor, at, close):
        from modtool.packs.m42 import facts
        from modtool.packs.m42.chart import chart_of
        from modtool.packs.m42.queries import tally_of

        from modtool.core.timeutil import parse_time

        gd, ctx, t, _ = tally_of(game_dir, day, floor, at, close)
        upto = f"{floor}楼" if floor is not None else at
        return chart_of(gd, ctx, t, upto=upto, upto_at=parse_time(at, gd.tz) if at else None,
                        freeze_minutes=facts.vote_options(gd).change_freeze_minutes)

    def post_view(self, game_dir, gd, kind, fmt, query):
        from modtool.packs.m42.queries import post_view

        return post_view(game_dir, kind, fmt, {"day": query.day, "close": query.close, **query.options})

    def views(self):
        from modtool.packs.m42.queries import cards_view, flags_view, schedule_view

        return {"cards": cards_view, "schedule": schedule_view, "flags": flags_view}

    def status_view(self, game_dir, gd):
        from modtool.packs.m42.queries import status_view

        return status_view(game_dir)

    def announce(self, game_dir, gd, kind, fmt, *, options, now):
        from modtool.packs.m42.answers import announce_command

        return announce_command(game_dir, kind, fmt, options)

    def act(self, game_dir, gd, actor, ability, targets, *, at, night, text, now):
        from modtool.packs.m42.answers import act_command

        return act_command(game_dir, gd, actor, ability, targets, at, night, text)

    def advance(self, game_dir, gd, *, at, now):
        from modtool.packs.m42.answers import advance_command

        return advance_command(game_dir, gd, at)

    def commands(self):
        from modtool.packs.m42.verbs import COMMANDS

        return COMMANDS


PACK = M42Pack()
