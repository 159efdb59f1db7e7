"""Probe: Ctrl-C at a random moment of real ``modtool`` commands, and the same
under a Latin-1 locale, counting how each run ended.

Each try starts one command through a console script written the way pip
writes ``[project.scripts]`` (so start-up imports happen as they do for a
director), in its own process group as a terminal's foreground job, and
sends SIGINT to the group after a random delay from 0 to the command's full
run time + 50 ms: during Python's start-up, modtool's imports, parsing,
computing, writing, printing and interpreter shutdown. Read-only commands
(tally, status, chart, 甄嬛's status) run on the bundled examples' copies,
writing ones (card, import, close) on a fresh copy each try.

A run is bad when it died of the signal, showed a traceback (or Python's
"Exception ignored"), crashed (exit 3, or an exit code outside 0/1/2/130),
exited 130 without a readable 「已中断」 (Interrupted), or said 「账本未改动」
with the ledger changed (or that it wrote with the ledger unchanged). A signal death is split by whether Python's own SIGINT
handler existed when the signal was sent: before that (the first few ms of
the interpreter's C start-up) the kernel ends any Python program and no
code of modtool's can run.

    .venv/bin/python tests/bench/probe_interrupt.py [--tries 300] [--seed 1]
        [--latin1] [--root CHECKOUT] [--no-signal]

--latin1 runs under ``en_US.ISO-8859-1`` (built with localedef into a temp
folder, LOCPATH) or, without localedef, ``PYTHONIOENCODING=latin-1``.
--root runs another checkout's modtool (e.g. a worktree of main) with this
probe. --no-signal runs every command to its end (the locale alone).
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

HERE = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(HERE))
from tests.support.values import latin1_env  # noqa: E402

SCRIPT = """\
import re
import sys
from modtool.__main__ import run
if __name__ == '__main__':
    sys.argv[0] = re.sub(r'(-script\\.pyw|\\.exe)?$', '', sys.argv[0])
    sys.exit(run())
