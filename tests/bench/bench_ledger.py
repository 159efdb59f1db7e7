"""Benchmark: reading a large ledger vs. merely parsing it with PyYAML's C loader.

Run:  .venv/bin/python tests/bench/bench_ledger.py  [--repeat N]
Not collected by pytest (the file name does not start with test_).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.bench.gen_ledger import generate_large_ledger  # noqa: E402


def run(code: str, repeat: int) -> float:
    """Best wall time of ``python -c code`` in a fresh process."""
    best = float("inf")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    for _ in range(repeat):
        t = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], check=True, env=env, cwd=ROOT)
        best = min(best, time.perf_counter() - t)
    return best


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        f = Path(tmp) / "ledger.yaml"
        generate_large_ledger(f)
        text = f.read_text(encoding="utf-8")
        jf = Path(tmp) / "ledger.json"
        import yaml

        jf.write_text(json.dumps(yaml.load(text, Loader=yaml.CSafeLoader), ensure_ascii=False), encoding="utf-8")
        print(f"ledger: {text.count(chr(10))} lines, {len(text.encode()) / 1e6:.2f} MB")
        t0 = run("pass", args.repeat)
        a = run(f"import yaml; yaml.load(open({str(f)!r}, encoding='utf-8'), Loader=yaml.CSafeLoader)", args.repeat)
        b = run(
            f"from pathlib import Path; from modtool.ledger import load; d = load(Path({str(f)!r}));"
            f" assert len(d.events) > 5000",
            args.repeat,
        )
        c = run(f"import json; json.load(open({str(jf)!r}, encoding='utf-8'))", args.repeat)
        # the numbers above are only meaningful if the fast reader took this file
        run(f"from pathlib import Path; from modtool.ledger import _store;"
            f" assert _store._parse(Path({str(f)!r}).read_bytes(), 'x').fast", 1)
        print(f"(0) bare python             {t0:.3f} s")
        print(f"(a) PyYAML CSafeLoader      {a:.3f} s")
        print(f"(b) modtool.ledger.load     {b:.3f} s")
        print(f"(c) json.load               {c:.3f} s")
        print(f"ratio b/a = {b / a:.2f}  (best of {args.repeat} fresh processes each; fast reader used)")


if __name__ == "__main__":
    main()
