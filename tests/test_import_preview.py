"""What an import tells as values (``Said.data``), for the desk's preview: the
posts new to the ledger, the ones edited on the forum since (G-R3), the ones
outside the day they go into (M42-R15's notice, made from the same values),
the accounts not in the roster and the batch; the text stays the command's."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from modtool import api
from modtool.core.command import Said

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"

# 雅雅女王's day-2 discussion post, then its edited version with two more posts: one timed
# before day 2 opened (2026-11-04 10:00), one by an account not in the roster.
FIRST = "#30 雅雅女王 2026-11-04 10:20\n投票对象：石宽\n投票理由：跟票\n"
SECOND = (FIRST.replace("石宽", "东方淮竹") + "\n#31 红红的红 2026-11-02 12:00\n\n  <b>早</b> 到了\n投票对象：石宽\n"
          "\n#32 路人甲 2026-11-04 12:00\n你好\n")


@pytest.fixture
def game(tmp_path):
    shutil.copytree(EXAMPLES / "m42", tmp_path / "g", ignore=shutil.ignore_patterns(".modtool", "*.lock"))
    (tmp_path / "first.txt").write_text(FIRST, encoding="utf-8")
    (tmp_path / "second.txt").write_text(SECOND, encoding="utf-8")
    return api.open_game(tmp_path / "g")


def test_an_imports_data_lists_new_edited_and_outside_the_day_posts(game, tmp_path):
    first = game.import_posts(tmp_path / "first.txt", thread="discussion", day=2)
    assert [p["floor"] for p in first.data["new"]] == [30] and first.data["batch"] == 1
    assert first.data["edited"] == first.data["outside"] == []

    said = game.import_posts(tmp_path / "second.txt", thread="discussion", day=2, dry_run=True)
    data = said.data
    assert (data["dry_run"], data["added"], data["skipped"], data["batch"]) == (True, 2, 0, 2)
    assert data["new"] == [
        {"floor": 31, "author": "红红的红", "time": "2026-11-02 12:00", "thread": "discussion", "first_line": "<b>早</b> 到了"},
        {"floor": 32, "author": "路人甲", "time": "2026-11-04 12:00", "thread": "discussion", "first_line": "你好"}]
    assert data["edited"] == [{"floor": 30, "author": "雅雅女王", "time": "2026-11-04 10:20",
                               "first_line": "投票对象：东方淮竹", "recorded": True}]
    # Only the post before the day's opening is outside it; 32楼 is inside.
    assert data["outside"] == [{"floor": 31, "author": "红红的红", "time": "2026-11-02 12:00", "day": 2,
                                "start": "2026-11-04 10:00", "end": "2026-11-05 21:00"}]
    assert data["unknown_accounts"] == [{"account": "路人甲", "floors": [32]}]
    # The notice is told from the same values, in the text the command prints.
    assert "不在第 2 天（2026-11-04 10:00 至 2026-11-05 21:00）之内" in said.text
    # Only some of the import outside: a mistyped time more likely than a wrong --day, named by floor.
    assert "31楼（红红的红，2026-11-02 12:00）的时间不在第 2 天" in said.text and "日期或年份写错了" in said.text
    assert said.to_json() == {"text": said.text, "notes": [], "data": data}

    done = game.import_posts(tmp_path / "second.txt", thread="discussion", day=2)  # for real: the same lists
    assert done.data == {**data, "dry_run": False}


def test_a_day_not_begun_has_every_post_outside_it_and_an_unknown_span(game, tmp_path):
    said = game.import_posts(tmp_path / "second.txt", thread="discussion", day=4, dry_run=True)
    assert [(p["floor"], p["start"], p["end"]) for p in said.data["outside"]] == [(30, None, None), (31, None, None),
                                                                                (32, None, None)]
    assert "第 4 天还没有开始" in said.text


def test_a_second_different_copy_in_one_import_is_listed_as_edited_and_not_taken(game, tmp_path):
    other = tmp_path / "other.txt"  # the same post read again from another dump, changed
    other.write_text(FIRST.replace("石宽", "金人凤"), encoding="utf-8")
    data = game.import_posts([tmp_path / "first.txt", other], thread="discussion", day=2, dry_run=True).data
    assert [p["floor"] for p in data["new"]] == [30] and data["skipped"] == 1
    assert [(p["floor"], p["first_line"], p["recorded"]) for p in data["edited"]] == [(30, "投票对象：金人凤", False)]
    assert data["outside"] == []


def test_said_without_data_is_as_before():
    assert Said.lines("a").to_json() == {"text": "a\n", "notes": []}
