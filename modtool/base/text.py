"""Text folding shared by every comparison of player-typed text.

M42-R5: punctuation and names are compared after width folding (NFKC), with
zero-width and other invisible characters removed. M42-R5a: names are then
folded from traditional to simplified characters (紅孩兒 = 红孩儿), by OpenCC's
``t2s`` conversion (option ``fold_script``). The raw text is always kept for
display; only comparisons use the folded form.
"""

from __future__ import annotations

import difflib
import unicodedata
from functools import lru_cache

import regex

# Zero-width and invisible format characters that players paste by accident
# (or on purpose) into names and labels.
_INVISIBLE = regex.compile(r"[\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff\u00ad\u180e\u034f]", regex.V1)


def fold(text: str) -> str:
    """NFKC width folding with invisible characters removed."""
    return unicodedata.normalize("NFKC", _INVISIBLE.sub("", text))


def fold_name(text: str, script: bool = True) -> str:
    """A name as compared: folded, trimmed of surrounding white space and, with
    ``script`` (M42-R5a, option ``fold_script``), in simplified characters."""
    name = fold(text).strip()
    return simplified(name) if script and not name.isascii() else name


@lru_cache(maxsize=65536)
def simplified(text: str) -> str:
    """``text`` with traditional characters written as simplified ones (M42-R5a).

    Only the script changes: a character with no traditional form stays as it
    is, so a typo (金仁凤 for 金人凤) stays a different name. A lone surrogate
    (a cut emoji in a saved page) stays as it is; the text around it is
    converted (OpenCC takes UTF-8 only)."""
    try:
        return _t2s().convert(text)
    except UnicodeEncodeError:
        return "".join(p if _SURROGATE.fullmatch(p) else _t2s().convert(p) for p in _SURROGATE.split(text))


_SURROGATE = regex.compile("([\ud800-\udfff])")


@lru_cache(maxsize=1)
def _t2s():
    """OpenCC's converter, loaded by the first command that folds a name.

    Loaded with Ctrl-C held back: OpenCC's module turns an interrupt during
    its initialisation into an ImportError (its binding reports any failure
    so), which would end the command as an internal error; held back, the
    Ctrl-C arrives just after, as the usual interrupt (exit 130)."""
    import signal

    hold = hasattr(signal, "pthread_sigmask")
    old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT}) if hold else None
    try:
        import opencc

        return opencc.OpenCC("t2s")
    finally:
        if hold:
            signal.pthread_sigmask(signal.SIG_SETMASK, old)


# --- "did you mean" hints ------------------------------------------------------

_HOMOGLYPHS = str.maketrans(
    {
        # Cyrillic
        "а": "a", "в": "b", "е": "e", "к": "k", "м": "m", "н": "h", "о": "o", "р": "p",
        "с": "c", "т": "t", "у": "y", "х": "x", "і": "i", "ј": "j", "ѕ": "s", "ԁ": "d",
        "А": "A", "В": "B", "Е": "E", "К": "K", "М": "M", "Н": "H", "О": "O", "Р": "P",
        "С": "C", "Т": "T", "Х": "X", "І": "I", "Ј": "J", "Ѕ": "S", "У": "Y",
        # Greek
        "α": "a", "ο": "o", "ρ": "p", "ν": "v", "ι": "i", "κ": "k", "τ": "t", "υ": "u",
        "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "I", "Κ": "K", "Μ": "M",
        "Ν": "N", "Ο": "O", "Ρ": "P", "Τ": "T", "Υ": "Y", "Χ": "X",
    }
)


def closest(target: str, candidates: list[str]) -> str | None:
    """The candidate a mistyped ``target`` most likely meant (a "did you mean" hint), or None.

    Only ever a hint: it never decides a vote (M42-R5) nor names a character
    for a command."""
    if not target or not candidates:
        return None
    by_fold: dict[str, str] = {}
    for c in candidates:
        by_fold.setdefault(fold_name(c), c)
    tries = [target, target.translate(_HOMOGLYPHS)]
    tries.append(tries[1].casefold())
    lowered = {k.casefold().translate(_HOMOGLYPHS): v for k, v in by_fold.items()}
    for t in tries[1:]:
        if t in by_fold:
            return by_fold[t]
        if t in lowered:
            return lowered[t]
    for t in tries:
        m = difflib.get_close_matches(t, list(by_fold), n=1, cutoff=0.5)
        if m:
            return by_fold[m[0]]
    # A name inside the target ("饺子。", "投饺子吧"): longest first.
    for k in sorted(by_fold, key=len, reverse=True):
        if len(k) >= 2 and k in target:
            return by_fold[k]
    return None
