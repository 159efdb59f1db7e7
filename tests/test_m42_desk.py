"""The director's desk without traps: a command for every fact (close, proxy,
open), the game's clock instead of the wall clock, an early advance that
closes the day (M42-R5b), and deadlines that start at a notice (M42-R15)."""

from __future__ import annotations

import json
from datetime import datetime

import pytest

from modtool.base.times import zone
from tests.test_cli import EXAMPLE, run

TZ = zone("Asia/Shanghai")


def _wall(monkeypatch, text: str) -> None:
    """Pretend the wall clock reads ``text`` (game zone)."""
    when = datetime.fromisoformat(text).replace(tzinfo=TZ)
    monkeypatch.setattr("modtool.base.times.wall_clock", lambda tz: when.astimezone(tz))


@pytest.fixture
def game(tmp_path, capsys):
    """A fresh game whose day 1 opens 2026-11-02 10:00 (first vote post) and closes 11-03 21:00."""
    g = tmp_path / "g"
    assert run(capsys, "new", g, "--roster", EXAMPLE / "roster.yaml", "--seed", 3)[0] == 0
    code, _, err = run(capsys, "import", g, EXAMPLE / "dumps" / "day1-vote.txt", "--thread", "vote", "--day", 1)
    assert code == 0, err
    return g


def _ledger(g) -> bytes:
    return (g / "ledger.yaml").read_bytes()


def _tally(capsys, g, day=1) -> dict:
    code, out, err = run(capsys, "tally", g, "--day", day, "--json")
    assert code == 0, err
    return json.loads(out)


# -- 1. a command for every fact ------------------------------------------------------


def test_close_command_records_the_close_and_a_later_one_supersedes_M42_R15(game, capsys):
    code, out, err = run(capsys, "close", game, "--day", 1, "--at", "2026-11-03 20:00")
    assert code == 0, err
    assert "第 1 天" in out and "2026-11-03 20:00" in out
    assert _tally(capsys, game)["close"].startswith("2026-11-03 20:00")
    code, out, err = run(capsys, "close", game, "--day", 1, "--at", "2026-11-03 21:00")
    assert code == 0, err
    assert _tally(capsys, game)["close"].startswith("2026-11-03 21:00")


@pytest.mark.parametrize("args, code, words", [
    (["--day", 1, "--at", "明天晚上"], 1, "看不懂"),
    (["--day", 4, "--at", "2026-11-05 21:00"], 1, "还没有开始"),
    (["--day", 1, "--at", "2026-11-01 21:00"], 1, "早于"),
    (["--day", 1], 2, "--at"),
])
def test_close_refuses_bad_arguments_before_writing(game, capsys, args, code, words):
    before = _ledger(game)
    got, _, err = run(capsys, "close", game, *args)
    assert got == code and words in err and "Traceback" not in err
    assert _ledger(game) == before


def test_proxy_command_records_a_delegated_vote_M42_R5(game, capsys):
    # 东方秦兰 has not voted by 11-03 10:00 (her own post is floor 14, 20:30): the 代投 is her vote.
    code, out, err = run(capsys, "proxy", game, "东方秦兰", "白月初", "--day", 1, "--at", "2026-11-03 10:00")
    assert code == 0, err
    assert "代投" in out and "东方秦兰" in out and "白月初" in out
    t = _tally(capsys, game)
    assert any(v.get("proxy") and v["voter"] == "东方秦兰" and v["target"] == "白月初" for v in t["valid"]), t["valid"]


def test_proxy_in_the_last_hour_is_recorded_and_refused_M42_R5(game, capsys):
    before = _ledger(game)
    code, _, err = run(capsys, "proxy", game, "东方秦兰", "白月初", "--day", 1, "--at", "2026-11-03 20:30")
    assert code == 0 and "不受理" in err and "关门前" in err and "已记入账本" in err
    assert _ledger(game).startswith(before) and len(_ledger(game)) > len(before)


