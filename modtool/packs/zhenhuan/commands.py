"""The storyteller's commands for the 甄嬛 script: record a fact, replay, report.

Every command appends a fact (a choice, the information given, an answer to
a question, a nomination, a vote, the close of a phase); the grimoire is
always the replay of them. Questions the rules leave to the storyteller are
shown, never answered by the tool (discretion is an event).
"""

from __future__ import annotations

from datetime import datetime

from modtool.sdk import (
    choice_arg, fmt, fold_name, GameDir, hint, Listing, Message, number_of, open_game, Problem,
    record as record_fact, refuse, require_sound, t, UserError,
)
from modtool.packs.zhenhuan.board import _seat_of, NO_WORDS, YES_WORDS
from modtool.packs.zhenhuan.game import DAY_ABILITIES, NIGHT_ABILITIES, replay, seats_of
from modtool.packs.zhenhuan.night import night_steps
from modtool.packs.zhenhuan.windows import arrival_refusal


def _seat(gd: GameDir, label: str, argument: str = "座位") -> int:
    """A seat by number ("3", "3号") or by player name; refused before writing otherwise, with a hint."""
    seats = seats_of(gd)
    n = number_of(str(label))
    if n is not None:
        if 1 <= n <= len(seats):
            return n
        raise refuse(argument, "没有 {label} 号座位（本局是 1～{n_seats} 号）", label=label, n_seats=len(seats))
    hits = [s["seat"] for s in seats if fold_name(str(s.get("player"))) == fold_name(str(label))]
    if len(hits) == 1:
        return hits[0]
    players = [str(s.get("player")) for s in seats]
    raise refuse(argument, "「{label}」不是座位号或玩家名（1～{n_seats} 号）{hint}", label=label, n_seats=len(seats), hint=hint(str(label), players))


def ability_words(gd: GameDir, phase: str) -> dict[str, list[str]]:
    """The abilities recorded in ``phase`` (night|day): id -> the Chinese names a storyteller may write."""
    names = (gd.game.data.get("ability_names") or {}).get(phase) or {}
    return {a: list(names.get(a, [])) for a in (NIGHT_ABILITIES if phase == "night" else DAY_ABILITIES)}


def ability_label(gd: GameDir, ability: str) -> str:
    """An ability's Chinese name (its id when the game data names none)."""
    for phase in ("night", "day"):
        words = ability_words(gd, phase).get(ability)
        if words:
            return words[0]
    return ability


def _open_zh(game_dir) -> GameDir:
    """The game folder, refused unless it is a 甄嬛 game (another game's host reads why in its language)."""
    gd = open_game(game_dir)
    if gd.game.id != "zhenhuan":
        raise UserError("这个命令目前只支持 {games}，这局是 {game}", games="zhenhuan", game=gd.game.id)
    return gd


def record(game_dir, ev: dict) -> tuple[GameDir, object, list[Problem]]:
    """Append ``ev``; return the replayed board and the problems replay finds with it."""
    gd = open_game(game_dir)
    require_sound(gd)  # nothing is written on a damaged ledger
    record_fact(gd, [ev])
    gd = open_game(game_dir)
    board, problems = replay(gd)
    line = gd.events[-1].line if gd.events else None
    return gd, board, [p for p in problems if p.line is not None and line is not None and p.line >= line]


def _target_counts(board, seat: int, ability: str) -> tuple[int, ...]:
    """How many targets ``ability`` takes: 瑾汐 checks two players, 温太医 one (ZH-R13); the
    storyteller's ``not_complied`` may name the silenced seat or not (modtool.packs.zhenhuan.day);
    every other ability one."""
    if ability == "check":
        return (2,) if board.seat(seat).character == "jinxi" else (1,)
    return (0, 1) if ability == "not_complied" else (1,)


def act(game_dir, seat: str, ability: str, targets: list[str], at: datetime | None, guess: str | None,
        night: int | None = None):
    gd = _open_zh(game_dir)
    board, _ = replay(gd)
    if night is not None and (board.phase != "night" or night != board.number):
        # ZH-R13: only tonight's choices are recorded; another night would be written as tonight's.
        now = f"第 {board.number} {'夜' if board.phase == 'night' else '天'}" if board.phase != "over" else "游戏已结束"
        raise refuse("--night", "只能记录当前这一夜的行动，不是第 {night} 夜（现在是{now}）", night=night, now=now)
    n = _seat(gd, seat, "座位 ACTOR")
    tseats = [_seat(gd, t, "目标 TARGETS") for t in targets]
    when = {"at": fmt(at)} if at else {}
    if board.phase in ("night", "day"):
        # Only the abilities of this phase: a day ability written at night would be a line replay cannot use.
        phase_name = "夜晚" if board.phase == "night" else "白天"
        other, other_name = ("day", "白天") if board.phase == "night" else ("night", "夜晚")
        try:
            ability = choice_arg(ability, ability_words(gd, board.phase), "技能 ABILITY", f"{phase_name}可以记录的技能")
        except UserError:
            try:  # an ability of the other phase: say so (ZH-R13), rather than "no such ability"
                elsewhere = choice_arg(ability, ability_words(gd, other), "技能 ABILITY", "")
            except UserError:
                elsewhere = None
            if elsewhere is None:
                raise
            raise refuse("技能 ABILITY", "「{ability_label}」是{other_name}的技能，现在是第 {number} {value}（ZH-R13）", ability_label=ability_label(gd, elsewhere), other_name=other_name, number=board.number, value='夜' if board.phase == 'night' else '天') from None
    if board.phase in ("night", "day") and 1 <= n <= len(board.seats):
        counts = _target_counts(board, n, ability)
        if len(tseats) not in counts:
            raise refuse("目标 TARGETS", "「{ability_label}」要选 {map} 名玩家，这次给了 {n_tseats} 名", ability_label=ability_label(gd, ability), map='或'.join(map(str, counts)), n_tseats=len(tseats))
    if board.phase == "night":
        ev = {"type": "night_action", "night": board.number, "seat": n, "ability": ability, "targets": tseats, **when}
    elif board.phase == "day":
        ev = {"type": "day_action", "day": board.number, "seat": n, "ability": ability, "targets": tseats, **when}
        if guess:
            ev["guess"] = guess
    else:
        raise UserError("游戏已经结束")

    why = arrival_refusal(gd, board, board.phase, board.number, n, ability)
    if why:  # outside the ability's window: the storyteller's slip, refused before writing
        raise UserError(Problem("命令行", "不受理（未写入账本）：{n}号 {ability}：{why}", n=n, ability=ability, why=why))
    return record(game_dir, ev)


