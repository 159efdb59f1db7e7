"""A director's typo is never a fact (issue 16), in every game and every command.

Each typo is a real command run through the in-process CLI runner on a copy
of an example game cut at an event: it must exit 1, say what is wrong
(naming the option, the value, the day, the yellow or the choice), and leave
the ledger byte for byte as it was. Next to each, the legitimate command
still goes through, so a guard that refuses too much fails here too.

- Typed times (modtool.core.timespan, modtool.core.arguments.time_arg): a four-digit
  year; not before the game's first phase; not more than the margin
  (``time_margin_days``) after the latest time the game knows.
- M42 replays each new fact in memory first (modtool.packs.m42.commands.rehearse):
  a director's decision the rules refuse (M42-R16), and a submission outside
  any window of its ability, are refused; a player's rule-breaking submission
  inside its window stays a recorded fact (G-R1).
- What a command names exists: a lurking yellow for ``waive`` (M42-R14), a
  started day for ``speedup`` (M42-R15), a choice for 甄嬛's ``answer``, a
  woken seat for ``info``, a started day for mafia's ``deadline`` and the next
  day for ``start-day``.
- ``advance`` without ``--at`` before a day's close is refused (M42-R5b: only a
  typed time closes a day early).
"""

from __future__ import annotations

import re
import shutil
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from tests.support.values import run_cli

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"

_ID = re.compile(r'"id":(\d+)|^\s+id: (\d+)$')


def cut(tmp_path: Path, example: str, last_id: int | None = None) -> Path:
    """A copy of ``examples/EXAMPLE`` whose ledger keeps the events up to id ``last_id`` (all when None)."""
    g = tmp_path / example
    shutil.copytree(EXAMPLES / example, g, ignore=shutil.ignore_patterns(".modtool", "*.lock", "expected", "*.png"))
    if last_id is not None:
        lines = (g / "ledger.yaml").read_text(encoding="utf-8").splitlines(keepends=True)
        keep = []
        for i, line in enumerate(lines):
            if line.startswith("  - "):
                m = _ID.search(line) or (_ID.search(lines[i + 1]) if i + 1 < len(lines) else None)
                if m and int(m.group(1) or m.group(2)) > last_id:
                    break
            keep.append(line)
        (g / "ledger.yaml").write_text("".join(keep), encoding="utf-8")
    return g


def ledger(g: Path) -> bytes:
    return (g / "ledger.yaml").read_bytes()


def refused(capsys, g: Path, *args) -> str:
    """``modtool ARGS`` is refused: exit 1, no traceback, the ledger unchanged byte for byte; its message."""
    before = ledger(g)
    code, out, err = run_cli(capsys, *args)
    assert code == 1, (out, err)
    assert ledger(g) == before, err
    assert "Traceback" not in err and "已记入账本" not in err
    return err


def written(capsys, g: Path, *args) -> str:
    before = ledger(g)
    code, out, err = run_cli(capsys, *args)
    assert code == 0, err
    assert ledger(g) != before
    return out


def cjk(text: str) -> bool:
    return any("\u4e00" <= c <= "\u9fff" for c in text)


# M42's examples/m42-full cut at: day 1 with its votes (no phase passed yet), night 1, day 2, dawn 2.
DAY1, NIGHT1, DAY2, DAWN2 = 18, 19, 43, 50


@pytest.fixture
def day1(tmp_path):
    return cut(tmp_path, "m42-full", DAY1)


# -- typed times ------------------------------------------------------------------------------


@pytest.mark.parametrize("typed", ["0026-11-17 12:00", "0001-11-17 12:00"])
def test_a_year_that_is_not_four_digits_is_refused_naming_the_option_and_the_value(tmp_path, capsys, typed):
    # A game just made: no time recorded yet, so the year alone tells the typo.
    g = tmp_path / "new"
    code, _, err = run_cli(capsys, "new", g, "--game", "m42", "--roster", EXAMPLES / "m42-full" / "roster.yaml", "--seed", 1)
    assert code == 0, err
    err = refused(capsys, g, "card", g, "东方孤月", "蓝", "--reason", "x", "--at", typed)
    assert "--at" in err and typed in err and "四位数" in err
    written(capsys, g, "card", g, "东方孤月", "蓝", "--reason", "x", "--at", "2026" + typed[4:])


