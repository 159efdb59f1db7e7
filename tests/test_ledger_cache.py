"""The read cache gives exactly what parsing gives, and only for the same bytes."""

from modtool import ledger
from modtool.ledger import _cache, _store


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


def test_corrupt_or_foreign_cache_is_ignored(m42_game, monkeypatch):
    g = m42_game('- {type: close, day: 1, at: "2026-11-03 21:00"}\n')
    path = g / "ledger.yaml"
    good = ledger.load(path)
    cache = _cache.cache_path(path)
    assert cache.is_file()
    blob = cache.read_bytes()
    # damaged: one byte of the header changed, the record's MAC no longer fits
    i = blob.index(b"m42")
    cache.write_bytes(blob[:i] + b"m43" + blob[i + 3:])
    _store._memo.clear()
    assert _cache.read(path) is None
    assert ledger.load(path).events == good.events
    # damaged in the events' fields, which are read (and MAC-checked) only when
    # asked for: they then come from the ledger itself, and the cache goes
    _store._memo.clear()
    ledger.load(path)  # writes the cache again
    blob = cache.read_bytes()
    i = blob.index("2026-11-03 21:00".encode())
    cache.write_bytes(blob[:i] + b"1999" + blob[i + 4:])
    _store._memo.clear()
    assert _cache.read(path) is not None
    assert ledger.load(path).events == good.events
    assert not cache.exists()
    # foreign: a cache made under another user's key (a game folder from a friend)
    cache.write_bytes(blob)
    monkeypatch.setattr(_cache, "_KEY", b"k" * 32)
    assert _cache.read(path) is None
    _store._memo.clear()
    assert ledger.load(path).events == good.events


def test_values_marshal_cannot_keep_are_not_cached(tmp_path):
    path = tmp_path / "ledger.yaml"
    path.write_text("game: m42\nevents:\n  - type: close\n    day: 1\n    at: 2026-11-03 21:00:00\n", encoding="utf-8")
    data = ledger.load(path)  # a YAML timestamp: the C loader gives a datetime
    assert not _cache.cache_path(path).exists()
    _store._memo.clear()
    assert ledger.load(path).events == data.events
