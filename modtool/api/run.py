"""One run of a command, as a front end sees it: what it appended to a ledger.

The ledger's store counts each append (``modtool.ledger._report``); a front end
starts a run (``command_run``: the count at zero, and where a read's notices go),
asks afterwards whether it wrote (``appended``, ``written``: Ctrl-C's message and
the internal-error report say exactly what is in the ledger), and leaves out the
appends to a scratch copy (``not_counted``: the desk's preview)."""

from __future__ import annotations

from contextlib import contextmanager
from typing import Callable

from modtool.ledger import _report


@contextmanager
def command_run(notice: Callable | None = None):
    """Inside: one command's run, its appends counted from zero, a read's notices
    (recovery done, events vanished) given to ``notice``."""
    _report.appended, _report.written = 0, []
    _report.notice = notice
    try:
        yield
    finally:
        _report.notice = None


def appended() -> int:
    """How many appends this run has made."""
    return _report.appended


def written() -> list:
    """(first line, event types) of each append this run has made."""
    return list(_report.written)


@contextmanager
def not_counted():
    """Appends made inside (to the preview's copy) left out of what the run
    reports it wrote to a ledger (Ctrl-C's message)."""
    count, wrote = _report.appended, list(_report.written)
    try:
        yield
    finally:
        _report.appended, _report.written[:] = count, wrote
