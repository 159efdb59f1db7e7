"""Game packs: the one interface every game implements, and the registry.

This is the module ``modtool/core/registry.py`` (a plain module, not a package).

A *pack* is one game: its event schemas, its replay and checks, its
commands, its posts and their templates, and its data file. The core
(ledger, forum import, markup, rendering, schedule helpers, CLI shell,
gamefile, soundness) never names a game; it asks the pack of the ledger's
``game:`` through the hooks below. Only a pack may say ``if game is m42``.

Where packs come from (``all_packs``; ``modtool.core.entrypoints`` reads them):

- every pack, modtool's own included, is an entry point in the group
  ``modtool.games`` of its distribution, named by the game id, whose object
  is a ``GamePack`` instance (or a class/callable returning one). modtool's
  ``pyproject.toml`` declares m42, zhenhuan and mafia so; a club's
  distribution declares its game the same way::

      [project.entry-points."modtool.games"]
      jushou = "modtool_jushou.pack:PACK"

  (``examples/third-party-pack/`` is such a distribution, installable with pip);
- registered in process (tests): ``register(pack)`` / ``unregister(game_id)``.

modtool's own distribution's pack wins over another distribution's of the
same id (a club cannot shadow ``m42`` by accident), then the first on
``sys.path``. An installed pack that fails to load, or whose commands clash
(``modtool.cli.dispatch``), is refused: left out with its reason
(``refusals``), which ``get_pack`` gives for that game and the CLI tells.

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
``read_dump(text, …)``      a forum format the game brings (phpBB), or None
``known_account(gd, a)``    an account import knows beyond the roster
``import_notices(...)``     notices after an import (posts outside the day …)
``tally/status/announce/``  the shared commands, answered by this game; the
``act/advance``             default refuses ("only supported by …")
``command_apps()``          the pack's own commands (``typer.Typer`` apps
                            whose commands join the ``modtool`` app)
``writing_commands``        which of those write (they take the lock
                            exclusively)
==========================  ==================================================
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterable

from modtool.core.i18n import t
from modtool.core.problems import Problem, UserError

if TYPE_CHECKING:  # pragma: no cover
    from datetime import datetime

    from modtool.core.chart.model import VoteChart
    from modtool.core.clock import Window
    from modtool.core.gamefile import GameDir
    from modtool.core.games import Game
    from modtool.core.schema import Schema

from modtool.core.entrypoints import GROUP as ENTRY_POINT_GROUP  # "modtool.games"

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
    language: str = "zh"  # the core's messages for this game come in this language (modtool.core.i18n)
    writing_commands: frozenset[str] = frozenset()  # own commands that append to the ledger
    # Post numbers run on through the whole game (one phpBB topic): a post
    # without a pid is known by its thread and number alone, so importing it
    # again as another day is refused. False: each day's thread numbers its
    # floors afresh (Discuz games: a new thread per day).
    post_numbers_span_days: bool = False

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

    # Each of those event types as a director reads it, in the game's language
    # (``undo`` names what it took back); a type not here is named by the core.
    event_names: dict[str, str] = {}

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
            raise UserError(t("请用 --roster 给出名单文件"))
        return create_roster_game(game_dir, self.id, roster), []

    # --- rules ------------------------------------------------------------
    def replay_problems(self, gd: "GameDir") -> list[Problem]:
        """Replay the (well-formed) events; every problem the rules find."""
        return []

    # Event types that exist to change an announced result (a waived yellow): told, never refused (G-R2).
    corrections: frozenset = frozenset()

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
        time only inside it (``modtool.core.clock.now_in``)."""
        from modtool.core.clock import Window

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

    def read_dump(self, text: str, source: str, tz) -> tuple[list, list[Problem]] | None:
        """A forum dump in a format this game brings (e.g. phpBB topics):
        (posts, problems), or None when ``text`` is not one (the core's
        Discuz and plain-text readers then decide)."""
        return None

    def known_account(self, gd: "GameDir", account: str) -> bool:
        """An account ``import`` should not call "not in the roster" though no
        roster entry has it (e.g. a replacement recorded as a fact)."""
        return False

    def import_notices(self, gd: "GameDir", day: int, events: list[dict]) -> list[Problem]:
        """Told after ``import`` plans its events (it goes on regardless)."""
        return []

    # --- the shared commands (print with typer.echo; raise UserError) -----
    # ``now(at, option)`` gives a command's time: ``at`` as written, else the
    # wall clock inside ``phase_window``.
    def tally(self, game_dir: Path, gd: "GameDir", *, day: int | None, floor: int | None,
              at: str | None, close: str | None, as_json: bool) -> None:
        raise unsupported("tally", gd)

    def status(self, game_dir: Path, gd: "GameDir", *, as_json: bool) -> None:
        raise unsupported("status", gd)

    def chart(self, game_dir: Path, gd: "GameDir", *, day: int | None, floor: int | None,
              at: str | None, close: str | None) -> "VoteChart":
        """A day's votes as a ``modtool.core.chart.model.VoteChart``, from the same
        replay as the game's vote post (``modtool chart`` draws it)."""
        raise unsupported("chart", gd)

    def announce(self, game_dir: Path, gd: "GameDir", kind: str, fmt: str, *, options: dict,
                 now: Callable[[str | None, str], "datetime"]) -> None:
        """``options``: the command line's day, night, close, card, seat,
        character, told_at, title (None when not given)."""
        raise unsupported("announce", gd)

    def act(self, game_dir: Path, gd: "GameDir", actor: str, ability: str, targets: list[str], *,
            at: str | None, night: int | None, text: str | None,
            now: Callable[[str | None, str], "datetime"]) -> None:
        raise unsupported("act", gd)

    def advance(self, game_dir: Path, gd: "GameDir", *, at: str | None,
                now: Callable[[str | None, str], "datetime"]) -> None:
        raise unsupported("advance", gd)

    # --- the pack's own commands --------------------------------------------
    def command_apps(self) -> Iterable:
        """``typer.Typer`` apps holding this game's own commands."""
        return ()

    def answers(self, command: str) -> bool:
        """Does this pack answer the shared ``command`` (overrides its method)?"""
        return getattr(type(self), command) is not getattr(GamePack, command)


