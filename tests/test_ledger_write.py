"""Appending and creating ledgers: byte-exact, atomic, guarded, locked."""

from __future__ import annotations

import multiprocessing
import os
from pathlib import Path

import pytest

from modtool import ledger
from modtool.ledger import append, dump_event, load, locked, write_new
from modtool.base.problems import UserError

HAND = (
    "# 导演的备注：别动这个文件的格式\n"
    "game:   m42    # 奇怪的空格\n"
    "seed: 20261102\n"
    "roster:\n"
    "- name: 饺子\n"
    "  aliases: [ 饺饺 ,  饺 ]\n"
    "events:\n"
    "  - type: close   # 行尾注释\n"
    "    day: 1\n"
    "    at: '2026-11-02 21:00'\n"
    "\n"
    "  # 第二天的注释\n"
)

# With its id, as append would give it (modtool.base.events): the byte checks below hold it as written.
POST = {"type": "post", "id": 1, "thread": "vote", "day": 2, "pid": "1002", "floor": 3, "author": "包子",
        "time": "2026-11-03 10:00:00", "body": "投票对象：饺子\n# 不是注释\n投票理由：饿了"}


def make(tmp_path: Path, text: str | bytes) -> Path:
    p = tmp_path / "ledger.yaml"
    p.write_bytes(text.encode() if isinstance(text, str) else text)
    return p


def as_dicts(path: Path) -> list[dict]:
    return [{"type": e.type, **e.data} for e in load(path).events]


def test_append_keeps_every_byte(tmp_path):
    p = make(tmp_path, HAND)
    append(p, [POST])
    raw = p.read_bytes()
    assert raw.startswith(HAND.encode())
    assert raw[len(HAND.encode()):] == dump_event(POST).encode()
    assert as_dicts(p)[1] == POST
    assert load(p).events[1].line == 13


def test_append_adds_missing_newline(tmp_path):
    p = make(tmp_path, HAND.rstrip("\n"))
    append(p, [POST])
    assert p.read_text().startswith(HAND.rstrip("\n") + "\n  - type: post\n")
    assert as_dicts(p)[-1] == POST


def test_append_to_empty_flow_rewrites_only_that_line(tmp_path):
    p = make(tmp_path, "game: m42\nevents: []   # 还没有\n# 尾注\n")
    append(p, [POST, {"type": "close", "day": 2}])
    assert p.read_text().startswith("game: m42\nevents:   # 还没有\n# 尾注\n  - type: post\n")
    assert as_dicts(p) == [POST, {"type": "close", "id": 2, "day": 2}]


def test_append_to_null_events(tmp_path):
    p = make(tmp_path, "game: m42\nevents:\n")
    append(p, [POST])
    assert as_dicts(p) == [POST]


def test_append_follows_indentless_items(tmp_path):
    text = "game: m42\nevents:\n- type: close\n  day: 1\n"
    p = make(tmp_path, text)
    append(p, [POST])
    assert p.read_text() == text + dump_event(POST, indent=0)
    assert as_dicts(p)[1] == POST


def test_append_keeps_crlf_and_bom(tmp_path):
    raw = ("\ufeff" + HAND).replace("\n", "\r\n").encode()
    p = make(tmp_path, raw)
    append(p, [POST])
    new = p.read_bytes()
    assert new.startswith(raw)
    assert b"\n" not in new.replace(b"\r\n", b"")
    assert as_dicts(p)[1] == POST


def test_append_after_fallback_ledger(tmp_path):
    # the fast reader gives up (timestamp, anchor); append still works via ruamel
    text = HAND + "  - type: note\n    when: 2026-11-02\n"
    p = make(tmp_path, text)
    append(p, [POST])
    assert p.read_bytes().startswith(text.encode())
    assert as_dicts(p)[-1] == POST


def test_expect_digest(tmp_path):
    p = make(tmp_path, HAND)
    data = load(p)
    append(p, [POST], expect_digest=data.digest)
    with pytest.raises(UserError) as info:
        append(p, [POST], expect_digest=data.digest)
    assert str(info.value).endswith("账本在本命令读取之后被改动过（可能是编辑器保存了），这次什么也没写；请重新运行命令")
    assert len(load(p).events) == 2


def test_append_refuses_broken_ledger(tmp_path):
    text = HAND + "seed: 3\n"
    p = make(tmp_path, text)
    with pytest.raises(UserError) as info:
        append(p, [POST])
    assert "最后一项" in str(info.value)
    assert p.read_text() == text


def test_append_refuses_flow_events(tmp_path):
    p = make(tmp_path, "game: m42\nevents: [{type: close, day: 1}]\n")
    with pytest.raises(UserError):
        append(p, [POST])


def test_append_rejects_bad_event(tmp_path):
    p = make(tmp_path, HAND)
    with pytest.raises(ValueError):
        append(p, [{"day": 1}])
    with pytest.raises(TypeError):
        append(p, [{"type": "x", "obj": object()}])
    assert p.read_text() == HAND


def test_crash_mid_rewrite_of_events_line_leaves_old_file(tmp_path, monkeypatch):
    # `events: []` is the one append that rewrites the file (atomically)
    text = "game: m42\nevents: []\n"
    p = make(tmp_path, text)

    def boom(src, dst):
        raise KeyboardInterrupt  # Ctrl-C right before the rename

    monkeypatch.setattr(os, "replace", boom)
    with pytest.raises(KeyboardInterrupt):
        append(p, [POST])
    monkeypatch.undo()
    assert p.read_text() == text
    assert sorted(x.name for x in tmp_path.iterdir() if x.name != ".modtool") == [".ledger.lock", "ledger.yaml"]


