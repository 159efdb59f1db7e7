"""Games as packs: the registry, a core that never names a game, and a tiny
game that runs new / import / tally with no line of it in the core."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from modtool.core import registry as packs
from modtool.core.registry import GamePack, all_packs, get_pack
from modtool.core.problems import UserError

ROOT = Path(__file__).resolve().parents[1] / "modtool"


def test_registry_finds_the_shipped_packs():
    found = all_packs()
    assert {"m42", "zhenhuan"} <= set(found)
    assert all(isinstance(p, GamePack) and p.id == gid for gid, p in found.items())
    assert packs.default_pack().id == "m42"  # `modtool new` without --game, as before


def test_unknown_game_is_a_user_error_naming_the_known_ones():
    with pytest.raises(UserError) as exc:
        get_pack("nope")
    assert "未知的游戏「nope」" in str(exc.value.problems[0]) and "m42" in str(exc.value.problems[0])


def _core_files() -> list[Path]:
    """modtool's own modules outside every pack folder (a folder holding pack.py)."""
    pack_dirs = {p.parent for p in ROOT.glob("packs/*/pack.py")}
    return [f for f in ROOT.rglob("*.py") if not any(d in f.parents for d in pack_dirs)]


def test_core_never_names_a_game():
    ids = sorted(all_packs())
    # `if game_id == …`, a game id as a string, or an import of a pack's modules
    named = re.compile(r"game_id\s*[!=]=|game\.id\s*[!=]=|"
                       + "|".join(rf"[\"']{re.escape(i)}[\"']" for i in ids))
    imported = re.compile(r"^\s*(from|import)\s+modtool\.packs\.(" + "|".join(map(re.escape, ids)) + r")\b")
    found = []
    for f in _core_files():
        for n, line in enumerate(f.read_text(encoding="utf-8").splitlines(), 1):
            code = line.split("#", 1)[0]
            if named.search(code) or imported.search(code):
                found.append(f"{f.relative_to(ROOT.parent)}:{n}: {line.strip()}")
    assert not found, "the core names a game (move it into the pack):\n" + "\n".join(found)


def test_no_pack_imports_another_pack():
    ids = sorted(all_packs())
    for pack_dir in {p.parent for p in ROOT.glob("packs/*/pack.py")}:
        others = [i for i in ids if i != pack_dir.name]
        bad = re.compile("|".join(rf"\bmodtool\.packs\.{re.escape(i)}\b" for i in others))
        for f in pack_dir.rglob("*.py"):
            hits = [line for line in f.read_text(encoding="utf-8").splitlines() if "import" in line and bad.search(line)]
            assert not hits, f"{f}: {hits}"


# --- a tiny game, registered in this process ---------------------------------

TINY_YAML = """\
name: 小游戏
players: 3
roles:
  villager: {name: 村民, camp: town, count: 2}
  wolf: {name: 狼, camp: wolves, count: 1}
camps:
  town: {name: 好人}
  wolves: {name: 狼人}
options:
  timezone: Asia/Shanghai
  close_time: "21:00"
"""

DUMP = """\
#1 甲 2026-11-03 10:00
票：乙

#2 乙 2026-11-03 10:05
票：甲

#3 丙 2026-11-03 10:06
票：乙
"""


class TinyPack(GamePack):
    """A game of one rule: a post ``票：NAME`` is a vote; the last one of each player counts."""

    id = "tiny"
    name = "tiny（小游戏）"

    def __init__(self, folder: Path):
        self.folder = folder

    def data_file(self) -> Path:
        return self.folder / "tiny.yaml"

    def tally(self, game_dir, gd, *, day, floor, at, close, as_json) -> None:
        import typer

        last = {}
        for ev in gd.of_type("post"):
            if ev.data["day"] == (day or 1) and str(ev.data["body"]).startswith("票："):
                last[ev.data["author"]] = str(ev.data["body"])[2:].strip()
        counts: dict[str, int] = {}
        for target in last.values():
            counts[target] = counts.get(target, 0) + 1
        typer.echo("".join(f"{t}：{n}\n" for t, n in sorted(counts.items(), key=lambda kv: -kv[1])), nl=False)


