"""Slots: who plays each one from which post on (MS-R4), and how a vote names a slot (MS-R2).

A slot is a roster entry (its key is the first player's name). A replacement
(``replace`` fact) hands the slot, with its current vote, to a new player from
a post on; a count names the player of the moment. A vote names a slot by any
of its players' names (past ones too), a declared alias (``alias`` fact), or
a unique case-insensitive prefix of one of those; anything else is
unresolved, with a "did you mean" hint, and is never counted by guess.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field

MIN_PREFIX = 3  # a shorter prefix ("I", "Pe") is too easy to write by accident


@dataclass
class Slot:
    key: str
    players: list[tuple[int, str, str]] = field(default_factory=list)  # (from post, name, account)

    def at(self, post: int) -> tuple[str, str]:
        """(name, account) of the player of this slot at ``post``."""
        current = self.players[0]
        for entry in self.players:
            if entry[0] <= post:
                current = entry
        return current[1], current[2]

    def names(self) -> list[str]:
        return [name for _, name, _ in self.players]


@dataclass(frozen=True)
class Resolved:
    key: str | None
    hint: str | None = None  # a "did you mean" label when key is None


class Slots:
    def __init__(self, roster, replacements: list[dict], aliases: list[dict]):
        self.slots: dict[str, Slot] = {c.name: Slot(c.name, [(-1, c.name, c.account)]) for c in roster}
        for rep in sorted(replacements, key=lambda r: r["post"]):
            slot = self.slots[rep["slot"]]
            slot.players.append((rep["post"], rep["player"], rep.get("account", rep["player"])))
        self.labels: dict[str, str] = {}  # label -> slot key
        for slot in self.slots.values():
            for name in slot.names():
                self.labels.setdefault(name, slot.key)
        for c in roster:  # aliases given in the roster file, as the host's alias facts
            for label in getattr(c, "aliases", ()) or ():
                self.labels.setdefault(label, c.name)
        for alias in aliases:
            self.labels[alias["alias"]] = alias["slot"]

    def keys(self) -> list[str]:
        return list(self.slots)

    def name(self, key: str, post: int) -> str:
        return self.slots[key].at(post)[0]

    def of_author(self, account: str, post: int) -> str | None:
        """The slot ``account`` plays at ``post`` (a replaced player's later posts play none)."""
        folded = account.casefold()
        for slot in self.slots.values():
            if slot.at(post)[1].casefold() == folded:
                return slot.key
        return None

    def find(self, label: str) -> str | None:
        """The slot a command names (exact or case-insensitive), without prefixes."""
        if label in self.labels:
            return self.labels[label]
        hits = {k for lab, k in self.labels.items() if lab.casefold() == label.casefold()}
        return hits.pop() if len(hits) == 1 else None

    def names_someone(self, text: str) -> bool:
        """Does ``text`` name a slot (MS-R2; MS-R1a reads an action word right after it as the next action)."""
        return self.resolve(text).key is not None

    def resolve(self, text: str) -> Resolved:
        """The slot a vote names: exact name, alias, case-insensitive name, unique prefix."""
        text = " ".join(text.split())
        key = self.find(text)
        if key is not None:
            return Resolved(key)
        folded = text.casefold()
        if len(folded) >= MIN_PREFIX:
            hits = {k for lab, k in self.labels.items() if lab.casefold().startswith(folded)}
            if len(hits) == 1:
                return Resolved(hits.pop())
        close = difflib.get_close_matches(folded, [lab.casefold() for lab in self.labels], n=1, cutoff=0.6)
        near = next((lab for lab in self.labels if close and lab.casefold() == close[0]), None)
        # The hint names the player (what `modtool alias ALIAS SLOT` takes as SLOT), never an
        # alias label: the host already has that alias, and the one to declare is the text typed.
        hint = None if near is None else near if near in self.slots[self.labels[near]].names() else self.current(self.labels[near])
        return Resolved(None, hint)

    def current(self, key: str) -> str:
        """The slot's latest player."""
        return self.slots[key].players[-1][1]
