"""What each 甄嬛 report and post is allowed to know (DESIGN.md principle 6).

Pure functions of ``(gd, board)``: the board is ``modtool.zhenhuan.game.replay``'s
grimoire; a past phase is looked at by replaying the same ledger with the
``advance`` events up to that phase (the ledger holds facts, the rest is
derived: principle 1).

Storyteller views (``status_*``, ``night_*``, the ``notes`` post) show the whole
grimoire. Public posts (``dawn``, ``nominations``, ``execution``) are built
from seat numbers, player names, deaths without causes and votes only: no
character, team, reminder or night target of anyone, so a public template
cannot leak what it was never given. The ``end`` post, once there is a winner,
reveals everything. ``private`` gives each seat exactly what it learned.

Questions the rules leave to the storyteller are listed, never answered here.
"""

from __future__ import annotations

import copy

from modtool.gamefile import GameDir
from modtool.problems import UserError
from modtool.zhenhuan import rules
from modtool.zhenhuan.night import Step, night_steps

PUBLIC_KINDS = ("dawn", "nominations", "execution", "end")
PRIVATE_KINDS = ("private", "notes")
KINDS = PUBLIC_KINDS + PRIVATE_KINDS

TEAM = {"good": "善良", "evil": "邪恶"}

# Status.kind -> Chinese reminder label (ZH-R3, R4, R10; games/zhenhuan.yaml reminders).
STATUS_LABEL = {
    "poisoned": "中毒", "drunk": "醉酒", "pinned": "被按住", "protected": "受保护", "yizhanghong": "一丈红",
    "silenced": "禁言", "used": "技能已用", "cursed": "诅咒", "bound": "绑定",
}

# Death.cause -> Chinese (storyteller views and the end post only; never in a public post before the end).
CAUSE = {
    "demon": "被恶魔杀死", "execution": "被处决", "curse": "被安陵容诅咒", "nian_take": "被年羹尧带走",
    "sanage": "染指女皇/甄嬛，大逆不道被处死", "sanage_caught": "染指时被捉奸处死", "qi_wrong": "检举错误暴毙",
    "qi_accused": "祺贵人检举正确后由说书人选中死亡", "madman": "狂徒之死（说书人决定）", "sun": "随狂徒死亡",
    "self": "恶魔自杀", "counter": "被甄嬛反杀", "yurao": "玉娆连带死亡", "yizhanghong": "身负一丈红发起提名而死",
}

# What ``modtool act`` records for each waking character (ability ids of the engine).
ABILITIES = {
    "anlingrong": "poison 目标（香粉）/ curse 目标（诅咒）", "guojunwang": "protect 目标", "huafei": "yizhanghong 目标",
    "chongfei": "pin 目标", "huangshang": "kill 目标 / favour 目标（雨露均沾）", "taishanghuang": "kill 目标",
    "nvhuang": "kill 目标", "sanage": "ranzhi 目标", "yelanyi": "revive 目标", "jinxi": "check 目标1 目标2",
    "wentaiyi": "check 目标", "niangengyao": "take 目标",
}

# Characters whose step gives the seat information (ZH-R3 applies to these).
INFO_CHARACTERS = ("jinxi", "wentaiyi", "huanbi", "jingfei", "yurao", "sanage", "_evil_info")

UNRECORDED = "（说书人尚未记录给出的信息）"
MAY_BE_FALSE = "（可能给假信息）"


# -- small helpers ------------------------------------------------------------------------------


def cn(gd: GameDir, character: str) -> str:
    """A character's Chinese name, from games/zhenhuan.yaml (the engine's table otherwise)."""
    if character == "_evil_info":
        return "邪恶信息"
    if character == "_night_start":
        return "夜晚开始"
    entry = gd.game.roles.get(character)
    if isinstance(entry, dict) and entry.get("name"):
        return str(entry["name"])
    return rules.name(character)


def _who(board, n: int) -> str:
    if 1 <= n <= len(board.seats):
        return f"{n}号（{board.seat(n).player}）"
    return f"{n}号"


def _seats(ns) -> str:
    ns = list(ns or [])
    return "、".join(f"{n}号" for n in ns) if ns else "无"


def _ordinal(phase: str, n: int) -> int:
    return 2 * n - 1 if phase == "night" else 2 * n


def phase_label(board) -> str:
    if board.phase == "over":
        return "游戏结束"
    return f"第 {board.number} {'夜' if board.phase == 'night' else '天'}"


