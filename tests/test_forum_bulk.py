"""The bulk paths of a large import agree with the plain ones they stand for.

A 100,000-post dump is read chunk by chunk (``discuz_json._posts_fast``,
``html2bb.convert_many``) and planned in one inlined loop
(``importer._plan_posts``). Each must give exactly what the plain per-post
code gives (``_post``, ``convert``, ``post_event``), or the ledger written by
an import would depend on the size of the dump. Generated inputs keep the
fast paths from drifting.
"""

from __future__ import annotations

import json
from datetime import datetime
from zoneinfo import ZoneInfo

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.support.fuzz import examples

from modtool.forum import discuz_json, post_row, read_dump, read_dump_rows, read_dump_text
from modtool.forum.html2bb import convert, convert_many, convert_slow
from modtool.core.importer import ImportReport, _plan_rows, plan_import, post_event
from modtool.forum.posts import Post, ReplyRef

TZ = ZoneInfo("Asia/Shanghai")
T0 = 1793707200  # 2026-11-03 20:00:00 +08:00

# --- messages -----------------------------------------------------------------

WORD = st.text(alphabet="投票对象：包子饺 ab&;#[]/=<>\"'\r\n\t\xa0\u3000\x00\ud83d", max_size=8).map(
    lambda t: t.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
)
RAW = st.text(alphabet="投票 a&;#[]/=\r\n\t\xa0\x00", max_size=6)  # text as no forum escapes it
ENTITY = st.sampled_from(["&amp;", "&lt;", "&gt;", "&quot;", "&#39;", "&nbsp;", "&hellip;", "&#13;", "&#10;", "&amp;lt;", "&bogus;", "&"])
BR = st.sampled_from(["<br />\r\n", "<br />\n", "<br />", "<br>", "<br />\r", "\r\n", "\r"])
SMILEY = '<img src="static/image/smiley/default/smile.gif" smilieid="1" border="0" alt="" />'
CODE = st.sampled_from(["[b]", "[/b]", "[/i]", "[quote]", "[/quote]"])  # BBCode typed as text
LEAF = st.one_of(WORD, WORD, RAW, ENTITY, BR, BR, CODE, st.just(SMILEY))
HREF = st.sampled_from([
    "forum.php?mod=redirect&amp;goto=findpost&amp;pid=9&amp;ptid=1", "http://example.com/a b", "x&nbsp;y", "a\rb", "&#13;",
])
X3_QUOTE = st.builds(
    lambda who, href, inner: (
        f'<div class="quote"><blockquote><font size="2"><a href="{href}" target="_blank">'
        f'<font color="#999999">{who} 发表于 2026-11-3 20:15</font></a></font><br />\r\n'
        f"{inner}</blockquote></div><br />\r\n"
    ),
    st.sampled_from(["饺子君", "包子", "a&amp;b", " ", "a&nbsp;b"]),
    HREF,
    st.lists(st.one_of(WORD, ENTITY, BR), max_size=4).map("".join),
)


def _nested(depth: int):
    """Markup as Discuz renders it: every element closed, in order."""
    if depth == 0:
        return LEAF
    inner = st.lists(_nested(depth - 1), max_size=4).map("".join)
    return st.one_of(
        LEAF,
        inner.map(lambda s: f"<strong>{s}</strong>"),
        inner.map(lambda s: f"<i>{s}</i>"),
        inner.map(lambda s: f"<u>{s}</u>"),
        inner.map(lambda s: f"<strike>{s}</strike>"),
        st.tuples(st.sampled_from(["color", "size", "face"]), st.sampled_from(["Red", "#999999", "2", "a&nbsp;b"]), inner).map(
            lambda t: f'<font {t[0]}="{t[1]}">{t[2]}</font>'
        ),
        st.tuples(HREF, inner).map(lambda t: f'<a href="{t[0]}" target="_blank">{t[1]}</a>'),
    )


EDIT = '<i class="pstatus"> 本帖最后由 饺子 于 2026-11-3 20:40 编辑 </i><br />\r\n'
WELL_FORMED = st.one_of(
    st.lists(st.one_of(WORD, ENTITY, BR), max_size=8).map("".join),  # the commonest shape: lines and entities
    st.tuples(st.sampled_from(["", EDIT]), st.sampled_from(["", " ", "\r\n"]), st.one_of(st.just(""), X3_QUOTE),
              st.lists(_nested(2), max_size=5).map("".join)).map("".join),
    st.sampled_from(["", " ", "\x00", "投票对象：包子<br />\r\n投票理由：包子好吃", "潜水党冒个泡 &lt;_&lt;"]),
)
# Anything at all, closed or not.
TAG = st.sampled_from(["<strong>", "</strong>", "<i>", "</i>", '<font color="Red">', "</font>", "</a>", "</div>", "<!-- c -->",
                       '<div class="quote"><blockquote>', "</blockquote></div>", '<div align="center">', EDIT])
