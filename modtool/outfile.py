"""Files a command writes besides the ledger (a chart, a page, a screenshot):
written whole or not at all, and a place that cannot be written is the
director's to fix, named, never a traceback."""

from __future__ import annotations

from pathlib import Path

from modtool.i18n import t
from modtool.problems import Problem, UserError


def write_file(path: Path, data: bytes, option: str) -> None:
    """``data`` to ``path`` atomically (a temp file beside it, then renamed)."""
    from modtool.ledger._append import atomic_write

    path = Path(path)
    if path.is_dir():
        raise UserError(Problem(t("命令行 {option}").format(option=option), t("「{path}」是文件夹；请给出文件名").format(path=path)))
    if not path.parent.is_dir():
        raise UserError(Problem(t("命令行 {option}").format(option=option),
                                t("文件夹「{folder}」不存在；请先建立它").format(folder=path.parent)))
    try:
        atomic_write(path, data)
    except OSError as exc:
        raise UserError(Problem(t("命令行 {option}").format(option=option),
                                t("无法写入「{path}」：{why}").format(path=path, why=exc.strerror or exc))) from None
