"""Typo probe: a director's typos, as real commands on copies of example games.

    .venv/bin/python tests/probes/probe_typos.py SRC_TREE   (SRC_TREE: a modtool source tree, e.g. . or an older commit's checkout)

Each typo must be refused: exit 1, no traceback, the ledger byte for byte unchanged.
Each control (a legitimate command next to a typo) must be written: exit 0, ledger grown.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from datetime import datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

SRC = Path(sys.argv[1]).resolve()
PY = sys.executable  # run in the source tree: `python -m` puts it first on the path
ENV = dict(os.environ, PYTHONPATH=str(SRC), LANG="C.UTF-8")
WORK = Path(tempfile.gettempdir()) / ("modtool-probe-typos-" + SRC.name)
shutil.rmtree(WORK, ignore_errors=True)
WORK.mkdir(parents=True)
M = [PY, "-m", "modtool"]


def sh(*args, cwd=SRC):
    return subprocess.run([str(a) for a in args], env=ENV, cwd=cwd, capture_output=True, text=True)


def partial(example: str, n: int) -> Path:
    """The first n modtool commands of examples/EXAMPLE/build.sh, run by this source tree."""
    target = WORK / f"setup-{example}-{n}"
    lines, count = [], 0
    for line in (SRC / "examples" / example / "build.sh").read_text(encoding="utf-8").splitlines():
        if line.startswith("$M "):
            count += 1
            if count > n:
                break
        lines.append(line.replace('cd "$(dirname "$0")/../.."', f"cd {SRC}"))
    script = WORK / f"{example}-{n}.sh"
    script.write_text("\n".join(lines) + "\n", encoding="utf-8")
    r = subprocess.run(["bash", str(script), str(target)], env=dict(ENV, MODTOOL=" ".join(M)), capture_output=True, text=True)
    assert (target / "ledger.yaml").exists(), r.stderr
    return target


def live_day() -> Path:
    """An M42 game whose day 1 opened two hours ago: the wall clock is inside it, before its close."""
    g = WORK / "setup-live"
    assert sh(*M, "new", g, "--game", "m42", "--roster", SRC / "examples/m42-full/roster.yaml", "--seed", 1).returncode == 0
    opened = (datetime.now(ZoneInfo("Asia/Shanghai")) - timedelta(hours=2)).strftime("%Y-%m-%d %H:%M")
    r = sh(*M, "open", g, "--day", 1, "--at", opened)
    assert r.returncode == 0, r.stderr
    return g


SETUPS = {
    "m42-day1": lambda: partial("m42-full", 2),      # day 1 open, its votes imported: no phase passed yet
    "m42-night1": lambda: partial("m42-full", 3),
    "m42-day2": lambda: partial("m42-full", 9),      # day 2 open; 翠玉鸣鸾 is sheriff
    "m42-dawn2": lambda: partial("m42-full", 16),    # night 2 resolved: 翠玉鸣鸾 out, her successor pending
    "m42-disc-day2": lambda: partial("m42-discipline", 18),  # day 1 judged (lurking yellows), 西西 substituted once
    "m42-live": live_day,
    "zh-night1": lambda: partial("zhenhuan", 1),
    "zh-day1": lambda: partial("zhenhuan", 10),
    "mafia": lambda: _copy_mafia(),
}


def _copy_mafia() -> Path:
    g = WORK / "setup-mafia"
    shutil.copytree(SRC / "examples" / "mafia", g, ignore=shutil.ignore_patterns(".modtool", "*.lock"))
    return g


T = "typo"
C = "control"
TRIES = [
    # (kind, setup, label, command after the game folder)
    (T, "m42-day1", "card --at year 0026 (no phase passed)", ["card", "{g}", "东方孤月", "蓝", "--reason", "x", "--at", "0026-11-17 12:00"]),
    (T, "m42-day1", "card --at year 0001", ["card", "{g}", "东方孤月", "蓝", "--reason", "x", "--at", "0001-11-17 12:00"]),
    (T, "m42-day1", "card --at a year ahead", ["card", "{g}", "东方孤月", "蓝", "--reason", "x", "--at", "2027-11-17 12:00"]),
    (T, "m42-day1", "card --at a month ahead", ["card", "{g}", "东方孤月", "蓝", "--reason", "x", "--at", "2026-12-17 12:00"]),
    (T, "m42-day1", "card --at before the game", ["card", "{g}", "东方孤月", "蓝", "--reason", "x", "--at", "2026-11-15 12:00"]),
    (C, "m42-day1", "card --at inside day 1", ["card", "{g}", "东方孤月", "蓝", "--reason", "x", "--at", "2026-11-17 12:00"]),
    (T, "m42-day1", "close --at year 0026", ["close", "{g}", "--day", "1", "--at", "0026-11-17 21:00"]),
    (T, "m42-day1", "open --at a year before", ["open", "{g}", "--day", "1", "--at", "2025-11-16 10:00"]),
    (C, "m42-day1", "open --at an hour before the first post", ["open", "{g}", "--day", "1", "--at", "2026-11-16 09:00"]),
    (T, "m42-day1", "proxy --at a year ahead", ["proxy", "{g}", "慕容青", "杨一言", "--day", "1", "--at", "2027-11-17 12:00"]),
    (T, "m42-night1", "announce witch --told-at year 0026", ["announce", "{g}", "witch", "--told-at", "0026-11-17 21:35"]),
    (T, "m42-night1", "act --at a year ahead", ["act", "{g}", "狼人", "kill", "翠玉鸣鸾", "--at", "2027-11-17 21:30"]),
    (T, "m42-night1", "act: a villager 'checks' (no such ability)", ["act", "{g}", "翠玉灵", "check", "杨一言", "--at", "2026-11-17 21:30"]),
    (C, "m42-night1", "act: the wolves' kill at night", ["act", "{g}", "狼人", "kill", "翠玉鸣鸾", "--at", "2026-11-17 21:30"]),
    (T, "m42-day2", "act: a night kill entered by day", ["act", "{g}", "狼人", "kill", "翠玉灵", "--at", "2026-11-18 12:00"]),
    (T, "m42-day2", "act: a shot nobody may fire", ["act", "{g}", "欢都落兰", "shoot", "杨一言", "--at", "2026-11-18 12:00"]),
    (T, "m42-day2", "act: last words of one still in", ["act", "{g}", "南宫羽", "last_words", "--text", "x", "--at", "2026-11-18 12:00"]),
    (T, "m42-day2", "act: a bar without a scapegoat exile", ["act", "{g}", "狐小蓝", "bar", "杨一言", "--at", "2026-11-18 12:00"]),
    (T, "m42-day2", "act: a successor while the sheriff is in", ["act", "{g}", "翠玉鸣鸾", "successor", "杨一言", "--at", "2026-11-18 12:00"]),
    (T, "m42-day2", "waive: a day that does not exist", ["waive", "{g}", "南宫羽", "--day", "9", "--rule", "b", "--reason", "x"]),
    (T, "m42-day2", "withdraw: a card that does not exist", ["withdraw", "{g}", "7", "--reason", "x"]),
    (T, "m42-day2", "decide: nothing to decide", ["decide", "{g}", "杨一言", "--camp-stays", "--at", "2026-11-18 12:00"]),
    (T, "m42-day2", "speedup: a day that does not exist", ["speedup", "{g}", "--day", "9"]),
    (T, "m42-dawn2", "act: a night choice at dawn by one who is out", ["act", "{g}", "翠玉鸣鸾", "check", "沈星河", "--night", "2", "--at", "2026-11-19 23:00"]),
    (C, "m42-dawn2", "act: the dead sheriff names a successor", ["act", "{g}", "翠玉鸣鸾", "successor", "欢都落兰", "--at", "2026-11-19 23:00"]),
    (T, "m42-disc-day2", "waive: a yellow that was never given", ["waive", "{g}", "清彦", "--day", "1", "--rule", "c", "--reason", "x"]),
    (T, "m42-disc-day2", "waive: a yellow already waived", ["waive", "{g}", "花翎", "--day", "1", "--rule", "a", "--reason", "x"]),
    (C, "m42-disc-day2", "waive: a yellow that was given", ["waive", "{g}", "杨十三", "--day", "1", "--rule", "b", "--reason", "x"]),
    (T, "m42-disc-day2", "substitute: a second substitute (M42-R16)", ["substitute", "{g}", "西西", "--player", "b", "--at", "2026-11-04 13:00"]),
    (T, "m42-disc-day2", "assistant: 5 earlier games (M42-R16)", ["assistant", "{g}", "杨十三", "--helper", "h", "--games", "5"]),
    (T, "m42-disc-day2", "assistant: -1 earlier games", ["assistant", "{g}", "杨十三", "--helper", "h", "--games", "-1"]),
    (T, "m42-live", "advance without --at before the day's close", ["advance", "{g}"]),
    (T, "zh-night1", "answer: 不 (not offered)", ["answer", "{g}", "night1/yurao_bind", "不"]),
    (T, "zh-night1", "answer: a seat not offered", ["answer", "{g}", "night1/yurao_bind", "3号"]),
    (C, "zh-night1", "answer: a seat offered", ["answer", "{g}", "night1/yurao_bind", "8号"]),
    (T, "zh-night1", "info: a seat tonight does not wake", ["info", "{g}", "2", "是"]),
    (T, "zh-night1", "act --at year 0026", ["act", "{g}", "4", "protect", "7", "--at", "0026-11-30 22:00"]),
    (T, "zh-day1", "nominate --at a year ahead", ["nominate", "{g}", "5", "3", "--at", "2027-12-01 10:20"]),
    (T, "zh-day1", "vote --at year 0026", ["vote", "{g}", "2", "3", "--at", "0026-12-01 10:41"]),
    (T, "mafia", "deadline --at year 0011", ["deadline", "{g}", "--day", "1", "--at", "0011-05-16 17:30"]),
    (T, "mafia", "deadline --at a year ahead", ["deadline", "{g}", "--day", "1", "--at", "2012-05-16 17:30"]),
    (T, "mafia", "deadline --at before the game", ["deadline", "{g}", "--day", "1", "--at", "2010-05-16 17:30"]),
    (T, "mafia", "deadline for a day not started", ["deadline", "{g}", "--day", "7", "--at", "2011-05-16 17:30"]),
    (T, "mafia", "start-day 12 after day 1", ["start-day", "{g}", "--day", "12", "--post", "30"]),
    (C, "mafia", "deadline inside the game", ["deadline", "{g}", "--day", "1", "--at", "2011-05-16 17:30"]),
]

built: dict[str, Path] = {}
fails = {T: 0, C: 0}
tries = {T: 0, C: 0}
for kind, setup, label, cmd in TRIES:
    if setup not in built:
        built[setup] = SETUPS[setup]()
    g = WORK / f"try-{len(tries) and sum(tries.values())}"
    shutil.rmtree(g, ignore_errors=True)
    shutil.copytree(built[setup], g, ignore=shutil.ignore_patterns(".modtool", "*.lock"))
    before = (g / "ledger.yaml").read_bytes()
    r = sh(*M, *[a.format(g=g) for a in cmd])
    after = (g / "ledger.yaml").read_bytes()
    tries[kind] += 1
    if kind == T:
        bad = r.returncode == 0 or after != before or "Traceback" in r.stderr
        why = ("accepted" if r.returncode == 0 else "exit 1 but WRITTEN") if after != before else (
            "exit 0, nothing written" if r.returncode == 0 else "traceback" if "Traceback" in r.stderr else "refused")
    else:
        bad = r.returncode != 0 or after == before
        why = "written" if not bad else f"exit {r.returncode}, {'written' if after != before else 'not written'}"
    fails[kind] += bad
    said = (r.stderr.strip() or r.stdout.strip()).splitlines()
    print(f"{'FAIL' if bad else 'ok  '} {kind:7} {setup:14} {label:48} {why:22} | {said[0][:110] if said else ''}")
print(f"typos: {tries[T]} tries, {fails[T]} failures (written, accepted or a traceback)")
print(f"controls: {tries[C]} tries, {fails[C]} failures (refused)")
