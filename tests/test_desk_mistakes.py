"""A desk without traps: a director's typo is refused before anything is
written; a player's rule-breaking submission stays a fact, shown as refused
but not taken for ledger damage; a damaged ledger takes no new writes; every
confirmation is Chinese."""

from __future__ import annotations

import json

import pytest

from tests.conftest import ROOT
from tests.test_cli import EXAMPLE, run

ZH = ROOT / "examples" / "zhenhuan"


@pytest.fixture
def game(tmp_path, capsys):
    g = tmp_path / "g"
    code, _, err = run(capsys, "new", g, "--roster", EXAMPLE / "roster.yaml", "--seed", 3)
    assert code == 0, err
    return g


@pytest.fixture
def zh(tmp_path, capsys):
    """10 players as examples/zhenhuan deals them: 1 安陵容, 3 华妃, 4 果郡王, 10 皇上 …"""
    g = tmp_path / "zh"
    code, _, err = run(capsys, "new", g, "--game", "zhenhuan", "--roster", ZH / "roster.txt", "--seed", 24,
                       *[a for r in ("皇上", "安陵容", "华妃", "甄嬛", "果郡王", "三阿哥", "玉娆") for a in ("--require", r)])
    assert code == 0, err
    return g


def ledger_bytes(g) -> bytes:
    return (g / "ledger.yaml").read_bytes()


def refused_unchanged(capsys, g, *args) -> str:
    """Run a command that must be refused: exit 1, the ledger byte for byte as before; its message."""
    before = ledger_bytes(g)
    code, out, err = run(capsys, *args)
    assert code == 1, (out, err)
    assert ledger_bytes(g) == before
    assert "Traceback" not in err and err.startswith("错误：")
    return err


# -- 1. a director's typo is refused before anything is written ------------------


@pytest.mark.parametrize("typed, stored, shown", [
    ("黄", "yellow", "黄牌"), ("Yellow", "yellow", "黄牌"), ("RED", "red", "红牌"), ("蓝牌", "blue", "蓝牌"),
    ("blue", "blue", "蓝牌"), ("ｂｌｕｅ", "blue", "蓝牌"),
])
def test_m42_r13_card_colour_in_chinese_or_english_any_case_is_stored_in_one_form(game, capsys, typed, stored, shown):
    code, out, err = run(capsys, "card", game, "石宽", typed, "--reason", "情绪发言", "--at", "2026-11-02 15:00")
    assert code == 0, err
    assert f"color: {stored}\n" in (game / "ledger.yaml").read_text(encoding="utf-8")
    assert f"已判罚：石宽 {shown}（情绪发言）" in out


def test_m42_r13_card_of_an_unknown_colour_is_refused_before_writing(game, capsys):
    err = refused_unchanged(capsys, game, "card", game, "石宽", "purple", "--reason", "x", "--at", "2026-11-02 15:00")
    assert "颜色" in err and "purple" in err and "蓝" in err


def test_card_for_a_name_not_in_the_game_is_refused_with_a_suggestion(game, capsys):
    err = refused_unchanged(capsys, game, "card", game, "石宽宽", "yellow", "--reason", "x", "--at", "2026-11-02 15:00")
    assert "石宽宽" in err and "你是不是想写「石宽」" in err
    err = refused_unchanged(capsys, game, "card", game, "角色8", "yellow", "--reason", "x", "--at", "2026-11-02 15:00")
    assert "角色8" in err and "已记入账本" not in err


def test_card_names_a_character_by_alias_or_number_and_stores_the_name(game, capsys):
    code, out, err = run(capsys, "card", game, "苏苏", "蓝", "--reason", "x", "--at", "2026-11-02 15:00")
    assert code == 0, err and "涂山苏苏" in out
    code, out, err = run(capsys, "card", game, "3号", "蓝", "--reason", "x", "--at", "2026-11-02 15:01")
    assert code == 0, err
    text = (game / "ledger.yaml").read_text(encoding="utf-8")
    assert "character: 涂山苏苏" in text and "character: 涂山红红" in text  # 3号: the roster's third
    err = refused_unchanged(capsys, game, "card", game, "14号", "蓝", "--reason", "x", "--at", "2026-11-02 15:02")
    assert "14号" in err and "1～13" in err


def test_a_time_that_does_not_parse_is_refused_naming_the_option(game, capsys):
    err = refused_unchanged(capsys, game, "card", game, "石宽", "yellow", "--reason", "x", "--at", "明天下午")
    assert "--at" in err and "明天下午" in err
    err = refused_unchanged(capsys, game, "advance", game, "--at", "25:99")
    assert "--at" in err


