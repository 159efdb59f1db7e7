"""modtool.sdk.testing: what a pack's tests import.

    from modtool.sdk.testing import run, use_pack, new_game

``run("tally", folder, "--day", 1)`` runs modtool's own command line in this
process, as a director types it, and returns a ``Result`` (exit code, stdout,
stderr), as click's ``CliRunner`` does; ``use_pack(PACK)`` makes a pack known
to this process when it is not installed (a test run from the pack's source
folder); ``new_game(folder, game, roster=…)`` starts a game by ``modtool new``;
``copy_example(name, into)`` copies one of modtool's example games from a
source checkout.

This module sits with the front ends (it drives the command line): a pack's
own code imports ``modtool.sdk``, never this.
"""

from __future__ import annotations

import io
import shutil
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass
from pathlib import Path

from modtool.core import registry

__all__ = ["Result", "copy_example", "new_game", "run", "use_pack"]

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"  # in a source checkout


@dataclass(frozen=True)
class Result:
    """One command's outcome: ``exit_code`` (0 fine, 1 refused, 2 usage),
    and what it printed on ``stdout`` and ``stderr``."""

    exit_code: int
    stdout: str
    stderr: str


def _forget() -> None:
    """Forget what this process remembers of ledgers and games, as a new command would."""
    from modtool.core import gamefile  # lazy: the ledger's readers, only when a command runs
    from modtool.ledger import _store

    _store._memo.clear()
    gamefile._opened.clear()


def run(*args) -> Result:
    """``modtool ARGS…`` in this process as a fresh command (paths and numbers
    may be given as they are; each is passed as its ``str``)."""
    from modtool.cli.app import main  # lazy: the command tree, only when a command runs

    _forget()
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        try:
            main([str(a) for a in args])
            code = 0
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    return Result(code, out.getvalue(), err.getvalue())


def use_pack(pack):
    """``pack`` known to this process (registered unless a pack of its id is): the
    one the registry then gives for its id."""
    if pack.id not in registry.all_packs():
        registry.register(pack)
    return registry.get_pack(pack.id)


def new_game(folder: str | Path, game: str, *, roster: str | Path | None = None, **options) -> Path:
    """A new game in ``folder`` by ``modtool new`` (``options``: its own, e.g.
    ``seed=7``); refused: ``RuntimeError`` with what the command said (a test's
    set-up that fails is the developer's to read, in English)."""
    args = ["new", folder, "--game", game, *(["--roster", roster] if roster is not None else [])]
    for name, value in options.items():
        args += [f"--{name.replace('_', '-')}", value]
    done = run(*args)
    if done.exit_code:
        raise RuntimeError(f"modtool new refused ({done.exit_code}): {(done.stderr or done.stdout).strip()}")
    return Path(folder)


def copy_example(name: str, into: str | Path) -> Path:
    """modtool's example game ``name`` (``examples/<name>`` of a source checkout)
    copied to ``into/<name>``, its saved desk state left behind."""
    source = EXAMPLES / name
    if not (source / "ledger.yaml").is_file():
        raise FileNotFoundError(f"no example game {name!r} in {EXAMPLES} (the examples are in modtool's source tree)")
    target = Path(into) / name
    shutil.copytree(source, target, ignore=shutil.ignore_patterns(".modtool"))
    return target