def test_a_time_before_the_games_first_phase_is_refused(day1, capsys):
    err = refused(capsys, day1, "card", day1, "东方孤月", "蓝", "--reason", "x", "--at", "2026-11-15 12:00")
    assert "2026-11-15 12:00" in err and "早于" in err and "2026-11-16 10:00" in err  # day 1's first post
    written(capsys, day1, "card", day1, "东方孤月", "蓝", "--reason", "x", "--at", "2026-11-16 10:30")


@pytest.mark.parametrize("typed", ["2027-11-17 12:00", "2026-12-17 12:00", "2026-11-21 12:00"])
def test_a_time_more_than_the_margin_after_the_latest_known_time_is_refused(day1, capsys, typed):
    # Day 1 closes 2026-11-17 21:00 (M42-R15): the margin runs three days from there.
    for cmd in (["card", day1, "东方孤月", "蓝", "--reason", "x"], ["proxy", day1, "慕容青", "杨一言", "--day", "1"]):
        err = refused(capsys, day1, *cmd, "--at", typed)
        assert typed in err and "2026-11-17 21:00" in err and "time_margin_days" in err
    written(capsys, day1, "card", day1, "东方孤月", "蓝", "--reason", "x", "--at", "2026-11-20 20:00")


def test_the_margin_is_the_game_option_time_margin_days(day1, capsys):
    path = day1 / "ledger.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("options: {}", "options: {time_margin_days: 30}", 1),
                    encoding="utf-8")
    written(capsys, day1, "card", day1, "东方孤月", "蓝", "--reason", "x", "--at", "2026-12-10 12:00")
    refused(capsys, day1, "card", day1, "东方孤月", "蓝", "--reason", "x", "--at", "2026-12-20 12:00")


def test_open_may_move_day_1_earlier_but_not_by_a_year(day1, capsys):
    err = refused(capsys, day1, "open", day1, "--day", "1", "--at", "2025-11-16 10:00")
    assert "2025-11-16 10:00" in err
    written(capsys, day1, "open", day1, "--day", "1", "--at", "2026-11-16 09:00")


def test_a_mistyped_year_on_the_first_opening_is_put_right_by_recording_it_again(tmp_path, capsys):
    """Nothing bounds the very first time a game records; recorded again (the later wins,
    M42-R15), the fix must not be refused as "later than the latest known time", that time
    being the mistyped opening's own close."""
    g = tmp_path / "g"
    assert run_cli(capsys, "new", g, "--game", "m42", "--roster", EXAMPLES / "m42" / "roster.yaml", "--seed", "1")[0] == 0
    written(capsys, g, "open", g, "--day", "1", "--at", "2025-11-02 10:00")
    written(capsys, g, "open", g, "--day", "1", "--at", "2026-11-02 10:00")
    code, out, _ = run_cli(capsys, "schedule", g, "--day", "1")
    assert code == 0 and "2026-11-02 10:00" in out and "2025" not in out
    # Once posts are saved, they bound it as before: a mistyped year is refused outright.
    day1 = tmp_path / "day1.txt"
    day1.write_text("#2 月初不是白 2026-11-02 12:00\n投票对象：涂山红红\n", encoding="utf-8")
    assert run_cli(capsys, "import", g, day1, "--thread", "vote", "--day", "1")[0] == 0
    refused(capsys, g, "open", g, "--day", "1", "--at", "2027-11-02 10:00")


def test_every_typed_time_of_a_writing_command_is_checked(tmp_path, capsys):
    night = cut(tmp_path, "m42-full", NIGHT1)
    err = refused(capsys, night, "announce", night, "witch", "--told-at", "0026-11-17 21:35")
    assert "--told-at" in err
    refused(capsys, night, "act", night, "狼人", "kill", "翠玉鸣鸾", "--at", "2027-11-17 21:30")
    refused(capsys, night, "close", night, "--day", "1", "--at", "0026-11-17 21:00", "--force")
    zh = cut(tmp_path, "zhenhuan")
    refused(capsys, zh, "nominate", zh, "5", "3", "--at", "2027-12-01 10:20")
    refused(capsys, zh, "vote", zh, "2", "3", "--at", "0026-12-01 10:41")


