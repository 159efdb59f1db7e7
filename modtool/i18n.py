"""The core's words in the language of a game's pack.

The core speaks Chinese, the language of the games that came first: its
Chinese text is the message id. A pack in another language (``GamePack.language``,
e.g. "en" for the mafia pack) gets the core's words from the gettext catalogue
``modtool/locale/<language>/LC_MESSAGES/modtool.mo`` (compiled from the
``.po`` beside it; tests/test_i18n.py checks the two agree). A message missing
from the catalogue stays Chinese. No message is chosen by ``if language ==``.
"""

from __future__ import annotations

import gettext
from functools import lru_cache
from pathlib import Path

DOMAIN = "modtool"
LOCALE = Path(__file__).resolve().parent / "locale"


@lru_cache(maxsize=None)
def catalogue(language: str) -> gettext.NullTranslations:
    return gettext.translation(DOMAIN, LOCALE, languages=[language], fallback=True)


def words_for(game_id: str):
    """``tr(message)`` for the game ``game_id``: the core's message in its pack's language."""
    from modtool.packs import get_pack

    return catalogue(get_pack(game_id).language).gettext


def words_for_language(language: str):
    """``tr(message)`` in ``language`` (see ``words_for``)."""
    return catalogue(language).gettext
