"""甄嬛's results the game has advanced past: what the town has read (G-R2; modtool.core.announced).

Each night's and each day's deaths (ZH-R9, R10, R11: the dawn post and the
execution post tell them) and the winner (ZH-R12). Keys name the phase, never
a line.
"""

from __future__ import annotations

from modtool.sdk import GameDir
from modtool.packs.zhenhuan.game import replay

_WINNERS = {"good": "善良阵营", "evil": "邪恶阵营"}


def _index(phase: str, number: int) -> int:
    """Night 1, day 1, night 2, day 2, … (ZH-R13) as one count."""
    return 2 * number - (1 if phase == "night" else 0)


def results(gd: GameDir) -> dict[str, tuple[str, object]]:
    board, _ = replay(gd)
    now = 10 ** 9 if board.phase == "over" else _index(board.phase, board.number)
    out: dict[str, tuple[str, object]] = {}
    deaths: dict[tuple[str, int], list[str]] = {}
    for d in board.deaths:
        seat = board.seat(d.seat)
        deaths.setdefault((d.phase, d.number), []).append(f"{d.seat}号（{seat.player}）")
    last = max([_index(p, n) for p, n in deaths] + [_index(board.phase, board.number)], default=0)
    for i in range(1, min(now, last + 1)):
        phase, number = ("night", (i + 1) // 2) if i % 2 else ("day", i // 2)
        label = f"第 {number} {'夜' if phase == 'night' else '天'}死亡"
        out[f"{phase}{number}.deaths"] = (label, deaths.get((phase, number), []))
    if board.winner is not None:
        out["winner"] = ("胜者", _WINNERS.get(board.winner, board.winner))
    return out
