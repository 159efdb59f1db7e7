"""A read cache of the parsed ledger, keyed by the digest of its bytes.

The ledger stays the only source of truth: the cache holds exactly what
parsing those bytes gave (header, events, lines), is used only when the bytes
are the same, and is rebuilt whenever they differ. It lives in
``GAME_DIR/.modtool/`` and may be deleted at any time. JSON, not pickle, so a
game folder from someone else cannot run code here.
"""

from __future__ import annotations

import json
import math
import os
from pathlib import Path

from modtool import __version__
from modtool.events import Event

CACHE_DIR = ".modtool"
_FORMAT = f"ledger-cache-1/{__version__}"


def cache_path(ledger: Path) -> Path:
    return Path(ledger).parent / CACHE_DIR / "ledger-cache.json"


def _plain(value) -> bool:
    """True if JSON gives ``value`` back unchanged (str keys, no dates, no NaN)."""
    if value is None or isinstance(value, (str, bool, int)):
        return True
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, list):
        return all(_plain(v) for v in value)
    if isinstance(value, dict):
        return all(isinstance(k, str) and _plain(v) for k, v in value.items())
    return False


def read(ledger: Path, digest: str) -> tuple[dict, list[Event]] | None:
    try:
        with open(cache_path(ledger), encoding="utf-8") as f:
            data = json.load(f)
        if data.get("format") != _FORMAT or data.get("digest") != digest:
            return None
        events = [Event(t, d, line) for t, d, line in data["events"]]
        return data["header"], events
    except (OSError, ValueError, KeyError, TypeError):
        return None


def write(ledger: Path, digest: str, header: dict, events: list[Event]) -> None:
    """Best effort: a cache that cannot be written is simply not there."""
    if not _plain(header) or not all(_plain(e.data) for e in events):
        return
    path = cache_path(ledger)
    data = {
        "format": _FORMAT,
        "digest": digest,
        "header": header,
        "events": [[e.type, e.data, e.line] for e in events],
    }
    try:
        path.parent.mkdir(exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump(data, f, ensure_ascii=False, separators=(",", ":"))
        os.replace(tmp, path)
    except OSError:
        pass