MESSAGE = st.one_of(WELL_FORMED, st.lists(st.one_of(LEAF, TAG, X3_QUOTE), max_size=10).map("".join))


@settings(max_examples=examples(500), deadline=None)
@given(WELL_FORMED)
def test_regex_paths_agree_with_the_tokenizer(message):
    """What Discuz can render: ``convert`` (its fast paths) is the tokenizer."""
    assert convert(message) == convert_slow(message)


@settings(max_examples=examples(400), deadline=None)
@given(st.lists(st.tuples(MESSAGE, st.booleans()), max_size=12))
def test_convert_many_is_convert_one_by_one(items):
    messages = [m for m, _ in items]
    lead = {i for i, (_, keep) in enumerate(items) if keep}  # the rest of a post after its quote
    bodies, edited = convert_many(messages, lead)
    assert list(zip(bodies, edited)) == [convert(m, i in lead) for i, m in enumerate(messages)]


@settings(max_examples=examples(200), deadline=None)
@given(st.lists(WELL_FORMED, max_size=12))
def test_convert_many_is_the_tokenizer(messages):
    bodies, edited = convert_many(messages)
    assert list(zip(bodies, edited)) == [convert_slow(m) for m in messages]


# --- posts of a JSON dump -----------------------------------------------------

TEXT_ID = st.one_of(st.integers(1, 10**9).map(str), st.sampled_from(["", "0", "１２", "12a", " 7", "٣", "x"]))
FIELD = {
    "pid": st.one_of(TEXT_ID, st.integers(1, 99), st.none()),
    "tid": st.one_of(TEXT_ID, st.integers(1, 99), st.none()),
    "author": st.one_of(st.sampled_from(["饺子君", "包子君", "", " ", "饺\ud83d"]), st.integers(0, 9), st.none()),
    "authorid": st.one_of(st.sampled_from(["101", "0", ""]), st.integers(0, 9), st.none()),
    "position": st.one_of(st.integers(1, 500).map(str), st.sampled_from(["", "x", " 3 ", "7#"]), st.integers(1, 9), st.none()),
    "number": st.one_of(st.integers(1, 500).map(str), st.none()),
    "dbdateline": st.one_of(st.integers(0, 2 * T0).map(str), st.sampled_from(["", "x", "1e9", str(10**20)]), st.integers(0, T0), st.none()),
    "dateline": st.sampled_from(["2026-11-3 20:15", "3&nbsp;分钟前", ""]),
    "message": st.one_of(MESSAGE, MESSAGE, st.none(), st.integers(0, 9)),
}
GOOD = {
    "pid": st.integers(1, 10**9).map(str),
    "tid": st.one_of(st.just("4242"), st.none()),
    "author": st.sampled_from(["饺子君", "包子君", "馄饨君", "饺\ud83d"]),
    "authorid": st.sampled_from(["101", "102", "0"]),
    "position": st.integers(1, 100000).map(str),
    "dbdateline": st.integers(T0 - 10**8, T0 + 10**8).map(str),
    "message": MESSAGE,
}


def _item(draw, good: bool) -> dict:
    keys = GOOD if good else FIELD
    item = {}
    for key, strategy in keys.items():
        if good or draw(st.integers(0, 9)):  # now and then a key is missing
            value = draw(strategy)
            if value is not None or not good:
                item[key] = value
    if not good and draw(st.integers(0, 30)) == 0:
        return draw(st.sampled_from([[], "帖子", 7, None]))
    return item


@st.composite
def chunks(draw):
    good = draw(st.booleans())
    return [_item(draw, good or draw(st.integers(0, 5)) > 0) for _ in range(draw(st.integers(1, 8)))]


def _facts(post: Post) -> tuple:
    return (post.pid, post.floor, post.author, post.time, post.time.utcoffset(), post.body, post.edited, post.reply_to,
            post.source, post.extra)