def info(game_dir, seat: str, given: str):
    gd = _open_zh(game_dir)
    board, _ = replay(gd)
    if board.phase != "night":
        raise UserError("只能在夜晚记录给出的信息")
    n = _seat(gd, seat, "座位 SEAT")

    woken = sorted({s.seat for s in night_steps(board, gd.game.data) if s.seat})
    if n not in woken:  # nobody tells a seat the night does not wake: a typo of the seat

        raise refuse("座位 SEAT", "第 {night} 夜不唤醒 {seat}号，没有要告诉这个座位的信息；今夜唤醒的：{woken}", night=board.number, seat=n, woken=Listing(f"{w}号" for w in woken) or Message("没有"))
    return record(game_dir, {"type": "info", "night": board.number, "seat": n, "given": given})


def answer(game_dir, key: str, value: str):
    gd = _open_zh(game_dir)
    board, _ = replay(gd)
    q = next((q for q in board.questions if q.key == key), None)
    if q is None:
        keys = "、".join(q.key for q in board.questions) or "（现在没有待回答的问题）"
        raise UserError("没有待回答的问题「{key}」；当前的问题：{keys}", key=key, keys=keys)
    answer_choice(q, value)
    return record(game_dir, {"type": "answer", "key": key, "value": value})


def answer_choice(q, value: str) -> None:
    """An answer must be one the question offers (a typo is never the storyteller's decision):
    a yes/no question takes a yes or a no word; a question offering seats takes one of them
    (「8」「8号」, or 「无」 where offered); one about the information given (ZH-R3) takes any
    text, the storyteller may word it. Refused naming the choices, nothing written."""
    import regex

    opts = [str(o) for o in q.options]
    word = fold_name(value).strip().lower()
    shown = t("、").join(opts)
    if opts == ["是", "否"]:
        if word not in YES_WORDS and word not in NO_WORDS:
            raise refuse("答案 VALUE", "「{value}」不是「{key}」可选的答案；可选：{choices}", value=value, key=q.key, choices=shown)
        return
    if opts and all(regex.fullmatch(r"\d+号|无", o) for o in opts):
        seats = {_seat_of(o) for o in opts if o != "无"}
        if not ((word in ("无", "none") and "无" in opts) or (_seat_of(word) in seats and _seat_of(word) is not None)):
            raise refuse("答案 VALUE", "「{value}」不是「{key}」可选的答案；可选：{choices}", value=value, key=q.key, choices=shown)


def _day_fact(game_dir, kind: str, who_key: str, who: str, nominee: str, at: datetime | None):
    """A nomination or a vote (ZH-R11), recorded for the open day."""
    gd = _open_zh(game_dir)
    board, _ = replay(gd)
    if board.phase != "day":
        raise UserError("只能在白天提名" if kind == "nominate" else "只能在白天投票")
    ev = {"type": kind, "day": board.number, who_key: _seat(gd, who, "座位"), "nominee": _seat(gd, nominee, "被提名者 NOMINEE")}
    if at:
        ev["at"] = fmt(at)
    return record(game_dir, ev)


def nominate(game_dir, nominator: str, nominee: str, at: datetime | None):
    return _day_fact(game_dir, "nominate", "nominator", nominator, nominee, at)


def vote(game_dir, voter: str, nominee: str, at: datetime | None):
    return _day_fact(game_dir, "vote", "voter", voter, nominee, at)


def advance(game_dir, at: datetime | None):
    gd = _open_zh(game_dir)
    before, _ = replay(gd)
    if before.phase == "over":
        raise UserError("游戏已经结束，不能再推进")
    if before.questions:
        open_q = "；".join(f"{q.key}：{q.text}" for q in before.questions)
        raise UserError("还有说书人必须回答的问题，先用 modtool answer 回答：{open_q}", open_q=open_q)
    ev = {"type": "advance", "phase": before.phase, "number": before.number}
    if at:
        ev["at"] = fmt(at)
    gd, after, problems = record(game_dir, ev)
    return before, after, problems, gd