def _until(until) -> str:
    if until is None:
        return "整局"
    phase, n = until
    return {"night": f"到第 {n} 夜开始", "day": f"到第 {n} 天开始", "dusk": f"到第 {n} 天黄昏"}.get(phase, f"到{phase} {n}")


def status_label(st) -> str:
    """A reminder token in Chinese with its expiry, e.g. "中毒（到第 3 夜开始）" (ZH-R3)."""
    label = STATUS_LABEL.get(st.kind, st.kind)
    parts = [] if st.kind == "used" and st.until is None else [_until(st.until)]
    if st.note:
        parts.append(st.note)
    return f"{label}（{'；'.join(parts)}）" if parts else label


def _camp(gd: GameDir, team: str | None) -> str:
    if not team:
        return ""
    return gd.game.data.get("camps", {}).get(team, {}).get("name") or TEAM.get(team, team)


def _dir(gd: GameDir) -> str:
    return str(gd.path)


# -- the board at an earlier phase ----------------------------------------------------------------


def board_at(gd: GameDir, phase: str, number: int):
    """The grimoire when ``phase`` ``number`` began (a night with its preview), by replaying the
    ledger with only the ``advance`` events that close earlier phases."""
    from modtool.zhenhuan import engine
    from modtool.zhenhuan.game import events_with_posts, seats_of

    events, _ = events_with_posts(gd)
    limit = _ordinal(phase, number)

    def keep(ev) -> bool:
        if ev.type != "advance":
            return True
        p, n = ev.get("phase"), ev.get("number")
        return not (p in ("night", "day") and isinstance(n, int)) or _ordinal(p, n) < limit

    live = [ev for ev in engine._live_events(events) if keep(ev)]
    options = dict(gd.options)
    options.setdefault("bluffs", gd.header.get("bluffs", []))
    return engine.replay(seats_of(gd), live, options, gd.header.get("seed"), game_data=gd.game.data)


def _is(board, phase: str, n: int) -> bool:
    return board.phase == phase and board.number == n


def _night_board(gd: GameDir, night: int):
    b = board_at(gd, "night", night)
    if not _is(b, "night", night):
        raise UserError(f"第 {night} 夜还没有开始" if b.phase != "over" else f"游戏在第 {night} 夜之前已经结束")
    return b


def _after_night(gd: GameDir, night: int):
    """The board after the dawn of ``night`` (UserError while the night is still open)."""
    _night_board(gd, night)
    b = board_at(gd, "day", night)
    if _is(b, "night", night):
        raise UserError(f"第 {night} 夜还没有结束（天亮：modtool advance {_dir(gd)}）")
    return b


def _day_board(gd: GameDir, day: int):
    b = board_at(gd, "day", day)
    if not _is(b, "day", day):
        raise UserError(f"第 {day} 天还没有开始" if b.phase != "over" else f"游戏在第 {day} 天之前已经结束")
    return b


def day_report(gd: GameDir, day: int):
    """(day board, DayReport, closed, board after dusk or None): day ``day`` as the engine resolves it."""
    from modtool.zhenhuan import day as day_module
    from modtool.zhenhuan import engine

    b = _day_board(gd, day)
    after = board_at(gd, "night", day + 1)
    closed = not _is(after, "day", day)
    g = copy.deepcopy(b)
    engine._kuangtu(g, "day", day)  # as engine.resolve_day: 狂徒's death comes first
    roles = gd.game.data.get("roles")
    day_rules = day_module.DayRules.from_roles(roles) if isinstance(roles, dict) else None
    g.preview = None
    all_actions = [ev for d in sorted(g.day_actions) for ev in g.day_actions[d]]
    rep = day_module.day_report(g, day, engine._dicts(g.nominations.get(day, [])), engine._dicts(g.votes.get(day, [])),
                                engine._dicts(all_actions), day_rules)
    return b, rep, closed, (after if closed else None)


# -- truths, as the storyteller and the seat read them ----------------------------------------------


def _chosen(board, night: int, seat: int) -> list[dict]:
    out = []
    for ev in board.night_actions.get(night, []):
        if ev.get("seat") == seat:
            out.append({"ability": ev.get("ability"), "targets": list(ev.get("targets") or []), "line": ev.line})
    return out


