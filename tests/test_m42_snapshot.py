"""Continuing a replay from the state an earlier command saved gives exactly
what replaying the whole ledger gives (modtool/packs/m42/snapshot.py).

Each example game is grown event by event as a director would grow it: the
ledger up to an event is read and replayed (saving where replay ended), the
next event is appended, and the replay of the grown ledger, which continues
from the saved state wherever it may, is compared with a replay from the
start."""

from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path

import pytest

from modtool.core import gamefile

from modtool import ledger
from modtool.core.gamefile import open_game
from modtool.ledger import _store
from modtool.packs.m42 import snapshot
from modtool.packs.m42.engine import Engine
from modtool.packs.m42.replay import replay

ROOT = Path(__file__).resolve().parent.parent
# m42-discipline: ~500 steps, each a cold read and two replays compared whole, a
# long probe (~11 s of CPU) run in the slow tier (`pytest -m slow`).
GAMES = [ROOT / "examples" / n for n in ("m42", "m42-full")] + [
    pytest.param(ROOT / "examples" / "m42-discipline", marks=pytest.mark.slow)]


def canon(x):
    """``x`` as plain data: sets sorted (their order is the hash seed's, never
    something output may rely on), objects as their fields."""
    if dataclasses.is_dataclass(x) and not isinstance(x, type):
        return (type(x).__name__, {f.name: canon(getattr(x, f.name)) for f in dataclasses.fields(x)})
    if isinstance(x, (set, frozenset)):
        return ("set", sorted((canon(v) for v in x), key=repr))
    if isinstance(x, dict):
        return ("dict", [(canon(k), canon(v)) for k, v in x.items()])
    if isinstance(x, (list, tuple)):
        return [canon(v) for v in x]
    if hasattr(x, "__dict__") and not isinstance(x, type):  # private attributes are memos and indexes
        return (type(x).__name__, canon({k: v for k, v in vars(x).items() if not k.startswith("_")}))
    return x


def same(st) -> str:
    """The whole state as text, comparable across a pickle round trip."""
    return repr(canon(st))


def new_command() -> None:
    _store._memo.clear()
    gamefile._opened.clear()


@pytest.mark.parametrize("example", GAMES, ids=lambda p: p.name)
def test_continuing_a_replay_equals_replaying_from_the_start(example, tmp_path, monkeypatch):
    for name in ("roster.yaml", "dumps", "templates"):
        if (example / name).exists():
            (shutil.copytree if (example / name).is_dir() else shutil.copy)(example / name, tmp_path / name)
    text = (example / "ledger.yaml").read_text(encoding="utf-8").split("\n")
    starts = [e.line for e in ledger.load(example / "ledger.yaml").events]
    path = tmp_path / "ledger.yaml"
    resumed = []
    real_resume = snapshot.resume

    def spy(gd):
        eng = real_resume(gd)
        if eng is not None and eng.resumed_from < len(gd.events):
            resumed.append(gd.events[-1].type)
        return eng

    monkeypatch.setattr(snapshot, "resume", spy)
    for k in range(1, len(starts) + 1):
        cut = starts[k] - 1 if k < len(starts) else len(text)
        path.write_text("\n".join(text[:cut]).rstrip("\n") + "\n", encoding="utf-8")
        new_command()
        gd = open_game(tmp_path)
        if gd.problems:
            continue
        got = replay(gd)  # continues from the previous step's state where it may
        want = Engine(gd).run()
        assert same(got) == same(want), f"after event {k} (line {starts[k - 1]}, {gd.events[-1].type})"
    assert resumed, "no step continued from a saved state"


def test_a_snapshot_from_elsewhere_is_not_used(tmp_path, monkeypatch):
    shutil.copytree(ROOT / "examples" / "m42-full", tmp_path / "g")
    g = tmp_path / "g"
    gd = open_game(g)
    replay(gd)  # saves
    assert (g / ".modtool" / snapshot.NAME).is_file()
    new_command()
    monkeypatch.setattr("modtool.ledger._cache._KEY", b"x" * 32)  # another user's key
    assert snapshot.resume(open_game(g)) is None