@pytest.mark.parametrize("args, words", [
    (["东方秦蓝", "白月初", "--day", 1, "--at", "2026-11-03 10:00"], "不是本局角色"),
    (["东方秦兰", "白月出", "--day", 1, "--at", "2026-11-03 10:00"], "不是本局角色"),
    (["东方秦兰", "白月初", "--day", 3, "--at", "2026-11-03 10:00"], "还没有开始"),
    (["东方秦兰", "白月初", "--day", 1, "--at", "2026-11-03 10:00", "--kind", "maybe"], "--kind"),
])
def test_proxy_refuses_bad_arguments_before_writing(game, capsys, args, words):
    before = _ledger(game)
    code, _, err = run(capsys, "proxy", game, *args)
    assert code in (1, 2) and words in err and "Traceback" not in err
    assert _ledger(game) == before


def test_open_command_records_when_day_1_opens_M42_R15(tmp_path, capsys):
    g = tmp_path / "g"
    assert run(capsys, "new", g, "--roster", EXAMPLE / "roster.yaml", "--seed", 3)[0] == 0
    code, out, err = run(capsys, "open", g, "--day", 1, "--at", "2026-11-06 10:00")  # a Friday
    assert code == 0, err
    code, out, err = run(capsys, "schedule", g, "--day", 1, "--json")
    assert code == 0, err
    j = json.loads(out)
    assert j["opens"].startswith("2026-11-06 10:00") and j["close"].startswith("2026-11-08 21:00")  # weekend: 3 days


def test_open_refuses_a_later_day_and_a_bad_time(game, capsys):
    before = _ledger(game)
    assert "看不懂" in run(capsys, "open", game, "--day", 1, "--at", "soon")[2]
    code, _, err = run(capsys, "open", game, "--day", 2, "--at", "2026-11-04 10:00")
    assert code == 1 and "advance" in err
    assert _ledger(game) == before


def test_readme_steps_run_as_written_with_no_hand_edit(tmp_path, capsys):
    """README 导演的一天: new → close → import → tally, with the commands it shows."""
    from tests.test_docs import ROOT

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "在账本末尾的 `events:` 下加" not in readme and "\n  - type: close" not in readme
    assert "modtool close 我的游戏 --day 1 --at" in readme and "modtool proxy 我的游戏" in readme
    g = tmp_path / "我的游戏"
    assert run(capsys, "new", g, "--game", "m42", "--roster", EXAMPLE / "roster.yaml", "--seed", 20261102)[0] == 0
    assert run(capsys, "close", g, "--day", 1, "--at", "2026-11-03 21:00")[0] == 0
    assert run(capsys, "import", g, EXAMPLE / "dumps" / "day1-vote.txt", "--thread", "vote", "--day", 1)[0] == 0
    code, out, err = run(capsys, "tally", g, "--day", 1)
    assert code == 0 and "涂山红红" in out, err


# -- 2. the game's clock -----------------------------------------------------------------


@pytest.mark.parametrize("args", [
    ["card", "石宽", "red", "--reason", "辱骂"],
    ["advance"],
    ["act", "石宽", "surrender"],
    ["decide", "石宽", "--camp-stays"],
    ["substitute", "石宽", "--player", "新来的小石"],
    ["proxy", "东方秦兰", "白月初"],
])
def test_wall_clock_outside_the_phase_window_is_refused_naming_it(game, capsys, monkeypatch, args):
    _wall(monkeypatch, "2026-11-30 10:00")
    before = _ledger(game)
    code, _, err = run(capsys, args[0], game, *args[1:])
    assert code == 1, err
    assert "现在是 2026-11-30 10:00，不在第 1 天（2026-11-02 10:00 至 2026-11-03 21:00）之内；请用 --at 给出时间" in err
    assert _ledger(game) == before


def test_wall_clock_inside_the_phase_window_is_used(game, capsys, monkeypatch):
    _wall(monkeypatch, "2026-11-03 12:00")
    code, _, err = run(capsys, "card", game, "石宽", "red", "--reason", "辱骂")
    assert code == 0, err
    assert "2026-11-03 12:00:00" in _ledger(game).decode()
    run(capsys, "advance", game, "--at", "2026-11-03 21:00")
    code, out, _ = run(capsys, "status", game, "--json")
    st = json.loads(out)
    assert next(c for c in st["characters"] if c["name"] == "石宽")["out"]["cause"] == "redcard"


