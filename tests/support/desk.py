"""A desk (``modtool serve``) on a copy of a bundled example, served from a thread
on a free loopback port, for the desk's tests."""

from __future__ import annotations

import os
import shutil
import threading
from contextlib import contextmanager
from pathlib import Path

from modtool.desk.server import Desk, make_server

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
SHOTS = EXAMPLES / "desk"


def copy_example(name: str, into: Path) -> Path:
    folder = into / name
    shutil.copytree(EXAMPLES / name, folder, ignore=shutil.ignore_patterns(".modtool", ".ledger.lock", "*.png"))
    return folder


@contextmanager
def serving(folder: Path):
    desk = Desk(folder, "127.0.0.1", 0)
    server = make_server(desk)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield desk, f"http://127.0.0.1:{desk.port}"
    finally:
        server.shutdown()
        server.server_close()


@contextmanager
def serving_as_typed(folder: Path, monkeypatch):
    """``serving`` the game folder ``folder`` named as a director types it, from its parent
    (``modtool serve m42``): the commands the pages suggest, and so the pictures, name
    "m42", not a temporary path."""
    monkeypatch.chdir(folder.parent)
    with serving(Path(folder.name)) as served:
        yield served


def chromium_page():
    """A headless Chromium page (tests/support/cdp.py), for a browser test module's
    fixture: ``page = pytest.fixture(scope="module")(chromium_page)``. Skipped where no
    browser can be had, failed instead where CI requires one (MODTOOL_REQUIRE_BROWSER)."""
    import pytest

    from modtool.core import browser

    if browser.find() is None:
        if os.environ.get("MODTOOL_REQUIRE_BROWSER"):
            pytest.fail("MODTOOL_REQUIRE_BROWSER is set but no Chromium was found (.ci/apt-packages.txt)")
        pytest.skip("no Chromium here (Debian: apt install chromium)")
    from tests.support.cdp import Page

    p = Page()
    try:
        yield p
    finally:
        p.close()


def shot(page, name: str, top_of: str | None = None) -> None:
    """The page as a picture in examples/desk/ (README shows them), when MODTOOL_DESK_SHOTS is set."""
    if os.environ.get("MODTOOL_DESK_SHOTS"):
        SHOTS.mkdir(exist_ok=True)
        page.screenshot(SHOTS / name, top_of)
