"""G-R2: a result the forum has read is never changed silently.

examples/m42-full is a finished game: every day's vote, every night's exits
and the winner are announced (the game advanced past them). A late import,
an old import undone, a card back in time... that would change one is
refused with each change in words and writes nothing; ``--force`` writes it
and lists the same changes, and ``status`` keeps listing what the forum
must correct. A change that alters nothing announced goes through.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.support.values import fresh_process as fresh, run_cli as run

ROOT = Path(__file__).resolve().parent.parent
FULL = ROOT / "examples" / "m42-full"

# 慕容青 never voted on day 1; a vote for 杨一言 found late breaks the 5:5 sheriff tie.
LATE_VOTE = "#30 青青慕容 2026-11-16 12:00\n投票对象：杨一言\n投票理由：补一票\n"
# A roster player's chatter in the day-2 vote thread: no vote, no result changes.
CHATTER = "#40 青青慕容 2026-11-18 12:00\n大家记得投票\n"


@pytest.fixture
def game(tmp_path):
    g = tmp_path / "g"
    shutil.copytree(FULL, g, ignore=shutil.ignore_patterns(".modtool", "*.lock", "expected"))
    return g




def dump(tmp_path: Path, name: str, text: str) -> Path:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def test_g_r2_a_late_import_that_changes_announced_results_is_refused_in_words_and_writes_nothing(game, tmp_path, capsys):
    before = (game / "ledger.yaml").read_bytes()
    code, out, err = run(capsys, "import", game, dump(tmp_path, "late.txt", LATE_VOTE), "--thread", "vote", "--day", "1")
    assert code == 1 and (game / "ledger.yaml").read_bytes() == before
    assert "G-R2" in err and "--force" in err
    assert "第 1 天警长：翠玉鸣鸾 → 杨一言" in err
    assert "第 5 天出局：欢都擎天（被投票放逐） → （不再发生）" in err  # the game now ends before day 5


def test_g_r2_force_records_the_change_lists_it_and_status_names_what_to_correct(game, tmp_path, capsys):
    late = dump(tmp_path, "late.txt", LATE_VOTE)
    _, _, refused = run(capsys, "import", game, late, "--thread", "vote", "--day", "1")
    code, out, err = run(capsys, "import", game, late, "--thread", "vote", "--day", "1", "--force")
    assert code == 0 and "已导入 1 帖" in out
    listed = [line.strip() for line in refused.splitlines() if "：" in line and "→" in line or "：+" in line or "：−" in line]
    assert listed and all(line in err for line in listed)  # the same list, now as done
    code, out, _ = run(capsys, "status", game)
    assert code == 0 and "请到论坛更正" in out and "第 1 天警长：翠玉鸣鸾 → 杨一言" in out
    import json

    code, out, _ = run(capsys, "status", game, "--json")
    assert "第 1 天警长：翠玉鸣鸾 → 杨一言" in json.loads(out)["announced_changed"]
    # Taking the late post back returns every result to what the forum read: no --force, nothing left to correct.
    code, _, err = run(capsys, "undo", game, "--import", "last")
    assert code == 0, err
    code, out, _ = run(capsys, "status", game)
    assert "请到论坛更正" not in out


def test_g_r2_a_change_that_alters_no_announced_result_goes_through_as_before(game, tmp_path, capsys):
    code, out, err = run(capsys, "import", game, dump(tmp_path, "chat.txt", CHATTER), "--thread", "vote", "--day", "2")
    assert code == 0, err
    assert "已导入 1 帖" in out and "G-R2" not in err


def test_g_r2_undoing_an_old_import_is_guarded_too(game, capsys):
    before = (game / "ledger.yaml").read_bytes()
    code, _, err = run(capsys, "undo", game, "--import", "1")  # day 1's whole vote thread
    assert code == 1 and (game / "ledger.yaml").read_bytes() == before
    assert "第 1 天警长：翠玉鸣鸾 → 无人当选" in err


def test_g_r2_undoing_the_last_advance_steps_back_without_force(tmp_path, capsys):
    g = tmp_path / "g"
    shutil.copytree(ROOT / "examples" / "m42", g, ignore=shutil.ignore_patterns(".modtool", "*.lock"))
    assert run(capsys, "advance", g, "--at", "2026-11-05 21:00")[0] == 0  # day 2 closes: its exile is announced
    code, _, err = run(capsys, "undo", g)  # a mistaken advance: the day is open again, nothing decided otherwise
    assert code == 0, err


def test_g_r2_a_waived_yellow_is_told_not_refused(game, capsys):
    code, out, err = run(capsys, "waive", game, "--day", "1", "慕容青", "--rule", "b", "--reason", "系统故障")
    assert code == 0, err
    assert "第 1 天潜水黄牌：−慕容青" in err and "请到论坛更正" in err


def test_g_r2_zhenhuan_a_days_deaths_and_the_winner_are_guarded(tmp_path, capsys):
    g = tmp_path / "z"
    shutil.copytree(ROOT / "examples" / "zhenhuan", g, ignore=shutil.ignore_patterns(".modtool", "*.lock", "expected"))
    before = (g / "ledger.yaml").read_bytes()
    code, _, err = run(capsys, "undo", g, "--import", "1")  # day 1's nominations and votes
    assert code == 1 and (g / "ledger.yaml").read_bytes() == before
    assert "第 1 天死亡：−5号（碎玉轩主人）" in err
    code, _, err = run(capsys, "undo", g, "--import", "1", "--force")
    assert code == 0 and "第 1 天死亡：−5号（碎玉轩主人）" in err
    code, out, _ = run(capsys, "status", g)
    assert "请到论坛更正" in out and "第 1 天死亡" in out


def test_a_change_that_would_leave_a_game_replay_cannot_read_is_refused_with_why_and_writes_nothing(tmp_path, capsys):
    """An event whose time replay cannot read (what a year typo 0026 once wrote, «26-11-17»),
    recorded on a game past day 1: the replay of the change fails, so G-R2's guard says why,
    names no ledger line it did not write, and writes nothing. (The commands refuse such a
    year before this guard: tests/test_typos.py.)"""
    from modtool.core.announced import record
    from modtool.core.gamefile import open_game
    from modtool.base.problems import UserError

    g = tmp_path / "g"
    shutil.copytree(ROOT / "examples" / "m42", g, ignore=shutil.ignore_patterns(".modtool", "*.lock"))
    before = (g / "ledger.yaml").read_bytes()
    fresh()
    with pytest.raises(UserError) as refused:
        record(open_game(g), [{"type": "card", "character": "白月初", "color": "blue", "reason": "划水",
                               "at": "26-11-17 12:00:00"}])
    err = "\n".join(map(str, refused.value.problems))
    assert (g / "ledger.yaml").read_bytes() == before
    assert "这次要记下的事件" in err and "无法重放" in err and "不再发生" not in err


def test_g_r2_an_undone_advance_keeps_what_the_forum_read_so_deciding_it_otherwise_needs_force(tmp_path, capsys, monkeypatch):
    """Undoing an advance steps back before the phase (no --force), but the
    forum's results stay on record: the phase decided again to another
    result is a change of an announced result (before, the undo forgot
    them and a late import then went through without --force)."""
    from modtool import ledger
    from modtool.packs.m42 import results as m42_results

    g = tmp_path / "g"
    shutil.copytree(ROOT / "examples" / "m42", g, ignore=shutil.ignore_patterns(".modtool", "*.lock"))
    assert run(capsys, "advance", g, "--at", "2026-11-05 21:00")[0] == 0
    assert run(capsys, "undo", g)[0] == 0
    kept = [e for e in ledger.load(g / "ledger.yaml").events if e.type == "announced"]
    assert kept and kept[-1].data["by"] == "undo" and kept[-1].data["results"]["day2.exile"] == "金人凤"
    real = m42_results.results

    def other_exile(gd):
        out = dict(real(gd))
        if "day2.exile" in out:
            out["day2.exile"] = (out["day2.exile"][0], "涂山红红")
        return out

    monkeypatch.setattr(m42_results, "results", other_exile)
    before = (g / "ledger.yaml").read_bytes()
    code, _, err = run(capsys, "advance", g, "--at", "2026-11-05 21:00")
    assert code == 1 and "第 2 天放逐：金人凤 → 涂山红红" in err and (g / "ledger.yaml").read_bytes() == before
    monkeypatch.setattr(m42_results, "results", real)
    assert run(capsys, "advance", g, "--at", "2026-11-05 21:00")[0] == 0  # decided as the forum read it


def test_g_r2_corrected_marks_the_forum_corrected_and_status_stops_listing_it(game, tmp_path, capsys):
    """After a forced change, the director corrects the forum and says so: ``corrected``
    records that the forum now reads the replay's results (an ``announced`` fact), and
    status, its JSON and the library's status list nothing more. Before that, status says
    how to mark it; with nothing to correct, ``corrected`` is refused and writes nothing."""
    import json

    from modtool import api

    before = (game / "ledger.yaml").read_bytes()
    code, _, err = run(capsys, "corrected", game)
    assert code == 1 and "没有需要更正的结果" in err and (game / "ledger.yaml").read_bytes() == before
    late = dump(tmp_path, "late.txt", LATE_VOTE)
    assert run(capsys, "import", game, late, "--thread", "vote", "--day", "1", "--force")[0] == 0
    code, out, _ = run(capsys, "status", game)
    assert f"modtool corrected {game}" in out
    fresh()
    assert "第 1 天警长：翠玉鸣鸾 → 杨一言" in api.open_game(game).status().text  # the desk's status too
    code, out, err = run(capsys, "corrected", game)
    assert code == 0 and "已记下论坛已更正" in out and "第 1 天警长：翠玉鸣鸾 → 杨一言" in out
    assert "第 5 天出局：欢都擎天（被投票放逐） → （不再发生）" in out
    code, out, _ = run(capsys, "status", game)
    assert "请到论坛更正" not in out
    assert json.loads(run(capsys, "status", game, "--json")[1])["announced_changed"] == []
    # The results stay guarded as the forum now reads them: undoing the late vote changes them again.
    code, _, err = run(capsys, "undo", game, "--import", "last")
    assert code == 1 and "第 1 天警长：杨一言 → 翠玉鸣鸾" in err
