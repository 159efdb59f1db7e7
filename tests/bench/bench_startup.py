"""Benchmark: ``modtool --help`` start-up now beside an earlier commit (default:
the one before ``modtool chart`` and ``modtool grimoire`` arrived), run
alternately with compiled modules cached for each, as an install has them.

Bar: the heavy drawing libraries (matplotlib, numpy, Pillow) are imported
only by those commands, so the ratio stays about 1.0.

    .venv/bin/python tests/bench/bench_startup.py [--base REV] [--repeat 15]
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


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--base", default=None, help="the commit to compare with")
    ap.add_argument("--repeat", type=int, default=15)
    args = ap.parse_args()
    base = args.base or subprocess.run(["git", "log", "--format=%H", "-1", "--grep", "Mafia vote counts are titled"],
                                       cwd=ROOT, capture_output=True, text=True).stdout.strip()
    with tempfile.TemporaryDirectory() as tmp:
        old = Path(tmp) / "base"
        subprocess.run(["git", "worktree", "add", "-q", "--detach", str(old), base], cwd=ROOT, check=True)
        try:
            caches = {root: tempfile.mkdtemp(dir=tmp) for root in (old, ROOT)}

            def once(root: Path) -> float:
                env = dict(os.environ, PYTHONPATH=str(root), PYTHONPYCACHEPREFIX=caches[root])
                env.pop("PYTHONDONTWRITEBYTECODE", None)
                t0 = time.perf_counter()
                subprocess.run([sys.executable, "-m", "modtool", "--help"], cwd=root, env=env, capture_output=True, check=True)
                return time.perf_counter() - t0

            once(old), once(ROOT)  # compile and cache
            a, b = [], []
            for _ in range(args.repeat):
                a.append(once(old))
                b.append(once(ROOT))
            ma, mb = statistics.median(a), statistics.median(b)
            print(f"modtool --help  base {base[:10]} median {ma * 1000:.1f} ms   now {mb * 1000:.1f} ms   ratio {mb / ma:.2f}")
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(old)], cwd=ROOT)


if __name__ == "__main__":
    main()
