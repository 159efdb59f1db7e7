"""The lock of a game folder (``GAME_DIR/.ledger.lock``), shared or exclusive.

Readers hold it shared, writers exclusive (``flock``), so a reader never sees
half of an append and concurrent commands wait their turn instead of being
refused. The CLI opens a *session*: the first lock a command takes on a
folder is held until the command ends, so a writing command reads, checks and
appends under one exclusive lock and no other modtool can slip in between.
Outside a session (library use, tests) each ``locked`` block holds the lock
for its own duration only.

The wait is bounded (``MODTOOL_LOCK_WAIT`` seconds, default 120); after a
second a line on stderr says who is being waited for (the holder's pid is
written into the lock file by exclusive holders).
"""

from __future__ import annotations

import errno
import os
import sys
import threading
import time
from contextlib import contextmanager
from pathlib import Path

from modtool.base.i18n import t
from modtool.base.problems import Problem, UserError

LOCK_NAME = ".ledger.lock"
DEFAULT_WAIT = 120.0
NOTICE_AFTER = 1.0  # seconds of waiting before saying so on stderr

SHARED, EXCLUSIVE = "shared", "exclusive"

_mutex = threading.RLock()


class _Held:
    __slots__ = ("fd", "mode", "depth", "pid")

    def __init__(self, fd: int, mode: str):
        self.fd, self.mode, self.depth, self.pid = fd, mode, 0, os.getpid()


_held: dict[str, _Held] = {}  # abs lock path -> held lock
_session: dict | None = None  # {"mode": SHARED|EXCLUSIVE, "keys": set()} while a command runs


def lock_path(path: Path) -> Path:
    path = Path(path)
    folder = path if path.is_dir() else path.parent
    return folder / LOCK_NAME


def wait_limit() -> float:
    try:
        return max(0.0, float(os.environ.get("MODTOOL_LOCK_WAIT", DEFAULT_WAIT)))
    except ValueError:
        return DEFAULT_WAIT


def _flock(fd: int, mode: str, block: bool) -> bool:
    try:
        import fcntl
    except ImportError:  # Windows: one exclusive byte lock for both modes
        import msvcrt

        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
            return True
        except OSError:
            return False
    flags = fcntl.LOCK_EX if mode == EXCLUSIVE else fcntl.LOCK_SH
    if not block:
        flags |= fcntl.LOCK_NB
    try:
        fcntl.flock(fd, flags)
        return True
    except (BlockingIOError, PermissionError):
        return False


def _unflock(fd: int) -> None:
    try:
        import fcntl
    except ImportError:
        import msvcrt

        os.lseek(fd, 0, os.SEEK_SET)
        msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)
        return
    fcntl.flock(fd, fcntl.LOCK_UN)


def _holder(fd: int) -> str:
    try:
        text = os.pread(fd, 64, 0).decode("ascii", "replace").strip()
    except OSError:
        return ""
    return text if text.isdigit() else ""


def _wait(fd: int, mode: str, lock: Path, timeout: float | None) -> None:
    limit = wait_limit() if timeout is None else timeout
    if _flock(fd, mode, False):
        return
    start = time.monotonic()
    told = False
    while True:
        time.sleep(0.01)
        if _flock(fd, mode, False):
            return
        waited = time.monotonic() - start
        if not told and waited >= NOTICE_AFTER and limit > NOTICE_AFTER:
            pid = _holder(fd)
            who = t("（进程 {pid}）").format(pid=pid) if pid else ""
            print(t("正在等待另一个 modtool 命令{who}用完这个账本……").format(who=who), file=sys.stderr, flush=True)
            told = True
        if waited >= limit:
            pid = _holder(fd)
            who = t("（进程 {pid}）").format(pid=pid) if pid else ""
            raise UserError(Problem(
                str(lock), "另一个 modtool 命令{who}一直在用这个账本，等了 {limit:g} 秒仍未结束，本命令什么也没写；请等它完成后再试（可用环境变量 MODTOOL_LOCK_WAIT 设定等待秒数）", who=who, limit=limit))


