"""Benchmark: `modtool tally` on a large ledger, next to a bare PyYAML C-loader parse.

Speed bar: a command on a large ledger (50 characters, 30 days,
5,000 vote posts) is faster than merely parsing that ledger with PyYAML's C
loader in a bare process. Both run as fresh processes, side by side, best of
N; the ratio is what counts (this machine's absolute times are noisy).

    .venv/bin/python tests/bench/bench_tally.py [--repeat 7]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from tests.bench.gen_ledger import generate_large_ledger  # noqa: E402


def best(cmd: list[str], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        times.append(time.perf_counter() - t0)
        if r.returncode != 0:
            raise SystemExit(f"{cmd} failed: {r.stderr.decode()}")
    return min(times)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=7)
    args = ap.parse_args()
    py = sys.executable
    with tempfile.TemporaryDirectory() as tmp:
        game = Path(tmp) / "game"
        game.mkdir()
        ledger = generate_large_ledger(game / "ledger.yaml")
        lines = ledger.read_text(encoding="utf-8").count("\n")
        rows = {
            "bare python": [py, "-c", "pass"],
            "PyYAML CSafeLoader parse": [py, "-c", f"import yaml; yaml.load(open({str(ledger)!r}, encoding='utf-8'), Loader=yaml.CSafeLoader)"],
            "modtool tally --day 30": [py, "-m", "modtool", "tally", str(game), "--day", "30"],
            "modtool tally --day 30 --json": [py, "-m", "modtool", "tally", str(game), "--day", "30", "--json"],
            "modtool status": [py, "-m", "modtool", "status", str(game)],
            "modtool check": [py, "-m", "modtool", "check", str(game)],
        }
        print(f"ledger: {lines} lines, {ledger.stat().st_size / 1e6:.2f} MB")
        results = {}
        for name, cmd in rows.items():
            results[name] = best(cmd, args.repeat)
        base = results["PyYAML CSafeLoader parse"]
        for name, t in results.items():
            print(f"{name:32s} {t:6.3f} s   ratio to PyYAML parse {t / base:5.2f}")


if __name__ == "__main__":
    main()
