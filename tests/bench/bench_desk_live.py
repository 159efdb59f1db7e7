"""Benchmark: how soon the desk's page shows a change made by the command line
(issue 19: "the page shows a change made by either within a second or two").

A desk serves a copy of examples/m42 in this process; headless Chromium holds its day view open. Each round
gives a card with ``modtool card`` in a fresh process, then times from the
moment that process has exited (the director sees the command's answer) to the
moment the page's cards panel shows the card. Beside it, the baseline: the
same ``modtool cards`` a director would run to see it in the terminal (a fresh
process), so the figure is also a ratio. Median and worst of N rounds.

    .venv/bin/python tests/bench/bench_desk_live.py [--rounds 10]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from tests.support.cdp import Page  # noqa: E402
from tests.support.desk import copy_example, serving  # noqa: E402

REASONS = [f"刷屏{i}" for i in range(100)]


def modtool(*args: str) -> None:
    done = subprocess.run([sys.executable, "-m", "modtool", *args], capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(done.stderr)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=10)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = copy_example("m42", Path(tmp))
        page = Page()
        try:
            with serving(folder) as (desk, url):
                page.goto(url + "/g/m42/")
                lag, cli = [], []
                for i in range(args.rounds):
                    reason = REASONS[i]
                    modtool("card", str(folder), "金人凤", "blue", "--reason", reason, "--at", f"2026-11-05 20:{10 + i:02d}")
                    t0 = time.perf_counter()
                    page.wait(f"document.getElementById('panel-cards').innerText.includes({json.dumps(reason)})",
                              timeout=30, every=0.02)
                    lag.append(time.perf_counter() - t0)
                    t0 = time.perf_counter()
                    modtool("cards", str(folder))
                    cli.append(time.perf_counter() - t0)
        finally:
            page.close()
    print(f"rounds: {args.rounds}")
    print(f"page shows the CLI's card   median {statistics.median(lag):5.2f} s   worst {max(lag):5.2f} s   (bar: 'a second or two')")
    print(f"modtool cards (process)     median {statistics.median(cli):5.2f} s")
    print(f"ratio page / modtool cards  median {statistics.median(lag) / statistics.median(cli):5.2f}")


if __name__ == "__main__":
    main()
