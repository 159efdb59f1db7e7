"""Golden outputs: what every command prints today, stored under tests/golden/.

A case is one command line (``Case``) or a few in a row on a fresh copy of an
example game (``Script``: writing commands, whose ledger is compared too). Its
rendering (``render``) holds the command line, the exit code, stdout and, when
there is any, stderr; a script's adds what its commands did to ``ledger.yaml``
(a unified diff against the example's, line endings kept). A normal run
compares the rendering with the stored file byte for byte and, on a
difference, fails with a unified diff of its first lines; a case without a
stored file fails. ``MODTOOL_GOLDEN=update`` writes the files instead:

    MODTOOL_GOLDEN=update .venv/bin/pytest tests/test_golden*.py

The cases run in this process (``tests.support.values.run_cli``) from a copy of
``examples/`` in a temporary folder, named as a director at the repository's
root names them (``examples/m42``); the copy's path, and this checkout's, are
replaced by ``<TMP>`` and ``<ROOT>`` should they appear. The wall clock is
frozen (``modtool.base.times.wall_clock``), the help's width is 80 columns,
and the locale is the suite's (Chinese; ``LANGUAGE=en`` where a case says so).

File names come from the command line without the game folder: ``modtool tally
examples/m42 --day 2 --json`` is ``tests/golden/m42/tally--day-2.json`` (the
``.json`` files hold the same header as the ``.txt`` ones, then the JSON).
"""

from __future__ import annotations

import difflib
import os
import re
import shlex
import shutil
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from tests.support.values import run_cli

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
GOLDEN = ROOT / "tests" / "golden"
UPDATE = os.environ.get("MODTOOL_GOLDEN") == "update"
REGENERATE = "MODTOOL_GOLDEN=update .venv/bin/pytest tests/test_golden*.py"
BUILD_1145 = GOLDEN / "mafia-1145" / "build.sh.txt"  # tests/test_golden_mafia.py
DIFF_LINES = 40  # of a failing case's unified diff, shown

CST = timezone(timedelta(hours=8))  # the Chinese games' zone (Asia/Shanghai has had no DST since 1991)


# --- cases ------------------------------------------------------------------------------


def _slug(token: str) -> str:
    return re.sub(r"[\s/\\:*?\"<>|{}]+", "_", token)


@dataclass(frozen=True)
class Case:
    """``modtool ARGV…`` run once; ``where``: its folder under tests/golden/."""

    where: str
    argv: tuple[str, ...]
    env: tuple[tuple[str, str], ...] = ()  # extra environment, e.g. (("LANGUAGE", "en"),)
    outputs: tuple[str, ...] = ()  # files the command writes (relative to the run's folder), stored too

    @property
    def name(self) -> str:
        words = [a for a in self.argv if not a.startswith("examples/") and a != "--json"]
        stem = re.sub(r"-{3,}", "--", "-".join(_slug(w) for w in words)) or "modtool"
        if stem.startswith("-"):
            stem = "modtool" + stem
        return stem + (".json" if "--json" in self.argv else ".txt")

    @property
    def path(self) -> Path:
        return GOLDEN / self.where / self.name

    @property
    def id(self) -> str:
        return f"{self.where}/{self.name}"


@dataclass(frozen=True)
class Script:
    """Commands run in a row on a fresh copy of ``examples/<game>``; their output and the ledger's change."""

    where: str
    name: str
    game: str
    steps: tuple[tuple[str, ...], ...]
    now: datetime | None = None  # the wall clock (default: FROZEN)
    ledgers: tuple[str, ...] = ()  # the games under examples/ whose ledgers are shown (default: ``game``)

    @property
    def path(self) -> Path:
        return GOLDEN / self.where / f"{self.name}.txt"

    @property
    def id(self) -> str:
        return f"{self.where}/{self.name}.txt"


# The wall clock of every case but a script's own: after every example game's phases.
FROZEN = datetime(2027, 1, 1, 12, 0, tzinfo=timezone.utc)


def ids(cases) -> list[str]:
    return [c.id for c in cases]


def unique(cases: list) -> list:
    """``cases``, refused if two would share one stored file."""
    seen: dict[str, object] = {}
    for c in cases:
        assert c.id not in seen, f"two golden cases write {c.id}: {seen[c.id]} and {c}"
        seen[c.id] = c
    return cases


# --- running --------------------------------------------------------------------------


def copy_examples(base: Path, *games: str) -> Path:
    """``base/examples/<game>`` for each game: a copy without the read cache, locks or pictures."""
    for game in games:
        shutil.copytree(EXAMPLES / game, base / "examples" / game,
                        ignore=shutil.ignore_patterns(".modtool", "*.lock", "*.png", "expected"))
    return base


