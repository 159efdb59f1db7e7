"""甄嬛 rule defects found on the way (issue 15, point 6): 敬妃's dying knowledge whatever kills
her at night (ZH-R9, ZH-R13), the day's deaths and drunks shown when they happen (ZH-R10, ZH-R3),
and the public end post (principle 6, ZH-R13 numbering)."""

from __future__ import annotations

import pytest

from modtool.packs.zhenhuan import views
from modtool.packs.zhenhuan.night import night_steps
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


# -- the day as it happens: status and the grimoire agree at every moment (ZH-R10, ZH-R3, ZH-R11) ----------

DAY_SEATS = [("一", "huangshang"), ("二", "huafei"), ("三", "dunqinwang"), ("四", "jinxi"), ("五", "guojunwang"),
             ("六", "wentaiyi"), ("七", "zhenhuan")]
DAY = [
    {"type": "night_action", "night": 1, "seat": 2, "ability": "yizhanghong", "targets": [4]},  # 华妃: 一丈红 on 4
    {"type": "advance", "phase": "night", "number": 1},
    {"type": "day_action", "day": 1, "seat": 3, "ability": "drunk", "targets": [6]},  # 敦亲王 makes 6 drunk
    {"type": "nominate", "day": 1, "nominator": 4, "nominee": 1},  # 4 bears 一丈红: dies at once
    {"type": "vote", "day": 1, "voter": 4, "nominee": 1},  # 4's ghost vote
    {"type": "vote", "day": 1, "voter": 5, "nominee": 1},
    {"type": "vote", "day": 1, "voter": 6, "nominee": 1},  # 3 of 6 living: 皇上 would be executed at dusk
    {"type": "advance", "phase": "day", "number": 1},
]
# moment (events so far) -> (dead seats, 6 drunk?, 4's ghost vote still unused?)
MOMENTS = {2: (set(), False, True), 3: (set(), True, True), 4: ({4}, True, True), 5: ({4}, True, False),
           7: ({4}, True, False), 8: ({1, 4}, True, False)}


def _page(gd, board, public):
    from modtool.packs.zhenhuan.grimoire_page import context

    return context(gd, board, public=public)


@pytest.mark.parametrize("moment", sorted(MOMENTS))
def test_zh_r10_status_and_grimoire_show_the_day_as_it_happens(tmp_path, moment):
    dead, drunk, ghost4 = MOMENTS[moment]
    gd, board = load(write(tmp_path, DAY[:moment], seats=DAY_SEATS, bluffs=[]))
    status = views.status_json(gd, board)
    by_seat = {s["seat"]: s for s in status["seats"]}
    assert {n for n, s in by_seat.items() if not s["alive"]} == dead
    assert status["alive"] == 7 - len(dead)
    assert by_seat[4]["ghost_vote"] is ghost4
    # ZH-R3 / ZH-R10: 敦亲王's drunk from the moment he uses it, until day 2 begins
    assert any(r.startswith("醉酒（到第 2 天开始") for r in by_seat[6]["reminders"]) is drunk
    if 4 in dead:  # ZH-R10: the 一丈红 nominator is listed among the deaths at once
        assert [(d["seat"], d["cause"]) for d in status["deaths"]][:1] == [(4, "yizhanghong")]
    text = views.status_text(gd, board)
    line4 = next(line for line in text.splitlines() if line.strip().startswith("4号"))
    assert ("死亡" in line4) is (4 in dead) and ("存活" in line4) is (4 not in dead)
    # the grimoire (storyteller's page and the public one) draws the same seats alive
    for public in (False, True):
        page = _page(gd, board, public)
        assert {s["seat"] for s in page["seats"] if not s["alive"]} == dead, public
        assert page["alive"] == status["alive"]
        assert [s["ghost_vote"] for s in page["seats"] if s["seat"] == 4] == [ghost4]
        if not public:
            six = next(s for s in page["seats"] if s["seat"] == 6)
            assert any(r.startswith("醉酒") for r in six["reminders"]) is drunk


def test_zh_r12_a_day_death_that_decides_the_game_shows_the_winner_before_dusk(tmp_path):
    # 华妃's 一丈红 on 皇上 (ZH-R10); he nominates and dies at once: no demon is left (ZH-R12).
    evs = [{"type": "night_action", "night": 1, "seat": 2, "ability": "yizhanghong", "targets": [1]},
           {"type": "advance", "phase": "night", "number": 1},
           {"type": "nominate", "day": 1, "nominator": 1, "nominee": 4}]
    gd, board = load(write(tmp_path, evs, seats=DAY_SEATS, bluffs=[]))
    status = views.status_json(gd, board)
    assert status["winner"] == "good" and status["phase"] == "day"
    assert status["next"][0].startswith("胜负已分：黄昏结算")
    gd, board = load(write(tmp_path, evs + [{"type": "advance", "phase": "day", "number": 1}], seats=DAY_SEATS,
                           bluffs=[], name="dusk"))
    assert (board.phase, board.winner) == ("over", "good")


