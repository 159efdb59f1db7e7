"""The interface every game pack implements (``GamePack``); the registry that
finds packs is ``modtool.core.registry``.

A *pack* is one game: its event schemas, its replay and checks, its
commands, its posts and their templates, and its data file. The core
(ledger, forum import, markup, rendering, schedule helpers, CLI shell,
gamefile, soundness) never names a game; it asks the pack of the ledger's
``game:`` through the hooks below. Only a pack may say ``if game is m42``.

Where packs come from: ``modtool.core.registry``.

Keep ``pack.py`` light: modtool imports every pack when it starts (to build
``--help`` and register commands), so a pack imports its rules, jinja2 or
ruamel inside the hooks, never at the top of ``pack.py``.

The hooks, in the order a game meets them (``gd`` is the opened
``modtool.core.gamefile.GameDir``; every hook has a default, so a tiny pack
overrides only what it has):

==========================  ==================================================
``id``, ``name``            the ``game:`` value and a label for ``new --help``
``language``                the language of the core's messages for this game
``default_for_new``         True for the one pack ``new`` uses without --game
``data_file()``             the game definition YAML (roles, camps, options)
``templates_dir()``         folder of ``<kind>.<bbcode|md>.j2`` post templates
``kinds``                   announce kinds: {kind: one-line description}
``event_schemas()``         the pack's event types (added to COMMON_EVENTS)
``event_labels(game)``      each of them as its director reads it
``check_options(opts, src)``  problems of the game's own options (its clock)
``header_roster(header)``   the header with a ``roster`` (a pack that keeps
                            its players elsewhere, e.g. seats, derives it)
``new_options``             which of ``new``'s options (NEW_OPTIONS) it takes
``new_game(...)``           ``modtool new``: write the ledger, return warnings
                            (default: the roster as given, nothing dealt)
``replay_problems(gd)``     the checks: every problem found by replaying
``header_warnings(gd)``     ``check``'s reminders that are not failures
``phase_window(gd)``        when "now" may stand for a command's time
``game_start(gd)``,         when the first phase began and the times the game
``time_span(gd)``           records: the span a typed time must fall in
                            (``modtool.core.timespan``)
``forum_formats``           the ids of the forum formats ``import`` reads
                            for this game (``modtool.forum.formats``)
``dump_formats()``          the forum formats this game brings (phpBB topics)
``phase_events``            event types that move the game to its next phase
``zone_event``              the event type (field ``zone``) by which the
                            director sets the game's zone from then on
``announce_upto``           True: ``announce`` reads --upto-post (as at a post)
``sent_kinds``              post kinds whose sending is itself a fact that
                            ``announce`` records (``post_view`` refuses them)
``options_read``            per shared command, the options this game reads;
                            the others are hidden from its help and refused
``known_account(gd, a)``    an account import knows beyond the roster
``outside_day(...)``        an import's posts outside the day it goes into
                            (``modtool.core.importer.OutsideDay``, told)
``import_notices(...)``     other notices after an import
``tally_view/status_view/`` the shared queries, answered by this game as
``post_view/views()``       values (``View``); the default refuses
                            ("only supported by …")
``announce/act/advance``    the shared commands that record as they answer:
                            they return ``Said`` (the CLI prints it)
``commands()``              the pack's own commands, as data
                            (``modtool.core.command.Command``: name, help,
                            parameters, whether it writes, the function
                            that runs it and returns a value)
==========================  ==================================================
"""


from __future__ import annotations

from importlib import import_module
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Callable

from modtool.base.i18n import Message
from modtool.core.games import load_game
from modtool.base.i18n import words_for_language
from modtool.base.problems import Problem, UserError
from modtool.core.registry import all_packs, get_pack

if TYPE_CHECKING:  # pragma: no cover
    from datetime import datetime

    from modtool.core.chart.model import VoteChart
    from modtool.base.times import Window
    from modtool.core.gamefile import GameDir
    from modtool.core.games import Game
    from modtool.core.importer import OutsideDay
    from modtool.core.schema import Schema
    from modtool.core.command import Command, Said
    from modtool.core.view import Query, View

# The shared commands a pack may answer (see GamePack): a pack answers one by
# overriding the method of the same name.
SHARED_COMMANDS = ("tally", "status", "announce", "act", "advance")