@settings(max_examples=examples(400), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(chunks())
def test_chunk_fast_path_is_post_by_post(chunk):
    fast = discuz_json._posts_fast(chunk, "dump.json", TZ)
    rows = discuz_json._rows_fast(chunk, TZ)
    problems: list = []
    slow = [discuz_json._post(item, k, "dump.json", TZ, problems) for k, item in enumerate(chunk, 1)]
    if fast is not None:  # else the chunk goes post by post: nothing to compare
        assert problems == [] and None not in slow
        assert [_facts(p) for p in fast] == [_facts(p) for p in slow]
    if rows is not None:
        assert problems == [] and None not in slow
        assert [_when(r) for r in rows] == [post_row(p) for p in slow]


def test_chunk_fast_path_takes_the_common_posts():
    chunk = [{"pid": str(5000000 + i), "tid": "4242", "author": "饺子君", "authorid": "101", "position": str(i),
              "dbdateline": str(T0 + i), "message": "投票对象：包子<br />\r\n投票理由：包子好吃"} for i in range(1, 4)]
    posts = discuz_json._posts_fast(chunk, "dump.json", TZ)
    assert posts is not None and [p.body for p in posts] == ["投票对象：包子\n投票理由：包子好吃"] * 3
    rows = discuz_json._rows_fast(chunk, TZ)
    assert rows is not None and [_when(r) for r in rows] == list(map(post_row, posts))
    assert rows[0][3] == "2026-11-03 20:00:01"


def test_a_large_dump_reads_the_same_as_post_by_post(monkeypatch):
    """Whole dumps, across chunk borders, with an unusual post in one chunk."""
    items = [{"pid": str(100 + i), "author": "饺子君", "authorid": "101", "position": str(i), "dbdateline": str(T0 + 60 * i),
              "message": ["投票对象：包子<br />\r\n投票理由：&lt;好吃&gt;", "<strong>改票</strong>：馄饨", "+1&nbsp;"][i % 3]}
             for i in range(1, 40)]
    items[17]["pid"] = "x17"  # a problem in the third chunk
    text = json.dumps({"Variables": {"postlist": items}})
    monkeypatch.setattr(discuz_json, "PROGRESS_EVERY", 7)
    calls = []
    fast_posts, fast_problems = read_dump_text(text, "d.json", TZ, progress=lambda d, t: calls.append((d, t)))
    monkeypatch.setattr(discuz_json, "_posts_fast", lambda chunk, source, tz: None)
    slow_posts, slow_problems = read_dump_text(text, "d.json", TZ)
    assert [_facts(p) for p in fast_posts] == [_facts(p) for p in slow_posts]
    assert fast_problems == slow_problems and len(fast_problems) == 1
    assert calls == [(7, 39), (14, 39), (21, 39), (28, 39), (35, 39), (39, 39)]


# --- events -------------------------------------------------------------------

POST = st.builds(
    Post,
    pid=st.one_of(st.just(""), st.integers(1, 10**9).map(str)),
    floor=st.integers(1, 10**6),
    author=st.sampled_from(["饺子君", "包子君", "路人甲"]),
    time=st.datetimes(min_value=datetime(1, 1, 2), max_value=datetime(9999, 12, 30), timezones=st.just(TZ)),
    body=st.text(max_size=6),
    edited=st.one_of(st.none(), st.just(""), st.text(min_size=1, max_size=6)),
    reply_to=st.one_of(st.none(), st.builds(ReplyRef, pid=st.one_of(st.none(), st.just("9")), floor=st.one_of(st.none(), st.integers(1, 9)),
                                            author=st.one_of(st.none(), st.just("包子君")), time=st.one_of(st.none(), st.just("2026-11-03 20:15")))),
)


class _Roster:
    def by_account(self, account):
        return object() if account != "路人甲" else None


class _Game:
    tz = TZ
    roster = _Roster()

    class game:  # the pack asked about accounts beyond the roster (none for m42)
        id = "m42"

    def of_type(self, kind):
        return []


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(POST, max_size=10), st.sampled_from(["vote", "discussion"]), st.integers(1, 9))
def test_planned_events_are_post_event(posts, thread, day):
    events: list[dict] = []
    report = ImportReport()
    _plan_rows(_Game(), list(map(post_row, posts)), "d.json", thread, day, {}, events, report)
    expected, seen, unknown = [], set(), {}
    for p in posts:
        key = ("pid", p.pid) if p.pid else (thread, day, p.floor)
        if key in seen:
            continue
        seen.add(key)
        expected.append(post_event(p, thread, day))
        if p.author == "路人甲":
            unknown.setdefault(p.author, []).append(p.floor)
    assert events == expected
    assert [list(e) for e in events] == [list(e) for e in expected]  # key order: the ledger text
    assert report.unknown_accounts == unknown


