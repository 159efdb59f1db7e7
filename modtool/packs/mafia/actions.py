"""The vote actions of one post, as MafiaScum players write them (MS-R1: BBCode in, actions out).

The parsing is the core's (``modtool.core.voteform.inline_actions``): this pack
only says its words. An action is bold or in a vote tag, outside every quote:

* ``[vote]X[/vote]``, ``[unvote][/unvote]``, ``[unvote]X[/unvote]``;
* ``[b]vote: X[/b]``, ``[b]VOTE X[/b]``, ``[b]unvote[/b]``, ``[b]unvote: X[/b]``;
* several in one bold run, taken in order: ``[b]unvote Pine; Vote Trendall[/b]``,
  ``[b]Unvote.  Vote: Peabody.[/b]``, ``[b]Unvote, vote lynchking[/b]``, one per line;
* run together, an action word right after another action (MS-R1a):
  ``[b]unvote vote kiku[/b]``, ``[b]Unvote vote: kiku[/b]``, ``[b]unvote Pine vote Trendall[/b]``
  (when ``Pine`` names a player: ``resolves``).

Bold prose that merely contains the word ("Scum!Peabody to unvote at that
point") is not an action: a clause is an action only when it *is* the action form.
What an action names is resolved later (``slots.resolve``); here it is text.
"""

from __future__ import annotations

from dataclasses import dataclass

from modtool.sdk import inline_actions, inline_mentions, InlineForm, MarkupError, split_body

FORM = InlineForm(vote_words=("vote",), unvote_words=("unvote",), vote_tag="vote", unvote_tag="unvote", marks=("b",),
                  no_target=r"no[\s_-]*lynch", no_target_kind="no_lynch")


@dataclass(frozen=True)
class Action:
    kind: str  # "vote", "unvote" or "no_lynch"
    target: str  # as written ("" for a bare unvote)


def own_actions(split, resolves=None) -> list[Action] | None:
    """The actions of a post's own text with markup (``Post.split(keep_tags=True)``),
    in the order written; None when the body could not be read (``MarkupError``).
    ``resolves(text)``: does ``text`` name a player (MS-R2); an action word right
    after a name that does starts the next action (MS-R1a)."""
    if isinstance(split, MarkupError):
        return None
    return [Action(a.kind, a.raw_target) for a in inline_actions(split.own, FORM, resolves)]


def own_mentions(split, resolves=None) -> list[Action]:
    """Bold clauses that mention a vote word without being the action form, with
    the words after it (MS-R1: never counted; flagged when they name a player)."""
    if isinstance(split, MarkupError):
        return []
    return [Action(a.kind, a.raw_target) for a in inline_mentions(split.own, FORM, resolves)]


def actions(body: str, resolves=None) -> list[Action] | None:
    """The actions of a post body (BBCode, quotes included), in the order written."""
    return own_actions(split_body(body, keep_tags=True), resolves)
