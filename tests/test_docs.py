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


def test_every_command_has_help_with_an_example_and_is_in_the_readme():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    group = get_command(app)
    assert group.commands
    for name, cmd in group.commands.items():
        assert cmd.help and "Example: modtool " + name in cmd.help, name
        assert f"modtool {name}" in readme, name


def test_readme_documents_the_plain_text_format_as_the_importer_reads_it():
    from modtool.forum import plaintext_help

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    body = plaintext_help().strip("\n").split("\n", 1)[1]  # without its heading
    assert body in readme