def test_mafia_deadline_typos_are_refused_in_english(tmp_path, capsys):
    g = cut(tmp_path, "mafia")
    for typed, words in (("0011-05-16 17:30", "four-digit year"), ("2012-05-16 17:30", "more than 30 days after"),
                         ("2010-05-16 17:30", "before this game began")):
        err = refused(capsys, g, "deadline", g, "--day", "1", "--at", typed)
        assert words in err and "--at" in err and not cjk(err), err
    out = written(capsys, g, "deadline", g, "--day", "1", "--at", "2011-05-16 17:30")
    assert "2011-05-16 17:30" in out


# -- M42: the replay of a new fact refuses the director's slips ------------------------------------


def test_m42_r16_a_directors_decision_the_rules_refuse_is_not_written(tmp_path, capsys):
    g = cut(tmp_path, "m42-discipline", 248)  # 西西 substituted once, on day 2
    err = refused(capsys, g, "substitute", g, "西西", "--player", "表哥", "--at", "2026-11-04 13:00")
    assert "已经更换过一次替补" in err and "什么也没写" in err
    err = refused(capsys, g, "assistant", g, "杨十三", "--helper", "九命猫", "--games", "5")
    assert "三场或以下" in err and "什么也没写" in err
    written(capsys, g, "assistant", g, "杨十三", "--helper", "九命猫", "--games", "3")


def test_m42_r16_an_assistants_count_of_earlier_games_is_never_below_zero(tmp_path, capsys):
    g = cut(tmp_path, "m42-discipline", 248)
    err = refused(capsys, g, "assistant", g, "杨十三", "--helper", "九命猫", "--games", "-1")
    assert "--games" in err and "-1" in err


@pytest.mark.parametrize("cut_at, args, words", [
    (DAY2, ["狼人", "kill", "翠玉灵"], "不是第 2 夜的行动时间"),          # a night's kill entered by day
    (NIGHT1, ["翠玉灵", "check", "杨一言"], "没有技能"),                   # M42 roles never change
    (DAWN2, ["翠玉鸣鸾", "check", "沈星河", "--night", "2"], "不是第 2 夜的行动时间"),  # the night is resolved
    (DAY2, ["欢都落兰", "shoot", "杨一言"], "没有待执行的<最后一枪>"),     # M42-R7: nobody may shoot
    (DAY2, ["翠玉鸣鸾", "successor", "杨一言"], "没有待执行的<指定继任警长>"),  # M42-R9: the sheriff is in
    (DAY2, ["南宫羽", "last_words", "--text", "x"], "没有留遗言的权利"),   # M42-R10: still in the game
    (DAY2, ["狐小蓝", "bar", "杨一言"], "禁票无效"),                        # M42-R8: no scapegoat exiled
], ids=["kill-by-day", "no-such-ability", "dawn", "shot", "successor", "last-words", "bar"])
def test_m42_a_submission_outside_every_window_of_its_ability_is_not_written(tmp_path, capsys, cut_at, args, words):
    g = cut(tmp_path, "m42-full", cut_at)
    at = {DAY2: "2026-11-18 12:00", NIGHT1: "2026-11-17 21:30", DAWN2: "2026-11-19 23:00"}[cut_at]
    err = refused(capsys, g, "act", g, *args, "--at", at)
    assert words in err and "这次要记下的事件" in err and "什么也没写" in err


def test_g_r1_a_players_rule_break_inside_the_window_is_still_a_recorded_fact(tmp_path, capsys):
    # Dawn 2: 翠玉鸣鸾, the sheriff, is out and names a successor; naming one who is out breaks M42-R9.
    g = cut(tmp_path, "m42-full", DAWN2)
    before = ledger(g)
    code, _, err = run_cli(capsys, "act", g, "翠玉鸣鸾", "successor", "杨一言", "--at", "2026-11-19 23:00")
    assert code == 0 and "不受理" in err and "目标杨一言已出局" in err and "已记入账本" in err
    assert ledger(g).startswith(before) and ledger(g) != before
    written(capsys, g, "act", g, "翠玉鸣鸾", "successor", "欢都落兰", "--at", "2026-11-19 23:01")  # she names again


# -- what a command names exists ---------------------------------------------------------------


