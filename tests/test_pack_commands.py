"""What a pack gets from the core without asking: ``new`` that keeps the roster
as given, options offered only to the games that declare them, its own verbs
sent to it alone (two packs may both have ``deadline``), and a name clash
refused when the pack joins. In process, with packs registered by the test."""

from __future__ import annotations

from pathlib import Path

import pytest

from modtool.core import registry
from modtool.core.command import Command, Param, Said
from modtool.core.pack import GamePack
from tests.test_cli import run

HANDS_YAML = """\
name: 举手
options:
  timezone: Asia/Shanghai
"""


class HandsPack(GamePack):
    """A game with no roles and no deal (the review's 举手 game, reduced)."""

    id = "hands"
    name = "hands（举手）"

    def __init__(self, folder: Path, game_id: str = "hands", commands=()):
        self.folder = folder
        self.id = game_id
        self._commands = commands

    def data_file(self) -> Path:
        return self.folder / "hands.yaml"

    def commands(self):
        return self._commands


@pytest.fixture
def hands(tmp_path):
    (tmp_path / "hands.yaml").write_text(HANDS_YAML, encoding="utf-8")
    pack = HandsPack(tmp_path)
    registry.register(pack)
    yield pack
    registry.unregister(pack.id)


def _roster(tmp_path) -> Path:
    roster = tmp_path / "roster.yaml"
    roster.write_text("- {name: 甲, account: jia, aliases: [小甲]}\n- 乙\n- 丙\n- 丁\n- 戊\n", encoding="utf-8")
    return roster


def test_default_new_keeps_the_roster_as_given_and_deals_nothing(tmp_path, capsys, hands):
    g = tmp_path / "g"
    code, out, err = run(capsys, "new", g, "--game", "hands", "--roster", _roster(tmp_path))
    assert code == 0, err
    from modtool.core.gamefile import open_game

    gd = open_game(g)
    assert [(c.name, c.account, c.aliases, c.role) for c in gd.roster] == [
        ("甲", "jia", ("小甲",), None), ("乙", "乙", (), None), ("丙", "丙", (), None),
        ("丁", "丁", (), None), ("戊", "戊", (), None)]
    assert "seed" not in gd.header and "None" not in (g / "ledger.yaml").read_text(encoding="utf-8")


@pytest.mark.parametrize("option", [["--players", "5"], ["--require", "甄嬛"], ["--board", "x"], ["--seed", "3"],
                                    ["--custom-roles"]])
def test_options_a_game_does_not_declare_are_refused_naming_what_it_takes(tmp_path, capsys, hands, option):
    g = tmp_path / "g"
    code, out, err = run(capsys, "new", g, "--game", "hands", "--roster", _roster(tmp_path), *option)
    assert code == 1 and not g.exists()
    assert option[0] in err and "游戏 hands 不用这个选项" in err and "--roster" in err and "Traceback" not in err


def test_new_help_for_a_game_offers_only_its_options(capsys, hands):
    def options(out: str) -> set[str]:
        return {line.split()[0] for line in out.split("选项:", 1)[1].splitlines() if line.strip().startswith("--")}

    code, out, err = run(capsys, "new", "--game", "hands", "--help")
    assert code == 0 and options(out) == {"--game", "--roster", "--help"}
    code, out, err = run(capsys, "new", "--game", "zhenhuan", "--help")
    assert options(out) == {"--game", "--roster", "--seed", "--players", "--require", "--board", "--help"}


# --- verbs per game --------------------------------------------------------------

def _deadline(said: str, name: str = "deadline", run=None) -> Command:
    """A ``deadline`` command, as data; it says ``said`` and the day."""
    return Command(name, """记下截止时间。

        Examples:

        \b
          modtool deadline g --day 1
          modtool deadline g --day 2
        """, (Param("game_dir", "游戏文件夹", Path), Param("day", "第几天", int, ("--day",), 1)),
        run or (lambda game_dir, day: Said.lines(f"{said} {day}")))


def _new_game(tmp_path, capsys, game_id: str) -> Path:
    g = tmp_path / game_id
    code, out, err = run(capsys, "new", g, "--game", game_id, "--roster", _roster(tmp_path))
    assert code == 0, err
    return g


