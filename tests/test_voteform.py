"""The core's labelled-form parser (modtool.core.voteform): one parser that each
game configures with a declarative form, and that the Chinese packs go through."""

from __future__ import annotations

from modtool.core import voteform
from modtool.core.voteform import FormAction, FormatError, Kind, VoteForm, Words, parse

# A made-up game: a challenge (reason required) takes precedence over a pick
# (reason optional); no wrong-label hint.
FORM = VoteForm(
    kinds=(Kind("challenge", ("挑战对象",), ("挑战理由",)), Kind("pick", ("选择对象",), ("选择理由",), reason_required=False)),
    words=Words(not_a_vote="不是帖子：没有「{challenge_target}」或「{pick_target}」", mixed="两种都有"),
)


def test_a_game_configures_kinds_labels_and_required_reasons():
    assert parse("挑战对象：甲\n挑战理由：太吵", FORM) == FormAction("challenge", "甲", "甲", "太吵", line=1)
    assert parse("闲聊\n选择对象：乙", FORM) == FormAction("pick", "乙", "乙", "", line=2)
    assert parse("挑战对象：甲", FORM) == FormatError("格式错误：缺少「挑战理由」")


def test_messages_are_the_games_words():
    r = parse("随便说说", FORM)
    assert r == FormatError("不是帖子：没有「挑战对象」或「选择对象」", not_a_vote=True) and r.not_a_vote
    assert parse("挑战对象：甲 挑战理由：x\n选择对象：乙", FORM) == FormatError("两种都有")
    assert parse("选择对象：甲\n选择对象：乙", FORM) == FormatError("格式错误：「选择对象」出现了2次，无法判断")


def test_wrong_label_hint_only_when_the_game_asks_for_it():
    assert parse("挑战：甲", FORM).not_a_vote
    hinted = VoteForm(FORM.kinds, Words("x", "y", wrong_label="没有「{label}」（{label}：…，{reason_label}：…）"))
    assert parse("挑战：甲", hinted) == FormatError("没有「挑战对象」（挑战对象：…，挑战理由：…）")


def test_m42_and_zhenhuan_posts_go_through_the_core_parser(monkeypatch):
    from modtool.packs.m42 import voteparse
    from modtool.packs.zhenhuan import nominations

    seen = []
    real = voteform.parse
    spy = lambda text, form: seen.append(form.kinds[0].name) or real(text, form)  # noqa: E731
    # Each pack binds the core's parser (through modtool.sdk, as parse_vote) when it is imported.
    assert voteparse.parse_form is real and nominations.parse_vote is real
    monkeypatch.setattr(voteparse, "parse_form", spy)
    monkeypatch.setattr(nominations, "parse_vote", spy)
    assert voteparse.parse_vote("投票对象：饺子\n投票理由：好吃").target == "饺子"
    assert nominations.parse_post("提名对象：3号\n提名理由：急").raw_target == "3号"
    assert seen == ["vote", "nominate"]


def test_inline_actions_are_the_cores_and_a_game_configures_its_words():
    """The mafia pack's bold actions go through the core parser (voteform.inline_actions);
    another game can bring other words and marks without a parser of its own."""
    from modtool.packs.mafia import actions as mafia
    from modtool.forum.markup import split_body
    from modtool.core.voteform import InlineForm, inline_actions

    assert mafia.FORM.__class__ is InlineForm
    body = '[quote="A"][b]vote: Pine[/b][/quote][b]Unvote. Vote: Trendall.[/b] [vote]no lynch[/vote]'
    own = split_body(body, keep_tags=True).own  # the one quote splitter; the markup stays
    assert own == '[b]Unvote. Vote: Trendall.[/b] [vote]no lynch[/vote]'
    assert [(a.kind, a.raw_target) for a in inline_actions(own, mafia.FORM)] == [
        ("unvote", ""), ("vote", "Trendall"), ("no_lynch", "no lynch")]
    other = InlineForm(vote_words=("lynch",), unvote_words=("unlynch",), marks=("u", "b"), no_target=r"nobody",
                       no_target_kind="skip")
    got = inline_actions("[u]unlynch; lynch Bob[/u] [b]I would never lynch Bob in bold prose[/b] [b]lynch nobody[/b]", other)
    assert [(a.kind, a.raw_target) for a in got] == [("unvote", ""), ("vote", "Bob"), ("skip", "nobody")]
