"""modtool as a library: open a game folder, ask it questions, record facts.

The command line (``modtool.cli``) and the web desk (``modtool.desk``) use
this door and no other (tests/test_architecture.py); a bot or a notebook
uses it too. Every answer is a value (``modtool.core.view.View``: ``text`` as
the command prints it, ``to_json()`` as ``--json`` prints it); nothing here
prints. A failure is a ``UserError`` whose ``problems`` are values with their
place (ledger line, post floor), in the game's language.

    >>> from modtool import api
    >>> game = api.open_game("examples/m42")
    >>> game.language
    'zh'
    >>> tally = game.tally(day=2, floor=15)
    >>> tally.to_json()["day"]
    2
    >>> print(game.post("vote", day=1).text.splitlines()[0])
    [b]M42『狐妖小红娘』 第 1 天投票结果（警长竞选）[/b]

Queries answer what the game's pack answers (a pack that does not answer one
raises ``UserError`` saying which games do). ``record`` appends facts through
the one write guard every command uses (``modtool.core.announced.record``): a
damaged ledger, a change that would damage it, or one that changes a result
the forum has read without ``force=True`` (G-R2) is refused, writing nothing.
``command`` runs one of the game's own commands (declared as data by its
pack) with the command's own argument checks too, and returns its answer.

Words come in the game's language inside each call, and the caller's language
(``modtool.base.i18n``) is back as it was after it.

Beside the game, what a front end needs for one run of a command, named here
so that it reaches nothing below: the games known (``all_packs``, ``get_pack``,
``default_pack``, ``refusals``, ``refuse_pack``), the words (``speaking``,
``language``, ``speak``, ``locale_language``, ``catalogue``, ``LOCALE``), the
folder's lock (``session``, ``unheld``, ``EXCLUSIVE``, ``SHARED``), what the run
wrote (``command_run``, ``appended``, ``written``, ``not_counted``), the G-R2
guard's ``confirmed``, and the shared vocabularies (``THREADS``, ``FORMATS``,
``FORMAT_ALIASES``, ``NEW_OPTIONS``). Every name loads on first use (PEP 562),
so ``modtool --help`` pays for none of the ledger, the forum readers or the
replay.
"""

from __future__ import annotations

from importlib import import_module

NAMES: dict[str, tuple[str, str]] = {
    # The game folder (modtool.api.game)
    "Game": ("modtool.api.game", "Game"),
    "Recorded": ("modtool.api.game", "Recorded"),
    "Upgraded": ("modtool.api.game", "Upgraded"),
    "open_game": ("modtool.api.game", "open_game"),
    "new_game": ("modtool.api.game", "new_game"),
    "start_game": ("modtool.api.game", "start_game"),
    "check_folder": ("modtool.api.game", "check_folder"),
    "upgrade_folder": ("modtool.api.game", "upgrade_folder"),
    "restore_folder": ("modtool.api.game", "restore_folder"),
    # Answers and problems
    "Problem": ("modtool.base.problems", "Problem"),
    "UserError": ("modtool.base.problems", "UserError"),
    "RecordedRefusal": ("modtool.base.problems", "RecordedRefusal"),
    "told": ("modtool.base.problems", "told"),
    "Query": ("modtool.core.view", "Query"),
    "View": ("modtool.core.view", "View"),
    "Said": ("modtool.core.command", "Said"),
    "Command": ("modtool.core.command", "Command"),
    "Param": ("modtool.core.command", "Param"),
    "REQUIRED": ("modtool.core.command", "REQUIRED"),
    "post_floor_refused": ("modtool.core.pack", "post_floor_refused"),
    # The games known
    "all_packs": ("modtool.core.registry", "all_packs"),
    "get_pack": ("modtool.core.registry", "get_pack"),
    "default_pack": ("modtool.core.registry", "default_pack"),
    "refusals": ("modtool.core.registry", "refusals"),
    "refuse_pack": ("modtool.core.registry", "refuse"),
    "NEW_OPTIONS": ("modtool.core.pack", "NEW_OPTIONS"),
    "THREADS": ("modtool.core.schema", "THREADS"),
    "FORMATS": ("modtool.core.render", "FORMATS"),
    "FORMAT_ALIASES": ("modtool.core.render", "FORMAT_ALIASES"),
    "require_chart": ("modtool.core.chart", "require"),
    # Words
    "t": ("modtool.base.i18n", "t"),
    "Message": ("modtool.base.i18n", "Message"),
    "Listing": ("modtool.base.i18n", "Listing"),
    "speaking": ("modtool.base.i18n", "speaking"),
    "speak": ("modtool.base.i18n", "speak"),
    "language": ("modtool.base.i18n", "language"),
    "locale_language": ("modtool.base.i18n", "locale_language"),
    "catalogue": ("modtool.base.i18n", "catalogue"),
    "LOCALE": ("modtool.base.i18n", "LOCALE"),
    # One run of a command: the folder's lock, what it wrote, the G-R2 guard
    "session": ("modtool.ledger._lock", "session"),
    "unheld": ("modtool.ledger._lock", "unheld"),
    "EXCLUSIVE": ("modtool.ledger._lock", "EXCLUSIVE"),
    "SHARED": ("modtool.ledger._lock", "SHARED"),
    "command_run": ("modtool.api.run", "command_run"),
    "appended": ("modtool.api.run", "appended"),
    "written": ("modtool.api.run", "written"),
    "not_counted": ("modtool.api.run", "not_counted"),
    "confirmed": ("modtool.core.announced", "confirmed"),
    "__version__": ("modtool", "__version__"),
}

__all__ = sorted(n for n in NAMES if not n.startswith("_"))


def __getattr__(name: str):
    home = NAMES.get(name)
    if home is None:
        raise AttributeError(f"modtool.api has no {name!r}")
    value = getattr(import_module(home[0]), home[1])
    globals()[name] = value  # loaded once
    return value


def __dir__() -> list[str]:
    return __all__