"""

# kind: (example, writes?, arguments after the game folder)
COMMANDS = {
    "tally": ("m42", False, ["--day", "2"]),
    "status": ("m42", False, []),
    "chart": ("m42", False, ["--day", "2", "-o", "{tmp}/chart.png"]),
    "zh-status": ("zhenhuan", False, []),
    "card": ("m42", True, ["白月初", "blue", "--reason", "探针", "--at", "2026-11-04 12:00"]),
    "import": ("m42", True, ["{game}/dumps/day2-vote-page1.json", "--thread", "vote", "--day", "2"]),
    "close": ("m42", True, ["--day", "2", "--at", "2026-11-05 22:30"]),
}
GOOD_CODES = {0, 1, 2, 130}


def handler_installed(pid: int) -> bool:
    """Whether the process catches SIGINT now (/proc/PID/status SigCgt)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return True  # already gone: not a start-up death
    caught = next((ln.split()[1] for ln in status.splitlines() if ln.startswith("SigCgt:")), "0")
    return bool(int(caught, 16) & (1 << (signal.SIGINT - 1)))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--tries", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--latin1", action="store_true")
    ap.add_argument("--no-signal", action="store_true")
    ap.add_argument("--twice", action="store_true", help="a second Ctrl-C 0-30 ms after the first (an impatient hand)")
    ap.add_argument("--root", type=Path, default=HERE)
    ap.add_argument("--only", nargs="*", default=None, help="command kinds to run (default: all)")
    args = ap.parse_args()
    root = args.root.resolve()
    rng = random.Random(args.seed)
    kinds = args.only or list(COMMANDS)
    counts: Counter = Counter()
    codes: Counter = Counter()
    bad_samples: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        script = tmp / "modtool"
        script.write_text(SCRIPT, encoding="utf-8")
        env = latin1_env(tmp / "locales") if args.latin1 else dict(os.environ)
        # TMPDIR: a crash report (exit 3) lands here, is read, and goes with the folder.
        env.update(PYTHONPATH=str(root), MODTOOL_LOCK_WAIT="60", TMPDIR=str(tmp))
        print("locale:", {k: env[k] for k in ("LANG", "LC_ALL", "PYTHONIOENCODING") if k in env}, flush=True)

        def fresh(kind: str) -> tuple[list[str], Path]:
            example, _, rest = COMMANDS[kind]
            g = tmp / "g"
            shutil.rmtree(g, ignore_errors=True)
            shutil.copytree(args.root / "examples" / example, g, ignore=shutil.ignore_patterns(".modtool", "*.lock"))
            cmd = kind.split("-")[-1]
            return [sys.executable, str(script), cmd, str(g), *[a.format(tmp=tmp, game=g) for a in rest]], g

        def span(kind: str) -> float:
            worst = 0.0
            for _ in range(2):
                cmd, _g = fresh(kind)
                t0 = time.perf_counter()
                done = subprocess.run(cmd, env=env, capture_output=True, check=False)
                worst = max(worst, time.perf_counter() - t0)
            if done.returncode not in (0, 1):
                print(f"  note: {kind} alone exits {done.returncode}: {done.stderr.decode('utf-8', 'replace')[-300:]}")
            return worst

        spans = {k: span(k) for k in kinds}
        print("run times (s):", {k: round(v, 3) for k, v in spans.items()}, flush=True)
        t_start = time.perf_counter()
        for n in range(args.tries):
            kind = kinds[n % len(kinds)]
            cmd, g = fresh(kind)
            ledger = g / "ledger.yaml"
            before = ledger.read_bytes()
            delay = rng.uniform(0.0, spans[kind] + 0.05)
            p = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
            early = None
            if not args.no_signal:
                time.sleep(delay)
                early = not handler_installed(p.pid)
                for again in range(2 if args.twice else 1):
                    if again:
                        time.sleep(rng.uniform(0.0, 0.03))
                    try:
                        os.killpg(p.pid, signal.SIGINT)
                    except ProcessLookupError:
                        pass
            out, err = p.communicate(timeout=120)
            # Under Latin-1 a character the terminal cannot show is \\uXXXX: read it back.
            err_text = err.decode("unicode_escape", "replace") if args.latin1 else err.decode("utf-8", "replace")
            rc = p.returncode
            codes[rc] += 1
            what = []
            shown = "Traceback" in err_text or "Exception ignored" in err_text
            # Before modtool's first line: Python's C start-up (no handler yet),
            # site's .pth files, or the console script's own `import re`.
            ours = f"{root}/modtool/" in err_text or "modtool.__main__" in err_text
            before_us = bool(early) or (shown and not ours)
            if rc < 0:
                what.append("signal death before modtool's first line" if before_us else "signal death")
            if shown:
                what.append("traceback before modtool's first line" if before_us else "traceback")
            if rc == 3 or (rc >= 0 and rc not in GOOD_CODES):
                why = ""
                for report in tmp.glob("modtool-crash-*.log"):
                    lines = report.read_text(encoding="utf-8", errors="replace").strip().splitlines()
                    report.unlink()
                    why = ": " + (lines[-1].split(":")[0] if lines else "report left empty")
                    err_text += "\n[crash report] " + "\n".join(lines[-8:])
                what.append(f"crash (exit {rc}{why})")
            if rc == 130 and "已中断" not in err_text and "Interrupted" not in err_text:
                what.append("exit 130 without a readable 「已中断」")
            elif COMMANDS[kind][1] and rc == 130:
                changed = ledger.read_bytes() != before
                said_unchanged = "账本未改动" in err_text or "ledger is unchanged" in err_text
                if said_unchanged == changed:
                    what.append("wrong word about the ledger")
            if not what:
                counts["clean"] += 1
            for w in what:
                counts[w] += 1
            if what and sum(x.startswith(what[0] + "|") for x in bad_samples) < 3:  # a few of each kind
                bad_samples.append(f"{what[0]}|{kind} at {delay * 1000:.0f} ms of {spans[kind] * 1000:.0f}: exit {rc}, "
                                   f"{', '.join(what)}: {err_text.strip()[-(900 if 'crash' in what[-1] else 240):]!r}")
            if (n + 1) % 50 == 0:
                print(f"{n + 1} tries, {time.perf_counter() - t_start:.0f} s: {dict(counts)}", flush=True)
    print("exit codes:", dict(sorted(codes.items())))
    print("outcomes:", dict(counts))
    for s in sorted(bad_samples):
        print("  ", s.split("|", 1)[1])
    outside = ("signal death before modtool's first line", "traceback before modtool's first line")
    bad = sum(v for k, v in counts.items() if k != "clean" and k not in outside)
    print(f"{args.tries} tries: {bad} failures (+ in Python's start-up, before any modtool code: "
          + ", ".join(f"{counts[k]} {k}" for k in outside) + ")")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
