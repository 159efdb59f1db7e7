"""The storyteller's views: the grimoire status (``status_*``) and the night sheet (``night_*``).
They show the whole grimoire; questions the rules leave to the storyteller are listed, never answered."""

from __future__ import annotations

from modtool.sdk import damage, GameDir, Problem, refusals, refusals_text
from modtool.packs.zhenhuan.game import board_problems
from modtool.packs.zhenhuan.night import night_steps
from modtool.packs.zhenhuan.commands import ability_label
from modtool.packs.zhenhuan.night_info import _step_json, chosen_text
from modtool.packs.zhenhuan.today import day_so_far
from modtool.packs.zhenhuan.view_labels import (
    CAUSE, MAY_BE_FALSE, TEAM, _camp, _dir, _ordinal, _question_json, _seats, _who, cn, phase_label, status_label,
)


def _seat_json(gd: GameDir, board, s) -> dict:
    changed = s.character != s.original
    tonight = []
    p = board.preview if board.phase == "night" else None
    if p is not None:  # the current night resolved with the actions recorded so far
        before = {(st.kind, st.source, st.until) for st in s.statuses}
        tonight = [f"今夜：{status_label(st)}" for st in p.seat(s.number).statuses
                   if (st.kind, st.source, st.until) not in before]
    return {
        "seat": s.number,
        "player": s.player,
        "character": s.character,
        "character_name": cn(gd, s.character),
        "original": s.original if changed else None,
        "original_name": cn(gd, s.original) if changed else None,
        "team": s.team,
        "team_name": TEAM.get(s.team, s.team),
        "alive": s.alive,
        "ghost_vote": s.ghost_vote,
        "reminders": [status_label(st) for st in s.statuses] + tonight,
    }


def _pending(gd: GameDir, board) -> list[str]:
    """Reminders the grimoire keeps outside the seats' tokens (ZH-R9, R10, R6)."""
    out = []
    if board.bound and board.phase != "over":
        out.append(f"玉娆绑定：{_who(board, board.bound)}（恶魔杀死此人则玉娆连带死亡）")
    if board.phase == "over":
        return out
    now = _ordinal(board.phase, board.number)
    for night, seats in sorted(board.curses.items()):
        if seats and _ordinal("night", night) > now:
            out.append(f"诅咒：{_seats(seats)}在第 {night} 夜开始时死亡")
    for night, seats in sorted(board.qi_wrong.items()):
        if seats and _ordinal("night", night) > now:
            out.append(f"祺贵人检举错误：{_seats(seats)}在第 {night} 夜开始时暴毙")
    for night, seats in sorted(board.qi_right.items()):
        if seats and _ordinal("night", night) >= now:
            out.append(f"祺贵人检举正确：第 {night} 夜由说书人选择一名玩家死亡")
    if board.pending_successor:
        out.append("太上皇自杀：等待说书人指定新的皇上")
    return out


def next_steps(gd: GameDir, board) -> list[str]:
    d = _dir(gd)
    if board.phase == "over":
        return [f"游戏已结束：modtool announce {d} end 生成结算帖"]
    out = []
    if board.winner:  # a death of the day so far decided the game (ZH-R12); dusk records it
        out.append(f"胜负已分：黄昏结算（modtool advance {d}）后用 modtool announce {d} end 生成结算帖")
    if board.questions:
        out.append(f"先回答说书人的问题（工具不替你决定）：modtool answer {d} 问题编号 答案")
    if board.phase == "night":
        n = board.number
        out += [
            f"查看今夜行动表：modtool night {d}",
            f"按顺序唤醒玩家，记录选择：modtool act {d} 座位 技能 目标…",
            f"记录实际给出的信息：modtool info {d} 座位 \"给出的信息\"",
            f"全部完成后天亮：modtool advance {d}",
            f"然后发帖：modtool announce {d} dawn --night {n}；私信：modtool announce {d} private --night {n}",
        ]
    else:
        n = board.number
        out += [
            f"记录提名与投票：modtool nominate {d} 提名者 被提名者；modtool vote {d} 投票者 被提名者（或导入投票帖）",
            f"白天技能：modtool act {d} 座位 技能 目标…",
            f"票型帖：modtool announce {d} nominations --day {n}",
            f"黄昏结算：modtool advance {d}；然后 modtool announce {d} execution --day {n}",
        ]
    return out


