"""G-R3: a post edited on the forum counts as it reads now, and both versions stay.

A re-import of an edited post records the new text as an ``edit`` event (a
new version of the same post, named by the post's id); the old version stays
in the ledger. The tally counts the new text (M42-R5), flags it and shows the
version before. A re-imported old copy adds nothing; undoing the import that
brought the new version brings the old one back; and a new version that
would change an announced result is guarded (G-R2).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from modtool import ledger
from tests.support.values import fresh_process as fresh, run_cli as run

ROOT = Path(__file__).resolve().parent.parent

PASTE = "#30 雅雅女王 2026-11-04 10:20\n投票对象：{target}\n投票理由：跟票\n"




@pytest.fixture
def game(tmp_path):
    """examples/m42, with 涂山雅雅's day-2 vote (6楼) taken back, so her next vote post counts."""
    g = tmp_path / "g"
    shutil.copytree(ROOT / "examples" / "m42", g, ignore=shutil.ignore_patterns(".modtool", "*.lock"))
    return g


def tally_json(capsys, game, day=2) -> dict:
    code, out, err = run(capsys, "tally", game, "--day", day, "--json")
    assert code == 0, err
    return json.loads(out)


def test_g_r3_a_reimported_edited_paste_is_a_new_version_counted_as_it_reads_now(game, tmp_path, capsys):
    first, second = tmp_path / "p1.txt", tmp_path / "p2.txt"
    first.write_text(PASTE.format(target="石宽"), encoding="utf-8")
    second.write_text(PASTE.format(target="东方淮竹"), encoding="utf-8")
    assert run(capsys, "import", game, first, "--thread", "discussion", "--day", "2")[0] == 0
    code, out, _ = run(capsys, "import", game, second, "--thread", "discussion", "--day", "2")
    assert code == 0 and "30楼（雅雅女王）在论坛上被编辑过：已记下新版本" in out
    fresh()
    events = ledger.load(game / "ledger.yaml").events
    post = next(e for e in events if e.type == "post" and e.data.get("floor") == 30)
    edit = events[-1]
    assert edit.type == "edit" and edit.data["of"] == post.data["id"] and "东方淮竹" in edit.data["body"]
    assert "石宽" in post.data["body"]  # the old version stays in the ledger
    from modtool.core.gamefile import open_game

    fresh()
    (current,) = [e for e in open_game(game).of_type("post") if e.data.get("floor") == 30]
    assert "东方淮竹" in current.data["body"] and current.data["earlier"][0]["body"] == post.data["body"]
    # The old copy imported again is not a newer version: nothing is added.
    before = (game / "ledger.yaml").read_bytes()
    assert run(capsys, "import", game, first, "--thread", "discussion", "--day", "2")[0] == 0
    assert (game / "ledger.yaml").read_bytes() == before
    # Undoing the import that brought the new version brings the old one back.
    assert run(capsys, "undo", game, "--import", "last")[0] == 0
    fresh()
    (current,) = [e for e in open_game(game).of_type("post") if e.data.get("floor") == 30]
    assert "石宽" in current.data["body"] and "earlier" not in current.data


def test_g_r3_the_tally_counts_the_new_text_flags_it_and_shows_the_version_before(game, tmp_path, capsys):
    # 涂山雅雅's only day-2 vote post, 6楼 in the example's JSON page, edited on the forum afterwards.
    page = json.loads((ROOT / "examples" / "m42" / "dumps" / "day2-vote-page1.json").read_text(encoding="utf-8"))
    posts = page["Variables"]["postlist"]
    mine = next(p for p in posts if p["position"] == "6")
    assert "金人凤" in mine["message"]
    mine["message"] = mine["message"].replace("金人凤", "石宽")
    edited = tmp_path / "page1-edited.json"
    edited.write_text(json.dumps(page, ensure_ascii=False), encoding="utf-8")
    counts = tally_json(capsys, game)["counts"]
    assert counts.get("石宽", 0) == 0 and counts["金人凤"] == 8
    code, out, err = run(capsys, "import", game, edited, "--thread", "vote", "--day", "2")
    assert code == 0, err
    assert "6楼" in out and "已记下新版本" in out
    t = tally_json(capsys, game)
    (vote,) = [v for v in t["valid"] if v["voter"] == "涂山雅雅"]
    assert vote["target"] == "石宽"  # M42-R5: as it reads now
    assert t["counts"]["石宽"] == 1 and t["counts"]["金人凤"] == 7
    (flag,) = [f for f in t["flags"] if f["floor"] == 6]
    assert "之前的版本" in flag["note"] and "金人凤" in flag["note"]
    code, text, _ = run(capsys, "tally", game, "--day", "2")
    assert "之前的版本：「投票对象：金人凤" in text


