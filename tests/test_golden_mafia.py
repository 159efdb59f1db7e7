"""Golden outputs of every reading command over examples/mafia and Game 1145 (tests/support/golden.py).

Game 1145 has no committed ledger: examples/mafia-1145/build.sh builds it from
the shared real posts beside the repository (../shared/real/mafiascum/), its
commands served in this process (tests/support/inprocess.py). Its cases are
skipped where those posts are not. The build's own output (two dozen writing
commands of the mafia pack: new, death, start-day, deadline, import, replace,
alias, announce) is a case too, with the built ledger's digest and its lines
other than the posts.
"""

from __future__ import annotations

import hashlib
import subprocess

import pytest

from tests.support import golden
from tests.support.golden_cases import READING
from tests.support.inprocess import modtool_server

REAL = golden.ROOT.parent / "shared" / "real" / "mafiascum"
MAFIA = READING["mafia"]
GAME_1145 = READING["mafia-1145"]


@pytest.fixture(scope="module")
def work(tmp_path_factory):
    return golden.copy_examples(tmp_path_factory.mktemp("golden"), "mafia")


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """(the folder holding examples/mafia-1145 as build.sh builds it, the build's rendering)."""
    if not (REAL / "game1145-day1-posts0-292.jsonl").is_file():
        pytest.skip(f"the shared real posts are not at {REAL}")
    work = tmp_path_factory.mktemp("golden")
    target = work / "examples" / "mafia-1145"
    script = "examples/mafia-1145/build.sh"
    # The script's commands run in this process (not two dozen start-ups), on the frozen clock.
    with pytest.MonkeyPatch.context() as monkeypatch, modtool_server() as shim:
        golden.freeze(monkeypatch)
        done = subprocess.run(["bash", script, str(target)], capture_output=True, text=True, cwd=golden.ROOT,
                              env={"MODTOOL": shim["MODTOOL"], "MODTOOL_SHIM": shim["MODTOOL_SHIM"],
                                   "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"}, timeout=300)
    data = (target / "ledger.yaml").read_bytes()
    facts = [line for line in data.decode("utf-8").splitlines(keepends=True) if '{"type":"post"' not in line]
    text = (f"$ bash {script} {target}\nexit {done.returncode}\n"
            + golden.section("stdout", done.stdout) + golden.section("stderr", done.stderr)
            + f"--- ledger.yaml: {len(data)} bytes, sha256 {hashlib.sha256(data).hexdigest()}; its lines but the posts:\n"
            + "".join(facts))
    return work, text.replace(str(work), "<TMP>")


@pytest.mark.parametrize("case", MAFIA, ids=golden.ids(MAFIA))
def test_output_is_unchanged(case, work, capsys, monkeypatch):
    golden.run_case(case, capsys, monkeypatch, work)


def test_game_1145_builds_as_before(built):
    golden.compare(golden.BUILD_1145, built[1])


@pytest.mark.parametrize("case", GAME_1145, ids=golden.ids(GAME_1145))
def test_game_1145_output_is_unchanged(case, built, capsys, monkeypatch):
    golden.run_case(case, capsys, monkeypatch, built[0])