def info_text(gd: GameDir, board, step: Step, value) -> str:
    """The information of a step in Chinese, for ``value`` (the truth or a decoy)."""
    ch, n = step.character, board.number
    if value is None:
        return ""
    if isinstance(value, dict):  # the evil team's information, night 1 at 7+ (ZH-R1)
        if "bluffs" in value:
            return (f"你的爪牙：{_seats(value.get('minions'))}；不在场的善良角色："
                    + ("、".join(cn(gd, c) for c in value.get("bluffs") or []) or "无"))
        return f"恶魔：{_seats(value.get('demon'))}；其他爪牙：{_seats(value.get('minions'))}"
    if ch == "_night_start":
        return f"夜晚开始时死亡：{_seats(value)}"
    if ch == "jinxi":
        ts = next((a["targets"] for a in _chosen(board, n, step.seat) if a["ability"] == "check"), [])
        pair = "、".join(f"{t}号" for t in ts) or "所选两名玩家"
        return f"{pair}中{'有' if value == '是' else '没有'}恶魔"
    if ch == "wentaiyi":
        ts = next((a["targets"] for a in _chosen(board, n, step.seat) if a["ability"] == "check"), [])
        who = f"{ts[0]}号" if ts else "所选玩家"
        return f"{who}{'是' if value == '是' else '不是'}中毒或醉酒"
    if ch == "huanbi":
        return f"恶魔与最近的爪牙间距为 {value}"
    if ch == "jingfei":
        if isinstance(value, list):
            return f"当前存活的邪恶阵营玩家：{_seats(value)}"
        return f"场上女性玩家（含太监、太医）共 {value} 名"
    if ch == "yurao" and isinstance(value, str) and "：" in value:
        seat, char = value.split("：", 1)
        return f"善良玩家 {seat} 的角色是{char}"
    if ch == "sanage":
        p = getattr(board, "preview", None) or board
        rec = p.ranzhi.get(n, {}).get(step.seat)
        return f"染指{rec[0]}号：{value}" if rec else f"染指：{value}"
    if isinstance(value, list):
        return _seats(value)
    return str(value)


def _false_answer(board, night: int, seat: int):
    """The storyteller's answer to the ZH-R3 question for this seat: ("true"|"false", value) or None."""
    v = board.answers.get(f"night{night}/false_info/seat{seat}")
    if v is None:
        return None
    text = str(v)
    if text.startswith("真实") or text.lower() in ("true", "真"):
        return ("true", None)
    if text.startswith("错误") or text.lower() in ("false", "假"):
        return ("false", text.split("：", 1)[1] if "：" in text else None)
    return ("given", text)


def _evil_info(step: Step) -> bool:
    return step.character == "_evil_info" or isinstance(step.truth, dict)


def _gives_info(step: Step) -> bool:
    return bool(step.seat) and (_evil_info(step) or step.character in INFO_CHARACTERS)


def _step_json(gd: GameDir, board, step: Step) -> dict:
    n = board.number
    evil = _evil_info(step)
    seat = board.seat(step.seat) if step.seat else None
    given = board.infos.get((n, step.seat)) if step.seat else None
    truth_text = info_text(gd, board, step, step.truth)
    out = {
        "order": step.order,
        "seat": step.seat,
        "player": seat.player if seat else "",
        "character": step.character,
        "character_name": cn(gd, step.character),
        "action": step.action,
        "chosen": _chosen(board, n, step.seat) if step.seat else [],
        "truth": step.truth,
        "truth_text": truth_text,
        "may_be_false": step.may_be_false,
        "decoy": step.decoy if step.may_be_false else None,
        "decoy_text": info_text(gd, board, step, step.decoy) if step.may_be_false and step.decoy is not None else "",
        "evil_info": evil,
        "gives_info": _gives_info(step),
        "given": given,
        "record": "" if evil else ABILITIES.get(step.character, ""),
    }
    return out


def _asked(gd: GameDir, board, step: Step) -> str:
    """What the seat asked, to label information given as a bare answer ("是", "3")."""
    n, ch = board.number, step.character
    ts = next((a["targets"] for a in _chosen(board, n, step.seat) if a["ability"] in ("check", "ranzhi")), [])
    if ch == "jinxi":
        return f"{'、'.join(f'{t}号' for t in ts) or '所选两名玩家'}中是否有恶魔"
    if ch == "wentaiyi":
        return f"{ts[0] if ts else '所选玩家'}{'号' if ts else ''}是否中毒或醉酒"
    if ch == "huanbi":
        return "恶魔与最近的爪牙的间距"
    if ch == "jingfei":
        return "场上女性玩家数量（含太监、太医）" if n == 1 else "你今夜死亡，当前存活的邪恶阵营玩家"
    if ch == "sanage":
        return f"染指{ts[0]}号的结果" if ts else "染指的结果"
    if ch == "yurao":
        return "一名善良玩家及其角色"
    return ""