def test_crash_while_writing_temp(tmp_path, monkeypatch):
    p = make(tmp_path, HAND)
    real_fsync = os.fsync
    calls = []

    def bad_fsync(fd):
        calls.append(fd)
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", bad_fsync)
    with pytest.raises(UserError, match="什么也没写"):  # a disk full is the director's to fix, told as such
        append(p, [POST])
    monkeypatch.setattr(os, "fsync", real_fsync)
    assert calls
    assert p.read_text() == HAND  # nothing written, as the refusal says
    load(p)
    assert p.read_text() == HAND
    assert sorted(x.name for x in tmp_path.iterdir() if x.name != ".modtool") == [".ledger.lock", "ledger.yaml"]
    assert not [x for x in (tmp_path / ".modtool").iterdir() if x.suffix in (".tmp", ".intent")]


def _appender(path: str, who: int, n: int) -> None:
    for k in range(n):
        ev = {"type": "post", "author": f"玩家{who}", "floor": k, "body": f"第 {k} 条\n来自 {who}\n" * 20}
        ledger.append(Path(path), [ev, {"type": "close", "day": k, "note": f"{who}-{k}"}])


def test_concurrent_appends_do_not_interleave(tmp_path):
    p = make(tmp_path, "game: m42\nevents: []\n")
    ctx = multiprocessing.get_context("fork")
    procs = [ctx.Process(target=_appender, args=(str(p), who, 15)) for who in range(3)]
    for pr in procs:
        pr.start()
    for pr in procs:
        pr.join(60)
        assert pr.exitcode == 0
    events = as_dicts(p)
    assert len(events) == 3 * 15 * 2
    for a, b in zip(events[::2], events[1::2]):  # each pair arrived whole and together
        assert a["type"] == "post" and b["type"] == "close"
        assert b["note"] == f"{a['author'][2:]}-{a['floor']}"
    for who in range(3):
        assert [e["floor"] for e in events[::2] if e["author"] == f"玩家{who}"] == list(range(15))


def _hold_lock(path: str, ready, release) -> None:
    with locked(Path(path)):
        ready.set()
        release.wait(30)


def test_second_process_gets_clear_error(tmp_path):
    p = make(tmp_path, HAND)
    ctx = multiprocessing.get_context("fork")
    ready, release = ctx.Event(), ctx.Event()
    holder = ctx.Process(target=_hold_lock, args=(str(p), ready, release))
    holder.start()
    try:
        assert ready.wait(30)
        with pytest.raises(UserError) as info:
            with locked(p, timeout=0.3):
                pass
        assert "另一个 modtool 命令" in str(info.value) and "这个账本" in str(info.value)
        assert str(info.value).startswith(str(tmp_path / ".ledger.lock"))
    finally:
        release.set()
        holder.join(30)
    with locked(p, timeout=5):  # free again
        pass


def test_lock_is_reentrant(tmp_path):
    p = make(tmp_path, HAND)
    with locked(p):
        append(p, [POST])  # append takes the lock again inside
    assert len(load(p).events) == 2


def test_write_new(tmp_path):
    p = tmp_path / "g" / "ledger.yaml"
    write_new(p, "# 新游戏\ngame: m42\nseed: 7\n", [])
    assert p.read_text() == "# 新游戏\ngame: m42\nseed: 7\nevents:\n"
    data = load(p)
    assert data.header == {"game": "m42", "seed": 7} and data.events == []
    append(p, [POST])
    assert p.read_text() == "# 新游戏\ngame: m42\nseed: 7\nevents:\n" + dump_event(POST)
    with pytest.raises(UserError) as info:
        write_new(p, "game: m42\n", [])
    assert "已存在" in str(info.value)


def test_write_new_with_events(tmp_path):
    p = tmp_path / "ledger.yaml"
    write_new(p, "game: m42", [POST, {"type": "close", "day": 1}])
    assert as_dicts(p) == [POST, {"type": "close", "id": 2, "day": 1}]
    assert oct(p.stat().st_mode & 0o777) != oct(0o600)  # not mkstemp's private mode


def test_write_new_rejects_events_in_header(tmp_path):
    with pytest.raises(ValueError):
        write_new(tmp_path / "ledger.yaml", "game: m42\nevents: []\n", [])
    with pytest.raises(UserError):
        write_new(tmp_path / "ledger.yaml", "game: [m42\n", [])
    assert not (tmp_path / "ledger.yaml").exists()


def test_append_gives_each_new_event_the_next_id_right_after_its_type(tmp_path):
    """Every event modtool writes carries a stable id (modtool.base.events): one more
    than any id in the ledger, kept where one is given, never given twice."""
    p = make(tmp_path, HAND)
    append(p, [{"type": "close", "day": 2}, {"type": "close", "day": 3, "id": 40}, {"type": "close", "day": 4}])
    assert [e.data.get("id") for e in load(p).events] == [None, 41, 40, 42]
    assert "  - type: close\n    id: 41\n    day: 2\n" in p.read_text()
    append(p, [{"type": "close", "day": 5}])
    assert load(p).events[-1].data["id"] == 43


def test_an_id_is_never_given_twice_even_after_its_event_was_deleted_by_hand(tmp_path):
    p = make(tmp_path, HAND)
    append(p, [{"type": "close", "day": 2}, {"type": "close", "day": 3}])
    text = p.read_text()
    p.write_text(text[:text.index("  - type: close\n    id: 2")])  # the director deletes the newest event
    ledger.restore(p, forget=True)
    append(p, [{"type": "close", "day": 4}])
    assert [e.data.get("id") for e in load(p).events] == [None, 1, 3]
