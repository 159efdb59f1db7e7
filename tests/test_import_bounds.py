"""What a dump may hold is bounded (modtool.forum.bounds): a post number, floor,
post id, year, size, nesting or account name outside the bounds refuses the
import with a message naming the file, the post and the field, in the game's
language, and leaves the ledger byte for byte as it was. Before, a floor of
1e+20 was stored and bricked check, tally and announce; a year 9999, JSON
nested 100,000 deep and /dev/zero ended in internal errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.values import run_cli

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def m42(tmp_path, capsys):
    game = tmp_path / "m42"
    code, _, err = run_cli(capsys, "new", game, "--game", "m42", "--roster", ROOT / "examples" / "m42" / "roster.yaml", "--seed", "1")
    assert code == 0, err
    return game


@pytest.fixture
def mafia(tmp_path, capsys):
    game = tmp_path / "mafia"
    code, _, err = run_cli(capsys, "new", game, "--game", "mafia", "--roster", ROOT / "examples" / "mafia" / "roster.yaml")
    assert code == 0, err
    return game


def dump(tmp_path: Path, name: str, content: str | bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(content.encode("utf-8") if isinstance(content, str) else content)
    return path


def refused(game: Path, path: Path, capsys) -> str:
    """Import ``path``: exit 1, a message naming the file, no traceback, the ledger unchanged."""
    ledger = game / "ledger.yaml"
    before = ledger.read_bytes()
    code, out, err = run_cli(capsys, "import", game, path, "--thread", "vote", "--day", "1")
    assert code == 1, out + err
    assert str(path) in err and "Traceback" not in err + out
    assert "内部错误" not in err and "nternal error" not in err
    assert ledger.read_bytes() == before
    return err


def imported(game: Path, path: Path, capsys) -> tuple[str, str]:
    code, out, err = run_cli(capsys, "import", game, path, "--thread", "vote", "--day", "1")
    assert code == 0, out + err
    code, _, cerr = run_cli(capsys, "check", game)
    assert code == 0, cerr  # what was imported reads back and replays
    return out, err


def jsonl(**fields) -> str:
    rec = {"number": "3", "user": "Pine", "timestamp": "Mon May 02, 2011 10:00 am", "content": "hello"}
    rec.update(fields)
    return json.dumps(rec) + "\n"


def viewtopic(start: str = "25", stamp: str = "Mon May 02, 2011 12:30 pm", content: str = "hi") -> str:
    return (
        '<!DOCTYPE html>\n<html><head>\n'
        f'<link rel="canonical" href="https://forum.mafiascum.net/viewtopic.php?t=9999&amp;start={start}"></head>\n'
        '<body><div id="p100" class="post bg2"><div class="inner"><div class="postbody">\n'
        f'<p class="author">by <strong><a href="./memberlist.php?u=1" class="username">Pine</a></strong> &raquo; {stamp}</p>\n'
        f'<div class="content">{content}</div>\n</div></div></div>\n</body></html>\n'
    )


def discuz(**fields) -> str:
    post = {"pid": "90001", "tid": "8848", "author": "月初不是白", "authorid": "101", "position": "2",
            "dbdateline": "1793707200", "message": "投票对象：白月初"}
    post.update(fields)
    return json.dumps({"Version": "4", "Charset": "UTF-8", "Variables": {"postlist": [post]}})


def pasted(floor: str = "#12", name: str = "月初不是白", when: str = "2026-11-02 20:15", body: str = "投票对象：白月初") -> str:
    return f"{floor} {name} {when}\n{body}\n"


# --- floors and post numbers ----------------------------------------------------------------

def test_a_phpbb_page_whose_canonical_start_is_out_of_bounds_is_refused_naming_the_link(mafia, tmp_path, capsys):
    err = refused(mafia, dump(tmp_path, "p.html", viewtopic(start="99999999999999999999")), capsys)
    assert "canonical link says start=99999999999999999999" in err


def test_a_pasted_floor_of_31_digits_is_refused_naming_the_account_and_the_floor(m42, tmp_path, capsys):
    err = refused(m42, dump(tmp_path, "d.txt", pasted(floor="#" + "1" * 31)), capsys)
    assert "月初不是白 的帖子：楼层号 1111111111…111111（31 位） 不在 0 至 999999999 之间" in err


@pytest.mark.parametrize("position, shown", [("99999999999999999999", "99999999999999999999"), ("-5", "-5"),
                                             (1e300, "（301 位）")])
def test_a_discuz_position_out_of_bounds_is_refused_naming_the_pid(m42, tmp_path, capsys, position, shown):
    err = refused(m42, dump(tmp_path, "d.json", discuz(position=position)), capsys)
    assert "帖子 pid 90001（月初不是白）：楼层号" in err and shown in err


def test_a_json_lines_number_out_of_bounds_is_refused_in_english(mafia, tmp_path, capsys):
    err = refused(mafia, dump(tmp_path, "d.jsonl", jsonl(number="1000000000")), capsys)
    assert "Pine's post: the post number 1000000000 is not between 0 and 999999999" in err


@pytest.mark.parametrize("number", [True, 3.5, "-1", "3a", None, [3]])
def test_a_json_lines_number_that_is_not_digits_is_no_post_number(mafia, tmp_path, capsys, number):
    err = refused(mafia, dump(tmp_path, "d.jsonl", jsonl(number=number)), capsys)
    assert "d.jsonl:1: line is not a JSON post record: its number" in err


def test_a_post_id_of_300_digits_is_refused(m42, tmp_path, capsys):
    err = refused(m42, dump(tmp_path, "d.json", discuz(pid="1" * 300)), capsys)
    assert "（2楼）" in err and "帖子 pid 有 300 位，超过 20 位" in err


def test_a_saved_discuz_page_floor_of_thousands_of_digits_is_refused_not_an_internal_error(m42, tmp_path, capsys):
    page = (ROOT / "tests" / "fixtures" / "forum" / "thread-8848-page1.html").read_text(encoding="utf-8")
    first = page.index("<em>", page.index('id="postnum'))
    page = page[:first + 4] + "1" * 5000 + page[first + 4:]
    err = refused(m42, dump(tmp_path, "p.html", page), capsys)
    assert "楼层号 1111111111…11111" in err and "（5001 位） 超出范围" in err


def test_a_reply_to_a_floor_out_of_bounds_is_dropped_not_stored(m42, tmp_path, capsys):
    imported(m42, dump(tmp_path, "d.txt", pasted(body="回复 #99999999999999999999\n投票对象：白月初")), capsys)
    last = (m42 / "ledger.yaml").read_text(encoding="utf-8").splitlines()[-1]
    assert '"floor":12' in last and "99999999999999999999" not in last


# --- years ------------------------------------------------------------------------------------

@pytest.mark.parametrize("when", ["9999-12-31 23:59", "0001-01-01 00:00", "1989-12-31 23:59", "2100-01-01 00:00"])
def test_a_pasted_post_in_an_implausible_year_is_refused_naming_the_floor(m42, tmp_path, capsys, when):
    err = refused(m42, dump(tmp_path, "d.txt", pasted(when=when)), capsys)
    assert "（12楼）: 月初不是白 的帖子：发帖时间" in err and "不在 1990 至 2099 年之间" in err


def test_a_discuz_dateline_in_the_year_9999_is_refused(m42, tmp_path, capsys):
    err = refused(m42, dump(tmp_path, "d.json", discuz(dbdateline="", dateline="9999-12-31 23:59")), capsys)
    assert "发帖时间 9999-12-31 23:59:00 不在 1990 至 2099 年之间" in err


def test_a_phpbb_page_in_the_year_9999_is_refused_in_english(mafia, tmp_path, capsys):
    err = refused(mafia, dump(tmp_path, "p.html", viewtopic(stamp="Fri Dec 31, 9999 11:30 am")), capsys)
    assert "(post #25): Pine's post: the post time 9999-12-31 16:30:00 is not within the years 1990 to 2099" in err


def test_a_phpbb_time_that_overflows_in_the_games_zone_is_unreadable_not_an_internal_error(mafia, tmp_path, capsys):
    err = refused(mafia, dump(tmp_path, "d.jsonl", jsonl(timestamp="Fri Dec 31, 9999 11:30 pm")), capsys)
    assert 'unreadable time "Fri Dec 31, 9999 11:30 pm"' in err


# --- sizes and nesting --------------------------------------------------------------------------

def test_a_dump_larger_than_the_limit_is_refused_before_it_is_read(m42, tmp_path, capsys, monkeypatch):
    from modtool.forum import bounds

    monkeypatch.setattr(bounds, "MAX_DUMP_BYTES", 1024)
    err = refused(m42, dump(tmp_path, "d.txt", pasted() * 100), capsys)
    assert "文件有 6 KB，超过导入上限 1 KB" in err


def test_a_file_that_never_ends_is_refused_after_the_limit(m42, tmp_path, capsys, monkeypatch):
    from modtool.forum import bounds

    monkeypatch.setattr(bounds, "MAX_DUMP_BYTES", 1 << 20)
    err = refused(m42, Path("/dev/zero"), capsys)
    assert "读到上限还没有结束" in err


def test_json_nested_100000_deep_is_refused_as_too_deep(m42, tmp_path, capsys):
    text = '{"Variables": {"postlist": ' + "[" * 100_000 + "]" * 100_000 + "}}"
    err = refused(m42, dump(tmp_path, "d.json", text), capsys)
    assert "JSON 嵌套层数过多" in err


def test_a_json_line_nested_100000_deep_is_refused_naming_the_line(mafia, tmp_path, capsys):
    line = '{"number": "3", "user": "Pine", "timestamp": "x", "content": ' + "[" * 100_000 + "]" * 100_000 + "}\n"
    err = refused(mafia, dump(tmp_path, "d.jsonl", line), capsys)
    assert "d.jsonl:1: line is nested too deep to be a JSON post record" in err


def test_a_field_nested_600_deep_is_named_by_its_kind_never_walked(m42, tmp_path, capsys):
    deep = json.loads("[" * 600 + "]" * 600)
    err = refused(m42, dump(tmp_path, "d.json", discuz(position=deep)), capsys)
    assert "楼层号无法识别：列表" in err


def test_a_json_lines_content_that_is_not_text_is_refused(mafia, tmp_path, capsys):
    err = refused(mafia, dump(tmp_path, "d.jsonl", jsonl(content=json.loads("[" * 600 + "]" * 600))), capsys)
    assert "the field 'content' is not text" in err


def test_a_body_over_the_limit_is_refused(mafia, tmp_path, capsys, monkeypatch):
    from modtool.forum import bounds

    monkeypatch.setattr(bounds, "MAX_TEXT_CHARS", 1000)
    err = refused(mafia, dump(tmp_path, "d.jsonl", jsonl(content="x" * 1001)), capsys)
    assert "(post #3): Pine's post: the body has 1001 characters, more than 1000" in err


def test_an_account_name_over_the_limit_is_refused(m42, tmp_path, capsys):
    err = refused(m42, dump(tmp_path, "d.json", discuz(author="饺" * 101)), capsys)
    assert "账号有 101 个字符，超过上限 100" in err


# --- characters -----------------------------------------------------------------------------------

def test_an_account_name_with_control_characters_is_refused_and_shown_escaped(mafia, tmp_path, capsys):
    err = refused(mafia, dump(tmp_path, "d.jsonl", jsonl(user="Pi\x1b[31mne\x07")), capsys)
    assert 'the account name "Pi\\x1b[31mne\\x07" holds control characters' in err
    assert "\x1b" not in err and "\x07" not in err


def test_a_readers_message_quoting_a_dump_shows_its_control_characters_escaped(mafia, tmp_path, capsys):
    err = refused(mafia, dump(tmp_path, "d.jsonl", jsonl(timestamp="\x1b]0;owned\x07\u202e")), capsys)
    assert 'unreadable time "\\x1b]0;owned\\x07\\u202e"' in err
    assert "\x1b" not in err and "\u202e" not in err


def test_control_characters_in_a_players_text_are_stored_as_they_are(m42, tmp_path, capsys):
    out, err = imported(m42, dump(tmp_path, "d.txt", pasted(body="投票对象：白月初\x1b[2J\x07")), capsys)
    assert "\x1b" not in out + err
    from modtool import ledger

    assert ledger.load(m42 / "ledger.yaml").events[-1].data["body"] == "投票对象：白月初\x1b[2J\x07"


def test_a_post_left_with_a_lone_surrogate_by_a_reader_is_named_with_its_field():
    from datetime import datetime

    from modtool.forum.bounds import check_rows
    from modtool.forum.posts import ReplyRef

    ok = ("1", 2, "饺子君", "2026-11-03 20:00:00", "投票对象：包子", None, None, datetime(2026, 11, 3))
    bad = ("2", 3, "包子君", "2026-11-03 20:01:00", "好", None, ReplyRef(author="饺\ud83d"), datetime(2026, 11, 3))
    problems = check_rows([ok, bad], "d.json")
    assert [(p.floor, p.message) for p in problems] == [
        (3, "包子君 的帖子：字段 reply_to.author 含有无法保存的字符 U+D83D（孤立的代理码位）")]
    assert check_rows([ok], "d.json") == []


def test_a_phpbb_lone_surrogate_is_read_as_fffd_and_the_post_named(mafia, tmp_path, capsys):
    out, err = imported(mafia, dump(tmp_path, "d.jsonl", jsonl(content="cut \ud83d emoji")), capsys)
    assert "post #3 (Pine): its content holds a broken character U+D83D" in out + err
    from modtool import ledger

    assert ledger.load(mafia / "ledger.yaml").events[-1].data["body"] == "cut \ufffd emoji"


def test_the_core_messages_of_the_bounds_have_english_entries():
    import ast

    from modtool.base.i18n import catalogue

    en = catalogue("en").gettext
    for module in ("forum/bounds.py", "forum/__init__.py"):
        tree = ast.parse((ROOT / "modtool" / module).read_text(encoding="utf-8"))
        found = {n.args[0].value for n in ast.walk(tree) if isinstance(n, ast.Call) and getattr(n.func, "id", None) == "t"
                 and n.args and isinstance(n.args[0], ast.Constant)}
        assert found and [m for m in found if en(m) == m] == [], module


def test_an_account_with_a_bidi_override_is_printed_escaped_and_stored_as_it_is(mafia, tmp_path, capsys):
    out, err = imported(mafia, dump(tmp_path, "d.jsonl", jsonl(user="Pine\u202etxt.exe")), capsys)
    assert 'Account "Pine\\u202etxt.exe" is not in the roster' in out and "\u202e" not in out + err
    from modtool import ledger

    assert ledger.load(mafia / "ledger.yaml").events[-1].data["author"] == "Pine\u202etxt.exe"


def test_an_edited_posts_account_is_printed_escaped(mafia, tmp_path, capsys):
    imported(mafia, dump(tmp_path, "a.jsonl", jsonl(user="Pi\u202ene", content="a")), capsys)
    out, err = imported(mafia, dump(tmp_path, "b.jsonl", jsonl(user="Pi\u202ene", content="b")), capsys)
    assert "Note: post #3 (Pi\\u202ene) was edited on the forum" in out and "\u202e" not in out + err
