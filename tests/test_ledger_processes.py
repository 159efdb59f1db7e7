"""The ledger's promises, proven with real processes (README: 账本不会丢字).

Each test starts real ``modtool`` processes and attacks them from outside:
SIGKILL and SIGINT at random moments, an editor-like writer saving over the
ledger while commands append, four writers at once. Kept short (a few dozen
kills); tests/bench/bench_crash.py does the same a thousand times.
"""

from __future__ import annotations

import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from modtool import ledger

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "m42"
ENV = dict(os.environ, PYTHONPATH=str(ROOT), MODTOOL_LOCK_WAIT="60")
CMD = [sys.executable, "-m", "modtool"]

pytestmark = pytest.mark.skipif(os.name != "posix", reason="SIGKILL/SIGINT and flock are POSIX")


def game(tmp_path: Path, name: str = "g") -> Path:
    """A copy of the bundled example (day 2 open), without its cache."""
    g = tmp_path / name
    shutil.copytree(EXAMPLE, g, ignore=shutil.ignore_patterns(".modtool", "*.lock"))
    return g


def run(*args: str, **kw) -> subprocess.CompletedProcess:
    return subprocess.run([*CMD, *args], env=ENV, capture_output=True, text=True, timeout=120, **kw)


def card(g: Path, reason: str) -> list[str]:
    return [*CMD, "card", str(g), "白月初", "blue", "--reason", reason, "--at", "2026-11-04 12:00"]


def debris(g: Path) -> list[str]:
    found = [p.name for p in g.iterdir() if p.name.endswith(".tmp")]
    mt = g / ".modtool"
    if mt.is_dir():
        found += [p.name for p in mt.iterdir() if p.name.endswith((".tmp", ".intent"))]
    return found


def reasons(g: Path) -> list[str]:
    return [e.data["reason"] for e in ledger.load(g / "ledger.yaml").events if e.type == "card"]


# -- 4. crash-safe: SIGKILL at random moments -----------------------------------