# ``modtool new``'s options a game may declare in ``GamePack.new_options``: parameter -> option.
NEW_OPTIONS = {"seed": "--seed", "players": "--players", "require": "--require", "board": "--board",
               "custom_roles": "--custom-roles"}


class GamePack:
    """One game. Subclass it, set ``id`` (and ``name``), override the hooks
    your game has; the defaults describe a game with no rules beyond the
    common events."""

    id: str = ""
    name: str = ""  # for help texts, e.g. "m42（狐妖小红娘版杀）"
    default_for_new: bool = False
    distribution: str = "modtool"  # the distribution whose entry point declared it (set by the registry)
    kinds: dict[str, str] = {}  # announce kinds → one line each for --help
    language: str = "zh"  # the core's messages for this game come in this language (modtool.base.i18n)
    # Post numbers run on through the whole game (one phpBB topic): a post
    # without a pid is known by its thread and number alone, so importing it
    # again as another day is refused. False: each day's thread numbers its
    # floors afresh (Discuz games: a new thread per day).
    post_numbers_span_days: bool = False
    # The event type (with a ``zone`` field) by which the director sets the game's time zone
    # as a fact: times written after it are in its zone, those before keep theirs (the same
    # instants); the last one is the game's zone (``GameDir.zone_at``). None: only ``options``.
    zone_event: str | None = None
    # ``announce`` renders a post as at a post number (``--upto-post``/``--floor``, in
    # ``query.floor``); the core refuses the option for a game that does not read it.
    announce_upto: bool = False
    # Post kinds whose sending is itself a fact (M42's witch and hunter notices: their
    # half-hour runs from it, M42-R15): ``announce`` records it as it renders the post;
    # ``post_view``, which writes nothing, refuses them.
    sent_kinds: frozenset[str] = frozenset()
    # The options of a shared command (``tally``, ``announce``…) this game reads, by the
    # command's parameter names: ``{"tally": frozenset({"day", "floor", …})}``. The others
    # are hidden from its ``--help`` and refused when given (never silently ignored). A
    # command not listed: every option offered.
    options_read: dict[str, frozenset[str]] = {}

    # --- data -------------------------------------------------------------
    def data_file(self) -> Path:
        """The game definition (YAML: name, roles, camps, options, …)."""
        raise NotImplementedError

    def templates_dir(self) -> Path | None:
        """The folder of this game's post templates (``<kind>.<ext>.j2``), or None."""
        return None

    # --- ledger -----------------------------------------------------------
    def event_schemas(self) -> dict[str, "Schema"]:
        """The event types this game adds to ``modtool.core.schema.COMMON_EVENTS``."""
        return {}

    def event_labels(self, game: "Game | None" = None) -> dict[str, str]:
        """Each event type of ``event_schemas`` as the game's director reads it, in the
        game's language (``modtool.core.schema.event_name``): by default the
        ``event_labels`` mapping of the data file (``game``: its loaded data)."""
        if game is None:
            game = load_game(self.id)
        labels = game.data.get("event_labels")
        return {str(k): str(v) for k, v in labels.items()} if isinstance(labels, dict) else {}

    def check_options(self, options: dict, source: str) -> list[Problem]:
        """Problems of the options this game reads (a close time, a schedule), found
        when the game is opened; the core checks only ``timezone`` (a zone name)."""
        return []

    def header_roster(self, header: dict) -> dict:
        """The ledger header as ``open_game`` reads the roster from it."""
        return header

    # ``modtool new``'s options beyond --roster that this game takes (of NEW_OPTIONS);
    # the core refuses the others for it and leaves them out of its ``new --help``.
    new_options: frozenset[str] = frozenset()

    def new_game(self, game_dir: Path, game: "Game", *, roster: Path | None, seed: int | None,
                 players: int | None, require: list[str], board: str | None,
                 custom_roles: bool = False) -> tuple[Path, list[str]]:
        """``modtool new``: write a new ledger; (its path, reminders to print).
        Options not in ``new_options`` come as None/[]/False (the core refused them).
        The default: the roster as given (names, accounts, aliases), nothing dealt
        (``modtool.core.newgame.create_roster_game``)."""
        from modtool.core.newgame import create_roster_game

        if roster is None:
            raise UserError("请用 --roster 给出名单文件")
        return create_roster_game(game_dir, self.id, roster), []

    # --- rules ------------------------------------------------------------
    def replay_problems(self, gd: "GameDir") -> list[Problem]:
        """Replay the (well-formed) events; every problem the rules find."""
        return []

    # Event types that exist to change an announced result (a waived yellow): told, never refused (G-R2).
    corrections: frozenset = frozenset()
    # Event types that move the game into its next phase: undoing one steps the game back, so
    # the results it settled are undecided again, not changed (G-R2; modtool.core.announced).
    phase_events: frozenset = frozenset()

    def results(self, gd: "GameDir") -> dict:
        """The game's settled results as the replay computes them now (G-R2;
        modtool.core.announced): ``{key: (label, value)}``, value a string or a
        list of strings, the key naming the result (``day2.exile``)."""
        return {}

    def header_warnings(self, gd: "GameDir") -> list[str]:
        """Reminders ``check`` prints about the header (never failures)."""
        return []

    def phase_window(self, gd: "GameDir") -> "Window":
        """The current phase's span: the wall clock stands for a command's
        time only inside it (``modtool.base.times.now_in``)."""
        from modtool.base.times import Window

        return Window("当前阶段", None, None, "这个游戏没有阶段的时间表")

    def time_span(self, gd: "GameDir") -> "tuple[datetime | None, datetime | None] | None":
        """The earliest and the latest time the game records (``modtool.core.timespan``).
        None: the core reads them from every event (a pack whose replay keeps them,
        M42's snapshot, answers without decoding a large ledger's posts)."""
        return None

    def game_start(self, gd: "GameDir") -> "datetime | None":
        """When the game's first phase began, if the ledger tells: no typed time
        may lie before it (``modtool.core.timespan``). None: the earliest time the
        ledger records stands for it."""
        return None

    # The forum formats ``import`` reads for this game (ids of ``modtool.forum.formats``);
    # a dump in another is refused, naming these. None: the core's readers
    # (``modtool.forum.formats.CORE_FORMATS``).
    forum_formats: tuple[str, ...] | None = None

    def dump_formats(self) -> tuple:
        """The forum formats this game brings (``modtool.forum.formats.DumpFormat``),
        detected before the core's whatever the game imported into."""
        return ()

    def known_account(self, gd: "GameDir", account: str) -> bool:
        """An account ``import`` should not call "not in the roster" though no
        roster entry has it (e.g. a replacement recorded as a fact)."""
        return False

    def outside_day(self, gd: "GameDir", day: int, events: list[dict]) -> list["OutsideDay"]:
        """The posts of ``events`` (about to be imported into ``day``) that the game
        finds outside that day, each with its notice; told, the import goes on."""
        return []

    def import_notices(self, gd: "GameDir", day: int, events: list[dict]) -> list[Problem]:
        """Told after ``import`` plans its events (it goes on regardless)."""
        return []

    # --- the shared commands ------------------------------------------------
    # ``tally`` and ``status`` are answered by the queries below. ``announce``,
    # ``act`` and ``advance`` may record a fact as they answer: they return
    # ``Said`` (modtool.core.command), printed by the CLI; they raise UserError.
    # ``now(at, option)`` gives a command's time: ``at`` as written, else the
    # wall clock inside ``phase_window``.

    # --- queries: values, not output (modtool.api; the CLI prints them) -----
    def tally_view(self, game_dir: Path, gd: "GameDir", query: "Query") -> "View":
        """A day's tally (``query.day``) as at a moment (``query.at``), floor or post
        (``query.floor``); options the pack does not know are ignored."""
        raise unsupported("tally", gd)

    def post_view(self, game_dir: Path, gd: "GameDir", kind: str, fmt: str, query: "Query") -> "View":
        """An announcement post of ``kind`` (``kinds``) in ``fmt`` (bbcode, md) as a
        value, written nowhere: ``query.day``, ``query.close`` and the post's own
        options (``night``, ``seat``, ``character``, ``card``, ``title``…) in
        ``query.options``. A post whose sending is itself a fact to record (M42's
        witch and hunter notices) is the command's alone."""
        raise unsupported("announce", gd)

    def views(self) -> dict[str, Callable]:
        """The game's own queries by name, as data (``modtool.api.Game.view``): each
        ``fn(game_dir, query) -> View``, the same answer its command prints."""
        return {}

    def status_view(self, game_dir: Path, gd: "GameDir") -> "View":
        """The game as it stands: phase, who is in, what is pending."""
        raise unsupported("status", gd)

    def chart(self, game_dir: Path, gd: "GameDir", *, day: int | None, floor: int | None,
              at: str | None, close: str | None) -> "VoteChart":
        """A day's votes as a ``modtool.core.chart.model.VoteChart``, from the same
        replay as the game's vote post (``modtool chart`` draws it)."""
        raise unsupported("chart", gd)

    def announce(self, game_dir: Path, gd: "GameDir", kind: str, fmt: str, *, options: dict,
                 now: Callable[[str | None, str], "datetime"]) -> "Said":
        """``options``: the command line's day, night, close, card, seat,
        character, told_at, title (None when not given). By default the post of
        ``post_view``, recording nothing."""
        from modtool.core.command import Said
        from modtool.core.view import Query

        return Said(self.post_view(game_dir, gd, kind, fmt, Query.of(options)).text)

    def act(self, game_dir: Path, gd: "GameDir", actor: str, ability: str, targets: list[str], *,
            at: str | None, night: int | None, text: str | None,
            now: Callable[[str | None, str], "datetime"]) -> "Said":
        raise unsupported("act", gd)

    def advance(self, game_dir: Path, gd: "GameDir", *, at: str | None,
                now: Callable[[str | None, str], "datetime"]) -> "Said":
        raise unsupported("advance", gd)

    # --- the pack's own commands --------------------------------------------
    def commands(self) -> "tuple[Command, ...]":
        """This game's own commands, as data (``modtool.core.command``)."""
        return ()

    def answers(self, command: str) -> bool:
        """Does this pack answer the shared ``command`` (overrides its method, or
        the query ``<command>_view`` that gives its answer as a value)?"""
        query = "post_view" if command == "announce" else f"{command}_view"
        return any(getattr(type(self), name, None) is not getattr(GamePack, name, None)
                   for name in (command, query) if hasattr(GamePack, name))