def test_plan_import_reads_each_file(monkeypatch, tmp_path):
    import modtool.core.importer  # read_dump_rows as plan_import calls it

    p = Post("7", 2, "路人甲", datetime(2026, 11, 3, 20, 15, 9, tzinfo=TZ), "投票对象：包子")
    changed = Post("7", 2, "路人甲", p.time, "投票对象：馄饨")
    rows = {"a.json": [post_row(p)], "b.json": [post_row(p)], "c.json": [("7", 2, "路人甲", "2026-11-03 20:15:09", changed.body, None, None, T0)]}
    monkeypatch.setattr(modtool.core.importer, "read_dump_rows", lambda path, tz, progress=None, formats=None, brought=(): (rows[path.name], []))
    events, report = plan_import(_Game(), [tmp_path / "a.json", tmp_path / "b.json", tmp_path / "c.json"], "vote", 2)
    assert events == [post_event(p, "vote", 2)]
    assert events[0]["time"] == "2026-11-03 20:15:09"
    assert (report.added, report.skipped, report.unknown_accounts) == (1, 2, {"路人甲": [2]})
    assert [(c.floor, c.author, c.body, c.time) for c in report.twice] == [(2, "路人甲", changed.body, datetime.fromtimestamp(T0, TZ))]  # twice in one import: the first copy stands (not a new version)


ZONES = ["Asia/Shanghai", "America/New_York", "Australia/Lord_Howe", "Europe/Dublin", "Africa/Monrovia", "UTC"]


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(ZONES), st.lists(st.one_of(
    st.integers(-2_500_000_000, 4_000_000_000),  # before 1901 (zone offsets in seconds) to 2096
    st.integers(1_710_050_000, 1_710_060_000),  # a spring-forward night in New York
    st.integers(1_730_610_000, 1_730_620_000),  # a fall-back night
), min_size=1, max_size=12))
def test_rows_are_posts_as_rows(zone, times):
    """``read_dump_rows`` formats times a minute at a time: the same as each post's own."""
    tz = ZoneInfo(zone)
    items = [{"pid": str(100 + i), "author": "饺子君", "authorid": "101", "position": str(i), "dbdateline": str(t),
              "message": "投票对象：包子<br />\r\n投票理由：&lt;好吃&gt;"} for i, t in enumerate(times, 1)]
    text = json.dumps({"Variables": {"postlist": items}})
    posts, problems = read_dump_text(text, "d.json", tz)
    rows, row_problems = _rows_of(text, tz)
    assert [r[:7] for r in rows] == [post_row(p)[:7] for p in posts]
    assert [r[7] == p.time if isinstance(r[7], datetime) else datetime.fromtimestamp(r[7], tz) == p.time
            for r, p in zip(rows, posts)] == [True] * len(posts)
    assert row_problems == problems


def _rows_of(text: str, tz):
    from modtool.forum import _read_box

    return _read_box([text], "d.json", tz, None, True)


def test_rows_of_every_format_and_problem(tmp_path):
    """Files of each kind, with problems (a repeated floor, a bad post)."""
    items = [{"pid": "1", "author": "饺子君", "authorid": "1", "position": "2", "dbdateline": str(T0), "message": "a"},
             {"pid": "2", "author": "包子君", "authorid": "2", "position": "2", "dbdateline": str(T0 + 61), "message": "b"},
             {"pid": "3", "author": "包子君", "position": "x", "message": "c"}]
    dumps = {"a.json": json.dumps({"Variables": {"postlist": items}}), "b.txt": "2楼 饺子君 2026-11-3 20:15\n投票对象：包子\n",
             "missing.json": None}
    for name, text in dumps.items():
        path = tmp_path / name
        if text is not None:
            path.write_text(text, encoding="utf-8")
        posts, problems = read_dump(path, TZ)
        rows, row_problems = read_dump_rows(path, TZ)
        assert [_when(r) for r in rows] == [post_row(p) for p in posts]
        assert row_problems == problems
    assert read_dump_rows(tmp_path / "a.json", TZ)[1] and read_dump_rows(tmp_path / "missing.json", TZ)[1]


def _when(row: tuple) -> tuple:
    """A row with its time as a datetime, as ``post_row`` gives it."""
    when = row[7]
    return row[:7] + (datetime.fromtimestamp(when, TZ) if isinstance(when, int) else when,)
