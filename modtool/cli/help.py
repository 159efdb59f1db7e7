"""The command tree a command line runs, in the language it speaks.

typer builds the click commands from the functions in ``modtool.cli.app`` and the
packs' apps; their help texts are written in Chinese (a pack in another
language writes its own in that language). ``command_tree`` builds the tree
for one run and passes every help text through the core's catalogue of the
run's language (``modtool.base.i18n``): an English-speaking host reads the shared
commands in English. Commands no game of that language has (a pack's own
commands in another language, a shared command only such packs answer) are
left out of the listing; they still run. Help computed from the packs (the
games of ``new --game``, the post kinds of ``announce``) is computed again in
that language.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from modtool.cli.words import words
from modtool.api import catalogue


def command_tree(app, language: str, listed: Callable[[str, str], bool],
                 computed: dict[tuple[str, str | None], Callable]):
    """The click group of ``app`` in ``language``.

    ``listed(command, language)``: is the command for a game of that language.
    ``computed``: (command, parameter name or None for the epilog) ->
    ``f(tr, language)`` giving that help."""
    import typer.main

    tr = catalogue(language).gettext
    group = typer.main.get_command(app)
    _localise(group, tr)

    for p in group.params:  # typer's completion options: fixed English help, no gettext call of typer's
        if p.name in ("install_completion", "show_completion") and getattr(p, "help", None):
            p.help = words(p.help)
    for name, cmd in getattr(group, "commands", {}).items():
        if not listed(name, language):
            cmd.hidden = True
        _localise(cmd, tr)
        for p in cmd.params:
            make = computed.get((name, p.name))
            if make is not None:
                p.help = make(tr, language)
        make = computed.get((name, None))
        if make is not None:
            cmd.epilog = make(tr, language)
    return group


_EXAMPLES = re.compile(r"(?m)^([ \t]*)Examples:[ \t]*$")


def _localise(cmd, tr) -> None:
    if cmd.help:
        # The help texts' "Examples:" heading is click's kind of word: in the command's language.
        cmd.help = _EXAMPLES.sub(lambda m: m.group(1) + words("Examples:"), tr(cmd.help))
    if cmd.short_help:
        cmd.short_help = tr(cmd.short_help)
    for p in cmd.params:
        if getattr(p, "help", None):
            p.help = tr(p.help)
