"""Role data the 甄嬛 engine needs, with a built-in fallback table.

``games/zhenhuan.yaml`` is the source of truth (a game is data); when
it is absent or lacks a field, the table below (from the rule text and
RULINGS.md ZH-R2, ZH-R13) is used. Also: a minimal ZH-R11 execution, used only
when ``modtool.packs.zhenhuan.day.execution`` is not there.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from modtool.packs.zhenhuan.state import Status

# id -> (category, gender, Chinese name). ZH-R2 genders; categories from the script.
_ROLES: dict[str, tuple[str, str, str]] = {
    "zhenhuan": ("townsfolk", "female", "甄嬛"),
    "jinxi": ("townsfolk", "female", "瑾汐"),
    "guojunwang": ("townsfolk", "male", "果郡王"),
    "wentaiyi": ("townsfolk", "physician", "温太医"),
    "qiguiren": ("townsfolk", "female", "祺贵人"),
    "yurao": ("townsfolk", "female", "玉娆"),
    "huanbi": ("townsfolk", "female", "浣碧"),
    "jingfei": ("townsfolk", "female", "敬妃"),
    "sanage": ("townsfolk", "male", "三阿哥"),
    "niangengyao": ("townsfolk", "male", "年羹尧"),
    "chunyuan": ("townsfolk", "female", "纯元皇后"),
    "taihou": ("townsfolk", "female", "太后"),
    "yelanyi": ("townsfolk", "female", "叶澜依"),
    "qifei": ("outsider", "female", "齐妃"),
    "dunqinwang": ("outsider", "male", "敦亲王"),
    "longyue": ("outsider", "female", "胧月"),
    "sundaying": ("outsider", "female", "孙答应"),
    "kuangtu": ("outsider", "male", "狂徒"),
    "supeisheng": ("minion", "eunuch", "苏培盛"),
    "anlingrong": ("minion", "female", "安陵容"),
    "huafei": ("minion", "female", "华妃"),
    "huanghou": ("minion", "female", "皇后"),
    "chongfei": ("minion", "female", "宠妃"),
    "huangshang": ("demon", "male", "皇上"),
    "taishanghuang": ("demon", "male", "太上皇"),
    "nvhuang": ("demon", "female", "女皇"),
}

DEMONS = ("huangshang", "taishanghuang", "nvhuang")
NEVER_DEALT = ("chongfei", "nvhuang")  # ZH-R1

# ZH-R13 night order. "_evil_info" (first night, 7+) and "_night_start"
# (other nights) are the storyteller's own steps.
FIRST_NIGHT: dict[str, int] = {  # the numbers of games/zhenhuan.yaml
    "_evil_info": 6, "anlingrong": 10, "guojunwang": 12, "huafei": 14, "huangshang": 16,
    "jinxi": 20, "wentaiyi": 22, "yurao": 24, "huanbi": 26, "jingfei": 28,
}
OTHER_NIGHT: dict[str, int] = {
    "_night_start": 2, "sundaying": 5, "chongfei": 30, "anlingrong": 32, "guojunwang": 34, "huafei": 36,
    "sanage": 38, "huangshang": 40, "taishanghuang": 40, "nvhuang": 40, "niangengyao": 42, "jingfei": 44,
    "yurao": 46, "qiguiren": 48, "yelanyi": 50, "jinxi": 52, "wentaiyi": 54,
}


@dataclass(frozen=True)
class Role:
    id: str
    category: str  # townsfolk | outsider | minion | demon
    gender: str  # female | male | eunuch | physician (ZH-R2)
    name: str
    first_night: int | None
    other_night: int | None

    @property
    def team(self) -> str:
        return "good" if self.category in ("townsfolk", "outsider") else "evil"


def _yaml_roles(game_data) -> dict[str, dict]:
    """Role entries of games/zhenhuan.yaml, tolerant of a mapping or a list with ``id``."""
    if not isinstance(game_data, dict):
        return {}
    roles = game_data.get("roles") or game_data.get("characters") or {}
    out: dict[str, dict] = {}
    if isinstance(roles, dict):
        for rid, entry in roles.items():
            if isinstance(entry, dict):
                out[str(rid)] = entry
    elif isinstance(roles, list):
        for entry in roles:
            if isinstance(entry, dict) and entry.get("id"):
                out[str(entry["id"])] = entry
    return out


def _order(entry: dict, key: str):
    for k in (key, key + "s", key.replace("_", "")):
        if k in entry:
            return entry[k]
    night = entry.get("night_order") or entry.get("night")
    if isinstance(night, dict):
        return night.get("first" if key == "first_night" else "other")
    return None


def role_table(game_data=None) -> dict[str, Role]:
    """Every role of the script: the YAML's values where present, the built-in table otherwise."""
    table: dict[str, Role] = {}
    yroles = _yaml_roles(game_data)
    for rid in set(_ROLES) | set(yroles):
        cat, gender, name = _ROLES.get(rid, ("townsfolk", "male", rid))
        y = yroles.get(rid, {})
        cat = y.get("category") or y.get("type") or cat
        cat = {"outsiders": "outsider", "minions": "minion", "demons": "demon"}.get(cat, cat)
        gender = y.get("gender") or gender
        name = y.get("name") or y.get("zh") or name
        fn, on = _order(y, "first_night"), _order(y, "other_night")
        fn = FIRST_NIGHT.get(rid) if fn is None else (fn or None)
        on = OTHER_NIGHT.get(rid) if on is None else (on or None)
        table[rid] = Role(rid, cat, gender, name, fn, on)
    for step in (game_data or {}).get("night_steps") or [] if isinstance(game_data, dict) else []:
        # YAML pseudo-steps: the storyteller's evil info (first night) and night-start effects
        sid = step.get("id") if isinstance(step, dict) else None
        if sid in ("minion_info", "demon_info") and step.get("first_night"):
            old = table.get("_evil_info")
            fn = min(step["first_night"], old.first_night) if old else step["first_night"]
            table["_evil_info"] = Role("_evil_info", "", "", "邪恶信息", fn, None)
        elif sid in ("clear_poison", "curse_deaths", "accuse_wrong") and step.get("other_nights"):
            old = table.get("_night_start")
            on = min(step["other_nights"], old.other_night) if old else step["other_nights"]
            table["_night_start"] = Role("_night_start", "", "", "夜晚开始", None, on)
    for pseudo in ("_evil_info", "_night_start"):
        if pseudo not in table:
            table[pseudo] = Role(pseudo, "", "", pseudo, FIRST_NIGHT.get(pseudo), OTHER_NIGHT.get(pseudo))
    return table