def rules_loader(package: str) -> Callable[[str], ModuleType]:
    """A pack's one deliberate lazy load: ``_load = rules_loader(__package__)`` in its
    ``pack.py``, then ``_load("replay")`` (the pack's ``<package>.replay``) or
    ``_load("modtool.core.x")`` (a core module by its full name) inside a hook.

    Every run imports each ``pack.py`` (the registry lists the games, for ``--help``
    too), so it imports at its top only what listing the game needs; the rules and the
    core modules only they need load when a hook runs, and only the ones it uses.
    tests/test_architecture.py reads each ``_load("...")`` as an import of that module."""
    def load(module: str) -> ModuleType:
        return import_module(module if module.startswith("modtool.") else f"{package}.{module}")

    return load


def post_floor_refused(game: str) -> UserError:
    """The refusal of ``announce --floor/--upto-post`` (``modtool.api.Game.post(floor=)``)
    for a game whose posts are not cut at a floor (``GamePack.announce_upto``)."""
    from modtool.base.i18n import Listing, Message
    from modtool.core.registry import all_packs

    return UserError(Problem(Message("命令行 {option}", option="--floor/--upto-post"),
                             "这局游戏（{game}）的公告不按楼层或帖号截止：--floor/--upto-post 只用于 {games}（什么也没写）",
                             game=game, games=Listing([p.id for p in all_packs().values() if p.announce_upto])))


def unsupported(command: str, gd) -> UserError:
    """The refusal of a shared command the game of ``gd`` does not answer."""
    tr = words_for_language(get_pack(gd.game.id).language)
    able = [p.id for p in all_packs().values() if p.answers(command)]
    return UserError(Problem("", "这个命令目前只支持 {games}，这局是 {game}", language=get_pack(gd.game.id).language,
                             games=tr("、").join(able) or Message("（没有游戏）"), game=gd.game.id))

