"""click's and typer's own words in help and usage errors, in the command's language.

The commands' help texts are Chinese (English for an English game,
``modtool.base.i18n``); the frame click and typer put around them (``Usage:``,
``Options``, ``[required]``, ``Show this message and exit.``, range errors)
is English. Every click 8.x and typer module asks the standard library for
those words (``from gettext import gettext as _``, ``ngettext``): the
module-level ``gettext.gettext`` looks the message up in the global domain
(``gettext.textdomain``), in the folder bound to it (``bindtextdomain``), in
the language the environment names (``LANGUAGE`` first, as GNU gettext).
So ``install(language)`` binds the domain ``click`` to modtool's catalogues
(``modtool/locale/zh/LC_MESSAGES/click.po``, compiled by
``modtool.base.i18n_compile``), makes it the global domain and names the
command's language in ``LANGUAGE``; ``restore()`` puts back what was there, so
the next command in the same process reads the user's own locale
(``modtool.base.i18n.locale_language``). English has no ``click`` catalogue: an
English command reads click's own words. A word missing from the catalogue
stays as click wrote it.

Why the environment and not a catalogue object: the stdlib's global functions
(the ones click imports) take the language from nowhere else, and modtool's
language is the game's, not the user's locale.

The help of typer's two completion options is fixed text, not a gettext
call: ``modtool.cli.help`` passes it through ``gettext.gettext`` itself.
"""

from __future__ import annotations

import gettext
import os

from modtool.api import LOCALE

DOMAIN = "click"
_saved: list[tuple[str | None, str]] = []  # (LANGUAGE, global domain) before install


def install(language: str = "zh") -> None:
    """click's and typer's words in ``language`` from now until ``restore()``."""
    _saved.append((os.environ.get("LANGUAGE"), gettext.textdomain()))
    gettext.bindtextdomain(DOMAIN, str(LOCALE))
    gettext.textdomain(DOMAIN)
    os.environ["LANGUAGE"] = language


def restore() -> None:
    """The environment's language and the global domain as they were before ``install``."""
    if not _saved:
        return
    language, domain = _saved.pop()
    if language is None:
        os.environ.pop("LANGUAGE", None)
    else:
        os.environ["LANGUAGE"] = language
    gettext.textdomain(domain)


def words(message: str) -> str:
    """``message`` (click's or typer's English) in the installed language."""
    return gettext.gettext(message)
