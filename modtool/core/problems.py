"""Errors are values: every problem found while reading input carries its place.

A Problem is collected and reported; parsing goes on after one. Only the CLI
turns problems into output and an exit code (errors are values).
"""

from __future__ import annotations

from dataclasses import dataclass
from modtool.core.i18n import t


@dataclass(frozen=True)
class Problem:
    """One thing wrong with the input, in Chinese, with where it came from.

    ``source`` is a file path (or a short label such as ``命令行``); ``line`` is
    1-based; ``floor`` is a forum floor number. Either may be None.

    ``refused``: a player's submission the rules refuse (a late save, a
    self-protect). It stays in the ledger as a fact and is shown as 不受理;
    it is not damage: ``check`` passes and writing commands go on. Every
    other problem of a ledger is damage.

    A ``notice`` is shown but lets the command go on.
    """

    source: str
    message: str
    line: int | None = None
    floor: int | None = None
    refused: bool = False
    # Worth telling, no reason to refuse (a title line above a pasted thread,
    # posts timed outside the day they are imported into).
    notice: bool = False

    def where(self) -> str:
        place = self.source
        if self.line is not None:
            place += f":{self.line}"
        if self.floor is not None:
            place += t("（{floor}楼）").format(floor=self.floor)
        return place

    def __str__(self) -> str:
        where = self.where()
        return f"{where}: {self.message}" if where else self.message


class UserError(Exception):
    """A failure the director can fix; the CLI prints its problems and exits 1."""

    def __init__(self, problems: list[Problem] | Problem | str):
        if isinstance(problems, str):
            problems = [Problem("", problems)]
        elif isinstance(problems, Problem):
            problems = [problems]
        self.problems = list(problems)
        super().__init__("\n".join(str(p) for p in self.problems))


class RecordedRefusal(UserError):
    """A player's submission the rules refuse, recorded all the same (G-R1):
    written, so the command exits 0, and its problems are told as 不受理,
    not as errors (exit 1 says nothing was written)."""


def damage(problems: list[Problem]) -> list[Problem]:
    """The problems that are ledger damage (not refused submissions)."""
    return [p for p in problems if not p.refused]


def refusals(problems: list[Problem]) -> list[Problem]:
    """Refused submissions, each once, in ledger order (a replay may find one twice)."""
    seen, out = set(), []
    for p in problems:
        if p.refused and (p.line, p.message) not in seen:
            seen.add((p.line, p.message))
            out.append(p)
    return out
