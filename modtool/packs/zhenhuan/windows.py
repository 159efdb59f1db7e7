"""When a 甄嬛 ability may be used: its window (ZH-R6, R8, R9, R10, R13).

The storyteller wakes a character only inside its ability's window, so a choice
recorded outside it is the storyteller's slip, not a player's submission: ``act``
refuses it before writing (nothing in the ledger), and ``check`` reports one
written by hand. A player's rule-breaking choice inside the window (a man for
香粉, the same protectee twice) stays a recorded fact, refused on replay.

Windows, from the role data of ``games/zhenhuan.yaml`` (``first_night`` /
``other_nights`` wake numbers, ``once_per_game``) and the rulings:
- night abilities only at night, day abilities only by day;
- a role whose ``first_night`` is null does not act on night 1 (ZH-R13): 三阿哥's
  染指 from night 2 (ZH-R8), 叶澜依, 年羹尧, 宠妃; one whose ``other_nights`` is
  null acts on night 1 only;
- the demon's kill: not on night 1 (ZH-R6; option ``first_night_demon_kills``),
  although 皇上 wakes then for 雨露均沾;
- the dead do not act; 年羹尧's take is for the night he dies (ZH-R9), so it is
  refused once he died on an earlier night or by day (while he lives it is
  taken: a forum submission may come before the kill that makes it count);
- a once-per-game ability already spent (雨露均沾, 叶澜依, 年羹尧, 太后) is refused;
  a 叶澜依 revival resets it (the engine removes the spent marks).
"""

from __future__ import annotations

# ZH-R13 wording for the two phases.
_PHASE = {"night": "夜晚", "day": "白天"}


# Who may record which choice (the engine's ability ids; the script text names the holders).
NIGHT_ABILITIES = {
    "kill": {"huangshang", "taishanghuang", "nvhuang"}, "favour": {"huangshang"}, "poison": {"anlingrong"},
    "curse": {"anlingrong"}, "protect": {"guojunwang"}, "yizhanghong": {"huafei"}, "pin": {"chongfei"},
    "ranzhi": {"sanage"}, "take": {"niangengyao"}, "revive": {"yelanyi"}, "check": {"jinxi", "wentaiyi"},
}
DAY_ABILITIES = {"silence": {"qifei"}, "drunk": {"dunqinwang"}, "accuse": {"qiguiren"}, "force_execute": {"taihou"},
                 "not_complied": None}


def _tables():
    return NIGHT_ABILITIES, DAY_ABILITIES


def _holder(seat_chars: list[str], holders) -> str | None:
    """The character (of the seat's current, became, original) that holds the ability."""
    return next((c for c in seat_chars if c and holders and c in holders), None)


def night_number_refusal(game, character: str, ability: str, night: int, options: dict) -> str | None:
    """What night ``night`` alone rules out for ``character``'s ``ability`` (ZH-R6, R8, R13)."""
    role = game.roles.get(character, {})
    name = game.role_name(character)
    if night == 1:
        if ability == "kill" and not options.get("first_night_demon_kills"):
            return f"恶魔首夜不杀人（从第二夜起，ZH-R6）"
        if ability == "ranzhi":
            return "三阿哥从第二夜起才能染指（除首夜外每晚，ZH-R8）"
        if role.get("first_night") is None:
            return f"{name}首夜不行动（从第二夜起，ZH-R13）"
    elif role.get("other_nights") is None and role.get("first_night") is not None:
        return f"{name}只在首夜行动（ZH-R13）"
    return None


def arrival_refusal(gd, board, phase: str, number: int, seat: int, ability: str) -> str | None:
    """Why ``seat``'s ``ability`` cannot be recorded now (Chinese, ending with the ruling id), or None.

    ``board`` is the grimoire at arrival (the current phase begun, tonight's
    choices not yet resolved). Only the window is judged here; who holds the
    ability and the targets are judged on replay."""
    night_table, day_table = _tables()
    own, other = (night_table, day_table) if phase == "night" else (day_table, night_table)
    if ability not in own:
        if ability in other:
            holders = "、".join(gd.game.role_name(h) for h in sorted(other[ability] or ()))
            there = "夜晚" if phase == "day" else "白天"
            return f"「{ability}」是{holders}{there}的技能，现在是第 {number} {'天' if phase == 'day' else '夜'}（ZH-R13）"
        return None
    if not 1 <= seat <= len(board.seats):
        return None
    s = board.seat(seat)
    character = _holder([s.character, board.became.get(seat), s.original], own[ability])
    if character is None:
        return None  # "没有这个技能": a recorded refusal on replay
    name = gd.game.role_name(character)
    if phase == "night":
        why = night_number_refusal(gd.game, character, ability, number, board.options)
        if why:
            return why
    if not s.alive:
        if ability == "take":
            if any(d.seat == seat and (d.phase, d.number) == ("night", number) for d in board.deaths):
                return None
            return f"{name}只在夜里死亡的当晚带走一人；{seat}号已在此前死亡（ZH-R9）"
        return f"{name}（{seat}号）已死亡，技能不能再发动（ZH-R10/ZH-R13：死者不被唤醒）"
    once = gd.game.roles.get(character, {}).get("once_per_game") or []
    if ability in once and any(st.kind == "used" and (st.source == character or st.note == ability)
                               for st in s.statuses):
        rule = {"favour": "ZH-R6", "take": "ZH-R9"}.get(ability, "ZH-R10")
        return f"{name}的「{ability}」整局只能用一次，已经用过（{rule}）"
    return None
