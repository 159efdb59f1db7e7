"""A command's word is the ledger's truth (issue 16 of the desk): exit 0
means written and acknowledged, a refusal means byte for byte unchanged.

Real processes attack the write from outside (an editor saving in place at
the write moment, a truncation while a read hashes the file, a disk that
fills at each of the append's writes); tests/bench/probe_truth.py does the
same hundreds of times. Recovery of a killed write keeps what a person saved
since. Each protection of the write path has a test here that fails when
the protection is taken out.
"""

from __future__ import annotations

import errno
import os
import shutil
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

from modtool import ledger
from modtool.ledger import _append, _journal, append, load
from modtool.base.problems import UserError
from tests.support.values import run_cli

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "m42"
ENV = dict(os.environ, PYTHONPATH=str(ROOT), MODTOOL_LOCK_WAIT="60")
CMD = [sys.executable, "-m", "modtool"]
posix = pytest.mark.skipif(os.name != "posix", reason="signals, flock and in-place saves are POSIX")


def game(tmp_path: Path, name: str = "g") -> Path:
    g = tmp_path / name
    shutil.copytree(EXAMPLE, g, ignore=shutil.ignore_patterns(".modtool", "*.lock"))
    return g


def card(g: Path, reason: str) -> list[str]:
    return ["card", str(g), "白月初", "blue", "--reason", reason, "--at", "2026-11-04 12:00"]


def acknowledged(g: Path, reason: str) -> bool:
    ack = g / ".modtool" / "acknowledged.jsonl"
    return ack.is_file() and reason in ack.read_text(encoding="utf-8")


# -- an editor saves in place at the write moment --------------------------------------


