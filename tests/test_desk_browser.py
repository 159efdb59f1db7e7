"""modtool serve, driven in a real headless Chromium (tests/support/cdp.py).

M42: the day view of the example; a paste's preview listing its new, edited
and outside-the-day posts; a page of posts pasted, previewed and imported,
and the tally changed; a card given through the form and found in the
ledger; a card given by the command line meanwhile shown within seconds; a
post copied. 甄嬛: the grimoire page inside the day view, an answer refused
by the form as the command refuses it. Mafia: the vote count with its
majority, a deadline recorded through the form. Each view is screenshotted
into examples/desk/ (README shows them) when MODTOOL_DESK_SHOTS is set.

Where no browser can be had these skip, saying why; CI sets
MODTOOL_REQUIRE_BROWSER=1 (.ci/run installs Chromium), where a missing
browser is a failure.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.desk import chromium_page, copy_example, serving_as_typed, shot

page = pytest.fixture(scope="module")(chromium_page)


def fill(page, form: str, values: dict) -> None:
    """Choose the form of ``form``, fill its fields as a person would and send it
    (the answer box emptied first, so a wait sees this form's answer)."""
    page.js("document.getElementById('result-text').textContent = ''; document.getElementById('result').className = 'panel'")
    page.js(f"""(() => {{ const c = document.getElementById('form-choice'); c.value = {json.dumps(form)};
        c.dispatchEvent(new Event('change')); }})()""")
    for name, value in values.items():
        page.js(f"""(() => {{ const el = document.querySelector('form[data-command={json.dumps(form)}] [name={json.dumps(name)}]');
            if (el.type === 'checkbox') el.checked = {json.dumps(bool(value))}; else el.value = {json.dumps(value)}; }})()""")
    page.js(f"document.querySelector('form[data-command={json.dumps(form)}] button[type=submit]').click()")


def modtool(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "modtool", *args], capture_output=True, text=True, timeout=120)


PASTED = """#24 月初不是白 2026-11-05 21:10
投票对象：涂山红红
投票理由：<b>最后一票</b>
"""


# Day 1's last vote post edited on the forum since, and a post timed after day 1 closed.
EDITED_AND_LATE = ("#14 秦兰兰 2026-11-03 20:30\n投票对象：东方秦兰\n投票理由：改了主意\n\n"
                   "#15 秦兰兰 2026-11-04 12:00\n<b>晚了</b>\n投票对象：石宽\n")


