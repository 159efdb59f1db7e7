"""The --json outputs give the exits (出局) in exit order with a sequence number,
and each exit's last words (遗言) received and allowed (M42-R10, R11, R13)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.support.values import run_main

ROOT = Path(__file__).resolve().parent.parent
FULL = ROOT / "examples" / "m42-full"
DISCIPLINE = ROOT / "examples" / "m42-discipline"


def as_json(capsys, *args) -> dict:
    code = run_main([str(a) for a in args] + ["--json"])
    out = capsys.readouterr()
    assert code == 0, out.err
    return json.loads(out.out)


def test_m42_r11_status_json_lists_exits_in_order_with_sequence_and_last_words(capsys):
    j = as_json(capsys, "status", FULL)
    exits = j["exits"]
    assert [e["seq"] for e in exits] == list(range(1, 10))
    assert [e["name"] for e in exits] == ["杨一言", "翠玉鸣鸾", "梵云飞", "狐小蓝", "欢都落兰", "沈星河",
                                          "南宫羽", "王权弘业", "欢都擎天"]
    assert exits[0] == {"seq": 1, "name": "杨一言", "cause": "exile", "cause_text": "被投票放逐", "phase": "day",
                        "number": 2, "at": "2026-11-19 21:00:00", "last_words": {"received": 2, "allowed": 4}}
    assert exits[1]["cause"] == "kill" and exits[1]["last_words"] == {"received": 4, "allowed": 4}
    assert exits[-1]["last_words"] == {"received": 0, "allowed": 4}


def test_m42_r10_r13_red_card_exit_has_no_last_words_allowed(capsys):
    exits = as_json(capsys, "status", DISCIPLINE)["exits"]
    red = next(e for e in exits if e["cause"] == "redcard")
    assert red["name"] == "李雪松" and red["last_words"] == {"received": 0, "allowed": 0}
    assert [e["seq"] for e in exits] == list(range(1, len(exits) + 1))


def test_m42_r11_tally_json_lists_the_exits_up_to_that_day(capsys):
    day2 = as_json(capsys, "tally", FULL, "--day", "2")["exits"]
    assert [(e["seq"], e["name"]) for e in day2] == [(1, "杨一言")]
    day3 = as_json(capsys, "tally", FULL, "--day", "3")["exits"]
    assert [(e["seq"], e["name"]) for e in day3] == [(1, "杨一言"), (2, "翠玉鸣鸾"), (3, "梵云飞"), (4, "狐小蓝")]
    assert day3[3]["last_words"] == {"received": 1, "allowed": 4}


def test_zh_status_json_numbers_the_deaths_in_order(capsys):
    deaths = as_json(capsys, "status", ROOT / "examples" / "zhenhuan")["deaths"]
    assert deaths and [d["seq"] for d in deaths] == list(range(1, len(deaths) + 1))
