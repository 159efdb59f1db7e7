"""Ledger events as read back: the type, its fields, and the line it stands on."""

from __future__ import annotations

from types import MappingProxyType
from typing import NamedTuple

_NO_DATA = MappingProxyType({})


class Event(NamedTuple):
    """One event. A named tuple, not a dataclass: a large ledger makes one per
    event on every read, and a tuple is built several times faster."""

    type: str
    data: dict = _NO_DATA  # read-only empty mapping when not given
    line: int | None = None  # 1-based line of the event in ledger.yaml

    def get(self, key, default=None):
        return self.data.get(key, default)
