"""examples/m42-discipline shows every discipline rule, as schedule, cards and tally report them."""

from pathlib import Path

from modtool.core.gamefile import open_game
from modtool.packs.m42.cardlist import cards_json
from modtool.packs.m42.discipline import all_flags, schedule_json
from modtool.packs.m42.replay import replay

GAME = Path(__file__).resolve().parent.parent / "examples" / "m42-discipline"


def state():
    gd = open_game(GAME)
    return gd, replay(gd)


def test_m42_r15_weekend_delay_and_speedup_days():
    gd, st = state()
    day3, day4, day5 = (schedule_json(gd, st, d) for d in (3, 4, 5))
    assert day3["weekend_extended"] and day3["close"] == "2026-11-08 21:00:00"
    assert day4["delayed"] == 1 and day4["close"] == "2026-11-11 21:00:00"
    assert day5["sped_up"] and day5["close"] == "2026-11-12 21:00:00"


def test_m42_r13_r14_cards_merges_red_withdrawal_and_waiver():
    gd, st = state()
    rows = {r["character"]: r for r in cards_json(gd, st)["characters"]}
    assert rows["李雪松"]["standing"]["red"] == 1
    assert any(e.name == "李雪松" and e.cause == "redcard" for e in st.exits)
    assert any(k["withdrawn"] for k in rows["云霄"]["cards"])
    assert any(k["withdrawn"] and k["withdrawn"].startswith("导演免除") for k in rows["花翎"]["cards"])
    assert any("M42-R14 c" in k["reason"] for k in rows["毛毛"]["cards"])
    assert not any(k["source"] == "lurking" and "第5天" in k["reason"] for r in rows.values() for k in r["cards"])


def test_m42_r16_second_substitute_and_assistant_limit_were_refused_before_writing():
    """build.sh's second substitute for 西西 and 杨十三's assistant (5 earlier games) break
    M42-R16: the director's decisions, refused by the commands, so nothing of them is in
    the ledger and its replay finds no problem (tests/test_typos.py runs the refusals)."""
    gd, st = state()
    assert st.problems == []
    assert [e.data["player"] for e in gd.of_type("substitute") if e.data["character"] == "西西"] == ["西西的室友小北"]
    assert [e.data["games"] for e in gd.of_type("assistant")] == [2]


def test_m42_r17_every_flag_kind_is_shown():
    gd, st = state()
    kinds = {r["kind"] for r in all_flags(gd, st)}
    assert kinds == {"red_font", "big_font", "zombie", "edited_vote", "bbcode_in_last_words"}
