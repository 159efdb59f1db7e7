"""The 甄嬛 grimoire page (modtool grimoire), opened in a real headless Chromium.

At 5, 12 and 20 seats every seat token must be on screen and no two may
overlap; the public page must hold no character, alignment or reminder of
a living seat. Where no browser can be had the browser tests skip, saying
why; CI sets MODTOOL_REQUIRE_BROWSER=1 (.ci/run installs Chromium), where a
missing browser is a failure.
"""

from __future__ import annotations

import json
import math
import os
import re
from pathlib import Path

import pytest

from modtool.core import browser
from modtool.packs.zhenhuan.grimoire_page import CIRCLE, places
from tests.support.values import run_main

WINDOW = (1280, 1000)  # a laptop's window: about 1280 × 860 of page inside it

_LAYOUT = """<script>
const seats = [...document.querySelectorAll('.seat')].map(e => {
  const b = e.getBoundingClientRect();
  return {seat: e.dataset.seat, left: b.left, top: b.top, right: b.right, bottom: b.bottom,
          radius: getComputedStyle(e).borderTopLeftRadius, text: e.innerText};
});
const out = document.createElement('pre');
out.id = 'layout';
out.textContent = JSON.stringify({seats, width: window.innerWidth, height: window.innerHeight});
document.body.appendChild(out);
</script>"""


@pytest.fixture(scope="module")
def chromium():
    found = browser.find()
    if found is None:
        if os.environ.get("MODTOOL_REQUIRE_BROWSER"):
            pytest.fail("MODTOOL_REQUIRE_BROWSER is set but no Chromium was found (.ci/apt-packages.txt)")
        pytest.skip("no headless Chromium on this machine (Debian: apt install chromium); CI installs it")
    return found


def _game(tmp_path: Path, n: int) -> Path:
    g = tmp_path / f"zh{n}"
    assert run_main(["new", str(g), "--game", "zhenhuan", "--players", str(n), "--seed", "11"]) == 0
    return g


def _layout(page: Path) -> dict:
    probe = page.with_name(page.stem + "-probe.html")
    probe.write_text(page.read_text(encoding="utf-8").replace("</body>", _LAYOUT + "</body>"), encoding="utf-8")
    dom = browser.dom(probe, *WINDOW)
    m = re.search(r'<pre id="layout">(.*?)</pre>', dom, re.S)
    assert m, dom[-2000:]
    import html

    return json.loads(html.unescape(m.group(1)))


# 12 seats in the default run; the smallest and the largest table in the slow tier (CI runs both).
@pytest.mark.parametrize("n", [pytest.param(5, marks=pytest.mark.slow), 12, pytest.param(20, marks=pytest.mark.slow)])
def test_every_seat_is_on_screen_and_none_overlap_in_chromium(chromium, tmp_path, capsys, n):
    g = _game(tmp_path, n)
    for public in (False, True):
        page = tmp_path / f"page-{n}-{public}.html"
        assert run_main(["grimoire", str(g), "-o", str(page), *(["--public"] if public else [])]) == 0
        got = _layout(page)
        seats = got["seats"]
        assert [int(s["seat"]) for s in seats] == list(range(1, n + 1))
        for s in seats:  # on screen: inside the window, not scrolled to
            assert 0 <= s["left"] and s["right"] <= got["width"] and 0 <= s["top"] and s["bottom"] <= got["height"], s
            assert s["radius"] == "50%" or float(s["radius"].rstrip("px")) >= (s["right"] - s["left"]) / 2 - 1
            assert f"{s['seat']}号" in s["text"]
        for i, a in enumerate(seats):  # round tokens: centres at least the two radii apart
            for b in seats[i + 1:]:
                ca = ((a["left"] + a["right"]) / 2, (a["top"] + a["bottom"]) / 2)
                cb = ((b["left"] + b["right"]) / 2, (b["top"] + b["bottom"]) / 2)
                reach = (a["right"] - a["left"] + b["right"] - b["left"]) / 4
                assert math.dist(ca, cb) >= reach + 2, (a["seat"], b["seat"])


def test_the_public_page_holds_no_character_alignment_or_reminder_of_a_living_seat(tmp_path, capsys):
    """No browser needed: the page's own bytes are checked (what a player could read in its source)."""
    from modtool.core.gamefile import open_game
    from modtool.packs.zhenhuan.game import replay
    from modtool.packs.zhenhuan.grimoire_view import status_json

    for n in (5, 12, 20):
        g = _game(tmp_path, n)
        page = tmp_path / f"public-{n}.html"
        assert run_main(["grimoire", str(g), "-o", str(page), "--public"]) == 0
        text = page.read_text(encoding="utf-8")
        gd = open_game(g)
        status = status_json(gd, replay(gd)[0])
        body = text.replace(gd.game.name, "")  # the script's name (血染甄嬛传) is not a seat's character
        for seat in status["seats"]:
            assert seat["player"] in body
            if seat["alive"]:
                assert seat["character_name"] not in body, (n, seat)
                assert seat["character"] not in body, (n, seat)
        for word in ("善良", "邪恶", "伪装", "唤醒", "醉酒", "中毒"):
            assert word not in body, word
        private = tmp_path / f"private-{n}.html"
        assert run_main(["grimoire", str(g), "-o", str(private)]) == 0
        assert all(seat["character_name"] in private.read_text(encoding="utf-8") for seat in status["seats"])


def test_seat_places_keep_round_tokens_apart_at_any_count():
    for n in range(3, 31):
        ps = places(n)
        for i, a in enumerate(ps):
            assert 0 <= a.left and a.left + a.size <= CIRCLE and 0 <= a.top and a.top + a.size <= CIRCLE
            b = ps[(i + 1) % n]
            gap = math.dist((a.left, a.top), (b.left, b.top)) - a.size
            assert gap > 5, (n, i, gap)