def _readonly_fd(lock: Path) -> int | None:
    try:
        return os.open(lock, os.O_RDONLY)
    except OSError:
        return None


def _mark_owner(fd: int) -> None:
    try:
        os.ftruncate(fd, 0)
        os.pwrite(fd, str(os.getpid()).encode("ascii"), 0)
    except OSError:
        pass


def _acquire(key: str, lock: Path, mode: str, timeout: float | None) -> _Held:
    held = _held.get(key)
    if held is not None and held.pid == os.getpid():
        if mode == EXCLUSIVE and held.mode == SHARED and held.fd < 0:
            raise UserError(Problem(str(lock), "无法在这个游戏文件夹里写入（只读）；请检查文件夹的权限"))
        if mode == EXCLUSIVE and held.mode == SHARED:
            # Upgrade (flock converts; not atomic, but the caller re-reads after).
            _unflock(held.fd)
            _wait(held.fd, EXCLUSIVE, lock, timeout)
            held.mode = EXCLUSIVE
            _mark_owner(held.fd)
        return held
    try:
        fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as exc:
        if mode == SHARED:  # a read-only game folder: nobody writes there, read without the lock
            fd = _readonly_fd(lock)
            if fd is None:
                held = _held[key] = _Held(-1, mode)
                return held
        else:
            why = {errno.EROFS: t("只读的文件系统"), errno.EACCES: t("没有写入权限"), errno.EPERM: t("没有写入权限"),
                   errno.ENOSPC: t("磁盘已满")}.get(exc.errno, exc.strerror)
            raise UserError(Problem(str(lock), "无法在这个游戏文件夹里写入（{why}）；请检查文件夹的权限，或把游戏复制到可以写的地方", why=why)) from None
    try:
        _wait(fd, mode, lock, timeout)
    except BaseException:
        os.close(fd)
        raise
    if mode == EXCLUSIVE:
        _mark_owner(fd)
    held = _held[key] = _Held(fd, mode)
    return held


def _release(key: str) -> None:
    held = _held.pop(key, None)
    if held is None or held.fd < 0:
        return
    try:
        if held.mode == EXCLUSIVE:
            try:
                os.ftruncate(held.fd, 0)
            except OSError:
                pass
        _unflock(held.fd)
    finally:
        os.close(held.fd)


@contextmanager
def locked(path: Path, mode: str = EXCLUSIVE, timeout: float | None = None):
    """Hold the lock of the game folder of ``path`` (the ledger or its folder).

    Re-entrant within a process; a shared holder asking for exclusive is
    upgraded. Inside a session the lock stays held after the block, until
    the session ends."""
    lock = lock_path(path)
    key = os.path.abspath(lock)
    with _mutex:
        if _session is not None and mode == SHARED and _session["mode"] == EXCLUSIVE:
            mode = EXCLUSIVE  # a writing command reads under its exclusive lock
        held = _acquire(key, lock, mode, timeout)
        held.depth += 1
        try:
            yield held.mode
        finally:
            held.depth -= 1
            if held.depth == 0:
                if _session is not None:
                    _session["keys"].add(key)
                else:
                    _release(key)


@contextmanager
def session(mode: str = SHARED):
    """One command's hold on every game folder it touches (see module doc)."""
    global _session
    with _mutex:
        outer = _session
        _session = {"mode": mode, "keys": set()}
    try:
        yield
    finally:
        with _mutex:
            for key in _session["keys"]:
                held = _held.get(key)
                if held is not None and held.depth == 0:
                    _release(key)
            _session = outer



@contextmanager
def unheld():
    """Inside: no session, and none of the folders the session around holds stays
    locked. For a command that runs for long and reads or writes only now and
    then (``modtool serve``): each of its calls takes the lock for itself, so a
    command run meanwhile never waits for it."""
    global _session
    with _mutex:
        outer = _session
        if outer is not None:
            for key in outer["keys"]:
                held = _held.get(key)
                if held is not None and held.depth == 0:
                    _release(key)
            outer["keys"] = set()
        _session = None
    try:
        yield
    finally:
        with _mutex:
            _session = outer
