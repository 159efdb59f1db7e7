"""The characters of a game: name, forum account, aliases, role.

A vote names a character by its name or a declared alias (M42-R5); a post is
mapped to a character by its forum account. Both lookups compare folded text
(``fold_name``; ``script`` folds traditional to simplified, M42-R5a).
"""

from __future__ import annotations

from dataclasses import dataclass

from modtool.base.text import fold_name


@dataclass(frozen=True)
class Character:
    name: str
    account: str
    aliases: tuple[str, ...] = ()
    role: str | None = None
    seat: int | None = None


class Roster:
    def __init__(self, characters: list[Character], script: bool = True):
        self.characters = list(characters)
        self.script = script  # M42-R5a, option fold_script
        self._by_account = {self.fold(c.account): c for c in self.characters}
        self._account_memo: dict[str, Character | None] = {}
        self._by_name: dict[str, list[Character]] = {}
        for c in self.characters:
            for n in {self.fold(c.name), *(self.fold(a) for a in c.aliases)}:
                self._by_name.setdefault(n, []).append(c)

    def fold(self, name: str) -> str:
        """``name`` as this roster compares names and accounts."""
        return fold_name(name, self.script)

    def __iter__(self):
        return iter(self.characters)

    def __len__(self):
        return len(self.characters)

    def names(self) -> list[str]:
        return [c.name for c in self.characters]

    def get(self, name: str) -> Character | None:
        for c in self.characters:
            if c.name == name:
                return c
        return None

    def by_account(self, account: str) -> Character | None:
        hit = self._account_memo.get(account, self)
        if hit is self:  # a thread has few accounts and many posts: fold each once
            hit = self._account_memo[account] = self._by_account.get(self.fold(account))
        return hit

    def lookup(self, name: str) -> list[Character]:
        """Characters whose name or alias equals ``name`` after folding."""
        return list(self._by_name.get(self.fold(name), ()))

    def all_labels(self) -> list[str]:
        """Every name and alias, for "did you mean" hints."""
        out = []
        for c in self.characters:
            out.append(c.name)
            out.extend(c.aliases)
        return out
