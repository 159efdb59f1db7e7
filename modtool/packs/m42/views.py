"""What each post is allowed to know (secrets stay secret).

Public posts get ``public_view``: who is in, who is out (in exit order, with
the public wording only), the sheriff, last words, votes. No role or camp of
a character still in, no night target, no potion or check: a public template
cannot leak what it was never given. Private notices get exactly what their
one reader may know. The end post, when the game is over, reveals everything.
"""

from __future__ import annotations

from modtool.sdk import fmt, GameDir, UserError
from modtool.packs.m42.cards import COLORS, standing
from modtool.packs.m42.discipline import schedule_json
from modtool.packs.m42.engine import PRIVATE_CAUSES, Engine, Exit, State, fmt_short, phase_label


def _exit_public(e: Exit) -> dict:
    return {"name": e.name, "cause": e.public_cause, "when": f"第 {e.number} {'天' if e.phase == 'day' else '夜'}"}


def public_view(gd: GameDir, st: State) -> dict:
    return {
        "game_name": gd.game.name,
        "phase": phase_label(st),
        "day": st.number,
        "alive": list(st.alive),
        "exits": [_exit_public(e) for e in st.exits],
        "sheriff": st.sheriff,
        "over": st.over,
    }


def day_start(gd: GameDir, st: State, day: int) -> dict:
    """M42-R10/R15: the exits since the previous day opened, in exit order, with last words."""
    if day < 2 or day not in st.days or st.days[day].opened is None:
        raise UserError("第 {day} 天还没有开始（开始帖从第 2 天起，在 advance 开始新的一天之后）", day=day)
    opened, prev = st.days[day].opened, st.days[day - 1]
    since = prev.opened
    exits = [e for e in st.exits if (since is None or e.at >= since) and e.at <= opened]
    view = public_view(gd, st)
    view.update(
        day=day,
        opened=fmt(opened, False),
        exits_today=[_exit_public(e) for e in exits],
        last_words=[{"name": e.name, "posts": [w["text"] for w in st.last_words.get(e.name, [])],
                     "no_right": e.cause == "redcard"} for e in exits],
        alive=list(st.days[day].alive_at_open),
        sheriff=_sheriff_at(st, opened),
        barred=sorted(st.barred.get(day, set())),  # M42-R8: announced with the scapegoat's exile
    )
    return view


def _sheriff_at(st: State, at) -> str | None:
    name = None
    for when, who, _ in st.sheriff_log:
        if when <= at:
            name = who
    return name


def succession(gd: GameDir, st: State) -> dict:
    if len(st.sheriff_log) < 2:
        raise UserError("还没有警长继任")
    at, name, how = st.sheriff_log[-1]
    view = public_view(gd, st)
    previous = st.sheriff_log[-2][1]
    view.update(previous=previous, successor=name, how="随机继任" if how.startswith("随机") else "指定继任", at=fmt(at, False))
    return view


def end(gd: GameDir, st: State) -> dict:
    if not st.over:
        raise UserError("游戏还没有结束（当前：{phase_label}）", phase_label=phase_label(st))
    camps = gd.game.data["camps"]
    exits = {e.name: e for e in st.exits}
    return {
        "game_name": gd.game.name,
        "winner": camps[st.winner]["name"],
        "ended": fmt(st.ended_at, False),
        "cast": [
            {
                "name": c.name,
                "account": c.account,
                "role": gd.game.role_name(c.role),
                "camp": camps[gd.game.camp_of(c.role)]["name"],
                "fate": "存活" if c.name in st.alive else f"第 {exits[c.name].number} {'天' if exits[c.name].phase == 'day' else '夜'}{PRIVATE_CAUSES[exits[c.name].cause]}",
            }
            for c in gd.roster
        ],
        # In time order (a fact recorded late sits at its time; ties keep the replay's order),
        # without the lines of withdrawn or waived cards (M42-R13, R14).
        "timeline": [{"at": fmt(m.at, False), "text": m.text}
                     for m in sorted(st.timeline, key=lambda m: m.at) if not (m.card is not None and m.card.withdrawn)],
    }



# -- private notices ---------------------------------------------------------------


def role_cards(gd: GameDir, st: State, character: str | None = None) -> dict:
    """Every character's role card, or only ``character``'s (a name or alias): one message to send."""
    wolves = [c.name for c in gd.roster if c.role == "werewolf"]
    chosen = list(gd.roster)
    if character is not None:
        chosen = gd.roster.lookup(character)
        if not chosen:
            raise UserError("名单上没有「{character}」；角色：{value}", character=character, value='、'.join((c.name for c in gd.roster)))
    cards = []
    for c in chosen:
        role = gd.game.roles.get(c.role, {})
        cards.append({
            "name": c.name,
            "account": c.account,
            "role": role.get("name", c.role),
            "camp": gd.game.data["camps"][role.get("camp")]["name"] if role.get("camp") else "",
            "text": role.get("text", ""),
            "team": [w for w in wolves if w != c.name] if c.role == "werewolf" else [],
        })
    return {"game_name": gd.game.name, "cards": cards}


