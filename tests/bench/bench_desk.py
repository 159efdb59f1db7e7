"""Benchmark: the desk's day view (``modtool serve``) of the 5,000-vote ledger,
next to ``modtool tally`` on that ledger.

Bar (issue 19): the day view renders within 1.5× the time of ``modtool tally``.
``modtool tally`` runs as a fresh process (what a director waits for at the
prompt); the day view is one GET of the page from a desk already serving the
folder (what the page waits for after a change): status, tally, the game's own
queries and the checks, rendered. Best of N each; the ratio is what counts.

    .venv/bin/python tests/bench/bench_desk.py [--repeat 7]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from tests.bench.bench_tally import best  # noqa: E402
from tests.bench.gen_ledger import generate_large_ledger  # noqa: E402
from tests.support.desk import serving  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=7)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        game = Path(tmp) / "game"
        game.mkdir()
        generate_large_ledger(game / "ledger.yaml")
        subprocess.run([sys.executable, "-m", "modtool", "tally", str(game)], capture_output=True)  # warm the cache
        tally = best([sys.executable, "-m", "modtool", "tally", str(game)], args.repeat)
        with serving(game) as (desk, url):
            times = []
            for _ in range(args.repeat + 1):
                t0 = time.perf_counter()
                page = urllib.request.urlopen(url + "/g/game/", timeout=300).read()
                times.append(time.perf_counter() - t0)
            day = min(times[1:])
        print(f"modtool tally (process)     {tally:6.3f} s")
        print(f"desk day view (GET)         {day:6.3f} s   ratio to tally {day / tally:5.2f} (bar: 1.5)")
        first = times[0]
        print(f"desk day view, first GET    {first:6.3f} s   ratio to tally {first / tally:5.2f} (the desk's own start-up reads included)")
        print(f"page: {len(page) / 1e3:.0f} KB")


if __name__ == "__main__":
    main()
