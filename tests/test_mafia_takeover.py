"""MS-R6 Taking over mid-day: the votes standing at the first saved post are facts the host
records, typed in or read from a host's vote count in the thread; later posts move them.
Until they are recorded, a day whose posts start after its opening says so in every count
and gives no "deadline passed" result. An earlier day's lynch is a fact too (``modtool lynch``).

Small games written inline (own fixtures); commands run in this process (``run_cli``).
The real Game 1145 take-over (Day 1 cut at a host count) is in tests/test_mafia_game1145.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from modtool.core.gamefile import open_game
from modtool.packs.mafia.day import tally_day
from modtool.packs.mafia.views import tally_json
from tests.support.values import fresh_process, run_cli
from tests.support.mafia import post, write_ledger

SLOTS = ["Alice", "Bob", "Carol", "Dave", "Erin", "Fred", "Mary Ann"]  # 7 alive: 4 to lynch


def game(tmp_path: Path, posts: list[tuple[int, str, str]], facts: list[dict] = (), day: int = 1) -> Path:
    """Seven slots; day ``day`` opened by the host at post #1 (a ``start_day`` fact), but the
    saved posts are ``posts`` as (number, author, body), post n at 12:n (minutes)."""
    return write_ledger(tmp_path / "g", SLOTS, [{"type": "start_day", "day": day, "post": 1}]
                        + [post(n, a, b, day, date="2011-03-25") for n, a, b in posts] + list(facts))


def tally(folder: Path, day: int = 1, upto: int | None = None) -> dict:
    fresh_process()
    gd = open_game(folder)
    return tally_json(gd, tally_day(gd, day, upto))


def votes(t: dict) -> dict:
    return {row["target"]: row["voters"] for row in t["votes"]}


LATER = [(20, "Dave", "[b]vote: Bob[/b]"), (21, "Erin", "I think [b]unvote[/b]")]

TABLE = ("Vote Count 1.3\n Bob 2 Alice Mary Ann\n Erin 1 Dave\n Mary Ann 1 Carol"
         "[b]Spoiler: more info[/b] Not voting: Fred, Erin, Bob\n"
         "With 7 living players, a majority consists of 4 votes.")


# --- until the standing votes are recorded ---------------------------------------------------

def test_ms_r6_a_day_whose_saved_posts_start_after_its_opening_says_so_in_every_count(tmp_path, capsys):
    g = game(tmp_path, LATER)
    t = tally(g)
    assert t["takeover"] == {"day_opened": 1, "first_saved_post": 20, "standing_recorded": False,
                             "standing_post": None, "from_post": None}
    code, out, _ = run_cli(capsys, "tally", g, "--day", "1")
    assert code == 0 and "saved posts start at #20, after the day opened at #1" in out
    assert "modtool standing" in out  # and what to do about it
    code, post, _ = run_cli(capsys, "announce", g, "vote", "--day", "1")
    assert code == 0 and "saved posts start at #20, after the day opened at #1" in post


def test_ms_r6_a_day_saved_from_its_opening_needs_no_standing_votes(tmp_path):
    assert tally(game(tmp_path, [(1, "Dave", "[b]vote: Bob[/b]")]))["takeover"] is None


def test_ms_r6_no_deadline_passed_result_until_the_standing_votes_are_recorded(tmp_path, capsys):
    g = game(tmp_path, LATER, [{"type": "close", "day": 1, "at": "2011-03-25 12:30"},
                               {"type": "post", "thread": "vote", "day": 1, "floor": 40, "author": "Alice",
                                "time": "2011-03-25 12:40", "body": "late"}])
    t = tally(g)
    assert t["deadline_passed"] is False and t["lynched"] is None
    fresh_process()
    from modtool.packs.mafia.results import results
    assert "day1.lynch" not in results(open_game(g))
    assert run_cli(capsys, "standing", g, "--day", "1", "Alice: Bob")[0] == 0
    assert tally(g)["deadline_passed"] is True  # recorded: the day is whole again
    fresh_process()
    assert "day1.lynch" in results(open_game(g))  # and the deadline's result is given


# --- typed in ---------------------------------------------------------------------------------

def test_ms_r6_typed_in_votes_are_the_state_at_the_first_saved_post_and_later_posts_move_them(tmp_path, capsys):
    g = game(tmp_path, LATER)
    code, out, _ = run_cli(capsys, "standing", g, "--day", "1", "Alice: Bob", "Erin: Bob", "Carol: mary ann")
    assert code == 0, out
    assert "Bob (2): Alice, Erin" in out and "Mary Ann (1): Carol" in out and "post #20" in out
    t = tally(g)
    assert votes(t) == {"Bob": ["Alice", "Dave"], "Mary Ann": ["Carol"]}  # Dave voted at #20, Erin unvoted at #21
    assert t["not_voting"] == ["Bob", "Fred", "Mary Ann", "Erin"]  # never voted (roster order), then who unvoted
    assert t["takeover"]["standing_recorded"] is True and t["takeover"]["standing_post"] == 20
    ev = [e for e in open_game(g).events if e.type == "standing"][-1].data
    assert ev["votes"] == [{"voter": "Alice", "target": "Bob"}, {"voter": "Erin", "target": "Bob"},
                           {"voter": "Carol", "target": "Mary Ann"}]
    assert "from_post" not in ev and ev["post"] == 20 and ev["day"] == 1


def test_ms_r6_typed_in_votes_may_come_as_lines_and_a_standing_vote_can_be_the_hammers_base(tmp_path, capsys):
    g = game(tmp_path, [(20, "Dave", "[b]vote: Bob[/b]"), (21, "Fred", "[b]vote: Bob[/b]")])
    code, out, _ = run_cli(capsys, "standing", g, "--day", "1", "--post", "20", "Alice: Bob\nErin: Bob\n")
    assert code == 0, out
    t = tally(g)
    assert (t["lynched"], t["hammer_post"]) == ("Bob", 21)  # 2 standing + Dave + Fred = 4 of 7


@pytest.mark.parametrize("written", ["no lynch", "No  Lynch", "no-lynch", "NO_LYNCH", "nolynch"])
def test_ms_r6_a_typed_in_vote_may_be_for_no_lynch_written_as_a_hosts_count_writes_it(tmp_path, capsys, written):
    """MS-R6 with MS-R3: a standing vote for no lynch, in the spellings a host's count uses (hostcount)."""
    g = game(tmp_path, LATER)
    code, out, err = run_cli(capsys, "standing", g, "--day", "1", "Alice: Bob", f"Erin: {written}")
    assert code == 0, out + err
    ev = [e for e in open_game(g).events if e.type == "standing"][-1].data
    assert ev["votes"] == [{"voter": "Alice", "target": "Bob"}, {"voter": "Erin", "target": "no lynch"}]
    assert tally(g, upto=20)["no_lynch"] == ["Erin"]
    assert tally(g)["no_lynch"] == []  # Erin's unvote at #21 takes it back


