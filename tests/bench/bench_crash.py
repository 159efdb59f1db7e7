"""Crash test: SIGKILL real `modtool import` and `modtool card` processes at
random moments, many times, and count what the ledger was afterwards.

Each kill is followed by `modtool check` (which recovers a torn append and
removes a killed run's temp files); the ledger must then be byte for byte
the one before the command or the one after it, `check` must pass, and no
temp file may remain. tests/test_ledger_processes.py does the same a few
dozen times in the suite.

    .venv/bin/python tests/bench/bench_crash.py [--kills 1000] [--seed 1]
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from tests.test_ledger_processes import _big_dump, card, debris, game  # noqa: E402

CMD = [sys.executable, "-m", "modtool"]
ENV = dict(os.environ, PYTHONPATH=str(ROOT))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--kills", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    counts: Counter = Counter()
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        dump = _big_dump(tmp / "dump.txt", 1500)
        imp = lambda g: [*CMD, "import", str(g), str(dump), "--thread", "discussion", "--day", "2"]  # noqa: E731
        ref = {}
        spans = {}
        for kind, make in (("import", imp), ("card", lambda g: card(g, "k"))):
            g = game(tmp, f"ref-{kind}")
            before = (g / "ledger.yaml").read_bytes()
            t0 = time.perf_counter()
            subprocess.run(make(g), env=ENV, capture_output=True, check=False)
            spans[kind] = time.perf_counter() - t0
            ref[kind] = (make, before, (g / "ledger.yaml").read_bytes())
        t_start = time.perf_counter()
        for k in range(args.kills):
            kind = "import" if k % 2 == 0 else "card"
            make, before, after = ref[kind]
            g = tmp / "g"
            shutil.rmtree(g, ignore_errors=True)
            g = game(tmp, "g")
            p = subprocess.Popen(make(g), env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            time.sleep(rng.uniform(0.0, spans[kind] * 1.1))
            p.send_signal(signal.SIGKILL)
            p.wait()
            chk = subprocess.run([*CMD, "check", str(g)], env=ENV, capture_output=True, text=True)
            now = (g / "ledger.yaml").read_bytes()
            state = "before" if now == before else "after" if now == after else "NEITHER"
            counts[(kind, state)] += 1
            if chk.returncode != 0:
                counts[(kind, "check failed")] += 1
            if debris(g):
                counts[(kind, "debris left")] += 1
            if (k + 1) % 100 == 0:
                print(f"{k + 1} kills, {time.perf_counter() - t_start:.0f} s: {dict(counts)}", flush=True)
    print("result:", dict(counts))
    bad = sum(v for (kind, what), v in counts.items() if what in ("NEITHER", "check failed", "debris left"))
    print(f"{args.kills} kills: {bad} bad outcomes")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