def test_night_window_runs_to_the_witch_half_hour_after_the_wolves_deadline(game, capsys, monkeypatch):
    run(capsys, "advance", game, "--at", "2026-11-03 21:00")
    _wall(monkeypatch, "2026-11-03 23:00")
    code, _, err = run(capsys, "act", game, "狼人", "kill", "涂山苏苏")
    assert code == 1 and "不在第 1 夜（2026-11-03 21:00 至 22:30）之内" in err
    _wall(monkeypatch, "2026-11-03 21:20")
    assert run(capsys, "act", game, "狼人", "kill", "涂山苏苏")[0] == 0


def test_game_over_needs_an_explicit_time(game, capsys, monkeypatch):
    from modtool.base.times import Window, now_in
    from modtool.base.problems import UserError

    _wall(monkeypatch, "2026-11-30 10:00")
    with pytest.raises(UserError) as exc:
        now_in(Window("游戏结束后", None, None, "游戏已经结束"), TZ)
    assert "游戏已经结束" in str(exc.value.problems[0]) and "--at" in str(exc.value.problems[0])


# -- 3. an early advance closes the day (M42-R5b) -------------------------------------


def test_advance_before_the_close_closes_the_day_then_M42_R5b(game, capsys):
    code, out, err = run(capsys, "advance", game, "--at", "2026-11-03 20:00")
    assert code == 0, err
    assert "2026-11-03 20:00 关门" in out and "之后的帖子不计入" in out
    t = _tally(capsys, game)
    assert t["close"].startswith("2026-11-03 20:00")
    late = [p for p in t["invalid"] if p["floor"] == 14]
    assert late and "关门" in late[0]["reason"]
    assert not any(v.get("floor") == 14 for v in t["valid"])
    code, out, _ = run(capsys, "status", game)
    assert "于 2026-11-03 20:00 关门（M42-R5b），之后的帖子不计入" in out
    code, post, _ = run(capsys, "announce", game, "vote", "--day", 1)
    assert code == 0 and "东方秦兰 1 票" in post and "14# 秦兰兰：关门后发帖" in post
    code, text, _ = run(capsys, "tally", game, "--day", 1)
    assert "2026-11-03 20:00" in text


def test_advance_after_the_close_keeps_the_close(game, capsys):
    run(capsys, "advance", game, "--at", "2026-11-03 22:00")
    assert _tally(capsys, game)["close"].startswith("2026-11-03 21:00")


def test_night_deadlines_run_from_an_early_close_M42_R5b(game, capsys):
    run(capsys, "advance", game, "--at", "2026-11-03 20:00")
    code, _, err = run(capsys, "act", game, "狼人", "kill", "涂山苏苏", "--at", "2026-11-03 21:10")
    assert code == 0 and "不受理" in err and "已过时限" in err


# -- 4. deadlines that start at a notice (M42-R15) -------------------------------------


def test_witch_half_hour_runs_from_the_recorded_notice_M42_R15(game, capsys):
    run(capsys, "advance", game, "--at", "2026-11-03 21:00")
    run(capsys, "act", game, "狼人", "kill", "涂山苏苏", "--at", "2026-11-03 21:30")
    code, post, err = run(capsys, "announce", game, "witch", "--told-at", "2026-11-03 22:10")
    assert code == 0, err
    assert "22:40" in post and "已记录" in err
    code, _, err = run(capsys, "act", game, "涂山容容", "save", "涂山苏苏", "--at", "2026-11-03 22:35")
    assert code == 0, err


