"""The core's words in the language of a game's pack.

The core speaks Chinese, the language of the games that came first: its
Chinese text is the message id. A pack in another language (``GamePack.language``,
e.g. "en" for the mafia pack) gets the core's words from the gettext catalogue
``modtool/locale/<language>/LC_MESSAGES/modtool.mo`` (compiled from the
``.po`` beside it; tests/test_i18n.py checks the two agree). A message missing
from the catalogue stays Chinese. No message is chosen by ``if language ==``.

Which language a command speaks (``language``): the game it opened; before
that (help, usage errors, a missing ledger), the game its command line names
(``--game X``, or a game folder whose ledger says ``game: X``); with neither,
the user's locale (``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``:
English when it is English, else Chinese). ``begin`` sets that start.
"""

from __future__ import annotations

import gettext
import os
import re
from functools import lru_cache
from pathlib import Path

DOMAIN = "modtool"
LOCALE = Path(__file__).resolve().parent.parent / "locale"


@lru_cache(maxsize=None)
def catalogue(language: str) -> gettext.NullTranslations:
    return gettext.translation(DOMAIN, LOCALE, languages=[language], fallback=True)


def words_for(game_id: str):
    """``tr(message)`` for the game ``game_id``: the core's message in its pack's language."""
    from modtool.core.registry import get_pack

    return catalogue(get_pack(game_id).language).gettext


def words_for_language(language: str):
    """``tr(message)`` in ``language`` (see ``words_for``)."""
    return catalogue(language).gettext


_start = "zh"  # the language of the command running now, until it opens a game
_GAME_LINE = re.compile(rb"(?m)^game:[ \t]*[\"']?([A-Za-z0-9_.-]+)")
_ENV = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


def _pack_language(game_id: str) -> str | None:
    from modtool.core.registry import get_pack
    from modtool.core.problems import UserError

    try:
        return get_pack(game_id).language
    except UserError:  # a game no pack knows: its error will say so
        return None


def _game_of_folder(arg: str) -> str | None:
    """The game a folder's ledger says it is (its ``game:`` line), read cheaply."""
    try:
        path = Path(arg)
        ledger = path / "ledger.yaml" if path.is_dir() else None
        if ledger is None or not ledger.is_file():
            return None
        with open(ledger, "rb") as f:
            head = f.read(65536)
    except (OSError, ValueError):
        return None
    m = _GAME_LINE.search(head)
    return m.group(1).decode("ascii") if m else None


def locale_language(environ=None) -> str:
    """The user's locale as one of the core's languages: "en" for English, else "zh"."""
    env = os.environ if environ is None else environ
    for key in _ENV:
        value = env.get(key, "")
        if value:
            first = value.split(":")[0]
            return "en" if first.split("_")[0].split(".")[0].lower() == "en" else "zh"
    return "zh"


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
            game = _game_of_folder(a)
            found = game and _pack_language(game)
            if found:
                return found
    return locale_language(environ)


def begin(args: list[str], environ=None) -> str:
    """A command starts: its language until it opens a game (``language``)."""
    global _start
    _start = language_of_command(args, environ)
    return _start


def language() -> str:
    """The language of the command running now: its game's once one is open."""
    from modtool.core import gamefile

    if gamefile.last_game_id:
        found = _pack_language(gamefile.last_game_id)
        if found:
            return found
    return _start


def t(message: str) -> str:
    """``message`` (the core's Chinese) in the language of the command running now."""
    return catalogue(language()).gettext(message)
