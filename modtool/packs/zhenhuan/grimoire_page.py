"""The storyteller's grimoire as one standalone HTML page (``modtool grimoire``).

The seats sit in a circle in seat order (seat 1 at the top, clockwise), each
token with the player, the character, the alignment, alive or dead, the ghost
vote, and the reminders; beside it tonight's wake order with who is still to
wake, the bluffs and the grimoire's other reminders. ``public=True`` builds
the page from public facts only (names, alive or dead, ghost votes, today's
nominations): nothing else reaches its context, so nothing else can leak.

The page is built from the same views as ``status`` and ``night``; no
network, CSS and SVG inline. The layout is computed here: tokens on a circle
whose size keeps neighbours apart at any seat count (5 to 20 and more).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from modtool.sdk import render_page
from modtool.packs.zhenhuan.grimoire_view import night_json, status_json
from modtool.packs.zhenhuan.posts import nominations
from modtool.packs.zhenhuan.view_labels import phase_label

CIRCLE = 700  # the circle's box, in CSS pixels: with the header, the page fits a 1280 × 800 screen
TOKEN_MAX = 132


@dataclass(frozen=True)
class Place:
    left: float
    top: float
    size: float


def places(n: int) -> list[Place]:
    """Where each of ``n`` tokens sits: seat 1 at the top, clockwise, none touching.

    Neighbours' centres are ``2 R sin(pi / n)`` apart; a token is at most 85 %
    of that, so a gap stays between every two."""
    size = min(TOKEN_MAX, 0.85 * 2 * (CIRCLE / 2 - TOKEN_MAX / 2) * math.sin(math.pi / max(n, 2)))
    radius = CIRCLE / 2 - size / 2 - 4
    out = []
    for i in range(n):
        angle = -math.pi / 2 + 2 * math.pi * i / n
        x = CIRCLE / 2 + radius * math.cos(angle) - size / 2
        y = CIRCLE / 2 + radius * math.sin(angle) - size / 2
        out.append(Place(round(x, 1), round(y, 1), round(size, 1)))
    return out


def context(gd, board, *, public: bool) -> dict:
    status = status_json(gd, board)  # during a day: the day so far, as the town saw it (modtool.packs.zhenhuan.today)
    seats = []
    for seat, place in zip(status["seats"], places(len(status["seats"]))):
        token = {"seat": seat["seat"], "player": seat["player"], "alive": seat["alive"],
                 "ghost_vote": seat["ghost_vote"], "place": place}
        if not public:
            token.update(character=seat["character_name"], team=seat["team"], team_name=seat["team_name"],
                         original=seat["original_name"], reminders=seat["reminders"])
        seats.append(token)
    alive = sum(1 for s in seats if s["alive"])
    page = {"public": public, "game_name": gd.game.name, "phase_label": phase_label(board), "alive": alive,
            "total": len(seats), "seats": seats, "circle": CIRCLE, "winner": status["winner_name"]}
    if public:
        page["nominations"] = _today(gd, board)
        return page
    night = night_json(gd, board)
    page.update(
        bluffs=status["bluff_names"], pending=status["pending"], questions=[q["text"] for q in status["questions"]],
        steps=[{"order": st["order"], "seat": st["seat"], "player": st["player"], "character": st["character_name"],
                "action": st["action"], "done": any(a["status"] == "chosen" for a in st["chosen"])  # G-R1: a refused one is not done
                or st["given"] is not None}
               for st in night["steps"]],
        deaths=[f"{d['seat']}号 {d['player']}：{d['cause_text']}（{'第 %d 夜' % d['number'] if d['phase'] == 'night' else '第 %d 天' % d['number']}）"
                for d in status["deaths"]])
    return page


def _today(gd, board) -> list[dict]:
    """Today's nominations as the town saw them (the public ``nominations`` post's data)."""
    if board.phase != "day":
        return []

    data = nominations(gd, board, board.number)
    return [{"nominator": n["nominator"], "nominator_player": n["nominator_player"], "nominee": n["nominee"],
             "nominee_player": n["nominee_player"], "votes": n["votes"], "threshold": n["threshold"],
             "voters": [f"{v['seat']}号{'（死者票）' if v['ghost'] else ''}" for v in n["voters"]]}
            for n in data["nominations"]]


def html(gd, board, game_dir, *, public: bool) -> str:
    return render_page(gd.game.id, "grimoire", context(gd, board, public=public), game_dir)
