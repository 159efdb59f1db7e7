"""Reading ledgers: the example, hand edits, the fallback, and every error with its line."""

from __future__ import annotations

import datetime
import textwrap
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from tests.support.fuzz import examples
from ruamel.yaml import YAML

from modtool.ledger import load
from modtool.ledger._store import _parse, digest_of
from modtool.base.problems import UserError

EXAMPLE = """\
# 导演的备注
game: m42
seed: 20261102
options:
  close_time: "21:00"
roster:
  - name: 饺子
    account: 饺子君
    aliases: [饺饺]
    role: werewolf
events:
  - type: close
    day: 1
    at: "2026-11-02 21:00"
  - type: post   # a director's comment
    thread: vote
    day: 1
    pid: "1001"
    floor: 2
    author: 饺子君
    time: "2026-11-02 10:03:00"
    body: |-
      投票对象：包子
      投票理由：包子好吃
    reply_to: {pid: "1000", floor: 1}
"""


def write(tmp_path: Path, text: str | bytes) -> Path:
    p = tmp_path / "ledger.yaml"
    p.write_bytes(text.encode("utf-8") if isinstance(text, str) else text)
    return p


def ruamel_events(text: str):
    return YAML(typ="safe", pure=True).load(text)["events"] or []


def problems(tmp_path: Path, text: str | bytes) -> list[str]:
    with pytest.raises(UserError) as info:
        load(write(tmp_path, text))
    return [str(p) for p in info.value.problems]


def test_example(tmp_path):
    data = load(write(tmp_path, EXAMPLE))
    assert data.header == {
        "game": "m42",
        "seed": 20261102,
        "options": {"close_time": "21:00"},
        "roster": [{"name": "饺子", "account": "饺子君", "aliases": ["饺饺"], "role": "werewolf"}],
    }
    assert [(e.type, e.line) for e in data.events] == [("close", 12), ("post", 15)]
    post = data.events[1]
    assert post.data == {
        "thread": "vote", "day": 1, "pid": "1001", "floor": 2, "author": "饺子君",
        "time": "2026-11-02 10:03:00", "body": "投票对象：包子\n投票理由：包子好吃",
        "reply_to": {"pid": "1000", "floor": 1},
    }
    assert data.digest.endswith(digest_of(EXAMPLE.encode()))
    assert _parse(EXAMPLE.encode(), "t").fast


HAND_EDITED = [
    # indentless sequence, odd spacing after the dash, comments everywhere, blank lines
    """\
    game: m42   # 游戏
    events:   # 事件
    # 第一天
    -   type: close
        day: 1

        # 注释
        at: '2026-11-02 21:00'   # 单引号
    - type: post
      body: |
        第一行

          缩进的第二行
        # 不是注释
      tags: [a, "b c", 'd''e', 12, null, true]
      nested:
        k: v
        list:
          - 1
          - x: y
            z: [1, 2]
        empty:
      after: 3
    # 结尾的注释
    """,
    # plain strings with inner spaces, colons without space, '#' without space
    """\
    events:
      - type: 说明
        note: 这是 一段 话:没有空格#也不是注释
        url: http://example.com/a?b=c#d
        num: -12
        zero: 0
        t: ~
    """,
]


@pytest.mark.parametrize("text", HAND_EDITED)
def test_hand_edited_fast_and_same_as_ruamel(tmp_path, text):
    text = textwrap.dedent(text)
    parsed = _parse(text.encode(), "t")
    assert parsed.fast
    events = load(write(tmp_path, text)).events
    assert [{"type": e.type, **e.data} for e in events] == ruamel_events(text)


def test_crlf_and_bom(tmp_path):
    raw = ("\ufeff" + EXAMPLE).replace("\n", "\r\n").encode("utf-8")
    assert _parse(raw, "t").fast
    data = load(write(tmp_path, raw))
    assert data.events[1].data["body"] == "投票对象：包子\n投票理由：包子好吃"
    assert data.events[1].line == 15


def test_fallback_gives_same_data_and_lines(tmp_path):
    text = EXAMPLE + "  - type: note\n    when: 2026-11-02\n    ref: &r {a: 1}\n    again: *r\n    f: 1.5\n"
    assert not _parse(text.encode(), "t").fast
    data = load(write(tmp_path, text))
    assert [e.line for e in data.events] == [12, 15, 26]
    assert data.events[2].data == {"when": datetime.date(2026, 11, 2), "ref": {"a": 1}, "again": {"a": 1}, "f": 1.5}


def test_empty_events(tmp_path):
    assert load(write(tmp_path, "game: m42\nevents: []\n")).events == []
    assert load(write(tmp_path, "game: m42\nevents:\n# 还没有事件\n")).events == []


def test_missing_file(tmp_path):
    with pytest.raises(UserError) as info:
        load(tmp_path / "ledger.yaml")
    assert "找不到账本" in str(info.value)


def test_not_utf8(tmp_path):
    msgs = problems(tmp_path, "game: m42\nevents:\n  - type: post\n    body: 饺子\n".encode("gbk"))
    assert msgs == [f"{tmp_path / 'ledger.yaml'}:4: 账本不是 UTF-8 编码；请在编辑器里用 UTF-8 另存（第一处无法解码的字节在这一行）"]


