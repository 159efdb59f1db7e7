"""Every command's free-text field: whatever a director types is stored so that
it reads back identically, or refused before anything is written (issue 8,
point 2). The whole code-point range, surrogates, NUL, controls and every line
ending included; no category is excluded."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from tests.support.fuzz import examples

from modtool import ledger
from modtool.ledger import _store

from tests.conftest import write_game
from tests.support.values import run_main

# (command line with {t} for the text, event type, field that holds it)
FIELDS = [
    (["card", "{g}", "白月初", "blue", "--reason={t}", "--at", "2026-11-04 12:00"], "card", "reason"),
    (["withdraw", "{g}", "1", "--reason={t}"], "withdraw", "reason"),
    (["waive", "{g}", "白月初", "--day", "1", "--rule", "a", "--reason={t}"], "waive", "reason"),
    (["speedup", "{g}", "--day", "2", "--note={t}"], "speedup", "note"),
    (["act", "{g}", "涂山苏苏", "last_words", "--text={t}", "--at", "2026-11-03 23:00"], "last_words", "text"),
    (["substitute", "{g}", "白月初", "--player={t}", "--at", "2026-11-04 12:00"], "substitute", "player"),
    (["assistant", "{g}", "白月初", "--helper={t}", "--games", "1"], "assistant", "helper"),
]

EVENTS = '''
- {type: close, day: 1, at: "2026-11-03 21:00"}
- {type: advance, phase: day, number: 1, at: "2026-11-03 21:00"}
'''

# Any text: st.text() draws from the whole range, surrogates (Cs) included.
ANY_TEXT = st.text(st.characters(codec=None, exclude_categories=()), max_size=30)


@pytest.mark.parametrize("template,etype,key", FIELDS, ids=[f[1] + "." + f[2] for f in FIELDS])
@settings(max_examples=examples(15), deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(text=ANY_TEXT)
@example(text="\ud83d")  # half an emoji
@example(text="\x00NUL\x01\x7f\x85\u2028\u2029\ufeff\ufffe\uffff")
@example(text="一\r二\r\n三\n四\n")
@example(text="- 像列表的\n  key: 像映射的\n# 像注释\n...\n---")
@example(text=" 前后空格 ")
@example(text="")
def test_free_text_reads_back_identically_or_is_refused_before_writing(tmp_path_factory, template, etype, key, text):
    g = write_game(tmp_path_factory.mktemp("g"), EVENTS)
    path = g / "ledger.yaml"
    before = path.read_bytes()
    args = [a.replace("{g}", str(g)).replace("{t}", text) for a in template]
    code = run_main(args)
    _store._memo.clear()
    after = path.read_bytes()
    if any("\ud800" <= c <= "\udfff" for c in text):
        assert code == 2 and after == before  # refused: nothing written
        return
    if after == before:  # refused for another reason (a usage error): nothing written
        assert code in (1, 2)
        return
    last = ledger.load(path).events[-1]
    assert last.type == etype
    assert last.data[key] == text