def test_g_r3_a_new_version_that_changes_an_announced_exile_is_guarded(tmp_path, capsys):
    g = tmp_path / "g"
    shutil.copytree(ROOT / "examples" / "m42-full", g, ignore=shutil.ignore_patterns(".modtool", "*.lock", "expected"))
    page = json.loads((ROOT / "examples" / "m42-full" / "dumps" / "day2-vote.json").read_text(encoding="utf-8"))
    for p in page["Variables"]["postlist"]:  # every vote for 杨一言 edited to 翠玉鸣鸾
        p["message"] = p["message"].replace("投票对象：杨一言", "投票对象：翠玉鸣鸾")
    edited = tmp_path / "day2-edited.json"
    edited.write_text(json.dumps(page, ensure_ascii=False), encoding="utf-8")
    before = (g / "ledger.yaml").read_bytes()
    code, _, err = run(capsys, "import", g, edited, "--thread", "vote", "--day", "2")
    assert code == 1 and (g / "ledger.yaml").read_bytes() == before
    assert "第 2 天放逐：杨一言 →" in err and "G-R2" in err


VOTE = "#40 淮竹清风 2026-11-05 12:00\n{edit}投票对象：{target}\n投票理由：看票型\n"


@pytest.mark.parametrize("edited_at, counted", [("2026-11-05 22:00", "石宽"), ("2026-11-05 20:30", "涂山红红")])
def test_g_r3_with_an_edit_time_the_version_standing_at_the_close_counts(game, tmp_path, capsys, edited_at, counted):
    """Day 2 of examples/m42 closes 11-05 21:00; 东方淮竹 has not voted yet."""
    first, second = tmp_path / "v1.txt", tmp_path / "v2.txt"
    first.write_text(VOTE.format(edit="", target="石宽"), encoding="utf-8")
    second.write_text(VOTE.format(edit=f"本帖最后由 淮竹清风 于 {edited_at} 编辑\n", target="涂山红红"), encoding="utf-8")
    assert run(capsys, "import", game, first, "--thread", "vote", "--day", "2")[0] == 0
    assert run(capsys, "import", game, second, "--thread", "vote", "--day", "2")[0] == 0
    t = tally_json(capsys, game)
    (vote,) = [v for v in t["valid"] if v["voter"] == "东方淮竹"]
    assert vote["target"] == counted
    (flag,) = [f for f in t["flags"] if f["floor"] == 40]
    assert ("关门后又被编辑" in flag["note"]) == (counted == "石宽")


def test_g_r3_undoing_the_batch_an_edit_names_is_refused_until_the_edits_batch_is_undone(game, tmp_path, capsys):
    """Undone alone, the first import would leave the later edit naming a post no longer in
    force, and every command refused the ledger from then on (a director's undo locked the
    game). The undo is refused, nothing written, naming the batch to undo first."""
    first, second = tmp_path / "p1.txt", tmp_path / "p2.txt"
    first.write_text(PASTE.format(target="石宽"), encoding="utf-8")
    second.write_text(PASTE.format(target="东方淮竹"), encoding="utf-8")
    for paste in (first, second):
        assert run(capsys, "import", game, paste, "--thread", "discussion", "--day", "2")[0] == 0
    batches = [e.data["batch"] for e in ledger.load(game / "ledger.yaml").events if e.type == "import"]
    b1, b2 = batches[-2:]
    before = (game / "ledger.yaml").read_bytes()
    code, out, err = run(capsys, "undo", game, "--import", b1)
    assert code == 1 and f"导入批次 {b2} 记下了这一批帖子在论坛上编辑后的版本" in err
    assert f"--import {b2}" in err and (game / "ledger.yaml").read_bytes() == before
    # In that order it works, and the ledger stays readable throughout.
    assert run(capsys, "undo", game, "--import", b2)[0] == 0
    assert run(capsys, "undo", game, "--import", b1)[0] == 0
    assert run(capsys, "check", game)[0] == 0


def test_g_r3_a_ledger_locked_by_such_an_undo_is_mended_by_undo(game, tmp_path, capsys):
    """A ledger written before the refusal (the revert already there, every command refusing
    it): plain ``undo`` takes back the last fact in force, which mends it, instead of refusing
    because the ledger is damaged."""
    first, second = tmp_path / "p1.txt", tmp_path / "p2.txt"
    first.write_text(PASTE.format(target="石宽"), encoding="utf-8")
    second.write_text(PASTE.format(target="东方淮竹"), encoding="utf-8")
    for paste in (first, second):
        assert run(capsys, "import", game, paste, "--thread", "discussion", "--day", "2")[0] == 0
    marker = [e for e in ledger.load(game / "ledger.yaml").events if e.type == "import"][-2]
    with open(game / "ledger.yaml", "a", encoding="utf-8") as f:  # the undo as it was written before
        f.write(f'  - {{"type":"revert","of":{marker.data["id"]},"note":"撤销导入批次"}}\n')
    fresh()
    code, _, err = run(capsys, "status", game)
    assert code == 1 and "edit 指向帖子" in err
    code, out, err = run(capsys, "undo", game)
    assert code == 0, err
    fresh()
    assert run(capsys, "check", game)[0] == 0 and run(capsys, "tally", game, "--day", "2")[0] == 0
