"""The storyteller's night sheet: whom to wake, what to ask, the true answer (ZH-R13, ZH-R3).

``night_steps(grim, game_data)`` lists the steps of the CURRENT night of a
grimoire built by ``engine.replay``, in the night-order numbers of the role
data (ZH-R13). Only characters in play; who cannot act is skipped (dead at
the step, pinned by 宠妃, a once-per-game ability spent), except where the
text lets the dying act (年羹尧's take, 敬妃's knowledge, 玉娆's linked
death). ``truth`` is computed from the board (characters and statuses as the
night has made them up to the step, the engine's preview); ``may_be_false``
marks an impaired character's information (ZH-R3, the storyteller chooses
and the tool never does); ``decoy`` is a deterministic false answer drawn
from the seed, for the storyteller who chooses to give a false one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from modtool.packs.zhenhuan import rules
from modtool.packs.zhenhuan.rules import is_demon, is_minion, name


@dataclass
class Step:
    order: int
    seat: int  # 0: the storyteller's own step (night-start effects)
    character: str  # role id, or "_evil_info" / "_night_start"
    action: str  # Chinese: whom to wake, what to ask
    truth: Any = None  # the true information, None when nothing is learned (yet)
    may_be_false: bool = False  # ZH-R3: impaired, the storyteller may give false info
    decoy: Any = None  # a suggested false answer (never the truth), from the seed


def _yn(v: bool) -> str:
    return "是" if v else "否"


def _decoy(grim, key: tuple, truth):
    if truth is None or isinstance(truth, dict):
        return None
    if truth in ("是", "否"):
        return "否" if truth == "是" else "是"
    if truth in ("成功", "失败"):
        return "失败" if truth == "成功" else "成功"
    n = len(grim.seats)
    if isinstance(truth, int):
        # A plausible number: 浣碧's distance is at most half the circle; 敬妃's count at most the seats.
        top = n // 2 if key[2:3] == ("huanbi",) else n
        return rules.seeded_choice(getattr(grim, "seed", None), key, [i for i in range(0, top + 1) if i != truth])
    if isinstance(truth, list):
        pool = [s.number for s in grim.seats if s.alive]
        size = max(len(truth), 1)
        for i in range(20):
            rng_pick = sorted(rules.seeded_choice(getattr(grim, "seed", None), key + (i, j), pool) for j in range(size))
            if sorted(set(rng_pick)) != sorted(truth):
                return sorted(set(rng_pick))
        return None
    if isinstance(truth, str) and "：" in truth:  # "3号：甄嬛" (玉娆)
        seat, char = truth.split("：", 1)
        goods = [r.name for r in rules.ROLES.values() if r.team == "good" and r.name != char]
        return f"{seat}：{rules.seeded_choice(getattr(grim, 'seed', None), key, goods)}"
    return None


def night_steps(grim, game_data=None) -> list[Step]:
    """The steps of the current night, sorted by their ZH-R13 order number."""
    if grim.phase != "night":
        return []
    n = grim.number
    p = getattr(grim, "preview", None) or grim  # the night resolved so far
    table = rules.role_table(game_data if game_data is not None else getattr(grim, "options", {}).get("_game_data"))
    col = "first_night" if n == 1 else "other_night"
    steps: list[Step] = []

    def order_of(character: str) -> int | None:
        r = table.get(character)
        if r is not None:
            return getattr(r, col)
        return (rules.FIRST_NIGHT if n == 1 else rules.OTHER_NIGHT).get(character)

    def acted(seat: int, ability: str) -> list[int]:
        src = p if hasattr(p, "acts") else grim  # the preview judged tonight's choices (G-R1)
        ev = src.acts(n, seat, ability) if hasattr(src, "acts") else None
        return [int(str(t).rstrip("号")) for t in (ev.get("targets") or [])] if ev is not None else []

    def gone(seat_no: int, order: int) -> bool:
        """Dead before the step: dead at dusk, or died tonight at an earlier step."""
        s0 = grim.seat(seat_no)
        if not s0.alive:
            return True
        s1 = p.seat(seat_no)
        return not s1.alive and getattr(p, "death_order", {}).get(seat_no, 0) < order

    def died_tonight(seat_no: int) -> bool:
        """Died during night n: at its start (安陵容's curse, ZH-R13) or at a step so far (ZH-R9)."""
        return any(d.seat == seat_no and d.phase == "night" and d.number == n for d in p.deaths)

    def pinned(seat_no: int) -> bool:
        return any(st.kind == "pinned" for st in p.seat(seat_no).statuses)

    def impaired(seat_no: int) -> bool:
        return any(st.kind in ("poisoned", "drunk", "pinned") for st in p.seat(seat_no).statuses)

    def add(order, seat, character, action, truth=None, info=False):
        mbf = bool(info and seat and impaired(seat))
        steps.append(Step(order, seat, character, action, truth, mbf,
                          _decoy(grim, (n, seat, character), truth) if info else None))

    # ZH-R13 storyteller steps
    if n == 1 and len(grim.seats) >= 7 and order_of("_evil_info"):
        o = order_of("_evil_info")
        demons = [s.number for s in grim.seats if is_demon(s.character)]
        minions = [s.number for s in grim.seats if is_minion(s.character)]
        for d in demons:
            add(o, d, grim.seat(d).character, "唤醒恶魔：告知其爪牙座位与三个不在场的善良角色（伪装）",
                {"minions": minions, "bluffs": list(grim.bluffs)})
        for m in minions:
            add(o, m, grim.seat(m).character, "唤醒爪牙：告知恶魔与其他爪牙的座位",
                {"demon": demons, "minions": [x for x in minions if x != m]})
    if n > 1 and order_of("_night_start"):
        tonight = [d.seat for d in grim.deaths if d.phase == "night" and d.number == n]
        add(order_of("_night_start"), 0, "_night_start",
            "夜晚开始：清除上一夜的毒；诅咒目标死亡；祺贵人检举错误者死亡；孙答应判定", tonight)

    for s in grim.seats:
        ch = s.character
        o = order_of(ch)
        if not o:
            continue
        num = s.number
        # Dying characters whose ability works on death (ZH-R9)
        if ch == "niangengyao":
            if n > 1 and died_tonight(num) and not pinned(num) and not s.has("used"):
                add(o, num, ch, "年羹尧今夜死亡：唤醒他，问是否带走一名玩家（全局一次）")
            continue
        if ch == "jingfei" and n > 1:
            if died_tonight(num):
                add(o, num, ch, "敬妃今夜死亡：唤醒她，告知当前存活的邪恶阵营玩家",
                    getattr(p, "learned", {}).get((n, num)), info=True)
            continue
        if ch == "yurao" and n > 1:
            if died_tonight(num) and any(d.seat == num and d.cause == "yurao" for d in p.deaths):
                add(o, num, ch, "玉娆连带死亡：恶魔杀死了她首夜得知的善良玩家（说书人操作死亡）")
            continue
        if ch == "sundaying":  # ZH-R9: her step, resolved when the night began
            if any(d.seat == num and d.cause == "sun" and d.phase == "night" and d.number == n for d in grim.deaths):
                add(o, num, ch, "孙答应随狂徒死亡：全场醉酒至下一个黄昏（已结算）", "死亡")
            elif s.alive and getattr(grim, "kuangtu_dead", False):
                add(o, num, ch, "狂徒已死但孙答应受影响：今夜不死亡，下一夜再判断")
            continue
        if gone(num, o) or pinned(num):
            continue
        if ch == "anlingrong":
            add(o, num, ch, "唤醒安陵容：选择一名女性玩家下毒（香粉），并可选择一名玩家诅咒（下一夜开始时死亡）")
        elif ch == "guojunwang":
            add(o, num, ch, "唤醒果郡王：选择除自己外的一名玩家保护（不可连续两晚保护同一人）")
        elif ch == "huafei":
            add(o, num, ch, "唤醒华妃：选择一名玩家赐一丈红（明天提名则死亡）")
        elif ch == "chongfei":
            add(o, num, ch, "唤醒宠妃：选择一名玩家按住，其今夜技能无法发动（不可连续按住同一人）")
        elif is_demon(ch):
            favour = ch == "huangshang" and not s.has("used")
            if n == 1:
                if favour:
                    add(o, num, ch, "唤醒皇上：是否使用雨露均沾（选择一名女性玩家，全局一次）")
            else:
                add(o, num, ch, "唤醒恶魔：选择一名玩家杀死" + ("；可使用雨露均沾（选择一名女性玩家，全局一次）" if favour else ""))
        elif ch == "sanage" and n > 1:
            rec = getattr(p, "ranzhi", {}).get(n, {}).get(num)
            truth = rec[1] if rec else None
            if rec and rec[1] is None:  # impaired / protected: no effect; the sheet shows failure
                truth = "失败"
            add(o, num, ch, "唤醒三阿哥：选择左右最近的一名存活玩家染指，告知成功或失败", truth, info=True)
        elif ch == "qiguiren":
            if num in getattr(grim, "qi_right", {}).get(n, []):
                add(o, num, ch, "祺贵人昨日检举正确：说书人选择一名玩家今夜死亡")
        elif ch == "yelanyi":
            if not s.has("used"):
                add(o, num, ch, "唤醒叶澜依：选择一名死亡玩家，天亮时复活并重置技能（全局一次）")
        elif ch == "jinxi":
            ts = acted(num, "check")
            truth = _yn(any(is_demon(p.seat(t).character) for t in ts)) if len(ts) == 2 else None
            add(o, num, ch, "唤醒瑾汐：选择两名玩家（可含自己），告知其中是否有恶魔", truth, info=True)
        elif ch == "wentaiyi":
            ts = acted(num, "check")
            truth = (_yn(any(st.kind in ("poisoned", "drunk") for st in p.seat(ts[0]).statuses))
                     if ts else None)
            add(o, num, ch, "唤醒温太医：选择一名玩家，告知其是否中毒或醉酒", truth, info=True)
        elif ch == "yurao" and n == 1:
            b = getattr(p, "bound", None)
            truth = f"{b}号：{name(grim.seat(b).character)}" if b else None
            add(o, num, ch, "唤醒玉娆：告知一名善良玩家及其角色（说书人选择，见问题 night1/yurao_bind）",
                truth, info=True)
        elif ch == "huanbi" and n == 1:
            demons = [x.number for x in grim.seats if is_demon(x.character)]
            minions = [x.number for x in grim.seats if is_minion(x.character)]
            truth = (min(rules.seat_distance(d, m, len(grim.seats)) for d in demons for m in minions)
                     if demons and minions else None)
            add(o, num, ch, "唤醒浣碧：告知恶魔与最近爪牙之间的座位间距", truth, info=True)
        elif ch == "jingfei" and n == 1:
            truth = sum(1 for x in grim.seats if rules.counts_for_jingfei(x.character))
            add(o, num, ch, "唤醒敬妃：告知场上女性玩家数量（含太监、太医）", truth, info=True)
    steps.sort(key=lambda st: (st.order, st.seat))
    return steps