def _learned_text(gd: GameDir, board, step: Step) -> tuple[str, bool]:
    """(what the seat learned, unrecorded?): the info event if any, else the storyteller's
    true/false answer, else the truth marked as not recorded."""
    n = board.number
    given = board.infos.get((n, step.seat))
    if given is not None:
        return str(given), False
    ans = _false_answer(board, n, step.seat)
    if ans is not None:
        kind, value = ans
        if kind == "true":
            return info_text(gd, board, step, step.truth), False
        if kind == "false":
            return (value if value is not None else info_text(gd, board, step, step.decoy)), False
        return value, False
    if _evil_info(step):  # not the storyteller's choice: what the rules give (ZH-R1)
        return info_text(gd, board, step, step.truth), False
    if step.truth is None:
        return "", True
    return info_text(gd, board, step, step.truth), True


def _question_json(gd: GameDir, q) -> dict:
    return {"key": q.key, "text": q.text, "options": [str(o) for o in q.options],
            "how": f"modtool answer {_dir(gd)} {q.key} 答案"}


def _problems(gd: GameDir, board) -> list[str]:
    out = [str(p) for p in gd.problems]
    for line, msg in board.problems:
        out.append(f"{gd.source}:{line}: {msg}" if line is not None else msg)
    return out


# -- status -------------------------------------------------------------------------------------------


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
    if board.bound:
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


def status_json(gd: GameDir, board) -> dict:
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
        "deaths": [{"seat": d.seat, "player": board.seat(d.seat).player, "cause": d.cause,
                    "cause_text": CAUSE.get(d.cause, d.cause), "phase": d.phase, "number": d.number}
                   for d in board.deaths],
        "tonight": _tonight(gd, board),
        "questions": [_question_json(gd, q) for q in board.questions],
        "problems": _problems(gd, board),
        "winner": board.winner,
        "winner_name": _camp(gd, board.winner) if board.winner else None,
        "next": next_steps(gd, board),
    }


def status_text(gd: GameDir, board) -> str:
    j = status_json(gd, board)
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
    return "\n".join(lines) + "\n"


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
            lines.append(f"    已选择：{a['ability']} → {_seats(a['targets'])}")
        if s["seat"] and s["record"] and not s["chosen"]:
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


# -- public posts ------------------------------------------------------------------------------------------


def dawn(gd: GameDir, board, night: int | None = None) -> dict:
    """Public: the night's deaths (no causes) and revivals, in order (ZH-R13 dawn)."""
    if night is None:
        night = board.number if board.phase in ("day", "over") else board.number - 1
        if night < 1:
            raise UserError("第 1 夜还没有结束")
    after = _after_night(gd, night)
    events = [{"kind": "death", "seat": d.seat, "player": after.seat(d.seat).player}
              for d in after.deaths if d.phase == "night" and d.number == night]
    t = after.learned.get((night, "revive"))
    if t is not None and (after.seat(t).alive or any(
            _ordinal(d.phase, d.number) > _ordinal("night", night) for d in after.deaths if d.seat == t)):
        events.append({"kind": "revival", "seat": t, "player": after.seat(t).player})
    return {"game_name": gd.game.name, "night": night, "events": events,
            "deaths": [e for e in events if e["kind"] == "death"],
            "revivals": [e for e in events if e["kind"] == "revival"]}


_INVALID_KIND = {"nominate": "提名", "vote": "投票"}


