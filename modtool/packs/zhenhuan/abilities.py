"""The 甄嬛 night abilities, one handler per waking character (ZH-R2..R10), and the dawn
revival and 玉娆's binding. ``engine.resolve_night`` calls them in ZH-R13 order."""

from __future__ import annotations

from modtool.packs.zhenhuan import rules
from modtool.packs.zhenhuan.board import _MISSING, Board, _seat_of, _targets
from modtool.packs.zhenhuan.deaths import check_win, kill, transform
from modtool.packs.zhenhuan.rules import is_demon, is_woman, name
from modtool.packs.zhenhuan.state import Seat, Status


def _anlingrong(b: Board, s: Seat, n: int):
    if not s.alive:
        return
    imp = b.impaired(s.number)
    # ZH-R2: 香粉 takes women only; a man is refused and she may choose again (G-R1).
    _, ts = b.choose(n, s.number, "poison", lambda ts: None if is_woman(b.seat(ts[0]).character)
                     else f"安陵容的香粉只能对女性使用（{ts[0]}号不是女性角色，ZH-R2）")
    for t in ts[:1]:
        if imp:
            b.log(f"安陵容（{s.number}号）受影响：香粉无效（ZH-R3）")
        else:  # ZH-R3: poison lasts until the next night begins
            b.seat(t).statuses.append(Status("poisoned", "anlingrong", ("night", n + 1)))
    _, ts = b.choose(n, s.number, "curse")
    for t in ts[:1]:
        if imp:
            b.log(f"安陵容（{s.number}号）受影响：诅咒无效（ZH-R3）")
        else:
            b.curses.setdefault(n + 1, []).append(t)


def _guojunwang(b: Board, s: Seat, n: int):
    """ZH-R4: protects one other character, never the same one two nights running (G-R1: a
    refused choice is not "last night's", and the last valid one of the night counts)."""
    if not s.alive:
        return
    last = b.protected.get(n - 1)

    def judge(ts):
        if ts[0] == s.number:
            return "果郡王不可保护自己（ZH-R4）"
        if last and last[0] == s.number and last[1] == ts[0]:
            return f"果郡王不可连续两晚保护同一人（{ts[0]}号昨夜已被保护，ZH-R4）"
        return None

    ev, ts = b.choose(n, s.number, "protect", judge)
    if ev is None:
        return
    t = ts[0]
    b.protected[n] = (s.number, t)
    if b.impaired(s.number):
        b.log(f"果郡王（{s.number}号）受影响：保护无效（ZH-R3）")
        return
    b.seat(t).statuses.append(Status("protected", "guojunwang", ("day", n)))


def _huafei(b: Board, s: Seat, n: int):
    _, ts = b.choose(n, s.number, "yizhanghong")
    if s.alive and ts and not b.impaired(s.number):  # ZH-R10: dies if it nominates the next day
        b.seat(ts[0]).statuses.append(Status("yizhanghong", "huafei", ("night", n + 1)))


def _chongfei(b: Board, s: Seat, n: int):
    """宠妃 pins one character (not the same one two nights running): ZH-R3. ZH-R3a: the pin
    lasts 「本回合」, that night and the day after it, until the next night begins."""
    if not s.alive:
        return
    last = b.pinned_by.get(n - 1)
    ev, ts = b.choose(n, s.number, "pin", lambda ts: "宠妃不可连续两晚按住同一人（ZH-R3）"
                      if last and last[0] == s.number and last[1] == ts[0] else None)
    if ev is None:
        return
    b.pinned_by[n] = (s.number, ts[0])
    if b.impaired(s.number):
        return
    until = ("day", n) if b.options.get("pin_until") == "day" else ("night", n + 1)  # ZH-R3a
    b.seat(ts[0]).statuses.append(Status("pinned", "chongfei", until))


def _sanage(b: Board, s: Seat, n: int):
    """ZH-R8: 染指 a nearest living neighbour, from night 2 (G-R1: a refused choice may be made again)."""
    if not s.alive or n < 2:
        return
    left, right = b.neighbours(s.number)
    near = {x.number for x in (left, right) if x is not None}
    ev, ts = b.choose(n, s.number, "ranzhi", lambda ts: None if ts[0] in near
                      else f"三阿哥只能染指左右最近的存活玩家（{'、'.join(f'{x}号' for x in sorted(near))}，ZH-R8）")
    if ev is None:
        return
    t = b.seat(ts[0])
    rec = b.ranzhi.setdefault(n, {})
    if b.impaired(s.number) or t.has("protected"):  # ZH-R8 impaired / ZH-R4 protected: no effect, no death
        rec[s.number] = (t.number, None)
        return
    if t.character in ("nvhuang", "zhenhuan"):
        rec[s.number] = (t.number, "失败")
        kill(b, s.number, "sanage")
        return
    if rules.ranzhi_fails(t.character):
        rec[s.number] = (t.number, "失败")
        return
    rec[s.number] = (t.number, "成功")
    if t.character == "chongfei":  # back to her dealt character and its team
        transform(b, t, t.original)


