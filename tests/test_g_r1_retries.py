"""G-R1 in every game: a refused submission is kept but never counts; the last valid one counts.

Table-driven over every ability of the packs: a refused choice, then a valid one; the valid one
takes effect, and the no-repeat and once-per-game rules look at the valid one. Abilities that the
rules never refuse (a kill, a curse, 一丈红, a revival, a take) are in the table with a first
valid choice that the second replaces. The mafia pack has no night abilities or day abilities
(MS-R1..R6 are votes only), so it has no row here.
"""

from __future__ import annotations

import pytest

from modtool.base.events import Event
from modtool.core.gamefile import open_game
from modtool.packs.m42.replay import replay as m42_replay
from modtool.packs.zhenhuan.engine import replay as zh_replay
from tests.test_m42_engine import DAWN1, DAY1, DAY2, act as m42_act, adv as m42_adv, vote as m42_vote

# -- 甄嬛 ------------------------------------------------------------------------------------------

# Seats: 1 甄嬛(f) 2 果郡王(m) 3 安陵容 4 宠妃-to-be 敬妃(f) 5 三阿哥(m) 6 皇上 7 温太医 8 瑾汐(f)
# 9 华妃 10 叶澜依 11 年羹尧 12 宠妃
CHARS = ["zhenhuan", "guojunwang", "anlingrong", "jingfei", "sanage", "huangshang", "wentaiyi", "jinxi",
         "huafei", "yelanyi", "niangengyao", "chongfei"]


def na(night, seat, ability, *targets):
    return ("night_action", {"night": night, "seat": seat, "ability": ability, "targets": list(targets)})


def da(day, seat, ability, *targets, **kw):
    return ("day_action", {"day": day, "seat": seat, "ability": ability, "targets": list(targets), **kw})


def adv(phase, n):
    return ("advance", {"phase": phase, "number": n})


def to_night(n):
    return [e for k in range(1, n) for e in (adv("night", k), adv("day", k))]


def zh(events, chars=CHARS):
    seats = [{"seat": i + 1, "player": f"P{i + 1}", "character": c} for i, c in enumerate(chars)]
    return zh_replay(seats, [Event(t, d, i + 1) for i, (t, d) in enumerate(events)], {}, 7)


def tonight(b):
    return b.preview


def statuses(b, seat):
    return {st.kind for st in b.seat(seat).statuses}


ZH_NIGHT = [
    # (ability, night, refused submission, valid submission, what the valid one does)
    ("protect", 2, na(2, 2, "protect", 2), na(2, 2, "protect", 8),
     lambda b: "protected" in statuses(tonight(b), 8)),
    ("poison", 2, na(2, 3, "poison", 5), na(2, 3, "poison", 8),
     lambda b: "poisoned" in statuses(tonight(b), 8)),
    ("favour", 1, na(1, 6, "favour", 2), na(1, 6, "favour", 4),
     lambda b: tonight(b).seat(4).character == "chongfei"),
    ("ranzhi", 2, na(2, 5, "ranzhi", 7), na(2, 5, "ranzhi", 4),
     lambda b: tonight(b).ranzhi[2][5][0] == 4),
    ("pin", 3, na(3, 12, "pin", 9), na(3, 12, "pin", 8),
     lambda b: "pinned" in statuses(tonight(b), 8)),
    ("check", 2, na(2, 8, "check", 1), na(2, 8, "check", 1, 6), lambda b: tonight(b).acts(2, 8, "check").get("targets") == [1, 6]),
    # never refused by the rules: the second valid choice replaces the first
    ("kill", 2, na(2, 6, "kill", 7), na(2, 6, "kill", 8), lambda b: not tonight(b).seat(8).alive and tonight(b).seat(7).alive),
    ("curse", 2, na(2, 3, "curse", 7), na(2, 3, "curse", 8), lambda b: tonight(b).curses[3] == [8]),
    ("yizhanghong", 2, na(2, 9, "yizhanghong", 7), na(2, 9, "yizhanghong", 8),
     lambda b: "yizhanghong" in statuses(tonight(b), 8) and "yizhanghong" not in statuses(tonight(b), 7)),
]


