"""The 甄嬛 public posts (``dawn``, ``nominations``, ``execution``) and the ``end`` post.

Public posts are built from seat numbers, player names, deaths without causes and votes only:
no character, team, reminder or night target of anyone. The ``end`` post, once there is a
winner, reveals everything."""

from __future__ import annotations

from modtool.sdk import capped, GameDir, list_limit, more_text, UserError
from modtool.packs.zhenhuan.history import _after_night, day_report
from modtool.packs.zhenhuan.view_labels import CAUSE, _camp, _dir, _ordinal, _who, cn, phase_label


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
    invalid, more = capped(invalid, list_limit(gd))  # a long list is summarised (「……另有 N 条」)
    return {"game_name": gd.game.name, "day": day, "closed": closed, "nominations": noms, "invalid": invalid,
            "invalid_more": more_text(more, "条") if more else "", "result": _result_text(b, rep, closed)}


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
        raise UserError("第 {day} 天还没有结束（黄昏结算：modtool advance {dir}）", day=day, dir=_dir(gd))
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
    """The end post's timeline: what the town saw and the grimoire's role changes, each labelled
    with the phase it happened in (ZH-R13: night 1, day 1, night 2, …; a curse death at the start
    of night 3 is night 3's). Storyteller notes (reminders, impairment notes) stay out (principle 6)."""
    out = []
    for (_, text, public), (phase, number, shown) in zip(board.timeline, board.timeline_when):
        if not shown:
            continue
        label = f"第 {number} {'夜' if phase == 'night' else '天'}" if phase in ("night", "day") else ""
        out.append({"phase": label, "text": text, "public": public})
    return out


def end(gd: GameDir, board) -> dict:
    """The end post: the winner and the whole grimoire revealed, with the timeline."""
    if not board.winner:
        raise UserError("游戏还没有结束（当前：{phase_label}）", phase_label=phase_label(board))
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
