"""Small mafia ledgers for the rule tests, written as a host's ``ledger.yaml``:
one home for what test_mafia_rules, _takeover and _wrong_results each wrote; and
the check every refused command shares (``refused``)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.support.values import run_cli


def post(n: int, author: str, body: str, day: int = 1, date: str | None = None) -> dict:
    """Post #n of ``day``'s vote thread, at 12:00 plus n minutes (on 2011-03-24 + day, or ``date``)."""
    return {"type": "post", "thread": "vote", "day": day, "floor": n, "author": author,
            "time": f"{date or f'2011-03-{24 + day}'} {12 + n // 60:02d}:{n % 60:02d}", "body": body}


def write_ledger(folder: Path, slots: list[str], events: list[dict], options: dict | None = None) -> Path:
    """``folder``/ledger.yaml: a mafia game of ``slots`` (name = account) and ``events``."""
    folder.mkdir(parents=True, exist_ok=True)
    lines = ["game: mafia", *([f"options: {json.dumps(options)}"] if options else []), "roster:"]
    lines += [f"  - {{name: {n}, account: {n}}}" for n in slots] + ["events:"]
    lines += ["  - " + json.dumps(e) for e in events]
    (folder / "ledger.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return folder


def ledger_text(folder: Path) -> str:
    """``folder``/ledger.yaml as it stands on disk."""
    return (folder / "ledger.yaml").read_text(encoding="utf-8")


def refused(capsys, folder: Path, *args) -> str:
    """``modtool ARGS…`` on the game in ``folder``, which must refuse (exit 1, nothing on
    stdout), say that nothing was written, and leave the ledger as it was; its stderr, for the words asserted."""
    before = ledger_text(folder)
    code, out, err = run_cli(capsys, *args)
    assert code == 1 and out == "" and "nothing was written" in err, (code, out, err)
    assert ledger_text(folder) == before
    return err
