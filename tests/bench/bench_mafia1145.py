"""Benchmark: replaying MafiaScum Game 1145 (389 real posts, two days) from its ledger.

Builds the example with ``examples/mafia-1145/build.sh`` into a temporary
folder (the posts are read from ../shared/real/, never copied here), then
times, side by side and alternately:

* baseline: reading the two JSON-lines files of the posts (json.loads per line);
* replay: opening the ledger and replaying days 1 and 2 (actions of every
  post, slots, majority, hammer), in process, the ledger read fresh each time;
* cli: ``modtool tally --day 2 --json`` as a fresh process (start-up included).

    .venv/bin/python tests/bench/bench_mafia1145.py [--repeat 9]
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
REAL = ROOT.parent / "shared" / "real" / "mafiascum"
sys.path.insert(0, str(ROOT))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=9)
    args = ap.parse_args()
    if not REAL.is_dir():
        sys.exit(f"{REAL} not found: the shared real data must sit beside the repository")
    from modtool.core.gamefile import open_game
    from modtool.packs.mafia.day import tally_day

    with tempfile.TemporaryDirectory() as tmp:
        game = Path(tmp) / "g1145"
        subprocess.run(["bash", str(ROOT / "examples" / "mafia-1145" / "build.sh"), str(game)],
                       check=True, capture_output=True)
        files = sorted(REAL.glob("game1145-day*.jsonl"))
        base, replay, cli = [], [], []
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            n = sum(1 for f in files for line in f.read_text(encoding="utf-8").splitlines() if json.loads(line))
            base.append(time.perf_counter() - t0)
            shutil.rmtree(game / ".modtool", ignore_errors=True)
            t0 = time.perf_counter()
            gd = open_game(game)
            days = tally_day(gd, 1), tally_day(gd, 2)
            replay.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            subprocess.run([sys.executable, "-m", "modtool", "tally", str(game), "--day", "2", "--json"],
                           check=True, capture_output=True)
            cli.append(time.perf_counter() - t0)
        assert [d.hammer_post for d in days] == [291, 377]
        mb, mr, mc = (statistics.median(x) for x in (base, replay, cli))
        print(f"posts read: {n}")
        print(f"baseline  json.loads of the posts  median {mb * 1000:8.2f} ms")
        print(f"replay    open ledger + days 1, 2  median {mr * 1000:8.2f} ms   ratio {mr / mb:.1f}")
        print(f"cli       modtool tally --json     median {mc * 1000:8.2f} ms")


if __name__ == "__main__":
    main()
