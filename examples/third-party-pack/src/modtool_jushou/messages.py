"""The pack's own words, from a gettext catalogue (stdlib ``gettext``).

The game is Chinese and its Chinese text is the message id, as in modtool's
core: ``_`` looks it up in ``locale/<lang>/LC_MESSAGES/modtool-jushou.mo``
beside this file and falls back to the id when none is installed (none is
shipped: the game is played in Chinese). No message is chosen by
``if language ==``.
"""

from __future__ import annotations

import gettext
from pathlib import Path

DOMAIN = "modtool-jushou"
_catalogue = gettext.translation(DOMAIN, Path(__file__).resolve().parent / "locale", fallback=True)


def _(message: str) -> str:
    return _catalogue.gettext(message)
