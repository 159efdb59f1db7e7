"""The registry of game packs: the core asks it for a game by id and never
branches on one. The interface a pack implements is ``modtool.core.pack.GamePack``.

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
"""

from __future__ import annotations

from pathlib import Path

from modtool.base.i18n import Listing, t
from modtool.core.entrypoints import installed_entries, own_entries
from modtool.base.problems import UserError

from modtool.core.entrypoints import GROUP as ENTRY_POINT_GROUP  # "modtool.games"
# A modtool.core.pack.GamePack: not imported here, since the interface asks this registry.
Pack = object

# --- the registry -----------------------------------------------------------

_registered: dict[str, Pack] = {}  # in process (tests)
_found: dict[str, Pack] | None = None  # shipped and installed, found once
_refused: dict[str, tuple[str, dict]] = {}  # game id -> (message id, its fields): a pack that cannot join


def _pack_of(entry) -> Pack:
    """The pack an entry point names: a ``GamePack`` instance, or a class/callable returning one."""
    obj = entry.load()
    pack = obj() if callable(obj) else obj  # a GamePack, or a class/callable giving one
    if not all(hasattr(pack, hook) for hook in ("id", "language", "data_file", "event_schemas")):
        raise TypeError(f"{entry.value} is not a modtool.core.pack.GamePack")
    if not pack.id:
        pack.id = entry.name
    return pack


def _shipped() -> dict[str, Pack]:
    """modtool's own packs: its distribution's entry points (a bug of modtool when one fails)."""
    packs: dict[str, Pack] = {}
    for entry in sorted(own_entries(), key=lambda e: e.name):  # sorted: help lists them alike in every install
        pack = _pack_of(entry)
        packs[pack.id] = pack
    return packs


def _installed(shipped: dict[str, Pack]) -> dict[str, Pack]:
    """Other distributions' packs. One that fails to load, or names another id than
    its entry point, is refused (``refusals``), never a crash of every command."""
    packs: dict[str, Pack] = {}
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


def all_packs() -> dict[str, Pack]:
    """Every known pack by id: shipped first (sorted), then installed, then registered."""
    global _found
    if _found is None:
        _found = _shipped()
        _found.update((gid, p) for gid, p in _installed(_found).items() if gid not in _refused)
    return {**_found, **{k: v for k, v in _registered.items() if k not in _found}}


def get_pack(game_id: str) -> Pack:
    """The pack of ``game_id``; a user error naming the known games otherwise."""
    pack = all_packs().get(game_id)
    if pack is None and game_id in _refused:
        message, fields = _refused[game_id]
        raise UserError(message, args=fields)
    if pack is None:
        raise UserError("未知的游戏「{game}」；可用的有：{games}", game=game_id, games=Listing(sorted(all_packs())))
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
    _refused.clear()


def dump_formats() -> list:
    """Every forum format a known game brings (``GamePack.dump_formats``:
    ``modtool.forum.formats.DumpFormat``), in the order of the games, each id
    once: what the forum readers detect before their own (``brought``)."""
    out: list = []
    seen: set[str] = set()
    for pack in all_packs().values():
        for fmt in pack.dump_formats():
            if fmt.id not in seen:
                seen.add(fmt.id)
                out.append(fmt)
    return out
