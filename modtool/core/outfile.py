"""Files a command writes besides the ledger (a chart, a page, a screenshot):
written whole or not at all, and a place that cannot be written is the
director's to fix, named, never a traceback.

The bytes go to a short hidden temp file beside the target (its name carries
the writer's process id: a long target name never makes it too long), are
synced, then renamed over the target. A temp file left by a writer that was
killed (SIGKILL leaves no chance to clean up) is removed by the next write to
that folder, once its process is gone.
"""

from __future__ import annotations

import os
from pathlib import Path

from modtool.base.i18n import t
from modtool.base.problems import Problem, UserError
from modtool.ledger._append import atomic_write

_PREFIX = ".modtool-out-"


def write_file(path: Path, data: bytes, option: str) -> None:
    """``data`` to ``path`` atomically."""
    path = Path(path)
    where = t("命令行 {option}").format(option=option)
    try:
        if path.is_dir():
            raise UserError(Problem(where, "「{path}」是文件夹；请给出文件名", path=path))
        if not path.parent.is_dir():
            raise UserError(Problem(where, "文件夹「{folder}」不存在；请先建立它", folder=path.parent))
        _sweep(path.parent)

        atomic_write(path, data, prefix=f"{_PREFIX}{os.getpid()}-")
    except OSError as exc:
        raise UserError(Problem(where, "无法写入「{path}」：{why}", path=path, why=exc.strerror or exc)) from None


def _sweep(folder: Path) -> None:
    """Remove temp files of writers that no longer run."""
    for leftover in folder.glob(f"{_PREFIX}*.tmp"):
        try:
            pid = int(leftover.name[len(_PREFIX):].split("-", 1)[0])
        except ValueError:
            continue
        if pid == os.getpid() or _alive(pid):
            continue
        leftover.unlink(missing_ok=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's process: alive
        return True
    return True
