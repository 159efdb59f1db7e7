"""Event checks are remembered between commands (.modtool/checked.bin) only
for the very events they checked: appended events are checked when they
come, any other change checks everything again."""

from __future__ import annotations

from modtool.core import gamefile

from modtool import ledger
from modtool.core.gamefile import open_game
from modtool.ledger import _store

from tests.conftest import write_game


def new_command() -> None:
    """Forget what this process remembers, as the next command would."""
    _store._memo.clear()
    gamefile._opened.clear()


def test_remembered_checks_cover_only_the_same_events(tmp_path, monkeypatch):
    g = write_game(tmp_path, '- {type: close, day: 1, at: "2026-11-03 21:00"}\n- {type: card, character: 白月初}\n')
    first = open_game(g).problems
    assert any("card" in p.message or "color" in p.message for p in first)  # a card without colour or reason
    new_command()
    calls = []
    real = gamefile.check_events

    def counting(events, schemas, source):
        calls.append(len(events))
        return real(events, schemas, source)

    monkeypatch.setattr(gamefile, "check_events", counting)
    assert [str(p) for p in open_game(g).problems] == [str(p) for p in first]
    assert calls == [0]  # nothing new to check
    # an appended malformed event is checked (and only it)
    ledger.append(g / "ledger.yaml", [{"type": "close", "day": "第二天"}])
    new_command()
    gd = open_game(g)
    problems = gd.problems
    assert calls[-1] == 1
    assert [str(p) for p in problems[:len(first)]] == [str(p) for p in first]
    added = problems[len(first):]
    assert added and {p.line for p in added} == {gd.events[-1].line}
    # a hand edit above the end: everything is checked again
    path = g / "ledger.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("白月初}", "白月初, color: blue, reason: 划水, at: \"2026-11-03 12:00\"}"),
                    encoding="utf-8")
    new_command()
    problems = open_game(g).problems
    assert calls[-1] == 3
    assert not any(p.line == first[0].line for p in problems)  # the fixed card is fine now
