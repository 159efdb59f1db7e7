"""A core that speaks no game: each game's events, clock, forum formats and
event names come from its pack (the architecture issue); the core keeps only
what every game shares. tests/test_packs.py guards the core's source."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from modtool.core.pack import GamePack
from modtool.core.registry import all_packs
from modtool.core import registry as packs
from tests.support.values import run_cli

ROOT = Path(__file__).resolve().parents[1]
CJK = lambda text: any("\u4e00" <= ch <= "\u9fff" for ch in text)  # noqa: E731


def copy(example: str, tmp_path: Path) -> Path:
    g = tmp_path / example
    shutil.copytree(ROOT / "examples" / example, g, ignore=shutil.ignore_patterns(".modtool", "*.lock", "*.png"))
    return g


def append(g: Path, line: str) -> None:
    with open(g / "ledger.yaml", "a", encoding="utf-8") as f:
        f.write(f"  - {line}\n")


# --- 1. the events ------------------------------------------------------------------------

def test_the_core_keeps_only_game_neutral_events_and_each_pack_declares_what_it_uses():
    from modtool.core.schema import COMMON_EVENTS

    assert set(COMMON_EVENTS) == {"post", "revert", "import", "edit", "announced"}
    found = all_packs()
    assert {"close", "speedup", "proxy"} <= set(found["m42"].event_schemas())
    assert "close" in found["mafia"].event_schemas()  # the host's deadline (modtool deadline)
    assert not {"close", "speedup", "proxy"} & set(found["mafia"].event_schemas()) - {"close"}
    assert not {"close", "speedup", "proxy"} & set(found["zhenhuan"].event_schemas())


def test_m42_r5_a_proxy_of_an_unknown_kind_is_named_by_check(tmp_path, capsys):
    g = copy("m42", tmp_path)
    append(g, '{type: proxy, day: 2, voter: 东方淮竹, target: 石宽, at: "2026-11-05 12:10", kind: oops}')
    code, out, err = run_cli(capsys, "check", g)
    assert code == 1 and "proxy 事件的 kind 应为 vote、change 之一，现在是「oops」" in err


def test_a_field_with_a_closed_set_of_values_is_checked_in_every_event():
    """check_events checks each shape of event once: the values of a closed field are part of the shape."""
    from modtool.base.events import Event
    from modtool.core.schema import check_events

    schemas = {"mark": {"color": ((str,), True, ("blue", "red")), "day": ((int,), False)}}
    events = [Event("mark", {"color": "blue", "day": 1}, 1), Event("mark", {"color": "green", "day": 1}, 2),
              Event("mark", {"color": ["x"], "day": 1}, 3)]
    found = check_events(events, schemas, "ledger")
    assert [p.line for p in found] == [2, 3] and "mark 事件的 color 应为 blue、red 之一，现在是「green」" in found[0].message


def test_a_zhenhuan_ledger_does_not_know_m42s_events(tmp_path, capsys):
    g = copy("zhenhuan", tmp_path)
    append(g, "{type: speedup, day: 1}")
    code, out, err = run_cli(capsys, "check", g)
    assert code == 1 and "未知的事件类型「speedup」" in err


# --- 2. the clock -------------------------------------------------------------------------

BARE_YAML = """\
name: 无钟游戏
players: 2
roles:
  villager: {name: 村民, camp: town, count: 2}
camps:
  town: {name: 好人}
