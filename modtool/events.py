"""Ledger events as read back: the type, its fields, and the line it stands on."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Event:
    type: str
    data: dict = field(default_factory=dict)
    line: int | None = None  # 1-based line of the event in ledger.yaml

    def get(self, key, default=None):
        return self.data.get(key, default)