def test_ms_r6_typed_in_names_are_checked_before_anything_is_written(tmp_path, capsys):
    g = game(tmp_path, LATER)
    before = (g / "ledger.yaml").read_text(encoding="utf-8")
    for bad, words in (("Alice Bob", "Voter: Target"), ("Alicia: Bob", "Alicia"), ("Alice: Zed", "Zed"),
                       ("Alice: Bob\nAlice: Carol", "twice")):
        code, out, err = run_cli(capsys, "standing", g, "--day", "1", bad)
        assert code == 1 and words in err, (bad, err)
    assert run_cli(capsys, "standing", g, "--day", "1")[0] == 1  # neither votes nor --from-post
    code, out, err = run_cli(capsys, "standing", g, "--day", "3", "Alice: Bob")
    assert code == 1 and "day 3 has not started; the days started so far: 1" in err, err
    assert (g / "ledger.yaml").read_text(encoding="utf-8") == before


# --- read from a host's count -----------------------------------------------------------------

HOST_FORMS = {
    "table": TABLE,
    # as Game 1145's substitute host wrote it: the legend run into the first row, the bracket as imported
    "fieldset": ("Incoming Vote Count\n\nVote CountBob \uff3bL-2\uff3d - Alice, Mary Ann,\n\nErin - [L-3] Dave,\n\n"
                 "Mary Ann [L-3] - Carol,\n\nFred [L-4] -\n\nNot Voting: Fred, Erin, Bob\n\nWith 7 alive it takes 4 to lynch."),
    "parenthesis": "[b]Vote Count[/b]\nBob (2) - Alice, Mary Ann\nErin (1) - Dave\nMary Ann (1) - Carol\n\nNot voting: Fred, Erin, Bob",
    "numbered": "Vote Count 1.3\n1. Bob - 2 (Alice, Mary Ann)\n2. Erin - 1 (Dave)\n3. Mary Ann - 1 (Carol)\nNot voting (3): Fred, Erin, Bob",
}


@pytest.mark.parametrize("form", list(HOST_FORMS))
def test_ms_r6_the_standing_votes_are_read_from_a_hosts_count_in_each_common_form(tmp_path, capsys, form):
    g = game(tmp_path, [(19, "Host", HOST_FORMS[form]), *LATER])
    code, out, _ = run_cli(capsys, "standing", g, "--from-post", "19")
    assert code == 0, out
    assert "Bob (2): Alice, Mary Ann" in out and "Erin (1): Dave" in out and "Not voting (3): Fred, Erin, Bob" in out
    t = tally(g)
    assert votes(t) == {"Bob": ["Alice", "Mary Ann", "Dave"], "Mary Ann": ["Carol"]}  # Dave moved from Erin
    assert t["not_voting"] == ["Fred", "Erin", "Bob"]  # in the host's order (Erin's unvote took back nothing)
    assert t["takeover"]["from_post"] == 19 and t["takeover"]["standing_recorded"] is True
    ev = [e for e in open_game(g).events if e.type == "standing"][-1].data
    assert (ev["day"], ev["post"], ev["from_post"]) == (1, 19, 19)


