"""dump_event -> fast reader == ruamel (C and pure) == the input, for any event."""

from __future__ import annotations

import string

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from ruamel.yaml import YAML

from modtool.ledger import dump_event
from modtool.ledger._dump import CORE_WORDS, KEY_RE
from modtool.ledger._fast import GiveUp, Reader
from modtool.ledger._slow import read_full
from modtool.ledger._store import _parse

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
    st.text(alphabet=st.characters(exclude_categories=("Cs",)), max_size=30),
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


def check(evs: list[dict]) -> None:
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


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
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
    from modtool.ledger import dump_event_line

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


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
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
