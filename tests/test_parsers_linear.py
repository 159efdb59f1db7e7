"""Every parser is linear in its input (a quality bar of the project): the measures are in
tests/bench/bench_hostile_posts.py (ratios, never a timed assertion here).
These tests check what makes them linear without changing what they read:

* a stray end tag costs one look-up, however many tags are open (it walked
  the whole stack: thousands of them took minutes);
* ``modtool.forum.htmlscan`` (in place of CPython's html.parser, quadratic on
  runs of "</", "<!--", "<a ") gives the readers the events html.parser gives
  on forum markup;
* the patterns rewritten not to backtrack read every line as the patterns
  they replace (kept here as the reference), with one change named below.
"""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.support.fuzz import examples

from modtool.base import times
from modtool.forum import common, plaintext
from modtool.forum.entities import unescape_entities
from modtool.forum.html2bb import BBWriter, _STYLE_DECL
from modtool.forum.htmlscan import HTMLScanner
from modtool.packs.mafia import forum as phpbb_forum
from modtool.packs.mafia.phpbb import _ToBBCode, html_to_bbcode

REAL = Path(__file__).resolve().parent.parent.parent / "shared" / "real" / "mafiascum"
FIXTURES = Path(__file__).parent / "fixtures"
SETTINGS = settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])


class _Counting(list):
    """A stack that counts how often an entry is looked at by index."""

    looked = 0

    def __getitem__(self, i):
        _Counting.looked += 1
        return super().__getitem__(i)


# --- stray end tags -------------------------------------------------------------------

def test_a_stray_end_tag_never_walks_the_open_tags_of_a_discuz_body():
    writer = BBWriter()
    writer.stack = _Counting()
    _Counting.looked = 0
    for _ in range(2000):
        writer.start("span", {})
        writer.data("x")
    for _ in range(2000):
        writer.end("b")  # stray: no <b> is open
    writer.end("span")
    assert _Counting.looked < 10
    assert writer.finish() == ("x" * 2000, None)


def test_a_stray_end_tag_never_walks_the_open_tags_of_a_phpbb_body():
    parser = _ToBBCode()
    parser.stack = _Counting()
    _Counting.looked = 0
    parser.feed("<b>v</b>" + "<span>x" * 2000 + "</i>" * 2000 + "</span>" * 2000)
    assert parser.result() == "[b]v[/b]" + "x" * 2000
    assert _Counting.looked < 10


def test_an_end_tag_still_closes_what_was_left_open_inside_it():
    assert html_to_bbcode("<blockquote><div><cite>A wrote:</cite><b>x</blockquote>y") == '[quote="A"][b]x[/b][/quote]y'
    writer = BBWriter()
    for tag in ("strong", "i", "u"):
        writer.start(tag, {})
    writer.data("x")
    writer.end("strong")
    writer.data("y")
    assert writer.finish() == ("[b][i][u]x[/u][/i][/b]y", None)


# --- the tokenizer ----------------------------------------------------------------------

def _events(base, text: str, convert_charrefs: bool) -> list:
    """What a reader built on ``base`` is told, consecutive text joined."""
    out: list = []

    class Recorder(base):
        def handle_starttag(self, tag, attrs):
            out.append(("start", tag, [(k, v) for k, v in attrs], self.get_starttag_text(), self.getpos()[0]))

        def handle_startendtag(self, tag, attrs):
            out.append(("startend", tag, [(k, v) for k, v in attrs], self.get_starttag_text()))

        def handle_endtag(self, tag):
            out.append(("end", tag))

        def handle_data(self, data):
            if out and out[-1][0] == "data":
                out[-1] = ("data", out[-1][1] + data)
            else:
                out.append(("data", data))

        def handle_entityref(self, name):
            out.append(("entity", name))

        def handle_charref(self, name):
            out.append(("charref", name))

    parser = Recorder(convert_charrefs=convert_charrefs)
    parser.feed(text)
    parser.close()
    return out


_WORDS = ["Vote: Bob", "a < b", "x>y", "and", " ", "\n", "&amp;", "&lt;", "&#91;", "&#x5d;", "&raquo;", "&nbsp;",
          "投票对象：包子", "it's", '"quoted"', "1 & 2"]
