"""What the ledger store tells the command line, kept apart so the CLI can set
it up without importing the store (``modtool --help`` stays quick)."""

# How many appends this process has made (Ctrl-C says whether it wrote).
appended = 0
# What they wrote: (first line, event types) of each, for an internal error
# that comes after a write to say exactly what is in the ledger.
written: list = []


def wrote(first_line: int, events: list) -> None:
    global appended
    appended += 1
    written.append((first_line, [e.get("type") for e in events]))

# Where a read says what the director should know (recovery done, events
# vanished); the CLI sets it to print on stderr. None: say nothing.
notice = None
