"""The mafia pack (MafiaScum "Mini Normal" forum mafia, English): its hooks for
``modtool.core.registry`` (``PACK``), and the functions behind them.

Light on purpose: modtool imports it at start; the rules load inside the hooks.
Besides the shared hooks it reads phpBB topics for ``modtool import``
(``dump_formats``: JSON lines and saved pages; with modtool's plain text, the
only formats a mafia game imports) and brings the host's fact commands (``replace``, ``death``,
``start-day``, ``alias``).
"""

from __future__ import annotations

from datetime import tzinfo
from pathlib import Path
from typing import Optional

from modtool import sdk
from modtool.sdk import data_dir, GamePack, load_game, Problem, render, rules_loader, UserError, View
from modtool.packs.mafia.verbs import COMMANDS


_load = rules_loader(__package__)  # the one lazy load of the rules (modtool.core.pack.rules_loader)


def _(message: str) -> str:
    """The mafia pack's words (``modtool.packs.mafia.messages``, its catalogue read on first use)."""
    return _load("messages")._(message)


def Msg(message: str, /, **args):  # noqa: N802 - stands for the class it makes
    """A message of this pack, rendered when shown (``modtool.packs.mafia.messages.Msg``)."""
    return _load("messages").Msg(message, **args)


GAME_ID = "mafia"
KINDS = {"vote": "Vote count post: one row per target with its voters in cast order, not voting, majority, deadline"}


def _is_jsonl(text: str) -> bool:
    return _load("forum").is_jsonl(text)


def _is_page(text: str) -> bool:
    return _load("forum").detect(text) == "viewtopic"


def _read_topic(text: str, source: str, tz: tzinfo):
    return _load("forum").read_topic(text, source, tz)


PHPBB_JSONL, PHPBB_PAGE = "phpbb-jsonl", "phpbb-page"


def problems(gd) -> list:
    return _load("commands").problems(gd)


def new_game(game_dir: Path, roster_file: Optional[Path]) -> Path:
    """A ledger with the roster's slots (name, account, aliases), nothing dealt."""
    if roster_file is None:
        raise UserError(Problem(Msg("command line"), Msg("give the slots with --roster FILE")))
    path = sdk.ledger_path(game_dir)
    if path.exists():
        raise UserError(Problem(str(path), Msg("a ledger already exists here; it is not overwritten")))
    game = load_game(GAME_ID)
    entries = sdk.read_roster_file(roster_file)
    roster, found = sdk.read_roster(entries, game, str(roster_file), script=False)
    seen: dict[str, str] = {}
    for c in roster:  # MS-R2 reads names without case: "Pine" and "pine" would be one name
        for label in (c.name, *c.aliases):
            other = seen.setdefault(label.casefold(), c.name)
            if other != c.name:
                found.append(Problem(str(roster_file), Msg("\"{label}\" of {name} and a name or alias of {other} differ only "
                                                         "in case; votes could not tell them apart", label=label, name=c.name, other=other)))
    if found:
        raise UserError(found)
    lines = [f"# modtool ledger: {game.name}",
             "# Facts only (posts, replacements, deaths, day starts, aliases); lynches are replayed.",
             "# You may edit it by hand and add comments; modtool only appends.",
             f"game: {GAME_ID}",
             "options: {}   # overrides of games/mafia.yaml, e.g. timezone: UTC",
             "roster:"]
    import json

    for c in roster:
        entry = {"name": c.name, "account": c.account, **({"aliases": list(c.aliases)} if c.aliases else {})}
        lines.append("  - " + json.dumps(entry, ensure_ascii=False))
    Path(game_dir).mkdir(parents=True, exist_ok=True)
    sdk.write_new(path, "\n".join(lines) + "\n", [])
    return path


def _day_tally(gd, day, upto_post, at):
    if gd.problems:
        raise UserError(gd.problems)
    known = _load("day").days(gd)
    if upto_post is not None:  # the day that holds the post, or refused (outside the day, before the standing votes)
        day = _load("day").day_upto(gd, day, upto_post)
    day = day if day is not None else (known[-1] if known else 1)
    if known and day not in known and _load("day").lynch_of(gd, day) is None:  # MS-R6: known by its lynch alone
        raise _load("day").not_started(day, known)
    at_dt = sdk.time_arg(at, gd.tz, "--at") if at else None
    return _load("day").tally_day(gd, day, upto_post, at_dt)


def tally_view(gd, day: Optional[int], upto_post: Optional[int], at: Optional[str]):
    """The day's vote count as a value (``modtool.core.view.View``)."""
    t = _day_tally(gd, day, upto_post, at)
    data = _load("views").tally_json(gd, t)
    return View.of("tally", gd.game.id, data, _load("views").tally_text(data, data["deadline"], gd.folder_arg))