_OPEN = ["<b>", "<i>", "<u>", "<strong>", "<div>", "<span>", "<blockquote>", "<cite>", "<p>", "<li>", "<td>",
         '<span class="noboldsig">', '<span class="bbvote" title="This is an official vote.">',
         '<span style="color: purple">', "<blockquote class='uncited'>", '<div class="quote">',
         '<a href="./viewtopic.php?p=1&amp;t=2#p1" class="postlink">', '<div id="p100" class="post bg2">',
         '<td class="t_f" id="postmessage_1">', '<font color="Red" size=3>', "<DIV CLASS=content>"]
_CLOSE = ["</b>", "</i>", "</u>", "</strong>", "</div>", "</span>", "</blockquote>", "</cite>", "</p>", "</a>",
          "</font>", "</td>", "</DIV>"]
_VOID = ["<br>", "<br/>", "<br />", '<img src="./images/smilies/icon_e_smile.gif" alt=":)" />', "<hr>"]
_OTHER = ["<!-- a comment -->", "<!DOCTYPE html>", "<script>if (a < b && c > d) { x = '<div id=\"post_1\">'; }</script>",
          "<style>.a > .b { color: red }</style>"]
forum_markup = st.lists(st.sampled_from(_WORDS + _OPEN + _CLOSE + _VOID + _OTHER), max_size=40).map("".join)


@SETTINGS
@given(forum_markup, st.booleans())
def test_the_scanner_tells_a_reader_what_html_parser_tells_it(text, convert_charrefs):
    assert _events(HTMLScanner, text, convert_charrefs) == _events(HTMLParser, text, convert_charrefs)


def test_the_scanner_reads_the_real_posts_of_game_1145_and_the_fixtures_as_html_parser_does():
    texts = [p.read_text(encoding="utf-8") for p in FIXTURES.rglob("*.html")]
    if REAL.is_dir():
        import json

        for path in sorted(REAL.glob("*.jsonl")):
            texts += [json.loads(line)["content"] for line in path.read_text(encoding="utf-8").splitlines()]
    assert len(texts) >= 2  # the fixtures alone (a clone without ../shared/real)
    for text in texts:
        for convert in (True, False):
            assert _events(HTMLScanner, text, convert) == _events(HTMLParser, text, convert)


def test_entities_are_decoded_as_html_unescape_decodes_them():
    for text in ["&amp;&lt;&#91;&#x5d;&raquo;&nbsp;", "&ampx &notin; &not in &#0; &#xD800; &#1114112; & &#", "a&amp;b"]:
        assert unescape_entities(text) == html.unescape(text)


# --- patterns that no longer backtrack: the same results as the patterns they replace ---------

_OLD_TIME = (
    r"([0-9０-９]{4})\s*[-/.年－／．]\s*([0-9０-９]{1,2})\s*[-/.月－／．]\s*([0-9０-９]{1,2})\s*日?"
    r"(?:\s+|\s*[T ]\s*)([0-9０-９]{1,2})\s*[:：]\s*([0-9０-９]{2})(?:\s*[:：]\s*([0-9０-９]{2}))?"
)
_D = "[0-9０-９]"
OLD = {
    "TIME_FULL": (re.compile(r"\s*" + _OLD_TIME + r"\s*\Z"), times._TIME_FULL),
    "QUOTE_HEAD": (re.compile(r"^\s*(?:引用\s*[:：]?\s*)?(.+?)\s*发表于\s*" + _OLD_TIME), common._QUOTE_HEAD),
    "QUOTE_HEAD7": (re.compile(r"^\s*(?:引用\s*[:：]?\s*)?原帖由\s*(.+?)\s*于\s*" + _OLD_TIME + r"\s*发表"), common._QUOTE_HEAD7),
    "X3_HEAD": (re.compile(r"\s*\[size=[^\]\n]*\]\[url=([^\]\n]*)\]\[color=[^\]\n]*\]([^\[\n]+?)\s*发表于\s*" + _OLD_TIME
                           + r"\s*\[/color\]"), common._X3_HEAD),
    "HEAD_TEXT": (re.compile(r"\s*([^\[\n]+?)\s*发表于\s*" + _OLD_TIME + r"\s*\Z"), common._HEAD_TEXT),
    "HEADER": (re.compile(rf"{plaintext._FLOOR}{plaintext._SEP}(?P<name>.+?){plaintext._SEP}(?:发表于\s*)?{_OLD_TIME}\s*\Z"),
               plaintext._HEADER),
    "HEADER_LOOSE": (re.compile(rf"(?:[#＃]\s*{_D}+|{_D}+\s*(?:楼|[#＃]))\s*\S.*{_D}{{1,2}}\s*[:：]\s*{_D}{{2}}"),
                     plaintext._HEADER_LOOSE),
    "REPLY": (re.compile(rf"回复\s*(?:[#＃]\s*(?P<r1>{_D}+)|(?P<r2>{_D}+)\s*(?:楼|[#＃]))\s*[@＠]?(?P<name>.*?)\s*\Z"),
              plaintext._REPLY),
    "EDITED": (re.compile(r"本帖最后由\s*.+?\s*于\s*" + _OLD_TIME + r"\s*编辑\Z"), plaintext._EDITED),
    "PASTED_QUOTE_HEAD": (re.compile(rf"(?P<name>\S.*?)\s+发表于\s*{_OLD_TIME}\s*\Z"), plaintext._QUOTE_HEAD),
}
# The groups that hold a name, which the callers strip (a name no longer takes the spaces before 发表于).
_NAMES = {"QUOTE_HEAD": 0, "QUOTE_HEAD7": 0, "X3_HEAD": 1, "HEAD_TEXT": 0}

