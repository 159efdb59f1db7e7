"""Majority, hammer, no lynch, replacement, deaths, name resolution: small games written inline."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from modtool.core.gamefile import open_game
from modtool.packs.mafia.day import majority, tally_day
from modtool.packs.mafia.views import tally_json
from tests.support.mafia import post, write_ledger

MODTOOL = str(Path(sys.executable).parent / "modtool")
SLOTS = ["Alice", "Bob", "Carol", "Dave", "Erin"]


def game(tmp_path: Path, posts: list[tuple[int, str, str]], facts: list[dict] = (), options: dict | None = None) -> Path:
    """Five slots; ``posts`` as (number, author, body), all of day 1 (post n at 12:0n)."""
    return write_ledger(tmp_path / "g", SLOTS, [post(n, a, b) for n, a, b in posts] + list(facts), options)


def tally(folder: Path, day: int = 1, upto: int | None = None) -> dict:
    gd = open_game(folder)
    return tally_json(gd, tally_day(gd, day, upto))


def test_ms_r3_majority_is_half_the_living_rounded_down_plus_one():
    assert [majority(n) for n in (12, 9, 5, 4, 3)] == [7, 5, 3, 3, 2]


def test_ms_r3_reaching_majority_lynches_at_once_and_an_unvote_in_the_same_post_does_not_undo_it(tmp_path):
    t = tally(game(tmp_path, [(1, "Alice", "[b]vote: Erin[/b]"), (2, "Bob", "[b]vote: Erin[/b]"),
                              (3, "Carol", "[b]vote: Erin[/b] [b]unvote[/b]"), (4, "Dave", "[b]vote: Erin[/b]")]))
    assert (t["lynched"], t["hammer_post"]) == ("Erin", 3)
    assert t["votes"] == [{"target": "Erin", "voters": ["Alice", "Bob", "Carol"]}]


def test_ms_r3_no_lynch_needs_the_same_count(tmp_path):
    posts = [(1, "Alice", "[vote]no lynch[/vote]"), (2, "Bob", "[b]Vote: No Lynch[/b]")]
    assert tally(game(tmp_path, posts))["no_lynch"] == ["Alice", "Bob"]
    t = tally(game(tmp_path, posts + [(3, "Carol", "[b]vote: nolynch[/b]")]))
    assert (t["lynched"], t["no_lynch_reached"], t["hammer_post"]) == (None, True, 3)


def test_ms_r5_voters_are_listed_in_the_order_their_votes_were_cast_and_a_repeat_keeps_its_place(tmp_path):
    t = tally(game(tmp_path, [(1, "Bob", "[b]vote: Alice[/b]"), (2, "Carol", "[b]vote: Alice[/b]"),
                              (3, "Bob", "[vote]Alice[/vote]"), (4, "Dave", "[b]vote: Alice[/b]")]))
    assert t["votes"] == [{"target": "Alice", "voters": ["Bob", "Carol", "Dave"]}]


def test_ms_r5_not_voting_lists_the_never_voted_first_then_those_who_unvoted_in_that_order(tmp_path):
    t = tally(game(tmp_path, [(1, "Erin", "[b]vote: Alice[/b]"), (2, "Bob", "[b]vote: Alice[/b]"),
                              (3, "Bob", "[b]unvote[/b]"), (4, "Erin", "[unvote]Alice[/unvote]")]))
    assert t["not_voting"] == ["Alice", "Carol", "Dave", "Bob", "Erin"]


def test_ms_r1_self_votes_count(tmp_path):
    assert tally(game(tmp_path, [(1, "Bob", "[b]vote: Bob[/b]")]))["votes"] == [{"target": "Bob", "voters": ["Bob"]}]


def test_ms_r2_names_resolve_by_case_insensitive_name_or_unique_prefix_and_otherwise_are_listed(tmp_path):
    t = tally(game(tmp_path, [(1, "Alice", "[b]vote: bob[/b]"), (2, "Carol", "[b]vote: Da[/b]"),
                              (3, "Dave", "[b]vote: Dav[/b]"), (4, "Erin", "[b]vote: Carl[/b]")]))
    assert t["votes"] == [{"target": "Bob", "voters": ["Alice"]}, {"target": "Dave", "voters": ["Dave"]}]
    assert [(u["post"], u["text"], u["did_you_mean"]) for u in t["unresolved"]] == [(2, "Da", "Dave"), (4, "Carl", "Carol")]


def test_ms_r2_a_declared_alias_resolves(tmp_path):
    t = tally(game(tmp_path, [(1, "Alice", "[b]vote: Bobby[/b]")], [{"type": "alias", "alias": "Bobby", "slot": "Bob"}]))
    assert t["votes"] == [{"target": "Bob", "voters": ["Alice"]}] and t["unresolved"] == []


def test_ms_r4_a_replacement_takes_over_the_slot_and_its_current_vote(tmp_path):
    folder = game(tmp_path, [(1, "Alice", "[b]vote: Bob[/b]"), (3, "Alice", "[b]vote: Carol[/b]"),
                             (4, "Zed", "[b]vote: Dave[/b]")],
                  [{"type": "replace", "slot": "Alice", "player": "Zed", "post": 2}])
    assert tally(folder, upto=3)["votes"] == [{"target": "Bob", "voters": ["Zed"]}]  # Alice's post #3 no longer plays
    assert tally(folder)["votes"] == [{"target": "Dave", "voters": ["Zed"]}]


def test_ms_r2_a_vote_for_a_replaced_players_name_means_the_slot(tmp_path):
    folder = game(tmp_path, [(3, "Bob", "[b]vote: Alice[/b]")],
                  [{"type": "replace", "slot": "Alice", "player": "Zed", "post": 2}])
    assert tally(folder)["votes"] == [{"target": "Zed", "voters": ["Bob"]}]


def test_a_death_in_the_day_removes_the_slot_its_vote_and_the_votes_on_it(tmp_path):
    folder = game(tmp_path, [(1, "Alice", "[b]vote: Bob[/b]"), (2, "Bob", "[b]vote: Carol[/b]"),
                             (4, "Carol", "[b]vote: Bob[/b]")], [{"type": "death", "slot": "Bob", "post": 3}])
    t = tally(folder)
    assert (t["living"], t["majority"]) == (4, 3)
    assert t["votes"] == [] and [u["reason"] for u in t["unresolved"]] == ["dead"]


def test_a_lynch_on_day_1_leaves_day_2_one_short(tmp_path):
    posts = [(1, "Alice", "[b]vote: Erin[/b]"), (2, "Bob", "[b]vote: Erin[/b]"), (3, "Carol", "[b]vote: Erin[/b]")]
    folder = game(tmp_path, posts, [{"type": "start_day", "day": 2, "post": 10}])
    lines = (folder / "ledger.yaml").read_text().splitlines()
    lines.insert(-1, "  - " + json.dumps({"type": "post", "thread": "vote", "day": 2, "floor": 11, "author": "Alice",
                                          "time": "2011-03-26 12:00", "body": "[b]vote: Bob[/b]"}))
    (folder / "ledger.yaml").write_text("\n".join(lines) + "\n")
    t = tally(folder, day=2)
    assert (t["living"], t["majority"], t["not_voting"]) == (4, 3, ["Bob", "Carol", "Dave"])


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([MODTOOL, *args], capture_output=True, text=True)


def test_a_refused_fact_command_exits_1_names_the_place_and_writes_nothing(tmp_path):
    folder = game(tmp_path, [(1, "Alice", "[b]vote: Bob[/b]")])
    before = (folder / "ledger.yaml").read_bytes()
    for args in (["replace", str(folder), "Bobb", "Zed", "--post", "2"], ["death", str(folder), "Nobody", "--post", "2"],
                 ["alias", str(folder), "Alice", "Bob"]):
        got = _run(*args)
        assert got.returncode == 1 and "Traceback" not in got.stderr + got.stdout, args
    assert "did you mean Bob?" in _run("replace", str(folder), "Bobb", "Zed", "--post", "2").stderr
    assert (folder / "ledger.yaml").read_bytes() == before


def test_fact_commands_record_and_the_tally_reads_them_in_english(tmp_path):
    folder = game(tmp_path, [(1, "Alice", "[b]vote: RotN[/b]")])
    assert _run("alias", str(folder), "RotN", "Bob").returncode == 0
    out = _run("tally", str(folder)).stdout
    assert "Bob (1): Alice" in out and "Not voting (4): Bob, Carol, Dave, Erin" in out
    assert "With 5 alive, it takes 3 to lynch." in _run("announce", str(folder), "vote").stdout
    assert "**Vote Count 1.1**" in _run("announce", str(folder), "vote", "--format", "md").stdout


def test_a_post_that_cannot_be_read_is_listed_for_the_host_not_counted(tmp_path, monkeypatch):
    from modtool.forum import markup

    real = markup.split_body

    def slow_on_bob(body, **kw):  # the splitter gives up on a pathological body
        return markup.MarkupError("timeout") if "Bob" in body else real(body, **kw)

    monkeypatch.setattr(markup, "split_body", slow_on_bob)
    t = tally(game(tmp_path, [(1, "Alice", "[b]vote: Erin[/b]"), (2, "Carol", "[b]vote: Bob[/b]")]))
    assert t["votes"] == [{"target": "Erin", "voters": ["Alice"]}]
    assert [(u["post"], u["voter"], u["reason"]) for u in t["unresolved"]] == [(2, "Carol", "unreadable")]


def test_ms_r5_counts_are_numbered_after_the_counts_posted_that_day_not_quoted_ones(tmp_path):
    from modtool.packs.mafia.day import next_count_number

    def number(posts, upto=None):
        gd = open_game(game(tmp_path, posts))
        return next_count_number(gd, tally_day(gd, 1, upto))

    assert number([(1, "Alice", "Hello all.")]) == 0  # no one voted, no count yet: the day's empty count
    assert number([(1, "Host", "It is day 1. [b]Vote Count 1.0[/b] No one is voting.")]) == 1
    assert number([(1, "Alice", "[b]vote: Bob[/b]")]) == 1  # votes, and no count posted yet
    posts = [(1, "Host", "Vote Count 1.0"), (2, "Alice", "[b]vote: Bob[/b]"), (3, "Host", "Vote Count 1.1 ..."),
             (4, "Bob", '[quote="Host"]Vote Count 1.7[/quote] lol'), (5, "Host", "Vote Count 2.9 (a typo of day)")]
    assert number(posts) == 2
    assert number(posts, upto=2) == 1


# -- the rulings, from their text (RULINGS.md: MS-R1 to MS-R5) ------------------------------


def test_ms_r1_an_action_word_after_a_colon_starts_a_clause(tmp_path):
    t = tally(game(tmp_path, [(1, "Alice", "[b]Final answer: vote Erin[/b]"), (2, "Bob", "[b]OK then; vote Erin[/b]")]))
    assert t["votes"] == [{"target": "Erin", "voters": ["Alice", "Bob"]}]


def test_ms_r1_unvote_followed_by_words_that_name_no_one_is_prose_not_an_unvote(tmp_path):
    t = tally(game(tmp_path, [(1, "Alice", "[b]vote: Erin[/b]"),
                              (2, "Alice", "[b]Unvote at that point[/b] [b]no reason for him to unvote at that point[/b]")]))
    assert t["votes"] == [{"target": "Erin", "voters": ["Alice"]}] and t["unresolved"] == [] and t["flags"] == []


def test_ms_r1_bold_text_naming_a_player_without_the_form_is_flagged_not_counted(tmp_path):
    t = tally(game(tmp_path, [(1, "Alice", "[b]I might vote Carol later[/b]"), (2, "Bob", "[b]Valern is asking for more votes[/b]")]))
    assert t["votes"] == []
    assert t["flags"] == [{"post": 1, "voter": "Alice", "word": "vote", "text": "Carol later", "names": "Carol"}]
    gd = open_game(tmp_path / "g")
    from modtool.packs.mafia.views import tally_text

    assert 'Flag: post #1, Alice: bold "vote Carol later" names Carol but is not a vote; not counted (MS-R1)' in \
        tally_text(tally_json(gd, tally_day(gd, 1)), None)


def test_ms_r2_a_misspelt_unvote_is_unresolved_with_a_hint_until_the_host_declares_an_alias(tmp_path):
    posts = [(1, "Alice", "[b]vote: Erin[/b]"), (2, "Alice", "[b]Unvote: Erinn[/b]")]
    t = tally(game(tmp_path, posts))
    assert t["votes"] == [{"target": "Erin", "voters": ["Alice"]}]  # not counted by guess
    assert [(u["post"], u["text"], u["did_you_mean"]) for u in t["unresolved"]] == [(2, "Erinn", "Erin")]
    t = tally(game(tmp_path, posts, [{"type": "alias", "alias": "Erinn", "slot": "Erin"}]))
    assert t["votes"] == [] and t["unresolved"] == [] and t["not_voting"][-1] == "Alice"


def test_ms_r3_votes_after_the_deadline_do_not_count_and_without_a_majority_nobody_is_lynched(tmp_path):
    posts = [(1, "Alice", "[b]vote: Erin[/b]"), (2, "Bob", "[b]vote: Erin[/b]"), (9, "Carol", "[b]vote: Erin[/b]")]
    deadline = {"type": "close", "day": 1, "at": "2011-03-25 12:05"}  # post n is at 12:0n
    t = tally(game(tmp_path, posts, [deadline]))
    assert t["votes"] == [{"target": "Erin", "voters": ["Alice", "Bob"]}]  # Carol's #9 came after it
    assert (t["lynched"], t["hammer_post"], t["deadline_passed"], t["deadline"]) == (None, None, True, "2011-03-25 12:05")
    later = {"type": "close", "day": 1, "at": "2011-03-25 12:30", "note": "extended"}  # the later fact wins
    t = tally(game(tmp_path, posts, [deadline, later]))
    assert (t["lynched"], t["hammer_post"], t["deadline_passed"]) == ("Erin", 9, False)


def test_ms_r3_the_deadline_with_option_plurality_lynches_the_unique_leader_and_a_tie_nobody(tmp_path):
    deadline = {"type": "close", "day": 1, "at": "2011-03-25 12:05"}
    posts = [(1, "Alice", "[b]vote: Erin[/b]"), (2, "Bob", "[b]vote: Erin[/b]"), (3, "Carol", "[b]vote: Dave[/b]"),
             (8, "Dave", "x")]
    plurality = {"deadline_rule": "plurality"}
    t = tally(game(tmp_path, posts, [deadline], plurality))
    assert (t["lynched"], t["hammer_post"], t["deadline_passed"]) == ("Erin", None, True)
    tie = [(1, "Alice", "[b]vote: Erin[/b]"), (3, "Carol", "[b]vote: Dave[/b]"), (8, "Dave", "x")]
    assert tally(game(tmp_path / "tie", tie, [deadline], plurality))["lynched"] is None
    no_lynch_ahead = [(1, "Alice", "[b]vote: no lynch[/b]"), (2, "Bob", "[vote]no lynch[/vote]"),
                      (3, "Carol", "[b]vote: Dave[/b]"), (8, "Dave", "x")]
    t = tally(game(tmp_path / "nl", no_lynch_ahead, [deadline], plurality))
    assert (t["lynched"], t["deadline_passed"]) == (None, True)


def test_ms_r3_an_unknown_deadline_rule_is_refused_naming_the_option(tmp_path):
    folder = game(tmp_path, [(1, "Alice", "x"), (9, "Bob", "y")], [{"type": "close", "day": 1, "at": "2011-03-25 12:05"}],
                  {"deadline_rule": "coin"})
    got = _run("tally", str(folder))
    assert got.returncode == 1 and "deadline_rule" in got.stderr and "Traceback" not in got.stderr


def test_ms_r3_the_deadline_command_records_it_and_the_count_post_says_so(tmp_path):
    folder = game(tmp_path, [(1, "Alice", "[b]vote: Erin[/b]"), (9, "Bob", "[b]vote: Erin[/b]")])
    got = _run("deadline", str(folder), "--day", "1", "--at", "2011-03-25 12:05")
    assert got.returncode == 0 and got.stdout == "Day 1's deadline is 2011-03-25 12:05 (UTC).\n", got.stderr
    post = _run("announce", str(folder), "vote").stdout
    assert post.startswith("[b]Vote Count 1.final[/b]") and "The deadline passed without a majority: nobody is lynched." in post
    assert "Deadline: 2011-03-25 12:05 (UTC)" in post  # the zone named: players read it in many
    bad = _run("deadline", str(folder), "--day", "1", "--at", "tomorrow")
    assert bad.returncode == 1 and bad.stderr.startswith("Error: ") and "Traceback" not in bad.stderr