def unsupported(command: str, gd) -> UserError:
    """The refusal of a shared command the game of ``gd`` does not answer."""
    from modtool.core.i18n import words_for

    tr = words_for(gd.game.id)
    able = [p.id for p in all_packs().values() if p.answers(command)]
    return UserError(tr("这个命令目前只支持 {games}，这局是 {game}").format(
        games=tr("、").join(able) or tr("（没有游戏）"), game=gd.game.id))


# --- the registry -----------------------------------------------------------

_registered: dict[str, GamePack] = {}  # in process (tests)
_found: dict[str, GamePack] | None = None  # shipped and installed, found once
_refused: dict[str, tuple[str, dict]] = {}  # game id -> (message id, its fields): a pack that cannot join


def _pack_of(entry) -> GamePack:
    """The pack an entry point names: a ``GamePack`` instance, or a class/callable returning one."""
    obj = entry.load()
    pack = obj() if callable(obj) and not isinstance(obj, GamePack) else obj
    if not isinstance(pack, GamePack):
        raise TypeError(f"{entry.value} is not a modtool.core.registry.GamePack")
    if not pack.id:
        pack.id = entry.name
    return pack


def _shipped() -> dict[str, GamePack]:
    """modtool's own packs: its distribution's entry points (a bug of modtool when one fails)."""
    from modtool.core.entrypoints import own_entries

    packs: dict[str, GamePack] = {}
    for entry in sorted(own_entries(), key=lambda e: e.name):  # sorted: help lists them alike in every install
        pack = _pack_of(entry)
        packs[pack.id] = pack
    return packs


def _installed(shipped: dict[str, GamePack]) -> dict[str, GamePack]:
    """Other distributions' packs. One that fails to load, or names another id than
    its entry point, is refused (``refusals``), never a crash of every command."""
    from modtool.core.entrypoints import installed_entries

    packs: dict[str, GamePack] = {}
    for entry in installed_entries():
        if entry.name in shipped or entry.name in packs:
            continue  # modtool's own pack of that id wins; then the first distribution on sys.path
        try:
            pack = _pack_of(entry)
        except Exception as exc:  # noqa: BLE001 - someone else's code: told, not raised
            refuse(entry.name, "游戏包「{game}」（{dist}）没有载入：{error}",
                   dist=entry.dist, error=f"{type(exc).__name__}: {exc}")
            continue
        if pack.id != entry.name:
            refuse(entry.name, "游戏包「{game}」（{dist}）没有载入：入口点名为「{game}」，游戏包的 id 却是「{id}」",
                   dist=entry.dist, id=pack.id)
            continue
        pack.distribution = entry.dist
        packs[pack.id] = pack
    return packs


def refuse(game_id: str, message: str, **fields) -> None:
    """Leave the pack of ``game_id`` out, for the reason ``message`` (the core's
    Chinese message id; ``{game}`` and ``fields`` fill it in): ``get_pack`` then
    refuses that game with it, and the CLI tells it."""
    _refused[game_id] = (message, {"game": game_id, **fields})
    if _found is not None:
        _found.pop(game_id, None)
    _registered.pop(game_id, None)


def refusals() -> list[str]:
    """Why each refused pack was left out, in the language of the command running now."""
    return [t(message).format(**fields) for message, fields in _refused.values()]


def all_packs() -> dict[str, GamePack]:
    """Every known pack by id: shipped first (sorted), then installed, then registered."""
    global _found
    if _found is None:
        _found = _shipped()
        _found.update((gid, p) for gid, p in _installed(_found).items() if gid not in _refused)
    return {**_found, **{k: v for k, v in _registered.items() if k not in _found}}


def get_pack(game_id: str) -> GamePack:
    """The pack of ``game_id``; a user error naming the known games otherwise."""
    pack = all_packs().get(game_id)
    if pack is None and game_id in _refused:
        message, fields = _refused[game_id]
        raise UserError(t(message).format(**fields))
    if pack is None:
        raise UserError(t("未知的游戏「{game}」；可用的有：{games}").format(game=game_id, games=t("、").join(sorted(all_packs()))))
    return pack


def default_pack() -> GamePack:
    """The pack ``modtool new`` uses without ``--game``."""
    packs = all_packs()
    return next((p for p in packs.values() if p.default_for_new), next(iter(packs.values())))


def register(pack: GamePack) -> None:
    """Add a pack in this process (tests, embedding). Commands it brings join
    the CLI only if registered before ``modtool.cli.app`` is imported; use
    ``modtool.cli.app.add_pack_commands`` after."""
    _registered[pack.id] = pack


def unregister(game_id: str) -> None:
    _registered.pop(game_id, None)


def refresh() -> None:
    """Look for shipped and installed packs again on next use (tests that install one)."""
    global _found
    _found = None
    _refused.clear()
