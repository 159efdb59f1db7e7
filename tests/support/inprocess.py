"""Serve modtool commands from inside the test process (see modtool_client.py).

    with modtool_server() as env:      # env: os.environ plus MODTOOL=…
        subprocess.run(["bash", "examples/m42-full/build.sh", target], env=env)

Each command runs through ``modtool.cli.app.main`` exactly as the installed
program would, in the given working directory, its output captured; one
command at a time.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import socketserver
import sys
import tempfile
import threading
from pathlib import Path

CLIENT = Path(__file__).with_name("modtool_client.py")


class _Handler(socketserver.StreamRequestHandler):
    lock = threading.Lock()

    def handle(self) -> None:
        from modtool.cli.app import main

        request = json.loads(self.rfile.readline().decode("utf-8"))
        out, err = io.StringIO(), io.StringIO()
        with self.lock:
            old = os.getcwd()
            os.chdir(request["cwd"])
            try:
                with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                    try:
                        main(request["argv"])
                        code = 0
                    except SystemExit as exc:
                        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
            finally:
                os.chdir(old)
        reply = {"out": out.getvalue(), "err": err.getvalue(), "code": code}
        self.wfile.write(json.dumps(reply, ensure_ascii=False).encode("utf-8"))


@contextlib.contextmanager
def modtool_server():
    with tempfile.TemporaryDirectory() as tmp:
        sock = os.path.join(tmp, "modtool.sock")
        server = socketserver.UnixStreamServer(sock, _Handler)
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        try:
            env = dict(os.environ, MODTOOL_SHIM=sock, MODTOOL=f"{sys.executable} -S -E {CLIENT}")
            yield env
        finally:
            server.shutdown()
            server.server_close()