@pytest.mark.parametrize("args", [
    ["decide", "{g}", "石宽宽", "--camp-stays", "--at", "2026-11-02 15:00"],
    ["substitute", "{g}", "石宽宽", "--player", "新人", "--at", "2026-11-02 15:00"],
    ["substitute", "{g}", "石宽宽", "--none", "--at", "2026-11-02 15:00"],
    ["assistant", "{g}", "石宽宽", "--helper", "老手", "--games", "1"],
    ["waive", "{g}", "石宽宽", "--day", "1", "--rule", "b", "--reason", "请假"],
])
def test_every_m42_desk_command_refuses_an_unknown_character_before_writing(game, capsys, args):
    err = refused_unchanged(capsys, game, *[a.format(g=game) for a in args])
    assert "你是不是想写「石宽」" in err


def test_withdraw_of_a_card_that_does_not_exist_is_refused_before_writing(game, capsys):
    err = refused_unchanged(capsys, game, "withdraw", game, "3", "--reason", "看错")
    assert "第 3 张牌" in err
    run(capsys, "card", game, "石宽", "蓝", "--reason", "x", "--at", "2026-11-02 15:00")
    code, out, err = run(capsys, "withdraw", game, "1", "--reason", "看错")
    assert code == 0, err
    err = refused_unchanged(capsys, game, "withdraw", game, "1", "--reason", "又看错")  # already withdrawn


def test_m42_act_takes_an_ability_by_its_chinese_name_and_refuses_an_unknown_one(game, capsys):
    run(capsys, "import", game, EXAMPLE / "dumps" / "day1-vote.txt", "--thread", "vote", "--day", 1)
    run(capsys, "advance", game, "--at", "2026-11-03 21:00")
    err = refused_unchanged(capsys, game, "act", game, "狼人", "飞天", "涂山苏苏", "--at", "2026-11-03 21:35")
    assert "飞天" in err and "杀人" in err
    err = refused_unchanged(capsys, game, "act", game, "狼人", "杀人", "涂山苏", "--at", "2026-11-03 21:35")
    assert "你是不是想写「涂山苏苏」" in err
    err = refused_unchanged(capsys, game, "act", game, "涂山红", "check", "石宽", "--at", "2026-11-03 21:35")
    assert "你是不是想写「涂山红红」" in err
    code, out, err = run(capsys, "act", game, "狼人", "杀人", "苏苏", "--at", "2026-11-03 21:35")
    assert code == 0, err
    text = (game / "ledger.yaml").read_text(encoding="utf-8")
    assert "ability: kill" in text and "target: 涂山苏苏" in text
    assert "已记录：狼人 杀人 涂山苏苏" in out  # point 4: the confirmation is Chinese


def test_zh_act_takes_an_ability_by_its_chinese_name(zh, capsys):
    code, out, err = run(capsys, "act", zh, "3", "一丈红", "5")
    assert code == 0, err
    assert "ability: yizhanghong" in (zh / "ledger.yaml").read_text(encoding="utf-8")
    assert "已记录：3号 一丈红 5号" in out


def test_zh_every_ability_the_engine_takes_has_a_chinese_name():
    from modtool.core.games import load_game
    from modtool.packs.zhenhuan.game import DAY_ABILITIES, NIGHT_ABILITIES

    names = load_game("zhenhuan").data["ability_names"]
    assert set(names["night"]) == set(NIGHT_ABILITIES) and set(names["day"]) == set(DAY_ABILITIES)
    assert all(words for table in names.values() for words in table.values())


def test_zh_unknown_ability_or_seat_is_refused_before_writing(zh, capsys):
    err = refused_unchanged(capsys, zh, "act", zh, "3", "一丈青", "5")
    assert "一丈青" in err and "一丈红" in err
    err = refused_unchanged(capsys, zh, "act", zh, "3", "yizhanghong", "11")
    assert "11" in err and "1～10" in err
    err = refused_unchanged(capsys, zh, "act", zh, "延禧", "poison", "8")
    assert "你是不是想写「延禧宫」" in err
    err = refused_unchanged(capsys, zh, "info", zh, "0", "是")
    assert "0" in err


def test_zh_nominate_and_vote_refuse_an_unknown_seat_or_a_bad_time(zh, capsys):
    for _ in range(5):  # the first night's questions, answered as the storyteller would
        _, data, _ = run(capsys, "status", zh, "--json")
        for q in json.loads(data)["questions"]:
            run(capsys, "answer", zh, q["key"], q["options"][0] if q["options"] else "是")
    code, out, err = run(capsys, "advance", zh)
    assert code == 0, err
    refused_unchanged(capsys, zh, "nominate", zh, "3", "12")
    refused_unchanged(capsys, zh, "vote", zh, "凌云", "3")
    err = refused_unchanged(capsys, zh, "nominate", zh, "3", "5", "--at", "昨天")
    assert "--at" in err


