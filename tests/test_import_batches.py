"""An import is one batch: its id is printed, and ``modtool undo GAME --import
ID|last`` takes the whole batch back in one step (one appended revert of the
batch's marker event; history is never rewritten). An import into the wrong
day warns, naming the day and the times found."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from modtool import ledger
from tests.support.values import run_main

ROOT = Path(__file__).resolve().parent.parent


def _paste(first: int, n: int, day: str = "2026-11-02") -> str:
    accounts = ["苏苏今天也很努力", "雅雅女王", "月初不是白", "容容的算盘"]
    out = []
    for i in range(n):
        floor = first + i
        out.append(f"#{floor} {accounts[i % 4]} {day} 1{i % 10}:0{i % 6}\n投票对象：白月初\n投票理由：第{floor}楼\n")
    return "\n".join(out)


def _game(tmp_path: Path) -> Path:
    game = tmp_path / "g"
    assert run_main(["new", str(game), "--game", "m42", "--roster", str(ROOT / "examples" / "m42" / "roster.yaml"),
                     "--seed", "1"]) == 0
    return game


def _floors(game: Path, capsys) -> list[int]:
    capsys.readouterr()
    assert run_main(["tally", str(game), "--day", "1", "--close", "2026-11-03 21:00", "--json"]) == 0
    t = json.loads(capsys.readouterr().out)
    return sorted([v["floor"] for v in t["valid"]] + [b["floor"] for b in t["invalid"]])


def _import(game: Path, tmp_path: Path, name: str, text: str, capsys, day: int = 1) -> str:
    f = tmp_path / name
    f.write_text(text, encoding="utf-8")
    capsys.readouterr()
    assert run_main(["import", str(game), str(f), "--thread", "vote", "--day", str(day)]) == 0
    return capsys.readouterr().out


def test_import_prints_its_batch_id_and_undo_import_last_takes_back_the_whole_batch(tmp_path, capsys):
    game = _game(tmp_path)
    out1 = _import(game, tmp_path, "p1.txt", _paste(1, 3), capsys)
    out2 = _import(game, tmp_path, "p2.txt", _paste(4, 5), capsys)
    assert "导入批次 1" in out1 and "导入批次 2" in out2
    assert _floors(game, capsys) == list(range(1, 9))
    events_before = len(ledger.load(game / "ledger.yaml").events)
    assert run_main(["undo", str(game), "--import", "last"]) == 0
    out = capsys.readouterr().out
    assert "导入批次 2" in out and "5 帖" in out
    after = ledger.load(game / "ledger.yaml").events
    assert len(after) == events_before + 1 and after[-1].type == "revert"  # one revert, one step
    assert _floors(game, capsys) == [1, 2, 3]
    # the next "last" is the batch before; then nothing is left to undo
    assert run_main(["undo", str(game), "--import", "last"]) == 0
    assert _floors(game, capsys) == []
    before = (game / "ledger.yaml").read_bytes()
    assert run_main(["undo", str(game), "--import", "last"]) == 1
    assert "没有可以撤销的导入" in capsys.readouterr().err
    assert (game / "ledger.yaml").read_bytes() == before


def test_undo_import_by_id_and_refusals_leave_the_ledger_unchanged(tmp_path, capsys):
    game = _game(tmp_path)
    _import(game, tmp_path, "p1.txt", _paste(1, 3), capsys)
    _import(game, tmp_path, "p2.txt", _paste(4, 2), capsys)
    assert run_main(["undo", str(game), "--import", "1"]) == 0
    assert _floors(game, capsys) == [4, 5]
    before = (game / "ledger.yaml").read_bytes()
    for arg, words in (("1", "已经撤销"), ("7", "没有导入批次 7"), ("abc", "--import")):
        assert run_main(["undo", str(game), "--import", arg]) == 1, arg
        err = capsys.readouterr().err
        assert words in err and "Traceback" not in err, err
        assert (game / "ledger.yaml").read_bytes() == before


def test_undone_import_can_be_imported_again_and_plain_undo_still_takes_one_event(tmp_path, capsys):
    game = _game(tmp_path)
    _import(game, tmp_path, "p1.txt", _paste(1, 3), capsys)
    assert run_main(["undo", str(game), "--import", "last"]) == 0
    out = _import(game, tmp_path, "p1.txt", _paste(1, 3), capsys)
    assert "已导入 3 帖" in out and "导入批次 2" in out
    assert run_main(["undo", str(game)]) == 0
    assert "--import" in capsys.readouterr().out  # tells how to take back the whole import
    assert _floors(game, capsys) == [1, 2]


def test_the_batch_is_a_stored_marker_event_before_its_posts(tmp_path, capsys):
    game = _game(tmp_path)
    _import(game, tmp_path, "p1.txt", _paste(1, 2), capsys)
    events = ledger.load(game / "ledger.yaml").events
    marker = [e for e in events if e.type == "import"]
    assert len(marker) == 1 and marker[0].data["batch"] == 1 and marker[0].data["posts"] == 2
    i = events.index(marker[0])
    assert [e.type for e in events[i + 1:]] == ["post", "post"]
    assert "post" not in {e.type for e in events[:i]}
    capsys.readouterr()
    assert run_main(["check", str(game)]) == 0


def test_import_into_the_wrong_day_warns_with_the_day_and_the_times(tmp_path, capsys):
    game = tmp_path / "m42"
    shutil.copytree(ROOT / "examples" / "m42", game)
    f = tmp_path / "day1.txt"
    f.write_text(_paste(1, 2, day="2026-11-02"), encoding="utf-8")
    capsys.readouterr()
    # day 2 opened 2026-11-04 10:00 and closes 2026-11-05 21:00: posts of 11-02 belong to day 1
    assert run_main(["import", str(game), str(f), "--thread", "discussion", "--day", "2"]) == 0
    out = capsys.readouterr().out
    assert "第 2 天" in out and "2026-11-02 10:00" in out and "2026-11-02 11:01" in out
    assert "2026-11-04 10:00" in out and "2026-11-05 21:00" in out
    f.write_text(_paste(1, 2, day="2026-11-04").replace(" 10:00", " 12:00").replace(" 11:01", " 13:01"),
                 encoding="utf-8")
    assert run_main(["import", str(game), str(f), "--thread", "process", "--day", "2"]) == 0
    assert "注意" not in capsys.readouterr().out


def test_a_saved_post_imported_again_with_another_time_is_told_not_silently_skipped(tmp_path, capsys):
    """A time mistyped in a saved file and put right: a re-import never rewrites a saved
    post (the ledger's facts stand), but it says which post, both times, and the batch to
    undo; after that undo, the file imports with the right time."""
    game = _game(tmp_path)
    _import(game, tmp_path, "a.txt", _paste(2, 3), capsys)
    typo = _paste(5, 2).replace("2026-11-02 10:00", "2025-11-02 10:00")
    out = _import(game, tmp_path, "b.txt", typo, capsys)
    assert "已导入 2 帖" in out
    out = _import(game, tmp_path, "b-fixed.txt", _paste(5, 2), capsys)
    assert "跳过已有的 2 帖" in out
    assert "5楼（苏苏今天也很努力）已经导入过，时间与账本中的不同（账本：2025-11-02 10:00，这次：2026-11-02 10:00）" in out
    assert f"modtool undo {game} --import 2" in out and "6楼" not in out
    capsys.readouterr()
    assert run_main(["undo", str(game), "--import", "2"]) == 0
    out = _import(game, tmp_path, "b-fixed.txt", _paste(5, 2), capsys)
    assert "已导入 2 帖" in out and "时间与账本中的不同" not in out


def test_the_undo_an_import_suggests_quotes_a_folder_with_a_space(tmp_path, capsys):
    """The command the import suggests is pasted into a shell: a folder with a space is quoted
    (as the game's own next steps quote it), else the undo names two folders."""
    game = tmp_path / "my game"
    assert run_main(["new", str(game), "--game", "m42", "--roster", str(ROOT / "examples" / "m42" / "roster.yaml"),
                     "--seed", "1"]) == 0
    out = _import(game, tmp_path, "a.txt", _paste(2, 2), capsys)
    assert f"modtool undo '{game}' --import 1" in out
