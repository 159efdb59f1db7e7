"""The mafia pack's words, from a gettext message catalogue (stdlib ``gettext``).

English is the source language: every message is written in English as its
msgid and goes through ``_``. A translation is a catalogue in
``modtool/packs/mafia/locale/<lang>/LC_MESSAGES/modtool-mafia.mo``; with none
installed the English text is used. No message is chosen by ``if lang ==``.
"""

from __future__ import annotations

import gettext
from pathlib import Path

DOMAIN = "modtool-mafia"
_LOCALE = Path(__file__).resolve().parent / "locale"

_catalogue = gettext.translation(DOMAIN, _LOCALE, fallback=True)


def _(message: str) -> str:
    return _catalogue.gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    return _catalogue.ngettext(singular, plural, n)