@pytest.mark.parametrize("ability,night,refused,valid,takes_effect", ZH_NIGHT, ids=[r[0] for r in ZH_NIGHT])
def test_g_r1_zh_refused_then_valid_night_choice_counts(ability, night, refused, valid, takes_effect):
    pre = to_night(night)
    if ability == "pin":  # 宠妃 pinned 9 last night: pinning 9 again is refused
        pre = to_night(2) + [na(2, 12, "pin", 9), adv("night", 2), adv("day", 2)]
    b = zh(pre + [refused, valid])
    assert takes_effect(b), ability
    p = tonight(b)
    line = len(pre) + 1
    if ability in ("kill", "curse", "yizhanghong"):
        assert p.replaces[line + 1].line == line  # the second valid choice replaced the first
    else:
        assert line in p.refused and "ZH-R" in p.refused[line] or ability == "check"


def test_g_r1_zh_r4_guojunwang_no_repeat_looks_at_the_valid_choice():
    # Night 2: 8 first, replaced by 1. Night 3: 8 is allowed (never last night's), 1 is refused.
    b = zh(to_night(2) + [na(2, 2, "protect", 8), na(2, 2, "protect", 1), adv("night", 2), adv("day", 2),
                          na(3, 2, "protect", 1), na(3, 2, "protect", 8)])
    p = tonight(b)
    assert "protected" in statuses(p, 8) and "protected" not in statuses(p, 1)
    assert any("连续两晚" in why for why in p.refused.values())
    # A refused self-protection on night 2 is not last night's choice either.
    b = zh(to_night(2) + [na(2, 2, "protect", 2), na(2, 2, "protect", 7), adv("night", 2), adv("day", 2),
                          na(3, 2, "protect", 8)])
    assert "protected" in statuses(tonight(b), 8)


def test_g_r1_zh_r6_refused_favour_is_not_a_use():
    # 雨露均沾 on a man is refused on night 1 and leaves the once-per-game ability unspent.
    b = zh([na(1, 6, "favour", 2), adv("night", 1), adv("day", 1), na(2, 6, "favour", 4)])
    assert "used" not in statuses(zh([na(1, 6, "favour", 2), adv("night", 1)]), 6)
    assert tonight(b).seat(4).character == "chongfei"


def test_g_r1_zh_revival_retry():
    # 7 dies on night 2 (the demon), 叶澜依 chooses on night 3: 5 then 7, the latest counts.
    b = zh(to_night(2) + [na(2, 6, "kill", 7), adv("night", 2), adv("day", 2), na(3, 10, "revive", 5),
                          na(3, 10, "revive", 7)])
    assert tonight(b).learned[(3, "revive")] == 7


def test_g_r1_zh_r8_sanage_after_a_refused_dead_neighbour():
    # 4 dies on night 2; on night 3 三阿哥 (5) chooses dead 4 (refused), then 7 (not a nearest living
    # neighbour of 5 while 6 lives: refused), then 3, the nearest living on the left: it counts.
    b = zh(to_night(2) + [na(2, 6, "kill", 4), adv("night", 2), adv("day", 2),
                          na(3, 5, "ranzhi", 4), na(3, 5, "ranzhi", 7), na(3, 5, "ranzhi", 3)])
    p = tonight(b)
    assert p.ranzhi[3][5][0] == 3
    assert len([w for w in p.refused.values() if "ZH-R8" in w]) == 2


def test_g_r1_zh_r3a_pin_lasts_through_the_next_day():
    # 宠妃 pins 太后 on night 2: on day 2 her 懿旨 has no effect; on night 3 the pin is gone.
    chars = ["zhenhuan", "taihou", "qifei", "dunqinwang", "chongfei", "huangshang", "jinxi"]
    ev = to_night(2) + [na(2, 5, "pin", 2), adv("night", 2)]
    b = zh(ev, chars)
    assert b.phase == "day" and "pinned" in statuses(b, 2)
    b = zh(ev + [("nominate", {"day": 2, "nominator": 1, "nominee": 7}), da(2, 2, "force_execute", 7)], chars)
    from modtool.packs.zhenhuan.day import day_report
    from modtool.packs.zhenhuan.engine import _dicts

    rep = day_report(b, 2, _dicts(b.nominations[2]), [], _dicts(b.day_actions[2]))
    assert rep.execution is None and any("按住" in i.reason for i in rep.invalid)
    b = zh(ev + [adv("day", 2)], chars)
    assert b.phase == "night" and "pinned" not in statuses(b, 2)