def _night(st: State, night: int):
    rec = st.nights.get(night)
    if rec is None:
        raise UserError("第 {night} 夜还没有开始", night=night)
    return rec


def witch_notice(gd: GameDir, st: State, night: int) -> dict:
    rec = _night(st, night)
    witch = next((c.name for c in gd.roster if c.role == "witch"), None)
    due = Engine(gd, st).witch_due(night)  # M42-R15, as the engine counts it
    return {"game_name": gd.game.name, "night": night, "witch": witch, "kill": rec.kill,
            "save_left": "save" not in st.potions_used or "save" in rec.used,
            "poison_left": "poison" not in st.potions_used or "poison" in rec.used,
            "due": fmt_short(due)}


def seer_result(gd: GameDir, st: State, night: int) -> dict:
    rec = _night(st, night)
    if not rec.checks:
        raise UserError("第 {night} 夜预言家没有查验", night=night)
    c = rec.checks[-1]
    return {"game_name": gd.game.name, "night": night, "seer": c["seer"], "target": c["target"], "result": c["result"]}


def wolves_result(gd: GameDir, st: State, night: int) -> dict:
    rec = _night(st, night)
    if not rec.resolved:
        raise UserError("第 {night} 夜还没有结算（先 modtool advance）", night=night)
    out = any(e.name == rec.kill and e.cause == "kill" for e in rec.exits)
    return {"game_name": gd.game.name, "night": night, "kill": rec.kill, "out": out,
            "wolves": [c.name for c in gd.roster if c.role == "werewolf"]}


def prompt(gd: GameDir, st: State, kind: str) -> dict:
    want = {"hunter": "shoot", "sheriff": "successor"}[kind]
    p = next((p for p in st.pending if p.kind == want), None)
    if p is None:
        raise UserError("现在没有需要发出的猎人开枪通知" if kind == "hunter" else "现在没有需要发出的警长继任通知")
    return {"game_name": gd.game.name, "who": p.who, "due": fmt_short(p.due) if p.due else "下一个讨论日开始前",
            "alive": [n for n in st.alive if n != p.who]}


# -- the discipline desk's posts (M42-R13..R15) ---------------------------------------


def cards_post(gd: GameDir, st: State, day: int) -> dict:
    """Cards of one discussion day (given while it was open, and the lurking yellows at its close)."""
    rec = st.days.get(day)
    if rec is None or rec.opened is None:
        raise UserError("第 {day} 天还没有开始", day=day)
    nxt = st.days.get(day + 1)
    until = nxt.opened if nxt is not None and nxt.opened else None
    rows = []
    for c in st.cards:
        if c.at < rec.opened or (until is not None and c.at >= until):
            continue
        mine = [k for k in st.cards[: st.cards.index(c) + 1] if k.character == c.character]
        t = standing(mine)
        rows.append({"number": c.number, "name": c.character, "color": COLORS[c.color], "reason": c.reason,
                     "floor": c.floor, "withdrawn": c.withdrawn,
                     "standing": f"蓝 {t.blue}、黄 {t.yellow}、红 {t.red}", "merged": t.merged[-1] if t.merged and
                     t.merged[-1].startswith(c.at.strftime("%m-%d %H:%M")) else ""})
    reds = [e.name for e in st.exits if e.cause == "redcard" and e.at >= rec.opened and (until is None or e.at < until)]
    return {"game_name": gd.game.name, "day": day, "cards": rows, "reds": reds}


def speed_post(gd: GameDir, st: State, day: int) -> dict:
    j = schedule_json(gd, st, day)
    decided = [d for d in j["decisions"] if d["count"]]
    return {"game_name": gd.game.name, "day": day, "decisions": decided, "sped_up": j["sped_up"],
            "delayed": j["delayed"], "close": j["close"][:16]}


def schedule_post(gd: GameDir, st: State, day: int) -> dict:
    j = schedule_json(gd, st, day)
    return {"game_name": gd.game.name, "day": day, "opens": j["opens"][:16], "natural_days": j["natural_days_label"],
            "weekend": j["weekend_extended"], "cutoff": j["cutoff"][11:16], "freeze": j["freeze"][:16],
            "close": j["close"][:16], "sped_up": j["sped_up"]}


def card_notice(gd: GameDir, st: State, number: int | None) -> dict:
    if not st.cards:
        raise UserError("还没有任何判罚")
    card = st.cards[-1] if number is None else next((c for c in st.cards if c.number == number), None)
    if card is None:
        raise UserError("没有第 {number} 张牌（modtool cards 列出编号）", number=number)
    t = standing([k for k in st.cards[: st.cards.index(card) + 1] if k.character == card.character])
    account = gd.roster.get(card.character).account
    return {"game_name": gd.game.name, "name": card.character, "account": account, "color": COLORS[card.color],
            "reason": card.reason, "floor": card.floor, "standing": f"蓝 {t.blue}、黄 {t.yellow}、红 {t.red}",
            "out": card.character not in st.alive and any(e.name == card.character and e.cause == "redcard" for e in st.exits)}
