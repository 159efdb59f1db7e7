"""Probe: is a command's word the ledger's truth? Real processes, attacked
from outside, many tries; prints the tries and the failures of each attack.

- ``race``: an editor saves the ledger in place (truncate, write: the way a
  plain `open(path, "w")` saves, with a note of its own added) at a random
  moment while `modtool card` runs (every other try: the moment its intent
  record appears, i.e. right at the write). A failure: exit 0 but the card is not
  acknowledged, or in the ledger twice, or overwritten by the editor's later
  save without the next command naming it as missing; a refusal (exit 1)
  with the card in the ledger; the editor's note lost; a traceback or a
  signal death.
- ``truncate``: the ledger is cut to nothing and written back while `modtool
  tally` reads it. A failure: a signal death (SIGBUS) or a traceback.
- ``full``: `modtool card` on a game on a tiny filesystem (tmpfs; needs
  root), filled to leave a random few bytes to a few pages free. A failure:
  exit 0 but not written and acknowledged; any other exit with the ledger
  changed; a traceback. Skipped where tmpfs cannot be mounted.

    .venv/bin/python tests/bench/probe_truth.py race --tries 200
    .venv/bin/python tests/bench/probe_truth.py truncate --tries 200
    .venv/bin/python tests/bench/probe_truth.py full --tries 100
    (--root DIR probes another checkout, e.g. an older commit's worktree)
"""

from __future__ import annotations

import argparse
import json
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


def _python(root: Path) -> str:
    """The probed checkout's own venv: an editable install of another
    checkout would win over PYTHONPATH."""
    own = root / ".venv" / "bin" / "python"
    return str(own) if own.exists() else sys.executable


def _env(root: Path) -> dict:
    return dict(os.environ, PYTHONPATH=str(root), MODTOOL_LOCK_WAIT="60", LANG="C.UTF-8")


PY = sys.executable


def _game(root: Path, where: Path) -> Path:
    g = where / "g"
    shutil.rmtree(g, ignore_errors=True)
    shutil.copytree(root / "examples" / "m42", g, ignore=shutil.ignore_patterns(".modtool", "*.lock"))
    return g


def _card(g: Path, reason: str) -> list[str]:
    return [PY, "-m", "modtool", "card", str(g), "白月初", "blue", "--reason", reason,
            "--at", "2026-11-04 12:00"]


def _count(g: Path, reason: str) -> int:
    return (g / "ledger.yaml").read_text(encoding="utf-8", errors="replace").count(reason)


def _acknowledged(g: Path, reason: str) -> bool:
    ack = g / ".modtool" / "acknowledged.jsonl"
    return ack.is_file() and reason in ack.read_text(encoding="utf-8", errors="replace")


def _missing_told(root: Path, g: Path) -> bool:
    proc = subprocess.run([PY, "-m", "modtool", "check", str(g)], env=_env(root), capture_output=True, text=True)
    return "modtool restore" in proc.stderr


def _show(proc) -> None:
    print(f"exit {proc.returncode}: {proc.stderr[-1500:]}", file=sys.stderr)


def _bad_output(proc) -> bool:
    return proc.returncode < 0 or "Traceback" in proc.stderr or proc.returncode == 3


