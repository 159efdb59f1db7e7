"""Vote actions as MafiaScum players write them."""

from __future__ import annotations

import pytest

from modtool.packs.mafia.actions import Action, actions


@pytest.mark.parametrize("body, expected", [
    ("[b]Vote: Lucresia[/b]", [Action("vote", "Lucresia")]),
    ("[b]VOTE Erratus Apathos[/b]", [Action("vote", "Erratus Apathos")]),
    ("[vote]Trendall[/vote]", [Action("vote", "Trendall")]),
    ("[unvote][/unvote]", [Action("unvote", "")]),
    ("[b]Unvote: RotN[/b]", [Action("unvote", "RotN")]),
    ("[b]unvote Pine; Vote Trendall[/b]", [Action("unvote", "Pine"), Action("vote", "Trendall")]),
    ("[b]Unvote.  Vote: Peabody.[/b]", [Action("unvote", ""), Action("vote", "Peabody")]),
    ("[b]Unvote, vote lynchking[/b]", [Action("unvote", ""), Action("vote", "lynchking")]),
    ("[b]Unvote\nVote: Peabody[/b]", [Action("unvote", ""), Action("vote", "Peabody")]),
    ("[b]Vote:Trendall.[/b]", [Action("vote", "Trendall")]),
    ("[b]vote: no lynch[/b]", [Action("no_lynch", "no lynch")]),
    ("[vote]No Lynch[/vote]", [Action("no_lynch", "No Lynch")]),
])
def test_ms_r1_action_forms(body, expected):
    assert actions(body) == expected


def test_ms_r1_several_actions_in_one_post_are_taken_in_order():
    assert actions("[unvote]Peabody[/unvote] text [b]Vote: A[/b] more [vote]B[/vote]") == [
        Action("unvote", "Peabody"), Action("vote", "A"), Action("vote", "B")]


def test_ms_r1_nothing_inside_quotes_at_any_depth_counts():
    body = '[quote="X"][b]Vote: A[/b][quote][vote]B[/vote][/quote][/quote]mine [b]vote: C[/b]'
    assert actions(body) == [Action("vote", "C")]


def test_ms_r1_an_unclosed_quote_hides_the_rest():
    assert actions("[quote]quoted [b]vote: A[/b]") == []


def test_ms_r1_bold_prose_containing_the_word_is_not_an_action():
    assert actions("[b]I don't see any motivation for Scum!Peabody to unvote at that point.[/b]") == []
    assert actions("[b]Valern is asking for more votes on her[/b]") == []


def test_ms_r1_unbolded_votes_do_not_count():
    assert actions("vote: A") == []


def test_nothing_in_a_code_block_is_markup_so_no_vote_counts_there():
    """phpBB shows a [code] block literally: a bold vote typed in one is not bold."""
    assert actions("[code][b]vote: A[/b][/code]") == []
    assert actions("[code]x[/code][b]vote: B[/b]") == [Action("vote", "B")]


def test_quotes_go_by_the_one_splitter_cited_uncited_nested_and_unclosed():
    body = ('[quote="Pine"]a [quote]b [b]vote: A[/b][/quote] [b]vote: B[/b][/quote]'
            '[QUOTE=x][b]vote: C[/b][/QUOTE][b]vote: D[/b][quote]unclosed [b]vote: E[/b]')
    assert actions(body) == [Action("vote", "D")]
