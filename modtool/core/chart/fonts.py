"""The font a chart is drawn with: one that has every character it draws.

Chosen, in order: the file named by ``--font`` or the environment variable
``MODTOOL_FONT``; else matplotlib's own DejaVu Sans when it covers every
character (English: the same picture on every machine); else the first font
of this system (as matplotlib's font list finds them, in a fixed order:
Simplified-Chinese sans faces first, then by path) that covers every character. With none, the refusal names the missing characters and
how to get a font (Debian/Ubuntu: ``fonts-noto-cjk``; Windows and macOS ship
Chinese fonts). A chart never draws a box for a missing glyph.
"""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path

from modtool.base.problems import Problem, UserError

ENV = "MODTOOL_FONT"
# Family names that draw Simplified Chinese in its own forms, preferred in this order.
_PREFERRED = ("Noto Sans CJK SC", "Source Han Sans SC", "Source Han Sans CN", "WenQuanYi Zen Hei",
              "WenQuanYi Micro Hei", "Microsoft YaHei", "PingFang SC", "Hiragino Sans GB", "Noto Sans SC",
              "Droid Sans Fallback", "Noto Sans CJK")


def quiet_matplotlib() -> None:
    """matplotlib logs in English to stderr (its first run in a fresh install:
    "building the font cache"); a director sees modtool's own words only."""
    import logging

    logging.getLogger("matplotlib").setLevel(logging.ERROR)


# Fonts whose character map claims everything but whose every glyph is a box.
_NOT_REAL = ("LastResort",)


def needed(texts) -> set[str]:
    """The characters drawn: all but ASCII blanks (an invisible format character
    never reaches the picture: ``visible``)."""
    return {ch for text in texts for ch in visible(text) if ch not in " \t\n\r"}


def visible(text: str) -> str:
    """``text`` without invisible format and control characters (zero-width
    space, direction marks): a font has no glyph for them and a reader sees none."""
    import unicodedata

    return "".join(ch for ch in text if ch == "\n" or unicodedata.category(ch) not in ("Cf", "Cc", "Cs", "Co", "Cn"))


@lru_cache(maxsize=None)
def coverage(path: str) -> frozenset[int]:
    """The code points the font at ``path`` has glyphs for (its first face, as matplotlib draws it)."""
    from fontTools.ttLib import TTFont

    try:
        with TTFont(path, fontNumber=0, lazy=True) as font:
            cmap = font.getBestCmap() or {}
    except Exception:  # noqa: BLE001 - not a font we can read: it covers nothing
        return frozenset()
    return frozenset(cmap)


def missing(path: str, chars: set[str]) -> list[str]:
    have = coverage(path)
    return sorted(ch for ch in chars if ord(ch) not in have)


def _rescan() -> None:
    """matplotlib's list of the system's fonts, made again: it is cached the first
    time matplotlib runs, so a font installed after that (a director following
    our advice to install one) would stay unseen. Kept for later runs too."""
    import os

    from matplotlib import font_manager, get_cachedir

    fresh = font_manager.FontManager()
    font_manager.fontManager = fresh
    try:
        font_manager.json_dump(fresh, os.path.join(get_cachedir(), f"fontlist-v{font_manager.FontManager.__version__}.json"))
    except (OSError, AttributeError, TypeError):  # a read-only cache folder: this run still sees the fonts
        pass


def _system_fonts() -> list[tuple[int, str, str]]:
    from matplotlib import font_manager

    seen: dict[str, tuple[int, str, str]] = {}
    for entry in font_manager.fontManager.ttflist:
        if entry.name.startswith(_NOT_REAL) or Path(entry.fname).name.startswith(_NOT_REAL):
            continue
        rank = next((i for i, name in enumerate(_PREFERRED) if entry.name.startswith(name)), len(_PREFERRED))
        weight_ok = 0 if entry.weight in (400, "normal", "regular") and entry.style == "normal" else 1
        key = entry.fname
        cand = (rank * 2 + weight_ok, entry.fname, entry.name)
        if key not in seen or cand < seen[key]:
            seen[key] = cand
    return sorted(seen.values())


def choose(texts, named: str | None = None) -> Path:
    """The font file to draw ``texts`` with (see the module's text)."""
    quiet_matplotlib()
    chars = needed(texts)
    named = named or os.environ.get(ENV) or None
    if named:
        path = Path(named).expanduser()
        where = "--font" if named != os.environ.get(ENV) else ENV
        if not path.is_file():
            raise UserError(Problem(where, "字体文件「{path}」不存在", path=path))
        lacking = missing(str(path), chars)
        if lacking:
            raise UserError(Problem(where, "字体「{path}」缺少这些字：{chars}", path=path, chars="".join(lacking[:40])))
        return path
    from matplotlib import get_data_path

    bundled = str(Path(get_data_path()) / "fonts" / "ttf" / "DejaVuSans.ttf")
    for fname in [bundled] + [fname for _, fname, _name in _system_fonts()]:
        if not missing(fname, chars):
            return Path(fname)
    _rescan()  # none of the fonts matplotlib knew: look again before refusing
    for fname in [fname for _, fname, _name in _system_fonts()]:
        if not missing(fname, chars):
            return Path(fname)
    hardest = "".join(sorted(ch for ch in chars if ord(ch) > 0x2E7F)[:20]) or "".join(sorted(chars)[:20])
    raise UserError(Problem("--font", "这台机器上没有包含这些字的字体：{chars}；请安装中文字体（Debian/Ubuntu：sudo apt install fonts-noto-cjk），"
                                        "或用 --font 指定字体文件（也可设置环境变量 MODTOOL_FONT）", chars=hardest))
