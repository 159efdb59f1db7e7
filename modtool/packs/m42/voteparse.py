"""One post's own text -> a parsed vote (M42-R5 strict format).

Vote:   ``投票对象：饺子`` + ``投票理由：饺子好吃``
Change: ``改票对象：包子`` + ``改票理由：包子也好吃``

M42-R5:
- labels and colons are compared after width folding (``modtool.base.text.fold``:
  NFKC + invisible characters removed), so ``：`` and ``:`` are the same;
- a label counts only when followed by a colon (a reason that mentions
  "投票对象" in passing is not a second field);
- the target runs to the end of its line or to the next label, so
  ``投票对象：饺子投票理由：好吃`` names 饺子; the reason runs to the next
  label or the end of the text (it may start on the next line);
- both fields of the pair are required; a label twice, or a vote pair and a
  change pair in one post, is ambiguous;
- the raw target (as typed) is kept for display; ``target`` is folded and
  trimmed for comparison.

The parsing itself is the core's labelled-form parser (``modtool.core.voteform``);
this module supplies M42's form (labels, words, the wrong-label hint) and its
one special rule, abstention (``弃权`` as the target).

This module knows nothing of the roster: whether the target is a living
character is decided by ``modtool.packs.m42.tally``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from modtool.sdk import fold_name, FormatError, Kind, parse_vote as parse_form, VoteForm, VoteWords as Words

__all__ = ["FormatError", "ParsedVote", "VoteLabels", "labels_patterns", "parse_vote", "parse_vote_compiled"]


@dataclass(frozen=True)
class VoteLabels:
    """Field labels of the vote format (the game YAML supplies these)."""

    vote_target: tuple[str, ...] | list[str] = ("投票对象", "投票對象")
    vote_reason: tuple[str, ...] | list[str] = ("投票理由",)
    change_target: tuple[str, ...] | list[str] = ("改票对象", "改票對象")
    change_reason: tuple[str, ...] | list[str] = ("改票理由",)
    abstain: tuple[str, ...] | list[str] = ("弃权", "棄權")

    def key(self) -> tuple:
        return (
            tuple(self.vote_target),
            tuple(self.vote_reason),
            tuple(self.change_target),
            tuple(self.change_reason),
            tuple(self.abstain),
        )


@dataclass(frozen=True)
class ParsedVote:
    kind: str  # "vote" | "change"
    target: str  # folded and trimmed, for comparison
    raw_target: str  # as typed, trimmed, for display
    reason: str  # as typed, trimmed
    abstain: bool = False
    line: int | None = None  # 1-based line of the target label in the text


_WORDS = Words(
    not_a_vote="不是投票帖：没有「{vote_target}」",
    mixed="格式错误：同一帖里既有投票格式又有改票格式，无法判断；请只用一种格式重新发帖",
    twice="格式错误：「{label}」出现了{n}次，无法判断投给谁",
    timeout="格式错误：帖子内容无法在限定时间内读取，请导演人工核对",
    wrong_label="格式错误：没有「{label}」（格式：{label}：…，{reason_label}：…）",
)


@dataclass(frozen=True)
class _Compiled:
    form: VoteForm
    abstain: frozenset


@lru_cache(maxsize=32)
def _patterns(key: tuple) -> _Compiled:
    """M42's form for one set of labels, and its abstain targets (folded)."""
    form = VoteForm(
        kinds=(Kind("vote", key[0], key[1]), Kind("change", key[2], key[3])),
        words=_WORDS,
    )
    return _Compiled(form, frozenset(fold_name(a) for a in key[4]))


def labels_patterns(labels: VoteLabels) -> _Compiled:
    """The compiled form of ``labels`` for ``parse_vote_compiled`` (compute
    it once per tally, not per post)."""
    return _patterns(labels.key())


def parse_vote(text: str, labels: VoteLabels | None = None) -> ParsedVote | FormatError:
    """Parse the poster's own text (quotes already removed) as a vote post.

    Never raises; every failure is a ``FormatError`` whose reason can be pasted
    back to the player.
    """
    labels = labels or VoteLabels()
    return parse_vote_compiled(text, _patterns(labels.key()))


def parse_vote_compiled(text: str, pats: _Compiled) -> ParsedVote | FormatError:
    """``parse_vote`` with the labels already compiled by ``labels_patterns``."""
    a = parse_form(text, pats.form)
    if isinstance(a, FormatError):
        return a
    return ParsedVote(
        kind=a.kind,
        target=a.target,
        raw_target=a.raw_target,
        reason=a.reason,
        abstain=a.target in pats.abstain,
        line=a.line,
    )
