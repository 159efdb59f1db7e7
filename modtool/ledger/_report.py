"""What the ledger store tells the command line, kept apart so the CLI can set
it up without importing the store (``modtool --help`` stays quick)."""

# How many appends this process has made (Ctrl-C says whether it wrote).
appended = 0

# Where a read says what the director should know (recovery done, events
# vanished); the CLI sets it to print on stderr. None: say nothing.
notice = None
