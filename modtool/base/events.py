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


# -- stable ids -------------------------------------------------------------------
#
# Every event modtool writes carries ``id``: an integer, unique in its ledger,
# never reused, assigned by ``ledger.append`` (consecutive within one append,
# so an import's posts follow its marker's id). Whatever refers to an event
# (a revert, a post's next version, an announced result) names that id, so a
# comment or a blank line a person adds anywhere changes nothing that counts.
# An event a person wrote by hand without an id is referred to by its
# fingerprint (``h`` and 16 hex digits of its content); ledgers written before
# ids referred by line (``revert`` with ``line:``), which still works and
# ``modtool upgrade`` rewrites.


def event_id(data: dict) -> int | None:
    """The event's id, or None (an event written by hand, or before ids)."""
    v = data.get("id")
    return v if type(v) is int and v >= 1 else None


def fingerprint(etype: str, data: dict) -> str:
    """The reference to an event without an id: a digest of its content."""
    import hashlib
    import json

    text = json.dumps({"type": etype, **data}, ensure_ascii=False, sort_keys=True, separators=(",", ":"), default=str)
    return "h" + hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def ref_of(ev: Event) -> int | str:
    """What a revert (or anything else) writes to name ``ev``: its id, else its fingerprint."""
    i = event_id(ev.data)
    return i if i is not None else fingerprint(ev.type, ev.data)


def describe_ref(ref) -> str:
    """A reference as a director reads it: ``#17`` for an id."""
    return f"#{ref}" if type(ref) is int else str(ref)


def highest_id(datas) -> int:
    """The highest id among these event fields, ids that reverts name included (0 if none)."""
    top = 0
    for d in datas:
        v = d.get("id")
        if type(v) is int and v > top:
            top = v
        v = d.get("of")
        if type(v) is int and v > top:
            top = v
    return top