_SPACE = st.sampled_from(["", " ", "  ", "\t", "\u3000", " | ", "｜"])
_TIME = st.tuples(st.sampled_from(["2026", "２０２６", "26"]), st.sampled_from(["", " "]), st.sampled_from(["-", "/", "年", "."]),
                  st.sampled_from(["11", "1", "１"]), st.sampled_from(["-", "月", "/"]), st.sampled_from(["3", "03", "31"]),
                  st.sampled_from(["", "日", " 日", "日 "]), st.sampled_from([" ", "  ", "T", " T ", "", "\t", "日"]),
                  st.sampled_from(["20", "9", "２０"]), st.sampled_from([":", "：", " : "]), st.sampled_from(["15", "5", "１５"]),
                  st.sampled_from(["", ":09", " : 09", ":9"])).map("".join)
_PIECE = st.sampled_from(["#12", "12楼", "12#", "＃１２", "楼主", "回复", "#8", "@", "本帖最后由", "于", "于谦", "编辑", "引用:",
                          "原帖由", "发表", "发表于", "张三", "a b", "x", "[size=2][url=forum.php?pid=9][color=#999999]",
                          "[/color]", "[", "]", "1", "20:15", "123:45"])
line = st.lists(st.one_of(_PIECE, _SPACE, _TIME), min_size=1, max_size=9).map("".join)


def _groups(key: str, m):
    if m is None:
        return None
    groups = list(m.groups())
    if key in _NAMES:
        groups[_NAMES[key]] = groups[_NAMES[key]].strip()
    return m.start(), groups


@SETTINGS
@given(line)
def test_the_rewritten_line_patterns_match_as_the_old_ones(text):
    for key, (old, new) in OLD.items():
        o, n = _groups(key, old.match(text)), _groups(key, new.match(text))
        if key == "HEADER" and o is not None and n is None:
            assert o[1][3].strip(" |｜\t\u3000") == "", text  # the one change: see the test below
            continue
        assert o == n, (key, text)


def test_a_pasted_header_whose_account_is_only_white_space_is_no_longer_a_header():
    assert OLD["HEADER"][0].match("#12   2026-11-02 20:15") and not plaintext._HEADER.match("#12   2026-11-02 20:15")
    posts, problems = plaintext.read_text("#12 饺子君 2026-11-02 20:15\nx\n#13   2026-11-02 20:16\ny\n", "d.txt", None)
    assert [p.floor for p in posts] == [12] and "像楼层标题但无法识别" in problems[0].message


_OLD_REPLY_MARK = re.compile(
    r"\[b\]\s*回复\s*\[url=([^\]]*)\]\s*([0-9０-９]+)\s*[#＃楼]\s*\[/url\]\s*(?:\[i\](.*?)\[/i\])?\s*\[/b\]", re.S)
