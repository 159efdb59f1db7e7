"""``act`` and ``advance`` for M42: record the fact, replay, say what it did.

Both append facts only. A refused submission is appended all the same (the
record is complete) and the refusal is reported from replay.
"""

from __future__ import annotations

from datetime import datetime

from modtool import ledger
from modtool.gamefile import GameDir, open_game
from modtool.m42.engine import ABILITY_NAMES, WOLF_WORDS, State, replay
from modtool.problems import Problem, UserError
from modtool.timeutil import fmt

EXTRA_ABILITIES = ("bar", "last_words")
# How a director may write each ability in `act` (the ledger keeps the id); the first name is shown.
ABILITY_WORDS = {
    "kill": ["杀人", "杀", "刀", "指杀"], "save": ["救药", "救"], "poison": ["毒药", "毒"], "check": ["验人", "验", "查验"],
    "shoot": ["最后一枪", "开枪"], "successor": ["指定继任警长", "继任", "移交警徽"], "surrender": ["投降"],
    "bar": ["禁票"], "last_words": ["遗言"],
}


def act_arguments(gd: GameDir, actor: str, ability: str, targets: list[str]) -> tuple[str, str, list[str]]:
    """``act``'s ACTOR, ABILITY and TARGETS as the ledger keeps them (character names, the ability's id),
    or UserError naming the argument: a typo is refused before anything is written."""
    from modtool.arguments import character_arg, choice_arg

    ability = choice_arg(ability, ABILITY_WORDS, "技能 ABILITY", "这个技能")
    if not (ability == "kill" and actor in WOLF_WORDS):  # the wolves' kill may name the pack
        actor = character_arg(gd.roster, actor, "角色 ACTOR")
    return actor, ability, [character_arg(gd.roster, t, "目标 TARGETS") for t in targets]


def sound_state(gd: GameDir) -> State:
    """The replayed state, or UserError naming the damaged lines: nothing is written on a damaged ledger."""
    from modtool.soundness import require_sound

    if gd.problems:
        require_sound(gd)
    try:
        st = replay(gd)
    except UserError as exc:  # a line replay cannot read (an unparsable time)
        require_sound(gd, exc.problems)
        raise
    require_sound(gd, st.problems)
    return st


def _events_after(gd: GameDir, st: State, line: int | None) -> list[Problem]:
    return [p for p in st.problems if line is not None and p.line is not None and p.line >= line]


def record_act(game_dir, actor: str, ability: str, targets: list[str], at: datetime, night: int | None,
               text: str | None) -> tuple[State, list[Problem], GameDir, list]:
    gd = open_game(game_dir)
    actor, ability, targets = act_arguments(gd, actor, ability, targets)
    before = sound_state(gd)
    if ability == "bar":
        ev = {"type": "bar", "day": before.number + 1, "voters": list(targets), "at": fmt(at)}
    elif ability == "last_words":
        if not text:
            raise UserError("遗言需要 --text 给出内容")
        ev = {"type": "last_words", "character": actor, "text": text, "at": fmt(at)}
    else:
        if len(targets) > 1:
            raise UserError(f"<{ABILITY_NAMES[ability]}>只能选一个目标")
        ev = {"type": "act"}
        if night is not None or before.phase == "night":
            ev["night"] = night if night is not None else before.number
        ev.update(actor=actor, ability=ability)
        if targets:
            ev["target"] = targets[0]
        ev["at"] = fmt(at)
    ledger.append(gd.ledger_path, [ev], expect_digest=gd.digest)
    gd = open_game(game_dir)
    st = replay(gd)
    new_line = gd.events[-1].line
    return st, _events_after(gd, st, new_line), gd, st.timeline[len(before.timeline):]


def record_event(game_dir, ev: dict, validate=None) -> tuple[State, list[Problem], GameDir]:
    """Append one director's fact, replay, and return what replay says of it.

    ``validate(state)``: raises UserError for a director's mistake the state
    shows (a card number that does not exist), before anything is written."""
    gd = open_game(game_dir)
    st = sound_state(gd)
    if validate is not None:
        validate(st)
    ledger.append(gd.ledger_path, [ev], expect_digest=gd.digest)
    gd = open_game(game_dir)
    st = replay(gd)
    return st, _events_after(gd, st, gd.events[-1].line), gd


def record_advance(game_dir, at: datetime) -> tuple[State, State, GameDir]:
    """Close the current phase; random draws it needs are recorded as ``draw`` events."""
    gd = open_game(game_dir)
    before = sound_state(gd)
    if before.over:
        raise UserError("游戏已经结束，不能再推进")
    ev = {"type": "advance", "phase": before.phase, "number": before.number, "at": fmt(at)}
    ledger.append(gd.ledger_path, [ev], expect_digest=gd.digest)
    gd = open_game(game_dir)
    after = replay(gd)
    recorded = {(e.data.get("for"), e.data.get("number")) for e in gd.of_type("draw")}
    draws = []
    for i, (_, name, how) in enumerate(after.sheriff_log):
        if how.startswith("随机") and ("sheriff", i) not in recorded:
            draws.append({"type": "draw", "for": "sheriff", "number": i, "chosen": name,
                          "note": f"种子 {gd.header.get('seed')} 抽出（M42-R9）"})
    if draws:
        ledger.append(gd.ledger_path, draws, expect_digest=gd.digest)
        gd = open_game(game_dir)
        after = replay(gd)
    return before, after, gd
