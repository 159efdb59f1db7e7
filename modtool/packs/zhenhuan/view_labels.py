"""Labels and small helpers the 甄嬛 reports and posts share: Chinese names of characters,
camps, reminders and causes of death, seat lists, phase labels."""

from __future__ import annotations

from modtool.sdk import GameDir
from modtool.packs.zhenhuan import rules

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
    category = (gd.game.data.get("categories") or {}).get(character)  # a traveller is a category, not a role
    if isinstance(category, dict) and category.get("name"):
        return str(category["name"])
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


def _question_json(gd: GameDir, q) -> dict:
    return {"key": q.key, "text": q.text, "options": [str(o) for o in q.options],
            "how": f"modtool answer {_dir(gd)} {q.key} 答案"}
