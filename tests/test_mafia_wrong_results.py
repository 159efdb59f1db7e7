"""Wrong and confusing results a new host met on the real Game 1145 thread, each
as a small game written inline and run in this process (``run_cli``): a lynch
fact in ``status`` (MS-R6), ``--upto-post`` outside the day counted or before the
recorded standing votes (MS-R6), zone names without a region, and the host's
slips (a dead slot replaced, an account that never posted, a standing recorded
twice, a replacement not yet recorded, a day known only by its lynch)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.values import run_cli
from tests.test_mafia_takeover import LATER, SLOTS, game


def _ledger(g: Path) -> str:
    return (g / "ledger.yaml").read_text(encoding="utf-8")


def _post(n: int, author: str, body: str, day: int) -> dict:
    return {"type": "post", "thread": "vote", "day": day, "floor": n, "author": author,
            "time": f"2011-03-{24 + day} {12 + n // 60:02d}:{n % 60:02d}", "body": body}


def two_days(tmp_path: Path) -> Path:
    """Day 1 from #1 to #49 (Dave votes Bob at #10), Day 2 from #50 (Erin votes Carol at #52)."""
    folder = tmp_path / "two"
    folder.mkdir()
    events = [{"type": "start_day", "day": 1, "post": 1}, _post(1, "Host", "Day 1 begins.", 1),
              _post(10, "Dave", "[b]vote: Bob[/b]", 1), _post(20, "Fred", "[b]vote: Carol[/b]", 1),
              {"type": "start_day", "day": 2, "post": 50}, _post(50, "Host", "Day 2 begins.", 2),
              _post(52, "Erin", "[b]vote: Carol[/b]", 2)]
    lines = ["game: mafia", "roster:"] + [f"  - {{name: {n}, account: {n}}}" for n in SLOTS] + ["events:"]
    (folder / "ledger.yaml").write_text("\n".join(lines + ["  - " + json.dumps(e) for e in events]) + "\n", encoding="utf-8")
    return folder


def lynch_then_day2(tmp_path: Path) -> Path:
    """The host takes over on Day 2 (opened at #50, posts saved from #54); Day 1's lynch is a fact."""
    folder = tmp_path / "d2"
    folder.mkdir()
    events = [{"type": "start_day", "day": 2, "post": 50}, _post(54, "Dave", "[b]vote: Carol[/b]", 2)]
    lines = ["game: mafia", "roster:"] + [f"  - {{name: {n}, account: {n}}}" for n in SLOTS] + ["events:"]
    (folder / "ledger.yaml").write_text("\n".join(lines + ["  - " + json.dumps(e) for e in events]) + "\n", encoding="utf-8")
    return folder


# --- 1. status and the lynch fact (MS-R6) ------------------------------------------------------

def test_ms_r6_status_lists_a_slot_lynched_by_a_lynch_fact_as_dead(tmp_path, capsys):
    g = lynch_then_day2(tmp_path)
    assert run_cli(capsys, "lynch", g, "Bob", "--day", "1", "--post", "48")[0] == 0
    code, out, err = run_cli(capsys, "status", g)
    assert code == 0, err
    alive, dead = out.split("Dead (")[0], out.split("Dead (")[1].split("Votes:")[0]
    assert "Bob" not in alive
    assert "Bob: lynched Day 1, post #48" in dead
    data = json.loads(run_cli(capsys, "status", g, "--json")[1])
    bob = next(r for r in data["slots"] if r["slot"] == "Bob")
    assert bob["alive"] is False and bob["died"] == {"how": "lynched Day 1", "post": 48, "day": 1}
    assert "Bob" in data["dead"] and "Bob" not in data["living"] and data["tally"]["living"] == 6


# --- 2. --upto-post outside the day counted ----------------------------------------------------