def _tonight(gd: GameDir, board) -> list[str]:
    """At night: the deaths and revivals the recorded actions lead to (the engine's preview)."""
    p = board.preview if board.phase == "night" else None
    if p is None:
        return []
    out = [f"{_who(board, d.seat)}{CAUSE.get(d.cause, d.cause)}" for d in p.deaths[len(board.deaths):]]
    t = p.learned.get((board.number, "revive"))
    if t is not None:
        out.append(f"{_who(board, t)}天亮时被叶澜依复活")
    return out


def status_json(gd: GameDir, board, problems: list[Problem] | None = None) -> dict:
    """``problems``: the replay's (game.replay); by default the board's own. During a day the
    grimoire shows what has happened so far (a 一丈红 death, 敦亲王's drunk: ZH-R10, today)."""
    board = day_so_far(board)
    if problems is None:
        problems = [*gd.problems, *board_problems(gd, board)]
    return {
        "game": gd.game.id,
        "game_name": gd.game.name,
        "phase": board.phase,
        "number": board.number,
        "phase_label": phase_label(board),
        "seats": [_seat_json(gd, board, s) for s in board.seats],
        "alive": len(board.alive()),
        "bluffs": list(board.bluffs),
        "bluff_names": [cn(gd, c) for c in board.bluffs],
        "pending": _pending(gd, board),
        "deaths": [{"seq": seq, "seat": d.seat, "player": board.seat(d.seat).player, "cause": d.cause,
                    "cause_text": CAUSE.get(d.cause, d.cause), "phase": d.phase, "number": d.number}
                   for seq, d in enumerate(board.deaths, 1)],
        "tonight": _tonight(gd, board),
        "questions": [_question_json(gd, q) for q in board.questions],
        "problems": [str(p) for p in damage(problems)],
        "refused": [str(p) for p in refusals(problems)],
        "winner": board.winner,
        "winner_name": _camp(gd, board.winner) if board.winner else None,
        "next": next_steps(gd, board),
    }


def status_text(gd: GameDir, board, problems: list[Problem] | None = None) -> str:
    board = day_so_far(board)
    j = status_json(gd, board, problems)
    problems = [Problem("", r, refused=True) for r in j["refused"]]
    lines = [f"{gd.game.name}　{j['phase_label']}　存活 {j['alive']}/{len(board.seats)}"]
    if board.winner:
        lines.append(f"胜利：{j['winner_name']}")
    lines.append("")
    lines.append("魔典：")
    for s in j["seats"]:
        name = s["character_name"] + (f"（原为{s['original_name']}）" if s["original"] else "")
        life = "存活" if s["alive"] else ("死亡，亡魂票未用" if s["ghost_vote"] else "死亡，亡魂票已用")
        line = f"  {s['seat']:>2}号 {s['player']}：{name}　{s['team_name']}　{life}"
        if s["reminders"]:
            line += "　" + "、".join(s["reminders"])
        lines.append(line)
    if j["bluff_names"]:
        lines.append(f"恶魔的伪装（不在场的善良角色）：{'、'.join(j['bluff_names'])}")
    if j["pending"]:
        lines.append("待生效：")
        lines += [f"  - {p}" for p in j["pending"]]
    if j["deaths"]:
        lines.append("死亡记录：")
        for d in j["deaths"]:
            when = f"第 {d['number']} {'夜' if d['phase'] == 'night' else '天'}"
            lines.append(f"  - {when} {_who(board, d['seat'])}：{d['cause_text']}")
    if j["tonight"]:
        lines.append("今夜按已记录的行动预计：")
        lines += [f"  - {t}" for t in j["tonight"]]
    if j["questions"]:
        lines.append("待说书人回答的问题（工具不会替你回答）：")
        for q in j["questions"]:
            lines.append(f"  - [{q['key']}] {q['text']}")
            if q["options"]:
                lines.append(f"    可选：{'、'.join(q['options'])}")
            lines.append(f"    回答：{q['how']}")
    if j["problems"]:
        lines.append("问题：")
        lines += [f"  - {p}" for p in j["problems"]]
    lines.append("下一步：")
    lines += [f"  - {s}" for s in j["next"]]
    return "\n".join(lines) + "\n" + refusals_text(problems)


