"""A forum dump with a cut emoji (a lone surrogate, "\\ud83d" in the JSON text)
imports as U+FFFD, as a browser shows it, and the ledger reads back exactly
what the importer produced."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from tests.support.fuzz import examples

from modtool import ledger
from modtool.forum import read_dump, read_dump_text
from modtool.forum.common import make_post, replace_surrogates
from modtool.core.importer import post_event
from modtool.forum.posts import ReplyRef
from tests.support.values import has_surrogate

TZ = ZoneInfo("Asia/Shanghai")
T0 = 1793707200  # 2026-11-03 20:00:00 +08:00
FFFD = "\ufffd"




def dump(*posts) -> str:
    """A Discuz mobile API dump; ensure_ascii writes a lone surrogate as \\udXXX, as PHP does."""
    return json.dumps({"Version": "4", "Charset": "UTF-8", "Variables": {"postlist": list(posts)}}, ensure_ascii=True)


def post(**kw) -> dict:
    base = {"pid": "1", "author": "饺子君", "authorid": "101", "position": "2", "dbdateline": str(T0), "message": "投票对象：包子"}
    base.update(kw)
    return base


def through_ledger(folder: Path, posts, one_line: bool) -> list[dict]:
    """The posts as the importer makes events of them, appended to a fresh
    ledger; returns what loading the ledger gives back."""
    path = folder / "ledger.yaml"
    ledger.write_new(path, "game: t\n", [])
    events = [post_event(p, "vote", 1) for p in posts]
    ledger.append(path, events, one_line=one_line)
    got = [{"type": e.type, **{k: v for k, v in e.data.items() if k != "id"}} for e in ledger.load(path).events]
    assert got == events
    return got


QUOTE = (
    '<div class="quote"><blockquote><font size="2"><a href="forum.php?mod=redirect&amp;goto=findpost&amp;pid=90002'
    '&amp;ptid=8848" target="_blank"><font color="#999999">饺子\ud83d 发表于 2026-11-3 20:15</font></a></font><br />'
    "投票对象：包子\ude00</blockquote></div><br />"
)


@pytest.mark.parametrize("one_line", [True, False])
def test_json_dump_with_cut_emoji(tmp_path, one_line):
    text = dump(
        post(pid="1", position="2", author="包子\ud83d", message="投票对象：饺子\ud83d<br />投票理由：好吃"),
        post(pid="2", position="3", author="馄饨", message=QUOTE + "同意\ud83d\ude00"),  # a whole pair is the emoji
        post(pid="3", position="4", author="\udc00", message="<i class=\"pstatus\"> 本帖最后由 \ud83d 于 2026-11-03 20:40 编辑 </i><br />x"),
    )
    assert "\\ud83d" in text and "\ud83d" not in text  # escaped in the JSON text, as a forum writes it
    src = tmp_path / "dump.json"
    src.write_text(text, encoding="ascii")
    posts, problems = read_dump(src, TZ)
    assert not problems
    assert not has_surrogate(posts)
    assert [p.author for p in posts] == [f"包子{FFFD}", "馄饨", FFFD]
    assert posts[0].body == f"投票对象：饺子{FFFD}\n投票理由：好吃"
    assert posts[1].reply_to == ReplyRef(pid="90002", author=f"饺子{FFFD}", time="2026-11-03 20:15")
    assert f"饺子{FFFD} 发表于" in posts[1].body and f"投票对象：包子{FFFD}" in posts[1].body
    assert posts[1].body.endswith("同意😀")
    assert posts[2].edited == f"本帖最后由 {FFFD} 于 2026-11-03 20:40 编辑"
    back = through_ledger(tmp_path, posts, one_line)
    assert back[0]["body"] == f"投票对象：饺子{FFFD}\n投票理由：好吃"


def test_html_and_text_dumps_cannot_carry_a_surrogate(tmp_path):
    """A file is bytes: a strict UTF-8 decoder refuses an encoded surrogate, and
    an HTML character reference to one is U+FFFD (HTML5), so neither reader ever
    produces a post with one."""
    page = (
        '<html><body><div id="post_5"><table><tr><td class="pls"><div class="authi"><a class="xw1">饺子&#xD83D;</a>'
        '</div></td><td class="plc"><div class="pi"><strong><a id="postnum5"><em>2</em>#</a></strong>'
        '<div class="authi"><em id="authorposton5">发表于 2026-11-3 20:15</em></div></div>'
        '<td class="t_f" id="postmessage_5">投票对象：包子&#55357;&#xDE00;</td></td></tr></table></div></body></html>'
    )
    posts, problems = read_dump_text(page.encode("utf-8"), "page.html", TZ)
    assert not problems
    assert [(p.author, p.body) for p in posts] == [(f"饺子{FFFD}", f"投票对象：包子{FFFD}{FFFD}")]
    through_ledger(tmp_path, posts, one_line=True)
    pasted = "#2 饺子君 2026-11-03 20:15:09\n投票对象：包子\n".encode("utf-8")
    cesu = pasted.replace("包子".encode("utf-8"), b"\xed\xa0\xbd")  # U+D83D encoded as UTF-8 would be
    for raw in (cesu, cesu.replace(b"#2", b"<div id=\"post_2\">", 1)):
        src = tmp_path / "dump.txt"
        src.write_bytes(raw)
        posts, problems = read_dump(src, TZ)
        assert posts == [] and problems and "UTF-8" in str(problems[0])


def test_make_post_cleans_every_text_field():
    ref = ReplyRef(pid="9", floor=None, author="a\ud83d", time="2026-11-03 20:15")
    p = make_post("1\udfff", 2, "b\ud83d", None, "c\ude00d", "e\ud800", ref, "x.json", {"authorid": "1\ud83d"})
    assert (p.pid, p.author, p.body, p.edited) == (f"1{FFFD}", f"b{FFFD}", f"c{FFFD}d", f"e{FFFD}")
    assert p.reply_to == ReplyRef(pid="9", author=f"a{FFFD}", time="2026-11-03 20:15")
    assert p.extra == {"authorid": f"1{FFFD}"}
    clean = make_post("1", 2, "b", None, "饺子😀", None, None, "x.json", {})
    assert clean.body == "饺子😀"


def test_replace_surrogates():
    assert replace_surrogates("a\ud83db\ude00\udfff") == f"a{FFFD}b{FFFD}{FFFD}"
    assert replace_surrogates("\ud83d\ude00") == "😀"  # a pair is not lone
    assert replace_surrogates("饺子😀\ufffd") == "饺子😀\ufffd"
    assert replace_surrogates("x\ud83d") == f"x{FFFD}"


@settings(max_examples=examples(100), derandomize=True, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(st.text(max_size=40), st.text(max_size=6), st.booleans())  # every code point, surrogates included
@example("投票对象：包子\ud83d", "饺子", True)
@example("\ud83d\ude00\ude00\ud83d", "\ud83d", False)
@example("\x00\x85\u2028\ufeff\ufffe\r\n\r", "a\udfff", True)
def test_any_message_imports_and_reads_back(message, author, one_line):
    text = dump(post(message=message, author=author or "x"))
    posts, _ = read_dump_text(text, "dump.json", TZ)
    assert not has_surrogate(posts)
    if not posts:
        return
    with tempfile.TemporaryDirectory() as folder:
        through_ledger(Path(folder), posts, one_line)