def test_broken_yaml_has_line_and_chinese(tmp_path):
    text = EXAMPLE + '  - type: post\n    body: "没有闭合\n    floor: [1, 2\n'
    (msg,) = problems(tmp_path, text)
    assert msg.startswith(f"{tmp_path / 'ledger.yaml'}:")
    assert "YAML 格式错误" in msg
    assert "Traceback" not in msg


def test_colon_in_plain_value(tmp_path):
    (msg,) = problems(tmp_path, "game: m42\nevents:\n  - type: post\n    body: 投票: 包子\n")
    assert msg.startswith(f"{tmp_path / 'ledger.yaml'}:4: YAML 格式错误：这里不能出现「冒号+空格」；含有「: 」的文字请加引号（")


def test_tab_indent(tmp_path):
    (msg,) = problems(tmp_path, "game: m42\nevents:\n  - type: post\n\tday: 1\n")
    assert ":4: " in msg and "Tab" in msg


def test_duplicate_key(tmp_path):
    (msg,) = problems(tmp_path, "game: m42\nevents:\n  - type: post\n    day: 1\n    day: 2\n")
    assert ":5: " in msg and "重复的键" in msg


def test_header_not_mapping(tmp_path):
    (msg,) = problems(tmp_path, "- a\n- b\n")
    assert msg.endswith(":1: 账本开头应是映射（game: …、roster: … 这样的「键: 值」）")


def test_events_missing(tmp_path):
    (msg,) = problems(tmp_path, "game: m42\nseed: 1\n")
    assert "缺少 events:" in msg and ":3: " in msg


def test_events_not_last(tmp_path):
    (msg,) = problems(tmp_path, "game: m42\nevents:\n  - type: close\n    day: 1\nseed: 1\n")
    assert msg.endswith(":5: events: 必须是账本的最后一项；请把它后面的内容移到它前面")


def test_events_not_a_list(tmp_path):
    (msg,) = problems(tmp_path, "game: m42\nevents: 3\n")
    assert ":2: " in msg and "events: 应是事件列表" in msg


def test_all_event_problems_at_once(tmp_path):
    text = (
        "game: m42\n"
        "events:\n"
        "  - type: close\n"     # 3 fine
        "    day: 1\n"
        "  - day: 2\n"          # 5 no type
        "  - just text\n"       # 6 not a mapping
        "  - type: 12\n"        # 7 type not text
        "  - type: post\n"      # 8 fine
        "  - {day: 3}\n"        # 9 no type
    )
    msgs = problems(tmp_path, text)
    src = tmp_path / "ledger.yaml"
    assert msgs == [
        f"{src}:5: 事件缺少 type 字段",
        f"{src}:6: 事件应是映射（type: … 等字段），现在是「just text」",
        f"{src}:7: 事件的 type 应为文字，现在是「12」",
        f"{src}:9: 事件缺少 type 字段",
    ]


def test_document_end_marker_after_events(tmp_path):
    (msg,) = problems(tmp_path, "game: m42\nevents:\n  - type: close\n...\n")
    assert ":4: " in msg


def test_document_end_marker_before_events(tmp_path):
    (msg,) = problems(tmp_path, "game: m42\n...\nevents:\n  - type: close\n")
    assert "YAML 格式错误" in msg


def test_control_character(tmp_path):
    (msg,) = problems(tmp_path, "game: m42\nevents:\n  - type: post\n    body: a\x01b\n")
    assert ":4: " in msg and "控制字符" in msg


# -- fuzz: any damage to a ledger gives a UserError, never a traceback ----------

# Derandomized: the same 300 damages every run (a random fuzz that fails one
# run in ten is no test); tests/test_ledger_differential.py explores wider.
@settings(max_examples=examples(300), derandomize=True, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    st.lists(
        st.tuples(st.integers(0, len(EXAMPLE)), st.integers(0, 6),
                  st.sampled_from(["", " ", "\n", ":", "- ", "#", '"', "'", "|", "[", "{", "\t", "饺", "&", "*", "!"])),
        min_size=1, max_size=4,
    )
)
# A tab after the indentation of the |- block's first line: libyaml refuses it,
# the fast reader used to read it as text.
@example([(EXAMPLE.index("投票对象"), 0, "\t")])
@example([(EXAMPLE.index("投票理由"), 0, "\t")])  # a later line: text, to both
@example([(0, 0, " ")])  # an indented header
@example([(0, 0, "{")])
def test_fuzz_damaged_ledger(tmp_path, edits):
    text = EXAMPLE
    for pos, cut, ins in edits:
        text = text[:pos] + ins + text[pos + cut:]
    p = write(tmp_path, text)
    try:
        data = load(p)
    except UserError as exc:
        assert exc.problems and all(pr.source == str(p) for pr in exc.problems)
        return
    # when it loads, both readers agree with ruamel
    try:
        want = YAML(typ="safe", pure=False).load(text)
    except Exception:  # noqa: BLE001 - ruamel raised, so we must have too
        pytest.fail("load() accepted what ruamel rejects")
    assert [{"type": e.type, **e.data} for e in data.events] == (want.get("events") or [])
    assert data.header == {k: v for k, v in want.items() if k != "events"}
