"""M42-R14 so far: ``modtool lurking`` on an open discussion day shows each
character's discussion posts, vote and running (c) chain, and the yellows the
day would give if it closed now. Tested from the rule's own outcome: cut the
m42-discipline example's ledger just before each day's close, and the preview
must name exactly the lurking yellows the whole game's replay gave at that close
((a) fewer than 5 posts, (b) no valid vote, (c) three days under 10, M42-R14a
barred voters)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from modtool import api
from tests.support.values import run_main

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "m42-discipline"


def _cut_before_close(tmp_path: Path, day: int) -> Path:
    """The example as it stood just before ``advance`` closed discussion day ``day``."""
    text = (EXAMPLE / "ledger.yaml").read_text(encoding="utf-8")
    m = re.search(rf"^  - type: advance\n    id: \d+\n    phase: day\n    number: {day}\n", text, re.M)
    assert m, day
    folder = tmp_path / f"day{day}"
    folder.mkdir()
    shutil.copy(EXAMPLE / "roster.yaml", folder / "roster.yaml")
    (folder / "ledger.yaml").write_text(text[:m.start()], encoding="utf-8")
    return folder


def _yellows_at_close(day_close: str) -> set[tuple[str, str]]:
    cards = api.open_game(EXAMPLE).view("cards").to_json()["characters"]
    return {(c["character"], card["reason"].split("：", 1)[1]) for c in cards for card in c["cards"]
            if card["source"] == "lurking" and card["at"] == day_close}


@pytest.mark.parametrize("day", [1, 2, 3, 4, 5])
def test_m42_r14_the_preview_before_a_close_names_the_yellows_that_close_gave(tmp_path, day):
    game = api.open_game(_cut_before_close(tmp_path, day))
    data = game.view("lurking").to_json()
    assert data["day"] == day
    preview = {(y["character"], y["note"]) for y in data["yellows"]}
    assert preview == _yellows_at_close(data["close"] + ":00"), day
    # The cut ledger gives no lurking card of that day yet: the preview is a preview.
    held = game.view("cards").to_json()["characters"]
    assert not [c for c in held for card in c["cards"] if card["source"] == "lurking"
                and card["at"] == data["close"] + ":00"]


def test_m42_r14_rows_count_the_days_posts_the_vote_and_the_running_chain(tmp_path):
    data = api.open_game(_cut_before_close(tmp_path, 3)).view("lurking").to_json()
    rows = {r["character"]: r for r in data["rows"]}
    # 毛毛: under 10 posts on days 1 and 2 (6, 7), so day 3 under 10 again completes (c).
    assert rows["毛毛"]["chain"] == [1, 2] and rows["毛毛"]["posts"] == 6
    assert ("毛毛", "c") in {(y["character"], y["rule"]) for y in data["yellows"]}
    assert all(isinstance(r["posts"], int) and isinstance(r["voted"], bool) for r in rows.values())
    assert data["min_posts"] == 5 and data["chain_posts"] == 10


def test_lurking_outside_a_discussion_day_and_without_the_thread(tmp_path, capsys):
    assert run_main(["lurking", str(EXAMPLE)]) == 0
    assert capsys.readouterr().out == "现在不是讨论日（游戏已结束）：潜水只在讨论日计算\n"
    # examples/m42: day 2 open, its discussion thread not imported: votes only, no yellows guessed.
    data = api.open_game(EXAMPLE.parent / "m42").view("lurking").to_json()
    assert data["why"] == "no_posts" and data["yellows"] == [] and all(r["posts"] is None for r in data["rows"])
    assert [r["character"] for r in data["rows"] if not r["voted"]] == ["东方淮竹"]


@pytest.mark.parametrize("last, told", [("2026-11-04 18:00", True), ("2026-11-05 20:30", False)])
def test_m42_r14_advance_says_when_the_discussion_thread_stops_well_before_the_close(tmp_path, capsys, last, told):
    """M42-R14 judges a day by the discussion posts imported when it closes: a thread saved
    only up to the afternoon before (a page not saved yet) is said at the close, with the way
    back; one saved up to half an hour before the close is not."""
    g = tmp_path / "m42"
    shutil.copytree(EXAMPLE.parent / "m42", g, ignore=shutil.ignore_patterns(".modtool", "*.lock", "*.png"))
    page = tmp_path / "disc.txt"
    page.write_text(f"#2 月初不是白 2026-11-04 12:00\n早\n\n#3 红红的红 {last}\n晚上好\n", encoding="utf-8")
    assert run_main(["import", str(g), str(page), "--thread", "discussion", "--day", "2"]) == 0
    capsys.readouterr()
    assert run_main(["advance", str(g), "--at", "2026-11-05 21:00"]) == 0
    out = capsys.readouterr().out
    said = f"第 2 天的讨论帖只导入到 {last}（关门 2026-11-05 21:00）"
    assert (said in out and f"modtool undo {g}" in out) if told else "讨论帖只导入到" not in out