def _play(tmp_path, capsys):
    from tests.test_cli import run

    (tmp_path / "roster.txt").write_text("甲\n乙\n丙\n", encoding="utf-8")
    (tmp_path / "dump.txt").write_text(DUMP, encoding="utf-8")
    g = tmp_path / "g"
    code, out, err = run(capsys, "new", g, "--game", "tiny", "--roster", tmp_path / "roster.txt")
    assert code == 0, err
    ledger = (g / "ledger.yaml").read_text(encoding="utf-8")
    assert "game: tiny" in ledger and "role" not in ledger and "seed" not in ledger  # the default new deals nothing
    code, out, err = run(capsys, "import", g, tmp_path / "dump.txt", "--thread", "vote", "--day", 1)
    assert code == 0, err
    assert "已导入 3 帖" in out
    code, out, err = run(capsys, "tally", g, "--day", 1)
    assert code == 0, err
    assert out == "乙：2\n甲：1\n"
    code, out, err = run(capsys, "check", g)
    assert code == 0, err
    # A shared command the tiny game does not answer is refused, naming who does.
    code, out, err = run(capsys, "act", g, "甲", "kill", "乙")
    assert code == 1 and "这个命令目前只支持" in err and "这局是 tiny" in err


def test_a_registered_pack_runs_new_import_tally(tmp_path, capsys):
    (tmp_path / "tiny.yaml").write_text(TINY_YAML, encoding="utf-8")
    packs.register(TinyPack(tmp_path))
    try:
        _play(tmp_path, capsys)
    finally:
        packs.unregister("tiny")
    assert "tiny" not in all_packs()


def test_a_pack_from_an_installed_distribution_is_found_by_its_entry_point(tmp_path, capsys, monkeypatch):
    site = tmp_path / "site"
    (site / "club_tiny-0.1.dist-info").mkdir(parents=True)
    (site / "club_tiny-0.1.dist-info" / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: club-tiny\nVersion: 0.1\n", encoding="utf-8")
    (site / "club_tiny-0.1.dist-info" / "entry_points.txt").write_text(
        "[modtool.games]\ntiny = club_tiny:make_pack\n", encoding="utf-8")
    (site / "tiny.yaml").write_text(TINY_YAML, encoding="utf-8")
    (site / "club_tiny.py").write_text(
        "from pathlib import Path\n"
        "from tests.test_packs import TinyPack\n\n"
        "def make_pack():\n"
        "    return TinyPack(Path(__file__).parent)\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(site))
    packs.refresh()
    try:
        assert type(all_packs().get("tiny")).__name__ == "TinyPack"  # loaded by its entry point
        _play(tmp_path, capsys)
    finally:
        sys.modules.pop("club_tiny", None)
        monkeypatch.undo()
        packs.refresh()
    assert "tiny" not in all_packs()


def test_shipped_packs_are_modtools_own_entry_points_and_win_over_an_installed_one(tmp_path, monkeypatch):
    """Built-in packs are declared like any other (pyproject's modtool.games); another
    distribution's pack of the same id does not shadow modtool's own."""
    from modtool.core.entrypoints import group_of_pyproject

    declared = group_of_pyproject((ROOT.parent / "pyproject.toml").read_text(encoding="utf-8"))
    assert sorted(declared) == [("m42", "modtool.packs.m42.pack:PACK"), ("mafia", "modtool.packs.mafia.pack:PACK"),
                                ("zhenhuan", "modtool.packs.zhenhuan.pack:PACK")]
    site = tmp_path / "site"
    (site / "club_m42-1.0.dist-info").mkdir(parents=True)
    (site / "club_m42-1.0.dist-info" / "entry_points.txt").write_text(
        "[modtool.games]\nm42 = club_m42:PACK\n", encoding="utf-8")
    (site / "club_m42.py").write_text("raise SystemExit('never imported')\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(site))
    packs.refresh()
    try:
        assert type(all_packs()["m42"]).__name__ == "M42Pack" and all_packs()["m42"].distribution == "modtool"
        assert packs.refusals() == []
    finally:
        monkeypatch.undo()
        packs.refresh()


def test_an_installed_pack_that_fails_to_load_is_refused_with_its_reason_not_a_crash(tmp_path, capsys, monkeypatch):
    from tests.test_cli import run

    site = tmp_path / "site"
    (site / "club_broken-0.1.dist-info").mkdir(parents=True)
    (site / "club_broken-0.1.dist-info" / "entry_points.txt").write_text(
        "[modtool.games]\nbroken = club_broken:PACK\n", encoding="utf-8")
    (site / "club_broken.py").write_text("import no_such_module_here\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(site))
    packs.refresh()
    try:
        assert "broken" not in all_packs()
        with pytest.raises(UserError) as exc:
            get_pack("broken")
        assert "游戏包「broken」（club-broken）没有载入：ModuleNotFoundError" in str(exc.value.problems[0])
        code, out, err = run(capsys, "check", ROOT.parent / "examples" / "m42")
        assert code == 0 and "没有载入" in err and "Traceback" not in err
    finally:
        sys.modules.pop("club_broken", None)
        monkeypatch.undo()
        packs.refresh()
