"""``python -m modtool`` and the ``modtool`` script.

Ctrl-C must end every run with exit 130 and 「已中断」, never a traceback and
never a death by the signal. Until ``cli.main`` is inside its error handling
(while typer and the rest are imported), and again once it is done (while
the output is flushed and the process leaves), Ctrl-C ends the process at
once: nothing is being written then. In between it is the usual
KeyboardInterrupt, which ``cli.main`` turns into the message.

The handler is installed by this module's first statements, before anything
is imported: ``_signal`` is built into Python and already loaded at start-up,
where ``signal`` would first import ``enum``. What comes before this module
(Python's own start-up, site's .pth files, the console script's ``import
re``: the first few milliseconds) runs no modtool code and cannot be helped.
"""

import _signal
import os
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
    _signal.signal(_signal.SIGINT, _signal.SIG_IGN)  # a second Ctrl-C does not tell it twice
    appended = _appended()
    said = "已中断；本命令在中断前已把记录写进账本。" if appended else "已中断，账本未改动。"
    try:  # in the command's language once modtool's words are loaded (modtool.base.i18n)
        said = sys.modules["modtool.base.i18n"].t(said)
    except Exception:  # noqa: BLE001 - not loaded yet, or mid-import: the message as written
        pass
    _say(said)
    os._exit(130)


if _signal.getsignal(_signal.SIGINT) is _signal.default_int_handler:
    _signal.signal(_signal.SIGINT, _at_once)


def run() -> None:
    code = 0
    try:
        from modtool.cli import console

        console.set_up()  # before any output: no locale makes printing fail
        from modtool.cli.app import main

        main()
    except SystemExit as exc:
        code = exc.code
    except KeyboardInterrupt:  # a second Ctrl-C while cli.main was telling of the first, or handing back
        _at_once(None, None)
    except BrokenPipeError:  # the reader of the output went away (`modtool tally … | head -1`)
        # Exit 1 says nothing was written; after a write, the write stands.
        code = 0 if _appended() else 1
    if code is not None and not isinstance(code, int):
        print(code, file=sys.stderr)
        code = 1
    # Leave without Python's finalisation: it puts back the default SIGINT
    # action, so a Ctrl-C then would end the process by the signal.
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:
                stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(code or 0)


if __name__ == "__main__":
    run()


def _appended() -> int:
    """How many appends this run made, if a command got as far as to run
    (``modtool.api.run``; nothing is imported here: a Ctrl-C may land at start-up)."""
    run = sys.modules.get("modtool.api.run")
    return run.appended() if run is not None else 0
