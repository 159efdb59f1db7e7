"""A night step's information, as the storyteller and the seat read it: the truth in Chinese,
the storyteller's true/false answer (ZH-R3), what the seat asked and learned."""

from __future__ import annotations

from modtool.sdk import GameDir
from modtool.packs.zhenhuan.night import Step
from modtool.packs.zhenhuan.view_labels import ABILITIES, INFO_CHARACTERS, _seats, cn


def _chosen(board, night: int, seat: int) -> list[dict]:
    """The seat's submissions tonight, each as the night judged it (G-R1): ``status`` is
    "chosen" (it counts), "refused" (with ``reason``: kept as a fact, never counts) or
    "replaced" (a later valid choice counts instead)."""
    p = getattr(board, "preview", None) or board
    refused = getattr(p, "refused", {})
    replaced = {old.line for old in getattr(p, "replaces", {}).values()}
    out = []
    for ev in board.night_actions.get(night, []):
        if ev.get("seat") == seat:
            status = "refused" if ev.line in refused else "replaced" if ev.line in replaced else "chosen"
            out.append({"ability": ev.get("ability"), "targets": list(ev.get("targets") or []), "line": ev.line,
                        "status": status, "reason": refused.get(ev.line)})
    return out


def _counted(board, night: int, seat: int, abilities: tuple[str, ...]) -> list:
    """The targets of the choice that counts tonight among ``abilities`` (G-R1), or []."""
    return next((a["targets"] for a in reversed(_chosen(board, night, seat))
                 if a["ability"] in abilities and a["status"] == "chosen"), [])


def chosen_text(a: dict, label=str) -> str:
    """One submission in the storyteller's words, refused ones as refused (G-R1);
    ``label(ability id)``: its Chinese name (``commands.ability_label``)."""
    what = f"{label(a['ability'])} → {_seats(a['targets'])}"
    if a.get("status") == "refused":
        return f"不受理：{what}（{a['reason']}）"
    if a.get("status") == "replaced":
        return f"已被替换：{what}"
    return f"已选择：{what}"


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
        ts = _counted(board, n, step.seat, ("check",))
        pair = "、".join(f"{t}号" for t in ts) or "所选两名玩家"
        return f"{pair}中{'有' if value == '是' else '没有'}恶魔"
    if ch == "wentaiyi":
        ts = _counted(board, n, step.seat, ("check",))
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
        "record": "" if evil else _record_hint(board, n, step),
    }
    return out


def _record_hint(board, night: int, step: Step) -> str:
    """How to record this step's choice: only what the character can still choose tonight."""
    if step.character == "huangshang":
        used = any(ev.get("ability") == "favour" for evs in board.night_actions.values() for ev in evs
                   if ev.get("seat") == step.seat and ev.get("night") != night)
        parts = ([] if night == 1 else ["kill 目标"]) + ([] if used else ["favour 目标（雨露均沾）"])  # ZH-R6
        return " / ".join(parts)
    return ABILITIES.get(step.character, "")


def _asked(gd: GameDir, board, step: Step) -> str:
    """What the seat asked, to label information given as a bare answer ("是", "3")."""
    n, ch = board.number, step.character
    ts = _counted(board, n, step.seat, ("check", "ranzhi"))
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