def test_a_kill_changed_after_the_witch_was_told_asks_for_a_new_notice_M42_R15(game, capsys):
    """M42-R15: her half-hour runs from the first notice at or after the counted kill
    submission; a notice of the target the wolves then replaced (G-R1) is not one. The act
    says so, and status asks for a new notice instead of saying she was told."""
    run(capsys, "advance", game, "--at", "2026-11-03 21:00")
    run(capsys, "act", game, "狼人", "kill", "涂山苏苏", "--at", "2026-11-03 21:30")
    assert run(capsys, "announce", game, "witch", "--told-at", "2026-11-03 21:35")[0] == 0
    code, out, err = run(capsys, "act", game, "狼人", "kill", "白月初", "--at", "2026-11-03 21:50")
    assert code == 0 and "女巫在 21:35 被告知的是之前的目标：要把新的目标再告诉她" in out
    code, out, _ = run(capsys, "status", game)
    assert "改了指杀目标（现在是白月初）" in out and "已在 11-03 21:35 通知女巫" not in out
    code, post, err = run(capsys, "announce", game, "witch", "--told-at", "2026-11-03 21:52")
    assert code == 0 and "白月初" in post and "已记录" in err and "22:22" in err
    code, out, _ = run(capsys, "status", game)
    assert "已在 11-03 21:52 通知女巫" in out and "改了指杀目标" not in out


def test_witch_deadline_without_a_notice_runs_from_the_kill_with_a_warning_M42_R15(game, capsys):
    run(capsys, "advance", game, "--at", "2026-11-03 21:00")
    run(capsys, "act", game, "狼人", "kill", "涂山苏苏", "--at", "2026-11-03 21:30")
    code, _, err = run(capsys, "act", game, "涂山容容", "save", "涂山苏苏", "--at", "2026-11-03 22:05")
    assert code == 0 and "不受理" in err and "22:00" in err
    code, out, _ = run(capsys, "status", game)
    assert "没有记录通知女巫的时间" in out


def test_announce_witch_records_the_notice_once_by_the_game_clock(game, capsys, monkeypatch):
    run(capsys, "advance", game, "--at", "2026-11-03 21:00")
    run(capsys, "act", game, "狼人", "kill", "涂山苏苏", "--at", "2026-11-03 21:30")
    _wall(monkeypatch, "2026-11-03 21:40")
    assert run(capsys, "announce", game, "witch")[0] == 0
    once = _ledger(game)
    assert b"notice" in once
    code, post, err = run(capsys, "announce", game, "witch")
    assert code == 0 and "22:10" in post
    assert _ledger(game) == once


def test_announce_witch_outside_the_window_without_told_at_writes_nothing(game, capsys, monkeypatch):
    run(capsys, "advance", game, "--at", "2026-11-03 21:00")
    run(capsys, "act", game, "狼人", "kill", "涂山苏苏", "--at", "2026-11-03 21:30")
    _wall(monkeypatch, "2026-11-30 10:00")
    before = _ledger(game)
    code, _, err = run(capsys, "announce", game, "witch")
    assert code == 1 and "--told-at" in err
    assert _ledger(game) == before


def test_hunter_half_hour_runs_from_the_recorded_notice_M42_R15(game, capsys):
    run(capsys, "advance", game, "--at", "2026-11-03 21:00")
    run(capsys, "act", game, "狼人", "kill", "王权富贵", "--at", "2026-11-03 21:30")
    run(capsys, "advance", game, "--at", "2026-11-03 22:40")
    code, post, err = run(capsys, "announce", game, "hunter", "--told-at", "2026-11-03 23:30")
    assert code == 0, err
    assert "00:00" in post
    code, _, err = run(capsys, "act", game, "王权富贵", "shoot", "石宽", "--at", "2026-11-03 23:50")
    assert code == 0, err


def test_hunter_deadline_without_a_notice_runs_from_the_exit_with_a_warning_M42_R15(game, capsys):
    run(capsys, "advance", game, "--at", "2026-11-03 21:00")
    run(capsys, "act", game, "狼人", "kill", "王权富贵", "--at", "2026-11-03 21:30")
    run(capsys, "advance", game, "--at", "2026-11-03 22:40")
    code, _, err = run(capsys, "act", game, "王权富贵", "shoot", "石宽", "--at", "2026-11-03 23:50")
    assert code == 0 and "不受理" in err and "已过时限" in err
    code, out, _ = run(capsys, "status", game)
    assert "没有记录通知猎人的时间" in out


