"""CLI conventions a director expects of any tool: --version, shell completion,
choices listed in help and errors, sensible defaults, quiet logs."""

from __future__ import annotations

import io
import re
import tomllib
from pathlib import Path

import pytest

from tests.support.values import run_main

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "m42"


def run(capsys, *args):
    code = run_main([str(a) for a in args])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_version_prints_the_package_version(capsys):
    import modtool

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert modtool.__version__ == project["version"]
    code, out, err = run(capsys, "--version")
    assert code == 0, err
    assert out.strip() == f"modtool {modtool.__version__}"


def test_help_offers_shell_completion(capsys):
    code, out, _ = run(capsys, "--help")
    assert code == 0
    assert "--install-completion" in out and "--show-completion" in out


def test_completion_completes_a_command_name(capsys, monkeypatch):
    monkeypatch.setenv("_MODTOOL_COMPLETE", "complete_bash")
    monkeypatch.setenv("COMP_WORDS", "modtool tal")
    monkeypatch.setenv("COMP_CWORD", "1")
    code, out, err = run(capsys, "tal")
    assert code == 0, err
    assert out.split() == ["tally"]