def nominations(gd: GameDir, board, day: int | None = None) -> dict:
    """Public: the day's nominations with their votes (ghost votes marked), thresholds, the invalid
    nominations and votes with their reasons, and the result (ZH-R11)."""
    if day is None:
        day = board.number if board.phase in ("day", "over") else board.number - 1
    b, rep, closed, after = day_report(gd, day)
    noms = []
    for r in rep.nominations:
        noms.append({
            "nominator": r.nominator, "nominator_player": b.seat(r.nominator).player,
            "nominee": r.nominee, "nominee_player": b.seat(r.nominee).player,
            "floor": r.floor, "living": r.living, "threshold": r.threshold, "votes": r.votes, "reaches": r.reaches,
            "voters": [{"seat": v, "player": b.seat(v).player, "ghost": v in r.ghost_voters} for v in r.voters],
        })
    invalid = [{"kind": _INVALID_KIND[i.kind], "reason": i.reason} for i in rep.invalid if i.kind in _INVALID_KIND]
    return {"game_name": gd.game.name, "day": day, "closed": closed, "nominations": noms, "invalid": invalid,
            "result": _result_text(b, rep, closed)}


def _result_text(b, rep, closed: bool) -> str:
    ex = rep.execution
    if ex is not None and ex.cause != "vote":  # 纯元皇后 / 太后 / 齐妃: at once, whatever the hour (ZH-R10)
        return f"{_who(b, ex.seat)}因角色能力被立即处决"
    if not closed:  # dusk has not come: the vote as it stands (ZH-R11)
        prefix = "（白天尚未结束，以下为目前的票数）"
        if ex is not None:
            r = next((r for r in rep.nominations if r.nominee == ex.seat), None)
            need = f"（需 {r.threshold} 票）" if r else ""
            return prefix + f"{_who(b, ex.seat)}目前得 {ex.votes} 票{need}，黄昏时仍如此将被处决"
    else:
        prefix = ""
    if ex is not None:
        r = next((r for r in rep.nominations if r.nominee == ex.seat), None)
        need = f"（需 {r.threshold} 票）" if r else ""
        return f"{_who(b, ex.seat)}得 {ex.votes} 票{need}，被处决"
    if not rep.nominations:
        return prefix + "今天没有有效的提名，无人被处决"
    reach = [r for r in rep.nominations if r.reaches]
    if not reach:
        return prefix + "没有被提名者达到处决所需票数，无人被处决"
    top = max(r.votes for r in reach)
    best = [r for r in reach if r.votes == top]
    if len(best) > 1:
        return prefix + "、".join(_who(b, r.nominee) for r in best) + f"同为最高票（{top} 票），平票：无人被处决"
    return prefix + f"{_who(b, best[0].nominee)}得 {top} 票（需 {best[0].threshold} 票）"


def execution(gd: GameDir, board, day: int | None = None) -> dict:
    """Public: who was executed (or nobody and why); other deaths of the day without causes;
    胧月's ending (ZH-R12) and the winner when the game ended with the day."""
    if day is None:
        day = board.number if board.phase in ("day", "over") else board.number - 1
    b, rep, closed, after = day_report(gd, day)
    if not closed and (rep.execution is None or rep.execution.cause == "vote"):
        raise UserError(f"第 {day} 天还没有结束（黄昏结算：modtool advance {_dir(gd)}）")
    ex = rep.execution
    executed = None
    if ex is not None:
        executed = {"seat": ex.seat, "player": b.seat(ex.seat).player, "votes": ex.votes,
                    "by_vote": ex.cause == "vote"}
    src = after if after is not None else rep.grimoire
    others = [{"seat": d.seat, "player": b.seat(d.seat).player} for d in src.deaths
              if d.phase == "day" and d.number == day and (ex is None or d.seat != ex.seat)]
    winner = after.winner if after is not None else rep.winner
    return {
        "game_name": gd.game.name, "day": day, "closed": closed,
        "executed": executed,
        "result": _result_text(b, rep, True),
        "other_deaths": others,
        "executed_team_lost": bool(rep.winner),  # ZH-R12: the executed seat was 胧月 (dead: no living secret)
        "losing_team": _camp(gd, b.seat(ex.seat).team) if rep.winner and ex is not None else "",
        "over": bool(winner),
        "winner": _camp(gd, winner) if winner else "",
    }


def _fates(gd: GameDir, board) -> dict[int, list[str]]:
    steps: list[tuple[int, int, int, int, str]] = []
    for i, d in enumerate(board.deaths):
        when = f"第 {d.number} {'夜' if d.phase == 'night' else '天'}"
        steps.append((_ordinal(d.phase, d.number), 0, i, d.seat, f"{when}{CAUSE.get(d.cause, d.cause)}"))
    for key, t in board.learned.items():
        if isinstance(key, tuple) and len(key) == 2 and key[1] == "revive" and isinstance(t, int):
            n = key[0]
            if board.seat(t).alive or any(_ordinal(d.phase, d.number) > _ordinal("night", n)
                                         for d in board.deaths if d.seat == t):
                steps.append((_ordinal("night", n), 1, 0, t, f"第 {n} 夜后被叶澜依复活"))
    out: dict[int, list[str]] = {}
    for _, _, _, seat, text in sorted(steps):
        out.setdefault(seat, []).append(text)
    return out