def test_m42_paste_preview_import_card_copy_and_the_cli_meanwhile(page, tmp_path, monkeypatch):
    folder = copy_example("m42", tmp_path)
    with serving_as_typed(folder, monkeypatch) as (desk, url):
        page.goto(url + "/")
        assert "第 2 天投票" in page.js("document.getElementById('panel-tally').innerText")
        assert "涂山红红" in page.js("document.getElementById('panel-status').innerText")
        page.wait("document.querySelector('#panel-chart img') && document.querySelector('#panel-chart img').complete")
        shot(page, "m42-day.png")

        # A preview lists the new posts, the edited ones and those outside the day, one row each, as text.
        before = (folder / "ledger.yaml").read_bytes()
        page.js(f"document.getElementById('paste-text').value = {json.dumps(EDITED_AND_LATE)}")
        page.js("document.getElementById('paste-thread').value = 'vote'; document.getElementById('paste-day').value = '1'")
        page.js("document.getElementById('paste-preview').click()")
        page.wait("!document.getElementById('paste-result').hidden && !document.getElementById('paste-new').hidden")
        rows = {key: page.js(f"[...document.querySelectorAll('#paste-{key} li')].map((li) => li.textContent)")
                for key in ("new", "edited", "outside")}
        assert rows == {"new": ["15楼 · 秦兰兰 · 2026-11-04 12:00 · <b>晚了</b>"],
                        "edited": ["14楼 · 秦兰兰 · 2026-11-03 20:30 · 投票对象：东方秦兰"],
                        "outside": ["15楼 · 秦兰兰 · 2026-11-04 12:00 · 第 1 天：2026-11-02 10:00 至 2026-11-03 21:00"]}, rows
        assert page.js("document.querySelector('#paste-new h3').innerText").startswith("新帖")
        assert page.js("document.querySelector('#paste-lists b') === null")  # player text, never markup
        assert "将导入 1 帖" in page.js("document.getElementById('paste-said').innerText")
        assert (folder / "ledger.yaml").read_bytes() == before

        # Paste a page of posts: preview first, nothing written (the answer box emptied first).
        page.js("document.getElementById('paste-result').hidden = true; document.getElementById('paste-after').textContent = ''")
        page.js(f"document.getElementById('paste-text').value = {json.dumps(PASTED)}")
        page.js("document.getElementById('paste-thread').value = 'vote'; document.getElementById('paste-day').value = '2'")
        page.js("document.getElementById('paste-preview').click()")
        page.wait("!document.getElementById('paste-result').hidden && document.getElementById('paste-after').innerText")
        assert "将导入 1 帖" in page.js("document.getElementById('paste-said').innerText")
        assert "24楼" in page.js("document.getElementById('paste-after').innerText")
        # A fresh preview's lists are its own: no edited post; 24楼 came after day 2 closed (21:00).
        assert page.js("document.getElementById('paste-edited').hidden") is True
        assert page.js("[...document.querySelectorAll('#paste-outside li')].map((li) => li.textContent)") == \
            ["24楼 · 月初不是白 · 2026-11-05 21:10 · 第 2 天：2026-11-04 10:00 至 2026-11-05 21:00"]
        assert (folder / "ledger.yaml").read_bytes() == before
        assert "24楼" not in page.js("document.getElementById('panel-tally').innerText")
        shot(page, "m42-paste.png")
        page.js("document.getElementById('paste-import').click()")
        page.wait("document.getElementById('panel-tally').innerText.includes('24楼')")
        assert "已导入 1 帖" in page.js("document.getElementById('result-text').innerText")
        # Player text is escaped, never markup on the page.
        assert page.js("document.querySelector('#panel-tally b') === null")

        # A card through the form: in the ledger, and on the page.
        fill(page, "card", {"character": "石宽", "color": "yellow", "reason": "情绪发言", "at": "2026-11-05 20:10"})
        page.wait("document.getElementById('result-text').innerText.length > 0")
        events = [e for e in _events(folder) if e["type"] == "card"]
        assert events and events[-1]["character"] == "石宽", page.js("document.getElementById('result-text').innerText")
        page.wait("document.getElementById('panel-cards').innerText.includes('石宽')")
        # A refused write: the refusal shown, nothing written.
        before = (folder / "ledger.yaml").read_bytes()
        fill(page, "card", {"character": "石宽宽宽", "color": "yellow", "reason": "x", "at": "2026-11-05 20:11"})
        page.wait("document.getElementById('result').classList.contains('refused')")
        assert "错误" in page.js("document.getElementById('result-text').innerText")
        assert (folder / "ledger.yaml").read_bytes() == before

        # The command line meanwhile: the page shows its change within seconds.
        done = modtool("card", str(folder), "金人凤", "yellow", "--reason", "刷屏", "--at", "2026-11-05 20:20")
        assert done.returncode == 0, done.stderr
        page.wait("document.getElementById('panel-cards').innerText.includes('金人凤')", timeout=10)

        # Undo through the form takes back the CLI's card.
        fill(page, "undo", {})
        page.wait("!document.getElementById('panel-cards').innerText.includes('刷屏')", timeout=10)

        # Posts ready to copy.
        page.goto(url + "/g/m42/posts")
        text = page.js("document.getElementById('text-vote').textContent")
        assert text.startswith("[b]M42")
        page.call("Browser.grantPermissions", permissions=["clipboardReadWrite", "clipboardSanitizedWrite"], origin=url)
        page.js("document.querySelector('button.copy[data-for=\"text-vote\"]').click()")
        page.wait("document.body.dataset.copied === 'text-vote'")
        assert page.js("navigator.clipboard.readText()") == text
        shot(page, "m42-posts.png")


def _events(folder: Path) -> list[dict]:
    from modtool import api

    return list(api.open_game(folder).events())


def test_zhenhuan_grimoire_and_a_refused_answer(page, tmp_path, monkeypatch):
    folder = copy_example("zhenhuan", tmp_path)
    with serving_as_typed(folder, monkeypatch) as (desk, url):
        page.goto(url + "/")
        assert "魔典" in page.js("document.getElementById('panel-status').innerText")
        page.wait("""(() => { const f = document.querySelector('#panel-grimoire iframe');
            return f && f.contentDocument && f.contentDocument.querySelectorAll('.seat').length === 10; })()""")
        shot(page, "zhenhuan-day.png")
        before = (folder / "ledger.yaml").read_bytes()
        fill(page, "answer", {"key": "没有这个问题", "value": "1"})
        page.wait("document.getElementById('result').classList.contains('refused')")
        assert (folder / "ledger.yaml").read_bytes() == before


def test_mafia_vote_count_with_majority_and_a_deadline(page, tmp_path, monkeypatch):
    folder = copy_example("mafia", tmp_path)
    with serving_as_typed(folder, monkeypatch) as (desk, url):
        page.goto(url + "/")
        assert page.js("document.documentElement.lang") == "en"
        tally = page.js("document.getElementById('panel-tally').innerText")
        assert "7 to lynch" in tally and "Not voting (7)" in tally
        assert "Vote count" in page.js("document.getElementById('panel-tally').innerText")
        fill(page, "deadline", {"day": "1", "at": "2011-05-03 18:00"})
        page.wait("document.getElementById('result-text').innerText.length > 0")
        assert page.js("document.getElementById('result').classList.contains('refused')") is False, \
            page.js("document.getElementById('result-text').innerText")
        page.wait("document.getElementById('panel-status').innerText.includes('2011-05-03 18:00')")
        assert any(e["type"] == "close" for e in _events(folder))
        page.wait("document.querySelector('#panel-chart img') && document.querySelector('#panel-chart img').complete")
        shot(page, "mafia-day.png")