def _kill_at_random(cmd: list[str], delay: float) -> int:
    p = subprocess.Popen(cmd, env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(delay)
    p.send_signal(signal.SIGKILL)
    return p.wait(30)


def _big_dump(path: Path, n: int) -> Path:
    """A plain-text vote thread of ``n`` floors by the example's accounts."""
    accounts = ["月初不是白", "红红的红", "雅雅女王", "富贵不能淫", "容容的算盘", "秦兰兰"]
    lines = []
    for i in range(2, n + 2):
        lines.append(f"#{i} {accounts[i % len(accounts)]} 2026-11-04 {10 + i // 600:02d}:{(i // 10) % 60:02d}")
        lines.append(f"讨论第 {i} 楼：今天谁最可疑？" + "字" * 40)
        lines.append("")
    path.write_text("\n".join(lines), encoding="utf-8")
    return path


@pytest.mark.slow  # real processes killed or raced at random moments: the slow tier
def test_sigkill_during_import_and_append_leaves_before_or_after(tmp_path):
    rng = random.Random(20261130)
    base = game(tmp_path, "base")
    dump = _big_dump(tmp_path / "dump.txt", 1500)
    before = (base / "ledger.yaml").read_bytes()
    # The "after" of each command, from a clean run on a copy.
    after_import = game(tmp_path, "after-import")
    assert run("import", str(after_import), str(dump), "--thread", "discussion", "--day", "2").returncode == 0
    after_import = (after_import / "ledger.yaml").read_bytes()
    after_card = game(tmp_path, "after-card")
    assert subprocess.run(card(after_card, "k"), env=ENV, capture_output=True).returncode == 0
    after_card = (after_card / "ledger.yaml").read_bytes()

    def import_cmd(g: Path) -> list[str]:
        return [*CMD, "import", str(g), str(dump), "--thread", "discussion", "--day", "2"]

    def span(make_cmd) -> float:
        """How long a whole run of the command takes here (the slower of two),
        so that kills land all along it whatever this machine's speed."""
        took = []
        for _ in range(2):
            g = game(tmp_path, f"timing-{rng.random()}")
            t0 = time.perf_counter()
            subprocess.run(make_cmd(g), env=ENV, capture_output=True, timeout=120)
            took.append(time.perf_counter() - t0)
        return max(took)

    spans = {"import": span(import_cmd), "card": span(lambda g: card(g, "k"))}
    outcomes = {"before": 0, "after": 0}
    n = 24
    for k in range(n):
        g = game(tmp_path, f"k{k}")
        if k % 2 == 0:
            cmd, after, whole = import_cmd(g), after_import, spans["import"]
        else:
            cmd, after, whole = card(g, "k"), after_card, spans["card"]
        # Stratified over 5%..140% of a whole run, jittered: early kills
        # land in start-up and reading, middle ones in the write, late
        # ones after the commit (a slow moment here only shifts them).
        lo, hi = 0.05 + 1.35 * k / n, 0.05 + 1.35 * (k + 1) / n
        _kill_at_random(cmd, whole * rng.uniform(lo, hi))
        # The next command recovers: the ledger is the one before or after, whole.
        check = run("check", str(g))
        assert check.returncode == 0, check.stderr
        now = (g / "ledger.yaml").read_bytes()
        assert now in (before, after), f"kill {k}: ledger is neither before nor after"
        outcomes["before" if now == before else "after"] += 1
        assert debris(g) == [], f"kill {k}: temp files left: {debris(g)}"
    assert outcomes["before"] and outcomes["after"], outcomes  # the kills landed on both sides


# -- 5. Ctrl-C --------------------------------------------------------------------


def _wait_until_at_work(pid: int) -> None:
    """Until the command holds the game folder's lock file open: modtool's own
    code is running. (Before Python has even imported modtool, during its
    own start-up, no program can answer Ctrl-C with a message; modtool
    answers from its first line on, see modtool/__main__.py.)"""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            fds = os.listdir(f"/proc/{pid}/fd")
        except OSError:
            return
        for fd in fds:
            try:
                if os.readlink(f"/proc/{pid}/fd/{fd}").endswith(".ledger.lock"):
                    return
            except OSError:
                pass
        time.sleep(0.001)


def _wait_for_sigint_handler(pid: int) -> None:
    """Until Python has installed its SIGINT handler: before that no program
    can answer Ctrl-C (the kernel's default ends the process), and Python
    installs it before it runs any of modtool."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            status = Path(f"/proc/{pid}/status").read_text()
        except OSError:
            return
        caught = next((ln.split()[1] for ln in status.splitlines() if ln.startswith("SigCgt:")), "0")
        if int(caught, 16) & (1 << (signal.SIGINT - 1)):
            return
        time.sleep(0.001)


@pytest.mark.slow  # real processes killed or raced at random moments: the slow tier
def test_ctrl_c_exits_130_with_message_and_leaves_before_or_after(tmp_path):
    rng = random.Random(7)
    dump = _big_dump(tmp_path / "dump.txt", 1500)
    g0 = game(tmp_path, "ref")
    before = (g0 / "ledger.yaml").read_bytes()
    assert run("import", str(g0), str(dump), "--thread", "discussion", "--day", "2").returncode == 0
    after = (g0 / "ledger.yaml").read_bytes()
    seen = set()
    for k in range(8):
        g = game(tmp_path, f"c{k}")
        p = subprocess.Popen([*CMD, "import", str(g), str(dump), "--thread", "discussion", "--day", "2"],
                             env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        _wait_until_at_work(p.pid)
        time.sleep(rng.uniform(0, 0.5))  # anywhere in the command's work
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=60)
        now = (g / "ledger.yaml").read_bytes()
        assert now in (before, after)
        if p.returncode == 0:  # finished before the signal
            assert now == after
            continue
        assert p.returncode == 130, (p.returncode, err)
        assert "已中断" in err and "Traceback" not in err
        assert ("账本未改动" in err) == (now == before)
        seen.add(now == before)
    assert seen  # at least one run was really interrupted


# -- 6. concurrent commands wait their turn ---------------------------------------

_WRITER = """
import sys
from modtool.cli.app import main
game, who, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
codes = []
for i in range(n):
    try:
        main(["card", game, "白月初", "blue", "--reason", f"{who}-{i}", "--at", "2026-11-04 12:00"])
        codes.append(0)
    except SystemExit as exc:
        codes.append(exc.code or 0)
print("codes:" + ",".join(map(str, codes)))
"""


@pytest.mark.slow  # real processes killed or raced at random moments: the slow tier
def test_four_writers_fifty_cards_each_none_refused_none_lost(tmp_path):
    g = game(tmp_path)
    procs = [subprocess.Popen([sys.executable, "-c", _WRITER, str(g), f"w{w}", "50"], env=ENV,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for w in range(4)]
    for p in procs:
        out, err = p.communicate(timeout=300)
        assert p.returncode == 0, err
        codes = out.strip().splitlines()[-1]
        assert codes == "codes:" + ",".join(["0"] * 50), err  # every command done, none refused
    got = reasons(g)
    assert len(got) == 200
    assert sorted(got) == sorted(f"w{w}-{i}" for w in range(4) for i in range(50))
    for w in range(4):  # each writer's cards in its own order
        assert [r for r in got if r.startswith(f"w{w}-")] == [f"w{w}-{i}" for i in range(50)]


# -- 1. an editor saving while commands append --------------------------------------

_EDITOR = """
import os, sys, time, random
path, n, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rng = random.Random(seed)
for i in range(n):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    time.sleep(rng.uniform(0, 0.05))  # the buffer goes stale while the director types
    text += f"# 导演的修改 {i}\\n"
    if i % 2:  # save by rename, as vim and most editors do
        tmp = path + ".editor-swap"
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, path)
    else:  # rewrite in place, as some editors do
        with open(path, "r+", encoding="utf-8") as f:
            f.truncate(0)
            f.write(text)
    print(i, flush=True)
    time.sleep(rng.uniform(0, 0.1))
