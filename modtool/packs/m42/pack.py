"""The M42 pack (狐妖小红娘版杀, Chinese forum werewolf): its hooks for modtool.core.registry.

Light on purpose: modtool imports it at start; the rules load inside the hooks.
"""

from __future__ import annotations

from pathlib import Path

from modtool import sdk
from modtool.sdk import data_dir, GamePack, Problem, rules_loader, UserError
from modtool.packs.m42.post_kinds import KINDS, SENT_KINDS
from modtool.packs.m42.verbs import COMMANDS


_load = rules_loader(__package__)  # the one lazy load of the rules (modtool.core.pack.rules_loader)


class M42Pack(GamePack):
    id = "m42"
    name = "m42（狐妖小红娘版杀）"
    default_for_new = True
    kinds = KINDS
    sent_kinds = SENT_KINDS
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
        if roster is None:
            raise UserError("请用 --roster 给出名单文件")
        return sdk.create_game(game_dir, self.id, roster, seed, custom_roles), []

    def event_schemas(self) -> dict:
        return _load("events").M42_EVENTS

    # Discuz! threads: the mobile API's JSON, a saved page, or posts copied by hand.
    forum_formats = ("discuz-json", "discuz-html", "text")

    def check_options(self, options: dict, source: str) -> list:
        """M42-R15: the daily close (关门) is a clock time."""
        try:
            sdk.parse_clock(options.get("close_time", "21:00"))
        except ValueError as exc:
            return [Problem(source, "options → close_time：{exc}", exc=exc)]
        return []

    def results(self, gd) -> dict:
        return _load("results").results(gd)

    def replay_problems(self, gd) -> list:
        try:
            st = _load("replay").replay(gd)
        except UserError as exc:
            return list(exc.problems)
        return list(st.problems) + _load("references").reference_problems(gd, st)

    def phase_window(self, gd):
        if gd.problems:
            raise UserError(gd.problems)
        return _load("windows").phase_window(gd, _load("replay").replay(gd))

    def game_start(self, gd):
        """Day 1's opening (M42-R1, R15: the game starts with day 1's start post)."""
        return self.time_span(gd)[0]

    def time_span(self, gd):
        """From the replay (continued from its snapshot: a card on a 100,000-post ledger
        decodes no post): day 1's opening, and the latest time of the timeline, the cards,
        the days' closes and the nights' submissions; the current phase's window end is
        added by ``modtool.core.timespan``."""
        if "m42_time_span" in gd.memo:
            return gd.memo["m42_time_span"]
        if gd.problems:
            raise UserError(gd.problems)
        st = _load("replay").replay(gd)
        opened = st.days[1].opened if 1 in st.days else None
        times = [m.at for m in st.timeline] + [c.at for c in st.cards]
        times += [d.opened for d in st.days.values() if d.opened] + [d.closed for d in st.days.values() if d.closed]
        times += [t for n in st.nights.values() for t in (n.start, n.kill_at, n.resolved_at) if t]
        times = [t for t in times if t is not None]
        gd.memo["m42_time_span"] = found = (opened, max(times) if times else None)
        return found

    def outside_day(self, gd, day, events) -> list:
        if not events or gd.problems:
            return []

        return _load("window").outside_day(gd, day, events)

    def tally_view(self, game_dir, gd, query):
        return _load("queries").tally_view(game_dir, query.day, query.floor, query.at, query.close)

    def chart(self, game_dir, gd, *, day, floor, at, close):
        gd, ctx, t, _ = _load("queries").tally_of(game_dir, day, floor, at, close)
        upto = f"{floor}楼" if floor is not None else at
        upto_at = sdk.parse_time(at, gd.tz) if at else None
        return _load("chart").chart_of(gd, ctx, t, upto=upto, upto_at=upto_at,
                                       freeze_minutes=_load("facts").vote_options(gd).change_freeze_minutes)

    def post_view(self, game_dir, gd, kind, fmt, query):
        return _load("queries").post_view(game_dir, kind, fmt,
                                          {"day": query.day, "close": query.close, **query.options})

    def views(self):
        queries = _load("queries")
        return {"cards": queries.cards_view, "lurking": queries.lurking_view, "schedule": queries.schedule_view,
                "flags": queries.flags_view}

    def status_view(self, game_dir, gd):
        return _load("queries").status_view(game_dir)

    def announce(self, game_dir, gd, kind, fmt, *, options, now):
        return _load("answers").announce_command(game_dir, kind, fmt, options)

    def act(self, game_dir, gd, actor, ability, targets, *, at, night, text, now):
        return _load("answers").act_command(game_dir, gd, actor, ability, targets, at, night, text)

    def advance(self, game_dir, gd, *, at, now):
        return _load("answers").advance_command(game_dir, gd, at)

    def commands(self):
        return COMMANDS


PACK = M42Pack()
