"""The README's two commands stay true, and every command is documented."""

import re
from pathlib import Path

from typer.main import get_command

from modtool.cli import app

ROOT = Path(__file__).resolve().parent.parent


def test_ci_runs_exactly_the_readme_test_command():
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").strip().splitlines()[-1]
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "pytest" in ci
    assert f"\n{ci}\n" in readme


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


def test_every_command_has_help_with_examples_and_is_in_the_readme():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    group = get_command(app)
    assert group.commands
    for name, cmd in group.commands.items():
        assert cmd.help and len(_examples(name, cmd)) >= 2, name
        assert f"modtool {name}" in readme, name


def test_every_help_example_is_a_valid_command_line_on_a_bundled_example():
    """Each example parses (options, types, choices), names a bundled game folder
    (``new``: a new one beside them), and its times are real times."""
    from click import Context

    from zoneinfo import ZoneInfo

    from modtool.timeutil import parse_time

    group = get_command(app)
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
    from modtool.m42.post_kinds import KINDS as M42_KINDS
    from modtool.zhenhuan.post_kinds import KINDS as ZH_KINDS

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert sorted(_kinds_table(readme, "m42")) == sorted(M42_KINDS)
    assert sorted(_kinds_table(readme, "zhenhuan")) == sorted(ZH_KINDS)


def test_announce_help_lists_every_kind_with_what_it_is():
    from click import Context

    from modtool.m42.post_kinds import KINDS as M42_KINDS
    from modtool.zhenhuan.post_kinds import KINDS as ZH_KINDS

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
