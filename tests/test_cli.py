"""The commands as a director runs them: messages in Chinese, exit codes, ledger untouched on error."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from modtool.cli.app import main

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "m42"


def run(capsys, *args):
    try:
        main([str(a) for a in args])
        code = 0
    except SystemExit as exc:
        code = exc.code or 0
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.fixture
def example(tmp_path):
    game = tmp_path / "m42"
    shutil.copytree(EXAMPLE, game)
    return game


def test_new_deals_from_seed_and_same_seed_same_deal(tmp_path, capsys):
    roster = tmp_path / "roster.txt"
    roster.write_text("\n".join(f"玩家{i}" for i in range(1, 14)) + "\n", encoding="utf-8")
    deals = []
    for n in (1, 2, 3):
        code, out, err = run(capsys, "new", tmp_path / f"g{n}", "--game", "m42", "--roster", roster, "--seed", 7 if n < 3 else 8)
        assert code == 0, err
        from modtool.core.gamefile import open_game

        gd = open_game(tmp_path / f"g{n}")
        assert not gd.problems
        deals.append([c.role for c in gd.roster])
        assert gd.header["seed"] == (7 if n < 3 else 8)
    assert deals[0] == deals[1]
    assert deals[0] != deals[2]
    assert sorted(deals[0]).count("werewolf") == 4 and deals[0].count("villager") == 5


def test_new_refuses_wrong_player_count_and_existing_ledger(tmp_path, capsys):
    roster = tmp_path / "roster.txt"
    roster.write_text("甲\n乙\n", encoding="utf-8")
    code, _, err = run(capsys, "new", tmp_path / "g", "--roster", roster)
    assert code == 1 and "13" in err and "Traceback" not in err
    code, _, err = run(capsys, "new", EXAMPLE, "--roster", EXAMPLE / "roster.yaml")
    assert code == 1 and "已存在" in err


def test_tally_example_day2(capsys):
    code, out, err = run(capsys, "tally", EXAMPLE, "--day", "2")
    assert code == 0, err
    assert "结果：金人凤以8票获得最多票，被放逐出局（M42-R4）。" in out
    data_code, data, _ = run(capsys, "tally", EXAMPLE, "--day", "2", "--json")
    t = json.loads(data)
    assert t["result"]["kind"] == "exile" and t["result"]["target"] == "金人凤"
    assert {"day", "valid", "invalid", "not_voted", "counts", "result"} <= set(t)
    # The sheriff (涂山红红, elected on day 1) counts twice; the proxy for 白月初 counts.
    assert t["counts"] == {"金人凤": 8, "涂山红红": 4}
    assert t["not_voted"] == ["东方淮竹"]  # 涂山苏苏 died on night 1
    reasons = {i["floor"]: i["reason"] for i in t["invalid"]}
    assert set(reasons) == {5, 7, 8, 11, 17, 19, 20, 21, 23, None}
    assert 14 in [c["floor"] for c in t["chatter"]]  # M42-R5: quoting a vote is chatter, not an invalid vote
    assert "金仁凤" in reasons[5] and "缺少「投票理由」" in reasons[7] and "诈尸" in reasons[8]
    assert "已经投过票" in reasons[11] and "回复" in reasons[17]
    assert "一次" in reasons[19] and "一小时" in reasons[20] and "已出局" in reasons[21] and "关门后" in reasons[23]
    assert [i["author"] for i in t["invalid"] if i["floor"] is None] == ["淮竹清风"]  # proxy in the last hour


def test_tally_example_day1_elects_sheriff_by_earliest_to_max(capsys):
    code, data, err = run(capsys, "tally", EXAMPLE, "--day", "1", "--json")
    assert code == 0, err
    t = json.loads(data)
    assert t["result"]["kind"] == "sheriff" and t["result"]["target"] == "涂山红红"
    assert t["result"]["rule"] == "M42-R2"


def test_announce_vote_bbcode_and_markdown(capsys):
    code, out, err = run(capsys, "announce", EXAMPLE, "vote", "--day", "2")
    assert code == 0, err
    assert out.startswith("[b]") and "[table" in out and "金人凤" in out
    code, md, err = run(capsys, "announce", EXAMPLE, "vote", "--day", "2", "--format", "markdown")
    assert code == 0 and "| 楼层 |" in md


def test_director_template_overrides_builtin_in_sandbox(example, capsys):
    (example / "templates" / "m42").mkdir(parents=True)
    (example / "templates" / "m42" / "vote.bbcode.j2").write_text("自定义：{{ result_text }}\n", encoding="utf-8")
    code, out, _ = run(capsys, "announce", example, "vote", "--day", "2")
    assert code == 0 and out.startswith("自定义：金人凤")
    (example / "templates" / "m42" / "vote.bbcode.j2").write_text("{{ ''.__class__.__mro__ }}\n", encoding="utf-8")
    code, _, err = run(capsys, "announce", example, "vote", "--day", "2")
    assert code == 1 and "模板" in err and "Traceback" not in err  # the sandbox refuses, in Chinese


def test_reimport_changes_nothing(example, capsys):
    before = (example / "ledger.yaml").read_bytes()
    for dump in sorted((example / "dumps").iterdir()):
        day = 1 if "day1" in dump.name else 2
        code, out, err = run(capsys, "import", example, dump, "--thread", "vote", "--day", day)
        assert code == 0, err
        assert "已导入 0 帖" in out
    assert (example / "ledger.yaml").read_bytes() == before


def test_import_into_fresh_game_rebuilds_the_example_posts(tmp_path, capsys):
    game = tmp_path / "g"
    code, _, err = run(capsys, "new", game, "--roster", EXAMPLE / "roster.yaml", "--seed", 1)
    assert code == 0, err
    outs = ""
    for dump in sorted((EXAMPLE / "dumps").iterdir()):
        day = 1 if "day1" in dump.name else 2
        code, out, err = run(capsys, "import", game, dump, "--thread", "vote", "--day", day)
        assert code == 0, err
        outs += out
    assert outs.count("不在名单上的账号「M42导演」") == 2  # the director's own posts are listed, not guessed
    from modtool.core.gamefile import open_game

    mine = [{k: v for k, v in e.data.items() if k != "id"} for e in open_game(game).of_type("post")]
    theirs = [e.data for e in open_game(EXAMPLE).of_type("post")]
    assert mine == theirs


@pytest.mark.parametrize(
    "content, needle",
    [
        (b"\xff\xfe\x00garbage", "ledger.yaml"),
        ("game: m42\nroster: [\n".encode(), "ledger.yaml"),
        ("game: nosuch\nroster: []\nevents:\n".encode(), "未知的游戏"),
    ],
)
def test_broken_ledgers_give_chinese_message_and_exit_1(example, capsys, content, needle):
    (example / "ledger.yaml").write_bytes(content)
    for args in (("check", example), ("tally", example, "--day", "2")):
        code, out, err = run(capsys, *args)
        assert code == 1
        assert needle in err and "Traceback" not in err
    assert (example / "ledger.yaml").read_bytes() == content


def test_unknown_dump_format_leaves_ledger_as_it_was(example, tmp_path, capsys):
    before = (example / "ledger.yaml").read_bytes()
    bad = tmp_path / "x.bin"
    bad.write_bytes(b"\x00\x01 not a forum page")
    code, _, err = run(capsys, "import", example, bad, "--thread", "vote", "--day", 2)
    assert code == 1 and "x.bin" in err and "Traceback" not in err
    assert (example / "ledger.yaml").read_bytes() == before


def test_check_names_the_line_of_a_bad_event(example, capsys):
    text = (example / "ledger.yaml").read_text(encoding="utf-8")
    text += "  - type: proxy\n    day: 2\n    voter: 白月初\n"
    (example / "ledger.yaml").write_text(text, encoding="utf-8")
    line = len(text.splitlines()) - 2
    code, _, err = run(capsys, "check", example)
    assert code == 1
    assert f"ledger.yaml:{line}" in err and "缺少 target" in err


def test_unknown_option_and_missing_close_are_user_errors(example, capsys):
    code, _, err = run(capsys, "tally", example, "--day", "9")
    assert code == 1 and "第 9 天还没有开始" in err
    text = (example / "ledger.yaml").read_text(encoding="utf-8")
    (example / "ledger.yaml").write_text(text.replace("  - type: close\n    day: 2\n", "  - type: close\n    day: 3\n"), encoding="utf-8")
    code, data, err = run(capsys, "tally", example, "--day", "2", "--json")
    # No close event: the schedule closes day 2 (opened Wed 11-04 10:00) on Thu at 21:00 (M42-R15).
    assert code == 0 and json.loads(data)["close"] == "2026-11-05 21:00:00"
    code, _, err = run(capsys, "tally", example, "--day", "2", "--at", "昨天")
    assert code == 1 and "看不懂" in err


def test_python_dash_m_entry_point():
    r = subprocess.run([sys.executable, "-m", "modtool", "--help"], capture_output=True, text=True)
    assert r.returncode == 0 and "tally" in r.stdout


def test_tally_as_it_stood_at_a_floor_and_a_time(capsys):
    code, data, err = run(capsys, "tally", EXAMPLE, "--day", "2", "--floor", "4", "--json")
    assert code == 0, err
    t = json.loads(data)
    # 2# 涂山红红 (sheriff, ×2) → 金人凤; 3#, 4# → 涂山红红
    assert t["counts"] == {"金人凤": 2, "涂山红红": 2}
    code, data, err = run(capsys, "tally", EXAMPLE, "--day", "2", "--at", "2026-11-05 19:45", "--json")
    t = json.loads(data)
    assert t["counts"]["金人凤"] == 7  # before 容容's 22# and after the 19:30 proxy
    code, out, _ = run(capsys, "tally", EXAMPLE, "--day", "2", "--floor", "4")
    assert "截至 4楼" in out


def test_proxy_for_unknown_name_is_reported_not_guessed(example, capsys):
    with open(example / "ledger.yaml", "a", encoding="utf-8") as f:
        f.write('  - {type: proxy, day: 2, voter: 白月出, target: 金人凤, at: "2026-11-05 12:00"}\n')
    code, data, err = run(capsys, "tally", example, "--day", "2", "--json")
    assert code == 0, err
    t = json.loads(data)
    bad = [i for i in t["invalid"] if i["floor"] is None and "白月出" in f"{i['author']}{i['reason']}"]
    assert bad, t["invalid"]


@pytest.mark.parametrize(
    "args, needle",
    [
        (("tally",), "缺少参数 GAME_DIR"),
        (("withdraw", EXAMPLE, "3"), "缺少参数 --reason"),
        (("tally", EXAMPLE, "--day", "x"), "应为整数"),
        (("tally", EXAMPLE, "--dya", "2"), "没有这个选项：--dya"),
        (("talyl",), "没有这个命令：talyl；你是不是想用 tally"),
    ],
)
def test_usage_errors_are_chinese_exit_2(capsys, args, needle):
    code, _, err = run(capsys, *args)
    assert code == 2 and needle in err and "Traceback" not in err


def test_unexpected_error_writes_a_report_not_a_traceback(capsys, monkeypatch, tmp_path):
    import modtool.packs.m42.queries as queries  # tally_text as the tally query calls it

    monkeypatch.setattr(queries, "tally_text", lambda *a, **k: 1 / 0)
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", None)
    code, _, err = run(capsys, "tally", EXAMPLE, "--day", "2")
    assert code == 3 and "内部错误" in err and "Traceback" not in err
    assert list(tmp_path.glob("modtool-crash-*.log"))


def test_a_mistyped_thread_is_refused_once_before_any_post_is_read(tmp_path, capsys):
    import shutil

    shutil.copytree(Path(__file__).resolve().parents[1] / "examples" / "m42", tmp_path / "g")
    dump = Path(__file__).resolve().parents[1] / "examples" / "m42" / "dumps" / "day2-vote-page1.json"
    from modtool.core.recording import import_posts
    from modtool.base.problems import UserError

    with pytest.raises(UserError) as exc:
        import_posts(tmp_path / "g", [dump], "vot", 2)
    assert len(exc.value.problems) == 1 and "vot" in str(exc.value.problems[0])


def test_announce_in_a_games_folder_offers_that_games_kinds_only(capsys):
    root = Path(__file__).resolve().parents[1] / "examples"
    code, out, err = run(capsys, "announce", root / "mafia", "votes")
    assert code == 2 and "vote" in err and "day-start" not in err and "nominations" not in err