def _clean(text: str, work: Path) -> str:
    for path, mark in ((work.resolve(), "<TMP>"), (work, "<TMP>"), (ROOT, "<ROOT>")):
        text = text.replace(str(path), mark)
    return text


def section(name: str, text: str) -> str:
    if not text:
        return ""
    tail = "" if text.endswith("\n") else "\n\\ no newline at end of " + name + "\n"
    return f"--- {name}\n{text}{tail}"


def render(argv, code: int, out: str, err: str, env=()) -> str:
    line = " ".join([*(f"{k}={v}" for k, v in env), "modtool", *([shlex.join(argv)] if argv else [])])
    return f"$ {line}\nexit {code}\n" + section("stdout", out) + section("stderr", err)


def freeze(monkeypatch, now: datetime | None = None) -> None:
    """The wall clock reads ``now`` (default FROZEN), in whatever zone it is asked for."""
    frozen = now or FROZEN
    monkeypatch.setattr("modtool.base.times.wall_clock", lambda tz: frozen.astimezone(tz))


def run_one(capsys, monkeypatch, work: Path, argv, env=(), now: datetime | None = None) -> str:
    """``modtool ARGV…`` in ``work`` as a fresh command, rendered (paths replaced)."""
    monkeypatch.chdir(work)
    monkeypatch.setenv("LANG", "zh_CN.UTF-8")
    monkeypatch.setenv("COLUMNS", "80")
    for key in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(key, raising=False)
    for key, value in env:
        monkeypatch.setenv(key, value)
    freeze(monkeypatch, now)
    code, out, err = run_cli(capsys, *argv)
    return _clean(render(argv, code, out, err, env), work)


def run_case(case: Case, capsys, monkeypatch, work: Path) -> None:
    """Run a reading case in ``work`` (a copy of the examples) and compare it; it must not write."""
    ledgers = {p: p.read_bytes() for p in (work / "examples").glob("*/ledger.yaml")}
    text = run_one(capsys, monkeypatch, work, case.argv, case.env)
    for name in case.outputs:
        written = work / name
        body = written.read_text(encoding="utf-8") if written.is_file() else "(not written)\n"
        text += section(name, body)
        written.unlink(missing_ok=True)
    changed = [str(p.relative_to(work)) for p, data in ledgers.items() if p.read_bytes() != data]
    assert not changed, f"{case.id}: a reading command changed {changed}"
    compare(case.path, text)


def ledger_change(before: bytes, after: bytes, name: str) -> str:
    if before == after:
        return f"--- {name}: unchanged\n"
    diff = difflib.unified_diff(before.decode("utf-8").splitlines(keepends=True),
                                after.decode("utf-8").splitlines(keepends=True), name, name + " after")
    return "".join(line if line.endswith("\n") else line + "\n\\ no newline at end of file\n" for line in diff)


def run_script(script: Script, capsys, monkeypatch, tmp_path: Path) -> None:
    work = copy_examples(tmp_path, script.game)
    ledgers = [work / "examples" / game / "ledger.yaml" for game in script.ledgers or (script.game,)]
    before = [p.read_bytes() if p.is_file() else b"" for p in ledgers]
    text = "".join(run_one(capsys, monkeypatch, work, argv, now=script.now) for argv in script.steps)
    for path, data in zip(ledgers, before):
        after = path.read_bytes() if path.is_file() else b""
        text += ledger_change(data, after, str(path.relative_to(work)))
    compare(script.path, text)


# --- comparing ----------------------------------------------------------------------------


def compare(path: Path, actual: str) -> None:
    data = actual.encode("utf-8", "surrogatepass")
    rel = path.relative_to(ROOT)
    if UPDATE:
        path.parent.mkdir(parents=True, exist_ok=True)
        if not path.is_file() or path.read_bytes() != data:
            path.write_bytes(data)
        return
    if not path.is_file():
        pytest.fail(f"{rel} is missing: a new case? Write it with {REGENERATE} and review it", pytrace=False)
    expected = path.read_bytes()
    if expected == data:
        return
    diff = list(difflib.unified_diff(expected.decode("utf-8", "surrogatepass").splitlines(keepends=True),
                                     actual.splitlines(keepends=True), f"{rel} (stored)", "this run"))
    shown = "".join(line if line.endswith("\n") else line + "\n" for line in diff[:DIFF_LINES])
    more = f"… {len(diff) - DIFF_LINES} more diff lines\n" if len(diff) > DIFF_LINES else ""
    pytest.fail(f"{rel} differs from this run's output (if the change is meant, {REGENERATE}):\n{shown}{more}",
                pytrace=False)


def stored_files() -> set[str]:
    """Every stored golden file, as a case id."""
    return {str(p.relative_to(GOLDEN)) for p in GOLDEN.rglob("*") if p.is_file()}