def _demon(b: Board, s: Seat, n: int):
    """ZH-R6: the demon's step: 雨露均沾 (皇上, once, also night 1) and the kill (not night 1)."""
    if not s.alive:
        return
    if s.character == "huangshang":
        _favour(b, s, n)
    if (n == 1 and not b.options.get("first_night_demon_kills")) or not s.alive:
        return
    _, ts = b.choose(n, s.number, "kill")
    if not ts:
        return
    if b.impaired(s.number):
        b.log(f"恶魔（{s.number}号）受影响：杀人无效（ZH-R3）")
        return
    t = b.seat(ts[0])
    if not t.alive or t.has("protected"):  # ZH-R4
        return
    if t.number == s.number:  # ZH-R6 self-kill
        if s.character == "taishanghuang":
            b.pending_successor = True
            kill(b, s.number, "self")
            _successor(b, s, n)
        else:
            kill(b, s.number, "self")
        return
    if t.character == "zhenhuan" and not b.impaired(t.number) and (
        s.character == "huangshang" or (s.character == "nvhuang" and b.became.get(s.number) == "huanghou")
        or (s.character == "taishanghuang" and b.options.get("zhenhuan_counters_taishanghuang"))
    ):
        # ZH-R5: 甄嬛 survives, becomes 女皇 first (so 皇后 cannot: ZH-R7), the killer dies.
        transform(b, t, "nvhuang")
        b.empress_ever = True
        kill(b, s.number, "counter")
        return
    kill(b, t.number, "demon")


def _successor(b: Board, s: Seat, n: int):
    """ZH-R6: after 太上皇's self-kill the storyteller names who becomes 皇上 (a Question)."""
    key = f"night{n}/successor"
    ans = b.answer(key)
    if ans is _MISSING:
        b.ask(key, f"太上皇（{s.number}号）自杀：由哪位玩家（上一个白天与说书人私聊者）成为新的皇上？",
              [f"{x.number}号" for x in b.alive()])
        return
    b.pending_successor = False
    t = _seat_of(ans)
    if t is not None and b.seat(t).alive:
        transform(b, b.seat(t), "huangshang", "evil")
    else:
        check_win(b)


def _favour(b: Board, s: Seat, n: int):
    """ZH-R6 雨露均沾: once, a woman joins evil as 宠妃 (ZH-R2 women only; ZH-R4 protected: no effect).
    G-R1: a man refused is not a use; 皇上 may choose again."""
    if s.has("used"):
        return
    ev, ts = b.choose(n, s.number, "favour", lambda ts: None if is_woman(b.seat(ts[0]).character)
                      else f"雨露均沾只能选择女性角色（{ts[0]}号不是，ZH-R2）")
    if ev is None:
        return
    t = b.seat(ts[0])
    s.statuses.append(Status("used", "huangshang"))
    if b.impaired(s.number) or not t.alive or t.has("protected"):
        return
    # ZH-R8: 三阿哥 染指 the same target the same night → caught, dies; the 宠妃 stays.
    for sa, (target, result) in b.ranzhi.get(n, {}).items():
        if target == t.number and result is not None:
            kill(b, sa, "sanage_caught")
    transform(b, t, "chongfei", "evil")


def _qiguiren(b: Board, s: Seat, n: int):
    """ZH-R10: a right accusation → a character of the storyteller's choosing dies that night (Question)."""
    if s.number not in b.qi_right.get(n, []):
        return
    key = f"night{n}/qi_victim"
    ans = b.answer(key)
    if ans is _MISSING:
        b.ask(key, f"祺贵人（{s.number}号）昨日检举正确：今夜由说书人决定谁死亡？", [f"{x.number}号" for x in b.alive()])
        return
    t = _seat_of(ans)
    if t is not None:
        kill(b, t, "qi_accused")


def _yelanyi(b: Board, s: Seat, n: int):
    """ZH-R10 叶澜依 (once): choose a dead character; revival happens at dawn (_revive)."""
    if not s.alive or s.has("used"):
        return
    _, ts = b.choose(n, s.number, "revive")
    if not ts:
        return
    s.statuses.append(Status("used", "yelanyi"))
    t = b.seat(ts[0])
    if b.impaired(s.number) or t.alive or is_demon(t.character):  # spent, nobody revives
        return
    b.learned[(n, "revive")] = t.number


def _revive(b: Board, n: int):
    t = b.learned.get((n, "revive"))
    if t is None or b.winner:
        return
    seat = b.seat(t)
    seat.alive = True
    seat.ghost_vote = True
    seat.statuses = [st for st in seat.statuses if st.kind != "used"]  # abilities reset
    b.log(f"{t}号（{seat.player}）被叶澜依复活", public=True)
    check_win(b)


def _yurao_bind(b: Board):
    """玉娆's first-night good character: the storyteller's choice (a Question); bound even if pinned."""
    key = "night1/yurao_bind"
    ans = b.answer(key)
    if ans is _MISSING:
        ys = b.by_character("yurao")
        b.ask(key, f"玉娆（{ys[0].number}号）首夜得知哪位善良玩家的身份？",
              [f"{x.number}号" for x in b.seats if x.team == "good" and x.character != "yurao"])
        return
    b.bound = _seat_of(ans)


def _checker(b: Board, s: Seat, n: int):
    """瑾汐 (two players) and 温太医 (one): the choice that counts for the night sheet's truth (G-R1)."""
    if not s.alive:
        return
    want = 2 if s.character == "jinxi" else 1
    b.choose(n, s.number, "check", lambda ts: None if len(ts) == want
             else f"{name(s.character)}应选择 {want} 名玩家（这次是 {len(ts)} 名）")


FIRST = {"anlingrong": _anlingrong, "guojunwang": _guojunwang, "huafei": _huafei, "huangshang": _demon,
         "jinxi": _checker, "wentaiyi": _checker}
OTHER = {
    "chongfei": _chongfei, "anlingrong": _anlingrong, "guojunwang": _guojunwang, "huafei": _huafei,
    "sanage": _sanage, "huangshang": _demon, "taishanghuang": _demon, "nvhuang": _demon,
    "qiguiren": _qiguiren, "yelanyi": _yelanyi, "jinxi": _checker, "wentaiyi": _checker,
}
