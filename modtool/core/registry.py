"""The registry of game packs: the core asks it for a game by id and never
branches on one. The interface a pack implements is ``modtool.core.pack.GamePack``.

Where packs come from (``all_packs``):

- shipped with modtool: every ``modtool/<name>/pack.py`` holding ``PACK``
  (a ``GamePack`` instance); adding ``modtool/packs/mafia/pack.py`` is enough;
- installed by another distribution: an entry point in the group
  ``modtool.games`` whose name is the game id and whose object is a
  ``GamePack`` instance (or a class/callable returning one), e.g. in that
  distribution's ``pyproject.toml``::

      [project.entry-points."modtool.games"]
      werewolf9 = "club_werewolf.pack:PACK"

- registered in process (tests): ``register(pack)`` / ``unregister(game_id)``.

A shipped pack wins over an installed one of the same id (a club cannot
shadow ``m42`` by accident).

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
``new_game(...)``           ``modtool new``: write the ledger, return warnings
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

from modtool.core.i18n import t
from modtool.core.problems import UserError

ENTRY_POINT_GROUP = "modtool.games"
# A modtool.core.pack.GamePack: not imported here, since the interface asks this registry.
Pack = object

# --- the registry -----------------------------------------------------------

_PACKS = Path(__file__).resolve().parent.parent / "packs"
_registered: dict[str, Pack] = {}  # in process (tests)
_found: dict[str, Pack] | None = None  # shipped and installed, found once


def _shipped() -> dict:
    import importlib

    packs: dict[str, Pack] = {}
    for sub in sorted(p.parent.name for p in _PACKS.glob("*/pack.py")):
        pack = importlib.import_module(f"modtool.packs.{sub}.pack").PACK
        packs[pack.id] = pack
    return packs


def _declares_packs() -> bool:
    """Does any distribution on sys.path declare the entry-point group? A look
    at the small ``entry_points.txt`` files, so that modtool's start-up does
    not pay for importlib.metadata (~20 ms) when none does (the usual case)."""
    import os
    import sys

    for entry in sys.path:
        try:
            names = os.listdir(entry or ".")
        except OSError:
            continue  # a zip file or a folder gone: importlib.metadata decides below only if another says yes
        for name in names:
            if name.endswith((".dist-info", ".egg-info")):
                try:
                    with open(os.path.join(entry or ".", name, "entry_points.txt"), encoding="utf-8") as f:
                        if ENTRY_POINT_GROUP in f.read():
                            return True
                except (OSError, UnicodeDecodeError):
                    continue
    return False


def _installed() -> dict[str, Pack]:
    if not _declares_packs():
        return {}
    from importlib.metadata import entry_points

    packs: dict[str, Pack] = {}
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        obj = ep.load()
        pack = obj() if callable(obj) else obj  # a GamePack, or a class/callable giving one
        if not pack.id:
            pack.id = ep.name
        packs[pack.id] = pack
    return packs


def all_packs() -> dict[str, Pack]:
    """Every known pack by id: shipped first (sorted), then installed, then registered."""
    global _found
    if _found is None:
        _found = _shipped()
        for game_id, pack in _installed().items():
            _found.setdefault(game_id, pack)  # a shipped pack wins
    return {**_found, **{k: v for k, v in _registered.items() if k not in _found}}


def get_pack(game_id: str) -> Pack:
    """The pack of ``game_id``; a user error naming the known games otherwise."""
    pack = all_packs().get(game_id)
    if pack is None:
        raise UserError(t("未知的游戏「{game}」；可用的有：{games}").format(game=game_id, games=t("、").join(sorted(all_packs()))))
    return pack


def default_pack() -> Pack:
    """The pack ``modtool new`` uses without ``--game``."""
    packs = all_packs()
    return next((p for p in packs.values() if p.default_for_new), next(iter(packs.values())))


def register(pack: Pack) -> None:
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