def test_tally_at_that_does_not_parse_names_the_option(game, capsys):
    code, _, err = run(capsys, "tally", game, "--day", "1", "--at", "午夜")
    assert code == 1 and "--at" in err and "午夜" in err


# -- 2. a player's rule-breaking submission is a fact, not damage -----------------


def _witch_saves_herself(game, capsys):
    run(capsys, "import", game, EXAMPLE / "dumps" / "day1-vote.txt", "--thread", "vote", "--day", 1)
    run(capsys, "advance", game, "--at", "2026-11-03 21:00")
    code, _, err = run(capsys, "act", game, "涂山容容", "save", "涂山容容", "--at", "2026-11-03 21:20")
    assert code == 0 and "不受理" in err and "不得自救" in err and "已记入账本" in err


def test_check_passes_when_the_only_issues_are_refused_submissions(game, capsys):
    _witch_saves_herself(game, capsys)
    code, out, err = run(capsys, "check", game)
    assert code == 0, err
    assert "不受理" in out and "不得自救" in out
    code, data, _ = run(capsys, "check", game, "--json")
    doc = json.loads(data)
    assert code == 0 and doc["ok"] is True and doc["problems"] == [] and len(doc["refused"]) == 1


def test_zh_check_passes_when_the_only_issues_are_refused_submissions(tmp_path, capsys):
    g = tmp_path / "zh"
    import shutil

    shutil.copytree(ZH, g)
    code, out, err = run(capsys, "check", g)
    assert code == 0, err
    assert "不受理的提交" in out and "：3 条" in out and "ZH-R2" in out and "ZH-R11" not in err


def test_status_and_tally_show_refusals_once_in_their_own_section(game, capsys):
    _witch_saves_herself(game, capsys)
    for args in (("status", game), ("tally", game, "--day", "1")):
        code, out, err = run(capsys, *args)
        assert code == 0, err
        assert out.count("不得自救") == 1, out
        head = out.index("不受理的提交")
        assert out.index("不得自救") > head


# -- 3. a damaged ledger takes no new writes --------------------------------------


def _damage(game, line_text: str) -> int:
    path = game / "ledger.yaml"
    text = path.read_text(encoding="utf-8")
    text = text.rstrip("\n") + "\n" + line_text + "\n"
    path.write_text(text, encoding="utf-8")
    return text.count("\n")  # the damaged line's number


def test_a_writing_command_refuses_while_a_ledger_line_is_damaged(game, capsys):
    line = _damage(game, '  - {"type": "card", "character": "石宽", "color": "yellow", "reason": "x", "at": "下午三点"}')
    for args in (("card", game, "王权富贵", "red", "--reason", "x", "--at", "2026-11-02 15:00"),
                 ("advance", game, "--at", "2026-11-03 21:00"),
                 ("act", game, "石宽", "surrender", "--at", "2026-11-03 21:35"),
                 ("speedup", game, "--day", "1")):
        err = refused_unchanged(capsys, game, *args)
        assert f":{line}" in err and "下午三点" in err
    code, _, err = run(capsys, "check", game)
    assert code == 1 and f":{line}" in err


def test_zh_a_writing_command_refuses_while_a_ledger_line_is_damaged(zh, capsys):
    line = _damage(zh, '  - {"type": "night_action", "night": 1, "seat": 3, "ability": "yizhanghong", "targets": [99]}')
    err = refused_unchanged(capsys, zh, "act", zh, "4", "protect", "7")
    assert f":{line}" in err


# -- 4. every confirmation is Chinese ----------------------------------------------


def test_confirmations_name_colours_and_abilities_in_chinese(game, capsys):
    code, out, err = run(capsys, "card", game, "王权富贵", "red", "--reason", "违规", "--at", "2026-11-02 15:00")
    assert code == 0, err
    assert "已判罚：王权富贵 红牌（违规）" in out and "red" not in out
    assert run(capsys, "open", game, "--day", "1", "--at", "2026-11-02 10:00")[0] == 0
    assert run(capsys, "advance", game, "--at", "2026-11-03 21:00")[0] == 0  # nobody voted: a (b) yellow each (M42-R14)
    code, out, err = run(capsys, "waive", game, "石宽", "--day", "1", "--rule", "b", "--reason", "请假")
    assert code == 0, err
    assert "未投票" in out and "（b）" not in out


def test_undo_and_restore_name_the_event_in_chinese(game, capsys):
    run(capsys, "card", game, "石宽", "黄", "--reason", "x", "--at", "2026-11-02 15:00")
    code, out, err = run(capsys, "undo", game)
    assert code == 0, err
    assert "判罚" in out and "card" not in out
    code, out, err = run(capsys, "undo", game)
    assert code == 1 and "没有可以撤销的事件" in err
