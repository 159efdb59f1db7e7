"""The vote actions of one post, as MafiaScum players write them (BBCode in, actions out).

An action is bold or in a vote tag, outside every quote:

* ``[vote]X[/vote]``, ``[unvote][/unvote]``, ``[unvote]X[/unvote]``;
* ``[b]vote: X[/b]``, ``[b]VOTE X[/b]``, ``[b]unvote[/b]``, ``[b]unvote: X[/b]``;
* several in one bold run, taken in order: ``[b]unvote Pine; Vote Trendall[/b]``,
  ``[b]Unvote.  Vote: Peabody.[/b]``, ``[b]Unvote, vote lynchking[/b]``, one per line.

Bold prose that merely contains the word ("Scum!Peabody to unvote at that
point") is not an action: a clause is an action only when it *is* the action form.
What an action names is resolved later (``slots.resolve``); here it is text.
"""

from __future__ import annotations

from dataclasses import dataclass

import regex

_QUOTE_OPEN = regex.compile(r"\[quote(?:=[^\]]*)?\]", regex.I)
_QUOTE_TAG = regex.compile(r"\[quote(?:=[^\]]*)?\]|\[/quote\]", regex.I)
_RUNS = regex.compile(r"\[(un)?vote\](.*?)\[/(?:un)?vote\]|\[b\](.*?)\[/b\]", regex.I | regex.S | regex.V1)
_TAGS = regex.compile(r"\[/?[a-z*]+(?:=[^\]]*)?\]", regex.I)
# A bold run splits into clauses at new lines and semicolons, and at a comma or
# full stop that another (un)vote follows.
_CLAUSES = regex.compile(r"[\n;]+|(?<=[.,!])\s*(?=(?:un)?vote\b)", regex.I | regex.V1)
_ACTION = regex.compile(r"(un)?vote\b\s*:?\s*(.*?)[\s.!,]*", regex.I | regex.S | regex.V1)
_NO_LYNCH = regex.compile(r"no[\s_-]*lynch", regex.I | regex.V1)


@dataclass(frozen=True)
class Action:
    kind: str  # "vote", "unvote" or "no_lynch"
    target: str  # as written ("" for a bare unvote)


def outside_quotes(body: str) -> str:
    """``body`` without any quote, at any depth (an unclosed quote runs to the end)."""
    out, depth, pos = [], 0, 0
    for m in _QUOTE_TAG.finditer(body):
        if depth == 0:
            out.append(body[pos:m.start()])
        depth = depth + 1 if _QUOTE_OPEN.fullmatch(m.group()) else max(depth - 1, 0)
        pos = m.end()
    if depth == 0:
        out.append(body[pos:])
    return "".join(out)


def _clause(text: str, forced: str | None = None) -> Action | None:
    text = _TAGS.sub("", text).strip()
    if forced is not None:  # inside [vote] or [unvote]: the tag is the form
        target = text.strip(" .!,:")
    else:
        m = _ACTION.fullmatch(text)
        if not m:
            return None
        forced, target = ("unvote" if m.group(1) else "vote"), m.group(2).strip()
    if forced == "vote" and _NO_LYNCH.fullmatch(target):
        return Action("no_lynch", target)
    if forced == "vote" and not target:
        return None  # "vote:" with nothing after it names no one
    return Action(forced, target)


def actions(body: str) -> list[Action]:
    """The actions of a post body, in the order written."""
    found: list[Action] = []
    for m in _RUNS.finditer(outside_quotes(body)):
        if m.group(3) is None:  # a vote tag
            act = _clause(m.group(2), "unvote" if m.group(1) else "vote")
            if act:
                found.append(act)
            continue
        for piece in _CLAUSES.split(m.group(3)):
            act = _clause(piece)
            if act:
                found.append(act)
    return found
