"""Ctrl-C at each phase of a command, a closed output pipe, and a terminal
that is not UTF-8, with real processes (README: 按 Ctrl-C…; 终端不是 UTF-8 时…).

The quick version of tests/bench/probe_interrupt.py: instead of random
moments, each run sends itself SIGINT at one fixed phase, through a driver
shaped like the console script pip writes for ``modtool`` (modtool/__main__.py).
"""

from __future__ import annotations

import codecs
import io
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.values import latin1_env

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "m42"

pytestmark = pytest.mark.skipif(os.name != "posix", reason="SIGINT to itself and /proc are POSIX")

# pip's console script for [project.scripts] modtool, with a Ctrl-C at PHASE.
_DRIVER = r"""
import os, signal, sys
PHASE = sys.argv.pop(1)
ctrl_c = lambda: os.kill(os.getpid(), signal.SIGINT)
once = []

if PHASE == "importing":
    class Trip:  # a Ctrl-C the moment modtool.cli.app starts importing typer
        def find_spec(self, name, path=None, target=None):
            if name == "typer" and not once:
                once.append(1)
                ctrl_c()
            return None
    sys.meta_path.insert(0, Trip())

import re
from modtool.__main__ import run

if PHASE == "start-up":  # the entry module imported, run() not called yet
    ctrl_c()
if PHASE == "after output":  # the command done and printed; the process leaving
    real_exit = os._exit
    def _exit(code):
        if not once:
            once.append(1)
            ctrl_c()
        real_exit(code)
    os._exit = _exit
if PHASE == "twice":  # a Ctrl-C while computing, a second one while the first is told
    import modtool.cli.app
    def _main(argv):
        ctrl_c()
    tell = modtool.cli.app._interrupted
    def _interrupted():
        if not once:
            once.append(1)
            ctrl_c()
        tell()
    modtool.cli.app._main, modtool.cli.app._interrupted = _main, _interrupted
sys.exit(run())
"""


def _game(tmp_path: Path, name: str = "g") -> Path:
    g = tmp_path / name
    shutil.copytree(EXAMPLE, g, ignore=shutil.ignore_patterns(".modtool", "*.lock"))
    return g


def _env(tmp_path: Path, **extra) -> dict:
    # TMPDIR: a crash report, if any, stays in the test's folder.
    return dict(os.environ, PYTHONPATH=str(ROOT), TMPDIR=str(tmp_path), **extra)


def _drive(tmp_path: Path, phase: str, *args: str, stdout=subprocess.PIPE) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", _DRIVER, phase, *args], env=_env(tmp_path),
                          stdout=stdout, stderr=subprocess.PIPE, timeout=120)


def _no_traceback(err: str) -> None:
    assert "Traceback" not in err and "Exception ignored" not in err, err
    assert "内部错误" not in err, err


@pytest.mark.parametrize("phase", ["start-up", "importing", "twice"])
def test_ctrl_c_before_or_while_telling_ends_130_with_the_message(tmp_path, phase):
    g = _game(tmp_path)
    before = (g / "ledger.yaml").read_bytes()
    done = _drive(tmp_path, phase, "card", str(g), "2", "blue", "--reason", "x", "--at", "2026-11-04 12:00")
    err = done.stderr.decode("utf-8")
    assert done.returncode == 130, (done.returncode, err)  # never -2 (a death by the signal)
    _no_traceback(err)
    assert "已中断，账本未改动" in err
    assert (g / "ledger.yaml").read_bytes() == before


def test_ctrl_c_after_the_output_ends_130_with_the_output_whole(tmp_path):
    g = _game(tmp_path)
    plain = _drive(tmp_path, "none", "tally", str(g), "--day", "2")
    assert plain.returncode == 0
    done = _drive(tmp_path, "after output", "tally", str(g), "--day", "2")
    err = done.stderr.decode("utf-8")
    assert done.returncode == 130, (done.returncode, err)
    _no_traceback(err)
    assert "已中断" in err
    assert done.stdout == plain.stdout  # everything printed before it left


