"""Fuzzing: no input makes an importer raise; it always answers (posts, problems)."""

from __future__ import annotations

import json
from zoneinfo import ZoneInfo

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.support.fuzz import examples

from modtool.forum import read_dump, read_dump_text
from modtool.forum.discuz_html import read_page
from modtool.forum.discuz_json import read_json
from modtool.forum.html2bb import convert, convert_slow
from modtool.forum.plaintext import read_text
from modtool.forum.posts import Post
from modtool.base.problems import Problem

TZ = ZoneInfo("Asia/Shanghai")
FUZZ = settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])

# Odd Unicode that players paste: full-width digits and signs, zero-width
# characters, emoji, homoglyphs, lone surrogates, controls.
ODD = "０１２３４５６７８９＃＞｜：－\u200b\u200c\u200d\ufeff\u00a0\u3000🥟😋👍\u0417\u041e\ud800\x00\x1b\r\n\t"
PIECES = st.sampled_from(
    [
        "#", "＃", "12", "１２", "楼", "楼主", "沙发", " ", "\n", "> ", "回复 #", "发表于 ", "2026-11-03 20:15",
        "2026-1-3 9:05:01", "2026-13-45 25:61", "本帖最后由 饺子 于 2026-11-03 20:40 编辑", "投票对象：饺子",
        "[quote]", "[/quote]", "<br />", "<div class=\"quote\"><blockquote>", "</blockquote></div>", "&nbsp;", "&",
        "<", ">", "饺子君", "|", "---", "只看该作者", "4#",
    ]
)
TEXTISH = st.one_of(
    st.text(),
    st.text(alphabet=ODD + "#楼饺子 -:<>/&;[]", max_size=200),
    st.lists(st.one_of(PIECES, st.text(alphabet=ODD, max_size=3)), max_size=40).map("".join),
)


def check(result):
    posts, problems = result
    assert isinstance(posts, list) and isinstance(problems, list)
    assert all(isinstance(p, Post) for p in posts)
    assert all(isinstance(p, Problem) and p.message for p in problems)
    assert not any("内部错误" in p.message for p in problems), problems
    assert [p.floor for p in posts] == sorted(p.floor for p in posts)
    for p in posts:
        assert p.time.tzinfo is not None and isinstance(p.body, str) and isinstance(p.author, str)
    return posts, problems


@FUZZ
@given(TEXTISH)
def test_read_dump_text_any_text(text):
    check(read_dump_text(text, "fuzz", TZ))


@FUZZ
@given(st.binary(max_size=300))
def test_read_dump_text_any_bytes(data):
    check(read_dump_text(data, "fuzz", TZ))


@FUZZ
@given(st.binary(max_size=200))
def test_read_dump_any_file(tmp_path_factory, data):
    path = tmp_path_factory.mktemp("fuzz") / "dump.bin"
    path.write_bytes(data)
    posts, problems = check(read_dump(path, TZ))
    assert all(p.source == str(path) for p in posts + problems)


@FUZZ
@given(TEXTISH)
def test_each_reader_on_any_text(text):
    check(read_json(text, "fuzz", TZ))
    check(read_page(text, "fuzz", TZ))
    check(read_text(text, "fuzz", TZ))


@FUZZ
@given(TEXTISH)
def test_convert_any_text(text):
    for fn in (convert, convert_slow):
        body, edited = fn(text)
        assert isinstance(body, str) and (edited is None or isinstance(edited, str))


SCALAR = st.one_of(st.none(), st.booleans(), st.integers(-(10**20), 10**20), st.floats(), TEXTISH)
JSON_VALUE = st.recursive(SCALAR, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3), max_leaves=8)
KEYS = ["pid", "tid", "first", "author", "authorid", "dateline", "dbdateline", "message", "number", "position", "anonymous"]
POST = st.dictionaries(st.sampled_from(KEYS), st.one_of(SCALAR, JSON_VALUE, st.integers(0, 4_000_000_000).map(str)), max_size=len(KEYS))
ENVELOPE = st.one_of(
    st.fixed_dictionaries({"Variables": st.fixed_dictionaries({"postlist": st.lists(POST, max_size=6)})}),
    st.fixed_dictionaries(
        {"Variables": st.dictionaries(st.sampled_from(["postlist", "thread"]), JSON_VALUE), "Message": JSON_VALUE}
    ),
    JSON_VALUE,
)


@FUZZ
@given(ENVELOPE)
def test_json_structures(value):
    text = json.dumps(value, ensure_ascii=False)
    check(read_json(text, "fuzz.json", TZ))
    check(read_dump_text(text, "fuzz.json", TZ))


TAG = st.sampled_from(
    [
        '<div id="post_1">', '<div id="post_2">', '<table id="pid3">', "</div>", "</table>", "<td>", "</td>",
        '<div class="authi">', '<a class="xw1" href="#">', "</a>", '<a id="postnum1">', '<a id="postnum2">', "<em>",
        "</em>", '<em id="authorposton1">', '<em id="authorposton2">', '<span title="2026-11-3 20:15:01">',
        '<td class="t_f" id="postmessage_1">', '<td class="t_f" id="postmessage_2">', '<div class="locked">',
        '<div class="quote"><blockquote>', "</blockquote>", '<i class="pstatus">', "</i>", '<div class="blockcode">',
        "<li>", "<ol>", '<font color="red">', "</font>", "<br />", "<script>", "</script>", "<!--", "-->",
        "发表于 2026-11-3 20:15", "楼主", "2", "饺子", "&nbsp;", "&#", "<", "<img src=x>",
    ]
)


@FUZZ
@given(st.lists(st.one_of(TAG, st.text(alphabet=ODD, max_size=4)), max_size=60).map("".join))
def test_html_structures(page):
    check(read_page(page, "fuzz.html", TZ))
    check(read_dump_text("<html>" + page, "fuzz.html", TZ))
    for fn in (convert, convert_slow):
        fn(page)


@FUZZ
@given(st.lists(st.one_of(PIECES, st.text(alphabet=ODD, max_size=3)), max_size=60).map("".join))
def test_text_structures(text):
    check(read_text(text, "fuzz.txt", TZ))


def test_pathological_inputs_are_fast_enough():
    # unclosed tags and quotes must not make the tokenizer quadratic
    for text in ("<a " + '"' * 20000, "<b" * 20000, "<!--" + "x" * 20000, "[quote]" * 5000, "#1 " * 5000):
        check(read_dump_text(text, "big", TZ))
        convert_slow(text)