def test_g_r1_zh_r10_qifei_refused_silence_is_not_yesterdays():
    chars = ["zhenhuan", "taihou", "qifei", "dunqinwang", "jinxi", "huangshang", "jingfei"]
    # Day 1: silence 5. Day 2: 5 refused (yesterday's), then 7 valid. Day 3: 5 is allowed, 7 refused.
    ev = [adv("night", 1), da(1, 3, "silence", 5), adv("day", 1), adv("night", 2),
          da(2, 3, "silence", 5), da(2, 3, "silence", 7), adv("day", 2), adv("night", 3)]
    b = zh(ev, chars)
    assert b.silenced_on == {1: 5, 2: 7}
    from modtool.packs.zhenhuan.day import day_report
    from modtool.packs.zhenhuan.engine import _dicts

    b = zh(ev + [da(3, 3, "silence", 7), da(3, 3, "silence", 5)], chars)
    rep = day_report(b, 3, [], [], _dicts([e for d in sorted(b.day_actions) for e in b.day_actions[d]]))
    assert rep.silenced == [5] and any("连续两天" in i.reason for i in rep.invalid)


@pytest.mark.parametrize("ability,refused,valid,check", [
    ("drunk", da(2, 4, "drunk", 99), da(2, 4, "drunk", 5), lambda r: (5, "drunk") in [(s, st.kind) for s, st in r.statuses]),
    ("accuse", da(2, 1, "accuse", 6), da(2, 1, "accuse", 6, guess="皇上"), lambda r: r.accusations[0].right),
    ("force_execute", da(2, 2, "force_execute", 5), da(2, 2, "force_execute", 7),
     lambda r: r.execution is not None and r.execution.seat == 7),
])
def test_g_r1_zh_refused_then_valid_day_ability_counts(ability, refused, valid, check):
    from modtool.packs.zhenhuan.day import day_report
    from modtool.packs.zhenhuan.engine import _dicts

    chars = ["qiguiren", "taihou", "qifei", "dunqinwang", "jinxi", "huangshang", "jingfei"]
    b = zh([adv("night", 1), adv("day", 1), adv("night", 2)], chars)
    noms = [{"day": 2, "nominator": 1, "nominee": 7, "line": 1}]
    r = day_report(b, 2, noms, [], [{**refused[1], "line": 2}, {**valid[1], "line": 3}])
    assert check(r) and len(r.invalid) == 1  # once a day / once a game: the refused one was no use


def test_g_r1_zh_second_day_use_replaces_the_first():
    from modtool.packs.zhenhuan.day import day_report

    chars = ["qiguiren", "taihou", "qifei", "dunqinwang", "jinxi", "huangshang", "jingfei"]
    b = zh([adv("night", 1), adv("day", 1), adv("night", 2)], chars)
    r = day_report(b, 2, [], [], [{**da(2, 4, "drunk", 5)[1], "line": 1}, {**da(2, 4, "drunk", 7)[1], "line": 2}])
    assert [(s, st.kind) for s, st in r.statuses] == [(7, "drunk")] and r.replaced[2]["line"] == 1


# -- M42 -------------------------------------------------------------------------------------------


def m42(m42_game, events):
    gd = open_game(m42_game(events))
    assert not gd.problems, gd.problems
    return m42_replay(gd)


def refused_lines(st):
    return [p for p in st.problems if p.refused]


