"""THE CHECK: Game 1145 replayed from the real posts agrees with the host's 18 vote counts.

The ledger is built by examples/mafia-1145/build.sh (modtool commands alone) from
../shared/real/mafiascum/ beside the repository; at each count post #N the tally
as at post N-1 must give every target's voters (cast order) and the not-voting
list exactly as the host printed them.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.inprocess import modtool_server

ROOT = Path(__file__).resolve().parent.parent
REAL = ROOT.parent / "shared" / "real" / "mafiascum"

pytestmark = pytest.mark.skipif(not (REAL / "game1145-hostcounts.yaml").is_file(),
                                reason=f"the shared real data is not at {REAL}")


def _host_counts() -> list[dict]:
    from ruamel.yaml import YAML

    return YAML(typ="safe").load((REAL / "game1145-hostcounts.yaml").read_text(encoding="utf-8"))["counts"]


@pytest.fixture(scope="module")
def game(tmp_path_factory) -> Path:
    target = tmp_path_factory.mktemp("g1145") / "game"
    with modtool_server() as shim:  # the script's commands run in this process, not as two dozen start-ups
        subprocess.run(["bash", str(ROOT / "examples" / "mafia-1145" / "build.sh"), str(target)], check=True,
                       capture_output=True, env={"MODTOOL": shim["MODTOOL"], "MODTOOL_SHIM": shim["MODTOOL_SHIM"],
                                                 "PATH": "/usr/bin:/bin"})
    return target


def _tally(game: Path, day: int, upto: int | None) -> dict:
    from modtool.core.gamefile import open_game
    from modtool.packs.mafia.day import tally_day
    from modtool.packs.mafia.views import tally_json

    gd = open_game(game)
    return tally_json(gd, tally_day(gd, day, upto))


@pytest.mark.parametrize("count", _host_counts() if REAL.is_dir() else [], ids=lambda c: c["label"])
def test_tally_before_each_host_count_matches_the_host_exactly(game, count):
    mine = _tally(game, count["day"], count["post"] - 1)
    assert {row["target"]: row["voters"] for row in mine["votes"]} == {
        row["target"]: row["voters"] for row in count["votes"]}
    assert mine["not_voting"] == count["not_voting"]
    if "living" in count:
        assert (mine["living"], mine["majority"]) == (count["living"], count["majority"])


def test_hammer_of_day_1_is_darthyoshis_post_291_announced_by_the_host_at_292(game):
    day1 = _tally(game, 1, None)
    assert (day1["lynched"], day1["hammer_post"]) == ("Trendall", 291)


def test_hammer_of_day_2_is_valerns_post_377_announced_by_the_host_at_389(game):
    day2 = _tally(game, 2, None)
    assert (day2["lynched"], day2["hammer_post"]) == ("inHimshallibe", 377)
    assert day2["living"] == 9 and day2["majority"] == 5


def test_no_vote_of_either_day_is_left_unresolved(game):
    assert _tally(game, 1, None)["unresolved"] == [] and _tally(game, 2, None)["unresolved"] == []


def test_tally_json_from_the_command_line_has_the_documented_keys(game):
    out = subprocess.run([str(Path(sys.executable).parent / "modtool"), "tally", str(game), "--day", "1",
                          "--upto-post", "284", "--json"], capture_output=True, text=True, check=True).stdout
    data = json.loads(out)
    assert {"day", "living", "majority", "votes", "not_voting", "no_lynch", "lynched", "hammer_post",
            "unresolved"} <= set(data)
    assert data["lynched"] is None and data["hammer_post"] is None
    assert {"target": "Trendall", "voters": ["Valern", "Erratus Apathos", "DeathRowKitty", "ICEninja",
                                            "RangeroftheNorth", "crazypianist1116"]} in data["votes"]


def test_tally_at_a_time_stops_at_the_posts_of_that_time(game):
    # Post #291 (DarthYoshi's hammer) was shown as Sat Apr 09, 2011 8:46 am, forum time UTC-5: 13:46 UTC.
    before = json.loads(subprocess.run([str(Path(sys.executable).parent / "modtool"), "tally", str(game), "--day", "1",
                                        "--at", "2011-04-09 13:45", "--json"], capture_output=True, text=True,
                                       check=True).stdout)
    after = json.loads(subprocess.run([str(Path(sys.executable).parent / "modtool"), "tally", str(game), "--day", "1",
                                       "--at", "2011-04-09 13:46", "--json"], capture_output=True, text=True,
                                      check=True).stdout)
    assert before["lynched"] is None and after["hammer_post"] == 291


def test_the_vote_count_posts_render_in_house_style(game):
    post = (game / "posts" / "day1-vote.bbcode").read_text(encoding="utf-8")
    assert post.startswith("[b]Vote Count 1.final[/b]\n")
    assert "[b]Trendall (7)[/b]: Valern, Erratus Apathos, ICEninja, RangeroftheNorth, crazypianist1116, Quilford, DarthYoshi" in post
    assert "[b]Not voting (2)[/b]: Peabody, inHimshallibe" in post
    assert "With 12 alive, it takes 7 to lynch." in post


@pytest.mark.parametrize("count", _host_counts() if REAL.is_dir() else [], ids=lambda c: c["label"])
def test_the_count_post_as_at_the_post_before_each_host_count_has_the_hosts_title(game, count):
    """House style numbers a day's counts D.0, D.1, …, D.final; modtool finds the
    host's earlier counts in the day's posts (own text, not players' quotes)."""
    from modtool.core.gamefile import open_game
    from modtool.packs.mafia.pack import announce

    post = announce(open_game(game), game, "vote", "bbcode", count["day"], count["post"] - 1, None)
    label = count["label"]
    if label.endswith(".final"):  # the host posts the final count after the hammer, modtool at it
        post = announce(open_game(game), game, "vote", "bbcode", count["day"], count["post"], None)
    assert post.startswith(f"[b]{label}[/b]\n"), post[:60]


# Days 3-5 (issue point 3): the same build goes on through the end of the game; the two
# hosts' 7 counts (Fenhl's table 3.0-3.2, then Zodiark13's `Name [L-n] - voters` fieldset).
def _host_counts_3_5() -> list[dict]:
    from ruamel.yaml import YAML

    path = REAL / "game1145-days3-5-hostcounts.yaml"
    return YAML(typ="safe").load(path.read_text(encoding="utf-8"))["counts"] if path.is_file() else []


# At #451 Zodiark13 lists Quilford before Valern: the order of their first votes (#430, #432),
# not of the standing ones (Quilford unvoted at #434 and voted again at #450), as the shared
# file notes. MS-R5 lists voters in the order their votes were cast: Valern (#432), Quilford (#450).
CAST_ORDER_WHERE_THE_HOST_WAS_NOT = {(451, "ICEninja"): ["Valern", "Quilford"]}


@pytest.mark.parametrize("count", _host_counts_3_5(), ids=lambda c: f"#{c['post']}")
def test_days_3_to_5_tally_before_each_host_count_matches_the_hosts_count(game, count):
    mine = _tally(game, count["day"], count["post"] - 1)
    theirs = {row["target"]: row["voters"] for row in count["votes"] if row["voters"]}  # the fieldset lists 0-vote rows
    for (post, target), order in CAST_ORDER_WHERE_THE_HOST_WAS_NOT.items():
        if post == count["post"]:
            assert sorted(theirs[target]) == sorted(order)
            theirs[target] = order
    assert {row["target"]: row["voters"] for row in mine["votes"]} == theirs
    assert mine["not_voting"] == count["not_voting"]
    if "living" in count:  # 3.2 has no "living" line; Zodiark13's 5.0 says 5 alive (stale): the file gives 3
        assert (mine["living"], mine["majority"]) == (count["living"], count["majority"])


@pytest.mark.parametrize("day, lynched, hammer", [(3, "crazypianist1116", 408), (4, "Quilford", 505),
                                                  (5, "ICEninja", 525)])
def test_days_3_to_5_lynches_are_found_at_their_hammer_posts(game, day, lynched, hammer):
    """Zodiark13 posted no count at either of his lynches: the replay finds them at #505 and #525."""
    t = _tally(game, day, None)
    assert (t["lynched"], t["hammer_post"]) == (lynched, hammer)
    assert t["unresolved"] == []


# MS-R6, on the real thread (issue point 3): Day 1 cut at a host count, as if a new host took
# over there with only the posts from that count on saved. The votes standing are read from
# that count (`modtool standing --from-post N`); every later Day 1 count must come out as
# the host's. Cut points: the first count with votes, one before the replacements of
# #157-#267, and a late one. The posts are cut from the shared file at run time (not copied).
TAKEOVER_CUTS = (30, 154, 257)


def _take_over_day1_at(cut: int, base: Path, capsys) -> Path:
    from tests.support.values import run_cli

    lines = (REAL / "game1145-day1-posts0-292.jsonl").read_text(encoding="utf-8").splitlines(keepends=True)
    saved = base / f"day1-from-{cut}.jsonl"
    saved.write_text("".join(ln for ln in lines if int(json.loads(ln)["number"]) >= cut), encoding="utf-8")
    g = base / "game"
    roster = ROOT / "examples" / "mafia-1145" / "roster.yaml"
    for args in (["new", g, "--game", "mafia", "--roster", roster],
                 ["death", g, "Klazam", "--post", "2"], ["start-day", g, "--day", "1", "--post", "3"],
                 ["deadline", g, "--day", "1", "--at", "2011-04-10 00:04"],
                 ["import", g, saved, "--thread", "vote", "--day", "1"],
                 ["replace", g, "lynchking", "DarthYoshi", "--post", "141"], ["replace", g, "AMP", "Meransiel", "--post", "157"],
                 ["replace", g, "Romanus", "crazypianist1116", "--post", "180"],
                 ["replace", g, "Meransiel", "inHimshallibe", "--post", "211"],
                 ["replace", g, "Lucresia", "Quilford", "--post", "267"],
                 ["alias", g, "RotN", "RangeroftheNorth"], ["alias", g, "Erratus Apothos", "Erratus Apathos"]):
        code, out, err = run_cli(capsys, *args)
        assert code == 0, (args, err)
    return g


@pytest.mark.parametrize("cut", TAKEOVER_CUTS, ids=lambda n: f"cut-at-{n}")
def test_ms_r6_day1_cut_at_a_host_count_and_taken_over_from_it_reproduces_every_later_count(tmp_path, capsys, cut):
    from tests.support.values import fresh_process, run_cli

    counts = [c for c in _host_counts() if c["day"] == 1]
    at_cut = next(c for c in counts if c["post"] == cut)
    g = _take_over_day1_at(cut, tmp_path, capsys)
    fresh_process()
    before = _tally(g, 1, None)  # the saved posts start at the cut: the count says so until the votes are recorded
    assert before["takeover"]["standing_recorded"] is False and before["takeover"]["first_saved_post"] == cut
    code, shown, err = run_cli(capsys, "standing", g, "--from-post", cut, "--dry-run")
    assert code == 0, err
    for row in at_cut["votes"]:  # it shows what it read, for the host to confirm
        assert f"{row['target']} ({row['count']}): {', '.join(row['voters'])}" in shown
    code, out, err = run_cli(capsys, "standing", g, "--from-post", cut)
    assert code == 0, err
    later = [c for c in counts if c["post"] > cut]
    assert later
    for count in later:
        fresh_process()
        mine = _tally(g, 1, count["post"] - 1)
        assert {row["target"]: row["voters"] for row in mine["votes"]} == {
            row["target"]: row["voters"] for row in count["votes"]}, count["label"]
        assert mine["not_voting"] == count["not_voting"], count["label"]
        if "living" in count:  # the final count has no "living" line
            assert (mine["living"], mine["majority"]) == (count["living"], count["majority"]), count["label"]
    fresh_process()
    assert (_tally(g, 1, None)["lynched"], _tally(g, 1, None)["hammer_post"]) == ("Trendall", 291)


@pytest.mark.parametrize("count", (_host_counts() if REAL.is_dir() else []) + _host_counts_3_5(),
                         ids=lambda c: f"#{c['post']}")
def test_ms_r6_every_host_count_of_the_game_reads_back_as_the_host_wrote_it(game, count):
    """Both hosts' forms (Fenhl's table, Zodiark13's fieldset with its legend run into the first
    row): each row's voters in the host's order, and the Not voting list."""
    from modtool.core.gamefile import open_game
    from modtool.packs.mafia.commands import _living_at
    from modtool.packs.mafia.day import facts
    from modtool.packs.mafia.hostcount import read_count

    gd = open_game(game)
    slots = facts(gd).slots
    reading = read_count(gd, count["post"], _living_at(gd, count["day"], count["post"]))
    assert {slots.name(r.target, count["post"]): [slots.name(v, count["post"]) for v in r.voters] for r in reading.rows} \
        == {row["target"]: row["voters"] for row in count["votes"] if row["voters"]}
    assert [slots.name(k, count["post"]) for k in reading.not_voting] == count["not_voting"] and reading.added == []


def test_ms_r6_day4_taken_over_from_the_substitute_hosts_fieldset_count_reaches_the_hammer_at_505(game, tmp_path, capsys):
    """As if Day 4 were saved from Zodiark13's count at #451 on: the standing votes come from his
    fieldset, #473 comes out as he wrote it, and Quilford is lynched at #505."""
    import shutil

    from tests.support.values import fresh_process, run_cli

    g = tmp_path / "g"
    shutil.copytree(game, g, ignore=shutil.ignore_patterns(".modtool", "*.lock", "posts"))
    code, out, err = run_cli(capsys, "standing", g, "--from-post", "451")
    assert code == 0, err
    assert "ICEninja (2): Quilford, Valern" in out and "Not voting (3): ICEninja, RangeroftheNorth, DeathRowKitty" in out
    fresh_process()
    at_473 = _tally(g, 4, 472)
    assert {r["target"]: r["voters"] for r in at_473["votes"]} == {
        "ICEninja": ["Quilford"], "Quilford": ["RangeroftheNorth", "ICEninja"], "Valern": ["Valern"]}
    assert at_473["not_voting"] == ["DeathRowKitty"]
    assert (_tally(g, 4, None)["lynched"], _tally(g, 4, None)["hammer_post"]) == ("Quilford", 505)


def test_ms_r6_a_host_takes_over_day_2_at_the_count_of_354_with_the_readme_commands(tmp_path, capsys):
    """What README tells a host to type: Day 1 known only by its lynch, Day 2 saved from the
    host's count at #354 on; the replay reaches the real hammer (#377)."""
    from tests.support.values import fresh_process, run_cli

    lines = (REAL / "game1145-day2-posts293-389.jsonl").read_text(encoding="utf-8").splitlines(keepends=True)
    pages = tmp_path / "pages-from-354.jsonl"
    pages.write_text("".join(ln for ln in lines if int(json.loads(ln)["number"]) >= 354), encoding="utf-8")
    g = tmp_path / "my-game"
    steps = [["new", g, "--game", "mafia", "--roster", ROOT / "examples" / "mafia-1145" / "roster.yaml"],
             ["death", g, "Klazam", "--post", "2", "--how", "killed Night 0"],
             ["lynch", g, "Trendall", "--day", "1", "--post", "292"],
             *(["replace", g, old, new, "--post", str(n)] for old, new, n in (
                 ("lynchking", "DarthYoshi", 141), ("AMP", "Meransiel", 157), ("Romanus", "crazypianist1116", 180),
                 ("Meransiel", "inHimshallibe", 211), ("Lucresia", "Quilford", 267))),
             ["death", g, "DarthYoshi", "--post", "293"], ["death", g, "Pine", "--post", "293"],
             ["start-day", g, "--day", "2", "--post", "293"],
             ["import", g, pages, "--thread", "vote", "--day", "2"]]
    for args in steps:
        code, out, err = run_cli(capsys, *args)
        assert code == 0, (args, err)
    code, out, _ = run_cli(capsys, "tally", g, "--day", "2")
    assert "The saved posts start at #354, after the day opened at #293" in out and "lynched" not in out
    code, out, err = run_cli(capsys, "standing", g, "--from-post", "354")
    assert code == 0, err
    assert "inHimshallibe (4): Erratus Apathos, Quilford, RangeroftheNorth, Peabody" in out
    fresh_process()
    day2 = _tally(g, 2, None)
    assert (day2["lynched"], day2["hammer_post"], day2["living"]) == ("inHimshallibe", 377, 9)
    fresh_process()
    host = next(c for c in _host_counts() if c["post"] == 389)  # Vote Count 2.final
    assert {r["target"]: r["voters"] for r in day2["votes"]} == {r["target"]: r["voters"] for r in host["votes"]}
