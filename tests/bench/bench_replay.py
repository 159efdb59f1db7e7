"""Benchmark: what a command costs after the ledger is read, large vs. small.

Speed bar: a command on a 100,000-post ledger costs at most twice
the same command on the 13-character example game. The ledger read itself
(``modtool.ledger.load``) is measured apart; this times, in one process,
``open_game`` minus that read (schema check of every event, effective events,
roster) and the M42 replay (``modtool.packs.m42.replay.replay``), best of N, each
repetition on freshly loaded data (nothing memoised carries over).

    .venv/bin/python tests/bench/bench_replay.py [--repeat 5] [--discussion 95000] [--ledger DIR]

Not collected by pytest (the file name does not start with test_).
"""

from __future__ import annotations

import argparse
import gc
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from modtool import ledger  # noqa: E402
from modtool.core.gamefile import ledger_path, open_game  # noqa: E402
from modtool.packs.m42.replay import replay  # noqa: E402
from tests.bench.gen_ledger import generate_large_ledger  # noqa: E402


def measure(game_dir: Path, repeat: int) -> dict[str, float]:
    """Best times (s) of the ledger load, open_game without it, and replay:
    wall clock, and CPU time of this process (steadier on a busy machine)."""
    real_load = ledger.load
    best: dict[str, float] = {}

    def keep(key: str, value: float) -> None:
        best[key] = min(best.get(key, float("inf")), value)

    try:
        for _ in range(repeat):
            ledger.load = real_load
            gc.collect()
            w0, c0 = time.perf_counter(), time.process_time()
            data = real_load(ledger_path(game_dir))
            w1, c1 = time.perf_counter(), time.process_time()
            ledger.load = lambda *a, **k: data  # open_game gets the data just read
            gd = open_game(game_dir)
            w2, c2 = time.perf_counter(), time.process_time()
            replay(gd)
            w3, c3 = time.perf_counter(), time.process_time()
            if gd.problems:  # the replay would not run in a command
                raise SystemExit(f"{game_dir}: the ledger has problems: {gd.problems[:3]}")
            keep("load", w1 - w0)
            keep("open", w2 - w1)
            keep("replay", w3 - w2)
            keep("both", w3 - w1)
            keep("cpu", c3 - c1)
    finally:
        ledger.load = real_load
    return best


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--discussion", type=int, default=95000, help="discussion posts of the generated ledger")
    ap.add_argument("--one-line", action="store_true", help="discussion posts as one-line JSON events")
    ap.add_argument("--ledger", type=Path, help="a game folder to use instead of a generated one")
    args = ap.parse_args()
    small_dir = ROOT / "examples" / "m42-full"
    with tempfile.TemporaryDirectory() as tmp:
        big_dir = args.ledger
        if big_dir is None:
            big_dir = Path(tmp)
            generate_large_ledger(big_dir / "ledger.yaml", discussion=args.discussion, one_line=args.one_line)
        rows = {"m42-full": measure(small_dir, args.repeat), "large": measure(big_dir, args.repeat)}
    n_big = sum(1 for _ in open(ledger_path(big_dir), encoding="utf-8")) if args.ledger else None
    print(f"large ledger: {args.ledger or f'generated, {args.discussion} discussion posts'}"
          + (f", {n_big} lines" if n_big else ""))
    print(f"{'':10s} {'load':>8s} {'open-load':>10s} {'replay':>8s} {'open+replay':>12s} {'(cpu)':>8s}")
    for name, b in rows.items():
        print(f"{name:10s} {b['load']:8.3f} {b['open']:10.3f} {b['replay']:8.3f} {b['both']:12.3f} {b['cpu']:8.3f}")
    small, large = rows["m42-full"], rows["large"]
    print(f"ratio large/m42-full (open-load + replay): {large['both'] / small['both']:.0f} (cpu {large['cpu'] / small['cpu']:.0f})")


if __name__ == "__main__":
    main()
