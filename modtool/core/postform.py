"""Strict post forms: labelled fields in a forum post (``投票对象：…``), read
the same way by every game that has players post in a fixed form.

The shared machinery of the M42 vote parser (``modtool.packs.m42.voteparse``,
M42-R5) and the 甄嬛 nominations (``modtool.packs.zhenhuan.nominations``): label
patterns compared after folding, the folded text with a map back to the raw
one, line ends, blank fields, and the ``FormatError`` a player is shown.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import regex

from modtool.base.text import fold, fold_name

TIMEOUT = 1.0  # seconds a regex may take on one post


@dataclass(frozen=True)
class FormatError:
    """Why a post is not a valid vote post, pasteable to the player."""

    reason: str
    not_a_vote: bool = False  # no vote label at all: chatter in the vote thread, not a try to vote
    extra: dict = field(default_factory=dict, compare=False)


_LINE_END = regex.compile(r"[\n\r\v\f\x85\u2028\u2029]", regex.V1)


def compile_labels(roles: tuple[str, ...], key: tuple):
    """Label patterns for a strict post format: (with_colon, bare, role_of, shown).

    ``roles`` names each field (e.g. vote_target); ``key`` holds each field's
    labels in the same order. Labels compare after folding (M42-R5); the
    longest label wins. Shared by the M42 vote parser and the 甄嬛 nominations."""
    role_of: dict[str, str] = {}
    for role, labels in zip(roles, key):
        for lab in labels:
            f = fold_name(lab, script=False)  # matched in width-folded text: each script's label is listed
            if f:
                role_of.setdefault(f, role)
    alts = "|".join(regex.escape(x) for x in sorted(role_of, key=len, reverse=True)) or r"(?!)"
    with_colon = regex.compile(rf"(?P<label>{alts})[^\S\n]*:", regex.V1)
    bare = regex.compile(rf"(?P<label>{alts})", regex.V1)
    shown = {role: (list(labels) or [role])[0] for role, labels in zip(roles, key)}
    return with_colon, bare, role_of, shown


class _FoldTable(dict):
    """``ord(ch) -> fold(ch)`` for ``str.translate``, filled on first use.

    Folding a text through this table is folding it character by character
    (what ``fold_map`` defines), in one C-level pass."""

    __slots__ = ()

    def __missing__(self, o: int) -> str:
        f = fold(chr(o))
        if len(self) < 65536:  # bounded, like the cache it replaces
            self[o] = f
        return f


_FOLD_TABLE = _FoldTable()


def fold_map(raw: str) -> tuple[str, list[int] | None]:
    """Folded text, folded per character, and for each folded character the
    index of the raw character it came from (so raw spans can be cut out).

    The index map is ``None`` when it is the identity (the folded text is as
    long as the raw text): most posts, so no list is built for them."""
    if raw.isascii():  # NFKC leaves ASCII alone
        return raw, None
    F = raw.translate(_FOLD_TABLE)
    if len(F) == len(raw):
        return F, None
    src: list[int] = []
    table = _FOLD_TABLE
    for i, ch in enumerate(raw):
        src.extend([i] * len(table[ord(ch)]))
    return F, src


def raw_span(raw: str, src: list[int] | None, a: int, b: int) -> str:
    if a >= b:
        return ""
    if src is None:
        return raw[a:b]
    return raw[src[a] : src[b - 1] + 1]


# A character that no folding removes or turns into white space: ASCII
# letters and digits, CJK unified ideographs (no decomposition, in no
# composition pair, not invisible).
_SOLID = re.compile(r"[0-9A-Za-z\u4e00-\u9fff]")


def blank(text: str) -> bool:
    """``not fold_name(text)`` for a text already stripped of white space,
    without folding it in the common cases."""
    if not text:
        return True
    if text.isascii() or _SOLID.search(text) is not None:
        # Stripped, non-empty ASCII folds to itself; a solid character survives.
        return False
    return not fold_name(text)


def line_end(F: str, a: int, b: int) -> int:
    """Index of the first line end in F[a:b], or -1 (``_LINE_END`` semantics)."""
    j = F.find("\n", a, b)
    if F[a : b if j == -1 else j].isprintable():
        # No other line-end character (all are unprintable) before the first "\n".
        return j
    le = _LINE_END.search(F, a, b, timeout=TIMEOUT)
    return -1 if le is None else le.start()
