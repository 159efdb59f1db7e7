"""``python -m modtool`` and the ``modtool`` script.

Ctrl-C must end every run with exit 130 and 「已中断」, never a traceback.
Until ``cli.main`` is inside its error handling (while typer and the rest
are imported), and again once it is done (while Python shuts down), Ctrl-C
ends the process at once: nothing is being written then. In between it is
the usual KeyboardInterrupt, which ``cli.main`` turns into the message.
"""

import os
import signal
import sys


def _say(text: str) -> None:
    """``text`` on stderr in the terminal's encoding, \\uXXXX where it has no character."""
    encoding = getattr(sys.stderr, "encoding", None) or "utf-8"
    try:
        data = text.encode(encoding, "backslashreplace")
    except LookupError:
        data = text.encode("utf-8", "backslashreplace")
    try:
        os.write(2, data + b"\n")
    except OSError:  # stderr closed or its reader gone: nothing can be said
        pass


def _at_once(signum, frame):  # pragma: no cover - exercised by a real SIGINT
    appended = getattr(sys.modules.get("modtool.ledger._report"), "appended", 0)
    said = "已中断；本命令在中断前已把记录写进账本。" if appended else "已中断，账本未改动。"
    try:  # in the command's language once modtool's words are loaded (modtool.i18n)
        said = sys.modules["modtool.i18n"].t(said)
    except Exception:  # noqa: BLE001 - not loaded yet, or mid-import: the message as written
        pass
    _say(said)
    os._exit(130)


if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
    signal.signal(signal.SIGINT, _at_once)


def run() -> None:
    code = 0
    try:
        from modtool import console

        console.set_up()  # before any output: no locale makes printing fail
        from modtool.cli import main

        main()
    except SystemExit as exc:
        code = exc.code
    if code is not None and not isinstance(code, int):
        print(code, file=sys.stderr)
        code = 1
    # Leave without Python's finalisation: it puts back the default SIGINT
    # action, so a Ctrl-C then would end the process silently with no code.
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(code or 0)


if __name__ == "__main__":
    run()