def test_announce_witch_of_a_past_night_renders_without_recording_unless_told_at(game, capsys, monkeypatch):
    run(capsys, "advance", game, "--at", "2026-11-03 21:00")
    run(capsys, "act", game, "狼人", "kill", "涂山苏苏", "--at", "2026-11-03 21:30")
    run(capsys, "advance", game, "--at", "2026-11-03 22:40")
    _wall(monkeypatch, "2026-11-30 10:00")
    before = _ledger(game)
    code, post, err = run(capsys, "announce", game, "witch", "--night", 1)
    assert code == 0 and "涂山苏苏" in post and "--told-at" in err
    assert _ledger(game) == before
    code, post, err = run(capsys, "announce", game, "witch", "--night", 1, "--told-at", "2026-11-03 21:40")
    assert code == 0 and "22:10" in post and _ledger(game) != before


# -- traps a hurried director found ------------------------------------------------------


def test_close_of_a_settled_day_needs_force_and_writes_nothing_without_it_M42_R15(tmp_path, capsys):
    """Moving a settled day's close recounts that day and may change every night and exit
    after it: refused, nothing written, unless the director says --force."""
    import shutil

    g = tmp_path / "g"
    shutil.copytree(EXAMPLE, g, ignore=shutil.ignore_patterns(".modtool", "*.lock"))
    before = _ledger(g)
    code, _, err = run(capsys, "close", g, "--day", 1, "--at", "2026-11-03 20:00")
    assert code == 1 and "已经结算" in err and "--force" in err
    assert _ledger(g) == before
    code, out, err = run(capsys, "close", g, "--day", 1, "--at", "2026-11-03 20:00", "--force")
    assert code == 0, err
    assert _ledger(g) != before


def test_advance_to_a_time_before_the_phase_began_is_refused_M42_R5b(tmp_path, capsys):
    """Time does not run backwards: an advance --at before the current phase began is refused."""
    import shutil

    g = tmp_path / "g"
    shutil.copytree(EXAMPLE, g, ignore=shutil.ignore_patterns(".modtool", "*.lock"))
    before = _ledger(g)
    code, _, err = run(capsys, "advance", g, "--at", "2026-11-03 21:00")  # day 2 opened 11-04 10:00
    assert code == 1 and "早于" in err and "什么也没写" in err
    assert _ledger(g) == before


def test_open_after_posts_already_imported_or_after_the_close_needs_force_M42_R15(game, capsys):
    before = _ledger(game)
    code, _, err = run(capsys, "open", game, "--day", 1, "--at", "2026-11-03 12:00")  # posts from 11-02 10:00 are in
    assert code == 1 and "--force" in err
    assert _ledger(game) == before
    code, _, err = run(capsys, "open", game, "--day", 1, "--at", "2026-11-02 09:00")
    assert code == 0, err


def test_witch_notice_before_the_wolves_submit_is_refused_M42_R15(game, capsys, monkeypatch):
    """Telling the witch "no one" while the wolves may still submit would be a wrong notice."""
    run(capsys, "advance", game, "--at", "2026-11-03 21:00")
    _wall(monkeypatch, "2026-11-03 21:20")
    before = _ledger(game)
    code, _, err = run(capsys, "announce", game, "witch")
    assert code == 1 and "狼人还没有提交" in err
    assert _ledger(game) == before


def test_status_no_longer_asks_to_tell_the_witch_once_the_notice_is_recorded_M42_R15(game, capsys, monkeypatch):
    run(capsys, "advance", game, "--at", "2026-11-03 21:00")
    run(capsys, "act", game, "狼人", "kill", "涂山苏苏", "--at", "2026-11-03 21:30")
    code, out, _ = run(capsys, "status", game)
    assert "把被指杀的角色告诉女巫" in out
    _wall(monkeypatch, "2026-11-03 21:40")
    assert run(capsys, "announce", game, "witch")[0] == 0
    code, out, _ = run(capsys, "status", game)
    assert "把被指杀的角色告诉女巫" not in out and "已在 11-03 21:40 通知女巫" in out
