"""A browser copy of a Discuz! X3 thread keeps its quotes (M42-R5: text inside
a quotation is never the poster's vote), and a title line before the first
floor is ignored, not a reason to refuse the import.

The pastes below are written by hand in the shape a browser gives when a
Discuz! X3 thread page is selected and copied: the thread title and the
"查看: N|回复: N" line first, then per post the account, the "发表于 … | 只看该作者"
line, the floor, the body and the copied buttons. A quote (rendered as
``<div class="quote"><blockquote><font size="2"><a …findpost…><font
color="#999999">NAME 发表于 2015-2-28 09:00</font></a></font><br>quoted
text…</blockquote></div><br>``, see shared/reference/discuz/ and the RSS
samples in shared/real/discuz/) loses its markup in the copy and comes out
as the line "NAME 发表于 TIME", up to three quoted lines, and a blank line
(the ``<br>`` after the quote block)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from zoneinfo import ZoneInfo

from modtool.forum import read_dump_text
from modtool.forum.posts import ReplyRef
from tests.support.values import run_main

ROOT = Path(__file__).resolve().parent.parent
TZ = ZoneInfo("Asia/Shanghai")

PASTE = """\
【M42】第一天 警长竞选投票帖
查看: 96|回复: 4
[复制链接]

M42导演
发表于 2026-11-2 10:00:00 | 只看该作者 |倒序浏览 |阅读模式
楼主
第一天警长竞选投票帖，关门时间：11月3日 21:00。
回复 举报

苏苏今天也很努力
发表于 2026-11-2 10:20:00 | 只看该作者
沙发
投票对象：石宽
投票理由：石宽昨天发言很怪
回复 举报

雅雅女王
发表于 2026-11-2 10:45:00 | 只看该作者
板凳
投票对象：白月初
投票理由：投月初
回复 举报

苏苏今天也很努力
发表于 2026-11-2 15:42:10 | 只看该作者
地板
苏苏今天也很努力 发表于 2026-11-2 10:20
投票对象：石宽
投票理由：石宽昨天发言很怪

改票对象：白月初
改票理由：还是白月初靠谱
回复 举报