def test_help_into_a_closed_pipe_leaves_quietly(tmp_path):
    """``modtool | head -0``: the reader is gone before the help is printed."""
    p = subprocess.Popen([sys.executable, "-c", _DRIVER, "none"], env=_env(tmp_path),
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    p.stdout.close()
    err = p.stderr.read().decode("utf-8")
    assert p.wait(60) == 1
    assert err == ""


def _wrapped_by_python(kind: str) -> Exception:
    """A Ctrl-C as Python hands it on from inside its machinery (cli_errors.crashed)."""
    if kind == "cause":  # a class body's __set_name__ (3.11: RuntimeError from the KeyboardInterrupt)
        exc = RuntimeError("Error calling __set_name__ on 'Field' instance 'refs' in 'Body'")
        exc.__cause__ = KeyboardInterrupt()
        return exc
    try:  # unwinding with a buffer still exported
        raise KeyboardInterrupt
    except KeyboardInterrupt:
        try:
            raise BufferError("Existing exports of data: object cannot be re-sized")
        except BufferError as exc:
            return exc


@pytest.mark.parametrize("kind", ["cause", "context"])
def test_a_ctrl_c_that_python_wrapped_in_another_exception_is_still_a_ctrl_c(tmp_path, monkeypatch, capsys, kind):
    import tempfile

    from modtool.cli import app as cli_app  # command_tree as each run calls it
    from tests.support.values import run_cli

    def tree(*a, **kw):
        raise _wrapped_by_python(kind)

    monkeypatch.setattr(cli_app, "command_tree", tree)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    code, out, err = run_cli(capsys, "status", _game(tmp_path))
    assert code == 130, err
    assert "已中断，账本未改动" in err and "内部错误" not in err
    assert not list(tmp_path.glob("modtool-crash-*"))  # no crash report for a Ctrl-C


# -- a terminal that is not UTF-8 ------------------------------------------------------


@pytest.fixture(scope="module")
def latin1(tmp_path_factory) -> dict:
    """A Latin-1 terminal (tests/support/values.py)."""
    return latin1_env(tmp_path_factory.mktemp("locales"))


def _shown(data: bytes) -> str:
    """What a Latin-1 terminal shows, its \\uXXXX read back as the characters."""
    return codecs.decode(data, "unicode_escape")


def test_writing_commands_on_a_chinese_game_under_latin1_print_escaped_and_never_crash(tmp_path, latin1):
    g = _game(tmp_path)
    dump = tmp_path / "talk.txt"
    dump.write_text("#2 月初不是白 2026-11-04 10:00\n今天谁最可疑？\n\n#3 红红的红 2026-11-04 10:05\n再看看。\n", encoding="utf-8")
    runs = [
        (["import", str(g), str(dump), "--thread", "discussion", "--day", "2"], "已导入 2 帖"),
        (["card", str(g), "2", "blue", "--reason", "latin1", "--at", "2026-11-04 12:00"], "已判罚：白月初 蓝牌"),
        (["close", str(g), "--day", "2", "--at", "2026-11-05 22:30"], "关门"),
    ]
    for args, said in runs:
        before = (g / "ledger.yaml").read_bytes()
        done = subprocess.run([sys.executable, "-m", "modtool", *args], env=dict(latin1, PYTHONPATH=str(ROOT), TMPDIR=str(tmp_path)),
                              capture_output=True, timeout=120)
        out, err = _shown(done.stdout), _shown(done.stderr)
        assert done.returncode == 0, (args[0], done.returncode, err)
        _no_traceback(err)
        assert said in out, (args[0], out)
        assert b"\\u" in done.stdout and max(done.stdout) < 0x80  # escaped, not raw UTF-8 bytes
        assert (g / "ledger.yaml").read_bytes() != before  # written, and said so


def test_ctrl_c_message_under_latin1_is_escaped_not_raw_utf8(tmp_path, latin1):
    done = subprocess.run([sys.executable, "-c", _DRIVER, "start-up", "status", str(_game(tmp_path))],
                          env=dict(latin1, PYTHONPATH=str(ROOT), TMPDIR=str(tmp_path)), capture_output=True, timeout=120)
    assert done.returncode == 130
    assert max(done.stderr) < 0x80 and "已中断" in _shown(done.stderr), done.stderr


def test_json_under_latin1_is_the_same_json(tmp_path, latin1):
    g = _game(tmp_path)
    args = [sys.executable, "-m", "modtool", "tally", str(g), "--day", "2", "--json"]
    utf8 = subprocess.run(args, env=_env(tmp_path), capture_output=True, timeout=120)
    narrow = subprocess.run(args, env=dict(latin1, PYTHONPATH=str(ROOT), TMPDIR=str(tmp_path)), capture_output=True, timeout=120)
    assert narrow.returncode == utf8.returncode == 0, narrow.stderr
    assert json.loads(narrow.stdout.decode("latin-1")) == json.loads(utf8.stdout.decode("utf-8"))


def test_the_escape_keeps_json_valid_for_every_character():
    """Beyond U+FFFF as a surrogate pair, a lone surrogate as itself (modtool.cli.console)."""
    from modtool.cli import console

    saved = sys.stdout, sys.stderr
    sys.stdout = io.TextIOWrapper(io.BytesIO(), encoding="ascii", errors="strict")
    sys.stderr = io.TextIOWrapper(io.BytesIO(), encoding="ascii", errors="strict")
    try:
        console.set_up()
        value = {"名字": "红红😀é", "lone": "\udcff"}
        print(json.dumps(value, ensure_ascii=False), end="")
        sys.stdout.flush()
        data = sys.stdout.buffer.getvalue()
    finally:
        sys.stdout, sys.stderr = saved
    assert json.loads(data.decode("ascii")) == value


def test_chinese_typed_under_a_latin1_locale_is_stored_as_typed(tmp_path, latin1):
    """A UTF-8 terminal with a Latin-1 locale: Python reads the typed bytes as
    Latin-1; modtool reads an argument that is valid UTF-8 as UTF-8, so the
    name is found and the reason is stored as typed, not as gibberish."""
    if "LOCPATH" not in latin1:
        pytest.skip("no real Latin-1 locale here (PYTHONIOENCODING changes the output only)")
    g = _game(tmp_path)
    done = subprocess.run([sys.executable, "-m", "modtool", "card", str(g), "白月初", "blue", "--reason", "投票帖格式不对",
                           "--at", "2026-11-04 12:00"], env=dict(latin1, PYTHONPATH=str(ROOT), TMPDIR=str(tmp_path)),
                          capture_output=True, timeout=120)
    assert done.returncode == 0, _shown(done.stderr)
    assert "投票帖格式不对" in (g / "ledger.yaml").read_text(encoding="utf-8")