@posix
@pytest.mark.slow  # eight real processes raced by an editor's save: the slow tier
def test_editor_save_at_the_write_moment_never_makes_a_refusal_a_lie(tmp_path):
    """The editor saves (truncate, write, a note of its own) the moment the
    append's intent record appears, i.e. right at the write. Before, the
    command said 「没有写进去」 with the card in the ledger, unacknowledged, half
    the time; now either it is written and acknowledged, or the ledger is the
    editor's save, byte for byte."""
    outcomes = []
    for k in range(8):
        g = game(tmp_path, f"g{k}")
        path = g / "ledger.yaml"
        base = path.read_bytes()
        saved = base + f"# 导演的笔记 {k}\n".encode()
        proc = subprocess.Popen([*CMD, *card(g, f"race-{k}")], env=ENV, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
        intent = g / ".modtool" / "append.intent"
        deadline = time.monotonic() + 60
        while not intent.exists() and time.monotonic() < deadline and proc.poll() is None:
            pass
        with open(path, "r+b") as f:
            f.truncate(0)
            f.write(saved)
        _, err = proc.communicate(timeout=120)
        assert "Traceback" not in err and proc.returncode in (0, 1), err
        now = path.read_bytes()
        if proc.returncode == 0:
            assert acknowledged(g, f"race-{k}") and now.count(f"race-{k}".encode()) <= 1
        else:
            # A refusal: at the write ("什么也没写"), or at the read, when the command
            # read the file between the editor's truncate and its write (an empty ledger).
            assert "什么也没写" in err or "账本是空的" in err, err
            assert now == saved, f"try {k}: refused, yet the ledger is not the editor's save"
        outcomes.append(proc.returncode)
    assert 1 in outcomes, outcomes  # the saves landed at the write


_TRUNCATOR = textwrap.dedent("""
    import os, sys, threading, time
    from pathlib import Path
    from modtool.ledger import _store
    from modtool.ledger._cache import Cached, Stretch
    p = Path(sys.argv[1])
    pieces = [(f"# line {i} " + "x" * 4000 + "\\n").encode() for i in range(400)]
    raw = b"".join(pieces)
    p.write_bytes(raw)
    stretches, pos = [], 0
    for piece in pieces:
        stretches.append(Stretch(pos, pos + len(piece), _store.digest_of(piece), []))
        pos += len(piece)
    c = Cached(header={}, item_col=None, events_line=0, flow_empty=False, lines=0, ends_nl=True,
               crlf=False, stretches=stretches)
    def cutter():
        fd = os.open(p, os.O_RDWR)
        while True:
            os.ftruncate(fd, 0)
            time.sleep(0.0003)
            os.pwrite(fd, raw, 0)
            time.sleep(0.0005)
    threading.Thread(target=cutter, daemon=True).start()
    end = time.monotonic() + float(sys.argv[2])
    while time.monotonic() < end:
        _store._same_bytes(p, c)
    print("survived")
""")


@posix
def test_a_truncation_while_the_ledger_is_hashed_never_kills_the_command(tmp_path):
    """An editor cutting the file while a read checks its bytes: hashed
    through a memory map this was a SIGBUS (a death with no message); read
    a piece at a time it is only a changed file."""
    proc = subprocess.run([sys.executable, "-c", _TRUNCATOR, str(tmp_path / "ledger.yaml"), "1.5"],
                          env=ENV, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0 and "survived" in proc.stdout, (proc.returncode, proc.stderr)


# -- the disk fills at each write of an append ----------------------------------------

_FULL = textwrap.dedent("""
    import errno, os, sys
    target, how = sys.argv[1], sys.argv[2]
    real_open, real_write, fds = os.open, os.write, {}
    def opened(path, flags, *a, **k):
        fd = real_open(path, flags, *a, **k)
        if str(path).endswith(target) and flags & (os.O_WRONLY | os.O_RDWR):
            fds[fd] = 0
        else:
            fds.pop(fd, None)
        return fd
    def write(fd, data):
        if fd in fds:
            fds[fd] += 1
            if how == "half" and fds[fd] == 1 and len(data) > 1:
                return real_write(fd, bytes(data[: len(data) // 2]))
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real_write(fd, data)
    os.open, os.write = opened, write
    from modtool.cli.app import main
    main(sys.argv[3:])
""")


@posix
@pytest.mark.parametrize("target, how", [
    ("append.intent", "none"),       # before the ledger is touched
    ("ledger.yaml", "half"),         # the append itself, cut short
    ("acknowledged.jsonl", "half"),  # after the append: it cannot be acknowledged
])
def test_disk_full_at_any_write_refuses_and_leaves_the_ledger_unchanged(tmp_path, target, how):
    """A full disk where each write of an append happens (injected in a real
    process): before, a failed acknowledged record exited 3 after writing
    the card. Now: exit 1, the words 「什么也没写」, the ledger byte for byte
    as it was, and the retry on a freed disk writes the card once."""
    g = game(tmp_path)
    assert subprocess.run([*CMD, "check", str(g)], env=ENV, capture_output=True).returncode == 0
    before = (g / "ledger.yaml").read_bytes()
    ack = g / ".modtool" / "acknowledged.jsonl"
    ack_before = ack.read_bytes() if ack.exists() else b""
    proc = subprocess.run([sys.executable, "-c", _FULL, target, how, *card(g, "满")], env=ENV,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr, proc.stderr
    assert "什么也没写" in proc.stderr and "No space left" in proc.stderr, proc.stderr
    assert (g / "ledger.yaml").read_bytes() == before
    assert (ack.read_bytes() if ack.exists() else b"") == ack_before  # no torn entry either
    retry = subprocess.run([*CMD, *card(g, "满")], env=ENV, capture_output=True, text=True, timeout=120)
    assert retry.returncode == 0, retry.stderr
    assert (g / "ledger.yaml").read_text(encoding="utf-8").count("满") == 1 and acknowledged(g, "满")
    assert "注意" not in retry.stderr  # no recovery and nothing missing


def _tmpfs(where: Path, size: str) -> bool:
    where.mkdir()
    return subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where)],
                          capture_output=True).returncode == 0


@posix
def test_a_really_full_filesystem_is_told_and_writes_nothing(tmp_path):
    """The same on a real tiny filesystem, filled to leave less than a page
    (where it can be mounted: root on Linux)."""
    mnt = tmp_path / "small"
    if os.geteuid() != 0 or not _tmpfs(mnt, "1m"):
        pytest.skip("cannot mount a tmpfs here")
    try:
        g = game(mnt)
        assert subprocess.run([*CMD, "check", str(g)], env=ENV, capture_output=True).returncode == 0
        st = os.statvfs(mnt)
        with open(mnt / "filler", "wb") as f:
            try:
                f.write(b"\0" * (st.f_bavail * st.f_frsize))
            except OSError:
                pass
        before = (g / "ledger.yaml").read_bytes()
        proc = subprocess.run([*CMD, *card(g, "满了")], env=ENV, capture_output=True, text=True, timeout=120)
        assert proc.returncode == 1 and "Traceback" not in proc.stderr, proc.stderr
        assert "什么也没写" in proc.stderr
        assert (g / "ledger.yaml").read_bytes() == before
    finally:
        subprocess.run(["umount", str(mnt)], capture_output=True)


