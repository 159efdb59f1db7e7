"""Appends cost the event, not the history; reads after them parse only the tail;
odd files and arguments are stored exactly or refused before writing."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from modtool import ledger
from modtool.cli.app import main
from modtool.ledger import _cache, _store
from modtool.base.problems import UserError
from tests.support.values import run_main

HEAD = "# 导演的备注\ngame: m42\nevents:\n  - type: close   # 注释\n    day: 1\n"
CARD = {"type": "card", "character": "饺子", "color": "blue", "reason": "划水"}


def fresh_process() -> None:
    """Forget what this process remembers, as a new command would."""
    _store._memo.clear()


def make(tmp_path: Path, text: str | bytes) -> Path:
    p = tmp_path / "ledger.yaml"
    p.write_bytes(text.encode() if isinstance(text, str) else text)
    return p


def test_append_writes_in_place_and_keeps_every_byte(tmp_path):
    p = make(tmp_path, HEAD)
    ino = p.stat().st_ino
    ledger.append(p, [CARD])
    assert p.stat().st_ino == ino  # the same file, written at its end: nothing replaced
    assert p.read_bytes().startswith(HEAD.encode())


def test_append_does_not_parse_the_ledger_again(tmp_path, monkeypatch):
    p = make(tmp_path, HEAD)
    ledger.load(p)

    def no_full_parse(*a, **k):
        raise AssertionError("the whole ledger was parsed again")

    monkeypatch.setattr(_store, "_parse", no_full_parse)
    data = ledger.append(p, [CARD])
    assert [e.type for e in data.events] == ["close", "card"]
    fresh_process()  # the next command reads the cache plus the appended stretch
    assert [e.type for e in ledger.load(p).events] == ["close", "card"]


def test_read_after_a_hand_append_parses_only_the_new_tail(tmp_path, monkeypatch):
    p = make(tmp_path, HEAD)
    ledger.load(p)
    fresh_process()
    with open(p, "a", encoding="utf-8") as f:  # the director adds an event at the end by hand
        f.write("  - type: card\n    character: 包子\n    color: yellow\n    reason: 手写的\n")
    calls = []
    real = _store._parse

    def counting(*a, **k):
        calls.append(1)
        return real(*a, **k)

    monkeypatch.setattr(_store, "_parse", counting)
    events = ledger.load(p).events
    assert [(e.type, e.line) for e in events] == [("close", 4), ("card", 6)]
    assert events[1].data["reason"] == "手写的"
    assert calls == []
    # An edit above the end is not a tail: the whole file is read again.
    fresh_process()
    p.write_text(p.read_text(encoding="utf-8").replace("day: 1", "day: 2"), encoding="utf-8")
    assert ledger.load(p).events[0].data["day"] == 2
    assert calls == [1]


def test_cache_segments_are_merged_into_the_base_eventually(tmp_path):
    p = make(tmp_path, HEAD)
    most = 0
    for i in range(230):  # one stretch per append, until there are too many to read each time
        ledger.append(p, [dict(CARD, reason=f"第{i}张")])
        most = max(most, len(_cache.read(p).stretches))
    fresh_process()
    c = _cache.read(p)
    assert c is not None and c.size == p.stat().st_size
    assert most <= 201 and len(c.stretches) < 100  # merged once past 200, then growing again
    assert [e.data["reason"] for e in ledger.load(p).events[1:]] == [f"第{i}张" for i in range(230)]


def test_cr_only_line_endings_read_and_append(tmp_path):
    p = make(tmp_path, HEAD.replace("\n", "\r"))
    data = ledger.load(p)
    assert [(e.type, e.line, e.data) for e in data.events] == [("close", 4, {"day": 1})]
    ledger.append(p, [CARD])
    raw = p.read_bytes()
    assert b"\n" not in raw and raw.startswith(HEAD.replace("\n", "\r").encode())
    fresh_process()
    assert [(e.type, e.line) for e in ledger.load(p).events] == [("close", 4), ("card", 6)]


def test_debris_of_killed_runs_is_removed_by_the_next_command(tmp_path):
    p = make(tmp_path, HEAD)
    (tmp_path / ".modtool").mkdir()
    junk = [tmp_path / ".ledger.yaml.x1y2.tmp", tmp_path / ".modtool" / ".ledger-cache.json.4242.tmp"]
    for j in junk:
        j.write_bytes(b"half")
    ledger.load(p)
    assert not any(j.exists() for j in junk)
    assert (tmp_path / "ledger.yaml").read_text() == HEAD


def test_torn_append_is_rolled_back_on_next_read(tmp_path):
    p = make(tmp_path, HEAD)
    ledger.load(p)
    # What a kill in the middle of an append leaves: the intent record and half the bytes.
    from modtool.ledger import _journal

    blob = b"  - type: card\n    character: x\n"
    st = p.stat()
    _journal.write_intent(p, st.st_ino, st.st_size, _journal.sha(p.read_bytes()[-_journal.TAIL:]), blob)
    with open(p, "ab") as f:
        f.write(blob[:10])
    fresh_process()
    data = ledger.load(p)
    assert p.read_text() == HEAD
    assert [e.type for e in data.events] == ["close"]
    assert any("恢复" in n for n in data.notes)
    assert not (tmp_path / ".modtool" / "append.intent").exists()


def test_whole_append_before_a_kill_is_kept(tmp_path):
    p = make(tmp_path, HEAD)
    from modtool.ledger import _journal

    blob = b"  - type: card\n    character: x\n"
    st = p.stat()
    _journal.write_intent(p, st.st_ino, st.st_size, _journal.sha(p.read_bytes()), blob)
    with open(p, "ab") as f:
        f.write(blob)
    assert [e.type for e in ledger.load(p).events] == ["close", "card"]
    assert not (tmp_path / ".modtool" / "append.intent").exists()


def test_non_utf8_argument_is_refused_before_anything_is_written(tmp_path, capsys):
    g = tmp_path / "g"
    g.mkdir()
    p = g / "ledger.yaml"
    p.write_text(HEAD, encoding="utf-8")
    bad = b"\xff\xfe".decode("utf-8", "surrogateescape")  # what Python makes of $'\xff\xfe'
    with pytest.raises(SystemExit) as info:
        main(["card", str(g), "饺子", "blue", "--reason", bad])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert "不是 UTF-8" in err and "第 6 个参数" in err
    assert p.read_text(encoding="utf-8") == HEAD


@pytest.mark.parametrize("text", ["\ud83d", "前\udcff后", "a\ud800"])
def test_lone_surrogates_are_refused_before_writing(tmp_path, text):
    p = make(tmp_path, HEAD)
    for one_line in (False, True):
        with pytest.raises(UserError) as info:
            ledger.append(p, [dict(CARD, reason=text)], one_line=one_line)
        assert "什么也没写" in str(info.value)
        assert p.read_text() == HEAD


def test_lock_wait_is_bounded_and_names_no_editor(tmp_path, monkeypatch):
    import multiprocessing

    p = make(tmp_path, HEAD)
    ctx = multiprocessing.get_context("fork")
    ready, release = ctx.Event(), ctx.Event()

    def hold():
        with ledger.locked(p):
            ready.set()
            release.wait(30)

    proc = ctx.Process(target=hold)
    proc.start()
    try:
        assert ready.wait(30)
        monkeypatch.setenv("MODTOOL_LOCK_WAIT", "0.3")
        with pytest.raises(UserError) as info:
            ledger.append(p, [CARD])
        msg = str(info.value)
        assert "另一个 modtool 命令" in msg and "等了 0.3 秒" in msg and "编辑器" not in msg
        assert f"进程 {proc.pid}" in msg
    finally:
        release.set()
        proc.join(30)
    assert p.read_text() == HEAD
    ledger.append(p, [CARD])  # free again


def test_readers_share_the_lock(tmp_path):
    p = make(tmp_path, HEAD)
    with ledger.locked(p, ledger.SHARED):
        # another reader in another process is not kept waiting
        import subprocess
        import sys

        code = ("import sys; from pathlib import Path; from modtool import ledger; "
                "print(len(ledger.load(Path(sys.argv[1])).events))")
        r = subprocess.run([sys.executable, "-c", code, str(p)], capture_output=True, text=True, timeout=60,
                           env=dict(os.environ, MODTOOL_LOCK_WAIT="2"))
        assert r.returncode == 0, r.stderr
        assert r.stdout.strip() == "1"


def test_read_only_game_folder_reads_and_refuses_writes_with_a_message(tmp_path, monkeypatch):
    import errno

    p = make(tmp_path, HEAD)
    real_open = os.open

    def no_create(path, flags, *a):
        if str(path).endswith(".ledger.lock") and flags & os.O_CREAT:
            raise OSError(errno.EROFS, "Read-only file system")
        return real_open(path, flags, *a)

    monkeypatch.setattr(os, "open", no_create)
    assert [e.type for e in ledger.load(p).events] == ["close"]
    with pytest.raises(UserError) as info:
        ledger.append(p, [CARD])
    assert "无法在这个游戏文件夹里写入（只读的文件系统）" in str(info.value)
    assert p.read_text() == HEAD


def test_a_read_that_only_notes_a_new_stat_does_not_change_what_the_ledger_is_called(tmp_path):
    # A command reads (the cache is stamped anew), then appends expecting what it read.
    p = make(tmp_path, HEAD)
    ledger.load(p)
    fresh_process()
    os.utime(p)  # same bytes, new stat signature: the next read stamps the cache
    first = ledger.load(p)
    fresh_process()
    again = ledger.load(p)  # from the stamped cache
    assert again.digest == first.digest and again.marks == first.marks
    ledger.append(p, [CARD], expect_digest=first.digest)


def test_a_card_on_a_cached_ledger_does_not_decode_the_old_events(tmp_path):
    """Cached events decode their fields on first use (Event.deferred_many): after a
    command has read and replayed the game, appending a card touches none of
    the posts (checks remembered, replay continued from its snapshot)."""
    import shutil

    from modtool.core import gamefile
    from modtool.ledger import _cache

    root = Path(__file__).resolve().parent.parent
    g = tmp_path / "g"
    shutil.copytree(root / "examples" / "m42", g, ignore=shutil.ignore_patterns(".modtool", "*.lock"))
    assert run_main(["status", str(g)]) == 0  # the previous command: reads, checks, replays
    fresh_process()
    gamefile._opened.clear()
    decoded = []
    real = _cache.Fields.datas

    def spy(self):
        if self._decoded is None:  # a real decode (not the new event's own fields)
            decoded.append(len(real(self)))
        return real(self)

    import pytest as _pytest

    with _pytest.MonkeyPatch.context() as mp:
        mp.setattr(_cache.Fields, "datas", spy)
        assert run_main(["card", str(g), "白月初", "blue", "--reason", "划水", "--at", "2026-11-04 12:00"]) == 0
    assert decoded == []
    fresh_process()
    gamefile._opened.clear()
    card = ledger.load(g / "ledger.yaml").events[-1]
    assert (card.type, card.data["reason"]) == ("card", "划水")


def test_an_import_sized_append_is_cached_as_written_and_reads_back_as_a_cold_parse(tmp_path):
    """One-line events go into the read cache as their JSON array as written
    (no second encoding); a new command reads them from there, decoding only
    when asked, and gets exactly what parsing the ledger gives."""
    p = make(tmp_path, "game: m42\nevents:\n")
    posts = [{"type": "post", "pid": str(i), "floor": i, "author": "饺子君", "body": f"第{i}帖\n\u2028\x85",
              "reply_to": {"pid": "1", "author": None} if i % 3 else None} for i in range(1, 3001)]
    ledger.append(p, posts, one_line=True)
    c = _cache.read(p)
    assert c is not None and c.stretches[-1]._datas.kind == "json"
    fresh_process()
    cached = ledger.load(p)
    assert all(e._src is not None for e in cached.events)  # not decoded yet
    got = [(e.type, e.data, e.line) for e in cached.events]
    ledger.append(p, [CARD])  # the import stays a stretch of its own, as written: not decoded and written again
    c = _cache.read(p)
    assert len(c.stretches) == 3 and c.stretches[1]._datas.kind == "json"
    fresh_process()
    after = [(e.type, e.data, e.line) for e in ledger.load(p).events]
    _cache.drop(p)
    fresh_process()
    cold = [(e.type, e.data, e.line) for e in ledger.load(p).events]
    assert got == cold[:-1] and after == cold
    assert [d["body"] for _, d, _ in got] == [x["body"] for x in posts]


def test_a_read_soon_after_a_write_hashes_the_mapped_file_and_sees_a_same_size_edit(tmp_path):
    """Too soon after a write to trust the stat, the bytes are hashed (through
    a memory map): one changed byte, same size, is seen."""
    p = make(tmp_path, HEAD)
    ledger.append(p, [CARD])
    c = _cache.read(p)
    assert _store._same_bytes(p, c)
    raw = bytearray(p.read_bytes())
    raw[raw.index("划水".encode())] ^= 1
    with open(p, "r+b") as f:
        f.write(raw)
    assert not _store._same_bytes(p, c)
    fresh_process()
    assert ledger.load(p).events[-1].data["reason"] != "划水"  # read, not served from the cache
