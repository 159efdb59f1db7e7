"""The core's words in the language of a game's pack.

The core speaks Chinese, the language of the games that came first: its
Chinese text is the message id. A pack in another language (``GamePack.language``,
e.g. "en" for the mafia pack) gets the core's words from the gettext catalogue
``modtool/locale/<language>/LC_MESSAGES/modtool.mo`` (compiled from the
``.po`` beside it; tests/test_i18n.py checks the two agree). A message missing
from the catalogue stays Chinese. No message is chosen by ``if language ==``.

The language words come in is a context variable, not a global "current game":
``speaking(language)`` (or ``speak``) sets it for the code that runs inside it,
and ``t`` reads it. Opening a game speaks its pack's language
(``modtool.core.gamefile.open_game``); before that the command line decides
(``modtool.cli.language``). This module imports nothing of modtool's: it sits
at the bottom of the import graph.
"""

from __future__ import annotations

import gettext
import os
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache
from pathlib import Path

DOMAIN = "modtool"
LOCALE = Path(__file__).resolve().parent.parent / "locale"
LANGUAGES = ("zh", "en")  # the core's languages: Chinese (the message ids) and English

_language: ContextVar[str] = ContextVar("modtool_language", default="zh")
_ENV = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


@lru_cache(maxsize=None)
def catalogue(language: str) -> gettext.NullTranslations:
    return gettext.translation(DOMAIN, LOCALE, languages=[language], fallback=True)


def words_for_language(language: str):
    """``tr(message)``: the core's ``message`` in ``language``."""
    return catalogue(language).gettext


def language() -> str:
    """The language words come in here (see the module's text)."""
    return _language.get()


def speak(language: str) -> None:
    """Words from here on, in this context, come in ``language``."""
    _language.set(language)


@contextmanager
def speaking(language: str):
    """Words inside the ``with`` come in ``language``; the one before comes back after."""
    token = _language.set(language)
    try:
        yield
    finally:
        _language.reset(token)


def locale_language(environ=None) -> str:
    """The user's locale as one of the core's languages: "en" for English, else "zh"."""
    env = os.environ if environ is None else environ
    for key in _ENV:
        value = env.get(key, "")
        if value:
            first = value.split(":")[0]
            return "en" if first.split("_")[0].split(".")[0].lower() == "en" else "zh"
    return "zh"


def t(message: str) -> str:
    """``message`` (the core's Chinese) in the language words come in here."""
    return catalogue(_language.get()).gettext(message)
