"""A desk (``modtool serve``) on a copy of a bundled example, served from a thread
on a free loopback port, for the desk's tests."""

from __future__ import annotations

import shutil
import threading
from contextlib import contextmanager
from pathlib import Path

from modtool.desk.server import Desk, make_server

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


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