def test_ms_r6_dry_run_shows_what_was_read_and_writes_nothing(tmp_path, capsys):
    g = game(tmp_path, [(19, "Host", TABLE), *LATER])
    before = (g / "ledger.yaml").read_text(encoding="utf-8")
    code, out, _ = run_cli(capsys, "standing", g, "--from-post", "19", "--dry-run")
    assert code == 0 and "Bob (2): Alice, Mary Ann" in out and "nothing written" in out.lower()
    assert (g / "ledger.yaml").read_text(encoding="utf-8") == before


def test_ms_r6_a_count_inside_a_quote_is_not_the_posters_count(tmp_path, capsys):
    g = game(tmp_path, [(19, "Alice", f"[quote=\"Host\"]{TABLE}[/quote]\nLook at this count."), *LATER])
    code, _, err = run_cli(capsys, "standing", g, "--from-post", "19")
    assert code == 1 and "command line --from-post" in err and "post #19" in err


@pytest.mark.parametrize("body, words", [
    ("Vote Count 1.3\n Bob 3 Alice Mary Ann\nNot voting: Carol, Dave, Erin, Fred, Bob", "3"),   # says 3, names 2
    ("Vote Count 1.3\n Bob 2 Alice Zed\nNot voting: Carol", "Zed"),                                # no such player
    ("Vote Count 1.3\n Bob 1 Alice\n Carol 1 Alice\nNot voting: Bob", "Alice"),                    # voted twice
])
def test_ms_r6_a_count_that_does_not_add_up_is_refused_naming_the_post(tmp_path, capsys, body, words):
    g = game(tmp_path, [(19, "Host", body), *LATER])
    code, _, err = run_cli(capsys, "standing", g, "--from-post", "19")
    assert code == 1 and "command line --from-post" in err and "post #19" in err and words in err, err


def test_ms_r6_from_post_names_a_saved_post_of_the_day(tmp_path, capsys):
    g = game(tmp_path, LATER)
    code, _, err = run_cli(capsys, "standing", g, "--from-post", "7")
    assert code == 1 and "post #7" in err and "command line --from-post" in err


# --- an earlier day's lynch --------------------------------------------------------------------

def test_ms_r6_an_earlier_days_lynch_is_recorded_as_a_lynch_fact(tmp_path, capsys):
    """Day 1 has no saved post (the host took over on Day 2): its lynch cannot be replayed."""
    g2 = write_ledger(tmp_path / "h", SLOTS, [
        {"type": "start_day", "day": 1, "post": 1}, {"type": "start_day", "day": 2, "post": 50},
        {"type": "post", "thread": "vote", "day": 2, "floor": 50, "author": "Host", "time": "2011-03-26 12:00",
         "body": "It is now Day 2."},
        {"type": "post", "thread": "vote", "day": 2, "floor": 51, "author": "Dave", "time": "2011-03-26 12:01",
         "body": "[b]vote: Carol[/b]"}])
    code, out, err = run_cli(capsys, "lynch", g2, "Bob", "--day", "1", "--post", "48")
    assert code == 0, err
    assert "Bob" in out and "#48" in out
    day1, day2 = tally(g2, 1), tally(g2, 2)
    assert (day1["lynched"], day1["hammer_post"]) == ("Bob", 48)
    assert day2["living"] == 6 and "Bob" not in day2["not_voting"]
    fresh_process()
    from modtool.packs.mafia.results import results
    assert results(open_game(g2))["day1.lynch"][1] == "Bob"
    fresh_process()
    assert [(e.data["day"], e.data["slot"], e.data["post"]) for e in open_game(g2).events if e.type == "lynch"] == [(1, "Bob", 48)]
    code, _, err = run_cli(capsys, "lynch", g2, "Carol", "--day", "3", "--post", "48")
    assert code == 1 and "day 3 has not started" in err
    code, _, err = run_cli(capsys, "lynch", g2, "Carol", "--day", "1", "--post", "48")
    assert code == 1 and "already" in err


def test_ms_r6_a_hand_edited_standing_vote_that_names_no_slot_is_named_by_check(tmp_path, capsys):
    g = game(tmp_path, LATER, [{"type": "standing", "day": 1, "post": 20, "votes": [{"voter": "Zed", "target": "Bob"}]}])
    code, out, err = run_cli(capsys, "check", g)
    assert code != 0 and "Zed" in out + err
