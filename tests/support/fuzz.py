"""How many examples a property test (hypothesis) tries: a quarter of its full
count in the default run (README's test command, kept quick), the full count
with ``MODTOOL_FUZZ=full``, which ``.ci/run`` sets for its step that runs every
property test again (``pytest -m fuzz``; tests/conftest.py marks them)."""

from __future__ import annotations

import os


def examples(full: int) -> int:
    return full if os.environ.get("MODTOOL_FUZZ") == "full" else max(10, full // 4)