月初不是白
发表于 2026-11-2 16:00:00 | 只看该作者
5#
雅雅女王 发表于 2026-11-2 10:45
投票对象：白月初
投票理由：投月初
谢谢雅雅
回复 举报
"""


def test_m42_r5_browser_paste_quote_header_starts_a_quote():
    posts, problems = read_dump_text(PASTE, "paste.txt", TZ)
    assert [p.floor for p in posts] == [1, 2, 3, 4, 5]
    by = {p.floor: p for p in posts}
    assert by[4].body == ("[quote]苏苏今天也很努力 发表于 2026-11-2 10:20\n投票对象：石宽\n投票理由：石宽昨天发言很怪[/quote]\n"
                          "改票对象：白月初\n改票理由：还是白月初靠谱")
    assert by[4].reply_to == ReplyRef(author="苏苏今天也很努力", time="2026-11-02 10:20")
    # no blank line after the quote: Discuz quotes at most three lines, so the fourth is the post's own
    assert by[5].body == "[quote]雅雅女王 发表于 2026-11-2 10:45\n投票对象：白月初\n投票理由：投月初[/quote]\n谢谢雅雅"
    assert by[2].body == "投票对象：石宽\n投票理由：石宽昨天发言很怪"


def test_paste_quote_header_line_in_the_hash_header_format_too():
    posts, _ = read_dump_text("#7 饺子君 2026-11-03 20:30\n包子 发表于 2026-11-3 20:15\n投票对象：饺子\n\n改票对象：馄饨\n改票理由：变了\n",
                              "paste.txt", TZ)
    (p,) = posts
    assert p.body == "[quote]包子 发表于 2026-11-3 20:15\n投票对象：饺子[/quote]\n改票对象：馄饨\n改票理由：变了"


def test_paste_title_lines_before_the_first_floor_are_noticed_not_fatal():
    posts, problems = read_dump_text(PASTE, "paste.txt", TZ)
    assert len(posts) == 5
    assert problems and all(p.notice for p in problems)
    assert "【M42】第一天 警长竞选投票帖" in problems[0].message


def _game(tmp_path: Path) -> Path:
    game = tmp_path / "g"
    assert run_main(["new", str(game), "--game", "m42", "--roster", str(ROOT / "examples" / "m42" / "roster.yaml"),
                     "--seed", "1"]) == 0
    return game


def test_m42_r5_browser_paste_change_counts_after_import(tmp_path, capsys):
    game = _game(tmp_path)
    paste = tmp_path / "第一天投票.txt"
    paste.write_text(PASTE, encoding="utf-8")
    capsys.readouterr()
    assert run_main(["import", str(game), str(paste), "--thread", "vote", "--day", "1"]) == 0
    out, err = capsys.readouterr()
    assert "已导入 5 帖" in out
    assert "忽略" in out + err and "【M42】" in out + err  # the title line is named, not fatal
    assert run_main(["tally", str(game), "--day", "1", "--close", "2026-11-03 21:00", "--json"]) == 0
    t = json.loads(capsys.readouterr().out)
    # floor 5 only quotes a vote: not a vote of its own, nor an attempt at one (chatter)
    assert t["invalid"] == [] and 5 in [b["floor"] for b in t["chatter"]]
    assert [c["floor"] for c in t["changes"]] == [4]
    assert t["counts"] == {"白月初": 2}


def test_paste_with_only_a_title_and_no_floor_is_still_refused(tmp_path, capsys):
    game = _game(tmp_path)
    before = (game / "ledger.yaml").read_bytes()
    paste = tmp_path / "p.txt"
    paste.write_text("【M42】第一天 警长竞选投票帖\n查看: 96|回复: 4\n", encoding="utf-8")
    capsys.readouterr()
    assert run_main(["import", str(game), str(paste), "--thread", "vote", "--day", "1"]) == 1
    assert "无法识别文件格式" in capsys.readouterr().err
    assert (game / "ledger.yaml").read_bytes() == before


REAL_RSS = Path("/work/shared/real/discuz/stage1st-rsshub-thread-1100155.xml")


def _as_copied(html: str) -> str:
    """Rendered post HTML as a browser copies it: a line per <br>, a line break
    around the quote block, no markup."""
    import html as htmllib
    import re

    text = re.sub(r"</?(?:div|blockquote)[^>]*>", "\n", html.replace("\n", ""))
    text = re.sub(r"<br\s*/?>", "\n", text)
    text = re.sub(r"<[^>]+>", "", text)
    return htmllib.unescape(re.sub(r"\n{3,}", "\n\n", text)).strip("\n")


def test_real_stage1st_quote_copied_from_the_browser_is_a_quote():
    """Floors 5 and 6 of the real thread 1100155 (shared/real/discuz/): #6 quotes
    #5; copied from the browser, the quote is recognised and #6's own text is
    only "谢发片"."""
    import re

    import pytest

    if not REAL_RSS.is_file():
        pytest.skip("shared/real/discuz/ is not here")
    items = re.findall(r"<item>.*?#(\d+)\]\]></title>\s*<description><!\[CDATA\[(.*?)\]\]></description>.*?"
                       r"<author><!\[CDATA\[(.*?)\]\]></author>", REAL_RSS.read_text(encoding="utf-8"), re.S)
    by = {int(f): (body, author) for f, body, author in items}
    times = {5: "2015-2-28 09:00:00", 6: "2015-2-28 13:13:00"}  # pubDate + 8 h (S1 local time)
    paste = "这5.0能跟CM11那样修改从主页键往上划出的快捷方式吗\n\n"
    for floor in (5, 6):
        body, author = by[floor]
        paste += f"{author}\n发表于 {times[floor]} | 只看该作者\n{floor}#\n{_as_copied(body)}\n回复 举报\n\n"
    posts, problems = read_dump_text(paste, "copy.txt", TZ)
    assert [p.floor for p in posts] == [5, 6] and all(p.notice for p in problems)
    six = posts[1]
    assert six.body.startswith("[quote]小天使与ntr 发表于 2015-2-28 09:00\n有软件可以改\n")
    assert six.body.endswith("[/quote]\n谢发片")
    assert six.reply_to == ReplyRef(author="小天使与ntr", time="2015-02-28 09:00")