# -- the night sheet -------------------------------------------------------------------------------------


def night_json(gd: GameDir, board) -> dict:
    d = _dir(gd)
    if board.phase != "night":
        return {"game_name": gd.game.name, "phase": board.phase, "night": None, "phase_label": phase_label(board),
                "steps": [], "questions": [_question_json(gd, q) for q in board.questions],
                "message": "现在不是夜晚" if board.phase == "day" else "游戏已结束"}
    steps = [_step_json(gd, board, st) for st in night_steps(board, gd.game.data)]
    return {
        "game_name": gd.game.name,
        "phase": "night",
        "night": board.number,
        "phase_label": phase_label(board),
        "steps": steps,
        "questions": [_question_json(gd, q) for q in board.questions],
        "how_to_record": [f"modtool act {d} 座位 技能 目标…", f"modtool info {d} 座位 \"给出的信息\"",
                          f"modtool answer {d} 问题编号 答案", f"天亮：modtool advance {d}"],
    }


def night_text(gd: GameDir, board) -> str:
    j = night_json(gd, board)
    if j["night"] is None:
        lines = [f"{gd.game.name}　{j['phase_label']}：{j['message']}，没有夜晚行动表。"]
        return "\n".join(lines) + "\n"
    d = _dir(gd)
    lines = [f"{gd.game.name}　第 {j['night']} 夜 行动表（按行动顺序）", ""]
    if not j["steps"]:
        lines.append("今夜没有需要唤醒的角色。")
    for s in j["steps"]:
        head = f"[{s['order']}] " + (f"{s['seat']}号 {s['player']}（{s['character_name']}）" if s["seat"] else "说书人")
        lines.append(head)
        lines.append(f"    {s['action']}")
        for a in s["chosen"]:
            lines.append(f"    {chosen_text(a, lambda x: ability_label(gd, x))}")
        if s["seat"] and s["record"] and not any(a["status"] == "chosen" for a in s["chosen"]):
            lines.append(f"    记录选择：modtool act {d} {s['seat']} {s['record']}")
        if s["truth_text"]:
            lines.append(f"    真实信息：{s['truth_text']}")
        elif s["gives_info"]:
            lines.append("    真实信息：（等待玩家的选择）")
        if s["may_be_false"]:
            lines.append(f"    {MAY_BE_FALSE}" + (f"建议的假信息：{s['decoy_text']}" if s["decoy_text"] else ""))
        if s["gives_info"] and not s["evil_info"]:
            if s["given"] is not None:
                lines.append(f"    已给出：「{s['given']}」")
            else:
                lines.append(f"    记录给出的信息：modtool info {d} {s['seat']} \"给出的信息\"")
    if j["questions"]:
        lines += ["", "待说书人回答的问题（工具不会替你回答）："]
        for q in j["questions"]:
            lines.append(f"  - [{q['key']}] {q['text']}")
            if q["options"]:
                lines.append(f"    可选：{'、'.join(q['options'])}")
            lines.append(f"    回答：{q['how']}")
    lines += ["", "如何记录："]
    lines += [f"  {h}" for h in j["how_to_record"]]
    return "\n".join(lines) + "\n"