M42_ROWS = [
    # (ability, events: a refused submission then a valid one, what the valid one does)
    ("kill", DAY1 + m42_act("狼人", "kill", "东方淮竹", "2026-11-03 22:30") + m42_act("狼人", "kill", "白月初", "2026-11-03 21:40")
     + DAWN1, lambda st: [e.name for e in st.exits] == ["白月初"]),
    ("save", DAY1 + m42_act("狼人", "kill", "涂山容容") + m42_act("涂山容容", "save", "涂山容容", "2026-11-03 21:40")
     + m42_act("涂山容容", "save", "白月初", "2026-11-03 21:45") + DAWN1, lambda st: st.nights[1].saved == "白月初"),
    ("poison", DAY1 + m42_act("狼人", "kill", "白月初") + m42_act("涂山容容", "poison", "白月初", "2026-11-03 23:40")
     + m42_act("涂山容容", "poison", "石宽", "2026-11-03 21:45") + DAWN1, lambda st: ("石宽", "poison") in [(e.name, e.cause) for e in st.exits]),
    ("check", DAY1 + m42_act("涂山红红", "check", "金人凤", "2026-11-03 22:30") + m42_act("涂山红红", "check", "石宽", "2026-11-03 21:45")
     + DAWN1, lambda st: [c["target"] for c in st.nights[1].checks] == ["石宽"]),
    ("shoot", DAY1 + m42_act("狼人", "kill", "王权富贵") + DAWN1 + m42_act("王权富贵", "shoot", "王权富贵", "2026-11-03 22:35")
     + m42_act("王权富贵", "shoot", "石宽", "2026-11-03 22:40"), lambda st: ("石宽", "shot") in [(e.name, e.cause) for e in st.exits]),
    ("successor", DAY1 + m42_act("狼人", "kill", "涂山红红") + DAWN1 + m42_act("涂山红红", "successor", "涂山红红", "2026-11-04 08:00")
     + m42_act("涂山红红", "successor", "白月初", "2026-11-04 08:05") + DAY2, lambda st: st.sheriff == "白月初"),
]


@pytest.mark.parametrize("ability,events,takes_effect", M42_ROWS, ids=[r[0] for r in M42_ROWS])
def test_g_r1_m42_refused_then_valid_counts(m42_game, ability, events, takes_effect):
    st = m42(m42_game, events)
    assert takes_effect(st) and len(refused_lines(st)) == 1, [str(p) for p in st.problems]


def test_g_r1_m42_refused_save_is_not_a_use(m42_game):
    night2 = DAY2 + m42_adv("day", 2, "2026-11-05 21:00")
    # Night 1: her save comes after her half-hour (M42-R15) and is refused: the potion is not spent.
    st = m42(m42_game, DAY1 + m42_act("狼人", "kill", "白月初") + m42_act("涂山容容", "save", "白月初", "2026-11-03 23:40")
             + DAWN1 + night2 + m42_act("狼人", "kill", "东方月初", "2026-11-05 21:30")
             + m42_act("涂山容容", "save", "东方月初", "2026-11-05 21:40"))
    assert st.nights[1].saved is None and st.nights[2].saved == "东方月初" and len(refused_lines(st)) == 1


def test_g_r1_m42_second_valid_choice_replaces_the_first(m42_game):
    st = m42(m42_game, DAY1 + m42_act("狼人", "kill", "白月初") + m42_act("涂山容容", "save", "石宽", "2026-11-03 21:40")
             + m42_act("涂山容容", "save", "白月初", "2026-11-03 21:45")
             + m42_act("涂山红红", "check", "金人凤", "2026-11-03 21:46") + m42_act("涂山红红", "check", "石宽", "2026-11-03 21:50") + DAWN1)
    assert st.exits == [] and st.nights[1].saved == "白月初"
    assert not any("白白用掉" in w.message for w in st.warnings)  # the replaced save's warning goes with it
    assert [c["target"] for c in st.nights[1].checks] == ["石宽"]
    assert {old["target"] for old in st.replaced.values()} == {"石宽", "金人凤"}
    # Save and poison on the same night stay refused (M42-R6): the poison does not replace the save.
    st = m42(m42_game, DAY1 + m42_act("狼人", "kill", "白月初") + m42_act("涂山容容", "save", "白月初", "2026-11-03 21:40")
             + m42_act("涂山容容", "poison", "石宽", "2026-11-03 21:45") + DAWN1)
    assert st.exits == [] and "同一晚" in " ".join(p.message for p in st.problems)


