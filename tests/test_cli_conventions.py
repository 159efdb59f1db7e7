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


# Every closed set of option values: (command line before the value, option, the values).
CHOICES = [
    (["import", EXAMPLE, EXAMPLE / "dumps" / "day1-vote.txt", "--day", "1"], "--thread", ["vote", "discussion", "process"]),
    (["announce", EXAMPLE, "vote", "--day", "2"], "--format", ["bbcode", "markdown", "md"]),
    (["waive", EXAMPLE, "东方淮竹", "--day", "2", "--reason", "已请假"], "--rule", ["a", "b", "c"]),
    (["new", "新游戏", "--seed", "7"], "--game", ["m42", "mafia", "zhenhuan"]),  # packs in name order
]


@pytest.mark.parametrize("before, option, values", CHOICES, ids=[c[1] for c in CHOICES])
def test_closed_option_values_are_listed_in_help_and_in_the_error(capsys, before, option, values, tmp_path):
    code, out, _ = run(capsys, before[0], "--help")
    assert code == 0 and f"{option} [{'|'.join(values)}]" in out
    code, out, err = run(capsys, *before, option, "nonesuch")
    assert code == 2 and "Traceback" not in err
    assert f"{option} 的值不对：应为 {'、'.join(values)} 之一，而不是「nonesuch」" in err
    assert not (tmp_path / "新游戏").exists()


def test_announce_kind_is_a_choice_refused_with_every_kind_named(capsys):
    from modtool.packs.m42.post_kinds import KINDS

    code, _, err = run(capsys, "announce", EXAMPLE, "votes", "--day", "2")
    assert code == 2 and "而不是「votes」" in err
    assert all(k in err for k in KINDS)


def test_format_md_is_markdown(capsys):
    md = run(capsys, "announce", EXAMPLE, "vote", "--day", "2", "--format", "md")
    markdown = run(capsys, "announce", EXAMPLE, "vote", "--day", "2", "--format", "markdown")
    assert md[0] == 0 and md == markdown and md[1].startswith("**")


def test_tally_defaults_to_the_current_day_as_announce_does(capsys):
    from modtool.core.gamefile import open_game
    from modtool.packs.m42.replay import replay

    today = replay(open_game(EXAMPLE)).number
    code, out, err = run(capsys, "tally", EXAMPLE)
    assert code == 0, err
    assert (code, out, err) == run(capsys, "tally", EXAMPLE, "--day", today)
    code, out, _ = run(capsys, "tally", "--help")
    assert "第几天（默认当前）" in out


class _Stderr(io.StringIO):
    def __init__(self, tty: bool):
        super().__init__()
        self.tty = tty

    def isatty(self) -> bool:
        return self.tty


def _big_dump(path: Path, n: int) -> Path:
    import json

    posts = [{"pid": str(90000000 + i), "tid": "2042009", "author": "苏苏今天也很努力", "authorid": "2001",
              "dateline": "2026-11-4 10:00", "message": f"第 {i} 帖", "position": str(i), "first": "0"}
             for i in range(1, n + 1)]
    path.write_text(json.dumps({"Variables": {"postlist": posts}}, ensure_ascii=False), encoding="utf-8")
    return path


@pytest.mark.parametrize("tty", [True, False], ids=["terminal", "log"])
def test_progress_shows_only_when_stderr_is_a_terminal(tmp_path, monkeypatch, capsys, tty):
    """The one progress display (a long import: click's progress bar) writes to stderr only for a person at a terminal."""
    import shutil
    import sys

    game = tmp_path / "m42"
    shutil.copytree(EXAMPLE, game)
    dump = _big_dump(tmp_path / "discussion.json", 5000)
    err = _Stderr(tty)
    monkeypatch.setattr(sys, "stderr", err)
    code = run_main(["import", str(game), str(dump), "--thread", "discussion", "--day", "3", "--dry-run"])
    assert code == 0, err.getvalue()
    assert ("读取帖子" in err.getvalue() and "5000/5000" in err.getvalue()) is tty
    assert "读取帖子" not in capsys.readouterr().out


def test_roles_gives_one_character_on_request(capsys):
    code, everyone, err = run(capsys, "announce", EXAMPLE, "roles")
    assert code == 0, err
    code, one, err = run(capsys, "announce", EXAMPLE, "roles", "--character", "石宽")
    assert code == 0, err
    assert one.count("身份通知") == 1 and "身份通知：石宽" in one and "[hr]" not in one
    assert one.strip() in everyone  # the same card as in the full list
    by_alias = run(capsys, "announce", EXAMPLE, "roles", "--character", "红红", "--format", "md")
    assert by_alias[0] == 0 and "身份通知：涂山红红" in by_alias[1] and by_alias[1].count("身份通知") == 1


def test_roles_for_an_unknown_character_is_refused_with_a_hint(capsys):
    code, out, err = run(capsys, "announce", EXAMPLE, "roles", "--character", "石宽宽")
    assert code == 1 and out == "" and "名单上没有「石宽宽」" in err and "Traceback" not in err


def test_help_and_usage_errors_frame_the_chinese_help_in_chinese(capsys):
    """click's own words around the help (Usage, Options, [required], the --help line)
    and its range errors are Chinese too: a director reads one language."""
    from tests.support.values import run_main

    assert run_main(["tally", "--help"]) == 0
    out = capsys.readouterr().out
    assert "用法:" in out and "选项:" in out and "显示这份说明并退出" in out and "[必填]" in out
    assert "Usage" not in out and "Show this message" not in out and "required]" not in out
    assert run_main(["tally", "examples/m42", "--day", "0"]) == 2
    err = capsys.readouterr().err
    assert "不在范围" in err and "is not in the range" not in err
