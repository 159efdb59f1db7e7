"""The language a command line speaks before it opens a game.

The game its command line names (``--game X``, or a game folder whose ledger
says ``game: X``); with neither, the user's locale (``LANGUAGE``, ``LC_ALL``,
``LC_MESSAGES``, ``LANG``: English when it is English, else Chinese). Once the
command opens a game, the game's language takes over (``modtool.core.i18n``).
"""

from __future__ import annotations

from modtool.cli.dispatch import game_of_folder
from modtool.core import i18n
from modtool.core.problems import UserError
from modtool.core.registry import get_pack


def _pack_language(game_id: str) -> str | None:
    try:
        return get_pack(game_id).language
    except UserError:  # a game no pack knows: its error will say so
        return None


def language_of_command(args: list[str], environ=None) -> str:
    """The language a command line speaks before it opens a game (see the module's text)."""
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
    return i18n.locale_language(environ)


def begin(args: list[str], environ=None) -> str:
    """A command starts: it speaks the language of its command line until it opens a game."""
    language = language_of_command(args, environ)
    i18n.speak(language)
    return language
