"""The read cache gives exactly what parsing gives, and only for the same bytes."""

import json

from modtool import ledger
from modtool.ledger import _cache


def test_cache_hit_equals_parse_and_edit_invalidates(m42_game):
    g = m42_game('- {type: close, day: 1, at: "2026-11-03 21:00"}\n')
    path = g / "ledger.yaml"
    first = ledger.load(path)
    assert _cache.cache_path(path).is_file()
    second = ledger.load(path)  # from the cache
    assert (second.header, second.events, second.digest) == (first.header, first.events, first.digest)
    # A hand edit changes the bytes: the cache must not answer for them.
    path.write_text(path.read_text(encoding="utf-8").replace("21:00", "20:00"), encoding="utf-8")
    third = ledger.load(path)
    assert third.events[0].data["at"] == "2026-11-03 20:00"
    assert third.digest != first.digest


def test_corrupt_or_foreign_cache_is_ignored(m42_game):
    g = m42_game('- {type: close, day: 1, at: "2026-11-03 21:00"}\n')
    path = g / "ledger.yaml"
    good = ledger.load(path)
    cache = _cache.cache_path(path)
    cache.write_text("{not json", encoding="utf-8")
    assert ledger.load(path).events == good.events
    data = json.loads(cache.read_text(encoding="utf-8"))
    data["events"][0][1]["at"] = "1999-01-01 00:00"
    data["format"] = "ledger-cache-0/old"
    cache.write_text(json.dumps(data), encoding="utf-8")
    assert ledger.load(path).events == good.events


def test_values_json_cannot_keep_are_not_cached(tmp_path):
    path = tmp_path / "ledger.yaml"
    path.write_text("game: m42\nevents:\n  - type: close\n    day: 1\n    at: 2026-11-03 21:00:00\n", encoding="utf-8")
    data = ledger.load(path)  # a YAML timestamp: the C loader gives a datetime
    assert not _cache.cache_path(path).exists()
    assert ledger.load(path).events == data.events
