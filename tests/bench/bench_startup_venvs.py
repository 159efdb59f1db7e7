"""Benchmark: ``modtool --help`` start-up of two checkouts, each in its own venv
(as installed: ``bench_startup.py`` runs an older commit with this venv, which
fails once the dependencies differ, e.g. typer → typer-slim). Alternating runs,
median and best; the ratio is what counts.

    .venv/bin/python tests/bench/bench_startup_venvs.py OLD_CHECKOUT [--repeat 20]

OLD_CHECKOUT must hold its own ``.venv`` (``pip install -e .`` there).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("old", type=Path)
    ap.add_argument("--repeat", type=int, default=20)
    args = ap.parse_args()
    pairs = [("before", args.old), ("after", ROOT)]
    cmd = {name: [str(root / ".venv" / "bin" / "python"), "-m", "modtool", "--help"] for name, root in pairs}
    for name, root in pairs:  # compile and cache
        subprocess.run(cmd[name], cwd=root, capture_output=True, check=True)
    times: dict[str, list[float]] = {name: [] for name, _ in pairs}
    for _ in range(args.repeat):
        for name, root in pairs:
            t0 = time.perf_counter()
            subprocess.run(cmd[name], cwd=root, capture_output=True, check=True)
            times[name].append(time.perf_counter() - t0)
    for name, got in times.items():
        print(f"{name}: median {statistics.median(got) * 1000:.1f} ms, best {min(got) * 1000:.1f} ms")
    print(f"ratio after/before: median {statistics.median(times['after']) / statistics.median(times['before']):.2f}, "
          f"best {min(times['after']) / min(times['before']):.2f}")


if __name__ == "__main__":
    main()