"""


@pytest.mark.slow  # real processes killed or raced at random moments: the slow tier
def test_editor_saves_are_never_overwritten_and_lost_events_are_named_and_restored(tmp_path):
    g = game(tmp_path)
    path = g / "ledger.yaml"
    editor = subprocess.Popen([sys.executable, "-c", _EDITOR, str(path), "40", "3"], env=ENV,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    acknowledged = []
    k = 0
    while editor.poll() is None and k < 60:
        r = subprocess.run(card(g, f"r{k}"), env=ENV, capture_output=True, text=True, timeout=120)
        if r.returncode == 0:
            acknowledged.append(f"r{k}")
        else:
            # refused with nothing written and a message saying what happened
            assert "编辑器" in r.stderr or "YAML" in r.stderr or "账本" in r.stderr, r.stderr
            assert "Traceback" not in r.stderr
        k += 1
    out, err = editor.communicate(timeout=60)
    assert editor.returncode == 0, err
    saved = [int(x) for x in out.split()]
    text = path.read_text(encoding="utf-8")
    # 1. every edit the editor saved is still there (modtool never replaced the file)
    for i in saved:
        assert f"# 导演的修改 {i}\n" in text
    # 2. every acknowledged card is in the ledger, or the next command names it
    check = run("check", str(g))
    missing = [r for r in acknowledged if r not in reasons(g)]
    if missing:
        assert "modtool restore" in check.stderr
        for r in missing:
            assert f'"reason": "{r}"' in check.stderr or "……共" in check.stderr
        fix = run("restore", str(g))
        assert fix.returncode == 0, fix.stderr
    assert run("check", str(g)).stderr.count("modtool restore") == 0
    got = reasons(g)
    for r in acknowledged:
        assert got.count(r) == 1, r
    assert acknowledged  # the race let some commands through


def test_stale_editor_save_is_named_and_restored_in_one_command(tmp_path):
    g = game(tmp_path)
    path = g / "ledger.yaml"
    stale = path.read_text(encoding="utf-8")  # the director's editor has the file open
    assert subprocess.run(card(g, "一张蓝牌"), env=ENV, capture_output=True).returncode == 0
    path.write_text(stale + "# 导演加的注释\n", encoding="utf-8")  # ... and saves its old buffer
    r = run("status", str(g))
    assert "少了 1 条" in r.stderr and "一张蓝牌" in r.stderr and f"modtool restore {g}" in r.stderr
    fix = run("restore", str(g))
    assert fix.returncode == 0 and "已追加回账本末尾 1 条" in fix.stdout
    assert reasons(g) == ["一张蓝牌"]
    assert "# 导演加的注释" in path.read_text(encoding="utf-8")
    assert "少了" not in run("status", str(g)).stderr


def test_deliberate_deletion_is_accepted_with_forget(tmp_path):
    g = game(tmp_path)
    path = g / "ledger.yaml"
    before = path.read_text(encoding="utf-8")
    assert subprocess.run(card(g, "删掉我"), env=ENV, capture_output=True).returncode == 0
    path.write_text(before, encoding="utf-8")
    assert "少了 1 条" in run("check", str(g)).stderr
    assert run("restore", str(g), "--forget").returncode == 0
    assert "少了" not in run("check", str(g)).stderr
    assert reasons(g) == []