"""


class BarePack(GamePack):
    """A game whose data names no time zone and no close time."""

    id = "bare"
    name = "bare"

    def __init__(self, folder: Path):
        self.folder = folder

    def data_file(self) -> Path:
        return self.folder / "bare.yaml"


@pytest.fixture
def bare(tmp_path):
    (tmp_path / "bare.yaml").write_text(BARE_YAML, encoding="utf-8")
    packs.register(BarePack(tmp_path))
    yield tmp_path
    packs.unregister("bare")


def test_a_game_whose_pack_has_no_clock_opens_in_utc_without_a_close_time(bare, tmp_path, capsys):
    from modtool.core.gamefile import open_game

    (tmp_path / "roster.txt").write_text("甲\n乙\n", encoding="utf-8")
    g = tmp_path / "g"
    code, out, err = run_cli(capsys, "new", g, "--game", "bare", "--roster", tmp_path / "roster.txt")
    assert code == 0, err
    gd = open_game(g)
    assert gd.problems == [] and str(gd.tz) == "UTC"
    code, out, err = run_cli(capsys, "check", g)
    assert code == 0, err


def test_each_pack_gives_its_zone_and_only_m42_checks_a_close_time(tmp_path, capsys):
    from modtool.core.gamefile import open_game

    assert str(open_game(copy("m42", tmp_path)).tz) == "Asia/Shanghai"
    assert str(open_game(copy("zhenhuan", tmp_path)).tz) == "Asia/Shanghai"
    assert str(open_game(copy("mafia", tmp_path)).tz) == "UTC"
    for example, want in (("m42", "options → close_time："), ("mafia", 'options holds an unknown option "close_time"')):
        g = tmp_path / "x" / example
        shutil.copytree(tmp_path / example, g)
        text = (g / "ledger.yaml").read_text(encoding="utf-8")
        (g / "ledger.yaml").write_text(text.replace("options: {}", 'options: {close_time: "25:99"}', 1), encoding="utf-8")
        code, out, err = run_cli(capsys, "check", g)
        assert code == 1 and want in err, err


def test_a_zone_that_does_not_exist_is_named_and_the_packs_zone_stands_in(tmp_path, capsys):
    from modtool.core.gamefile import open_game

    g = copy("mafia", tmp_path)
    text = (g / "ledger.yaml").read_text(encoding="utf-8")
    (g / "ledger.yaml").write_text(text.replace("options: {}", "options: {timezone: Mars/Olympus}", 1), encoding="utf-8")
    gd = open_game(g)
    assert str(gd.tz) == "UTC" and any("Mars/Olympus" in p.message for p in gd.problems)


# --- 3. the forum formats a game reads ----------------------------------------------------

def test_each_pack_lists_the_forum_formats_it_reads():
    from modtool.forum.formats import CORE_FORMATS

    found = all_packs()
    assert set(found["m42"].forum_formats) == set(found["zhenhuan"].forum_formats) == set(CORE_FORMATS)
    assert set(found["mafia"].forum_formats) == {"phpbb-jsonl", "phpbb-page", "text"}


def test_a_phpbb_dump_imported_into_an_m42_game_is_refused_naming_what_m42_reads(tmp_path, capsys):
    g = copy("m42", tmp_path)
    before = (g / "ledger.yaml").read_bytes()
    for dump in (ROOT / "examples" / "mafia" / "day1-posts.jsonl", ROOT / "tests" / "fixtures" / "mafia" / "viewtopic-page.html"):
        code, out, err = run_cli(capsys, "import", g, dump, "--thread", "vote", "--day", "2")
        assert code == 1, out
        assert str(dump) in err and "这局游戏不读这种格式" in err and "phpBB" in err
        assert "Discuz 手机版 JSON、保存的 Discuz 帖子网页（HTML）、纯文本（手工复制的帖子）" in err
        assert "Traceback" not in err and (g / "ledger.yaml").read_bytes() == before


def test_a_discuz_dump_imported_into_a_mafia_game_is_refused_in_english(tmp_path, capsys):
    g = copy("mafia", tmp_path)
    before = (g / "ledger.yaml").read_bytes()
    for dump in sorted((ROOT / "examples" / "m42" / "dumps").glob("day2-*")):
        code, out, err = run_cli(capsys, "import", g, dump, "--thread", "vote", "--day", "1")
        assert code == 1, out
        assert "a format this game does not read; it reads: phpBB posts as JSON lines, a saved phpBB topic page (HTML), " \
               "plain text (posts copied by hand) (nothing was imported)" in err
        assert not CJK(err) and (g / "ledger.yaml").read_bytes() == before


def test_a_dump_read_for_no_game_is_read_in_any_format_modtool_knows(tmp_path):
    from datetime import timezone

    from modtool.core.registry import dump_formats
    from modtool.forum import read_dump

    brought = dump_formats()  # the forum readers know a game's formats only as values handed to them
    posts, problems = read_dump(ROOT / "examples" / "mafia" / "day1-posts.jsonl", timezone.utc, brought=brought)
    assert posts and problems == []
    posts, _ = read_dump(ROOT / "examples" / "mafia" / "day1-posts.jsonl", timezone.utc)
    assert posts == []  # without them: not a format the readers know
    posts, problems = read_dump(ROOT / "examples" / "mafia" / "day1-posts.jsonl", timezone.utc, formats=("text",),
                                brought=brought)
    assert posts == [] and "phpBB posts as JSON lines" in problems[0].message


# --- 4. every event type named in the game's language -------------------------------------

def test_every_event_type_has_a_label_in_its_games_language():
    from babel.messages.pofile import read_po

    from modtool.base.i18n import LOCALE
    from modtool.core.schema import COMMON_EVENTS, EVENT_LABELS

    with open(LOCALE / "en" / "LC_MESSAGES" / "modtool.po", "rb") as f:
        english = {m.id: m.string for m in read_po(f) if m.id}
    assert set(EVENT_LABELS) == set(COMMON_EVENTS)
    for kind, label in EVENT_LABELS.items():
        assert CJK(label) and english.get(label) and not CJK(english[label]), kind
    for gid, pack in all_packs().items():
        labels = pack.event_labels()
        for kind in pack.event_schemas():
            label = labels.get(kind)
            assert label, f"{gid}: {kind} has no label"
            assert CJK(label) == (pack.language == "zh"), f"{gid}: {kind} is labelled {label!r}"


def test_an_m42_undo_names_the_event_in_chinese(tmp_path, capsys):
    g = copy("m42", tmp_path)
    append(g, "{type: speedup, day: 2}")
    code, out, err = run_cli(capsys, "undo", g)
    assert code == 0, err
    assert out.startswith("已撤销第") and "的加速记录" in out
    code, out, err = run_cli(capsys, "undo", g)  # the example's last fact: an event of the m42 pack or the core
    assert code == 0, err
    assert out.startswith("已撤销第") and "记录（事件" in out


def test_a_mafia_undo_of_a_death_a_deadline_and_a_post_speaks_english(tmp_path, capsys):
    g = copy("mafia", tmp_path)
    code, out, err = run_cli(capsys, "deadline", g, "--day", "1", "--at", "2011-05-16 17:30")
    assert code == 0, err
    code, out, err = run_cli(capsys, "undo", g)
    assert code == 0, err
    assert out.startswith("Took back the deadline on line") and not CJK(out), out
    code, out, err = run_cli(capsys, "death", g, "Pine", "--post", "2")
    assert code == 0, err
    code, out, err = run_cli(capsys, "undo", g)
    assert out.startswith("Took back the death on line") and not CJK(out), out
    code, out, err = run_cli(capsys, "undo", g)  # the example's last fact: an alias
    assert code == 0, err
    assert out.startswith("Took back the alias on line") and not CJK(out), out
    code, out, err = run_cli(capsys, "undo", g)  # then a post of its import: a core event
    assert code == 0, err
    assert out.startswith("Took back the post on line") and "--import last" in out and not CJK(out), out
