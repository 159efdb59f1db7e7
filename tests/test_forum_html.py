"""Saved Discuz! X3 pages and the HTML → BBCode conversion."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.support.fuzz import examples

from modtool.forum import detect_format, read_dump, read_dump_text
from modtool.forum.html2bb import convert, convert_slow
from modtool.forum.posts import ReplyRef

FIX = Path(__file__).parent / "fixtures" / "forum"
TZ = ZoneInfo("Asia/Shanghai")


def test_page_fixture():
    path = FIX / "thread-8848-page1.html"
    posts, problems = read_dump(path, TZ)
    assert problems == []
    assert [p.floor for p in posts] == [1, 2, 3, 5, 6, 7]
    by = {p.floor: p for p in posts}
    assert [by[f].pid for f in (1, 2, 3)] == ["90001", "90002", "90003"]
    assert by[1].author == "说书人" and by[2].author == "饺子君"
    # 楼主 / 沙发 / 板凳 labels; the <span title> of a recent post
    assert by[2].time == datetime(2026, 11, 3, 20, 15, 9, tzinfo=TZ)
    assert by[2].body == "投票对象：包子\n投票理由：包子昨晚不说话"
    assert by[3].edited == "本帖最后由 包子 于 2026-11-3 20:40 编辑"
    assert by[3].body == "投票对象：饺子君\n投票理由：饺子好吃"
    assert by[5].reply_to == ReplyRef(pid="90002", floor=None, author="饺子君", time="2026-11-03 20:15")
    assert by[5].body.endswith("改票对象：[b]馄饨[/b]\n改票理由：馄饨在[color=rgb(255, 0, 0)]划水[/color]")
    assert by[6].author == "匿名"  # anonymous: no a.xw1, text of div.authi
    assert by[7].body == "作者被禁止或删除 内容自动屏蔽"
    first = by[1].body
    assert "[code]投票对象：\n投票理由：[/code]" in first
    assert "复制代码" not in first and "下载次数" not in first
    assert "[table][tr][td]饺子君[/td][td]包子[/td][/tr]" in first
    assert first.endswith("[attach]777[/attach]")
    assert all(p.source == str(path) for p in posts)


def test_detects_html_by_content_not_name(tmp_path):
    path = tmp_path / "saved.txt"
    path.write_text((FIX / "thread-8848-page1.html").read_text(encoding="utf-8"), encoding="utf-8")
    posts, problems = read_dump(path, TZ)
    assert len(posts) == 6 and problems == []
    assert detect_format("<html><body>hi</body></html>") == "html"


def test_gbk_page_with_meta_charset():
    page = (FIX / "thread-8848-page1.html").read_text(encoding="utf-8").replace("charset=utf-8", "charset=gbk")
    posts, problems = read_dump_text(page.encode("gbk"), "gbk.html", TZ)
    assert len(posts) == 6 and problems == []


def test_page_without_posts():
    posts, problems = read_dump_text("<html><body><p>登录</p></body></html>", "login.html", TZ)
    assert posts == [] and "没有找到帖子" in problems[0].message


def test_post_missing_time_and_floor():
    page = (
        '<div id="post_5"><div class="authi"><a class="xw1" href="#">饺子</a></div>'
        '<a id="postnum5"><em>5</em><sup>#</sup></a><td class="t_f" id="postmessage_5">hi</td></div>'
        '<div id="post_6"><div class="authi"><a class="xw1">包子</a></div>'
        '<em id="authorposton6">发表于 2026-11-3 20:00</em><td class="t_f" id="postmessage_6">yo</td></div>'
    )
    posts, problems = read_dump_text(page, "p.html", TZ)
    assert posts == []
    assert any("缺少发帖时间" in p.message and p.floor == 5 for p in problems)
    assert any("缺少楼层号" in p.message and "pid 6" in p.message for p in problems)


# --- HTML → BBCode -------------------------------------------------------------

QUOTE = (
    '<div class="quote"><blockquote><font size="2"><a href="forum.php?mod=redirect&amp;goto=findpost&amp;pid=7&amp;ptid=1" '
    'target="_blank"><font color="#999999">饺子 发表于 2026-11-3 20:15</font></a></font><br />\r\n投票对象：包子</blockquote></div><br />\r\n改票对象：馄饨'
)

CASES = [
    ("a<br />\r\nb<br>c<br/>\nd", "a\nb\nc\nd"),
    ("<strong>粗</strong><b>b</b><i>斜</i><u>下</u><strike>删</strike>", "[b]粗[/b][b]b[/b][i]斜[/i][u]下[/u][s]删[/s]"),
    ('<font color="red" size="3">x</font>', "[color=red][size=3]x[/size][/color]"),
    ('<font face="楷体">x</font>', "[font=楷体]x[/font]"),
    ('<span style="color: #ff0000; background-color: yellow">x</span>', "[color=#ff0000][backcolor=yellow]x[/backcolor][/color]"),
    ('<font style="font-size:12px">x</font>', "[size=12px]x[/size]"),
    ('<a href="http://a.b/?x=1&amp;y=2" target="_blank">链接</a>', "[url=http://a.b/?x=1&y=2]链接[/url]"),
    ('<a href="mailto:a@b.c">a@b.c</a>', "[email=a@b.c]a@b.c[/email]"),
    ('笑<img src="static/image/smiley/default/smile.gif" smilieid="1" border="0" alt="" />', "笑"),
    ('<img src="http://x/y.png" border="0" alt="" />', "[img]http://x/y.png[/img]"),
    ("a&nbsp;&nbsp;b &lt;b&gt; &amp;lt; &#x4e2d;", "a  b <b> &lt; 中"),
    ('<i class="pstatus"> 本帖最后由 饺子 于 2026-11-3 20:40 编辑 </i><br />\r\n<br />\r\n正文', "正文"),
    ('<div class="blockcode"><div id="code_x"><ol><li>[b]1[/b]<li>2</ol></div><em onclick="copycode()">复制代码</em></div>', "[code][b]1[/b]\n2[/code]"),
    ("<blockquote>缩进</blockquote>", "[indent]缩进[/indent]"),
    ('<div align="center">中</div>', "[align=center]中[/align]"),
    ('<ul type="1" class="litype_1"><li>一<li>二</ul>', "[list=1][*]一[*]二[/list]"),
    ('<hr class="l" />', "[hr]"),
    ('<div class="showhide"><h4>本帖隐藏的内容</h4>秘密</div>', "[hide]秘密[/hide]"),
    ("<script>alert(1)</script>可见", "可见"),
    ('<img id="aimg_5" aid="5" src="static/image/common/none.gif" zoomfile="data/a.png" />', "[attach]5[/attach]"),
    ("<strong>未闭合", "[b]未闭合"),
    ("多余</font>的结束", "多余的结束"),
    ("**** 该帖被屏蔽 ****", "**** 该帖被屏蔽 ****"),
]


@pytest.mark.parametrize("html, bbcode", CASES)
def test_convert(html, bbcode):
    assert convert(html)[0] == bbcode
    assert convert_slow(html)[0] == bbcode


def test_convert_quote_and_edit():
    body, edited = convert(QUOTE)
    assert body == (
        "[quote][size=2][url=forum.php?mod=redirect&goto=findpost&pid=7&ptid=1][color=#999999]饺子 发表于 2026-11-3 20:15"
        "[/color][/url][/size]\n投票对象：包子[/quote]\n改票对象：馄饨"
    )
    assert edited is None
    assert convert('<i class="pstatus"> 本帖最后由 饺子 于 2026-11-3 20:40 编辑 </i>x')[1] == "本帖最后由 饺子 于 2026-11-3 20:40 编辑"


def test_mobile_quote_without_link():
    page_post = '<div class="quote"><blockquote><p>引用:</p>饺子 发表于 2026-11-3 20:15<br />\r\n投票对象：包子</blockquote></div>改票'
    posts, _ = read_dump_text(
        '{"Variables": {"postlist": [{"pid": "3", "position": "3", "author": "a", "dbdateline": "1793707200", "message": %s}]}}'
        % __import__("json").dumps(page_post),
        "m.json",
        TZ,
    )
    assert posts[0].reply_to == ReplyRef(pid=None, floor=None, author="饺子", time="2026-11-03 20:15")


# The regex path and the tokenizer must agree on what Discuz renders.
TEXT = st.text(alphabet="投票对象：包子饺 ab&;#[]/=", max_size=8).map(
    lambda t: t.replace("&", "&amp;").replace("<", "&lt;")
)


def _fragment(depth: int):
    leaf = st.one_of(
        TEXT,
        st.just("<br />\r\n"),
        st.just('<img src="static/image/smiley/default/smile.gif" smilieid="3" border="0" alt="" />'),
    )
    if depth == 0:
        return leaf
    inner = st.lists(_fragment(depth - 1), max_size=4).map("".join)
    return st.one_of(
        leaf,
        inner.map(lambda s: f"<strong>{s}</strong>"),
        inner.map(lambda s: f"<i>{s}</i>"),
        inner.map(lambda s: f"<u>{s}</u>"),
        st.tuples(st.sampled_from(["color", "size", "face"]), st.sampled_from(["Red", "#999999", "2"]), inner).map(
            lambda t: f'<font {t[0]}="{t[1]}">{t[2]}</font>'
        ),
        inner.map(lambda s: f'<a href="forum.php?mod=redirect&amp;goto=findpost&amp;pid=9&amp;ptid=1" target="_blank">{s}</a>'),
    )


MESSAGE = st.tuples(
    st.booleans(),
    st.booleans(),
    st.lists(_fragment(2), max_size=5).map("".join),
    st.lists(_fragment(2), max_size=3).map("".join),
).map(
    lambda t: ('<i class="pstatus"> 本帖最后由 饺子 于 2026-11-3 20:40 编辑 </i><br />\r\n' if t[0] else "")
    + (f'<div class="quote"><blockquote>{t[3]}</blockquote></div><br />\r\n' if t[1] else "")
    + t[2]
)


@settings(max_examples=examples(300), deadline=None)
@given(MESSAGE)
def test_fast_path_agrees_with_tokenizer(message):
    assert convert(message) == convert_slow(message)
