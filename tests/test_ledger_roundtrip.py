"""dump_event -> fast reader == ruamel (C and pure) == the input, for any event.

Any event: any code point in any string, surrogates included. A lone
surrogate cannot be stored in YAML (or UTF-8), so dump_event and
dump_event_line refuse it with ``Unstorable`` naming the field; every other
value reads back identically.
"""

from __future__ import annotations

import string

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from tests.support.fuzz import examples
from ruamel.yaml import YAML

from modtool.ledger._dump import CORE_WORDS, KEY_RE, Unstorable, dump_event, dump_event_line, event_json
from modtool.ledger._fast import GiveUp, Reader
from modtool.ledger._slow import read_full
from modtool.ledger._store import _parse, _parse_fast
from tests.support.values import has_surrogate

PIECES = [
    "", " ", "  ", "\n", "\n\n", "\t", ":", ": ", " #", "#", "- ", "-", "? ", "'", '"', "\\", "|", ">",
    "[", "]", "{", "}", ",", "&a", "*a", "!x", "%", "@", "`", "~", "<<", "=", "...", "---",
    "007", "1e3", "1_000", "0x1F", "0o17", "+1", "-1", ".5", ".inf", ".nan", "2026-11-02",
    "2026-11-02 10:03:00", "12:30", "true", "False", "NULL", "null", "yes", "no", "on", "y", "n",
    "饺子", "投票对象：包子", "【重要】", "　", "ａｂｃ", "１２３", "😀", "👨‍👩‍👧", "\u200b", "\u00a0",
    "\x00", "\x01", "\x07", "\x1b", "\x7f", "\x85", "\x9f", "\u2028", "\u2029", "\ufeff", "\ufffe",
    "\r", "\r\n", "[b]粗体[/b]", "> 引用", "# 标题", "a: b", "a #b", "key: value", "%YAML", "\\n", "\\u4e00",
]

texts = st.one_of(
    st.lists(st.one_of(st.sampled_from(PIECES), st.text(max_size=4)), max_size=8).map("".join),
    st.text(max_size=30),  # every code point: surrogates, NUL, C0/C1, U+2028/9, U+FEFF, U+FFFE/F
    st.sampled_from(PIECES),
)
keys = st.one_of(
    st.sampled_from(["day", "pid", "floor", "author", "body", "reply_to", "quotes", "aliases", "note", "x-y", "名字"]),
    st.text(alphabet=string.ascii_lowercase + "_", min_size=1, max_size=6),
)
scalars = st.one_of(
    texts, st.integers(), st.integers(min_value=-10, max_value=10), st.booleans(), st.none(),
)
simple_dicts = st.dictionaries(keys, scalars, max_size=4)
values = st.one_of(
    scalars,
    st.lists(texts, max_size=4),
    st.lists(scalars, max_size=3),
    simple_dicts,
    st.dictionaries(keys, st.one_of(scalars, st.lists(texts, max_size=3), simple_dicts), max_size=3),
    st.lists(simple_dicts, max_size=3),
    st.lists(st.lists(texts, max_size=2), max_size=2),
)
events = st.builds(
    lambda t, rest: {"type": t, **{k: v for k, v in rest.items() if k != "type"}},
    st.one_of(st.sampled_from(["post", "close", "proxy"]), texts),
    st.dictionaries(keys, values, max_size=6),
)


def ruamel_load(text: str, pure: bool):
    return YAML(typ="safe", pure=pure).load(text)


