"""``modtool new`` for the 甄嬛 script (ZH-R1): deal, seat, draw the bluffs, write the ledger."""

from __future__ import annotations

import random
from pathlib import Path

from modtool.sdk import Game, header_text, ledger_path, Problem, read_roster_file, UserError, write_new
from modtool.packs.zhenhuan.setup import deal as deal_script, fixed


def create_clocktower_game(game_dir: Path, game: Game, roster_file: Path | None, players: int | None,
                           seed: int | None, require: list[str], board: str | None) -> tuple[Path, list[str]]:
    """ZH-R1: deal by the table and modifiers, seat the players, draw the bluffs; warnings for the storyteller."""
    path = ledger_path(game_dir)
    if path.exists():
        raise UserError(Problem(str(path), "账本已存在；不会覆盖"))
    entries: list[dict] = []
    if roster_file is not None:
        entries = [dict(e) if isinstance(e, dict) else {"name": e} for e in read_roster_file(roster_file)]
        names = [str(e.get("name")).strip() for e in entries]
    elif players:
        names = [f"玩家{i}" for i in range(1, players + 1)]
    else:
        raise UserError("请用 --players 给出人数，或用 --roster 给出玩家名单")
    if seed is None:
        seed = random.SystemRandom().randrange(1, 2**31)
    # ZH-R1: a roster giving roles or seats is the grimoire itself, never re-dealt.
    if any(e.get("role") not in (None, "") or e.get("seat") not in (None, "") for e in entries):
        if board is not None:
            raise UserError(Problem(str(roster_file), "名单已写定身份或座位，不能再用 --board 指定板子"))
        try:
            setup = fixed(game, [dict(e, name=n) for e, n in zip(entries, names)], seed, require=require)
        except UserError as exc:  # name the roster file as the place
            raise UserError([Problem(str(roster_file), p.msg, p.line) for p in exc.problems]) from None
    else:
        setup = deal_script(game, names, seed, require=require, board=board)
    header = {"game": game.id, **setup.to_header(), "options": {}}
    text = header_text(game, header, "# 魔典：座位按顺时针编号；身份、伪装身份由种子发出。其余只记事实，结果由重放计算。\n",
                        "例如 supeisheng_turns_jinxi_evil: true")
    Path(game_dir).mkdir(parents=True, exist_ok=True)
    write_new(path, text, [])
    return path, list(setup.warnings)