# -- public posts carry no storyteller notes (principle 6) and number phases as ZH-R13 ---------------------

EXAMPLE = __import__("pathlib").Path(__file__).resolve().parent.parent / "examples" / "zhenhuan"
NOTE_WORDS = ("说书人", "请在", "ZH-R", "受影响", "中毒/醉酒", "（不公开）")


def _example(tmp_path):
    import shutil

    g = tmp_path / "zh"
    shutil.copytree(EXAMPLE, g, ignore=shutil.ignore_patterns(".modtool", "*.lock", "*.png", "expected"))
    return load(g)


def _notes_of(gd, board) -> list[str]:
    """Every storyteller-only line of the game: the day reports' reminders and the grimoire's private log."""
    from modtool.packs.zhenhuan.history import day_report

    notes = [text for _, text, public in board.timeline if not public]
    for day in range(1, board.number + 1):
        notes += day_report(gd, day)[1].reminders
    return notes


def _render(gd, board, kind, fmt, **kw):
    from modtool.core.render import render

    return render("zhenhuan", kind, fmt, views.post_context(gd, board, kind, **kw), gd.path)


def test_principle_6_no_public_zhenhuan_post_carries_a_storyteller_note(tmp_path):
    gd, board = _example(tmp_path)
    notes = _notes_of(gd, board)
    assert any("身负一丈红并发起了提名，已因此死亡" in n for n in notes)  # the example has one (day 1's 一丈红)
    role_changes = {n for n in notes if " → " in n}  # 7号 玉娆 → 宠妃: revealed by the end post only
    rendered = 0
    for fmt in ("bbcode", "markdown"):
        for n in range(1, board.number + 1):
            for kind, kw in (("dawn", {"night": n}), ("nominations", {"day": n}), ("execution", {"day": n})):
                text = _render(gd, board, kind, fmt, **kw)
                rendered += 1
                assert not [w for w in NOTE_WORDS if w in text], (kind, n, fmt, text)
                assert not [x for x in notes if x in text], (kind, n, fmt)
        text = _render(gd, board, "end", fmt)
        assert not [w for w in NOTE_WORDS if w in text], (fmt, text)
        assert not [x for x in notes if x in text and x not in role_changes], (fmt, text)
        assert "7号 玉娆 → 宠妃" in text  # the end post reveals the grimoire, role changes included
    assert rendered == 2 * 3 * board.number


def test_zh_r13_the_end_post_labels_each_entry_with_the_phase_it_happened_in(tmp_path):
    gd, board = _example(tmp_path)
    timeline = views.end(gd, board)["timeline"]
    label = {"night": "夜", "day": "天"}
    for d in board.deaths:  # each death is listed under its own phase: night 1, day 1, night 2, …
        who = f"{d.seat}号（{board.seat(d.seat).player}）"
        entries = [m["phase"] for m in timeline if m["text"].startswith(who)]
        assert entries == [f"第 {d.number} {label[d.phase]}"], (d, entries)
    # 果郡王, cursed on night 2, dies when night 3 begins (ZH-R13 night-start effects), not on day 2
    assert ("第 3 夜", "4号（棠梨煎雪）死亡") in [(m["phase"], m["text"]) for m in timeline]
    assert [m["phase"] for m in timeline][-1] == "第 4 天"  # the win, where it happened
    # and in phase order
    order = [(int(m["phase"].split()[1]), m["phase"].endswith("天")) for m in timeline]
    assert order == sorted(order)


def test_zh_r10_a_nomination_under_yizhanghong_says_the_nominator_died_at_once(tmp_path, capsys):
    """ZH-R10: 华妃's 一丈红 — that character dies if it nominates the next day. The death
    takes effect at once, so the command that records the nomination says it (it said only
    "已记录：5号 提名 3号"), and the dusk reminder no longer asks for a death by hand."""
    from tests.support.values import run_cli
    from tests.test_typos import cut

    g = cut(tmp_path, "zhenhuan", 9)  # night 1 done (一丈红 on 5号), day 1 begun, no nomination yet
    code, out, err = run_cli(capsys, "nominate", g, "5", "3")
    assert code == 0, err
    assert "已记录：5号 提名 3号" in out and "5号（" in out and "身负一丈红发起提名而死（立即生效，ZH-R10）" in out
    code, out, err = run_cli(capsys, "vote", g, "2", "3")
    assert code == 0 and "立即生效" not in out  # a vote kills no one
