"""README's walk-through (导演的一天) runs as written on a clean copy.

The fenced blocks between ``<!-- walkthrough: start -->`` and ``<!-- walkthrough:
end -->`` run in order, in a temporary folder holding a copy of ``examples/``
(README says to run them at the repository's root), each ``modtool`` line in
process; every one must succeed. A ``yaml`` block is a step where the director
edits the ledger by hand: it is skipped, and only the ones named in
HAND_EDITS may exist (README should need none: each that becomes a command
is simply run, and its name leaves the list).
"""

from __future__ import annotations

import re
import shlex
import shutil
from pathlib import Path

from tests.support.values import run_main

ROOT = Path(__file__).resolve().parent.parent

# Steps still done by hand, by the event ``type`` they add to the ledger.
HAND_EDITS = {"close"}


def walkthrough_blocks(readme: str) -> list[tuple[str, str]]:
    """(language, body) of each fenced block of the walk-through, in order."""
    m = re.search(r"<!-- walkthrough: start\b.*?-->(.*?)<!-- walkthrough: end -->", readme, re.S)
    assert m, "README.md lost its walk-through markers"
    return re.findall(r"^```(\w*)\n(.*?)^```$", m.group(1), re.S | re.M)


def test_readme_walkthrough_runs_as_written(tmp_path, monkeypatch, capsys):
    blocks = walkthrough_blocks((ROOT / "README.md").read_text(encoding="utf-8"))
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    monkeypatch.chdir(tmp_path)
    hand_edits, ran = [], []
    for lang, body in blocks:
        if lang == "yaml":
            hand_edits += re.findall(r"type:\s*(\S+)", body)
            continue
        assert lang == "", f"a walk-through block in {lang!r} that the test cannot run"
        for line in body.splitlines():
            argv = shlex.split(line, comments=True)
            if not argv:
                continue
            assert argv[0] == "modtool", f"not a modtool command: {line}"
            code = run_main(argv[1:])
            out = capsys.readouterr()
            assert code == 0, f"{line}\n{out.err}"
            assert out.out.strip(), f"{line} printed nothing"
            ran.append(argv[1])
    assert set(hand_edits) <= HAND_EDITS, f"README asks for a new hand edit: {hand_edits}"
    assert len(hand_edits) <= len(HAND_EDITS)
    assert ran[0] == "new" and {"import", "tally", "announce", "check"} <= set(ran)