def test_m42_r14_waive_names_a_lurking_yellow_that_was_given(tmp_path, capsys):
    g = cut(tmp_path, "m42-discipline", 248)  # day 1 judged: 花翎 (a, waived), 杨十三 (a) and (b)
    err = refused(capsys, g, "waive", g, "杨十三", "--day", "2", "--rule", "b", "--reason", "x")
    assert "第 2 天还没有结算" in err
    err = refused(capsys, g, "waive", g, "杨十三", "--day", "9", "--rule", "b", "--reason", "x")
    assert "第 9 天" in err
    err = refused(capsys, g, "waive", g, "清彦", "--day", "1", "--rule", "c", "--reason", "x")
    assert "清彦第 1 天没有潜水" in err and "杨十三（b，未投票）" in err  # the day's yellows, listed
    err = refused(capsys, g, "waive", g, "花翎", "--day", "1", "--rule", "a", "--reason", "x")
    assert "已经免除过了" in err
    out = written(capsys, g, "waive", g, "杨十三", "--day", "1", "--rule", "b", "--reason", "请假")
    assert "已免除：杨十三第 1 天潜水（未投票）的黄牌" in out


def test_m42_r15_speedup_names_a_day_that_has_started(tmp_path, capsys):
    g = cut(tmp_path, "m42-full", DAY2)
    err = refused(capsys, g, "speedup", g, "--day", "9")
    assert "第 9 天还没有开始" in err
    written(capsys, g, "speedup", g, "--day", "2")


def test_zh_answer_takes_only_a_choice_the_question_offers(tmp_path, capsys):
    g = cut(tmp_path, "zhenhuan", 1)  # night 1 begun: 玉娆's good character asked (2号、4号、5号、6号、8号、9号)
    for typed in ("不", "3号", "凌云峰"):
        err = refused(capsys, g, "answer", g, "night1/yurao_bind", typed)
        assert typed in err and "可选：2号、4号、5号、6号、8号、9号" in err
    written(capsys, g, "answer", g, "night1/yurao_bind", "８号")


def test_zh_a_yes_no_question_takes_a_yes_or_a_no():
    from modtool.base.problems import UserError
    from modtool.packs.zhenhuan.commands import answer_choice
    from modtool.packs.zhenhuan.state import Question

    q = Question("day1/kuangtu", "狂徒是否在今天死亡？", ["是", "否"])
    for word in ("是", "否", "yes", "No"):
        answer_choice(q, word)
    with pytest.raises(UserError, match="不"):
        answer_choice(q, "不")
    answer_choice(Question("night1/false_info/seat5", "真还是假？", ["真实：1", "错误：5"]), "2号和3号")  # any words


def test_zh_info_names_a_seat_the_night_wakes(tmp_path, capsys):
    g = cut(tmp_path, "zhenhuan", 1)
    err = refused(capsys, g, "info", g, "2", "是")
    assert "不唤醒 2号" in err and "7号" in err
    written(capsys, g, "info", g, "7", "8号：敬妃")


def test_mafia_deadline_and_start_day_name_a_day_in_turn(tmp_path, capsys):
    g = cut(tmp_path, "mafia")
    err = refused(capsys, g, "deadline", g, "--day", "7", "--at", "2011-05-16 17:30")
    assert "day 7 has not started" in err and not cjk(err)
    err = refused(capsys, g, "start-day", g, "--day", "12", "--post", "30")
    assert "the next one is day 2" in err and not cjk(err)
    written(capsys, g, "start-day", g, "--day", "2", "--post", "30")


# -- advance without --at ----------------------------------------------------------------------


def test_m42_r5b_advance_without_at_before_the_close_is_refused_naming_the_close(day1, capsys, monkeypatch):
    from modtool.base import times as clock

    tz = ZoneInfo("Asia/Shanghai")
    monkeypatch.setattr(clock, "wall_clock", lambda _tz: datetime(2026, 11, 16, 21, 0, tzinfo=tz))  # 24 h early
    err = refused(capsys, day1, "advance", day1)
    assert "2026-11-17 21:00" in err and "--at" in err and "M42-R5b" in err
    monkeypatch.setattr(clock, "wall_clock", lambda _tz: datetime(2026, 11, 17, 21, 0, tzinfo=tz))  # the close itself
    written(capsys, day1, "advance", day1)


def test_m42_r5b_a_typed_early_advance_still_closes_the_day_then(day1, capsys):
    out = written(capsys, day1, "advance", day1, "--at", "2026-11-17 18:00")
    assert "M42-R5b" in out