_MARK = st.lists(st.sampled_from(["[b]", "回复", " ", "\n", "[url=", "forum.php?pid=12&ptid=3", "]", "12", "１２", "#", "楼",
                                  "[/url]", "[i]", "张三", "[/i]", "[/b]", "x", "[", "[b]回复 [url=x?pid=1]3#[/url] ",
                                  "[i]a[/i] [/b]", "[quote]q[/quote]"]), max_size=24).map("".join)


@SETTINGS
@given(_MARK)
def test_the_reply_marker_is_found_as_the_single_pattern_found_it(text):
    m = _OLD_REPLY_MARK.search(text)
    assert common._reply_mark(text) == ((m.start(), m.group(1), m.group(2), m.group(3)) if m else None)


_OLD_EDIT_LINE = re.compile(r"(?:^|\n)[ \t]*(Last edited by .+? on .+?[,;] edited \d+ times? in total\.?"
                            r"(?:[ \t]*\n?[ \t]*(?:\[b\])?Reason:(?:\[/b\])?[^\n]*)?)[ \t]*$", re.I)


def _old_edit_line(body: str):
    m = _OLD_EDIT_LINE.search(body)
    if m is None:
        return body, None
    return body[:m.start()].rstrip(), " ".join(m.group(1).replace("[b]", "").replace("[/b]", "").split())


_NOTICE = st.lists(st.sampled_from(["Last edited by ", "last EDITED by ", "Pine", "a on b", " on ", " On ", "Mon May 02, 2011",
                                    ",", ";", " edited ", "1", "12", " time", " times", " in total", ".", " ", "\t", "\n",
                                    "[b]", "[/b]", "Reason:", " Reason: typo", "\n[b]Reason:[/b] x", "body\n", "x"]),
                   max_size=20).map("".join)


@SETTINGS
@given(_NOTICE)
def test_phpbbs_edit_line_is_read_as_the_single_pattern_read_it(text):
    assert phpbb_forum.edit_line(text) == _old_edit_line(text)


def test_phpbbs_edit_line_with_its_reason_still_comes_off_the_body():
    body = "my vote\nLast edited by Pine on Mon May 02, 2011 10:00 am, edited 2 times in total.\n[b]Reason:[/b] typo"
    assert phpbb_forum.edit_line(body) == ("my vote", "Last edited by Pine on Mon May 02, 2011 10:00 am, edited 2 times in total. Reason: typo")


@SETTINGS
@given(st.lists(st.sampled_from(["[quote]", "[/quote]", "a", "\n", "[quote"]), max_size=12).map("".join))
def test_a_pasted_bodys_quotes_are_removed_as_before(text):
    assert plaintext._without_quotes(text) == re.sub(r"\[quote\].*?\[/quote\]", "", text, flags=re.S)


@SETTINGS
@given(st.lists(st.sampled_from(["color", ":", " ", "red", ";", "-", "font-size", "1", "x"]), max_size=12).map("".join))
def test_style_declarations_are_read_as_before(text):
    old = re.compile(r"([a-zA-Z-]+)\s*:\s*([^;]+)")
    assert [m.groups() for m in _STYLE_DECL.finditer(text)] == [m.groups() for m in old.finditer(text)]


@SETTINGS
@given(st.lists(st.sampled_from(["<div", " ", "id=", '"p12"', "'p1'", '"x"', "class=", '"post bg2"', '"postbody"', "'post'",
                                 ">", "post", "\n", "p1", "ID="]), max_size=14).map("".join))
def test_a_prosilver_page_is_told_apart_as_before_when_its_tags_hold_no_lt(text):
    old = re.compile(r"""<div[^>]+id=["']p\d+["'][^>]*class=["'][^"']*\bpost\b|class=["']postbody["']""", re.I)
    assert bool(phpbb_forum._PROSILVER.search(text)) == bool(old.search(text))


@pytest.mark.parametrize("text", ["{\"Version\": \"4\", \"Variables\": {\"postlist\": [{\"message\": "
                                  "\"<div id=\\\"p1\\\" class=\\\"post\\\">x</div>\"}]}}"])
def test_a_discuz_dump_quoting_prosilver_markup_is_not_taken_for_a_phpbb_page(text):
    assert phpbb_forum.detect(text) is None
