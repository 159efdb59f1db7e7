"""One post's own text -> a parsed vote (M42-R5 strict format).

Vote:   ``投票对象：饺子`` + ``投票理由：饺子好吃``
Change: ``改票对象：包子`` + ``改票理由：包子也好吃``

M42-R5:
- labels and colons are compared after width folding (``modtool.text.fold``:
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

This module knows nothing of the roster: whether the target is a living
character is decided by ``modtool.m42.tally``.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import dataclass, field
from functools import lru_cache

import regex

from modtool.postform import TIMEOUT, FormatError, compile_labels
from modtool.postform import blank as _blank
from modtool.postform import fold_map as _fold_map
from modtool.postform import line_end as _line_end
from modtool.postform import raw_span as _raw_span
from modtool.text import fold_name

# Label patterns are escaped literals followed by ``[^\S\n]*:``: linear time,
# microseconds on a text this short, where the regex timeout (which costs more
# than the match itself) cannot fire; longer texts keep it.
_NO_TIMEOUT_BELOW = 4096


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


_ROLES = ("vote_target", "vote_reason", "change_target", "change_reason")
_TARGET_SUFFIXES = ("对象", "對象")


def _attempt_pattern(vote_targets, change_targets):
    """A line that opens with a label's stem and a colon (``投票：石宽``, ``改票: 白月初``):
    a post that tries to vote with the wrong label, as opposed to chatter that
    mentions voting in passing. -> (pattern, stem -> role) or (None, {})."""
    role_of: dict[str, str] = {}
    for role, labels in (("vote_target", vote_targets), ("change_target", change_targets)):
        for lab in labels:
            f = fold_name(lab)
            for suffix in _TARGET_SUFFIXES:
                f = f.removesuffix(fold_name(suffix))
            if f:
                role_of.setdefault(f, role)
    if not role_of:
        return None, {}
    alts = "|".join(regex.escape(x) for x in sorted(role_of, key=len, reverse=True))
    pat = regex.compile(rf"(?m)^[^\S\n]*[【\[(]?[^\S\n]*(?P<stem>{alts})[^\S\n]*:", regex.V1)
    return pat, role_of


@lru_cache(maxsize=32)
def _patterns(key: tuple):
    """Compiled label patterns and derived tables for one set of labels."""
    with_colon, bare, role_of, shown = compile_labels(_ROLES, key)
    abstain = frozenset(fold_name(a) for a in key[4])
    attempt = _attempt_pattern(key[0], key[2])
    return with_colon, bare, role_of, shown, abstain, attempt


@lru_cache(maxsize=4096)
def _fold_target(raw_target: str) -> str:
    """``fold_name`` of a vote target (targets are few distinct names)."""
    return fold_name(raw_target)


def labels_patterns(labels: VoteLabels):
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


def parse_vote_compiled(text: str, pats) -> ParsedVote | FormatError:
    """``parse_vote`` with the labels already compiled by ``labels_patterns``."""
    try:
        return _parse_with(text, pats)
    except TimeoutError:
        return FormatError("格式错误：帖子内容无法在限定时间内读取，请导演人工核对")


def _parse(text: str, labels: VoteLabels) -> ParsedVote | FormatError:
    return _parse_with(text, _patterns(labels.key()))


def _parse_with(text: str, pats) -> ParsedVote | FormatError:
    with_colon, bare, role_of, shown, abstain_set, (attempt, stem_role) = pats
    F, src = _fold_map(text)
    short = len(F) < _NO_TIMEOUT_BELOW
    ms = list(with_colon.finditer(F) if short else with_colon.finditer(F, timeout=TIMEOUT))

    if not ms:
        b = bare.search(F) if short else bare.search(F, timeout=TIMEOUT)
        if b is not None:
            lab = shown[role_of[b.group(1)]]
            return FormatError(f"格式错误：「{lab}」后面缺少冒号（格式：{lab}：…）")
        a = None if attempt is None else attempt.search(F) if short else attempt.search(F, timeout=TIMEOUT)
        if a is not None:  # tries to vote with the wrong label: listed, with the format to use
            t_role = stem_role[a.group("stem")]
            r_role = "vote_reason" if t_role == "vote_target" else "change_reason"
            return FormatError(f"格式错误：没有「{shown[t_role]}」（格式：{shown[t_role]}：…，{shown[r_role]}：…）")
        return FormatError(f"不是投票帖：没有「{shown['vote_target']}」", not_a_vote=True)

    found: dict[str, list] = {}
    for m in ms:
        role = role_of[m.group(1)]
        lst = found.get(role)
        if lst is None:
            found[role] = [m]
        else:
            lst.append(m)
    if len(found) < len(ms):  # some label twice
        for role in _ROLES:
            n = len(found.get(role, ()))
            if n > 1:
                return FormatError(f"格式错误：「{shown[role]}」出现了{n}次，无法判断投给谁")
    has_vote = "vote_target" in found or "vote_reason" in found
    has_change = "change_target" in found or "change_reason" in found
    if has_vote and has_change:
        return FormatError("格式错误：同一帖里既有投票格式又有改票格式，无法判断；请只用一种格式重新发帖")
    kind = "vote" if has_vote else "change"
    t_role, r_role = ("vote_target", "vote_reason") if has_vote else ("change_target", "change_reason")
    if t_role not in found:
        return FormatError(f"格式错误：缺少「{shown[t_role]}」")
    if r_role not in found:
        return FormatError(f"格式错误：缺少「{shown[r_role]}」")

    tm, rm = found[t_role][0], found[r_role][0]
    # Matches come in text order: the next label after a field is the next match.
    starts = [m.start() for m in ms]
    n_f = len(F)
    t_start, t_pos = tm.span()
    r_pos = rm.end()
    i = bisect_left(starts, t_pos)
    t_end = starts[i] if i < len(starts) else n_f
    i = bisect_left(starts, r_pos)
    r_end = starts[i] if i < len(starts) else n_f

    # Target: to the end of the line or the next label.
    le = _line_end(F, t_pos, t_end)
    if le != -1:
        t_end = le
    raw_target = _raw_span(text, src, t_pos, t_end).strip()
    target = _fold_target(raw_target)
    # Reason: to the next label or the end of the text.
    reason = _raw_span(text, src, r_pos, r_end).strip()
    line = F.count("\n", 0, t_start) + 1

    if not target:
        return FormatError(f"格式错误：「{shown[t_role]}」是空的（对象要和标签写在同一行）")
    if _blank(reason):
        return FormatError(f"格式错误：「{shown[r_role]}」是空的")
    abstain = target in abstain_set
    return ParsedVote(kind=kind, target=target, raw_target=raw_target, reason=reason, abstain=abstain, line=line)
