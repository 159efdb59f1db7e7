"""M42-R5a: a vote target in traditional characters (or mixing both scripts)
names the same character as its simplified spelling, after width folding; only
the script is folded (a different character is still a target error, with a
hint). Option ``fold_script`` (default true) turns it off.

Name folding has one home (modtool.base.text.fold_name): the tally, the roster's
lookups and the roster's duplicate check all go through it."""

from __future__ import annotations

import shutil
from pathlib import Path

from modtool.packs.m42.tally import DayContext, VoteOptions, scapegoat_of, tally_day
from modtool.packs.m42.voteparse import VoteLabels
from modtool.core.roster import Character, Roster
from modtool.base.text import fold_name
from tests.support.values import run_main
from tests.test_m42_tally import at, post as _post

ROOT = Path(__file__).resolve().parent.parent

CHARS = [
    Character("红孩儿", "火云洞主", (), "villager"),
    Character("金人凤", "金凤凰", (), "werewolf"),
    Character("涂山苏苏", "苏苏今天也很努力", ("苏苏",), "villager"),
]


def _tally(roster: Roster, bodies: list[tuple[str, str]]):
    account = {c.name: c.account for c in roster}
    posts = []
    for floor, (who, body) in enumerate(bodies, 2):
        p = _post(floor, "涂山苏苏", body)
        posts.append(type(p)(p.pid, p.floor, account[who], p.time, p.body))
    alive = {c.name for c in roster}
    c = DayContext(day=2, roster=roster, alive=alive, sheriff=None, barred=set(), close=at("21:00"),
                   sped_up=False, scapegoat=scapegoat_of(roster, alive))
    return tally_day(c, posts, [], VoteLabels(), VoteOptions())


def test_m42_r5a_fold_name_folds_traditional_and_mixed_script_after_width():
    assert fold_name("紅孩兒") == "红孩儿"
    assert fold_name("紅孩儿") == "红孩儿"  # mixing both scripts
    assert fold_name(" 塗山蘇蘇\u200b ") == "涂山苏苏"  # width/invisible folding still first
    assert fold_name("金仁鳳") == "金仁凤"  # only the script: 仁 stays 仁
    assert fold_name("紅孩兒", script=False) == "紅孩兒"


def test_m42_r5a_traditional_target_is_a_valid_vote_for_the_simplified_name():
    t = _tally(Roster(CHARS), [("涂山苏苏", "投票对象：紅孩兒\n投票理由：火太大"),
                               ("金人凤", "投票对象：紅孩儿\n投票理由：跟票")])
    assert not t.invalid, t.invalid
    assert [v["target"] for v in t.valid] == ["红孩儿", "红孩儿"]


def test_m42_r5a_typo_in_another_character_is_still_a_target_error_with_hint():
    t = _tally(Roster(CHARS), [("涂山苏苏", "投票对象：金仁鳳\n投票理由：像狼")])
    assert not t.valid
    (bad,) = t.invalid
    assert "金仁鳳" in bad["reason"] and "不是存活角色" in bad["reason"]
    assert "金人凤" in (bad.get("hint") or "")


def test_m42_r5a_roster_lookup_and_accounts_fold_script():
    roster = Roster([Character("紅孩兒", "火雲洞主", ("聖嬰大王",))])
    assert [c.name for c in roster.lookup("红孩儿")] == ["紅孩兒"]
    assert [c.name for c in roster.lookup("圣婴大王")] == ["紅孩兒"]
    assert roster.by_account("火云洞主").name == "紅孩兒"
    assert Roster(roster.characters, script=False).lookup("红孩儿") == []


def _game(tmp_path: Path, options: str) -> Path:
    game = tmp_path / "m42"
    shutil.copytree(ROOT / "examples" / "m42", game)
    ledger = game / "ledger.yaml"
    text = ledger.read_text(encoding="utf-8").replace("options: {}", options, 1)
    ledger.write_text(text, encoding="utf-8")
    return game


def test_m42_r5a_roster_check_refuses_names_equal_but_for_script(tmp_path, capsys):
    game = _game(tmp_path, "options: {}")
    ledger = game / "ledger.yaml"
    ledger.write_text(ledger.read_text(encoding="utf-8").replace("aliases: [雅雅]", "aliases: [塗山蘇蘇]", 1),
                      encoding="utf-8")
    assert run_main(["check", str(game)]) == 1
    err = capsys.readouterr().err
    assert "塗山蘇蘇" in err and "涂山苏苏" in err and "Traceback" not in err


def test_m42_r5a_option_fold_script_false_keeps_scripts_apart(tmp_path, capsys):
    import json

    def day1(options: str) -> dict:
        game = _game(tmp_path / options.replace(" ", "").replace(":", "").replace("{", "").replace("}", ""), options)
        ledger = game / "ledger.yaml"
        # floor 2 of day 1 votes 涂山红红: write it in traditional characters
        text = ledger.read_text(encoding="utf-8").replace("投票对象：涂山红红\\n投票理由：红红姐姐最可靠",
                                                          "投票对象：塗山紅紅\\n投票理由：红红姐姐最可靠", 1)
        ledger.write_text(text, encoding="utf-8")
        capsys.readouterr()
        assert run_main(["tally", str(game), "--day", "1", "--json"]) == 0
        return json.loads(capsys.readouterr().out)

    on = day1("options: {}")
    assert 2 in [v["floor"] for v in on["valid"]]
    off = day1("options: {fold_script: false}")
    assert 2 not in [v["floor"] for v in off["valid"]]
    assert any(b["floor"] == 2 and "塗山紅紅" in b["reason"] for b in off["invalid"])


def test_m42_r5a_a_lone_surrogate_in_a_name_is_kept_and_the_rest_folded():
    """A cut emoji in a saved page leaves a lone surrogate: folding keeps it and still folds the script around it."""
    from modtool.base.text import fold_name

    assert fold_name("紅\ud800孩兒") == "红\ud800孩儿"
    assert fold_name("\ud800") == "\ud800"
