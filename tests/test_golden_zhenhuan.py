"""Golden outputs of every reading command over examples/zhenhuan (tests/support/golden.py)."""

from __future__ import annotations

import pytest

from tests.support import golden
from tests.support.golden_cases import READING

CASES = READING["zhenhuan"]


@pytest.fixture(scope="module")
def work(tmp_path_factory):
    return golden.copy_examples(tmp_path_factory.mktemp("golden"), "zhenhuan")


@pytest.mark.parametrize("case", CASES, ids=golden.ids(CASES))
def test_output_is_unchanged(case, work, capsys, monkeypatch):
    golden.run_case(case, capsys, monkeypatch, work)