def test_upto_post_without_day_counts_the_day_that_holds_the_post(tmp_path, capsys):
    g = two_days(tmp_path)
    code, out, err = run_cli(capsys, "tally", g, "--upto-post", "15")
    assert code == 0, err
    assert out.startswith("Day 1:") and "Bob (1): Dave" in out and "Carol" not in out.split("Not voting")[0]
    code, out, err = run_cli(capsys, "announce", g, "vote", "--upto-post", "15")
    assert code == 0 and "Vote Count 1." in out and "Dave" in out, err
    assert run_cli(capsys, "tally", g, "--upto-post", "52")[1].startswith("Day 2:")
    assert run_cli(capsys, "tally", g, "--upto-post", "49")[1].startswith("Day 1:")
    # the post just before a day given: that day's opening count (D.0), no post read
    code, out, _ = run_cli(capsys, "announce", g, "vote", "--day", "2", "--upto-post", "49")
    assert code == 0 and "Vote Count 2.0" in out and "Erin" not in out.split("Not voting")[0]


@pytest.mark.parametrize("day, post, span", [("2", "15", "#50 on"), ("2", "48", "#50 on"), ("1", "52", "#1 to #49")])
def test_upto_post_outside_the_day_given_is_refused_naming_its_span(tmp_path, capsys, day, post, span):
    g = two_days(tmp_path)
    for args in (("tally", g), ("announce", g, "vote")):
        code, out, err = run_cli(capsys, *args, "--day", day, "--upto-post", post)
        assert code == 1 and out == "", out
        assert f"post #{post} is not a post of day {day}" in err and span in err, err


def test_upto_post_before_the_first_day_is_refused(tmp_path, capsys):
    g = two_days(tmp_path)
    code, _, err = run_cli(capsys, "tally", g, "--upto-post", "0")
    assert code == 1 and "day 1" in err and "#1" in err, err


# --- 3. --upto-post before the recorded standing votes (MS-R6) -------------------------------

def test_ms_r6_upto_post_before_the_standing_votes_is_refused(tmp_path, capsys):
    g = game(tmp_path, LATER)
    assert run_cli(capsys, "standing", g, "--day", "1", "Alice: Bob")[0] == 0  # at #20, the first saved post
    for args in (("announce", g, "vote", "--upto-post", "10"), ("tally", g, "--day", "1", "--upto-post", "19")):
        code, out, err = run_cli(capsys, *args)
        assert code == 1 and out == "", out
        assert "the votes before #20 are not known: the saved posts and the standing votes start at #20" in err, err
    code, out, _ = run_cli(capsys, "tally", g, "--day", "1", "--upto-post", "20")
    assert code == 0 and "Bob (2): Alice, Dave" in out


# --- 4. zone names without a region ------------------------------------------------------------

@pytest.mark.parametrize("zone, suggested", [("CET", "Europe/Berlin"), ("cet", "Europe/Paris"), ("EET", "Europe/"),
                                             ("EST", "America/"), ("MST", "America/"), ("WET", "Europe/")])
def test_timezone_refuses_a_zone_without_a_region_with_region_zones_to_choose(tmp_path, capsys, zone, suggested):
    g = two_days(tmp_path)
    before = _ledger(g)
    code, out, err = run_cli(capsys, "timezone", g, zone)
    assert code == 1 and suggested in err and "nothing was written" in err, err
    assert _ledger(g) == before
    assert run_cli(capsys, "timezone", g, "Europe/Berlin")[0] == 0
    assert run_cli(capsys, "timezone", g, "UTC")[0] == 0


def test_timezone_option_without_a_region_is_named_when_the_game_opens(tmp_path, capsys):
    g = two_days(tmp_path)
    (g / "ledger.yaml").write_text(_ledger(g).replace("game: mafia\n", "game: mafia\noptions: {timezone: CET}\n"),
                                   encoding="utf-8")
    code, out, err = run_cli(capsys, "tally", g)
    assert code == 1 and "CET" in err and "Europe/Berlin" in err, err
