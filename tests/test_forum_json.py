"""Discuz! mobile API JSON dumps (modtool.forum.discuz_json)."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from modtool.forum import read_dump, read_dump_text
from modtool.forum.common import make_post
from modtool.forum.posts import Post, ReplyRef

FIX = Path(__file__).parent / "fixtures" / "forum"
TZ = ZoneInfo("Asia/Shanghai")
T0 = 1793707200  # 2026-11-03 20:00:00 +08:00


def env(*posts, **extra) -> str:
    return json.dumps({"Version": "4", "Charset": "UTF-8", "Variables": {"postlist": list(posts)}, **extra}, ensure_ascii=False)


def post(**kw) -> dict:
    base = {"pid": "1", "author": "饺子君", "authorid": "101", "position": "2", "number": "2", "dbdateline": str(T0), "message": "投票对象：包子"}
    base.update(kw)
    return {k: v for k, v in base.items() if v is not None}


def test_day1_fixture():
    posts, problems = read_dump(FIX / "viewthread-day1.json", TZ)
    assert problems == []
    assert [p.floor for p in posts] == list(range(1, 10))
    by = {p.floor: p for p in posts}
    assert all(p.source == str(FIX / "viewthread-day1.json") for p in posts)
    assert by[2] .pid == "90002" and by[2].author == "饺子君"
    assert by[2].time == datetime(2026, 11, 3, 20, 15, tzinfo=TZ)
    assert by[2].body == "投票对象：包子\n投票理由：包子昨晚不说话"
    assert by[2].reply_to is None and by[2].edited is None
    # edit marker removed from the body; smiley dropped; &nbsp; is a space
    assert by[3].edited == "本帖最后由 包子 于 2026-11-3 20:40 编辑"
    assert by[3].body == "投票对象：饺子君\n投票理由：饺子好吃"
    assert by[4].body == "我先潜水 <_< 明天再说"
    # a change post quoting the earlier vote
    assert by[5].body.startswith("[quote][size=2][url=forum.php?mod=redirect&goto=findpost&pid=90002&ptid=8848]")
    assert "[color=#999999]饺子君 发表于 2026-11-3 20:15[/color]" in by[5].body
    assert by[5].body.endswith("[/quote]\n改票对象：[b]馄饨[/b]\n改票理由：馄饨在[color=#FF0000]划水[/color]")
    assert by[5].reply_to == ReplyRef(pid="90002", floor=None, author="饺子君", time="2026-11-03 20:15")
    # anonymous post kept, author as given; banned post kept as is; empty post
    assert by[6].author == "匿名"
    assert by[7].body == "**** 该帖被屏蔽 ****"
    assert by[8].body == ""
    # the old Discuz 6/7 reply marker
    assert by[9].reply_to == ReplyRef(pid="90004", floor=4, author="馄饨", time=None)
    assert "[url=http://bbs.example.com/rules.html]规则[/url]" in by[9].body
    assert by[1].body.startswith("[size=5][b]第一天 投票帖[/b][/size]\n\n投票格式：")


def test_partial_v1_fixture_problems_name_the_place():
    posts, problems = read_dump(FIX / "viewthread-v1-partial.json", TZ)
    assert [p.floor for p in posts] == [10, 11, 13]
    by = {p.floor: p for p in posts}
    # no position: number is the floor; dateline read in the game zone
    assert by[10].extra["floor_from"] == "number"
    assert by[11].time == datetime(2026, 11, 3, 22, 5, tzinfo=TZ)
    assert by[13].author == ""
    msgs = [str(p) for p in problems]
    assert any("12楼" in m and "3 分钟前" in m and "dbdateline" in m for m in msgs)
    assert any("13楼" in m and "缺少作者" in m for m in msgs)
    assert any("第 5 项" in m and "缺少楼层号" in m for m in msgs)
    assert all(p.source.endswith("viewthread-v1-partial.json") for p in problems)


def test_error_envelope():
    posts, problems = read_dump(FIX / "viewthread-error.json", TZ)
    assert posts == []
    assert len(problems) == 1
    assert "主题不存在" in problems[0].message and "thread_nonexistence" in problems[0].message


def test_empty_postlist_without_message():
    posts, problems = read_dump_text(env(), "x.json", TZ)
    assert posts == [] and "帖子列表为空" in problems[0].message


@pytest.mark.parametrize(
    "text, words",
    [
        ('{"Variables": {"postlist": [}', "JSON 格式错误"),
        ('{"Version": "4"}', "缺少 Variables"),
        ('{"Variables": {"thread": {}}}', "缺少帖子列表"),
        ('{"Variables": {"postlist": "x"}}', "不是列表"),
        ('[{"a": 1}, 2]', "不是 Discuz! 接口响应"),
        ('{"Variables": {"postlist": [3]}}', "不是帖子对象"),
    ],
)
def test_bad_json_shapes(text, words):
    posts, problems = read_dump_text(text, "bad.json", TZ)
    assert posts == []
    assert any(words in p.message for p in problems), problems


def test_broken_json_names_the_line():
    text = '{\n  "Variables": {\n    "postlist": [\n      {"pid": "1",,}\n    ]\n  }\n}'
    _, problems = read_dump_text(text, "bad.json", TZ)
    assert problems[0].line == 4 and "第 4 行" in problems[0].message


def test_position_is_the_floor_and_posts_are_sorted():
    text = env(
        post(pid="3", position="30", number="2"),
        post(pid="2", position="20", number="1"),
        post(pid="1", position="", number="7"),
    )
    posts, problems = read_dump_text(text, "p.json", TZ)
    assert problems == []
    assert [(p.pid, p.floor) for p in posts] == [("1", 7), ("2", 20), ("3", 30)]


def test_time_from_dbdateline_in_game_zone():
    posts, _ = read_dump_text(env(post(dbdateline=str(T0 + 61), dateline="1&nbsp;分钟前")), "p.json", ZoneInfo("UTC"))
    assert posts[0].time == datetime(2026, 11, 3, 12, 1, 1, tzinfo=ZoneInfo("UTC"))


def test_dateline_fallback_not_zero_padded():
    posts, problems = read_dump_text(env(post(dbdateline=None, dateline="2026-1-3 9:05")), "p.json", TZ)
    assert problems == [] and posts[0].time == datetime(2026, 1, 3, 9, 5, tzinfo=TZ)


def test_relative_dateline_without_dbdateline_is_a_problem():
    posts, problems = read_dump_text(env(post(dbdateline=None, dateline="昨天&nbsp;21:05")), "p.json", TZ)
    assert posts == [] and problems[0].floor == 2 and "昨天 21:05" in problems[0].message


def test_non_string_scalars_are_tolerated():
    posts, problems = read_dump_text(env(post(position=5, dbdateline=T0, authorid=7, pid=12)), "p.json", TZ)
    assert [p.floor for p in posts] == [5] and posts[0].pid == "12"


def test_missing_pid_is_reported_but_post_kept():
    posts, problems = read_dump_text(env(post(pid=None)), "p.json", TZ)
    assert posts[0].pid == "" and "pid" in problems[0].message and problems[0].floor == 2


def test_duplicate_floor_is_reported():
    posts, problems = read_dump_text(env(post(pid="1"), post(pid="2")), "p.json", TZ)
    assert len(posts) == 2 and "出现了不止一次" in problems[0].message


def test_anonymous_without_author_is_fine():
    posts, problems = read_dump_text(env(post(author=None, authorid="0", anonymous="1")), "p.json", TZ)
    assert problems == [] and posts[0].author == ""


def test_progress_is_called():
    posts = [post(pid=str(i), position=str(i)) for i in range(1, 12002)]
    calls = []
    out, problems = read_dump_text(env(*posts), "p.json", TZ, progress=lambda d, t: calls.append((d, t)))
    assert len(out) == 12001 and problems == []
    assert calls == [(5000, 12001), (10000, 12001), (12001, 12001)]


def test_gbk_json_with_declared_charset():
    data = env(post()).replace('"UTF-8"', '"GBK"').encode("gbk")
    posts, problems = read_dump_text(data, "gbk.json", TZ)
    assert problems == [] and posts[0].body == "投票对象：包子"


def test_undeclared_gbk_is_a_clear_problem(tmp_path):
    path = tmp_path / "gbk.json"
    path.write_bytes('{"Variables": {"postlist": [{"author": "饺子"}]}}'.encode("gbk"))
    posts, problems = read_dump(path, TZ)
    assert posts == [] and "不是 UTF-8" in problems[0].message and "GBK" in problems[0].message


def test_utf8_bom_and_utf16(tmp_path):
    for name, data in (("bom.json", b"\xef\xbb\xbf" + env(post()).encode()), ("u16.json", env(post()).encode("utf-16"))):
        path = tmp_path / name
        path.write_bytes(data)
        posts, problems = read_dump(path, TZ)
        assert problems == [] and len(posts) == 1, name


def test_unreadable_paths(tmp_path):
    assert "不存在" in read_dump(tmp_path / "nope.json", TZ)[1][0].message
    assert "文件夹" in read_dump(tmp_path, TZ)[1][0].message
    (tmp_path / "empty.json").write_text("  \n")
    assert "空" in read_dump(tmp_path / "empty.json", TZ)[1][0].message


def test_fast_post_equals_constructor():
    t = datetime(2026, 11, 3, 20, 0, tzinfo=TZ)
    args = ("1", 2, "饺子", t, "b", "e", ReplyRef(pid="9"), "s", {"authorid": "1"})
    fast = make_post(*args)
    slow = Post(*args)
    assert fast == slow and hash(fast.reply_to) == hash(slow.reply_to) and repr(fast) == repr(slow)
    with pytest.raises(Exception):
        fast.floor = 3  # still frozen
