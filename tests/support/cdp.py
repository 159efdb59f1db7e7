"""A tiny Chrome DevTools Protocol client for the desk's browser tests.

It starts the system's Chromium (``modtool.core.browser.find``: Debian's
``chromium``; no browser is ever downloaded) headless with a throw-away
profile and a debugging port on the loopback, and talks to its page over one
websocket (websocket-client, a small pure-Python library in the test extra):
navigate, evaluate JavaScript, type into the page, take screenshots.
"""

from __future__ import annotations

import base64
import json
import os
import shutil
import signal
import subprocess
import tempfile
import time
import urllib.request
from pathlib import Path

from modtool.core import browser

FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--disable-extensions", "--hide-scrollbars",
         "--force-device-scale-factor=1", "--remote-debugging-address=127.0.0.1", "--remote-debugging-port=0")


class Page:
    def __init__(self, width: int = 1400, height: int = 1000):
        import websocket

        self.profile = tempfile.TemporaryDirectory(prefix="modtool-desk-cdp-")
        self.proc = subprocess.Popen([browser.find(), *FLAGS, f"--user-data-dir={self.profile.name}",
                                      f"--window-size={width},{height}", "about:blank"],
                                     stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                     start_new_session=True)  # its helpers in one group, killed together
        port_file = Path(self.profile.name) / "DevToolsActivePort"
        deadline = time.monotonic() + 30
        while not (port_file.is_file() and port_file.read_text().strip()):
            if time.monotonic() > deadline or self.proc.poll() is not None:
                self.close()
                raise RuntimeError("Chromium did not open its debugging port")
            time.sleep(0.05)
        port = int(port_file.read_text().split()[0])
        while True:
            targets = json.load(urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=10))
            pages = [t for t in targets if t.get("type") == "page"]
            if pages:
                break
            time.sleep(0.05)
        self.ws = websocket.create_connection(pages[0]["webSocketDebuggerUrl"], timeout=60, suppress_origin=True)
        self.next_id = 0
        self.call("Emulation.setFocusEmulationEnabled", enabled=True)  # the clipboard wants a focused page

    def call(self, method: str, **params):
        self.next_id += 1
        self.ws.send(json.dumps({"id": self.next_id, "method": method, "params": params}))
        while True:
            reply = json.loads(self.ws.recv())
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply["result"]

    def js(self, expression: str):
        """The value of ``expression`` (a promise is awaited)."""
        out = self.call("Runtime.evaluate", expression=expression, awaitPromise=True, returnByValue=True)
        if "exceptionDetails" in out:
            raise RuntimeError(f"{expression}: {out['exceptionDetails']}")
        return out["result"].get("value")

    def wait(self, expression: str, timeout: float = 15, every: float = 0.1):
        """Wait until ``expression`` is truthy (asked every ``every`` seconds); its value."""
        deadline = time.monotonic() + timeout
        while True:
            value = self.js(expression)
            if value:
                return value
            if time.monotonic() > deadline:
                raise AssertionError(f"never true: {expression}")
            time.sleep(every)

    def goto(self, url: str) -> None:
        self.call("Page.enable")
        self.call("Page.navigate", url=url)
        self.wait("document.readyState === 'complete' && document.body && document.body.dataset.stamp !== undefined")

    def screenshot(self, out: Path, top_of: str | None = None) -> None:
        """The page from its top (or from the element ``top_of`` selects), at most 2,400 pixels high."""
        height = self.js("document.documentElement.scrollHeight")
        top = self.js(f"document.querySelector({json.dumps(top_of)}).getBoundingClientRect().top + window.scrollY - 8") \
            if top_of else 0
        shot = self.call("Page.captureScreenshot", format="png", captureBeyondViewport=True,
                         clip={"x": 0, "y": top, "width": self.js("window.innerWidth"),
                               "height": min(height - top, 2400), "scale": 1})
        out.write_bytes(base64.b64decode(shot["data"]))

    def close(self) -> None:
        try:
            if getattr(self, "ws", None):
                self.ws.close()
        finally:
            # The whole group: a renderer left behind kept writing into the profile while it
            # was removed ("Directory not empty", an error at teardown now and then).
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self.proc.wait()
            for _ in range(50):
                try:
                    shutil.rmtree(self.profile.name)
                    break
                except FileNotFoundError:
                    break
                except OSError:
                    time.sleep(0.1)
            self.profile.cleanup()
