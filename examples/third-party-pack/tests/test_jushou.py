"""举手 through modtool's own commands; each test is named after the rule it checks
(JS-R1 … JS-R5, ``modtool_jushou/rules.py``). Posts are written inline in modtool's
plain-text dump format."""

from __future__ import annotations

import json

from conftest import HERE, run


def tally(capsys, game, day: int = 1) -> dict:
    code, out, err = run(capsys, "tally", game, "--day", day, "--json")
    assert code == 0, err
    return json.loads(out)


def test_js_r1_a_hand_names_a_character_by_name_or_alias_and_quotes_are_not_hands(play, capsys):
    game = play("""\
#1 乙 2026-11-03 10:00
举手:小丙
理由：一句话也没说

#2 丁丁 2026-11-03 10:01
> 乙 发表于 2026-11-03 10:00
> 举手：小丙
我只是引用一下

#3 戊戌 2026-11-03 10:02
举手：小明
""")
    data = tally(capsys, game)
    assert data["hands"] == [{"name": "丙", "count": 1, "by": ["乙"]}]
    assert data["invalid"] == [{"floor": 3, "author": "戊", "reason": "没有叫「小明」的玩家；是不是想写「小丙」？"}]
    assert data["not_raised"] == ["甲", "丙", "丁", "戊"]


def test_js_r2_each_players_latest_valid_hand_counts_and_an_invalid_one_leaves_it(play, capsys):
    game = play("""\
#1 乙 2026-11-03 10:00
举手：甲

#2 乙 2026-11-03 10:05
举手：丙

#3 乙 2026-11-03 10:06
举手：谁也不是
""")
    data = tally(capsys, game)
    assert data["hands"] == [{"name": "丙", "count": 1, "by": ["乙"]}]
    assert [i["floor"] for i in data["invalid"]] == [3]


def test_js_r3_the_first_name_to_hold_a_majority_is_chosen_and_the_day_ends(play, capsys):
    game = play((HERE / "dumps" / "day1-vote.txt").read_text(encoding="utf-8"))
    data = tally(capsys, game)
    assert (data["living"], data["majority"]) == (5, 3)
    assert data["chosen"] == {"name": "丙", "floor": 7, "time": "2026-11-03 10:20"}
    assert data["hands"] == [{"name": "丙", "count": 3, "by": ["甲", "乙", "戊"]}]
    assert data["invalid"][-1] == {"floor": 8, "author": "丁", "reason": "当天已有结果（丙 当选），之后的举手不算（JS-R3）"}


def test_js_r4_the_chosen_is_out_the_next_day_and_the_majority_follows_the_living(play, capsys):
    play((HERE / "dumps" / "day1-vote.txt").read_text(encoding="utf-8"))
    game = play("""\
#1 丙火 2026-11-04 10:00
举手：甲

#2 乙 2026-11-04 10:01
举手：丙

#3 乙 2026-11-04 10:02
举手：丁

#4 戊戌 2026-11-04 10:03
举手：丁

#5 甲乙丙丁的甲 2026-11-04 10:04
举手：丁
""", day=2)
    data = tally(capsys, game, 2)
    assert (data["living"], data["majority"]) == (4, 3)
    assert data["chosen"]["name"] == "丁" and data["chosen"]["floor"] == 5
    assert [i["reason"] for i in data["invalid"]] == ["丙 已出局，不能举手（JS-R4）", "丙 已出局，不能被举（JS-R4）"]


def test_js_r5_hands_after_the_deadline_do_not_count_and_undo_takes_it_back(play, capsys):
    game = play((HERE / "dumps" / "day1-vote.txt").read_text(encoding="utf-8"))
    code, out, err = run(capsys, "deadline", game, "--day", 1, "--at", "2026-11-03 10:15")
    assert code == 0 and out == "已记下第 1 天的截止时间：2026-11-03 10:15\n", err
    data = tally(capsys, game)
    assert data["chosen"] is None and data["deadline"] == "2026-11-03 10:15"
    assert "在截止时间 2026-11-03 10:15 之后，不算（JS-R5）" in [i["reason"] for i in data["invalid"]]
    code, out, err = run(capsys, "undo", game)
    assert code == 0 and "的截止时间记录" in out, err
    assert tally(capsys, game)["chosen"]["name"] == "丙"


def test_new_keeps_the_roster_as_given_and_deals_nothing(play, tmp_path, capsys):
    game = play("#1 乙 2026-11-03 10:00\n早\n")
    text = (game / "ledger.yaml").read_text(encoding="utf-8")
    assert "game: jushou" in text and "aliases: [阿甲]" in text and "role" not in text and "seed" not in text
    code, out, err = run(capsys, "new", tmp_path / "other", "--game", "jushou", "--roster", HERE / "roster.yaml",
                         "--players", 5)
    assert code == 1 and "游戏 jushou 不用这个选项" in err and not (tmp_path / "other").exists()


def test_announce_result_renders_the_day_with_player_text_neutralised(play, capsys):
    game = play((HERE / "dumps" / "day1-vote.txt").read_text(encoding="utf-8"))
    code, out, err = run(capsys, "announce", game, "result", "--day", 1)
    assert code == 0, err
    assert out.startswith("[b]第 1 天举手结果[/b]\n在场 5 人，过半数为 3 手。\n")
    assert "丙：3 手（甲、乙、戊）" in out and "[b]当选：丙[/b]（7 楼，2026-11-03 10:20）" in out
    code, out, err = run(capsys, "announce", game, "result", "--day", 1, "--format", "md")
    assert code == 0 and "**当选：丙**" in out


def test_check_passes_and_a_wrong_day_is_a_clear_error(play, capsys):
    game = play((HERE / "dumps" / "day1-vote.txt").read_text(encoding="utf-8"))
    code, out, err = run(capsys, "check", game)
    assert code == 0 and "没有发现问题" in out
    code, out, err = run(capsys, "tally", game, "--day", 4)
    assert code == 1 and "第 4 天没有投票帖" in err and "Traceback" not in err


def test_a_settled_day_is_guarded_a_change_to_it_needs_force(play, capsys):
    """G-R2 (modtool's): once day 2 has posts, day 1's chosen is what the forum read."""
    play((HERE / "dumps" / "day1-vote.txt").read_text(encoding="utf-8"))
    game = play("#1 乙 2026-11-04 10:00\n举手：甲\n", day=2)
    code, out, err = run(capsys, "deadline", game, "--day", 1, "--at", "2026-11-03 10:15")
    assert code == 1 and "第 1 天当选：丙" in err and "--force" in err
    code, out, err = run(capsys, "deadline", game, "--day", 1, "--at", "2026-11-03 10:15", "--force")
    assert code == 0 and "第 1 天当选：丙" in out + err
