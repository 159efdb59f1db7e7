"""A query's answer as a value: what a program reads (``to_json``) and what a
person reads (``text``), computed once by the game's pack from one replay.

Immutable: the data is kept as its JSON text, so no caller can change what
another caller is later given; ``to_json`` returns a fresh copy each time.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, fields
from types import MappingProxyType
from typing import Any, Mapping


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


@dataclass(frozen=True)
class Query:
    """What a query asks of a game: the options every game's tally may read, and
    any other a command or a program adds (``options``). A pack reads what it
    uses and ignores the rest, so an option added for one game (``--quorum``)
    breaks no other: a query is one value, not a list of keywords each pack
    must accept."""

    day: int | None = None
    floor: int | None = None  # a floor or post number, included
    at: str | None = None  # a time in the game's zone, as typed
    close: str | None = None  # the day's close, for a day the ledger has none for
    options: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self):
        object.__setattr__(self, "options", MappingProxyType(dict(self.options)))

    @classmethod
    def of(cls, given: Mapping[str, Any]) -> "Query":
        """A query from a command's options by name: the shared ones to their
        fields, every other into ``options``."""
        shared = {f.name for f in fields(cls)} - {"options"}
        return cls(**{k: v for k, v in given.items() if k in shared},
                   options={k: v for k, v in given.items() if k not in shared})

    def get(self, name: str, default=None):
        """An option by name, whether one of the shared ones or another."""
        if name in {f.name for f in fields(self)} and name != "options":
            return getattr(self, name)
        return self.options.get(name, default)
