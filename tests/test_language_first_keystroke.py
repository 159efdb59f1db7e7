"""English from the first keystroke: the language a command speaks before it opens a
game (modtool.cli.language), and no help that mixes two languages.

A C or POSIX locale (``LANG=C.UTF-8``, the default of many containers) names no
language: modtool speaks English there, as every program's untranslated text does.
A pack's own command (``start-day``: the mafia pack's) speaks its pack's language
whatever the locale, and so does a command line naming a mafia game or folder.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT
from tests.support.values import run_cli

MODTOOL = str(Path(sys.executable).parent / "modtool")
MAFIA = str(ROOT / "examples" / "mafia")
LOCALES = ["C.UTF-8", "C", "POSIX", "zh_CN.UTF-8", "en_US.UTF-8"]


def cjk(text: str) -> bool:
    return any("\u3000" <= ch <= "\u9fff" or "\uff00" <= ch <= "\uffef" for ch in text)


def english(text: str) -> bool:
    """Help in English: no CJK character at all (but the names zhenhuan gives players
    without a roster, data the help quotes)."""
    return not cjk(text.replace("玩家1…N", ""))


def chinese(text: str) -> bool:
    """Help in Chinese: click's frame is Chinese and no English sentence of a help text is in it."""
    return text.startswith("用法:") and not re.search(r"(?m)^  [A-Z][a-z]+( [a-z]+){3,}", text)


@pytest.fixture
def locale(monkeypatch):
    def set_locale(value: str) -> None:
        for key in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
            monkeypatch.delenv(key, raising=False)
        monkeypatch.setenv("LANG", value)
    return set_locale


def test_a_c_or_posix_locale_names_no_language_and_modtool_speaks_english_there():
    from modtool.base.i18n import locale_language

    for value in ("C", "C.UTF-8", "C.utf8", "POSIX", "en_US.UTF-8", "en"):
        assert locale_language({"LANG": value}) == "en", value
    assert locale_language({}) == "en"  # no locale at all is the C locale
    for value in ("zh_CN.UTF-8", "zh_TW.Big5", "zh"):
        assert locale_language({"LANG": value}) == "zh", value
    assert locale_language({"LC_ALL": "C.UTF-8", "LANG": "zh_CN.UTF-8"}) == "en"  # LC_ALL wins, as in C
    assert locale_language({"LANGUAGE": "zh_CN", "LANG": "C.UTF-8"}) == "zh"  # LANGUAGE names one: it is asked for


@pytest.mark.parametrize("value", ["C.UTF-8", "POSIX"])
def test_top_level_help_under_a_c_locale_is_english_throughout(locale, capsys, value):
    locale(value)
    code, out, err = run_cli(capsys, "--help")
    assert code == 0 and out.startswith("Usage: modtool") and "Commands" in out
    assert english(out), out


@pytest.mark.parametrize("value", LOCALES)
def test_a_mafia_commands_help_is_english_in_any_locale(locale, capsys, value):
    locale(value)
    code, out, _ = run_cli(capsys, "start-day", "--help")
    assert code == 0 and out.startswith("Usage: modtool start-day") and "Options" in out, out
    assert english(out), out
    code, out, _ = run_cli(capsys, "tally", MAFIA, "--help")
    assert code == 0 and out.startswith("Usage: modtool tally") and english(out), out


@pytest.mark.parametrize("value", LOCALES)
def test_new_game_mafia_and_its_errors_are_english_in_any_locale(locale, capsys, tmp_path, value):
    locale(value)
    code, out, _ = run_cli(capsys, "new", str(tmp_path / "x"), "--game", "mafia", "--help")
    assert code == 0 and out.startswith("Usage: modtool new") and english(out), out
    code, out, err = run_cli(capsys, "new", str(tmp_path / "x"), "--game", "mafia")
    assert code == 1 and err.startswith("Error: ") and english(err) and "Traceback" not in err, err
    code, out, err = run_cli(capsys, "new", str(tmp_path / "x"), "--game", "mafia", "--roster", str(tmp_path / "none.yaml"))
    assert code == 1 and err.startswith("Error: ") and english(err) and "Traceback" not in err, err
    code, out, err = run_cli(capsys, "new", str(tmp_path / "x"), "--game", "mafia", "--rooster", "r.yaml")
    assert code == 2 and err.startswith("Error: ") and english(err) and "Traceback" not in err, err
    assert not (tmp_path / "x").exists()


@pytest.mark.parametrize("value", LOCALES)
def test_help_inside_a_mafia_games_folder_is_english_in_any_locale(locale, capsys, monkeypatch, tmp_path, value):
    g = tmp_path / "g"
    shutil.copytree(MAFIA, g, ignore=shutil.ignore_patterns(".modtool", "*.lock"))
    monkeypatch.chdir(g)
    locale(value)
    for args in (["--help"], ["tally", "--help"], ["tally", ".", "--help"], ["start-day", "--help"]):
        code, out, _ = run_cli(capsys, *args)
        assert code == 0 and out.startswith("Usage: modtool") and english(out), (args, out)


@pytest.mark.parametrize("value", LOCALES)
def test_no_help_mixes_two_languages(locale, capsys, value):
    """Every command's --help, without a game, is wholly the language it starts in."""
    from modtool.cli.app import app
    from modtool.cli.dispatch import command_name

    locale(value)
    for name in ["", *sorted({command_name(c) for c in app.registered_commands})]:
        code, out, _ = run_cli(capsys, *([name] if name else []), "--help")
        assert code == 0, (name, out)
        if out.startswith("Usage:"):
            assert english(out), (value, name, out)
        else:
            assert chinese(out), (value, name, out)


def test_a_chinese_locale_still_reads_chinese_help_without_a_game(locale, capsys):
    locale("zh_CN.UTF-8")
    code, out, _ = run_cli(capsys, "--help")
    assert code == 0 and out.startswith("用法: modtool") and "统计一天的投票" in out
    code, out, _ = run_cli(capsys, "tally", "--help")
    assert out.startswith("用法: modtool tally") and chinese(out) and "示例" in out, out


def test_a_real_process_under_lang_c_utf8_speaks_english(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LC_", "LANG"))}
    env["LANG"] = "C.UTF-8"
    for args in (["--help"], ["start-day", "--help"], ["new", str(tmp_path / "x"), "--game", "mafia"]):
        done = subprocess.run([MODTOOL, *args], capture_output=True, text=True, env=env, cwd=tmp_path, timeout=120)
        assert done.returncode in (0, 1), (args, done.stderr)
        assert english(done.stdout + done.stderr), (args, done.stdout, done.stderr)
        assert "Traceback" not in done.stderr and (done.stdout.startswith("Usage: modtool") or done.stderr.startswith("Error: "))
