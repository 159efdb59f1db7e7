"""Is the ledger sound? Damage versus refused submissions.

A ledger's problems are of two kinds: damage (a
line modtool cannot read or that names nothing in the game: an unparsable
time, an unknown character, an ``advance`` out of turn) and refused
submissions (a player's late save or self-protect: facts kept and shown as
不受理 with their rule id). ``check`` fails only on damage, and every writing
command refuses to write while there is any, naming the broken line, so a
typo in line 22 is fixed before three more cards pile up behind it.
"""

from __future__ import annotations

from modtool.base.i18n import Message, t
from modtool import ledger
from modtool.core.gamefile import open_game
from modtool.base.problems import Problem, UserError, damage, refusals
from modtool.core.registry import get_pack

_NOTHING_WRITTEN = "账本里有需要先修好的地方（见上；modtool check 列出全部），本命令什么也没写"


def game_problems(gd) -> list[Problem]:
    """Every problem of the game folder ``gd``: its header and events' shape, then its replay."""
    problems = list(gd.problems)
    if problems:
        return problems  # a replay of a ledger whose events are misshapen would only echo them

    return problems + get_pack(gd.game.id).replay_problems(gd)


def require_sound(gd, replayed: list[Problem] | None = None, *, but_line: int | None = None) -> None:
    """Refuse (UserError, nothing written) while the ledger has damage.

    ``replayed``: the problems of a replay the caller already made (else one
    is made here). ``but_line``: damage on that line does not count (``undo``
    takes it back)."""
    if gd.problems or replayed is None:
        problems = game_problems(gd)
    else:
        problems = list(replayed)
    bad = [p for p in damage(problems) if but_line is None or p.line != but_line]
    if bad:
        raise UserError([*bad, Problem("", _NOTHING_WRITTEN)])


def require_sound_after(gd, new: list[dict]) -> None:
    """Refuse (UserError, nothing written) if the ledger would be damaged
    with ``new`` appended: damage already there (a hand-edited line), or
    damage the change itself brings (a typo a command's own checks missed).
    Damage on the events the change takes back (an undo of the broken line,
    of a whole import) does not count. Every write goes through it
    (``modtool.core.announced.record``)."""
    from modtool.core.simulation import simulated

    sim = simulated(gd, new)
    problems = list(sim.problems)  # the ledger's, and the new events' shape
    if problems and any(e.get("type") == "revert" for e in new):  # only a revert takes events out
        # The damage the ledger had on the events taken out goes with them; damage the
        # taking out brings (a later edit left naming an undone post) is the change's own.
        dropped = {e.line for e in gd.events} - {e.line for e in sim.events}
        had = set(gd.problems)
        problems = [p for p in problems if p.line not in dropped or p not in had]
    if not damage(problems):
        problems += get_pack(gd.game.id).replay_problems(sim)
    bad = damage(problems)
    if bad:
        # A problem of the new events names no ledger line: none was written.
        mine = Message("这次要记下的事件")
        new_only = all(p.line is not None and p.line > gd.raw_last_line for p in bad)
        bad = [Problem(mine, p.msg) if p.line is not None and p.line > gd.raw_last_line else p for p in bad]
        said = "这次的记录会让账本无法重放（见上），什么也没写" if new_only else _NOTHING_WRITTEN
        raise UserError([*bad, Problem(gd.source if new_only else "", said)])


def require_sound_restored(gd, restored: list[dict]) -> None:
    """Refuse (UserError, nothing written) if the ledger would be damaged
    with the vanished events ``restored`` put back: replayed exactly as the
    ledger would be, on a copy in a temporary folder."""
    import dataclasses
    import shutil
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory(prefix="modtool-restore-") as tmp:
        copy = Path(tmp) / gd.ledger_path.name
        shutil.copyfile(gd.ledger_path, copy)
        ledger.append(copy, restored, _acknowledge=False, _assign_ids=False)
        sim = open_game(Path(tmp))
        bad = [dataclasses.replace(p, source=gd.source) if p.source == str(copy) else p
               for p in damage(game_problems(sim))]
    if bad:
        raise UserError([*bad, Problem("", _NOTHING_WRITTEN)])


def refusals_text(problems: list[Problem]) -> str:
    """The refused submissions among ``problems`` (facts kept in the ledger, not damage), each once,
    in one section of their own; "" when there are none."""
    refused = refusals(problems)
    if not refused:
        return ""
    return "".join([t("不受理的提交（已记入账本，不起作用；不是账本损坏）：{refused} 条\n").format(refused=len(refused)),
                    *(f"  {p}\n" for p in refused)])
