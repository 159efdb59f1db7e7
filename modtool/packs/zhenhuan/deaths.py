"""What a death sets off at once (ZH-R7, R9), transformations, and the win (ZH-R12)."""

from __future__ import annotations

from modtool.packs.zhenhuan.board import _MISSING, Board, _seat_of, _targets, _team_of
from modtool.packs.zhenhuan.rules import is_demon, name
from modtool.packs.zhenhuan.state import Death, Seat, Status


def kill(b: Board, n: int, cause: str) -> bool:
    """A character dies; what follows a death follows at once (ZH-R7, R9), then the win (ZH-R12)."""
    seat = b.seat(n)
    if not seat.alive or b.winner:
        return False
    seat.alive = False
    b.deaths.append(Death(n, cause, b.phase, b.number))
    b.death_order[n] = b.step_order
    executed = cause in ("execution", "vote", "chunyuan", "taihou", "qifei")
    b.log(f"{n}号（{seat.player}）被处决" if executed else f"{n}号（{seat.player}）死亡", public=True)
    _after_death(b, seat, cause)
    check_win(b)
    return True


def _after_death(b: Board, seat: Seat, cause: str):
    night = b.phase == "night"
    if seat.character == "huangshang":
        _empress_check(b)
    if seat.character == "kuangtu":
        b.kuangtu_dead = True
    if seat.character == "sundaying":
        _all_drunk(b, cause)
    if not night:
        return
    n = b.number
    if seat.character == "jingfei":
        # ZH-R9: 敬妃 dying at night learns the living evil characters.
        b.learned[(n, seat.number)] = [s.number for s in b.alive() if s.team == "evil"]
    if seat.character == "niangengyao":
        _nian_take(b, seat)
    if cause == "demon" and b.bound == seat.number:
        # ZH-R9: 玉娆 dies when the demon kills her first-night character, unless impaired.
        for y in b.by_character("yurao"):
            if y.alive and not b.impaired(y.number):
                kill(b, y.number, "yurao")


def _all_drunk(b: Board, cause: str):
    """ZH-R9: 孙答应's death makes every character drunk until the next dusk.

    Dying at night N or during day N: until dusk of day N (night N+1 begins);
    executed at dusk of day N: until dusk of day N+1.
    """
    at_dusk = b.phase == "day" and cause.startswith("execution")
    until = ("night", b.number + (2 if at_dusk else 1))
    for s in b.seats:
        s.statuses.append(Status("drunk", "sundaying", until, "孙答应死亡：全场醉酒"))
    b.log("孙答应死亡：全场醉酒至下一个黄昏", reveal=True)


def _nian_take(b: Board, seat: Seat):
    """ZH-R9: 年羹尧 dying at night takes one character (once; pinned: no take; impaired: nobody dies)."""
    n = b.number
    if seat.has("used") or any(st.kind == "pinned" for st in seat.statuses):
        return
    ev = b.acts(n, seat.number, "take")
    key = f"night{n}/take/seat{seat.number}"
    if ev is not None:
        targets = _targets(b, ev)
        target = targets[0] if targets else None
    else:
        ans = b.answer(key)
        if ans is _MISSING:
            b.ask(key, f"年羹尧（{seat.number}号）今夜死亡，可带走一名玩家：带走谁？（不带走请答「无」）",
                  [f"{s.number}号" for s in b.alive()] + ["无"])
            return
        target = _seat_of(ans)
    if target is None:
        return
    seat.statuses.append(Status("used", "niangengyao"))
    if any(st.kind in ("poisoned", "drunk") for st in seat.statuses):
        b.log(f"年羹尧（{seat.number}号）中毒/醉酒：选择了{target}号，但无人死亡")
        return
    kill(b, target, "nian_take")  # ZH-R4: protection does not stop the take


def _empress_check(b: Board):
    """ZH-R7: 皇上 dies with >= 5 alive, no 女皇 ever, 皇后 not impaired → 皇后 becomes 女皇 at once."""
    if b.empress_ever or len(b.alive()) < int(b.options.get("empress_min_alive", 5)):
        return
    for s in b.by_character("huanghou"):
        if s.alive and not b.impaired(s.number):
            transform(b, s, "nvhuang")
            b.empress_ever = True
            return


def transform(b: Board, seat: Seat, character: str, team: str | None = None):
    b.became[seat.number] = seat.character
    b.log(f"{seat.number}号 {name(seat.character)} → {name(character)}", reveal=True)
    seat.character = character
    seat.team = team or _team_of(character)
    check_win(b)


def check_win(b: Board):
    """ZH-R12: good when no demon lives and none arises at once; evil when two are alive and one is the demon."""
    if b.winner:
        return
    alive = b.alive()
    demons = [s for s in alive if is_demon(s.character)]
    if not demons and not b.pending_successor:
        _win(b, "good", "恶魔死亡且无新恶魔产生")
    elif demons and len(alive) <= 2:
        _win(b, "evil", "仅剩两名存活玩家且恶魔存活")


def _win(b: Board, team: str, why: str):
    b.winner = team
    b.log(f"{'善良' if team == 'good' else '邪恶'}阵营获胜：{why}", public=True)  # logged in the phase it happened
    b.phase = "over"
