"""The plain-text format (modtool.forum.plaintext)."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from modtool.forum import plaintext_help, read_dump, read_dump_text
from modtool.forum.posts import ReplyRef

FIX = Path(__file__).parent / "fixtures" / "forum"
TZ = ZoneInfo("Asia/Shanghai")


def read(text: str):
    return read_dump_text(text, "posts.txt", TZ)


def test_pasted_fixture():
    posts, problems = read_dump(FIX / "day1-pasted.txt", TZ)
    assert [p.floor for p in posts] == [1, 2, 3, 4, 5, 9]
    assert len(problems) == 1 and problems[0].line == 1 and "之前的文字" in problems[0].message
    by = {p.floor: p for p in posts}
    assert all(p.pid == "" for p in posts)
    assert by[2].time == datetime(2026, 11, 3, 20, 15, 9, tzinfo=TZ)
    assert by[3].edited == "本帖最后由 包子 于 2026-11-03 20:40 编辑"
    assert by[3].body == "投票对象：饺子君\n投票理由：饺子好吃 😋"
    assert by[4].body == "我先潜水 >_< 明天再说"  # trailing separator dropped
    assert by[5].author == "饺子 君"  # full-width ＃５ and "|" separators
    assert by[5].body == "[quote]饺子君 发表于 2026-11-3 20:15\n投票对象：包子\n投票理由：包子昨晚不说话[/quote]\n改票对象：馄饨\n改票理由：馄饨在划水"
    assert by[5].reply_to == ReplyRef(pid=None, floor=2, author="饺子君", time="2026-11-03 20:15")
    assert by[9].reply_to == ReplyRef(floor=4, author="馄饨")
    assert by[9].body == "别潜水了"


def test_browser_copy_fixture():
    posts, problems = read_dump(FIX / "day1-browser-copy.txt", TZ)
    assert [(p.floor, p.author) for p in posts] == [(1, "说书人"), (2, "饺子君"), (3, "包子")]
    assert posts[0].body == "第一天 投票帖\n投票对象：\n投票理由："
    assert posts[1].body == "投票对象：包子\n投票理由：包子昨晚不说话"
    assert posts[2].edited == "本帖最后由 包子 于 2026-11-3 20:40 编辑"
    assert posts[2].time == datetime(2026, 11, 3, 20, 22, 41, tzinfo=TZ)
    assert any(p.line == 27 and "1 小时前" in p.message for p in problems)


@pytest.mark.parametrize(
    "header, floor, author, time",
    [
        ("#12 饺子君 2026-11-03 20:15", 12, "饺子君", datetime(2026, 11, 3, 20, 15, tzinfo=TZ)),
        ("12楼 饺子君 2026-11-3 20:15:07", 12, "饺子君", datetime(2026, 11, 3, 20, 15, 7, tzinfo=TZ)),
        ("12# 饺 子 2026/11/3 9:05", 12, "饺 子", datetime(2026, 11, 3, 9, 5, tzinfo=TZ)),
        ("＃１２　饺子君　２０２６－１１－０３　２０：１５", 12, "饺子君", datetime(2026, 11, 3, 20, 15, tzinfo=TZ)),
        ("#1\u200b2 饺子君\u200d 2026-11-03 20:15", 12, "饺子君", datetime(2026, 11, 3, 20, 15, tzinfo=TZ)),
        ("沙发 饺子君 2026年11月3日 20:15", 2, "饺子君", datetime(2026, 11, 3, 20, 15, tzinfo=TZ)),
        ("#7 | 🥟饺子 | 发表于 2026-11-03 20:15", 7, "🥟饺子", datetime(2026, 11, 3, 20, 15, tzinfo=TZ)),
    ],
)
def test_header_forms(header, floor, author, time):
    posts, problems = read(header + "\n投票对象：包子\n")
    assert problems == []
    assert (posts[0].floor, posts[0].author, posts[0].time, posts[0].body) == (floor, author, time, "投票对象：包子")


def test_reply_line_forms():
    for line, floor in (("回复 #8", 8), ("回复 8楼", 8), ("回复 8#", 8), ("回复＃８", 8)):
        posts, _ = read(f"#9 a 2026-11-03 20:15\n{line}\n好")
        assert posts[0].reply_to == ReplyRef(floor=floor), line
        assert posts[0].body == "好"


def test_quote_runs_become_blocks():
    posts, _ = read("#9 a 2026-11-03 20:15\n> 一\n>\n> 二\n中\n＞ 三\n")
    assert posts[0].body == "[quote]一\n\n二[/quote]\n中\n[quote]三[/quote]"
    assert posts[0].reply_to == ReplyRef()  # a quote without a header: known nothing


def test_emoticon_is_not_a_quote():
    posts, _ = read("#9 a 2026-11-03 20:15\n>_< 好吧\n")
    assert posts[0].body == ">_< 好吧"


def test_bad_time_in_header_skips_that_post():
    posts, problems = read("#1 a 2026-13-40 25:00\n正文\n#2 b 2026-11-03 20:15\n好\n")
    assert [p.floor for p in posts] == [2]
    assert problems[0].line == 1 and "时间无效" in problems[0].message


def test_header_like_line_is_reported():
    posts, problems = read("#1 a 2026-11-03 20:15\n#2 2026-11-03 20:16\n")
    assert posts[0].body == "#2 2026-11-03 20:16"
    assert problems[0].line == 2 and "像楼层标题" in problems[0].message


def test_unknown_format_and_empty():
    posts, problems = read("随便写的一段话\n没有楼层\n")
    assert posts == [] and "无法识别文件格式" in problems[0].message
    assert "空" in read("")[1][0].message


def test_crlf_and_bom():
    posts, problems = read("\ufeff#1 a 2026-11-03 20:15\r\n一\r\n二\r\n")
    assert problems == [] and posts[0].body == "一\n二"


def test_sorted_by_floor_and_duplicates_reported():
    posts, problems = read("#3 a 2026-11-03 20:15\nx\n#1 b 2026-11-03 20:16\ny\n#3 c 2026-11-03 20:17\nz\n")
    assert [p.floor for p in posts] == [1, 3, 3]
    assert any("出现了不止一次" in p.message for p in problems)


def test_plaintext_help_is_chinese_and_shows_the_header():
    text = plaintext_help()
    assert "#12 饺子君 2026-11-03 20:15" in text and "回复 #8" in text and "楼层标题" in text
