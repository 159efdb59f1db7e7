"""G-R2 in a mafia game: a day's lynch the thread has read is never changed silently.

A day's lynch is announced once it is decided (MS-R3): a majority reached,
the host's deadline passed, or the next day started. A late import (or any
fact) that would change it is refused in English with the change listed and
writes nothing; ``--force`` records it and lists it again; a harmless post
goes through. Small games built here with modtool's own commands, and Game
1145 built from the shared real posts (never copied into the repository).
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from tests.support.inprocess import modtool_server
from tests.support.values import fresh_process as fresh, run_cli as run

ROOT = Path(__file__).resolve().parent.parent
REAL = ROOT.parent / "shared" / "real" / "mafiascum"
SLOTS = ["Alice", "Bob", "Carol", "Dave", "Erin"]


def topic(path: Path, posts: list[tuple[int, str, str]], stamp: str = "Fri Mar 25, 2011 12:{n:02d} pm") -> Path:
    """A saved topic (vca JSON lines): (number, user, content HTML); post n at 12:0n pm forum time."""
    path.write_text("".join(json.dumps({"number": str(n), "user": user, "timestamp": stamp.format(n=n),
                                        "content": html}) + "\n" for n, user, html in posts), encoding="utf-8")
    return path


def vote(name: str) -> str:
    return f'<span class="noboldsig">vote: {name}</span>'


# Day 1 (5 alive, 3 to lynch): Erin is hammered at #6. Day 2 starts at #10.
DAY1 = [(1, "Alice", vote("Erin")), (2, "Bob", vote("Erin")), (5, "Carol", vote("Dave")),
        (6, "Dave", vote("Erin")), (7, "Erin", vote("Dave"))]
DAY2 = [(10, "Host", "Night 1 is over, nobody died. Day 2 begins."), (11, "Alice", vote("Bob"))]
# Post #4, saved late: Alice moves to Dave, so Erin never reaches 3 and Erin's #7 hammers Dave.
LATE_VOTE = [(4, "Alice", vote("Dave"))]
LATE_CHATTER = [(3, "Carol", "Hello all, what a day.")]


@pytest.fixture
def game(tmp_path, capsys):
    roster = tmp_path / "roster.yaml"
    roster.write_text("".join(f"- {{name: {n}, account: {n}}}\n" for n in SLOTS), encoding="utf-8")
    g = tmp_path / "g"
    for args in (["new", g, "--game", "mafia", "--roster", roster], ["start-day", g, "--day", "1", "--post", "1"],
                 ["import", g, topic(tmp_path / "d1.jsonl", DAY1), "--thread", "vote", "--day", "1"],
                 ["start-day", g, "--day", "2", "--post", "10"],
                 ["import", g, topic(tmp_path / "d2.jsonl", DAY2), "--thread", "vote", "--day", "2"]):
        code, _, err = run(capsys, *args)
        assert code == 0, err
    return g


def results(g: Path) -> dict:
    from modtool.core.gamefile import open_game
    from modtool.core.registry import get_pack

    fresh()
    return get_pack("mafia").results(open_game(g))


def test_g_r2_ms_r3_a_decided_day_gives_its_lynch_in_english_and_a_running_day_nothing(game):
    assert results(game) == {"day1.lynch": ("Day 1 lynch", "Erin")}  # day 2 runs: no deadline, no majority yet


def test_g_r2_ms_r3_the_deadline_passed_without_a_majority_is_announced_as_nobody(game, tmp_path, capsys):
    assert run(capsys, "deadline", game, "--day", "2", "--at", "2011-03-25 17:11")[0] == 0  # 12:11 pm forum time
    assert "day2.lynch" not in results(game)  # no post after the deadline read yet
    late = topic(tmp_path / "after.jsonl", [(12, "Carol", "Too late?")])
    code, _, err = run(capsys, "import", game, late, "--thread", "vote", "--day", "2")
    assert code == 0, err
    assert results(game)["day2.lynch"] == ("Day 2 lynch", "Nobody (the deadline passed without a majority)")


def test_g_r2_ms_r3_no_lynch_by_majority_is_a_result(tmp_path, capsys):
    roster = tmp_path / "roster.yaml"
    roster.write_text("".join(f"- {n}\n" for n in SLOTS), encoding="utf-8")
    g = tmp_path / "nl"
    posts = [(1, n, '<span class="bbvote" title="This is an official vote.">VOTE: no lynch</span>') for n in SLOTS[:3]]
    posts = [(i + 1, user, html) for i, (_, user, html) in enumerate(posts)]
    for args in (["new", g, "--game", "mafia", "--roster", roster], ["start-day", g, "--day", "1", "--post", "1"],
                 ["import", g, topic(tmp_path / "nl.jsonl", posts), "--thread", "vote", "--day", "1"]):
        assert run(capsys, *args)[0] == 0
    assert results(g) == {"day1.lynch": ("Day 1 lynch", "No lynch (majority reached)")}


def test_g_r2_a_late_import_that_changes_a_days_lynch_is_refused_in_english_with_the_change(game, tmp_path, capsys):
    before = (game / "ledger.yaml").read_bytes()
    code, out, err = run(capsys, "import", game, topic(tmp_path / "late.jsonl", LATE_VOTE), "--thread", "vote", "--day", "1")
    assert code == 1 and (game / "ledger.yaml").read_bytes() == before
    assert "Day 1 lynch: Erin → Dave" in err
    assert "already announced in the thread (G-R2); nothing was written" in err and "--force" in err
    assert "Traceback" not in err and not any("\u4e00" <= ch <= "\u9fff" for ch in out + err), err
    assert "：" not in err  # the separator is English too


def test_g_r2_force_records_the_late_import_and_lists_the_change_undo_takes_it_back(game, tmp_path, capsys):
    late = topic(tmp_path / "late.jsonl", LATE_VOTE)
    code, out, err = run(capsys, "import", game, late, "--thread", "vote", "--day", "1", "--force")
    assert code == 0, err
    assert "Imported 1 posts" in out
    assert "Recorded with --force" in err and "Day 1 lynch: Erin → Dave" in err
    assert results(game)["day1.lynch"] == ("Day 1 lynch", "Dave")
    code, out, err = run(capsys, "tally", game, "--day", "1")
    assert code == 0 and "Dave is lynched (majority reached at post #7)" in out
    # Taking the late post back returns the lynch to what the thread read: no --force needed.
    code, _, err = run(capsys, "undo", game, "--import", "last")
    assert code == 0, err
    assert results(game)["day1.lynch"] == ("Day 1 lynch", "Erin")


def test_g_r2_a_harmless_late_post_goes_through_as_before(game, tmp_path, capsys):
    code, out, err = run(capsys, "import", game, topic(tmp_path / "chat.jsonl", LATE_CHATTER), "--thread", "vote", "--day", "1")
    assert code == 0, err
    assert "Imported 1 posts" in out and "G-R2" not in err


def test_g_r2_a_host_fact_that_changes_a_lynch_is_refused_too(game, capsys):
    """A death recorded back in day 1 (before the hammer) changes the majority and the lynch."""
    before = (game / "ledger.yaml").read_bytes()
    code, _, err = run(capsys, "death", game, "Bob", "--post", "1", "--how", "modkilled")
    assert code == 1 and (game / "ledger.yaml").read_bytes() == before
    assert "Day 1 lynch: Erin →" in err and "nothing was written" in err


# --- Game 1145, from the shared real posts -------------------------------------------------

needs_real = pytest.mark.skipif(not (REAL / "game1145-day1-posts0-292.jsonl").is_file(),
                                reason=f"the shared real data is not at {REAL}")


@pytest.fixture(scope="module")
def saved_late(tmp_path_factory) -> tuple[Path, Path]:
    """Game 1145 built by examples/mafia-1145/build.sh, except that day 1's last
    page (#276 to #292, the hammer at #291) was saved only after day 2 began:
    the game folder, and that page as a file to import late."""
    base = tmp_path_factory.mktemp("g1145late")
    real = base / "real"
    real.mkdir()
    lines = (REAL / "game1145-day1-posts0-292.jsonl").read_text(encoding="utf-8").splitlines(keepends=True)
    early = [ln for ln in lines if int(json.loads(ln)["number"]) < 276]
    (real / "game1145-day1-posts0-292.jsonl").write_text("".join(early), encoding="utf-8")
    (real / "game1145-day2-posts293-389.jsonl").symlink_to(REAL / "game1145-day2-posts293-389.jsonl")
    (real / "game1145-days3-5-posts390-554.jsonl").symlink_to(REAL / "game1145-days3-5-posts390-554.jsonl")
    late = base / "page12.jsonl"
    late.write_text("".join(ln for ln in lines if int(json.loads(ln)["number"]) >= 276), encoding="utf-8")
    target = base / "game"
    with modtool_server() as shim:  # the script's commands run in this process, not as two dozen start-ups
        subprocess.run(["bash", str(ROOT / "examples" / "mafia-1145" / "build.sh"), str(target)], check=True,
                       capture_output=True, env={"MODTOOL": shim["MODTOOL"], "MODTOOL_SHIM": shim["MODTOOL_SHIM"],
                                                 "PATH": "/usr/bin:/bin", "MAFIA_REAL": str(real)})
    return target, late


@needs_real
def test_g_r2_game1145_the_day1_hammer_saved_late_is_refused_then_forced(saved_late, capsys):
    import shutil

    built, late = saved_late
    g = built.parent / "copy"
    shutil.rmtree(g, ignore_errors=True)
    shutil.copytree(built, g, ignore=shutil.ignore_patterns(".modtool", "*.lock"))
    assert results(g)["day1.lynch"] == ("Day 1 lynch", "Nobody (the deadline passed without a majority)")
    before = (g / "ledger.yaml").read_bytes()
    code, out, err = run(capsys, "import", g, late, "--thread", "vote", "--day", "1")
    assert code == 1 and (g / "ledger.yaml").read_bytes() == before, err
    assert "Day 1 lynch: Nobody (the deadline passed without a majority) → Trendall" in err
    assert not any("\u4e00" <= ch <= "\u9fff" for ch in out + err), err
    code, out, err = run(capsys, "import", g, late, "--thread", "vote", "--day", "1", "--force")
    assert code == 0, err
    assert "Recorded with --force" in err and "→ Trendall" in err
    assert results(g)["day1.lynch"] == ("Day 1 lynch", "Trendall")
    assert results(g)["day2.lynch"] == ("Day 2 lynch", "inHimshallibe")  # as the host announced at #389


@needs_real
def test_g_r2_game1145_reimporting_day2_or_a_missing_chatter_post_goes_through(saved_late, tmp_path, capsys):
    import shutil

    built = tmp_path / "copy"
    shutil.copytree(saved_late[0], built, ignore=shutil.ignore_patterns(".modtool", "*.lock"))
    code, out, err = run(capsys, "import", built, REAL / "game1145-day2-posts293-389.jsonl", "--thread", "vote", "--day", "2")
    assert code == 0 and "Imported 0 posts, skipped 97" in out, err
    # Post #74 is missing from the scrape: found late, it is chatter and changes no lynch.
    chat = topic(tmp_path / "p74.jsonl", [(74, "Peabody", "I'll read back later today.")],
                 "Sun Mar 27, 2011 9:30 pm")
    code, out, err = run(capsys, "import", built, chat, "--thread", "vote", "--day", "1")
    assert code == 0 and "Imported 1 posts" in out and "G-R2" not in err, err


# --- G-R3: phpBB's edit line, and an edited vote post in the count ----------------------------

EDIT_LINE = "Last edited by Alice on Fri Mar 25, 2011 1:15 pm; edited 1 time in total."


def page(path: Path, posts: list[tuple[int, str, str, str | None]]) -> Path:
    """A saved prosilver page: (number, user, content HTML, notice or None); post n at 12:0n pm."""
    out = ['<html><head><link rel="canonical" href="https://forum.mafiascum.net/viewtopic.php?t=1&amp;start=0"></head><body>']
    for n, user, html, notice in posts:
        out.append(f'<div id="p{1000 + n}" class="post bg2"><div class="inner"><div class="postbody">'
                   f'<p class="author"><a href="#p{1000 + n}">#{n}</a> by <strong><a href="./memberlist.php?u=1" class="username">{user}</a></strong>'
                   f' &raquo; Fri Mar 25, 2011 12:{n:02d} pm</p><div class="content">{html}</div>'
                   + (f'<div class="notice">{notice}</div>' if notice else "")
                   + '<div id="sig" class="signature">Town for life</div></div></div></div>')
    path.write_text("".join(out) + "</body></html>", encoding="utf-8")
    return path


def test_g_r3_phpbbs_edit_line_is_the_posts_edit_mark_never_its_text(tmp_path):
    from datetime import timezone

    from modtool.packs.mafia.forum import read_topic

    notice = ('Last edited by <a href="./memberlist.php?mode=viewprofile&amp;u=7" class="username">Alice</a> on '
              'Fri Mar 25, 2011 1:15 pm, edited 2 times in total.<br /><strong>Reason:</strong> typo')
    html = page(tmp_path / "p.html", [(11, "Alice", vote("Bob"), notice),
                                      (12, "Bob", vote("Alice") + f'<div class="notice">{EDIT_LINE}</div>', None),
                                      (13, "Carol", "no edit", None)]).read_text(encoding="utf-8")
    posts, problems = read_topic(html, "p.html", timezone.utc)
    assert problems == []
    assert [(p.body, p.edited) for p in posts] == [
        ("[b]vote: Bob[/b]", "Last edited by Alice on Fri Mar 25, 2011 1:15 pm, edited 2 times in total. Reason: typo"),
        ("[b]vote: Alice[/b]", EDIT_LINE),  # a style that puts the notice inside the content
        ("no edit", None)]
    # A scraper that kept the notice at the end of the post's HTML (JSON lines): the same.
    jsonl = topic(tmp_path / "p.jsonl", [(11, "Alice", vote("Bob") + "<br>" + EDIT_LINE)]).read_text(encoding="utf-8")
    [post], _ = read_topic(jsonl, "p.jsonl", timezone.utc)
    assert (post.body, post.edited) == ("[b]vote: Bob[/b]", EDIT_LINE)


def test_g_r3_ms_r1_a_reimported_edited_vote_post_is_a_new_version_counted_as_it_reads_now_with_both_shown(game, tmp_path, capsys):
    first = page(tmp_path / "d2.html", [(12, "Alice", vote("Bob"), None)])
    code, out, err = run(capsys, "import", game, first, "--thread", "vote", "--day", "2")
    assert code == 0 and "Imported 1 posts" in out, err
    edited = page(tmp_path / "d2-again.html", [(12, "Alice", vote("Carol"), EDIT_LINE)])
    code, out, err = run(capsys, "import", game, edited, "--thread", "vote", "--day", "2")
    assert code == 0, err
    assert "Note: post #12 (Alice) was edited on the forum: the new version is recorded" in out
    assert not any("\u4e00" <= ch <= "\u9fff" for ch in out + err), out + err
    ledger_text = (game / "ledger.yaml").read_text(encoding="utf-8")
    assert "vote: Bob" in ledger_text and "vote: Carol" in ledger_text  # the old version stays
    code, out, err = run(capsys, "tally", game, "--day", "2", "--json")
    data = json.loads(out)
    assert {"target": "Carol", "voters": ["Alice"]} in data["votes"]
    assert {"target": "Bob", "voters": ["Alice"]} not in data["votes"]
    assert data["edited"] == [{"post": 12, "voter": "Alice", "edited": EDIT_LINE, "now": "vote Carol",
                               "before": ["vote Bob"]}]
    code, out, err = run(capsys, "tally", game, "--day", "2")
    assert f"Edited: post #12, Alice ({EDIT_LINE}): counted as it reads now: vote Carol; before: vote Bob (G-R3)" in out


def test_g_r3_g_r2_an_edit_that_changes_an_announced_lynch_is_refused_then_forced(game, tmp_path, capsys):
    """Dave's hammer (#6) edited to a vote for himself: Erin's #7 hammers Dave instead."""
    before = (game / "ledger.yaml").read_bytes()
    again = topic(tmp_path / "d1-again.jsonl", [(6, "Dave", vote("Dave") + "<br>" + EDIT_LINE.replace("Alice", "Dave"))])
    code, out, err = run(capsys, "import", game, again, "--thread", "vote", "--day", "1")
    assert code == 1 and (game / "ledger.yaml").read_bytes() == before
    assert "Day 1 lynch: Erin → Dave" in err
    code, out, err = run(capsys, "import", game, again, "--thread", "vote", "--day", "1", "--force")
    assert code == 0 and "Note: post #6 (Dave) was edited on the forum" in out, err
    code, out, err = run(capsys, "tally", game, "--day", "1")
    assert "Dave is lynched (majority reached at post #7)" in out
    assert "Edited: post #6, Dave (Last edited by Dave on" in out and "counted as it reads now: vote Dave; before: vote Erin" in out


# --- English: the core's G-R2/G-R3 words a mafia host reads ----------------------------------

def _core_messages(module: Path) -> set[str]:
    """The literal messages ``module`` passes to ``t(…)`` / ``tr(…)`` (the core's Chinese msgids)."""
    import ast

    found = set()
    for node in ast.walk(ast.parse(module.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) in ("t", "tr") and node.args \
                and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
            found.add(node.args[0].value)
    return found


@pytest.mark.parametrize("module", ["core/announced.py", "core/importer.py", "cli/app.py", "cli/commands.py", "core/gamefile.py", "core/upgrade.py"])
def test_g_r2_g_r3_every_core_message_of_announced_import_edit_and_upgrade_has_an_english_entry(module):
    from modtool.base.i18n import catalogue

    en = catalogue("en").gettext
    missing = sorted(m for m in _core_messages(ROOT / "modtool" / module) if en(m) == m)
    assert missing == [], f"modtool/locale/en/LC_MESSAGES/modtool.po lacks: {missing}"


def test_g_r2_the_force_option_of_a_mafia_command_is_explained_in_english(game, capsys):
    code, out, err = run(capsys, "death", game, "--help")
    assert code == 0, err
    assert "--force" in out and "already announced in the thread (G-R2)" in " ".join(out.split())
    assert not any("\u4e00" <= ch <= "\u9fff" for ch in out), out


def test_g_r3_a_vote_post_first_imported_already_edited_is_flagged_without_a_version_before(game, tmp_path, capsys):
    edited = page(tmp_path / "d2.html", [(12, "Alice", vote("Carol"), EDIT_LINE)])
    assert run(capsys, "import", game, edited, "--thread", "vote", "--day", "2")[0] == 0
    code, out, err = run(capsys, "tally", game, "--day", "2")
    assert code == 0, err
    assert (f"Edited: post #12, Alice ({EDIT_LINE}): counted as it reads now: vote Carol; "
            "the version before was not saved (G-R3)") in out
