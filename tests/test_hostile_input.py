"""Bad input is bounded (issue 8, point 7): a hostile ledger header, a
director's runaway or escaping template, forged ids in a forum dump and a
saved page cut short each get a Chinese message naming the place, exit 1,
and leave the ledger byte for byte as it was."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import ROOT, write_game
from modtool.cli.app import main

CLOSE = "- {type: close, day: 1, at: '2026-11-03 21:00'}\n"


def run(argv: list[str], capsys) -> tuple[int, str, str]:
    """``modtool ARGV`` in process: (exit code, stderr, stdout)."""
    capsys.readouterr()
    try:
        main([str(a) for a in argv])
        code = 0
    except SystemExit as exc:
        code = exc.code
    captured = capsys.readouterr()
    return code, captured.err, captured.out


def refused(game: Path, argv: list[str], capsys) -> str:
    """Run ``argv``; it must exit 1 with a message and leave the ledger as it was."""
    ledger = game / "ledger.yaml"
    before = ledger.read_bytes()
    code, err, out = run(argv, capsys)
    assert code == 1, err
    assert "错误：" in err and "Traceback" not in err
    assert ledger.read_bytes() == before
    return err


# --- 1. the ledger header ---------------------------------------------------------

def _bomb(levels: int = 9, width: int = 9) -> str:
    lines = ["lol0: &a0 [" + ", ".join(['"lol"'] * width) + "]"]
    for i in range(1, levels + 1):
        lines.append(f"lol{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * width) + "]")
    return "\n".join(lines) + "\n"


def test_alias_bomb_in_the_ledger_header_is_refused_at_once(tmp_path, capsys):
    header = "game: m42\nseed: 1\n" + _bomb()
    game = write_game(tmp_path, CLOSE, header=header)
    start = time.monotonic()
    err = refused(game, ["check", game], capsys)
    assert time.monotonic() - start < 1.0
    assert "别名" in err and "ledger.yaml:" in err
    bomb_lines = header.splitlines()
    line = int(err.split("ledger.yaml:")[1].split(":")[0])
    assert bomb_lines[line - 1].startswith("lol")  # the line of an offending alias


def test_alias_bomb_is_refused_by_import_too_and_nothing_is_appended(tmp_path, capsys):
    game = write_game(tmp_path, CLOSE, header="game: m42\nseed: 1\n" + _bomb())
    dump = ROOT / "examples" / "m42" / "dumps" / "day2-vote-page1.json"
    start = time.monotonic()
    refused(game, ["import", game, dump, "--thread", "vote", "--day", "2"], capsys)
    assert time.monotonic() - start < 2.0


def test_too_many_aliases_are_refused(tmp_path, capsys):
    header = "game: m42\nseed: 1\nbase: &b x\nmany: [" + ", ".join(["*b"] * 1500) + "]\n"
    game = write_game(tmp_path, CLOSE, header=header)
    err = refused(game, ["check", game], capsys)
    assert "别名" in err and "太多" in err and "ledger.yaml:4" in err


def test_alias_to_its_own_anchor_is_refused(tmp_path, capsys):
    game = write_game(tmp_path, CLOSE, header="game: m42\nseed: 1\nloop: &me [1, *me]\n")
    err = refused(game, ["check", game], capsys)
    assert "循环引用" in err and "ledger.yaml:3" in err


def test_5000_deep_flow_nesting_in_the_header_is_refused_without_recursion_error(tmp_path, capsys):
    header = "game: m42\nseed: 1\nx: " + "[" * 5000 + "]" * 5000 + "\n"
    game = write_game(tmp_path, CLOSE, header=header)
    err = refused(game, ["check", game], capsys)
    assert "嵌套太深" in err and "ledger.yaml:3" in err


def test_deep_block_nesting_in_the_header_is_refused(tmp_path, capsys):
    header = "game: m42\nseed: 1\nx:\n" + "".join(" " * (i + 1) + f"k{i}:\n" for i in range(300)) + " " * 301 + "v\n"
    game = write_game(tmp_path, CLOSE, header=header)
    err = refused(game, ["check", game], capsys)
    assert "嵌套太深" in err and "ledger.yaml:" in err


def test_deep_nesting_in_a_hand_edited_event_is_refused(tmp_path, capsys):
    events = CLOSE + "- type: close\n  day: 2\n  at: '2026-11-04 21:00'\n  note: &n " + "[" * 3000 + "]" * 3000 + "\n"
    game = write_game(tmp_path, events)
    err = refused(game, ["check", game], capsys)
    assert "嵌套太深" in err


def test_header_larger_than_the_limit_is_refused(tmp_path, capsys, monkeypatch):
    from modtool.ledger import _slow

    monkeypatch.setattr(_slow, "MAX_HEADER_CHARS", 2000)
    header = "game: m42\nseed: 1\n" + "".join(f"note{i}: 这是一段很长的备注，反复粘贴\n" for i in range(200))
    game = write_game(tmp_path, CLOSE, header=header)
    err = refused(game, ["check", game], capsys)
    assert "太大" in err and "ledger.yaml:" in err


def test_header_of_the_real_size_limit_is_refused(tmp_path):
    from modtool.ledger._slow import MAX_HEADER_CHARS, parse_header, yaml_problem
    from ruamel.yaml.error import YAMLError

    text = "notes: |\n" + ("  " + "x" * 1000 + "\n") * (MAX_HEADER_CHARS // 1000 + 10)
    start = time.monotonic()
    with pytest.raises(YAMLError) as info:
        parse_header(text)
    assert time.monotonic() - start < 0.5
    problem = yaml_problem(info.value, text, "ledger.yaml")
    assert "太大" in problem.message and problem.line is not None


def test_ordinary_aliases_and_merge_keys_still_read(tmp_path, capsys):
    header = "game: m42\nseed: 1\nshared: &s {close_time: '21:00'}\noptions:\n  <<: *s\n"
    game = write_game(tmp_path, CLOSE, header=header)
    code, err, out = run(["check", game], capsys)
    assert code == 0, err


# --- 2. a director's own templates ------------------------------------------------

def _game_with_template(tmp_path: Path, text: str | None, name: str = "vote.bbcode.j2") -> tuple[Path, Path]:
    game = write_game(tmp_path, CLOSE)
    folder = game / "templates" / "m42"
    folder.mkdir(parents=True)
    path = folder / name
    if text is not None:
        path.write_text(text, encoding="utf-8")
    return game, path


ANNOUNCE = ["announce", None, "vote", "--day", "1"]


def announce(game: Path) -> list[str]:
    return [game if a is None else a for a in ANNOUNCE]


def test_division_by_zero_in_a_template_names_the_file_and_line(tmp_path, capsys):
    game, path = _game_with_template(tmp_path, "第一行\n第二行\n{{ 1/0 }}\n")
    err = refused(game, announce(game), capsys)
    assert f"{path}:3" in err and "ZeroDivisionError" in err


def test_any_runtime_error_in_an_included_template_names_that_file(tmp_path, capsys):
    game, path = _game_with_template(tmp_path, "开头\n{% include 'm42/part.j2' %}\n")
    (path.parent / "part.j2").write_text("a\nb\n{{ 'x' + 1 }}\n", encoding="utf-8")
    err = refused(game, announce(game), capsys)
    assert f"{path.parent / 'part.j2'}:3" in err and "模板运行出错" in err


def test_undefined_variable_names_the_line(tmp_path, capsys):
    game, path = _game_with_template(tmp_path, "a\n{{ no_such_thing }}\n")
    err = refused(game, announce(game), capsys)
    assert f"{path}:2" in err and "不存在的变量" in err


def test_template_writing_too_much_is_stopped(tmp_path, capsys):
    game, path = _game_with_template(tmp_path, "{% for i in range(99999) %}{{ 'x' * 50 }}{% endfor %}")
    start = time.monotonic()
    err = refused(game, announce(game), capsys)
    assert str(path) in err and "2 MB" in err
    assert time.monotonic() - start < 5


def test_string_repetition_cannot_build_a_giant_value(tmp_path, capsys):
    game, path = _game_with_template(tmp_path, "a\n{{ 'x' * 3000000 }}\n")
    err = refused(game, announce(game), capsys)
    assert f"{path}:2" in err and "重复" in err


def test_power_cannot_build_a_giant_number(tmp_path, capsys):
    game, path = _game_with_template(tmp_path, "{{ 7 ** 300000 }}\n")
    start = time.monotonic()
    err = refused(game, announce(game), capsys)
    assert f"{path}:1" in err and "乘方" in err
    assert time.monotonic() - start < 2


NESTED = "说明\n{% for i in range(99999) %}{% for j in range(99999) %}{% endfor %}{% endfor %}\n"


def test_nested_loops_writing_nothing_are_stopped_by_the_time_limit(tmp_path):
    # A subprocess, so that the test fails (instead of hanging) without the limit.
    game, path = _game_with_template(tmp_path, NESTED)
    before = (game / "ledger.yaml").read_bytes()
    code = (
        "import sys, modtool.core.render as r; r.TIME_LIMIT = 0.5\n"
        "from modtool.cli.app import main\n"
        f"main(['announce', {str(game)!r}, 'vote', '--day', '1'])\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    start = time.monotonic()
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=30, env=env)
    assert proc.returncode == 1, proc.stderr
    assert f"{path}:2" in proc.stderr and "秒" in proc.stderr
    assert time.monotonic() - start < 10
    assert (game / "ledger.yaml").read_bytes() == before


def test_time_limit_restores_the_previous_alarm_handler(tmp_path):
    import signal

    from modtool.core import render as r
    from modtool.base.problems import UserError

    _, path = _game_with_template(tmp_path, NESTED)

    def mine(signum, frame):  # pragma: no cover - never fires
        pass

    old = signal.signal(signal.SIGALRM, mine)
    try:
        saved, r.TIME_LIMIT = r.TIME_LIMIT, 0.3
        try:
            with pytest.raises(UserError, match="秒"):
                r.render("m42", "vote", "bbcode", {}, tmp_path / "game")
        finally:
            r.TIME_LIMIT = saved
        assert signal.getsignal(signal.SIGALRM) is mine
        assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
    finally:
        signal.signal(signal.SIGALRM, old)


def test_template_time_limit_works_outside_the_main_thread(tmp_path):
    import threading

    from modtool.core import render as r
    from modtool.base.problems import UserError

    # no alarm off the main thread: the clock is read between output chunks
    _game_with_template(tmp_path, "{% for i in range(99999) %}{% for j in range(99999) %}{{ '' }}{% endfor %}{% endfor %}")
    out: list = []

    def work():
        try:
            r.render("m42", "vote", "bbcode", {}, tmp_path / "game")
        except UserError as exc:
            out.append(str(exc))

    saved, r.TIME_LIMIT = r.TIME_LIMIT, 0.3
    try:
        thread = threading.Thread(target=work, daemon=True)
        thread.start()
        thread.join(30)
    finally:
        r.TIME_LIMIT = saved
    assert not thread.is_alive() and out and "秒" in out[0]


def test_template_symlinked_to_a_file_outside_is_refused(tmp_path, capsys):
    game, path = _game_with_template(tmp_path, None)
    os.symlink("/etc/passwd", path)
    err = refused(game, announce(game), capsys)
    assert str(path) in err and "模板文件夹之外" in err and "root:" not in err


def test_template_symlinked_to_the_ledger_is_refused(tmp_path, capsys):
    game, path = _game_with_template(tmp_path, None)
    os.symlink("../../ledger.yaml", path)
    err = refused(game, announce(game), capsys)
    assert "模板文件夹之外" in err and "type: close" not in err


def test_symlinked_template_folder_entry_to_outside_is_refused_for_includes(tmp_path, capsys):
    game, path = _game_with_template(tmp_path, "a\n{% include 'm42/secret.j2' %}\n")
    os.symlink("../../ledger.yaml", path.parent / "secret.j2")
    err = refused(game, announce(game), capsys)
    assert f"{path}:2" in err and "模板文件夹之外" in err


@pytest.mark.parametrize(
    "tag",
    [
        "{% include '../../ledger.yaml' %}",
        "{% include '/etc/passwd' %}",
        "{% import '../../ledger.yaml' as x %}",
        "{% from '../m42/../../ledger.yaml' import y %}",
        "{% extends '../../ledger.yaml' %}",
    ],
)
def test_include_or_import_escaping_the_template_folder_is_refused(tmp_path, capsys, tag):
    game, path = _game_with_template(tmp_path, "a\n" + tag + "\n")
    err = refused(game, announce(game), capsys)
    assert f"{path}:2" in err and "模板文件夹" in err and "之外" in err


def test_includes_inside_the_folder_and_built_in_templates_still_work(tmp_path, capsys):
    game, path = _game_with_template(tmp_path, "{% include 'm42/part.j2' %}{{ 6 * 7 }} {{ 2 ** 10 }}\n")
    (path.parent / "part.j2").write_text("自制：", encoding="utf-8")
    code, err, out = run(announce(game), capsys)
    assert code == 0, err
    assert out == "自制：42 1024\n"
    code, err, out = run(["announce", game, "vote", "--day", "1", "--format", "markdown"], capsys)  # built-in
    assert code == 0, err


# --- 3. forum ids that go into links ----------------------------------------------

def _json_dump(tmp_path: Path, posts: list[dict]) -> Path:
    path = tmp_path / "dump.json"
    path.write_text(json.dumps({"Version": "4", "Variables": {"postlist": posts}}, ensure_ascii=False), encoding="utf-8")
    return path


def _jpost(floor: int, pid: str, **kw) -> dict:
    post = {"pid": pid, "tid": "2042001", "position": str(floor), "author": "苏苏今天也很努力", "authorid": "2001",
            "dbdateline": "1794110400", "message": "投票对象：涂山红红<br />\n投票理由：可靠"}
    post.update(kw)
    return post


@pytest.mark.parametrize(
    "bad",
    ["1]evil[url=http://evil]", "12a", "１２", "٣", "12 "],
)
def test_non_numeric_pid_in_a_json_dump_is_refused_with_file_and_floor(tmp_path, capsys, bad):
    game = write_game(tmp_path, CLOSE)
    dump = _json_dump(tmp_path, [_jpost(2, "88001"), _jpost(3, bad)])
    err = refused(game, ["import", game, dump, "--thread", "vote", "--day", "1"], capsys)
    assert f"{dump}（3楼）" in err
    assert "pid" in err


def test_non_numeric_pid_given_as_a_number_or_object_is_refused(tmp_path):
    from zoneinfo import ZoneInfo

    from modtool.forum import read_dump

    dump = _json_dump(tmp_path, [_jpost(2, 88001.5), _jpost(3, "88002", tid={"x": 1}), _jpost(4, "88003", tid=2042001)])
    posts, problems = read_dump(dump, ZoneInfo("Asia/Shanghai"))
    assert [p.floor for p in posts] == [4]
    assert {p.floor for p in problems} == {2, 3}


def test_non_numeric_tid_in_a_json_dump_is_refused(tmp_path, capsys):
    game = write_game(tmp_path, CLOSE)
    dump = _json_dump(tmp_path, [_jpost(2, "88001", tid="2042001&extra=[b]")])
    err = refused(game, ["import", game, dump, "--thread", "vote", "--day", "1"], capsys)
    assert f"{dump}（2楼）" in err and "tid" in err


def _page_post(pid: str, floor: int, body: str, container: bool = True) -> str:
    inner = (
        f'<div class="authi"><a class="xw1" href="#">苏苏今天也很努力</a></div>'
        f'<a id="postnum{pid}"><em>{floor}</em><sup>#</sup></a>'
        f'<em id="authorposton{pid}">发表于 2026-11-3 20:0{floor}:00</em>'
        f'<table><tr><td class="t_f" id="postmessage_{pid}">{body}</td></tr></table>'
    )
    return f'<div id="post_{pid}">{inner}</div>\n' if container else inner + "\n"


def _page(*posts: str, closed: bool = True) -> str:
    head = '<!DOCTYPE html>\n<html>\n<head><meta charset="utf-8" /><title>投票帖</title></head>\n<body>\n<div id="postlist">\n'
    tail = "</div>\n</body>\n</html>\n" if closed else ""
    return head + "".join(posts) + tail


def test_non_numeric_pid_in_a_saved_page_is_refused(tmp_path, capsys):
    game = write_game(tmp_path, CLOSE)
    dump = tmp_path / "page.html"
    # a body without its post container takes its pid from the id attribute as is
    pid = "7]x[url=http://evil]"
    evil = (
        f'<table><tr><td class="t_f" id="postmessage_{pid}">投票对象：涂山红红</td></tr></table>'
        f'<div class="authi"><a class="xw1" href="#">苏苏今天也很努力</a></div>'
        f'<a id="postnum{pid}"><em>2</em><sup>#</sup></a><em id="authorposton{pid}">发表于 2026-11-3 20:02:00</em>\n'
    )
    dump.write_text(_page(evil, _page_post("88001", 3, "投票对象：涂山红红")), encoding="utf-8")
    err = refused(game, ["import", game, dump, "--thread", "vote", "--day", "1"], capsys)
    assert f"{dump}:" in err and "（2楼）" in err and "pid" in err


def test_full_width_digits_in_a_saved_page_pid_are_refused(tmp_path):
    from zoneinfo import ZoneInfo

    from modtool.forum import read_dump_text

    for pid in ("８８００１", "٨٨٠٠١"):  # full-width, Arabic-Indic: both match \d
        posts, problems = read_dump_text(_page(_page_post(pid, 2, "hi")), "p.html", ZoneInfo("Asia/Shanghai"))
        assert posts == [] and problems and problems[0].floor == 2 and "pid" in problems[0].message


def test_only_validated_numbers_reach_the_links_of_a_vote_post(tmp_path, capsys):
    """End to end: a forged pid never lands in a [url=…] of the rendered post."""
    game = write_game(tmp_path, CLOSE)
    dump = _json_dump(tmp_path, [_jpost(2, "88001"), _jpost(3, "1][url=http://evil]x")])
    run(["import", game, dump, "--thread", "vote", "--day", "1"], capsys)
    code, err, out = run(["announce", game, "vote", "--day", "1"], capsys)
    assert "http://evil" not in out and "evil" not in (game / "ledger.yaml").read_text(encoding="utf-8")


# --- 4. a saved page cut short ----------------------------------------------------

def test_saved_page_cut_between_two_posts_is_refused_naming_the_last_whole_floor(tmp_path, capsys):
    game = write_game(tmp_path, CLOSE)
    whole = _page(_page_post("88001", 2, "投票对象：涂山红红"), _page_post("88002", 3, "投票对象：石宽"))
    cut = whole[: whole.index('<div id="post_88002"')]
    dump = tmp_path / "cut.html"
    dump.write_text(cut, encoding="utf-8")
    err = refused(game, ["import", game, dump, "--thread", "vote", "--day", "1"], capsys)
    assert str(dump) in err and "网页文件不完整：在第 2 楼之后被截断，请重新保存整页" in err


def test_saved_page_cut_inside_a_post_names_the_floor_before_it(tmp_path):
    from zoneinfo import ZoneInfo

    from modtool.forum import read_dump_text

    whole = _page(_page_post("88001", 2, "投票对象：涂山红红"), _page_post("88002", 3, "投票对象：石宽<br />投票理由：很长"))
    cut = whole[: whole.index("投票理由：很长")]
    posts, problems = read_dump_text(cut, "cut.html", ZoneInfo("Asia/Shanghai"))
    assert posts == [] and [p.message for p in problems] == ["网页文件不完整：在第 2 楼之后被截断，请重新保存整页"]


def test_real_fixture_page_cut_after_its_first_post_is_refused(tmp_path):
    from zoneinfo import ZoneInfo

    from modtool.forum import read_dump_text

    page = (ROOT / "tests" / "fixtures" / "forum" / "thread-8848-page1.html").read_text(encoding="utf-8")
    cut = page[: page.index('<div id="post_90002"')]
    posts, problems = read_dump_text(cut, "thread.html", ZoneInfo("Asia/Shanghai"))
    assert posts == [] and len(problems) == 1
    assert problems[0].message == "网页文件不完整：在第 1 楼之后被截断，请重新保存整页"
    assert problems[0].source == "thread.html" and problems[0].line == cut.count("\n") + 1


def test_whole_saved_pages_and_fragments_still_import():
    from zoneinfo import ZoneInfo

    from modtool.forum import read_dump, read_dump_text

    tz = ZoneInfo("Asia/Shanghai")
    for path in [ROOT / "tests" / "fixtures" / "forum" / "thread-8848-page1.html", *ROOT.glob("examples/*/dumps/*.html")]:
        posts, problems = read_dump(path, tz)
        assert posts and problems == [], path
    fragment = _page_post("88001", 2, "投票对象：涂山红红")  # no <html>: nothing to tell its end by
    posts, problems = read_dump_text(fragment, "f.html", tz)
    assert [p.floor for p in posts] == [2] and problems == []


def test_a_hand_edited_pid_that_is_not_a_number_gets_no_link():
    from modtool.packs.m42.report import floor_link

    assert floor_link(3, "1]x[url=http://evil]", "https://bbs.example/", "bbcode") == "3#"
    assert floor_link(3, "１２", "https://bbs.example/", "markdown") == "3#"
    assert "[url=https://bbs.example/forum.php?mod=redirect&goto=findpost&pid=12]3#[/url]" == \
        floor_link(3, "12", "https://bbs.example/", "bbcode")
