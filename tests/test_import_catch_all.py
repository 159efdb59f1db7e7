"""The importer's last resort: an unexpected exception inside a reader (a bug)
becomes one clear message naming the file, exit 1, no traceback, and the
ledger byte for byte as it was (modtool.forum._read_box)."""

from __future__ import annotations

from pathlib import Path

from tests.support.values import run_cli

ROOT = Path(__file__).resolve().parent.parent


def test_a_bug_in_a_reader_is_reported_naming_the_file_and_nothing_is_written(tmp_path, capsys, monkeypatch):
    game = tmp_path / "g"
    code, _, err = run_cli(capsys, "new", game, "--game", "m42", "--roster", ROOT / "examples" / "m42" / "roster.yaml", "--seed", "1")
    assert code == 0, err
    dump = tmp_path / "day1.txt"
    dump.write_text("#12 月初不是白 2026-11-02 20:15\n投票对象：白月初\n", encoding="utf-8")

    def broken(*args, **kwargs):
        raise ZeroDivisionError("a bug \x1b[2J")

    monkeypatch.setattr("modtool.forum.plaintext.read_text", broken)
    before = (game / "ledger.yaml").read_bytes()
    code, out, err = run_cli(capsys, "import", game, dump, "--thread", "vote", "--day", "1")
    assert code == 1, out + err
    assert f"{dump}: 导入时出现内部错误（请报告此问题）：ZeroDivisionError: a bug \\x1b[2J" in err
    assert "Traceback" not in out + err and "\x1b" not in err
    assert (game / "ledger.yaml").read_bytes() == before
