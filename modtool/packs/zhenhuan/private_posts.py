"""The 甄嬛 private posts: each seat's message for a night (exactly what it learned) and the
storyteller's ``notes`` (every action, truth, answer and question of the night)."""

from __future__ import annotations

from modtool.sdk import GameDir, UserError
from modtool.packs.zhenhuan.commands import ability_label
from modtool.packs.zhenhuan.history import _is, _night_board, board_at
from modtool.packs.zhenhuan.night import night_steps
from modtool.packs.zhenhuan.night_info import _asked, _evil_info, _false_answer, _gives_info, _learned_text, _step_json, chosen_text
from modtool.packs.zhenhuan.view_labels import CAUSE, UNRECORDED, _camp, _question_json, _seats, cn


def private(gd: GameDir, board, night: int | None = None, seat: int | None = None) -> dict:
    """One private message per seat for ``night``: its character (night 1, or when it changed), what it
    learned (the info given, else the truth marked as not recorded), 三阿哥's result, 敬妃's dying
    knowledge, the evil team's information and bluffs on night 1 at 7+ (ZH-R1)."""
    if night is None:
        night = board.number if board.phase == "night" else (board.number if board.phase == "over" else board.number)
    nb = _night_board(gd, night)
    if seat is not None and not 1 <= seat <= len(nb.seats):
        raise UserError("没有 {seat} 号座位（1～{n_seats} 号）", seat=seat, n_seats=len(nb.seats))
    before = board_at(gd, "day", night - 1) if night > 1 else nb
    p = nb.preview or nb
    items: dict[int, list[dict]] = {}
    for s in p.seats:
        old = before.seat(s.number).character
        if night == 1:
            items.setdefault(s.number, []).append(
                {"label": "你的角色", "text": f"{cn(gd, nb.seat(s.number).original)}（{_camp(gd, nb.seat(s.number).team)}）",
                 "unrecorded": False})
        if s.character != (nb.seat(s.number).original if night == 1 else old):
            items.setdefault(s.number, []).append(
                {"label": "你的角色变为", "text": f"{cn(gd, s.character)}（{_camp(gd, s.team)}）", "unrecorded": False})
    for st in night_steps(nb, gd.game.data):
        if not _gives_info(st):
            continue
        text, unrecorded = _learned_text(gd, nb, st)
        if _evil_info(st):
            label = "邪恶阵营信息"
        elif st.character == "jingfei" and night > 1:
            label = "你今夜死亡，得知"
        else:
            label = "你得知"
        asked = _asked(gd, nb, st)
        if asked and (nb.infos.get((night, st.seat)) is not None or _false_answer(nb, night, st.seat) is not None):
            label = asked
        items.setdefault(st.seat, []).append({"label": label, "text": text or "（尚未选择）", "unrecorded": unrecorded})
    messages = []
    for s in nb.seats:
        if seat is not None and s.number != seat:
            continue
        mine = items.get(s.number, [])
        if not mine and not s.alive and seat is None:
            continue
        messages.append({"seat": s.number, "player": s.player, "lines": mine})
    return {"game_name": gd.game.name, "night": night, "messages": messages, "unrecorded_mark": UNRECORDED}


def notes(gd: GameDir, board, night: int | None = None) -> dict:
    """The storyteller's notes for a night: every action, the truths, what was given, questions and answers."""
    if night is None:
        night = board.number if board.phase == "night" else board.number
    nb = _night_board(gd, night)
    after = board_at(gd, "day", night)
    closed = not _is(after, "night", night)
    steps = [_step_json(gd, nb, st) for st in night_steps(nb, gd.game.data)]
    for s in steps:
        s["chosen_text"] = "；".join(chosen_text(a, lambda x: ability_label(gd, x)) for a in s["chosen"])
    actions = []
    for ev in nb.night_actions.get(night, []):
        n = ev.get("seat")
        ok = isinstance(n, int) and 1 <= n <= len(nb.seats)
        actions.append({"seat": n, "player": nb.seat(n).player if ok else "",
                        "character": cn(gd, nb.seat(n).character) if ok else "", "ability": ev.get("ability"),
                        "ability_name": ability_label(gd, str(ev.get("ability"))),
                        "targets": _seats(ev.get("targets")), "note": ev.get("note") or "", "line": ev.line})
    given = [{"seat": k[1], "player": nb.seat(k[1]).player if 1 <= k[1] <= len(nb.seats) else "", "given": v}
             for k, v in sorted(nb.infos.items(), key=lambda kv: (str(kv[0][0]), kv[0][1])) if k[0] == night]
    prefix = f"night{night}/"
    answers = [{"key": k, "value": str(v)} for k, v in nb.answers.items() if str(k).startswith(prefix)]
    questions = [_question_json(gd, q) for q in (after if closed else nb).questions if q.key.startswith(prefix)]
    src = after if closed else (nb.preview or nb)
    deaths = [{"seat": d.seat, "player": src.seat(d.seat).player, "cause": CAUSE.get(d.cause, d.cause)}
              for d in src.deaths if d.phase == "night" and d.number == night]
    log = [text for _, text, _ in src.timeline[len(nb.timeline):]] if closed or nb.preview else []
    return {"game_name": gd.game.name, "night": night, "closed": closed, "steps": steps, "actions": actions,
            "given": given, "answers": answers, "questions": questions, "deaths": deaths, "log": log,
            "problems": [msg for _, msg in nb.problems]}
