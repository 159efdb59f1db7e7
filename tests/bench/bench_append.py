"""Benchmark: one appended event on a 100,000-post ledger vs on a 13-character one.

Speed bar: one `card` (and one `act`) on a generated 100,000-post
ledger costs at most twice the same command on a 13-character ledger. Both
ledgers come from the same generator (a real game's shape: votes, closes,
advances, discussion posts stored one JSON line each as imports store them),
both are read once first (as the director's previous command would), then
the two commands run alternately as fresh processes, side by side; the
ratio of medians (and of bests) is what counts. The children keep compiled
modules in a temporary cache (PYTHONPYCACHEPREFIX), as an installed modtool
has them, even where PYTHONDONTWRITEBYTECODE is set.

    .venv/bin/python tests/bench/bench_append.py [--repeat 7] [--posts 100000]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from tests.bench.gen_ledger import _names, generate_large_ledger  # noqa: E402

MODTOOL = [sys.executable, "-m", "modtool"]
ENV = dict(os.environ)
ENV.pop("PYTHONDONTWRITEBYTECODE", None)


def timed(cmd: list[str]) -> float:
    t0 = time.perf_counter()
    r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=ROOT, env=ENV)
    dt = time.perf_counter() - t0
    if r.returncode not in (0, 1):  # 1: a refused submission, still recorded
        raise SystemExit(f"{cmd} failed ({r.returncode}): {r.stderr.decode()}")
    return dt


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--posts", type=int, default=100_000)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        ENV["PYTHONPYCACHEPREFIX"] = str(Path(tmp) / "pycache")
        big, small = Path(tmp) / "big", Path(tmp) / "small"
        big.mkdir()
        small.mkdir()
        votes = 5000
        generate_large_ledger(big / "ledger.yaml", votes=votes, discussion=args.posts - votes, one_line=True)
        generate_large_ledger(small / "ledger.yaml", characters=13, days=2, votes=26)
        size = (big / "ledger.yaml").stat().st_size
        print(f"ledgers: {args.posts} posts ({size / 1e6:.1f} MB) vs 13 characters; repeat {args.repeat}")
        for g in (big, small):  # the previous command: reads and caches
            subprocess.run([*MODTOOL, "status", str(g)], stdout=subprocess.DEVNULL, check=True, cwd=ROOT, env=ENV)
        names = {big: _names(50), small: _names(13)}
        at = {big: "2026-12-01 22:10", small: "2026-11-03 22:10"}
        for label in ("card", "act"):
            times: dict[Path, list[float]] = {big: [], small: []}
            for i in range(args.repeat):
                for g in (big, small):
                    n = names[g]
                    if label == "card":
                        cmd = [*MODTOOL, "card", str(g), n[7], "blue", "--reason", f"第{i}次", "--at", at[g]]
                    else:
                        cmd = [*MODTOOL, "act", str(g), "狼人", "kill", n[8 + i % 4], "--at", at[g]]
                    times[g].append(timed(cmd))
            mb, ms = statistics.median(times[big]), statistics.median(times[small])
            bb, bs = min(times[big]), min(times[small])
            print(f"{label:5s} big median {mb:.3f} s best {bb:.3f} s | small median {ms:.3f} s best {bs:.3f} s"
                  f" | ratio median {mb / ms:.2f} best {bb / bs:.2f} (bar: <= 2.0)")


if __name__ == "__main__":
    main()
