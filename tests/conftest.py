"""Shared fixtures: a game folder written from text inline in the test (as beancount's load_doc)."""

from __future__ import annotations

import os
import signal
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# modtool speaks the user's locale before it knows the game (modtool.base.i18n):
# the suite runs in a Chinese one, whatever the machine's, so that a command
# without a game speaks Chinese here (tests that want English set it; a C or
# POSIX locale speaks English: tests/test_language_first_keystroke.py).
for _key in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
    os.environ.pop(_key, None)
os.environ["LANG"] = "zh_CN.UTF-8"

# A suite started in the background of a shell without job control (`pytest &` in a
# script) inherits SIGINT ignored, and so would every modtool it starts: the Ctrl-C
# tests need Ctrl-C as a terminal gives it. A Python handler here (not SIG_IGN)
# is reset to the default in each process the suite starts.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

# The bundled example's 13 characters (examples/m42/roster.yaml), roles fixed.
M42_ROSTER = """\
roster:
  - {name: 涂山苏苏, account: 苏苏今天也很努力, aliases: [苏苏], role: villager}
  - {name: 白月初, account: 月初不是白, role: villager}
  - {name: 涂山红红, account: 红红的红, aliases: [红红], role: seer}
  - {name: 东方月初, account: 东方不败月, role: villager}
  - {name: 涂山雅雅, account: 雅雅女王, aliases: [雅雅], role: villager}
  - {name: 王权富贵, account: 富贵不能淫, aliases: [富贵], role: hunter}
  - {name: 东方淮竹, account: 淮竹清风, aliases: [淮竹], role: scapegoat}
  - {name: 王权霸业, account: 霸业未成, role: werewolf}
  - {name: 涂山容容, account: 容容的算盘, aliases: [容容], role: witch}
  - {name: 东方秦兰, account: 秦兰兰, aliases: [秦兰], role: villager}
  - {name: 石宽, account: 石头宽宽, role: werewolf}
  - {name: 李去浊, account: 去浊留清, role: werewolf}
  - {name: 金人凤, account: 金凤凰, role: werewolf}
"""


def write_game(tmp_path: Path, events: str, header: str = "game: m42\nseed: 1\n") -> Path:
    """A game folder whose ledger is ``header`` + the M42 roster + ``events``."""
    game = tmp_path / "game"
    game.mkdir(exist_ok=True)
    text = header + M42_ROSTER + "events:\n" + textwrap.indent(textwrap.dedent(events).strip("\n") + "\n", "  ")
    (game / "ledger.yaml").write_text(text, encoding="utf-8")
    return game


@pytest.fixture
def m42_game(tmp_path):
    return lambda events, **kw: write_game(tmp_path, events, **kw)


@pytest.fixture(autouse=True)
def _a_fresh_command_language():
    """Each test starts as a new command would: no game open yet, the
    neutral locale's language (modtool.base.i18n; the CLI resets both per command)."""
    from modtool.cli.language import begin

    begin([])
    yield


def pytest_collection_modifyitems(config, items):
    """Every property test is marked ``fuzz``: the default run tries a quarter of
    its examples (tests/support/fuzz.py), and ``.ci/run`` runs them all again at
    full count (``MODTOOL_FUZZ=full .venv/bin/pytest -m fuzz``)."""
    from hypothesis import is_hypothesis_test

    for item in items:
        if is_hypothesis_test(getattr(item, "obj", None)):
            item.add_marker(pytest.mark.fuzz)
