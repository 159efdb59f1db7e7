"""Ledger events as read back: the type, its fields, and the line it stands on."""

from __future__ import annotations


class Event:
    """One event: ``type``, ``data`` (its other fields), ``line`` (1-based, in ledger.yaml).

    A plain slotted class rather than a tuple so that ``data`` can wait: events
    read from the cache carry their type and line at once and decode their
    fields only when first asked (``Event.deferred_many``). A command that only
    adds a card to a 100,000-post ledger never decodes the posts."""

    __slots__ = ("type", "line", "_data", "_src")

    def __init__(self, type: str, data: dict | None = None, line: int | None = None):
        self.type = type
        self._data = {} if data is None else data
        self.line = line
        self._src = None

    @classmethod
    def deferred_many(cls, types: list, lines: list, src) -> list["Event"]:
        """Events whose fields are ``src.datas()[i]``, decoded on first use of
        ``data`` (one loop, no call per event: a large ledger makes a hundred
        thousand of them on every read)."""
        new = object.__new__
        out = []
        append = out.append
        i = 0
        for t, line in zip(types, lines):
            ev = new(cls)
            ev.type = t
            ev.line = line
            ev._data = src
            ev._src = i
            append(ev)
            i += 1
        return out

    @property
    def data(self) -> dict:
        if self._src is not None:  # deferred: _data is the source, _src the index
            self._data = self._data.datas()[self._src]
            self._src = None
        return self._data

    def get(self, key, default=None):
        return self.data.get(key, default)

    def __iter__(self):  # t, d, line = ev
        return iter((self.type, self.data, self.line))

    def __eq__(self, other):
        if not isinstance(other, Event):
            return NotImplemented
        return self.type == other.type and self.line == other.line and self.data == other.data

    __hash__ = None  # type: ignore[assignment]  # holds a dict

    def __repr__(self) -> str:
        return f"Event(type={self.type!r}, data={self.data!r}, line={self.line!r})"

    def __reduce__(self):
        return (Event, (self.type, self.data, self.line))
