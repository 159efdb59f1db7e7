"""Text folding shared by every comparison of player-typed text.

M42-R5: punctuation and names are compared after width folding (NFKC), with
zero-width and other invisible characters removed. The raw text is always
kept for display; only comparisons use the folded form.
"""

from __future__ import annotations

import unicodedata

import regex

# Zero-width and invisible format characters that players paste by accident
# (or on purpose) into names and labels.
_INVISIBLE = regex.compile(r"[\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff\u00ad\u180e\u034f]", regex.V1)


def fold(text: str) -> str:
    """NFKC width folding with invisible characters removed."""
    return unicodedata.normalize("NFKC", _INVISIBLE.sub("", text))


def fold_name(text: str) -> str:
    """A name as compared: folded and trimmed of surrounding white space."""
    return fold(text).strip()