def test_grimoire_png_through_the_browser(chromium, tmp_path, capsys):
    from PIL import Image

    g = _game(tmp_path, 12)
    page, png = tmp_path / "g.html", tmp_path / "g.png"
    assert run_main(["grimoire", str(g), "-o", str(page), "--png", str(png)]) == 0
    with Image.open(png) as img:
        assert img.format == "PNG" and img.width == CIRCLE + 580 and 800 <= img.height <= 2400


def test_the_page_is_standalone_and_escapes_player_text(tmp_path, capsys):
    g = _game(tmp_path, 5)
    ledger = g / "ledger.yaml"
    text = ledger.read_text(encoding="utf-8")
    ledger.write_text(text.replace("玩家1", "<script>alert(1)</script>", 1), encoding="utf-8")
    page = tmp_path / "g.html"
    assert run_main(["grimoire", str(g), "-o", str(page)]) == 0
    html = page.read_text(encoding="utf-8")
    assert "<script>alert(1)</script>" not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert not re.search(r"""(?:src|href)=["']?(?:https?:)?//""", html)  # nothing fetched from a network
    assert "<svg" in html and "<style>" in html


def test_wrong_file_names_and_a_missing_browser_are_refused_by_name(tmp_path, capsys, monkeypatch):
    g = _game(tmp_path, 5)
    capsys.readouterr()
    assert run_main(["grimoire", str(g), "-o", str(tmp_path / "x.png")]) == 1
    assert ".html" in capsys.readouterr().err
    monkeypatch.setenv(browser.ENV, str(tmp_path / "no-such-browser"))
    assert run_main(["grimoire", str(g), "-o", str(tmp_path / "x.html"), "--png", str(tmp_path / "x.png")]) == 1
    err = capsys.readouterr().err
    assert "Chromium" in err and "Traceback" not in err
    assert (tmp_path / "x.html").is_file() and not (tmp_path / "x.png").exists()


def test_a_seat_that_died_during_the_day_is_drawn_dead_at_once(tmp_path):
    """ZH-R11: 5号 nominated under 一丈红 and died on day 1; the grimoire applies a day's
    deaths at dusk, but the town saw this one at once, and so does the page."""
    import shutil

    from modtool.core.gamefile import open_game
    from modtool.packs.zhenhuan.grimoire_page import context
    from modtool.packs.zhenhuan.history import board_at

    g = tmp_path / "zh"
    shutil.copytree(Path(__file__).resolve().parent.parent / "examples" / "zhenhuan", g,
                    ignore=shutil.ignore_patterns(".modtool", "*.lock", "*.png"))
    gd = open_game(g)
    board = board_at(gd, "day", 1)
    assert board.phase == "day" and board.seat(5).alive  # the engine's board, before dusk
    page = context(gd, board, public=True)
    assert [s["alive"] for s in page["seats"] if s["seat"] == 5] == [False]
    assert page["alive"] == sum(1 for s in board.seats if s.alive) - 1


def test_a_browser_that_is_not_one_is_named(tmp_path, capsys, monkeypatch):
    g = _game(tmp_path, 5)
    monkeypatch.setenv(browser.ENV, "/etc/passwd")
    capsys.readouterr()
    assert run_main(["grimoire", str(g), "-o", str(tmp_path / "x.html"), "--png", str(tmp_path / "x.png")]) == 1
    assert "无法运行浏览器" in capsys.readouterr().err
    fake = tmp_path / "fake.sh"
    fake.write_text('#!/bin/sh\nfor a in "$@"; do case $a in --screenshot=*) echo junk > "${a#--screenshot=}";; esac; done\n')
    fake.chmod(0o755)
    monkeypatch.setenv(browser.ENV, str(fake))
    assert run_main(["grimoire", str(g), "-o", str(tmp_path / "x.html"), "--png", str(tmp_path / "x.png")]) == 1
    assert "不是 PNG" in capsys.readouterr().err and not (tmp_path / "x.png").exists()


def test_zh_r1_a_game_with_travellers_passes_check_as_new_made_it(tmp_path, capsys):
    g = _game(tmp_path, 20)  # beyond 15 players the extra seats are travellers (ZH-R1)
    assert "traveller" in (g / "ledger.yaml").read_text(encoding="utf-8")
    capsys.readouterr()
    assert run_main(["check", str(g)]) == 0, capsys.readouterr().err


def test_seats_edited_by_hand_into_another_table_are_named_not_replayed(tmp_path, capsys):
    """A seat written "5", 0 or 99 in the header would crash the engine or replay another game."""
    import shutil

    src = Path(__file__).resolve().parent.parent / "examples" / "zhenhuan"
    for bad in ('"5"', "0", "99"):
        g = tmp_path / f"zh{bad.strip(chr(34))}"
        shutil.copytree(src, g, ignore=shutil.ignore_patterns(".modtool", "*.lock", "*.png"))
        text = (g / "ledger.yaml").read_text(encoding="utf-8")
        assert "{seat: 5," in text
        (g / "ledger.yaml").write_text(text.replace("{seat: 5,", "{seat: " + bad + ",", 1), encoding="utf-8")
        for argv in (["status", str(g)], ["check", str(g)], ["grimoire", str(g), "-o", str(tmp_path / "x.html")]):
            capsys.readouterr()
            assert run_main(argv) == 1, (bad, argv)
            err = capsys.readouterr().err
            assert "seats → 第 5 项的 seat 应是数字 5" in err and "内部错误" not in err, (bad, argv, err)
