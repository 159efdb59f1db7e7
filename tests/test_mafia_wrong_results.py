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
from tests.support.mafia import ledger_text as _ledger, post, refused, write_ledger


def two_days(tmp_path: Path) -> Path:
    """Day 1 from #1 to #49 (Dave votes Bob at #10), Day 2 from #50 (Erin votes Carol at #52)."""
    events = [{"type": "start_day", "day": 1, "post": 1}, post(1, "Host", "Day 1 begins.", 1),
              post(10, "Dave", "[b]vote: Bob[/b]", 1), post(20, "Fred", "[b]vote: Carol[/b]", 1),
              {"type": "start_day", "day": 2, "post": 50}, post(50, "Host", "Day 2 begins.", 2),
              post(52, "Erin", "[b]vote: Carol[/b]", 2)]
    return write_ledger(tmp_path / "two", SLOTS, events)


def lynch_then_day2(tmp_path: Path) -> Path:
    """The host takes over on Day 2 (opened at #50, posts saved from #54); Day 1's lynch is a fact."""
    return write_ledger(tmp_path / "d2", SLOTS, [{"type": "start_day", "day": 2, "post": 50},
                                                 post(54, "Dave", "[b]vote: Carol[/b]", 2)])


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

def test_upto_post_without_day_counts_the_day_that_holds_thepost(tmp_path, capsys):
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
    assert suggested in refused(capsys, g, "timezone", g, zone)
    assert run_cli(capsys, "timezone", g, "Europe/Berlin")[0] == 0
    assert run_cli(capsys, "timezone", g, "UTC")[0] == 0


def test_timezone_option_without_a_region_is_named_when_the_game_opens(tmp_path, capsys):
    g = two_days(tmp_path)
    (g / "ledger.yaml").write_text(_ledger(g).replace("game: mafia\n", "game: mafia\noptions: {timezone: CET}\n"),
                                   encoding="utf-8")
    code, out, err = run_cli(capsys, "tally", g)
    assert code == 1 and "CET" in err and "Europe/Berlin" in err, err


# --- 8. a dead slot is not replaced (MS-R4) ------------------------------------------------------

def test_ms_r4_replace_refuses_a_dead_slot_naming_the_death(tmp_path, capsys):
    g = two_days(tmp_path)
    assert run_cli(capsys, "death", g, "Bob", "--post", "50", "--how", "killed Night 1")[0] == 0
    err = refused(capsys, g, "replace", g, "Bob", "Zed", "--post", "60")
    assert "Bob is dead" in err and "killed Night 1" in err and "#50" in err, err
    assert run_cli(capsys, "replace", g, "Bob", "Zed", "--post", "30")[0] == 0  # before the death: a replacement


def test_ms_r4_replace_refuses_a_slot_lynched_by_a_lynch_fact(tmp_path, capsys):
    g = lynch_then_day2(tmp_path)
    assert run_cli(capsys, "lynch", g, "Bob", "--day", "1", "--post", "48")[0] == 0
    err = refused(capsys, g, "replace", g, "Bob", "Zed", "--post", "60")
    assert "Bob is dead" in err and "lynched Day 1" in err and "#48" in err, err


# --- 10. a host account that never posted ----------------------------------------------------------

def test_host_of_an_account_that_never_posted_says_so_with_a_did_you_mean(tmp_path, capsys):
    """Accepted (a host account may be declared before its posts are imported), with a clear note."""
    g = two_days(tmp_path)
    code, out, err = run_cli(capsys, "host", g, "Hots")
    assert code == 0 and "Hots never posted in the saved posts (did you mean Host?)" in err and "undo" in err, err
    code, out, err = run_cli(capsys, "host", g, "Host")
    assert code == 0 and err == ""
    # a host who takes over after the saved posts
    code, out, err = run_cli(capsys, "host", g, "Newhost", "--from-post", "60")
    assert code == 0 and "no saved post is by newhost yet" in err.lower(), out + err


# --- 11. the same standing votes twice ---------------------------------------------------------------

def test_ms_r6_the_same_standing_votes_again_write_nothing(tmp_path, capsys):
    g = game(tmp_path, LATER)
    assert run_cli(capsys, "standing", g, "--day", "1", "Alice: Bob", "Erin: Bob")[0] == 0
    before = _ledger(g)
    code, out, err = run_cli(capsys, "standing", g, "--day", "1", "Alice: Bob", "Erin: Bob")
    assert code == 0 and "already recorded" in out and "nothing written" in out.lower(), out + err
    assert _ledger(g) == before
    assert run_cli(capsys, "standing", g, "--day", "1", "Alice: Bob", "Erin: Carol")[0] == 0
    assert _ledger(g) != before


# --- 12. a replacement the host has not recorded yet (MS-R4, MS-R6) ----------------------------------

def test_ms_r6_a_count_naming_a_posting_account_not_in_the_roster_suggests_replace(tmp_path, capsys):
    count = "Vote Count 1.3\n Bob 2 Alice Zed\nNot voting: Carol, Dave, Erin, Fred, Bob"
    g = game(tmp_path, [(15, "Zed", "Hi, I am replacing Mary Ann."), (19, "Host", count), *LATER])
    code, _, err = run_cli(capsys, "standing", g, "--from-post", "19")
    assert code == 1 and "modtool replace" in err and "Zed" in err and "alias" not in err, err


def test_ms_r6_a_typed_vote_naming_a_posting_account_not_in_the_roster_suggests_replace(tmp_path, capsys):
    g = game(tmp_path, [(15, "Zed", "Hi, I am replacing Mary Ann."), *LATER])
    code, _, err = run_cli(capsys, "standing", g, "--day", "1", "Zed: Bob")
    assert code == 1 and "modtool replace" in err and "Zed" in err, err


# --- 15. a day known only by its lynch fact (MS-R6) -------------------------------------------------

def test_ms_r6_a_day_known_only_by_its_lynch_fact_tallies_as_that_lynch(tmp_path, capsys):
    g = lynch_then_day2(tmp_path)
    assert run_cli(capsys, "lynch", g, "Bob", "--day", "1", "--post", "48")[0] == 0
    code, out, err = run_cli(capsys, "tally", g, "--day", "1")
    assert code == 0, err
    assert "Bob was lynched" in out and "#48" in out and "no posts saved" in out
    data = json.loads(run_cli(capsys, "tally", g, "--day", "1", "--json")[1])
    assert (data["lynched"], data["hammer_post"], data["lynch_recorded"]) == ("Bob", 48, True)
    code, _, err = run_cli(capsys, "deadline", g, "--day", "1", "--at", "2011-03-25 12:00")
    assert code == 1 and "lynch" in err and "#48" in err and "has not started" not in err, err
