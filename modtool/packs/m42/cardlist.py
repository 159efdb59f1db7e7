"""`modtool cards`: every character's cards, with reasons, floors, merges and withdrawals."""

from __future__ import annotations

from modtool.sdk import fmt, GameDir
from modtool.packs.m42.cards import COLORS, standing
from modtool.packs.m42.engine import State


def cards_json(gd: GameDir, st: State) -> dict:
    out = []
    for c in gd.roster:
        mine = [k for k in st.cards if k.character == c.name]
        t = standing(mine)
        out.append({
            "character": c.name,
            "cards": [{"number": k.number, "color": k.color, "reason": k.reason, "floor": k.floor, "at": fmt(k.at),
                       "source": k.source, "withdrawn": k.withdrawn} for k in mine],
            "standing": {"blue": t.blue, "yellow": t.yellow, "red": t.red},
            "merged": t.merged,
            "in_game": c.name in st.alive,
        })
    return {"characters": out}


def cards_text(gd: GameDir, st: State) -> str:
    lines = []
    for row in cards_json(gd, st)["characters"]:
        if not row["cards"]:
            continue
        s = row["standing"]
        lines.append(f"{row['character']}：现有 蓝 {s['blue']}、黄 {s['yellow']}、红 {s['red']}" + ("" if row["in_game"] else "（已出局）"))
        for k in row["cards"]:
            where = f" {k['floor']}楼" if k["floor"] is not None else ""
            gone = f"（已撤销：{k['withdrawn']}）" if k["withdrawn"] else ""
            label = f"#{k['number']}" if k["number"] is not None else "潜水"
            lines.append(f"  {label} {COLORS[k['color']]} {k['at'][:16]}{where} {k['reason']}{gone}")
        for m in row["merged"]:
            lines.append(f"  {m}")
    return "\n".join(lines) + "\n" if lines else "还没有任何判罚。\n"
