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

from dataclasses import dataclass, field
from functools import lru_cache

import regex

from modtool.text import fold, fold_name

TIMEOUT = 1.0


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


@dataclass(frozen=True)
class FormatError:
    """Why a post is not a valid vote post, pasteable to the player."""

    reason: str
    not_a_vote: bool = False  # no vote label at all (chatter in the vote thread)
    extra: dict = field(default_factory=dict, compare=False)


_ROLES = ("vote_target", "vote_reason", "change_target", "change_reason")
_LINE_END = regex.compile(r"[\n\r\v\f\x85\u2028\u2029]", regex.V1)


@lru_cache(maxsize=32)
def _patterns(key: tuple):
    """Compiled label patterns and derived tables for one set of labels."""
    role_of: dict[str, str] = {}
    for role, labels in zip(_ROLES, key):
        for lab in labels:
            f = fold_name(lab)
            if f:
                role_of.setdefault(f, role)
    alts = "|".join(regex.escape(x) for x in sorted(role_of, key=len, reverse=True)) or r"(?!)"
    with_colon = regex.compile(rf"(?P<label>{alts})[^\S\n]*:", regex.V1)
    bare = regex.compile(rf"(?P<label>{alts})", regex.V1)
    shown = {role: (list(labels) or [role])[0] for role, labels in zip(_ROLES, key)}
    abstain = frozenset(fold_name(a) for a in key[4])
    return with_colon, bare, role_of, shown, abstain


@lru_cache(maxsize=65536)
def _fold_char(ch: str) -> str:
    return fold(ch)


def _fold_map(raw: str) -> tuple[str, list[int]]:
    """Folded text, folded per character, and for each folded character the
    index of the raw character it came from (so raw spans can be cut out)."""
    if raw.isascii():  # NFKC leaves ASCII alone
        return raw, list(range(len(raw)))
    out = [_fold_char(ch) for ch in raw]
    F = "".join(out)
    if len(F) == len(raw):
        return F, list(range(len(raw)))
    src: list[int] = []
    for i, f in enumerate(out):
        src.extend([i] * len(f))
    return F, src


def _raw_span(raw: str, src: list[int], a: int, b: int) -> str:
    if a >= b:
        return ""
    return raw[src[a] : src[b - 1] + 1]


def parse_vote(text: str, labels: VoteLabels | None = None) -> ParsedVote | FormatError:
    """Parse the poster's own text (quotes already removed) as a vote post.

    Never raises; every failure is a ``FormatError`` whose reason can be pasted
    back to the player.
    """
    labels = labels or VoteLabels()
    try:
        return _parse(text, labels)
    except TimeoutError:
        return FormatError("格式错误：帖子内容无法在限定时间内读取，请导演人工核对")


def _parse(text: str, labels: VoteLabels) -> ParsedVote | FormatError:
    with_colon, bare, role_of, shown, abstain_set = _patterns(labels.key())
    F, src = _fold_map(text)
    found: dict[str, list] = {r: [] for r in _ROLES}
    ms = list(with_colon.finditer(F, timeout=TIMEOUT))
    for m in ms:
        found[role_of[m.group("label")]].append(m)

    if not ms:
        b = bare.search(F, timeout=TIMEOUT)
        if b is not None:
            lab = shown[role_of[b.group("label")]]
            return FormatError(f"格式错误：「{lab}」后面缺少冒号（格式：{lab}：…）")
        return FormatError(f"不是投票帖：没有「{shown['vote_target']}」", not_a_vote=True)

    for role in _ROLES:
        if len(found[role]) > 1:
            return FormatError(f"格式错误：「{shown[role]}」出现了{len(found[role])}次，无法判断投给谁")
    has_vote = bool(found["vote_target"] or found["vote_reason"])
    has_change = bool(found["change_target"] or found["change_reason"])
    if has_vote and has_change:
        return FormatError("格式错误：同一帖里既有投票格式又有改票格式，无法判断；请只用一种格式重新发帖")
    kind = "vote" if has_vote else "change"
    t_role, r_role = ("vote_target", "vote_reason") if has_vote else ("change_target", "change_reason")
    if not found[t_role]:
        return FormatError(f"格式错误：缺少「{shown[t_role]}」")
    if not found[r_role]:
        return FormatError(f"格式错误：缺少「{shown[r_role]}」")

    tm, rm = found[t_role][0], found[r_role][0]
    starts = sorted(m.start() for m in ms)

    def next_label(pos: int) -> int:
        for s in starts:
            if s >= pos:
                return s
        return len(F)

    # Target: to the end of the line or the next label.
    t_end = next_label(tm.end())
    le = _LINE_END.search(F, tm.end(), t_end, timeout=TIMEOUT)
    if le is not None:
        t_end = le.start()
    raw_target = _raw_span(text, src, tm.end(), t_end).strip()
    target = fold_name(raw_target)
    # Reason: to the next label or the end of the text.
    r_end = next_label(rm.end())
    reason = _raw_span(text, src, rm.end(), r_end).strip()
    line = F.count("\n", 0, tm.start()) + 1

    if not target:
        return FormatError(f"格式错误：「{shown[t_role]}」是空的（对象要和标签写在同一行）")
    if not fold_name(reason):
        return FormatError(f"格式错误：「{shown[r_role]}」是空的")
    abstain = target in abstain_set
    return ParsedVote(kind=kind, target=target, raw_target=raw_target, reason=reason, abstain=abstain, line=line)
