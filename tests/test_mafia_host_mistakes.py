"""What an English-speaking host runs into, on purpose or not: posts whose text
looks like markup, odd numbers and bytes, a damaged ledger, the wrong game's
commands, days started out of order. Each is named, in English, never a
traceback and never a vote counted by accident."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from modtool.packs.mafia.actions import actions
from modtool.packs.mafia.phpbb import html_to_bbcode
from tests.support.values import run_main
from tests.test_mafia_rules import game, tally

ROOT = Path(__file__).resolve().parent.parent


def _example(tmp_path: Path) -> Path:
    g = tmp_path / "ex"
    shutil.copytree(ROOT / "examples" / "mafia", g, ignore=shutil.ignore_patterns(".modtool", "*.lock", "*.png"))
    return g


def test_ms_r1_text_that_looks_like_markup_never_becomes_a_quote_or_a_vote():
    cases = {
        # a "[/quote]" typed inside a quote must not end it early
        '<blockquote><div><cite>AMP wrote:</cite>hi [/quote]<span class="noboldsig">vote: Peabody</span></div></blockquote>': [],
        "<code>[b]vote: Pine[/b]</code>": [],  # code is shown literally
        "&#91;vote&#93;AMP&#91;/vote&#93;": [],  # brackets written as entities are text
        '<blockquote><div><cite>x"][/quote][b]vote: Pine[/b][quote="y wrote:</cite>z</div></blockquote>': [],
        # a plain "[quote]" in text must not swallow the real vote after it
        'Use the [quote] tag please. <span class="noboldsig">vote: AMP</span>': [("vote", "AMP")],
    }
    for html, want in cases.items():
        body = html_to_bbcode(html)
        assert [(a.kind, a.target) for a in actions(body)] == want, (html, body)
    assert html_to_bbcode('<a href="http://x/]y">l</a>') == "[url=http://x/%5Dy]l[/url]"


def test_ms_r2_aliases_given_in_the_roster_file_resolve(tmp_path, capsys):
    roster = tmp_path / "r.yaml"
    roster.write_text("- {name: Pine, account: Pine, aliases: [Conifer]}\n- {name: Valern, account: Valern}\n"
                      "- {name: Trendall, account: Trendall}\n", encoding="utf-8")
    g = tmp_path / "g"
    assert run_main(["new", str(g), "--game", "mafia", "--roster", str(roster)]) == 0
    with open(g / "ledger.yaml", "a", encoding="utf-8") as f:  # a new ledger ends with "events:"
        f.write("  - " + json.dumps({"type": "post", "thread": "vote", "day": 1, "floor": 1, "author": "Valern",
                                     "time": "2011-03-25 12:01", "body": "[b]vote: Conifer[/b]"}) + "\n")
    capsys.readouterr()
    assert run_main(["tally", str(g), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["votes"] == [{"target": "Pine", "voters": ["Valern"]}]


def test_names_that_differ_only_in_case_are_refused_in_the_roster(tmp_path, capsys):
    roster = tmp_path / "r.yaml"
    roster.write_text("- Pine\n- pine\n- Valern\n", encoding="utf-8")
    assert run_main(["new", str(tmp_path / "g"), "--game", "mafia", "--roster", str(roster)]) == 1
    err = capsys.readouterr().err
    assert "differ only in case" in err and not (tmp_path / "g").exists()


def test_odd_numbers_and_bytes_in_a_saved_topic_are_named_not_crashed_on(tmp_path, capsys):
    g = _example(tmp_path)
    big = tmp_path / "big.jsonl"
    big.write_text(json.dumps({"number": "99999999999999999999", "user": "Pine", "timestamp": "Mon May 02, 2011 10:00 am",
                               "content": "x"}) + "\n", encoding="utf-8")
    capsys.readouterr()
    assert run_main(["import", str(g), str(big), "--thread", "vote", "--day", "1"]) == 1
    assert "Traceback" not in capsys.readouterr().err
    assert run_main(["check", str(g)]) == 0  # the ledger was not touched
    page = tmp_path / "page.html"
    page.write_text('<div id="p7" class="post"><h3>Re: Mini Normal #1145</h3><p class="author">by <strong>'
                    '<a class="username">Pine&#99999999999;</a></strong> &raquo; Mon May 02, 2011 10:00 am</p>'
                    '<div class="content"><span class="noboldsig">vote: Valern</span></div></div>', encoding="utf-8")
    capsys.readouterr()
    assert run_main(["import", str(g), str(page), "--thread", "vote", "--day", "1", "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert "Would import 1 posts" in out and "#1145" not in out  # the subject's "#1145" is not the post number


def test_a_damaged_ledger_is_named_before_a_fact_command_reads_its_arguments(tmp_path, capsys):
    g = _example(tmp_path)
    text = (g / "ledger.yaml").read_text(encoding="utf-8")
    (g / "ledger.yaml").write_text(text.replace('"floor":3,', '"floor":"three",', 1), encoding="utf-8")
    capsys.readouterr()
    assert run_main(["death", str(g), "Pine", "--post", "30"]) == 1
    err = capsys.readouterr().err
    assert 'floor of a post event must be a whole number, not "three"' in err and "wrote nothing" in err


def test_a_new_game_where_a_file_is_refused(tmp_path, capsys):
    (tmp_path / "afile").write_text("x", encoding="utf-8")
    assert run_main(["new", str(tmp_path / "afile"), "--game", "mafia", "--roster",
                     str(ROOT / "examples" / "mafia" / "roster.yaml")]) == 1
    assert capsys.readouterr().err.startswith("Error: ") and (tmp_path / "afile").read_text() == "x"


def test_the_other_games_commands_refuse_a_mafia_folder_in_english(tmp_path, capsys):
    g = _example(tmp_path)
    before = (g / "ledger.yaml").read_bytes()
    for argv in (["nominate", str(g), "1", "2"], ["vote", str(g), "Pine", "Peabody"], ["info", str(g), "1", "x"],
                 ["answer", str(g), "k", "v"], ["night", str(g)], ["card", str(g), "Pine", "blue", "--reason", "x"],
                 ["cards", str(g)], ["grimoire", str(g), "-o", str(tmp_path / "x.html")]):
        capsys.readouterr()
        assert run_main(argv) == 1, argv
        err = capsys.readouterr().err
        assert err.startswith("Error: This command is only for") and not any("\u4e00" <= c <= "\u9fff" for c in err), (argv, err)
    assert (g / "ledger.yaml").read_bytes() == before


def test_an_unknown_file_is_refused_in_english(tmp_path, capsys):
    g = _example(tmp_path)
    capsys.readouterr()
    assert run_main(["import", str(g), str(g / "roster.yaml"), "--thread", "vote", "--day", "1"]) == 1
    err = capsys.readouterr().err
    assert "Unknown file format" in err and not any("\u4e00" <= c <= "\u9fff" for c in err)


def test_days_start_in_order(tmp_path, capsys):
    g = _example(tmp_path)
    assert run_main(["start-day", str(g), "--day", "2", "--post", "20"]) == 0
    capsys.readouterr()
    assert run_main(["start-day", str(g), "--day", "3", "--post", "5"]) == 1
    assert "days start in order" in capsys.readouterr().err
    with open(g / "ledger.yaml", "a", encoding="utf-8") as f:  # the same mistake made by hand
        f.write('  - {"type": "start_day", "day": 3, "post": 5}\n')
    assert run_main(["check", str(g)]) == 1
    assert "day 3 starts at post #5, not after day 2's start (#20)" in capsys.readouterr().err


def test_check_reads_every_post_time(tmp_path, capsys):
    g = _example(tmp_path)
    text = (g / "ledger.yaml").read_text(encoding="utf-8")
    (g / "ledger.yaml").write_text(text.replace('"time":"2011-05-02 15:00:00"', '"time":"yesterday"', 1), encoding="utf-8")
    capsys.readouterr()
    assert run_main(["check", str(g)]) == 1
    assert 'post #3: unreadable time "yesterday"' in capsys.readouterr().err


def test_ms_r5_a_players_unofficial_count_does_not_number_the_hosts(tmp_path):
    from modtool.core.gamefile import open_game
    from modtool.packs.mafia.day import next_count_number, tally_day

    folder = game(tmp_path, [(1, "Alice", "[b]vote: Bob[/b]"), (2, "Carol", "Unofficial Vote Count 1.41: Bob 1")])
    gd = open_game(folder)
    assert next_count_number(gd, tally_day(gd, 1)) == 1


def test_an_account_in_another_case_is_not_called_unknown(tmp_path, capsys):
    g = _example(tmp_path)
    posts = tmp_path / "p.jsonl"
    posts.write_text(json.dumps({"number": "40", "user": "pine", "timestamp": "Mon May 02, 2011 06:00 pm",
                                 "content": '<span class="noboldsig">vote: Valern</span>'}) + "\n", encoding="utf-8")
    capsys.readouterr()
    assert run_main(["import", str(g), str(posts), "--thread", "vote", "--day", "1"]) == 0
    assert "not in the roster" not in capsys.readouterr().out
    assert {"target": "Valern", "voters": ["Pine"]} in tally(g)["votes"]


def test_check_reads_every_at_the_way_the_replay_will(tmp_path, capsys):
    """A time written by hand that a command could not read fails check, not a later tally."""
    g = _example(tmp_path)
    with open(g / "ledger.yaml", "a", encoding="utf-8") as f:
        f.write('  - {"type": "close", "day": 1, "at": "2011-05-16 17:30+14:00"}\n')
    capsys.readouterr()
    assert run_main(["check", str(g)]) == 1
    err = capsys.readouterr().err
    assert "the at of a close event" in err and ":" in err.split("the at")[0]
