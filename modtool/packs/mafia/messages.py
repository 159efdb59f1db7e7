"""The mafia pack's words, from a gettext message catalogue (stdlib ``gettext``).

English is the source language: every message is written in English as its
msgid and goes through ``_``. A translation is a catalogue in
``modtool/packs/mafia/locale/<lang>/LC_MESSAGES/modtool-mafia.mo``; with none
installed the English text is used. No message is chosen by ``if lang ==``.
"""

from __future__ import annotations

import gettext
from pathlib import Path

from modtool.sdk import Message

DOMAIN = "modtool-mafia"
_LOCALE = Path(__file__).resolve().parent / "locale"

_catalogue = gettext.translation(DOMAIN, _LOCALE, fallback=True)


def _(message: str) -> str:
    return _catalogue.gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    return _catalogue.ngettext(singular, plural, n)


class Msg(Message):
    """Words of this pack not translated yet: an English message id of this
    catalogue and its arguments, rendered only when shown (``modtool.base.i18n.Message``,
    whose catalogue is the core's). A problem the pack finds carries one:
    ``Problem(source, Msg("day {day} has not started", day=day))``."""

    __slots__ = ()

    def render(self, language: str | None = None) -> str:
        text = _catalogue.gettext(self.msgid)
        if not self.args:
            return text
        return text.format(**{k: v.render(language) if isinstance(v, Message) else v for k, v in self.args.items()})

    def __reduce__(self):
        return (Msg, (self.msgid, self.args._items))
