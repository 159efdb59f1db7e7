"""Where modtool's shipped files are: the packs' data files and post templates.

They live inside the package (``modtool/_data/games`` and ``modtool/_data/templates``
in a wheel); in a source checkout they are read from the top-level ``games/`` and
``templates/`` folders.
"""

from __future__ import annotations

from pathlib import Path

from modtool.base.problems import UserError

_PKG = Path(__file__).resolve().parent.parent  # the modtool package


def data_dir(kind: str) -> Path:
    """The folder holding shipped ``games`` or ``templates``."""
    for candidate in (_PKG / "_data" / kind, _PKG.parent / kind):
        if candidate.is_dir():
            return candidate
    raise UserError("找不到 modtool 自带的 {kind} 文件夹，安装可能不完整", kind=kind)