# -- recovery keeps a person's edits ---------------------------------------------------


def _killed(tmp_path: Path, blob: bytes, written: int) -> tuple[Path, bytes]:
    """A game whose last append of ``blob`` was killed after ``written`` of its
    bytes (its intent record and those bytes, as SIGKILL leaves them); and the
    ledger before it."""
    g = game(tmp_path)
    path = g / "ledger.yaml"
    load(path)
    before = path.read_bytes()
    st = os.stat(path)
    _journal.write_intent(path, st.st_ino, st.st_size, _journal.sha(before[-_journal.TAIL:]), blob)
    with open(path, "ab") as f:
        f.write(blob[:written])
    return g, before


def _torn(tmp_path: Path) -> tuple[Path, bytes, bytes]:
    """Half a card's append written; the ledger before it, and the piece."""
    blob = "  - type: card\n    id: 900\n    character: 白月初\n    color: blue\n".encode()
    g, before = _killed(tmp_path, blob, len(blob) // 2)
    return g, before, blob[: len(blob) // 2]


@posix
def test_recovery_cuts_only_bytes_modtool_wrote_and_nobody_touched(tmp_path):
    g, before, _ = _torn(tmp_path)
    proc = subprocess.run([*CMD, "check", str(g)], env=ENV, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert (g / "ledger.yaml").read_bytes() == before
    assert "恢复到那次写入之前" in proc.stderr


@posix
def test_recovery_keeps_the_directors_fix_of_a_torn_line(tmp_path):
    """After a killed write the director deletes the half line, adds a note
    and saves in place. Before, the next command cut the file back to before
    the append and the note was gone."""
    g, before, piece = _torn(tmp_path)
    path = g / "ledger.yaml"
    fixed = before + "# 导演：上一张卡没写完，我删掉了，明天再记\n".encode()
    with open(path, "r+b") as f:  # in place: the same file, as many editors save
        f.truncate(0)
        f.write(fixed)
    proc = subprocess.run([*CMD, "check", str(g)], env=ENV, capture_output=True, text=True, timeout=120)
    assert path.read_bytes() == fixed, "the director's save was cut"
    assert proc.returncode == 0 and "modtool 没有动它" in proc.stderr, proc.stderr


@posix
def test_a_whole_append_killed_before_it_was_acknowledged_is_kept_and_told(tmp_path):
    blob = "  - type: card\n    id: 900\n    character: 白月初\n    color: blue\n    reason: 完整\n    at: '2026-11-04 12:00'\n".encode()
    g, before = _killed(tmp_path, blob, len(blob))
    path = g / "ledger.yaml"
    proc = subprocess.run([*CMD, "check", str(g)], env=ENV, capture_output=True, text=True, timeout=120)
    assert path.read_bytes() == before + blob
    assert "不要重复运行" in proc.stderr, proc.stderr


# -- every writing command refuses on a damaged ledger; check fails on missing records --


def _dump(tmp_path: Path) -> Path:
    dump = tmp_path / "dump.txt"
    dump.write_text("#2 月初不是白 2026-11-04 10:00\n讨论\n", encoding="utf-8")
    return dump


def test_undo_import_refuses_on_a_damaged_ledger(tmp_path, capsys):
    """Damage outside the batch (a name typo typed in by hand) stops it, as it stops every writing command."""
    g = game(tmp_path)
    assert run_cli(capsys, "import", g, _dump(tmp_path), "--thread", "discussion", "--day", "2")[0] == 0
    with open(g / "ledger.yaml", "a", encoding="utf-8") as f:
        f.write("  - type: card\n    character: 不存在的人\n    color: blue\n    at: '2026-11-04 12:00'\n    reason: 名字打错\n")
    before = (g / "ledger.yaml").read_bytes()
    code, _, err = run_cli(capsys, "undo", g, "--import", "last")
    assert code == 1 and "什么也没写" in err, err
    assert (g / "ledger.yaml").read_bytes() == before


def test_undo_import_may_take_back_the_damage_of_its_own_batch(tmp_path, capsys):
    """The batch's own broken post goes with it: undo --import is the way out."""
    g = game(tmp_path)
    assert run_cli(capsys, "import", g, _dump(tmp_path), "--thread", "discussion", "--day", "2")[0] == 0
    text = (g / "ledger.yaml").read_text(encoding="utf-8")
    (g / "ledger.yaml").write_text(text.replace('"floor":2', '"floor":"二"', 1), encoding="utf-8")
    code, _, err = run_cli(capsys, "check", g)
    assert code == 1, "the broken post should be damage"
    code, _, err = run_cli(capsys, "undo", g, "--import", "last")
    assert code == 0, err


def test_restore_refuses_on_a_damaged_ledger_and_check_fails_while_records_are_missing(tmp_path, capsys):
    g = game(tmp_path)
    path = g / "ledger.yaml"
    assert run_cli(capsys, *card(g, "会被删掉"))[0] == 0
    with_card = path.read_bytes()
    text = with_card.decode("utf-8")
    cut = text[: text.rindex("\n  - type: card") + 1]  # an editor's stale buffer saved over the card
    path.write_text(cut, encoding="utf-8")
    code, _, err = run_cli(capsys, "check", g)
    assert code == 1 and "modtool restore" in err, "check passed with an acknowledged record missing"
    with open(path, "a", encoding="utf-8") as f:
        f.write("  - type: card\n    character: 不存在的人\n    color: blue\n    at: '2026-11-04 12:00'\n    reason: 名字打错\n")
    damaged = path.read_bytes()
    code, _, err = run_cli(capsys, "restore", g)
    assert code == 1 and "什么也没写" in err, err
    assert path.read_bytes() == damaged
    code, _, err = run_cli(capsys, "restore", g, "--forget")
    assert code == 1 and path.read_bytes() == damaged
    path.write_text(cut, encoding="utf-8")  # the typo fixed: now the restore goes through
    code, _, err = run_cli(capsys, "restore", g)
    assert code == 0, err
    assert run_cli(capsys, "check", g)[0] == 0


# -- each protection of the write path, tested by taking it out ------------------------


HAND = "game: m42\n# 导演的注释\nevents:\n- type: close\n  day: 1\n"


def _ledger(tmp_path: Path, text: str = HAND) -> Path:
    p = tmp_path / "ledger.yaml"
    p.write_text(text, encoding="utf-8")
    return p


def test_the_stat_check_just_before_the_write_refuses_before_writing(tmp_path, monkeypatch):
    """An editor's save between the command's read and its write: the stat
    check sees it before a byte is written (without it, the append is written
    and then has to be taken back out)."""
    p = _ledger(tmp_path)
    load(p)
    real_open = os.open
    writes = []

    def open_then_save(path, flags, *a, **k):
        if str(path) == str(p) and flags & os.O_APPEND:
            p.write_text(HAND + "# 编辑器刚存的\n", encoding="utf-8")
        return real_open(path, flags, *a, **k)

    real_write = _append._write_all
    monkeypatch.setattr(os, "open", open_then_save)
    monkeypatch.setattr(_append, "_write_all", lambda fd, data: (writes.append(data), real_write(fd, data)))
    with pytest.raises(UserError, match="读取之后被改动过"):
        append(p, [{"type": "close", "day": 2}])
    assert writes == [] and p.read_text(encoding="utf-8") == HAND + "# 编辑器刚存的\n"


def test_the_block_read_back_check_refuses_an_event_that_would_read_back_otherwise(tmp_path, monkeypatch):
    """Each block event is read back before it is written: a dump that would
    not give the same event back is refused, the ledger untouched."""
    p = _ledger(tmp_path)
    from modtool.ledger import _dump

    real = _dump.dump_event
    monkeypatch.setattr(_append, "dump_event", lambda e, indent=2: real(e, indent=indent).replace("day: 2", "day: 3"))
    with pytest.raises(ValueError, match="无法无损写进账本"):
        append(p, [{"type": "close", "day": 2}])
    assert p.read_text(encoding="utf-8") == HAND


def test_a_failed_atomic_write_leaves_no_temp_file(tmp_path, monkeypatch):
    target = tmp_path / "page.html"
    target.write_text("旧的", encoding="utf-8")

    def no_rename(src, dst):
        raise OSError(errno.EIO, "I/O error")

    monkeypatch.setattr(os, "replace", no_rename)
    with pytest.raises(OSError):
        _append.atomic_write(target, "新的".encode())
    assert sorted(x.name for x in tmp_path.iterdir()) == ["page.html"]
    assert target.read_text(encoding="utf-8") == "旧的"


@posix
def test_ctrl_c_during_the_write_waits_until_the_append_is_whole_and_acknowledged(tmp_path, monkeypatch):
    """A Ctrl-C that lands while the bytes go out: the append finishes, is
    acknowledged, and only then the interrupt is raised (without the hold,
    it tore the write and the append was rolled back)."""
    p = _ledger(tmp_path)
    real = _append._write_all

    def write_with_ctrl_c(fd, data):
        real(fd, data[:3])
        # To this thread, as a terminal's Ctrl-C reaches single-threaded modtool:
        # sent to the process, another thread of a test worker (pytest-xdist's
        # I/O threads) could take it, and Python would raise it here at once.
        signal.pthread_kill(threading.get_ident(), signal.SIGINT)
        for _ in range(1000):  # bytecodes for a pending handler to run in
            pass
        real(fd, data[3:])

    monkeypatch.setattr(_append, "_write_all", write_with_ctrl_c)
    with pytest.raises(KeyboardInterrupt):
        append(p, [{"type": "close", "day": 2, "note": "完整"}])
    from tests.support.values import fresh_process

    fresh_process()
    data = load(p)
    assert [e.data.get("note") for e in data.events] == [None, "完整"] and not data.vanished
    assert "完整" in (tmp_path / ".modtool" / "acknowledged.jsonl").read_text(encoding="utf-8")


def test_an_output_file_is_written_whole_or_not_at_all(tmp_path, monkeypatch):
    """A chart or page file (modtool.core.outfile): a write that fails half way
    leaves the old file, never half a new one."""
    from modtool.core import outfile

    target = tmp_path / "chart.png"
    target.write_bytes(b"OLD")
    real_fsync = os.fsync

    def fail(fd):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", fail)
    with pytest.raises(UserError, match="无法写入"):
        outfile.write_file(target, b"NEW" * 1000, "--out")
    monkeypatch.setattr(os, "fsync", real_fsync)
    assert target.read_bytes() == b"OLD"
    assert [x.name for x in tmp_path.iterdir()] == ["chart.png"]


def test_an_internal_error_after_the_write_says_what_was_written(tmp_path, capsys, monkeypatch):
    """A failure after the card was written and acknowledged: the director is
    told it is in the ledger (and where), not to run the command again."""
    import tempfile

    import modtool.packs.m42.answers as m42_answers

    monkeypatch.setenv("TMPDIR", str(tmp_path))
    monkeypatch.setattr(tempfile, "tempdir", None)
    monkeypatch.setattr(m42_answers, "_said", lambda *a, **k: 1 / 0)
    g = game(tmp_path)
    code, _, err = run_cli(capsys, *card(g, "写了才出错"))
    assert code == 3 and "内部错误" in err
    assert "已把这些记录写进账本并确认" in err and "card" in err and "不要重复运行" in err, err
    assert acknowledged(g, "写了才出错")


def test_an_internal_error_before_any_write_says_the_ledger_is_unchanged(tmp_path, capsys, monkeypatch):
    import tempfile

    import modtool.packs.m42.queries as queries  # tally_text as the tally query calls it

    monkeypatch.setenv("TMPDIR", str(tmp_path))
    monkeypatch.setattr(tempfile, "tempdir", None)
    monkeypatch.setattr(queries, "tally_text", lambda *a, **k: 1 / 0)
    code, _, err = run_cli(capsys, "tally", game(tmp_path), "--day", "2")
    assert code == 3 and "账本未改动" in err, err


_BAD_CARD = "  - type: card\n    character: 不存在的人\n    color: blue\n    at: '2026-11-04 12:00'\n    reason: 名字打错\n"


@pytest.mark.parametrize("args", [
    ["proxy", "{g}", "东方淮竹", "石宽", "--day", "2", "--at", "2026-11-04 12:00"],
    ["close", "{g}", "--day", "2", "--at", "2026-11-05 21:00"],
    ["announce", "{g}", "witch", "--night", "1", "--told-at", "2026-11-03 22:10"],
])
def test_every_write_refuses_on_a_damaged_ledger_through_the_one_guard(tmp_path, capsys, args):
    """Commands that checked nothing themselves wrote past a hand-typed
    unknown name; every write now goes through announced.record's check."""
    g = game(tmp_path)
    with open(g / "ledger.yaml", "a", encoding="utf-8") as f:
        f.write(_BAD_CARD)
    before = (g / "ledger.yaml").read_bytes()
    code, _, err = run_cli(capsys, *[a.format(g=g) for a in args])
    assert code == 1 and "不存在的人" in err and "什么也没写" in err, err
    assert (g / "ledger.yaml").read_bytes() == before


def test_undo_takes_back_the_damaged_line_but_not_past_other_damage(tmp_path, capsys):
    g = game(tmp_path)
    with open(g / "ledger.yaml", "a", encoding="utf-8") as f:
        f.write(_BAD_CARD)
    assert run_cli(capsys, "undo", g)[0] == 0  # the broken line itself: the way out
    assert run_cli(capsys, "check", g)[0] == 0
    with open(g / "ledger.yaml", "a", encoding="utf-8") as f:
        f.write(_BAD_CARD + "  - type: close\n    day: 2\n    at: '2026-11-05 21:00'\n")
    before = (g / "ledger.yaml").read_bytes()
    code, _, err = run_cli(capsys, "undo", g)  # the last line is sound, the one before is not
    assert code == 1 and "不存在的人" in err and (g / "ledger.yaml").read_bytes() == before


@posix
def test_recovery_keeps_a_fix_made_at_once_after_a_killed_large_import(tmp_path):
    """A torn 6 MB import and the director's fix saved within the same second:
    before, an append that large was judged by the ledger's modification
    time, and a quick fix was cut with the torn tail."""
    line = '  - {"type":"post","thread":"discussion","day":2,"floor":%d,"author":"月初不是白","body":"%s"}\n'
    blob = "".join(line % (k, "字" * 60) for k in range(2, 30000)).encode()
    assert len(blob) > 4 << 20
    g, before = _killed(tmp_path, blob, len(blob) // 2 + 7)
    path = g / "ledger.yaml"
    cut = path.read_bytes()
    fixed = cut[: cut.rindex(b"\n") + 1] + "# 导演：导入被打断，后面的我明天重新导入\n".encode()
    with open(path, "r+b") as f:
        f.truncate(0)
        f.write(fixed)
    proc = subprocess.run([*CMD, "check", str(g)], env=ENV, capture_output=True, text=True, timeout=120)
    assert path.read_bytes() == fixed, "the director's fix was cut"
    assert "modtool 没有动它" in proc.stderr, proc.stderr


def test_a_torn_read_cache_is_only_a_slower_read(tmp_path, capsys):
    """The cache file cut at any byte (a length field read from the middle of
    a record) is ignored, never a MemoryError that stops every command."""
    from modtool.ledger import _cache

    g = game(tmp_path)
    assert run_cli(capsys, *card(g, "缓存"))[0] == 0
    assert run_cli(capsys, "status", g)[0] == 0
    seg = _cache.segments_path(g / "ledger.yaml")
    whole = seg.read_bytes()
    assert whole
    m = len(_cache._MAGIC)
    torn = [whole[:m] + b"\xff" * 8 + whole[m + 8:]]  # a record's length field made absurd
    torn += [whole[:cut] for cut in range(1, len(whole), max(1, len(whole) // 40))]
    for data in torn:
        seg.write_bytes(data)
        code, _, err = run_cli(capsys, "status", g)
        assert code == 0 and "内部错误" not in err, (len(data), err)