ROLES = role_table(None)


def role(character: str, table: dict[str, Role] | None = None) -> Role:
    t = table or ROLES
    return t.get(character) or Role(character, "townsfolk", "male", character, None, None)


def name(character: str) -> str:
    return role(character).name


def is_woman(character: str) -> bool:
    """ZH-R2: 雨露均沾 and 香粉 take women only (not the eunuch, not the physician)."""
    return role(character).gender == "female"


def counts_for_jingfei(character: str) -> bool:
    """ZH-R2: 敬妃 counts women plus the eunuch and the physician."""
    return role(character).gender in ("female", "eunuch", "physician")


def is_demon(character: str) -> bool:
    return role(character).category == "demon"


def is_minion(character: str) -> bool:
    return role(character).category == "minion"


def ranzhi_fails(character: str) -> bool:
    """ZH-R2/ZH-R8: 染指 fails on men, 太后, 齐妃, 胧月 and women who are minions (宠妃 excepted: R8)."""
    r = role(character)
    if character == "chongfei":
        return False
    if r.gender != "female":
        return True
    return character in ("taihou", "qifei", "longyue") or r.category == "minion"


def seat_distance(a: int, b: int, n: int) -> int:
    d = abs(a - b) % n
    return min(d, n - d)


def seeded_choice(seed, key: tuple, candidates: list):
    """A deterministic draw from the ledger's seed (same ledger, same draw)."""
    rng = random.Random(f"{seed}/{'/'.join(map(str, key))}")
    return rng.choice(sorted(candidates, key=str))


def minimal_execution(grim, day: int, nominations: list, votes: list, day_actions: list) -> list[tuple[int, str]]:
    """ZH-R11 (fallback when modtool.packs.zhenhuan.day is absent): who is executed at dusk.

    A nominee needs votes >= half the living (rounded up) and more than any
    other nominee; a tie at the top executes nobody. 太后's force_execute
    (ZH-R10, once, not impaired) executes its nominee whatever the votes.
    Returns [(seat, cause)].
    """
    for a in day_actions:
        if a.get("ability") == "force_execute" and a.get("targets"):
            s = grim.seat(a.get("seat"))
            if s.alive and s.character == "taihou" and not _impaired(s) and not s.has("used"):
                s.statuses.append(_used("taihou"))
                return [(int(a.get("targets")[0]), "execution")]
    alive = len(grim.alive())
    need = math.ceil(alive / 2)
    nominees = [n.get("nominee") for n in nominations]
    tally: dict[int, set[int]] = {n: set() for n in nominees}
    for v in votes:
        if v.get("nominee") in tally:
            tally[v.get("nominee")].add(v.get("voter"))
    if not tally:
        return []
    best = max(len(v) for v in tally.values())
    top = [n for n, v in tally.items() if len(v) == best]
    if best >= need and len(top) == 1:
        return [(top[0], "execution")]
    return []


def _impaired(seat) -> bool:
    return any(s.kind in ("poisoned", "drunk", "pinned") for s in seat.statuses)


def _used(source: str):
    return Status("used", source)