def race(root: Path, tries: int, rng: random.Random) -> Counter:
    out = Counter()
    with tempfile.TemporaryDirectory() as tmp:
        g = _game(root, Path(tmp))
        env = _env(root)
        t0 = time.perf_counter()
        subprocess.run(_card(g, "warm"), env=env, capture_output=True)
        span = time.perf_counter() - t0
        for k in range(tries):
            g = _game(root, Path(tmp))
            path = g / "ledger.yaml"
            base = path.read_bytes()
            reason = f"probe-{k}"
            note = f"# director's note {k}\n".encode()
            proc = subprocess.Popen(_card(g, reason), env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            if k % 2:
                time.sleep(rng.uniform(0.3 * span, 1.1 * span))
            else:  # at the write moment: the intent record appears just before the append
                intent = g / ".modtool" / "append.intent"
                deadline = time.perf_counter() + 3 * span
                while not intent.exists() and time.perf_counter() < deadline:
                    pass
            with open(path, "r+b") as f:  # an in-place save: truncate, then write
                f.truncate(0)
                f.write(base + note)
            stdout, stderr = proc.communicate()
            proc.stdout, proc.stderr = stdout, stderr
            n = _count(g, reason)
            now = path.read_bytes()
            kept = note in now
            if _bad_output(proc):
                out["traceback or signal"] += 1
                _show(proc)
            elif proc.returncode == 0 and not (n <= 1 and _acknowledged(g, reason)):
                out["exit 0, not written once and acknowledged"] += 1
            elif proc.returncode == 0 and n == 0 and not _missing_told(root, g):
                # The editor's stale save came after the card: fine if the next command names it.
                out["exit 0, overwritten by the editor, not told"] += 1
            elif proc.returncode != 0 and n:
                out["refused, yet written"] += 1
            elif not kept:
                out["editor's save lost"] += 1
            else:
                out["ok: written" if proc.returncode == 0 else "ok: refused, unchanged"] += 1
    return out


def truncate(root: Path, tries: int, rng: random.Random) -> Counter:
    out = Counter()
    with tempfile.TemporaryDirectory() as tmp:
        g = _game(root, Path(tmp))
        path = g / "ledger.yaml"
        base = path.read_bytes() + b"".join(f"# padding line {i} {'x' * 80}\n".encode() for i in range(20000))
        path.write_bytes(base)
        env = _env(root)
        cmd = [PY, "-m", "modtool", "tally", str(g), "--day", "2"]
        t0 = time.perf_counter()
        subprocess.run(cmd, env=env, capture_output=True)
        span = time.perf_counter() - t0
        for _ in range(tries):
            # Written just before: the stat is too fresh to trust, so the read hashes the file.
            os.utime(path)
            proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            time.sleep(rng.uniform(0.2 * span, 1.0 * span))
            with open(path, "r+b") as f:
                f.truncate(0)
                f.flush()
                time.sleep(0.002)
                f.write(base)
            stdout, stderr = proc.communicate()
            proc.stdout, proc.stderr = stdout, stderr
            out["traceback or signal" if _bad_output(proc) else f"ok: exit {proc.returncode}"] += 1
    return out


def full(root: Path, tries: int, rng: random.Random) -> Counter:
    out = Counter()
    mnt = Path(tempfile.mkdtemp(prefix="modtool-full-"))
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(mnt)], capture_output=True).returncode:
        out["skipped: cannot mount tmpfs"] = tries
        return out
    try:
        env = _env(root)
        for k in range(tries):
            for p in mnt.iterdir():
                shutil.rmtree(p) if p.is_dir() else p.unlink()
            g = _game(root, mnt)
            subprocess.run([PY, "-m", "modtool", "check", str(g)], env=env, capture_output=True)
            st = os.statvfs(mnt)
            free = st.f_bavail * st.f_frsize
            leave = rng.choice([0, 1, 2, 3, 4, 6, 8]) * 4096
            with open(mnt / "filler", "wb") as f:
                try:
                    f.write(b"\0" * max(0, free - leave))
                except OSError:
                    pass
            base = (g / "ledger.yaml").read_bytes()
            reason = f"full-{k}"
            proc = subprocess.run(_card(g, reason), env=env, capture_output=True, text=True)
            n = _count(g, reason)
            changed = (g / "ledger.yaml").read_bytes() != base
            if _bad_output(proc):
                out["traceback, signal or internal error"] += 1
            elif proc.returncode == 0 and not (n == 1 and _acknowledged(g, reason)):
                out["exit 0, not written once and acknowledged"] += 1
            elif proc.returncode != 0 and changed:
                out["refused, yet the ledger changed"] += 1
            else:
                out["ok: written" if proc.returncode == 0 else "ok: refused, unchanged"] += 1
    finally:
        subprocess.run(["umount", str(mnt)], capture_output=True)
        shutil.rmtree(mnt, ignore_errors=True)
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("attack", choices=["race", "truncate", "full"])
    ap.add_argument("--tries", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--root", type=Path, default=Path(__file__).resolve().parents[2])
    args = ap.parse_args()
    args.root = args.root.resolve()
    global PY
    PY = _python(args.root.resolve())
    os.chdir(tempfile.gettempdir())  # `python -m` puts the working folder first on the path
    counts = {"race": race, "truncate": truncate, "full": full}[args.attack](args.root.resolve(), args.tries,
                                                                               random.Random(args.seed))
    failures = sum(v for k, v in counts.items() if not k.startswith(("ok", "skipped")))
    print(json.dumps({"attack": args.attack, "tries": args.tries, "failures": failures, **counts}, ensure_ascii=False))


if __name__ == "__main__":
    main()
