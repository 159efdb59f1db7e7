"""甄嬛 rule defects found on the way (issue 15, point 6): 敬妃's dying knowledge whatever kills
her at night (ZH-R9, ZH-R13), the day's deaths and drunks shown when they happen (ZH-R10, ZH-R3),
and the public end post (principle 6, ZH-R13 numbering)."""

from __future__ import annotations

import pytest

from modtool.zhenhuan import views
from modtool.zhenhuan.night import night_steps
from tests.test_zh_posts import load, write

# 敬妃 in seat 1; the evil team is 2 (皇上) and 3 (a minion); 6 seats, no first-night evil info.
JINGFEI_DEATHS = {
    # way: (characters of seats 1..6, events), 敬妃 dying on night 2 each time
    "demon": (["jingfei", "huangshang", "huafei", "guojunwang", "yelanyi", "qifei"],
              [("a", 2, 2, "kill", 1)]),
    "curse": (["jingfei", "huangshang", "anlingrong", "guojunwang", "yelanyi", "qifei"],
              [("a", 1, 3, "curse", 1)]),  # ZH-R13: the curse death is a night-start effect of night 2
    "nian_take": (["jingfei", "huangshang", "huafei", "niangengyao", "yelanyi", "qifei"],
                  [("a", 2, 2, "kill", 4), ("a", 2, 4, "take", 1)]),
    "qi_accused": (["jingfei", "huangshang", "huafei", "qiguiren", "yelanyi", "guojunwang"],
                   [("accuse", 1, 4, 3, "huafei"), ("answer", "night2/qi_victim", "1号")]),
}


def _events(spec) -> list[dict]:
    night1, day1, night2 = [], [], []
    for item in spec:
        if item[0] == "a":
            _, night, seat, ability, target = item
            (night1 if night == 1 else night2).append(
                {"type": "night_action", "night": night, "seat": seat, "ability": ability, "targets": [target]})
        elif item[0] == "accuse":
            _, day, seat, target, guess = item
            day1.append({"type": "day_action", "day": day, "seat": seat, "ability": "accuse", "targets": [target],
                         "guess": guess})
        else:
            night2.append({"type": "answer", "key": item[1], "value": item[2]})
    return (night1 + [{"type": "advance", "phase": "night", "number": 1}] + day1
            + [{"type": "advance", "phase": "day", "number": 1}] + night2)


@pytest.mark.parametrize("way", sorted(JINGFEI_DEATHS))
def test_zh_r9_jingfei_dying_at_night_learns_the_living_evil_whatever_kills_her(tmp_path, way):
    chars, spec = JINGFEI_DEATHS[way]
    seats = [(f"P{i}", c) for i, c in enumerate(chars, start=1)]
    gd, board = load(write(tmp_path, _events(spec), seats=seats, bluffs=[]))
    assert (board.phase, board.number) == ("night", 2)
    p = board.preview or board
    assert [d.cause for d in p.deaths if d.seat == 1] == [way]
    # the night sheet wakes her with the true answer (ZH-R9) ...
    step = next((s for s in night_steps(board, gd.game.data) if s.character == "jingfei"), None)
    assert step is not None, way
    assert step.truth == [2, 3]
    assert "当前存活的邪恶阵营玩家：2号、3号" in views.night_text(gd, board)
    # ... and her private message says what she learned
    msg = views.private(gd, board, 2, 1)["messages"][0]["lines"]
    assert [(m["label"], m["text"]) for m in msg] == [("你今夜死亡，得知", "当前存活的邪恶阵营玩家：2号、3号")]
