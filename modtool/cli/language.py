"""The language a command line speaks before it opens a game.

In this order:

1. the game its command line names (``--game X``, or a game folder whose
   ledger says ``game: X``);
2. the games of its command: a pack's own command (``start-day``, the mafia
   pack's), or a shared one only some games answer (``act``: the Chinese
   games'), speaks the language of those games when they speak one, so its
   help is never an English text in a Chinese frame, or the reverse;
3. the game of the current folder, when it holds a game's ledger (``--help``
   inside a mafia game's folder is English);
4. the user's locale (``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``:
   English when it is English or C/POSIX, which names no language, else
   Chinese: ``modtool.base.i18n.locale_language``).

Once the command opens a game, the game's language takes over (``modtool.base.i18n``).
"""

from __future__ import annotations

from modtool.cli.dispatch import game_of_folder
from modtool.api import get_pack, locale_language, speak, UserError


def _pack_language(game_id: str) -> str | None:
    try:
        return get_pack(game_id).language
    except UserError:  # a game no pack knows: its error will say so
        return None


def language_of_command(args: list[str], environ=None, shared=()) -> str:
    """The language a command line speaks before it opens a game (see the module's text).
    ``shared``: the shared commands each pack answers or not (``modtool.cli.app``)."""
    for i, a in enumerate(args):
        game = args[i + 1] if a == "--game" and i + 1 < len(args) else a[7:] if a.startswith("--game=") else None
        if game:
            found = _pack_language(game)
            if found:
                return found
    for a in args:
        if not a.startswith("-"):
            game = game_of_folder(a)
            found = game and _pack_language(game)
            if found:
                return found
    verb = next((a for a in args if not a.startswith("-")), None)
    found = verb and _command_language(verb, shared)
    if found:
        return found
    game = game_of_folder(".")
    found = game and _pack_language(game)
    return found or locale_language(environ)


def _command_language(verb: str, shared) -> str | None:
    """The language of the games that have command ``verb`` (their own, or a shared
    command only they answer, as ``act``), when they all speak one."""
    from modtool.api import all_packs

    spoken = set()
    for pack in all_packs().values():
        try:
            if any(c.name == verb for c in pack.commands()) or verb in shared and pack.answers(verb):
                spoken.add(pack.language)
        except Exception:  # noqa: BLE001 - a pack's commands() failing is told when it joins (modtool.cli.app)
            continue
    return spoken.pop() if len(spoken) == 1 else None


def begin(args: list[str], environ=None, shared=()) -> str:
    """A command starts: it speaks the language of its command line until it opens a game."""
    language = language_of_command(args, environ, shared)
    speak(language)
    return language
