"""Text folding shared by every comparison of player-typed text.

M42-R5: punctuation and names are compared after width folding (NFKC), with
zero-width and other invisible characters removed. M42-R5a: names are then
folded from traditional to simplified characters (紅孩兒 = 红孩儿), by OpenCC's
``t2s`` conversion (option ``fold_script``). The raw text is always kept for
display; only comparisons use the folded form.
"""

from __future__ import annotations

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
    is, so a typo (金仁凤 for 金人凤) stays a different name."""
    return _t2s().convert(text)


@lru_cache(maxsize=1)
def _t2s():
    import opencc  # a C extension with its dictionaries: loaded by the commands that fold a name

    return opencc.OpenCC("t2s")
