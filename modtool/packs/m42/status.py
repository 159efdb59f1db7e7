"""What a director needs at a glance: phase, who is in, pending decisions, what to do next."""

from __future__ import annotations

from datetime import timedelta

from modtool.sdk import damage, fmt, GameDir, refusals, refusals_text
from modtool.packs.m42.engine import LAST_WORDS_LIMIT, PRIVATE_CAUSES, Engine, State, fmt_short, phase_label


def next_steps(gd: GameDir, st: State) -> list[str]:
    if st.over:
        return [f"游戏已结束：modtool announce {gd.folder_arg} end 生成结束帖（全部身份与时间线）"]
    steps: list[str] = []
    n = st.number
    if st.phase == "day":
        steps.append(f"第 {n} 天讨论中：导入投票帖（modtool import {gd.folder_arg} 存档文件 --thread vote --day {n}），随时 modtool tally {gd.folder_arg} --day {n} 看票型")
        steps.append(f"关门后运行 modtool advance {gd.folder_arg} 结算第 {n} 天投票")
    elif st.phase == "night":
        rec = st.nights[n]
        wolves_due = fmt_short(rec.start + timedelta(hours=1))  # M42-R15
        witch_in = any(c.role == "witch" and c.name in st.alive for c in gd.roster)
        if rec.kill is None:
            steps.append(f"等待狼人提交杀人目标（时限 {wolves_due}）：modtool act {gd.folder_arg} 狼人 kill 目标")
        elif witch_in and not rec.used and len(st.potions_used) < 2:
            eng = Engine(gd, st)
            told, recorded = eng.witch_told(n)  # M42-R15, as the engine counts it
            if recorded:  # the notice is recorded; her half-hour runs from it
                steps.append(f"已在 {fmt_short(told)} 通知女巫，等她答复（时限从通知时算起半小时，M42-R15）")
            else:
                stale = eng.witch_told_before(n)
                if stale is not None:  # G-R1: the wolves' later submission replaced the target she was told
                    steps.append(f"狼人在 {fmt_short(stale)} 通知女巫之后改了指杀目标（现在是{rec.kill}）：要把新的目标再告诉女巫")
                steps.append(f"把被指杀的角色告诉女巫（modtool announce {gd.folder_arg} witch --night {n}，同时记下通知时间，M42-R15），等她答复")
        if not rec.checks and any(c.role == "seer" and c.name in st.alive for c in gd.roster):
            steps.append(f"等待预言家查验（时限 {wolves_due}）：modtool act {gd.folder_arg} 预言家名字 check 目标")
        steps.append(f"所有行动到齐或时限过后，modtool advance {gd.folder_arg} 结算第 {n} 夜")
    elif st.phase == "dawn":
        steps.append("通知出局角色（遗言、猎人开枪、警长继任），收齐后 modtool advance 开始新的一天")
        steps.append(f"然后发布开始帖：modtool announce {gd.folder_arg} day-start --day {n + 1}")
    for p in st.pending:
        if p.kind == "bar" and st.barred.get(n + 1):  # M42-R8: named; a new naming may still replace it
            steps.append(f"替罪羊{p.who}已指定第 {n + 1} 天不得投票：{'、'.join(sorted(st.barred[n + 1]))}（开始新的一天前可以重新指定）")
            continue
        due = f"，时限 {fmt_short(p.due)}" if p.due else "，在下一个讨论日开始前"
        steps.append(f"待办：{p.who}的{p.label}{due}")
    return steps


def exits_json(st: State, upto_day: int | None = None) -> list[dict]:
    """The exits in exit order (M42-R11), numbered from 1, each with its last
    words received and allowed (M42-R10; none after a red card, M42-R13).
    ``upto_day``: only the exits before the night that follows that
    discussion day (its vote's exile included)."""
    out = []
    for seq, e in enumerate(st.exits, 1):
        if upto_day is not None and (e.number > upto_day or (e.number == upto_day and e.phase != "day")):
            continue
        out.append({
            "seq": seq, "name": e.name, "cause": e.cause, "cause_text": PRIVATE_CAUSES[e.cause],
            "phase": e.phase, "number": e.number, "at": fmt(e.at),
            "last_words": {"received": len(st.last_words.get(e.name, [])),
                           "allowed": 0 if e.cause == "redcard" else LAST_WORDS_LIMIT},
        })
    return out


def status_json(gd: GameDir, st: State) -> dict:
    exits = {e.name: e for e in st.exits}
    return {
        "phase": st.phase,
        "number": st.number,
        "phase_label": phase_label(st),
        "characters": [
            {
                "name": c.name,
                "account": c.account,
                "role": c.role,
                "alive": c.name in st.alive,
                "out": None if c.name in st.alive else {
                    "cause": exits[c.name].cause, "phase": exits[c.name].phase,
                    "number": exits[c.name].number, "at": fmt(exits[c.name].at),
                },
            }
            for c in gd.roster
        ],
        "exits": exits_json(st),
        "sheriff": st.sheriff,
        "barred_today": sorted(st.barred.get(st.number, set())) if st.phase == "day" else [],
        "potions_left": [p for p in ("save", "poison") if p not in st.potions_used],
        "pending": [{"kind": p.kind, "who": p.who, "due": fmt(p.due) if p.due else None} for p in st.pending],
        "next": next_steps(gd, st),
        "winner": st.winner,
        "problems": [str(p) for p in damage(st.problems)],
        "refused": [str(p) for p in refusals(st.problems)],
        "warnings": [str(p) for p in st.warnings],
    }


def status_text(gd: GameDir, st: State) -> str:
    lines = [f"{gd.game.name}：{phase_label(st)}"]
    if st.winner:
        lines.append(f"胜者：{gd.game.data['camps'][st.winner]['name']}（{fmt(st.ended_at, False)}）")
    lines.append(f"警长：{st.sheriff or '无'}")
    if st.barred.get(st.number) and st.phase == "day":
        lines.append(f"今天不得投票（替罪羊指定）：{'、'.join(sorted(st.barred[st.number]))}")
    left = [{"save": "救药", "poison": "毒药"}[p] for p in ("save", "poison") if p not in st.potions_used]
    lines.append(f"女巫药剂：{'、'.join(left) if left else '已用完'}")
    lines.append(f"场上（{len(st.alive)}）：" + "、".join(f"{n}（{gd.game.role_name(_role(gd, n))}）" for n in st.alive))
    if st.exits:
        lines.append("已出局：")
        for e in st.exits:
            where = f"第 {e.number} {'天' if e.phase == 'day' else '夜'}"
            lines.append(f"  {e.name}（{gd.game.role_name(_role(gd, e.name))}）{where} {fmt(e.at, False)} {PRIVATE_CAUSES[e.cause]}")
    lines.append("下一步：")
    lines += [f"  - {s}" for s in next_steps(gd, st)]
    for p in damage(st.problems):
        lines.append(f"有问题：{p}")
    for p in st.warnings:
        lines.append(f"提醒：{p}")
    return "\n".join(lines) + "\n" + refusals_text(st.problems)


def _role(gd: GameDir, name: str):
    c = gd.roster.get(name)
    return c.role if c else None

