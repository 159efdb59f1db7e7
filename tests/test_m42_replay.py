"""Replay of days and nights: sheriff from day 1, exits, the scapegoat's bar (M42-R1, R6, R8)."""

from modtool.gamefile import open_game
from modtool.m42.replay import check_days, replay

CLOSES = """
- {type: close, day: 1, at: "2026-11-03 21:00"}
- {type: close, day: 2, at: "2026-11-05 21:00"}
- {type: close, day: 3, at: "2026-11-07 21:00"}
"""


def vote(day, floor, account, target, time):
    return (
        f'- {{type: post, thread: vote, day: {day}, floor: {floor}, author: {account}, '
        f'time: "{time}", body: "投票对象：{target}\\n投票理由：理由"}}\n'
    )


def test_m42_r1_day1_elects_sheriff_and_exiles_nobody(m42_game):
    g = m42_game(CLOSES + vote(1, 2, "雅雅女王", "涂山红红", "2026-11-02 10:00"))
    rp = replay(open_game(g), 2)
    assert rp.days[0].tally.result["kind"] == "sheriff"
    assert rp.days[1].ctx.sheriff == "涂山红红"
    assert rp.exits == []
    assert len(rp.days[1].ctx.alive) == 13


def test_m42_r6_night_kill_then_poison_in_order(m42_game):
    g = m42_game(
        CLOSES
        + """
- {type: act, night: 1, actor: 狼人, ability: kill, target: 涂山苏苏}
- {type: act, night: 1, actor: 涂山容容, ability: poison, target: 石宽}
"""
    )
    rp = replay(open_game(g), 2)
    assert [(e.name, e.cause) for e in rp.exits] == [("涂山苏苏", "kill"), ("石宽", "poison")]
    assert "涂山苏苏" not in rp.days[1].ctx.alive


def test_m42_r6_save_prevents_the_kill_and_witch_cannot_save_herself(m42_game):
    g = m42_game(
        CLOSES
        + """
- {type: act, night: 1, actor: 狼人, ability: kill, target: 白月初}
- {type: act, night: 1, actor: 容容, ability: save, target: 白月初}
- {type: act, night: 2, actor: 狼人, ability: kill, target: 涂山容容}
- {type: act, night: 2, actor: 涂山容容, ability: poison, target: 李去浊}
"""
    )
    rp = replay(open_game(g), 3)
    assert rp.nights[0].exits == []
    assert [e.name for e in rp.nights[1].exits] == ["涂山容容", "李去浊"]


def test_m42_r6_refusals_are_reported(m42_game):
    g = m42_game(
        CLOSES
        + """
- {type: act, night: 1, actor: 狼人, ability: kill, target: 涂山容容}
- {type: act, night: 1, actor: 涂山容容, ability: save, target: 涂山容容}
- {type: act, night: 1, actor: 涂山容容, ability: poison, target: 石宽}
- {type: act, night: 1, actor: 白月初, ability: kill, target: 石宽}
"""
    )
    gd = open_game(g)
    rp = replay(gd, 2)
    messages = " ".join(p.message for p in rp.problems)
    assert "不能自救" in messages and "没有技能" in messages
    assert [e.name for e in rp.exits] == ["涂山容容", "石宽"]
    assert check_days(gd)


def test_m42_r8_bar_only_after_scapegoat_exiled_by_tie(m42_game):
    tie = (
        vote(1, 2, "雅雅女王", "涂山红红", "2026-11-02 10:00")
        + vote(2, 2, "雅雅女王", "石宽", "2026-11-04 10:00")
        + vote(2, 3, "石头宽宽", "涂山雅雅", "2026-11-04 10:05")
        + "- {type: bar, day: 3, voters: [石宽, 李去浊]}\n"
    )
    rp = replay(open_game(m42_game(CLOSES + tie)), 3)
    assert rp.days[1].tally.result["kind"] == "scapegoat"
    assert rp.days[2].ctx.barred == {"石宽", "李去浊"}
    assert "东方淮竹" not in rp.days[2].ctx.alive


def test_m42_r8_bar_without_scapegoat_exile_is_refused(m42_game):
    g = m42_game(CLOSES + vote(1, 2, "雅雅女王", "涂山红红", "2026-11-02 10:00") + "- {type: bar, day: 2, voters: [石宽]}\n")
    rp = replay(open_game(g), 2)
    assert rp.days[1].ctx.barred == set()
    assert any("M42-R8" in p.message for p in rp.problems)