def announce(gd, game_dir: Path, kind: str, fmt: str, day: Optional[int], upto_post: Optional[int],
             title: Optional[str], image: Optional[str] = None) -> str:
    if kind not in KINDS:
        raise UserError(Problem(Msg("command line KIND"), Msg("this game has no \"{kind}\" post; it has: {kinds}", kind=kind, kinds=", ".join(KINDS))))
    t = _day_tally(gd, day, upto_post, None)
    data = _load("views").tally_json(gd, t)
    label = title or (_("Vote Count {day}.final").format(day=t.day) if t.hammer_post is not None or t.deadline_passed
                      else _("Vote Count {day}.{n}").format(day=t.day, n=_load("day").next_count_number(gd, t)))
    # Players read the count in many zones: the public post names the deadline's own.
    deadline = f"{data['deadline']} ({gd.tz})" if data["deadline"] else None
    context = _load("views").vote_post_context({**data, "deadline": deadline}, label, deadline)
    return render(GAME_ID, kind, fmt, {**context, "image": image}, game_dir)


class MafiaPack(GamePack):
    id = GAME_ID
    name = "mafia（MafiaScum Mini Normal, English）"
    kinds = KINDS
    language = "en"
    post_numbers_span_days = True  # one topic, numbered from #0 to the end

    def data_file(self) -> Path:
        return data_dir("games") / "mafia.yaml"

    def templates_dir(self) -> Path:
        return data_dir("templates") / "mafia"

    def event_schemas(self) -> dict:
        return _load("events").MAFIA_EVENTS

    # What a MafiaScum host saves (phpBB topics), and modtool's plain text for posts copied by hand.
    forum_formats = (PHPBB_JSONL, PHPBB_PAGE, "text")

    def dump_formats(self):
        DumpFormat = sdk.DumpFormat
        return (DumpFormat(PHPBB_JSONL, _("phpBB posts as JSON lines"), _is_jsonl, _read_topic),
                DumpFormat(PHPBB_PAGE, _("a saved phpBB topic page (HTML)"), _is_page, _read_topic))

    def event_labels(self, game=None) -> dict:
        return _load("events").event_labels()

    def new_game(self, game_dir, game, *, roster, seed, players, require, board, custom_roles=False):
        if custom_roles:
            raise UserError(Problem("argument --custom-roles", "a mafia setup is the host's own: there is no role set "
                                                                "to check, so --custom-roles does not apply (nothing was written)"))
        return new_game(game_dir, roster), []

    def check_options(self, options: dict, source: str) -> list:
        """``timezone`` names a place (or UTC), not an abbreviation such as CET (``zones``)."""
        name = str(options.get("timezone") or "UTC")
        if _load("zones").has_region(name):  # UTC, or Area/City
            return []
        try:
            sdk.zone(name)
        except ValueError:
            return []  # not a zone at all: the core names it
        return [Problem(source, Msg("options → timezone: {why}", why=_load("commands").region_problem(name)))]

    def replay_problems(self, gd) -> list:
        return problems(gd)

    def results(self, gd) -> dict:
        return _load("results").results(gd)

    def known_account(self, gd, account: str) -> bool:
        """A replacement's account (``modtool replace``), or a roster account in another case
        (phpBB user names are not case-sensitive, and the replay reads them so)."""
        folded = account.casefold()
        return any(folded in (str(e.data.get("account", "")).casefold(), str(e.data.get("player", "")).casefold())
                   for e in gd.of_type("replace")) or any(c.account.casefold() == folded for c in gd.roster) \
            or folded in _load("day").hosts(gd)  # the host's own accounts (modtool host)

    def tally_view(self, game_dir, gd, query):
        return tally_view(gd, query.day, query.floor, query.at)

    def post_view(self, game_dir, gd, kind, fmt, query):
        text = announce(gd, game_dir, kind, fmt, query.day, query.floor, query.get("title"), image=query.get("image"))
        return View.of("post", gd.game.id, {"kind": kind, "format": fmt, "text": text}, text)

    def chart(self, game_dir, gd, *, day, floor, at, close):
        t = _day_tally(gd, day, floor, at)
        upto = None
        if at:
            upto = sdk.time_arg(at, gd.tz, "--at")
        elif floor is not None and t.last_post is not None:
            upto = next((p.time for p in _load("day").facts(gd).posts if p.floor == t.last_post), None)
        return _load("chart").chart_of(gd, t, t.deadline, upto)

    def commands(self):
        return COMMANDS

    # The host sets the game's zone by a fact (modtool timezone); earlier times keep their instants.
    zone_event = "timezone"
    # announce vote --upto-post N: the count as at post N (query.floor).
    announce_upto = True
    # A forum-mafia day is cut at a post or a time; --close, --card, --seat, --told-at … are other games'.
    options_read = {"tally": frozenset({"day", "floor", "at", "as_json"}),
                    "announce": frozenset({"day", "fmt_", "floor", "title", "image", "image_url"}),
                    "chart": frozenset({"out", "day", "floor", "at", "font"})}

    def status_view(self, game_dir, gd):
        if gd.problems:
            raise UserError(gd.problems)
        return _load("status").status_view(gd)


PACK = MafiaPack()