TIE = (DAY1 + DAWN1 + DAY2 + m42_vote(2, 2, "雅雅女王", "石宽", "2026-11-04 10:00")
       + m42_vote(2, 3, "石头宽宽", "涂山雅雅", "2026-11-04 10:05") + m42_adv("day", 2, "2026-11-05 21:00"))


def test_g_r1_m42_r8_scapegoat_naming_one_who_is_out_is_refused_and_he_names_again(m42_game):
    # 东方淮竹 is out (冤死): naming himself, who is out, is refused; the next naming stands.
    st = m42(m42_game, TIE + "- {type: bar, day: 3, voters: [东方淮竹], at: '2026-11-05 21:10'}\n"
             + "- {type: bar, day: 3, voters: [石宽], at: '2026-11-05 21:12'}\n")
    assert st.barred[3] == {"石宽"}
    [refusal] = refused_lines(st)
    assert "已出局" in refusal.message and "M42-R8" in refusal.message


def test_g_r1_m42_r8_latest_valid_naming_before_the_day_opens_stands(m42_game):
    st = m42(m42_game, TIE + "- {type: bar, day: 3, voters: [石宽], at: '2026-11-05 21:10'}\n"
             + "- {type: bar, day: 3, voters: [李去浊], at: '2026-11-05 21:20'}\n")
    assert st.barred[3] == {"李去浊"} and not refused_lines(st)
    assert next(iter(st.replaced.values()))["target"] == "石宽"


# -- what the commands say ---------------------------------------------------------------------------


def test_g_r1_zh_act_says_what_it_replaces_and_the_sheet_shows_refusals(tmp_path, capsys):
    from pathlib import Path

    from tests.support.values import run_main

    src = Path(__file__).resolve().parent.parent / "examples" / "zhenhuan" / "ledger.yaml"
    game = tmp_path / "zh"
    game.mkdir()
    lines = src.read_text(encoding="utf-8").splitlines(keepends=True)
    second = [i for i, line in enumerate(lines) if line.strip() == "- type: advance"][1]
    cut = next(i for i in range(second + 1, len(lines)) if lines[i].lstrip().startswith("- "))  # day 1 closed: night 2 open
    (game / "ledger.yaml").write_text("".join(lines[:cut]), encoding="utf-8")
    assert run_main(["act", str(game), "4", "protect", "4", "--at", "2026-12-01 22:05"]) == 0  # recorded, not accepted (G-R1)
    assert "果郡王不可保护自己（ZH-R4）" in capsys.readouterr().err
    assert run_main(["act", str(game), "4", "protect", "6", "--at", "2026-12-01 22:10"]) == 0
    assert "替换" not in capsys.readouterr().out
    assert run_main(["act", str(game), "4", "protect", "3", "--at", "2026-12-01 22:20"]) == 0
    assert "替换了 22:10 的选择：守护 6号" in capsys.readouterr().out
    assert run_main(["act", str(game), "6", "ranzhi", "7"]) == 0
    capsys.readouterr()
    assert run_main(["night", str(game)]) == 0
    sheet = capsys.readouterr().out
    assert "不受理：守护 → 4号（果郡王不可保护自己（ZH-R4））" in sheet
    assert "已被替换：守护 → 6号" in sheet and "已选择：守护 → 3号" in sheet
    assert "已选择：守护 → 4号" not in sheet
    assert "真实信息：染指7号：成功" in sheet  # 三阿哥's true answer once he has chosen


def test_g_r1_m42_act_says_what_it_replaces(m42_game, capsys):
    from tests.support.values import run_main

    game = m42_game(DAY1)
    assert run_main(["act", str(game), "狼人", "kill", "白月初", "--at", "2026-11-03 21:10"]) == 0
    capsys.readouterr()
    assert run_main(["act", str(game), "狼人", "kill", "东方月初", "--at", "2026-11-03 21:20"]) == 0
    assert "替换了 21:10 的选择：杀人 白月初" in capsys.readouterr().out
