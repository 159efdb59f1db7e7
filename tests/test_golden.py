"""Golden outputs: every command's text and ``--json`` output over every example game,
byte for byte as stored under tests/golden/ (a safety net for refactors that
must change nothing; the machinery is tests/support/golden.py, the cases
tests/support/golden_cases.py).

Regenerate after a change that is meant, and review the diff:

    MODTOOL_GOLDEN=update .venv/bin/pytest tests/test_golden*.py

(it also deletes a stored file no case writes any more; a normal run fails on one).

This module: ``--help`` of every command in English and Chinese, without a game
and in each game's folder; writing commands (act, advance, announce's notices,
card, import, undo and the packs' own) on a fresh copy of an example, with
their output and what they did to the ledger; and the check that every
stored file belongs to a case. The reading commands of each game are in
tests/test_golden_<game>.py, one module per game so that ``--dist loadfile``
spreads them over the workers.

Covered: examples/m42, m42-discipline, m42-full, zhenhuan, mafia, and Game
1145 (examples/mafia-1145 builds it from the shared real posts; skipped
without them). Not covered: examples/third-party-pack (its pack joins only
when installed as a distribution, which tests/test_third_party_pack.py does
in the slow tier, and it has no ledger of its own), ``chart`` and
``grimoire --png`` (pictures, drawn by matplotlib and Chromium) and
``serve`` (a web server; the desk has its own tests).
"""

from __future__ import annotations

import pytest

from tests.support import golden
from tests.support.golden_cases import READING, SCRIPTS, help_cases

HELP = help_cases()


@pytest.fixture(scope="module")
def work(tmp_path_factory):
    return golden.copy_examples(tmp_path_factory.mktemp("golden"), "m42", "zhenhuan", "mafia")


@pytest.mark.parametrize("case", HELP, ids=golden.ids(HELP))
def test_help_is_unchanged(case, work, capsys, monkeypatch):
    golden.run_case(case, capsys, monkeypatch, work)


@pytest.mark.parametrize("script", SCRIPTS, ids=golden.ids(SCRIPTS))
def test_writing_commands_print_and_write_as_before(script, tmp_path, capsys, monkeypatch):
    golden.run_script(script, capsys, monkeypatch, tmp_path)


def test_every_stored_output_has_a_case():
    """A stored file no case writes is a command a change lost (or a case removed: delete its file)."""
    cases = {c.id for c in HELP + SCRIPTS} | {c.id for game in READING.values() for c in game}
    cases.add(str(golden.BUILD_1145.relative_to(golden.GOLDEN)))
    orphans = sorted(golden.stored_files() - cases)
    if golden.UPDATE:
        for orphan in orphans:
            (golden.GOLDEN / orphan).unlink()
        return
    assert not orphans, f"stored golden files without a case (the update run deletes them): {orphans}"
