"""A query's answer as a value: what a program reads (``to_json``) and what a
person reads (``text``), computed once by the game's pack from one replay.

Immutable: the data is kept as its JSON text, so no caller can change what
another caller is later given; ``to_json`` returns a fresh copy each time.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field


@dataclass(frozen=True)
class View:
    """One answer: ``kind`` (``tally``, ``status``), the game's id, the text as the
    command prints it, and the data as ``--json`` prints it."""

    kind: str
    game: str
    text: str
    _json: str = field(repr=False)

    @classmethod
    def of(cls, kind: str, game: str, data, text: str) -> "View":
        return cls(kind, game, text, json.dumps(data, ensure_ascii=False))

    def to_json(self):
        """The answer's data (dicts, lists, strings, numbers), a copy of its own."""
        return json.loads(self._json)

    def __getitem__(self, key):
        return self.to_json()[key]
