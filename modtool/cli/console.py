"""The process's standard output and error under any locale.

A terminal whose encoding cannot show a character (a Latin-1 or ASCII
locale, ``PYTHONIOENCODING=latin-1``) gets ``\\uXXXX`` in its place instead
of a UnicodeEncodeError, so nothing crashes after a command has written its
ledger. The escape is JSON's own (characters beyond U+FFFF as a surrogate
pair, lone surrogates as themselves), so ``--json`` output stays valid JSON
with the same values whatever the locale. Files written by ``--out``/``-o``
are bytes and stay UTF-8. ``modtool.__main__.run`` calls ``set_up`` once,
before any output; every output path (typer/click echo, ``print``, progress
lines) writes through these two streams.
"""

from __future__ import annotations

import codecs
import sys

ERRORS = "modtool-json-escape"


def json_escape(exc: UnicodeError) -> tuple[str, int]:
    """An encode error handler: each character that cannot be encoded as ``\\uXXXX``."""
    if not isinstance(exc, UnicodeEncodeError):
        raise exc
    out = []
    for ch in exc.object[exc.start:exc.end]:
        code = ord(ch)
        if code > 0xFFFF:
            code -= 0x10000
            out.append(f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}")
        else:
            out.append(f"\\u{code:04x}")
    return "".join(out), exc.end


def set_up() -> None:
    """stdout and stderr never fail on a character their encoding lacks."""
    try:
        codecs.lookup_error(ERRORS)
    except LookupError:
        codecs.register_error(ERRORS, json_escape)
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)  # None when the stream is closed at start
        if reconfigure is not None:
            try:
                reconfigure(errors=ERRORS)
            except (OSError, ValueError):  # a stream already closed, or one that cannot be flushed
                pass


def utf8_args(args: list[str]) -> list[str]:
    """The command line as the director typed it. Python decodes it in the
    locale's encoding: under a Latin-1 locale on a UTF-8 terminal, typed
    Chinese arrives as Latin-1 gibberish (「ç\\x99½æ\\x9c\\x88å\\x88\\x9d」 for
    白月初) and would be stored so. An argument whose bytes are valid UTF-8 is
    read as UTF-8; any other is left as decoded."""
    import os

    if sys.getfilesystemencoding().lower().replace("-", "") == "utf8":
        return args
    out = []
    for a in args:
        try:
            out.append(os.fsencode(a).decode("utf-8"))
        except (UnicodeError, ValueError):
            out.append(a)
    return out