def test_two_packs_may_both_have_deadline_each_folder_reaches_its_own(tmp_path, capsys):
    (tmp_path / "hands.yaml").write_text(HANDS_YAML, encoding="utf-8")
    one = HandsPack(tmp_path, "hands", (_deadline("举手的截止"),))
    two = HandsPack(tmp_path, "hands2", (_deadline("另一个游戏的截止"),))
    for p in (one, two):
        registry.register(p)
    try:
        g1, g2 = _new_game(tmp_path, capsys, "hands"), _new_game(tmp_path, capsys, "hands2")
        assert run(capsys, "deadline", g1, "--day", 2)[1] == "举手的截止 2\n"
        assert run(capsys, "deadline", g2, "--day", 3)[1] == "另一个游戏的截止 3\n"
        code, out, err = run(capsys, "deadline", ROOT / "examples" / "mafia", "--help")  # a mafia folder: mafia's own
        assert code == 0 and "Mafia: a day's deadline" in out
        # a game without deadline refuses it, naming the games that have one
        m42 = ROOT / "examples" / "m42"
        code, out, err = run(capsys, "deadline", m42, "--day", 1)
        assert code == 1 and "这个命令目前只支持" in err and "hands" in err and "mafia" in err and "这局是 m42" in err
        code, out, err = run(capsys, "deadline", g1, "--help")
        assert code == 0 and "记下截止时间" in out
    finally:
        for p in (one, two):
            registry.unregister(p.id)


ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("apps, clash", [
    ((lambda: (_deadline("x", "check"),)), "与 modtool 的命令 check 同名"),
    ((lambda: (_deadline("x"), _deadline("y"))), "有两个命令都叫 deadline"),
])
def test_a_name_clash_inside_one_game_is_refused_when_the_pack_joins(tmp_path, capsys, apps, clash):
    from modtool.cli.app import add_pack_commands
    from modtool.base.problems import UserError

    (tmp_path / "hands.yaml").write_text(HANDS_YAML, encoding="utf-8")
    pack = HandsPack(tmp_path, "hands", apps())
    with pytest.raises(UserError) as exc:
        add_pack_commands(pack)
    assert clash in str(exc.value.problems[0]) and "hands" in str(exc.value.problems[0])
    registry.register(pack)
    try:  # joining a run, it is left out and told, and its game names why; the core's check is untouched
        code, out, err = run(capsys, "new", tmp_path / "g", "--game", "hands", "--roster", _roster(tmp_path))
        assert code != 0 and clash in err and "Traceback" not in err and not (tmp_path / "g").exists()
        code, out, err = run(capsys, "check", ROOT / "examples" / "m42")
        assert code == 0 and clash in err and "没有发现问题" in out
    finally:
        registry.unregister("hands")
        registry.refresh()
    code, out, err = run(capsys, "check", ROOT / "examples" / "m42")
    assert code == 0 and err == ""


def test_a_pack_whose_commands_fail_to_load_is_refused_and_the_rest_runs(tmp_path, capsys):
    class Broken(HandsPack):
        def commands(self):
            import no_such_module_for_commands  # noqa: F401

    (tmp_path / "hands.yaml").write_text(HANDS_YAML, encoding="utf-8")
    registry.register(Broken(tmp_path))
    try:
        code, out, err = run(capsys, "check", ROOT / "examples" / "m42")
        assert code == 0 and "没有发现问题" in out
        assert "游戏包「hands」（modtool）没有载入：ModuleNotFoundError" in err and "Traceback" not in err
    finally:
        registry.unregister("hands")
        registry.refresh()


def test_a_command_is_listed_without_loading_its_code_and_runs_it_when_called(tmp_path, capsys, monkeypatch):
    """Commands are data: ``--help`` lists a command whose code cannot even be
    imported; running it is what imports the code (and fails, told, no traceback)."""
    import tempfile

    monkeypatch.setenv("TMPDIR", str(tmp_path))  # the crash report goes here
    monkeypatch.setattr(tempfile, "tempdir", None)
    (tmp_path / "hands.yaml").write_text(HANDS_YAML, encoding="utf-8")
    pack = HandsPack(tmp_path, "hands", (_deadline("x", run="no_such_module_for_deadline:deadline"),))
    registry.register(pack)
    try:
        g = _new_game(tmp_path, capsys, "hands")
        code, out, err = run(capsys, "deadline", g, "--help")
        assert code == 0 and "记下截止时间" in out and "--day" in out
        code, out, err = run(capsys, "deadline", g, "--day", 2)
        assert code == 3 and "ModuleNotFoundError" in err and "账本未改动" in err and "Traceback" not in err
    finally:
        registry.unregister("hands")


def test_a_command_returns_values_and_prints_nothing_itself(tmp_path, capsys):
    """The function behind a command returns ``Said`` (text, notes for stderr); the CLI prints it."""
    (tmp_path / "hands.yaml").write_text(HANDS_YAML, encoding="utf-8")

    def deadline(game_dir, day):
        return Said.lines(f"第 {day} 天", notes=("注意：只是测试",))

    pack = HandsPack(tmp_path, "hands", (_deadline("x", run=deadline),))
    registry.register(pack)
    try:
        g = _new_game(tmp_path, capsys, "hands")
        assert deadline(g, 4) == Said("第 4 天\n", ("注意：只是测试",))
        assert deadline(g, 4).to_json() == {"text": "第 4 天\n", "notes": ["注意：只是测试"]}
        code, out, err = run(capsys, "deadline", g, "--day", 4)
        assert (code, out, err) == (0, "第 4 天\n", "注意：只是测试\n")
    finally:
        registry.unregister("hands")


def test_a_shared_commands_option_a_game_does_not_read_is_hidden_and_refused_never_ignored(capsys):
    """mafia reads no --close (a forum-mafia day is cut at a post or a time): tally --close
    was silently ignored; now it is refused naming what the game's tally takes, and its
    help leaves out the other games' options (GamePack.options_read)."""
    mafia = ROOT / "examples" / "mafia"
    code, out, err = run(capsys, "tally", mafia, "--day", 1, "--close", "2011-04-08 17:30")
    assert code == 1 and "--close" in err and "--upto-post" not in err and "--floor" in err and out == ""
    code, out, err = run(capsys, "announce", mafia, "vote", "--seat", 3)
    assert code == 1 and "--seat" in err and "--upto-post" in err
    code, out, err = run(capsys, "announce", mafia, "--help")
    assert code == 0 and "--upto-post" in out and "--seat" not in out and "--told-at" not in out
    code, out, err = run(capsys, "announce", ROOT / "examples" / "zhenhuan", "--help")
    assert "--seat" in out  # a game that declares nothing is offered every option
