"""MS-R1a (RULINGS.md, added turn 3): run-together actions, and the "did you mean"
hint that never offers an alias the host already has (MS-R2)."""

from __future__ import annotations

from modtool.core.gamefile import open_game
from modtool.packs.mafia.actions import actions
from modtool.packs.mafia.day import tally_day
from modtool.packs.mafia.views import tally_json, tally_text
from tests.test_mafia_rules import game, tally


def kinds(body: str, resolves=None) -> list[tuple[str, str]]:
    return [(a.kind, a.target) for a in actions(body, resolves=resolves)]


# -- MS-R1a: "An action word also starts a clause when it directly follows another action"


def test_ms_r1a_unvote_vote_kiku_is_an_unvote_and_then_a_vote_for_kiku():
    assert kinds("[b]unvote vote kiku[/b]") == [("unvote", ""), ("vote", "kiku")]
    assert kinds("[b] unvote vote kiku [/b]") == [("unvote", ""), ("vote", "kiku")]
    assert kinds("[b]unvote vote kiku[/b]") == kinds("[b]unvote; vote kiku[/b]")


def test_ms_r1a_unvote_vote_colon_kiku_likewise():
    assert kinds("[b]Unvote vote: kiku[/b]") == [("unvote", ""), ("vote", "kiku")]
    assert kinds("[b]UNVOTE VOTE kiku.[/b]") == [("unvote", ""), ("vote", "kiku")]


def test_ms_r1a_an_unvote_naming_a_player_then_a_vote():
    names = {"Pine", "Trendall"}.__contains__
    assert kinds("[b]unvote Pine vote Trendall[/b]", names) == [("unvote", "Pine"), ("vote", "Trendall")]
    assert kinds("[b]vote Pine vote Trendall[/b]", names) == [("vote", "Pine"), ("vote", "Trendall")]
    assert kinds("[b]unvote Pine unvote[/b]", names) == [("unvote", "Pine"), ("unvote", "")]


def test_ms_r1a_words_that_name_no_one_are_not_an_action_so_nothing_follows_one():
    """"directly follows another action": ``vote Pine or vote Trendall`` has no action before
    the second word (``Pine or`` names no one): one unresolved vote, as before."""
    names = {"Pine", "Trendall"}.__contains__
    assert kinds("[b]vote Pine or vote Trendall[/b]", names) == [("vote", "Pine or vote Trendall")]
    assert kinds("[b]vote no lynch vote Pine[/b]", names) == [("no_lynch", "no lynch"), ("vote", "Pine")]


def test_ms_r1a_a_name_holding_an_action_word_stays_a_name():
    names = {"Vote Bot", "Pine"}.__contains__
    assert kinds("[b]vote Vote Bot[/b]", names) == [("vote", "Vote Bot")]
    assert kinds("[b]unvote vote Vote Bot[/b]", names) == [("unvote", ""), ("vote", "Vote Bot")]


def test_ms_r1a_prose_is_still_not_an_action():
    """MS-R1 is unchanged: the action word must start the clause."""
    assert kinds("[b]no reason for him to unvote vote Pine at that point[/b]") == []
    assert kinds("[quote][b]unvote vote kiku[/b][/quote]") == []


def test_ms_r1a_counted_in_the_tally_before_it_was_dropped(tmp_path):
    t = tally(game(tmp_path, [(1, "Alice", "[b]vote: Bob[/b]"), (2, "Alice", "[b] unvote vote erin [/b]"),
                              (3, "Bob", "[b]Unvote vote: Carol[/b]"), (4, "Carol", "[b]vote Bob[/b]"),
                              (5, "Carol", "[b]unvote Bob vote Dave[/b]")]))
    assert t["votes"] == [{"target": "Erin", "voters": ["Alice"]}, {"target": "Carol", "voters": ["Bob"]},
                          {"target": "Dave", "voters": ["Carol"]}]
    assert t["unresolved"] == []


# -- MS-R2: the hint never suggests declaring an alias the host already has


def test_ms_r2_a_vote_for_an_alias_of_a_dead_player_asks_for_no_alias(tmp_path):
    folder = game(tmp_path, [(3, "Alice", "[b]vote Ally[/b]")],
                  [{"type": "alias", "alias": "Ally", "slot": "Bob"},
                   {"type": "death", "slot": "Bob", "post": 2, "how": "killed Night 0"}])
    gd = open_game(folder)
    data = tally_json(gd, tally_day(gd, 1))
    assert [(u["text"], u["reason"], u["did_you_mean"]) for u in data["unresolved"]] == [("Ally", "dead", None)]
    text = tally_text(data, None)
    assert '"Ally" is not alive' in text and "modtool alias" not in text


def test_ms_r2_a_misspelt_alias_is_hinted_as_the_player_not_as_the_alias(tmp_path):
    folder = game(tmp_path, [(1, "Alice", "[b]vote Ercinn[/b]")], [{"type": "alias", "alias": "Ercin", "slot": "Erin"}])
    gd = open_game(folder)
    data = tally_json(gd, tally_day(gd, 1))
    assert [(u["text"], u["did_you_mean"]) for u in data["unresolved"]] == [("Ercinn", "Erin")]
    text = tally_text(data, None)
    assert "did you mean Erin?" in text and "did you mean Ercin" not in text
    assert 'modtool alias GAME_DIR "Ercinn" Erin' in text  # the alias to declare is the text typed, never one that exists
