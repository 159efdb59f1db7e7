"""A headless browser for pages modtool writes: a screenshot (``grimoire --png``)
and the DOM after the page's scripts ran (the layout tests).

The browser is Chromium from the system's packages (Debian: ``chromium``);
``MODTOOL_CHROMIUM`` names another. It runs with no network of its own
(background networking, sync and component updates off) and a throw-away
profile, so it reads only the local file it is given.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from modtool.core.outfile import write_file
from modtool.base.problems import Problem, UserError

ENV = "MODTOOL_CHROMIUM"
_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome")
_FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
          "--disable-background-networking", "--disable-component-update", "--disable-sync",
          "--hide-scrollbars", "--force-device-scale-factor=1", "--disable-extensions")


def find() -> str | None:
    """The browser's path, or None."""
    named = os.environ.get(ENV)
    if named:
        return named if Path(named).is_file() else shutil.which(named)
    return next((found for name in _NAMES if (found := shutil.which(name))), None)


def _require() -> str:
    found = find()
    if found is None:
        raise UserError(Problem("--png", "找不到无界面浏览器 Chromium：请安装（Debian/Ubuntu：sudo apt install chromium），"
                                           "或用环境变量 MODTOOL_CHROMIUM 指定它的路径"))
    return found


def _run(extra: list[str], page: Path, timeout: float = 60) -> subprocess.CompletedProcess:
    with tempfile.TemporaryDirectory(prefix="modtool-browser-") as profile:
        cmd = [_require(), *_FLAGS, f"--user-data-dir={profile}", *extra, page.resolve().as_uri()]
        try:
            return subprocess.run(cmd, capture_output=True, timeout=timeout, stdin=subprocess.DEVNULL)
        except subprocess.TimeoutExpired:
            raise UserError(Problem("--png", "浏览器 {timeout:g} 秒内没有完成", timeout=timeout)) from None
        except OSError as exc:  # not a program, not executable
            raise UserError(Problem(ENV if os.environ.get(ENV) else "--png", "无法运行浏览器「{path}」：{why}", path=cmd[0], why=exc.strerror or exc)) from None


def screenshot(page: Path, out: Path, width: int, height: int) -> None:
    """``page`` rendered to the PNG ``out``, ``width`` CSS pixels wide, as tall as
    its content (up to ``height``): the empty page below it is cut off."""
    with tempfile.TemporaryDirectory(prefix="modtool-shot-") as tmp:
        shot = Path(tmp) / "shot.png"
        done = _run([f"--window-size={width},{height}", f"--screenshot={shot}"], page)
        if not shot.is_file():
            raise UserError(Problem("--png", "浏览器没有生成图片：{why}", why=done.stderr.decode("utf-8", "replace").strip()[-300:]))

        write_file(out, _cropped(shot), "--png")


def _cropped(shot: Path) -> bytes:
    """The screenshot without the page's empty bottom (Pillow comes with matplotlib)."""
    import io

    from PIL import Image, ImageChops

    try:
        img = Image.open(shot)
    except Exception as exc:  # noqa: BLE001 - PIL's UnidentifiedImageError and friends: not a picture
        raise UserError(Problem("--png", "浏览器生成的不是 PNG 图片：{why}", why=exc)) from None
    with img:
        rgb = img.convert("RGB")
        background = Image.new("RGB", rgb.size, rgb.getpixel((rgb.width - 1, rgb.height - 1)))
        box = ImageChops.difference(rgb, background).getbbox()
        if box is not None:
            rgb = rgb.crop((0, 0, rgb.width, min(rgb.height, box[3] + 20)))
        buf = io.BytesIO()
        rgb.save(buf, format="PNG", optimize=True)
        return buf.getvalue()


def dom(page: Path, width: int, height: int) -> str:
    """The page's DOM after its scripts ran, as the browser serialises it."""
    done = _run([f"--window-size={width},{height}", "--virtual-time-budget=2000", "--dump-dom"], page)
    return done.stdout.decode("utf-8", "replace")