def _timeline(gd: GameDir, board) -> list[dict]:
    """The board's timeline grouped by the phase whose close produced each entry."""
    from modtool.zhenhuan import engine
    from modtool.zhenhuan.game import events_with_posts

    events, _ = events_with_posts(gd)
    advances = [ev for ev in engine._live_events(events) if ev.type == "advance"]
    marks: list[tuple[int, str]] = []
    seen = 0
    for ev in advances:
        p, n = ev.get("phase"), ev.get("number")
        if p not in ("night", "day") or not isinstance(n, int):
            continue
        b = board_at(gd, "night" if p == "day" else "day", n + 1 if p == "day" else n)
        if len(b.timeline) > seen:
            marks.append((len(b.timeline), f"第 {n} {'夜' if p == 'night' else '天'}"))
            seen = len(b.timeline)
        if b.phase == "over":
            break
    out, start = [], 0
    for end, label in marks:
        for _, text, public in board.timeline[start:end]:
            out.append({"phase": label, "text": text, "public": public})
        start = end
    for _, text, public in board.timeline[start:]:
        out.append({"phase": "", "text": text, "public": public})
    return out


def end(gd: GameDir, board) -> dict:
    """The end post: the winner and the whole grimoire revealed, with the timeline."""
    if not board.winner:
        raise UserError(f"游戏还没有结束（当前：{phase_label(board)}）")
    fates = _fates(gd, board)
    cast = []
    for s in board.seats:
        steps = fates.get(s.number, [])
        fate = " → ".join(steps + (["存活"] if s.alive and steps else [])) or "存活"
        cast.append({"seat": s.number, "player": s.player, "character": cn(gd, s.character),
                     "original": cn(gd, s.original) if s.original != s.character else "",
                     "team": _camp(gd, s.team), "alive": s.alive, "fate": fate})
    return {"game_name": gd.game.name, "winner": _camp(gd, board.winner), "cast": cast,
            "bluffs": [cn(gd, c) for c in board.bluffs], "timeline": _timeline(gd, board)}


# -- private posts -------------------------------------------------------------------------------------------


def private(gd: GameDir, board, night: int | None = None, seat: int | None = None) -> dict:
    """One private message per seat for ``night``: its character (night 1, or when it changed), what it
    learned (the info given, else the truth marked as not recorded), 三阿哥's result, 敬妃's dying
    knowledge, the evil team's information and bluffs on night 1 at 7+ (ZH-R1)."""
    if night is None:
        night = board.number if board.phase == "night" else (board.number if board.phase == "over" else board.number)
    nb = _night_board(gd, night)
    if seat is not None and not 1 <= seat <= len(nb.seats):
        raise UserError(f"没有 {seat} 号座位（1～{len(nb.seats)} 号）")
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
        s["chosen_text"] = "；".join(f"{a['ability']} → {_seats(a['targets'])}" for a in s["chosen"])
    actions = []
    for ev in nb.night_actions.get(night, []):
        n = ev.get("seat")
        ok = isinstance(n, int) and 1 <= n <= len(nb.seats)
        actions.append({"seat": n, "player": nb.seat(n).player if ok else "",
                        "character": cn(gd, nb.seat(n).character) if ok else "", "ability": ev.get("ability"),
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


def post_context(gd: GameDir, board, kind: str, *, day: int | None = None, night: int | None = None,
                 seat: int | None = None) -> dict:
    """The template context of ``kind`` (templates/zhenhuan/<kind>.<bbcode|md>.j2)."""
    if kind == "dawn":
        return dawn(gd, board, night)
    if kind == "nominations":
        return nominations(gd, board, day)
    if kind == "execution":
        return execution(gd, board, day)
    if kind == "end":
        return end(gd, board)
    if kind == "private":
        return private(gd, board, night, seat)
    if kind == "notes":
        return notes(gd, board, night)
    raise UserError(f"未知的帖子类型「{kind}」；可用：{'、'.join(KINDS)}")
