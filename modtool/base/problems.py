"""Errors are values: every problem found while reading input carries its place.

A Problem is collected and reported; parsing goes on after one. Only the CLI
turns problems into output and an exit code (errors are values).

A problem carries a message id and its arguments, never translated text: it
is translated only when shown, in the language in force then, so the core
holds no "current language" when it finds one. The one way to make one::

    Problem(source, "帖子的 {key} 应是数字，实为 {value}", key=key, value=v, floor=floor)

The message id is the core's Chinese text (the gettext id of
``modtool/locale/<lang>/LC_MESSAGES/modtool.po``), with ``str.format`` fields
filled from the keyword arguments; a message without arguments is shown as it
is. An argument that is itself a translatable word is a ``Message`` (shown in
the same language). An argument named like a place field (``line``, ``floor``,
``source``, ``refused``, ``notice``, ``language``) or ``args`` goes in
``args={...}``. A ready ``Message`` may stand for the message id.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from collections.abc import Mapping

from modtool.base.i18n import Args, Message, speaking, t

__all__ = ["Message", "Problem", "RecordedRefusal", "UserError", "damage", "refusals"]


@dataclass(frozen=True, init=False)
class Problem:
    """One thing wrong with the input, with where it came from.

    ``source`` is a file path (or a short label such as ``命令行``, which may
    be a ``Message``); ``line`` is 1-based; ``floor`` is a forum floor number.
    Either may be None. ``msgid`` and ``args`` are the message; ``message``
    is it rendered now.

    ``refused``: a player's submission the rules refuse (a late save, a
    self-protect). It stays in the ledger as a fact and is shown as 不受理;
    it is not damage: ``check`` passes and writing commands go on. Every
    other problem of a ledger is damage.

    A ``notice`` is shown but lets the command go on.

    ``language``: shown in this language whatever is in force when shown
    (the library API hands a game's problems out in the game's language);
    None, the usual: the language in force when shown. It takes no part in
    equality.
    """

    source: str | Message
    msgid: str
    args: Args
    line: int | None = None
    floor: int | None = None
    refused: bool = False
    # Worth telling, no reason to refuse (a title line above a pasted thread,
    # posts timed outside the day they are imported into).
    notice: bool = False
    language: str | None = field(default=None, compare=False)

    def __init__(self, source: str | Message, msgid: str | Message, line: int | None = None,
                 floor: int | None = None, *, refused: bool = False, notice: bool = False,
                 language: str | None = None, args: Mapping | None = None, **kwargs):
        # A ready message keeps its own kind (a pack's, rendered from the pack's catalogue).
        msg = msgid if isinstance(msgid, Message) and not args and not kwargs else Message(msgid, args, **kwargs)
        fields = dict(source=source, msgid=msg.msgid, args=msg.args, line=line, floor=floor,
                      refused=refused, notice=notice, language=language, _msg=msg)
        for name, value in fields.items():
            object.__setattr__(self, name, value)

    @property
    def msg(self) -> Message:
        """The message as a value (to quote it inside another message)."""
        return self._msg

    @property
    def message(self) -> str:
        """The message in the language in force now (or the problem's own)."""
        return self.msg.render(self.language)

    def in_language(self, language: str | None) -> "Problem":
        """This problem, always shown in ``language``."""
        import copy

        moved = copy.copy(self)
        object.__setattr__(moved, "language", language)
        return moved

    def to_json(self) -> dict:
        """What ``--json`` prints of a problem: its place, ``message`` rendered now, ``msgid`` and ``args``."""
        return {"source": str(self.source), "line": self.line, "floor": self.floor, "message": self.message,
                **self.msg.to_json()}

    def where(self) -> str:
        if self.language is not None:
            with speaking(self.language):
                return self._where()
        return self._where()

    def _where(self) -> str:
        place = str(self.source)
        if self.line is not None:
            place += f":{self.line}"
        if self.floor is not None:
            place += Message("（{floor}楼）", floor=self.floor).render()
        return place

    def __str__(self) -> str:
        where = self.where()
        return f"{where}: {self.message}" if where else self.message


class UserError(Exception):
    """A failure the director can fix; the CLI prints its problems and exits 1.

    ``UserError("没有可以撤销的事件")`` or ``UserError("第 {n} 夜还没有开始", n=n)``:
    one problem without a place, its message made as a Problem's."""

    def __init__(self, problems: list[Problem] | Problem | str | Message, /, **args):
        if isinstance(problems, (str, Message)):
            problems = [Problem("", problems, **args)]
        elif isinstance(problems, Problem):
            problems = [problems]
        self.problems = list(problems)
        super().__init__(self.problems)

    def __str__(self) -> str:  # rendered when shown, not when raised
        return "\n".join(str(p) for p in self.problems)


class RecordedRefusal(UserError):
    """A player's submission the rules refuse, recorded all the same (G-R1):
    written, so the command exits 0, and its problems are told as 不受理,
    not as errors (exit 1 says nothing was written)."""


def told(problem: Problem, recorded: bool = False) -> str:
    """A problem as a command tells it: 「错误：…」, or for a submission recorded all
    the same and refused (``RecordedRefusal``) 「不受理：…」, said once: a refusal
    whose own words already say so is not prefixed again."""
    if not recorded:
        return t("错误：{problem}").format(problem=problem)
    text = str(problem)
    said = t("不受理：{problem}")
    mark = said.split("{problem}")[0].strip()
    return text if mark and mark in text else said.format(problem=text)


def damage(problems: list[Problem]) -> list[Problem]:
    """The problems that are ledger damage (not refused submissions)."""
    return [p for p in problems if not p.refused]


def refusals(problems: list[Problem]) -> list[Problem]:
    """Refused submissions, each once, in ledger order (a replay may find one twice)."""
    seen, out = set(), []
    for p in problems:
        if p.refused and (p.line, p.msg) not in seen:
            seen.add((p.line, p.msg))
            out.append(p)
    return out
