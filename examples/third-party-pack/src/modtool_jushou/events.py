"""The facts this game adds to the ledger (besides modtool's own: posts, imports, reverts).

* ``deadline``: the director set day ``day``'s deadline to ``at``; hands posted
  after it do not count. Recorded again, the later record wins.
"""

from __future__ import annotations

JUSHOU_EVENTS = {
    "deadline": {"day": ((int,), True), "at": ((str,), True), "note": ((str,), False)},
}
