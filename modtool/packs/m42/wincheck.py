"""Winning and losing (M42-R11, R12), from the camps' conditions in games/m42.yaml.

First the losing conditions, then a camp that has not lost wins if it meets
its win condition or is the only camp not lost. A lost camp never wins.
"""

from __future__ import annotations

from modtool.sdk import Game, Roster


def _all_out(cond: dict, roster: Roster, alive: set[str], game: Game) -> bool:
    if "roles" in cond:
        members = [c.name for c in roster if c.role in cond["roles"]]
    else:
        members = [c.name for c in roster if game.camp_of(c.role) == cond["camp"]]
    return bool(members) and not any(m in alive for m in members)


def _share(cond: dict, roster: Roster, alive: set[str], game: Game) -> bool:
    living = [c for c in roster if c.name in alive]
    if not living:
        return False
    ours = sum(1 for c in living if game.camp_of(c.role) == cond["camp"])
    return ours >= cond["fraction"] * len(living)


CONDITIONS = {"all_out": _all_out, "share_of_living_at_least": _share}


def _holds(conds: list, roster, alive, game) -> bool:
    for cond in conds or []:
        (kind, args), = cond.items()
        if CONDITIONS[kind](args, roster, alive, game):
            return True
    return False


def check_winner(game: Game, roster: Roster, alive: set[str], lost: list[str], surrendered: set[str]) -> tuple[list[str], str | None]:
    """(camps lost, in order, including earlier ones; the winner or None)."""
    camps = game.data["camps"]
    lost = list(lost)
    for camp, spec in camps.items():
        if camp in lost:
            continue
        if _holds(spec.get("lose_when"), roster, alive, game):
            lost.append(camp)
        elif camp == "wolf":  # M42-R12: all wolves, the dead too, agreed to surrender
            wolves = {c.name for c in roster if game.camp_of(c.role) == "wolf"}
            if wolves and wolves <= surrendered:
                lost.append(camp)
    standing = [c for c in camps if c not in lost]
    for camp in standing:
        if _holds(camps[camp].get("win_when"), roster, alive, game):
            return lost, camp
    if len(standing) == 1:
        return lost, standing[0]
    return lost, None
