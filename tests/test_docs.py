"""The README's two commands stay true, and every command is documented."""

import re
from pathlib import Path

import pytest
from typer.main import get_command

from modtool.cli.app import app

LANGUAGES = ("zh", "en")  # the core's languages (modtool/locale): every help is checked in each


def _tree(language: str):
    """The command tree as a run in ``language`` shows it (modtool.cli.help)."""
    from modtool.cli import app as cli
    from modtool.cli.help import command_tree

    return command_tree(app, language, cli._listed, cli._COMPUTED_HELP)

ROOT = Path(__file__).resolve().parent.parent


def test_ci_runs_exactly_the_readme_test_command():
    lines = (ROOT / ".ci" / "run").read_text(encoding="utf-8").strip().splitlines()
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    ci = next(line for line in lines if line.startswith("python3 -m venv"))
    assert "pytest" in ci
    assert f"\n{ci}\n" in readme


def test_ci_then_runs_the_slow_tier_the_readme_names():
    """The default run leaves out the tests marked ``slow`` (pyproject.toml);
    README says how to run them (in both languages) and CI runs them after it."""
    lines = (ROOT / ".ci" / "run").read_text(encoding="utf-8").strip().splitlines()
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert "-m 'not slow'" in pyproject and '"slow: ' in pyproject
    assert readme.count("`.venv/bin/pytest -m slow`") >= 2
    main = next(i for i, line in enumerate(lines) if line.startswith("python3 -m venv"))
    assert [line for line in lines[main + 1:] if line.startswith(".venv/bin/pytest -m slow")]
    # and every property test at its full count of examples (tests/support/fuzz.py)
    assert "MODTOOL_FUZZ=full .venv/bin/pytest -m fuzz" in lines[main + 1:]
    assert readme.count("`MODTOOL_FUZZ=full .venv/bin/pytest -m fuzz`") >= 2


def test_readme_main_command_runs_modtool_on_the_bundled_example():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    m = re.search(r"^python3 -m venv .* && \.venv/bin/modtool (\S+) (examples/\S+)", readme, re.M)
    assert m, "README must show the install-and-run command"
    assert (ROOT / m.group(2) / "ledger.yaml").is_file()


def _examples(name: str, cmd) -> list[list[str]]:
    """The command lines under ``Examples:`` in a command's help, as argv."""
    import shlex

    text = (cmd.help or "").split("Examples:", 1)
    lines = text[1].splitlines() if len(text) == 2 else []
    return [shlex.split(ln)[2:] for ln in lines if ln.strip().startswith(f"modtool {name} ")]


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_command_has_help_with_examples_and_is_in_the_readme(language):
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    group = _tree(language)
    assert group.commands
    for name, cmd in group.commands.items():
        assert cmd.help and len(_examples(name, cmd)) >= 2, name
        assert f"modtool {name}" in readme, name


def test_an_english_run_lists_only_english_games_commands_each_helped_in_english():
    """A mafia host (English locale, or an English game's folder) reads every
    listed command's help and options in English, from the catalogue."""
    cjk = re.compile(r"[\u4e00-\u9fff]")
    chinese = _tree("zh")
    group = _tree("en")
    listed = {name for name, cmd in group.commands.items() if not cmd.hidden}
    assert {"new", "check", "import", "tally", "announce", "undo", "restore", "replace", "alias", "status",
            "host", "timezone"} <= listed  # status: mafia answers it too (a host's desk)
    assert not listed & {"card", "night", "act"}  # M42's and zhenhuan's, in Chinese
    assert cjk.search(group.help) is None
    for name in listed:
        cmd = group.commands[name]
        prose = cmd.help.split("Examples:")[0]
        assert cjk.search(prose) is None, (name, prose)
        for p, zh in zip(cmd.params, chinese.commands[name].params):
            if p.help and cjk.search(zh.help or ""):
                assert p.help != zh.help, (name, p.name)  # translated
    epilog = group.commands["announce"].epilog
    assert "KIND (mafia):\n  vote: " in epilog and "m42" not in epilog


def test_every_help_example_is_a_valid_command_line_on_a_bundled_example():
    """Each example parses (options, types, choices), names a bundled game folder
    (``new``: a new one beside them), and its times are real times."""
    from click import Context

    from zoneinfo import ZoneInfo

    from modtool.base.times import parse_time

    for language in LANGUAGES:
        _valid_examples(_tree(language), Context, parse_time, ZoneInfo)


def _valid_examples(group, Context, parse_time, ZoneInfo) -> None:
    for name, cmd in group.commands.items():
        for argv in _examples(name, cmd):
            cmd.make_context(name, list(argv), parent=Context(group, info_name="modtool"))
            folder = ROOT / argv[0]
            if name == "new":
                assert folder.parent.is_dir() and not folder.exists(), argv
            else:
                assert (folder / "ledger.yaml").is_file(), argv
            for opt, value in zip(argv, argv[1:]):
                if opt in ("--at", "--close"):
                    parse_time(value, ZoneInfo("Asia/Shanghai"))


def test_readme_documents_the_plain_text_format_as_the_importer_reads_it():
    from modtool.forum import plaintext_help

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    body = plaintext_help().strip("\n").split("\n", 1)[1]  # without its heading
    assert body in readme


def _kinds_table(readme: str, game: str) -> list[str]:
    """The kinds in README's table of ``announce`` posts for ``game`` (marked
    with ``<!-- announce-kinds: GAME -->`` just above it)."""
    after = readme.split(f"<!-- announce-kinds: {game} -->", 1)[1].lstrip("\n")
    rows = []
    for line in after.splitlines():
        if not line.startswith("|"):
            break
        rows.append(line)
    first_cells = [r.split("|")[1] for r in rows[2:]]  # past the header and the ---
    return [k for cell in first_cells for k in re.findall(r"`([^`]+)`", cell)]


def test_readme_announce_tables_list_every_kind_of_each_game():
    from modtool.packs.m42.post_kinds import KINDS as M42_KINDS
    from modtool.packs.zhenhuan.post_kinds import KINDS as ZH_KINDS

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert sorted(_kinds_table(readme, "m42")) == sorted(M42_KINDS)
    assert sorted(_kinds_table(readme, "zhenhuan")) == sorted(ZH_KINDS)


def test_announce_help_lists_every_kind_with_what_it_is():
    from click import Context

    from modtool.packs.m42.post_kinds import KINDS as M42_KINDS
    from modtool.packs.zhenhuan.post_kinds import KINDS as ZH_KINDS

    cmd = get_command(app).commands["announce"]
    text = cmd.get_help(Context(cmd, info_name="announce"))
    for kind, what in {**M42_KINDS, **ZH_KINDS}.items():
        assert f"{kind}：{what}" in text, kind


def test_nothing_refers_to_a_design_document_the_project_does_not_ship():
    """The design notes live outside the repository: code, tests and docs say
    what they mean in place instead of pointing at a file a reader cannot open."""
    missing = "DESIGN" + ".md"
    files = [ROOT / "README.md", ROOT / "pyproject.toml", *ROOT.glob("examples/**/*.md")]
    files += [p for d in ("modtool", "tests", "templates", "games") for p in (ROOT / d).rglob("*") if p.is_file()
              and p.suffix in (".py", ".md", ".j2", ".yaml", ".toml", ".txt", ".sh")]
    assert not (ROOT / missing).exists()
    found = [str(p.relative_to(ROOT)) for p in files if missing in p.read_text(encoding="utf-8", errors="replace")]
    assert found == []
