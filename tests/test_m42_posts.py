"""M42 posts: private notices say what their reader may know; public posts never leak.

The leak test replays the bundled examples step by step (after every event)
and renders every public post that exists at that step, in both formats.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from modtool.core.gamefile import open_game
from modtool.packs.m42.announce import context
from modtool.packs.m42.replay import replay
from modtool.packs.m42.post_kinds import PUBLIC_KINDS
from modtool.base.problems import UserError
from modtool.core.render import neutralise, render

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = [p for p in (ROOT / "examples" / "m42", ROOT / "examples" / "m42-full") if (p / "ledger.yaml").is_file()]
ROLE_WORDS = ("狼人", "预言家", "女巫", "猎人", "村民")
NIGHT_WORDS = ("救药", "毒药", "查验", "指杀", "被狼人", "非村民阵营", "被女巫", "开枪")


def post(game, kind, fmt="bbcode", **kw):
    gd = open_game(game)
    st = replay(gd)
    return render("m42", kind, fmt, context(gd, st, kind, fmt, kw.get("day"), kw.get("night")), game)


EXAMPLE = ROOT / "examples" / "m42"


def test_role_cards_tell_wolves_their_team_and_nobody_else_anything():
    text = post(EXAMPLE, "roles")
    cards = text.split("[hr]")
    assert len(cards) == 13
    wolf = next(c for c in cards if "身份通知：石宽" in c)
    assert "你的狼队同伴：王权霸业、李去浊、金人凤" in wolf
    villager = next(c for c in cards if "身份通知：白月初" in c)
    assert "狼队同伴" not in villager and "石宽" not in villager


def test_night_notices_for_witch_seer_and_wolves():
    assert "今晚被指杀的角色是：涂山苏苏" in post(EXAMPLE, "witch", night=1)
    assert "金人凤：非村民阵营" in post(EXAMPLE, "seer", night=1)
    assert "涂山苏苏 因被指杀出局" in post(EXAMPLE, "wolves", night=1)


def test_day_start_lists_exits_in_order_with_last_words():
    text = post(EXAMPLE, "day-start", day=2)
    assert "1. 涂山苏苏（第 1 夜出局）" in text
    assert "[quote]我是村民，红红姐姐是真预言家，大家跟好警长。[/quote]" in text
    assert "[b]警长[/b]：涂山红红" in text


def test_posts_that_do_not_exist_yet_are_user_errors():
    for kind, kw in (("end", {}), ("hunter", {}), ("sheriff", {}), ("day-start", {"day": 5}), ("succession", {})):
        with pytest.raises(UserError):
            post(EXAMPLE, kind, **kw)


def _prefixes(game: Path, tmp_path: Path):
    """The game folder after each event of its ledger, in order."""
    text = (game / "ledger.yaml").read_text(encoding="utf-8")
    lines = text.split("\n")
    gd = open_game(game)
    starts = [e.line for e in gd.events] + [len(lines) + 1]
    for i in range(len(gd.events)):
        cut = "\n".join(lines[: starts[i + 1] - 1]) + "\n"
        step = tmp_path / f"step{i}"
        step.mkdir()
        (step / "ledger.yaml").write_text(cut, encoding="utf-8")
        yield step


@pytest.mark.parametrize("game", EXAMPLES, ids=lambda p: p.name)
def test_public_posts_never_leak_roles_or_night_targets(game, tmp_path):
    rendered = 0
    for step in _prefixes(game, tmp_path):
        gd = open_game(step)
        st = replay(gd)
        secret_roles = {c.name: gd.game.role_name(c.role) for c in gd.roster if c.name in st.alive}
        night_names = set()
        for rec in st.nights.values():
            night_names |= {rec.saved, *(c["target"] for c in rec.checks)}
            if rec.kill and not any(e.name == rec.kill for e in rec.exits):
                night_names.add(rec.kill)
        night_names = {n for n in night_names if n and n in st.alive}
        for kind in PUBLIC_KINDS:
            kw = {"day": st.number}
            for fmt in ("bbcode", "markdown"):
                try:
                    text = render("m42", kind, fmt, context(gd, st, kind, fmt, kw["day"], None), step)
                except UserError:
                    continue  # that post does not exist at this step
                rendered += 1
                if kind == "end":
                    continue  # the game is over: everything is revealed
                for words in st.last_words.values():  # what players wrote themselves may say anything
                    for w in words:
                        text = text.replace(neutralise(w["text"], fmt), "")
                for word in NIGHT_WORDS:
                    assert word not in text, (step, kind, word)
                for word in ROLE_WORDS:
                    assert word not in text, (step, kind, word)
                for name, role in secret_roles.items():
                    assert f"{name}（{role}" not in text and f"{name}：{role}" not in text
        shutil.rmtree(step)
    assert rendered > 0