def as_plain(v):
    if isinstance(v, dict):
        return {k: as_plain(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [as_plain(x) for x in v]
    return v


def plain_keys(v) -> bool:
    """Only keys that dump_event writes bare (what the fast reader reads)."""
    if isinstance(v, dict):
        return all(KEY_RE.fullmatch(k) and k not in CORE_WORDS and plain_keys(x) for k, x in v.items())
    if isinstance(v, (list, tuple)):
        return all(plain_keys(x) for x in v)
    return True




def storable(evs: list[dict]) -> list[dict]:
    """The events without a lone surrogate; each one with one is refused by both dumps."""
    keep = []
    for e in evs:
        if has_surrogate(e):
            for dump in (dump_event, dump_event_line, event_json):
                with pytest.raises(Unstorable, match=r"^字段 .+ 含有无法保存的字符 U\+D[89A-F][0-9A-F]{2}（孤立的代理码位）$"):
                    dump(e)
        else:
            keep.append(e)
    return keep


def check(evs: list[dict]) -> None:
    evs = storable(evs)
    if not evs:
        return
    text = "game: t\nevents:\n" + "".join(dump_event(e) for e in evs)
    want = as_plain(evs)
    fast_ok = all(plain_keys(e) for e in evs)
    if fast_ok:  # the fast reader never gives up on our own output
        fast = [v for _, v in Reader(text.split("\n")).events(2)]
        assert fast == want
    _, items, _, _ = read_full(text, "t")
    assert [v for _, v in items] == want
    assert ruamel_load(text, pure=False)["events"] == want
    assert ruamel_load(text, pure=True)["events"] == want
    parsed = _parse(text.encode("utf-8"), "t")
    assert parsed.fast == fast_ok
    assert [v for _, v in parsed.items] == want
    # lines agree too
    assert [line for line, _ in parsed.items] == [line for line, _ in items]


@settings(max_examples=examples(400), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(events, min_size=1, max_size=4))
@example([{"type": "post", "body": "投票对象：包子\n投票理由：包子好吃", "pid": "1001", "floor": 2}])
@example([{"type": "x", "a": "a\n  ", "b": "a\n\tb", "c": " a\nb", "d": "a\n\n", "e": "\n", "f": "a\n"}])
@example([{"type": "x", "a": "\x85", "b": "\u2028x\ny", "c": "x\r\ny", "d": "\ufeff", "e": "\x00\n"}])
@example([{"type": "x", "n": {"m": {"k": [1, "2", None]}}, "l": [[], {}, [[]], [{}]]}])
def test_dump_then_read_is_identity(evs):
    check(evs)


@pytest.mark.parametrize(
    "value",
    ["007", "1e3", "true", "2026-11-02", "", None, 0, -5, True, False, "null", "~", "yes", "- a", "a: b",
     "a #b", "#", "  lead", "trail  ", "多行\n文字", "多行\n文字\n", "[b]x[/b]", "饺子", "12号", "-1号", "😀",
     "tab\there", "\u3000全角空格\u3000", ["饺饺", "x, y", "[z]"], {"pid": "1000", "floor": 1}],
)
def test_tricky_values(value):
    check([{"type": "post", "v": value}])


def test_example_layout():
    text = dump_event({
        "type": "post", "thread": "vote", "day": 1, "pid": "1001", "floor": 2, "author": "饺子君",
        "time": "2026-11-02 10:03:00", "body": "投票对象：包子\n投票理由：包子好吃",
        "reply_to": {"pid": "1000", "floor": 1},
    })
    assert text == (
        "  - type: post\n"
        "    thread: vote\n"
        "    day: 1\n"
        '    pid: "1001"\n'
        "    floor: 2\n"
        "    author: 饺子君\n"
        '    time: "2026-11-02 10:03:00"\n'
        "    body: |-\n"
        "      投票对象：包子\n"
        "      投票理由：包子好吃\n"
        '    reply_to: {pid: "1000", floor: 1}\n'
    )


def test_nested_block_layout():
    text = dump_event({"type": "note", "quotes": [{"pid": "9", "text": "a\nb"}], "aliases": ["x"] * 40})
    assert text.startswith("  - type: note\n    quotes:\n      - pid: \"9\"\n        text: |-\n          a\n          b\n")
    check([{"type": "note", "quotes": [{"pid": "9", "text": "a\nb"}], "aliases": ["x"] * 40}])


def test_keys_that_need_quotes_fall_back_to_ruamel():
    evs = [{"type": "x", "a b": 1, "1": "one", "true": 2}]
    text = "events:\n" + dump_event(evs[0])
    with pytest.raises(GiveUp):
        Reader(text.split("\n")).events(1)
    parsed = _parse(text.encode(), "t")
    assert not parsed.fast
    assert [v for _, v in parsed.items] == evs


def test_floats_fall_back_to_ruamel():
    evs = [{"type": "x", "f": 1.5, "g": 1e20, "h": float("inf")}]
    parsed = _parse(("events:\n" + dump_event(evs[0])).encode(), "t")
    assert not parsed.fast
    assert [v for _, v in parsed.items] == evs


def check_lines(evs: list[dict], block_first: bool) -> None:
    """One-line JSON events (bulk import), mixed with block ones: every reader agrees."""
    evs = storable(evs)
    if not evs:
        return
    parts = [dump_event(evs[0])] if block_first else []
    parts += [dump_event_line(e) for e in (evs[1:] if block_first else evs)]
    text = "game: t\nevents:\n" + "".join(parts)
    want = as_plain(evs)
    assert ruamel_load(text, pure=False)["events"] == want
    assert ruamel_load(text, pure=True)["events"] == want
    parsed = _parse(text.encode("utf-8"), "t")
    assert [v for _, v in parsed.items] == want
    _, items, _, _ = read_full(text, "t")
    assert [line for line, _ in parsed.items] == [line for line, _ in items]
    if not block_first or plain_keys(evs[0]):
        assert parsed.fast  # our own one-line output never sends the file to the slow path


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(events, min_size=1, max_size=4), st.booleans())
@example([{"type": "post", "body": "a\x85b\u2028c\ufeff\x7f", "q": '"x": 1'}], False)
@example([{"type": "post", "k": {"a": '":', "b": ["\":\"", {}]}}], False)
def test_one_line_events_read_back_alike(evs, block_first):
    check_lines(evs, block_first)


@pytest.mark.parametrize(
    "line, fast",
    [
        ('  - {"type": "post", "day": 1}', True),
        ('  - {"type": "post", "type": "close"}', False),  # duplicate key: ruamel decides (and refuses)
        ('  - {"type": "post", "x": 1.5}', False),  # floats: ruamel decides
        ('  - {"type": "post"}  # 导演的注释', False),
        ('  - {"type": "post", "t": "\\ud83d\\ude00"}', False),
    ],
)
def test_hand_edited_json_lines(line, fast):
    text = "game: t\nevents:\n" + line + "\n"
    try:
        parsed = _parse(text.encode("utf-8"), "t")
    except Exception:  # ruamel refuses a duplicate key: that is a UserError for the director
        assert not fast
        return
    assert parsed.fast == fast
    assert [v for _, v in parsed.items] == ruamel_load(text, pure=False)["events"]


# -- any text, any code point: read back identically, or refused before writing --

EVIL = ["\ud83d", "\ude00", "\ud83d\ude00", "a\udfffb", "\x00", "\x01\x1f", "\x7f\x80\x85\x9f", "\u2028\u2029",
        "\ufeff", "\ufffe\uffff", "\r", "\r\n", "a\rb\nc", "\x85", "x\n\x85", "\t", "\n\t", "a\n\n", "\n",
        "\U0010ffff", "\U000effff", "'", '"', "\\", "\\ud83d", "#", " # x", "- ", "|-", ": ", "\u3000", "饺子\n投票"]


def placed(value: str, where: str) -> dict:
    if where == "value":
        return {"type": "post", "body": value}
    if where == "nested":
        return {"type": "post", "reply_to": {"author": value, "floor": 1}, "quotes": [{"text": value}]}
    if where == "list":
        return {"type": "post", "aliases": [value, "x"]}
    if where == "type":
        return {"type": value}
    return {"type": "post", value: 1}  # a key


def read_back(text: str) -> list:
    """The items of ``text`` by every reader there is; all must agree."""
    _, items, _, _ = read_full(text, "t")
    got = [v for _, v in items]
    assert ruamel_load(text, pure=True)["events"] == got
    for raw in (text.encode("utf-8"), text.replace("\n", "\r\n").encode("utf-8")):
        assert [v for _, v in _parse(raw, "t").items] == got
    try:  # the fast reader, with and without its whole-file check (the append probe skips it)
        fast = [v for _, v in _parse_fast(text).items]
    except GiveUp:
        pass
    else:
        assert fast == got
    try:
        bare = [v for _, v in Reader(text.split("\n")).events(2)]
    except GiveUp:
        pass
    else:
        assert bare == got
    return got


@settings(max_examples=examples(300), derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.one_of(st.text(), st.lists(st.sampled_from(EVIL), max_size=4).map("".join),
              st.lists(st.one_of(st.sampled_from(EVIL), st.characters()), max_size=6).map("".join)),
    st.sampled_from(["value", "nested", "list", "type", "key"]),
    st.booleans(),
)
@example("\ud83d", "value", False)
@example("\ud83d", "value", True)
@example("a\udc00", "nested", False)
@example("\udfff", "key", True)
@example("\r\n\x85\u2028\u2029\ufeff\ufffe\uffff\x00\x9f", "value", False)
@example("\r\n\x85\u2028\u2029\ufeff\ufffe\uffff\x00\x9f", "value", True)
@example("多行\r\n文字\r", "nested", False)
def test_any_text_reads_back_or_is_refused(value, where, one_line):
    event = placed(value, where)
    dump = dump_event_line if one_line else dump_event
    if has_surrogate(value):
        with pytest.raises(Unstorable) as info:
            dump(event)
        field = {"value": "body", "nested": "reply_to.author", "list": "aliases[0]", "type": "type"}.get(where)
        c = next(c for c in value if "\ud800" <= c <= "\udfff")
        if field is not None:
            assert str(info.value) == f"字段 {field} 含有无法保存的字符 U+{ord(c):04X}（孤立的代理码位）"
        assert isinstance(info.value, ValueError)
        str(info.value).encode("utf-8")  # printable: the message itself holds no surrogate
        return
    assert read_back("game: t\nevents:\n" + dump(event)) == [event]


def test_unstorable_names_the_field():
    with pytest.raises(Unstorable) as info:
        dump_event({"type": "post", "floor": 3, "body": "表情被截断了\ud83d"})
    assert str(info.value) == "字段 body 含有无法保存的字符 U+D83D（孤立的代理码位）"
    assert info.value.field == "body"
    with pytest.raises(Unstorable, match="^字段 quotes\\[1\\]\\.text 含有无法保存的字符 U\\+DE00"):
        dump_event_line({"type": "post", "quotes": [{"text": "ok"}, {"text": "\ude00"}]})
    with pytest.raises(Unstorable, match=r"^字段 a\\ud800b 含有"):
        event_json({"type": "post", "a\ud800b": 1})


def test_json_unsafe_bytes_match_the_characters_code_point_by_code_point():
    """event_lines looks for characters to escape in the UTF-8 bytes of the
    whole JSON array: the bytes patterns match exactly the characters'
    pattern, C0 controls apart, which JSON text never holds raw."""
    import orjson

    from modtool.ledger._dump import _JSON_UNSAFE_RE, json_bytes_unsafe

    for cp in range(0x110000):
        ch = chr(cp)
        if cp < 0x20:
            assert max(orjson.dumps(ch)) >= 0x20
            continue
        raw = ch.encode("utf-8", "surrogatepass")
        assert json_bytes_unsafe(b"a" + raw + b"b") == bool(_JSON_UNSAFE_RE.search(ch)), hex(cp)


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(events, min_size=1, max_size=6))
@example([{"type": "post", "q": [{"a": "b"}, {"type": "x"}]}, {"type": "post"}])
@example([{"type": "post", "body": '},{"type":"x"}'}, {"type": "post"}])
@example([{"type": "post", "n": 2**70}])
def test_bulk_lines_equal_the_lines_made_one_by_one(evs):
    """The one-call encoding of an import (``event_lines``) gives the very
    bytes of ``dump_event_line`` event by event, or steps aside."""
    from modtool.ledger._append import _json_plain
    from modtool.ledger._dump import event_lines

    evs = [e for e in evs if _json_plain(e)]
    if not evs:
        return
    got = event_lines(evs, "  - ")
    try:
        want = "".join(dump_event_line(e) for e in evs).encode("utf-8")
    except Unstorable:
        assert got is None
        return
    if got is not None:
        import json

        assert got[0] == want
        assert json.loads(got[1]) == evs


def test_bulk_lines_apply_to_an_import_and_to_maps_in_lists():
    """The quick way is taken for imported posts, quoted or not (it can fail)."""
    from modtool.ledger._dump import event_lines

    posts = [{"type": "post", "pid": str(i), "floor": i, "author": "饺子君", "body": "投票对象：包子\n}，{\"x\"",
              "reply_to": None, "quotes": [{"pid": "1", "text": "a"}] if i == 1 else []} for i in range(1, 4)]
    got = event_lines(posts, "  - ")
    assert got is not None
    assert got[0] == "".join(dump_event_line(e) for e in posts).encode("utf-8")
