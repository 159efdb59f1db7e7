"""A host's desk (issue point 4): the host's accounts, ``status``, a count as at
a past post, deadlines with a zone, the game's zone as a fact, a post file that
spans several days. Each from the issue's words, run in-process as a host would."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.support.mafia import ledger_text as _ledger, post, refused, write_ledger
from tests.support.values import run_cli

ROOT = Path(__file__).resolve().parent.parent
REAL = ROOT.parent / "shared" / "real" / "mafiascum"


def _example(tmp_path: Path) -> Path:
    g = tmp_path / "ex"
    shutil.copytree(ROOT / "examples" / "mafia", g, ignore=shutil.ignore_patterns(".modtool", "*.lock", "*.png"))
    return g


def _post(floor: int, author: str, time: str, body: str) -> str:
    return json.dumps({"forum": "53", "thread": "1", "pagelink": "x", "number": str(floor), "user": author,
                       "timestamp": time, "content": body})


# --- the host's accounts ---------------------------------------------------------------

def test_host_account_is_known_to_import_and_its_count_quoting_a_vote_is_no_vote(tmp_path, capsys):
    g = _example(tmp_path)
    assert run_cli(capsys, "host", g, "Fenhl")[0] == 0
    dump = tmp_path / "more.jsonl"
    # #8: the host's vote count quotes a bold vote; #9: a player's vote.
    dump.write_text("\n".join([
        _post(8, "Fenhl", "Mon May 02, 2011 12:30 pm",
              '<blockquote><div><cite>Pine wrote:</cite><span class="noboldsig">Vote: Peabody</span></div></blockquote>'
              '<span class="noboldsig">VOTE: Pine</span> Vote Count 1.1'),
        _post(9, "Valern", "Mon May 02, 2011 12:40 pm", '<span class="noboldsig">vote: Pine</span>'),
    ]) + "\n", encoding="utf-8")
    code, out, err = run_cli(capsys, "import", g, dump, "--thread", "vote", "--day", "1")
    assert code == 0, err
    assert "Fenhl" not in out + err  # no "not in the roster" for the host
    code, out, _ = run_cli(capsys, "tally", g, "--json")
    data = json.loads(out)
    pine = next(r for r in data["votes"] if r["target"] == "Pine")
    assert pine["voters"] == ["Peabody", "ICEninja", "Valern"]  # the host's "VOTE: Pine" is not a vote
    assert "Fenhl" not in out


def test_host_account_of_a_player_needs_from_post_and_counts_before_it(tmp_path, capsys):
    g = _example(tmp_path)
    assert "--from-post" in refused(capsys, g, "host", g, "Pine")
    assert run_cli(capsys, "host", g, "Pine", "--from-post", "4")[0] == 0
    out = run_cli(capsys, "tally", g, "--json")[1]
    # Pine's vote at #3 (before hosting) counts.
    assert any(r["target"] == "Peabody" and "Pine" in r["voters"] for r in json.loads(out)["votes"])
    code, _, err = run_cli(capsys, "host", g, "Pine", "--from-post", "4")
    assert code == 1 and "already" in err


def test_host_from_post_stops_counting_its_later_votes(tmp_path, capsys):
    g = _example(tmp_path)
    assert run_cli(capsys, "host", g, "ICEninja", "--from-post", "7")[0] == 0
    data = json.loads(run_cli(capsys, "tally", g, "--json")[1])
    assert all("ICEninja" not in r["voters"] for r in data["votes"])  # #7 "Unvote, vote Pine" is the host's now


# --- status -------------------------------------------------------------------------------

def test_status_shows_day_living_dead_replacements_votes_deadline_majority(tmp_path, capsys):
    g = _example(tmp_path)
    assert run_cli(capsys, "replace", g, "AMP", "Meransiel", "--post", "6")[0] == 0
    assert run_cli(capsys, "deadline", g, "--day", "1", "--at", "2011-05-09 17:30")[0] == 0
    code, out, err = run_cli(capsys, "status", g)
    assert code == 0, err
    assert out.startswith("Day 1 (from post #3")
    assert "Alive (12):" in out and "Dead (1):" in out
    assert "Meransiel (replaced AMP)" in out
    assert "Klazam: killed Night 0, post #2" in out
    assert "Peabody (2): Pine, RangeroftheNorth" in out
    assert "7 to lynch" in out and "Deadline: 2011-05-09 17:30" in out
    data = json.loads(run_cli(capsys, "status", g, "--json")[1])
    assert data["day"] == 1 and data["majority"] == 7 and data["deadline"] == "2011-05-09 17:30"
    assert data["dead"] == ["Klazam"] and len(data["living"]) == 12
    amp = next(s for s in data["slots"] if s["slot"] == "AMP")
    assert amp == {"slot": "AMP", "player": "Meransiel", "former": ["AMP"], "alive": True}
    assert {"target": "Pine", "voters": ["Peabody", "ICEninja"]} in data["tally"]["votes"]


def test_status_after_a_day_without_a_lynch_lists_no_new_death(tmp_path, capsys):
    g = _example(tmp_path)
    assert run_cli(capsys, "start-day", g, "--day", "2", "--post", "8")[0] == 0
    data = json.loads(run_cli(capsys, "status", g, "--json")[1])
    assert data["day"] == 2 and data["dead"] == ["Klazam"]  # day 1 ended with no lynch


def test_ms_r3_status_lists_a_replayed_lynch_as_a_death_and_replace_refuses_the_slot(tmp_path, capsys):
    """MS-R3: the third of five votes on Dave (#3) lynches him; status lists it as his death,
    and (MS-R4) a dead slot is not replaced. The test above this one has no lynch at all."""
    g = write_ledger(tmp_path / "g", ["Alice", "Bob", "Carol", "Dave", "Erin"],
                     [{"type": "start_day", "day": 1, "post": 1},
                      *(post(n, who, "[b]vote: Dave[/b]") for n, who in ((1, "Alice"), (2, "Bob"), (3, "Carol"))),
                      {"type": "start_day", "day": 2, "post": 10}, post(10, "Erin", "Day 2.", day=2)])
    data = json.loads(run_cli(capsys, "status", g, "--json")[1])
    dave = next(r for r in data["slots"] if r["slot"] == "Dave")
    assert dave["alive"] is False and dave["died"] == {"how": "lynched Day 1", "post": 3, "day": 1}
    assert data["day"] == 2 and data["dead"] == ["Dave"] and len(data["living"]) == 4
    assert "Dave: lynched Day 1, post #3" in run_cli(capsys, "status", g)[1]
    err = refused(capsys, g, "replace", g, "Dave", "Zed", "--post", "12")
    assert "Dave is dead" in err and "lynched Day 1" in err and "#3" in err


# --- announce --upto-post ----------------------------------------------------------------

def test_announce_vote_upto_post_renders_the_count_as_at_that_post(tmp_path, capsys):
    g = _example(tmp_path)
    code, out, err = run_cli(capsys, "announce", g, "vote", "--upto-post", "4")
    assert code == 0, err
    assert "Peabody (1)[/b]: Pine" in out and "Pine (1)[/b]: Peabody" in out and "ICEninja" in out.split("Not voting")[1]
    whole = run_cli(capsys, "announce", g, "vote")[1]
    assert "Pine (2)[/b]: Peabody, ICEninja" in whole


def test_announce_upto_post_is_refused_for_a_game_that_does_not_read_it(tmp_path, capsys):
    g = tmp_path / "m42"
    shutil.copytree(ROOT / "examples" / "m42", g, ignore=shutil.ignore_patterns(".modtool", "*.lock"))
    code, out, err = run_cli(capsys, "announce", g, "vote", "--day", "2", "--upto-post", "4")
    assert code == 1 and "--upto-post" in err and out == ""


# --- deadlines with a zone -----------------------------------------------------------------

@pytest.mark.parametrize("typed", ["2011-05-05 16:00 CET", "2011-05-05 16:00 UTC+1", "2011-05-05 16:00 +01:00",
                                   "2011-05-05 17:00 Europe/Berlin", "2011-05-05 11:00 America/New_York"])
def test_deadline_takes_a_zone_or_an_offset_and_keeps_the_instant(tmp_path, capsys, typed):
    g = _example(tmp_path)
    code, out, err = run_cli(capsys, "deadline", g, "--day", "1", "--at", typed)
    assert code == 0, err
    assert 'at: "2011-05-05 15:00"' in _ledger(g)  # the game's zone is UTC
    assert "2011-05-05 15:00 (UTC)" in out


@pytest.mark.parametrize("typed", ["2011-05-05", "2011-05-05 CET"])
def test_a_date_without_a_time_is_refused_with_an_example(tmp_path, capsys, typed):
    g = _example(tmp_path)
    err = refused(capsys, g, "deadline", g, "--day", "1", "--at", typed)
    assert "--at" in err and "without a time" in err and "2011-05-05 16:00" in err


def test_an_unknown_zone_after_a_time_is_refused(tmp_path, capsys):
    g = _example(tmp_path)
    code, _, err = run_cli(capsys, "deadline", g, "--day", "1", "--at", "2011-05-05 16:00 Mars/Olympus")
    assert code == 1 and "Mars/Olympus" in err and "Europe/Berlin" in err


# --- the game's zone as a fact --------------------------------------------------------------

def test_timezone_is_a_fact_and_earlier_times_keep_their_instants(tmp_path, capsys):
    g = _example(tmp_path)
    assert run_cli(capsys, "deadline", g, "--day", "1", "--at", "2011-05-02 16:10")[0] == 0  # UTC
    before = json.loads(run_cli(capsys, "tally", g, "--json")[1])
    code, out, err = run_cli(capsys, "timezone", g, "Europe/Berlin")
    assert code == 0, err
    assert "type: timezone" in _ledger(g) and "zone: Europe/Berlin" in _ledger(g)
    assert "options: {}" in _ledger(g)  # not a hand edit of the options
    after = json.loads(run_cli(capsys, "tally", g, "--json")[1])
    assert after["deadline"] == "2011-05-02 18:10"  # the same instant, shown in Berlin (CEST)
    assert {k: v for k, v in after.items() if k != "deadline"} == {k: v for k, v in before.items() if k != "deadline"}
    # A time typed from now on is in Berlin.
    assert run_cli(capsys, "deadline", g, "--day", "1", "--at", "2011-05-02 18:30")[0] == 0
    assert json.loads(run_cli(capsys, "tally", g, "--json")[1])["upto_post"] == 5  # 16:30 UTC: #6 at 16:40 is late
    assert "times in Europe/Berlin" in run_cli(capsys, "status", g)[1]
    assert run_cli(capsys, "check", g)[0] == 0


def test_timezone_refuses_an_unknown_zone_with_a_did_you_mean(tmp_path, capsys):
    g = _example(tmp_path)
    assert "did you mean Europe/Berlin?" in refused(capsys, g, "timezone", g, "Europe/Berlni")


def test_timezone_is_guarded_by_g_r2_like_every_fact(tmp_path, capsys):
    """G-R2: the zone change goes through record(); it keeps instants, so a decided lynch stays."""
    g = _example(tmp_path)
    assert run_cli(capsys, "deadline", g, "--day", "1", "--at", "2011-05-02 16:10")[0] == 0
    assert run_cli(capsys, "timezone", g, "Asia/Tokyo")[0] == 0
    assert json.loads(run_cli(capsys, "tally", g, "--json")[1])["deadline_passed"] is True


# --- a post file that spans several days ------------------------------------------------------

@pytest.mark.skipif(not REAL.is_dir(), reason="the shared real data sit beside the repository")
def test_one_post_file_spanning_days_imports_once_with_start_day_facts(tmp_path, capsys):
    """Game 1145 #390-#554 (Days 3-5) in one file: imported once, the days cut by start-day."""
    g = tmp_path / "g"
    assert run_cli(capsys, "new", g, "--game", "mafia", "--roster", ROOT / "examples" / "mafia-1145" / "roster.yaml")[0] == 0
    for args in (("host", g, "Fenhl"), ("host", g, "Zodiark13", "--from-post", "410"),
                 ("start-day", g, "--day", "1", "--post", "390"),
                 ("import", g, REAL / "game1145-days3-5-posts390-554.jsonl", "--thread", "vote", "--day", "1"),
                 ("start-day", g, "--day", "2", "--post", "410"), ("start-day", g, "--day", "3", "--post", "511")):
        code, out, err = run_cli(capsys, *args)
        assert code == 0, err
        assert "Fenhl" not in err and "Zodiark13" not in err
    days = [json.loads(run_cli(capsys, "tally", g, "--day", d, "--json")[1]) for d in ("1", "2", "3")]
    # Each day reads to the post before the next one starts (the file's last post is #554);
    # ``[…][:1] and …`` had been always true for Day 1, whatever it read.
    assert [d["upto_post"] for d in days] == [409, 510, 554]
    # Each day's own vote posts were read (the replacements are not recorded here, so some are unresolved).
    assert all(d["votes"] or d["unresolved"] for d in days)
    assert _ledger(g).count('"type":"import"') == 1  # one import, not one per day
