"""The desk's posts page in headless Chromium (tests/support/cdp.py): a role card
copied for one character alone, and M42's witch notice sent from the page (the
time recorded, the notice shown to copy, and still shown after the page redraws
from the ledger it changed). Screenshot: examples/desk/m42-notices.png."""

from __future__ import annotations

from modtool import api
import pytest

from tests.support.desk import chromium_page, copy_example, serving_as_typed, shot
from tests.test_desk_posts import _night_two


page = pytest.fixture(scope="module")(chromium_page)


def test_one_characters_card_is_copied_and_the_witch_notice_is_sent_from_the_page(page, tmp_path, monkeypatch):
    folder = copy_example("m42", tmp_path)
    _night_two(folder)
    with serving_as_typed(folder, monkeypatch) as (desk, url):
        page.goto(url + "/g/m42/posts")
        page.call("Browser.grantPermissions", permissions=["clipboardReadWrite", "clipboardSanitizedWrite"], origin=url)
        heads = page.js("[...document.querySelectorAll('#post-roles .part h3')].map(h => h.innerText)")
        assert len(heads) == 13 and heads[12].startswith("金人凤（发给 金凤凰）")
        # Another day's posts, chosen on the page (a GET form: the page's policy lets it go to the desk only).
        page.js("document.querySelector('form.post-options input[name=day]').value = '1'")
        page.js("document.querySelector('form.post-options button[type=submit]').click()")
        page.wait("location.search.includes('day=1') && document.getElementById('text-vote')"
                  " && document.getElementById('text-vote').textContent.includes('第 1 天投票结果')"
                  " && document.readyState === 'complete' && document.body.dataset.stamp")  # the page's script has run
        page.js("document.querySelector('#part-roles-13 button.copy').click()")
        page.wait("document.body.dataset.copied === 'text-roles-13'")
        copied = page.js("navigator.clipboard.readText()")
        assert copied.startswith("[b]M42『狐妖小红娘』 身份通知：金人凤[/b]") and "白月初" not in copied

        stamp = page.js("document.body.dataset.stamp")
        page.js("document.querySelector('#post-witch input[name=told_at]').value = '2026-11-05 21:32'")
        page.js("document.querySelector('#post-witch button[type=submit]').click()")
        page.wait("!document.querySelector('#post-witch div.sent-post').hidden")
        assert "今晚被指杀的角色是：东方月初" in page.js("document.getElementById('text-witch').innerText")
        assert "通知女巫" in page.js("document.querySelector('#post-witch pre.said').innerText")
        notice = [e for e in api.open_game(folder).events() if e["type"] == "notice"]
        assert notice and notice[-1]["at"] == "2026-11-05 21:32:00"
        # The ledger changed, so the page redraws from it: what was sent stays shown.
        page.wait(f"document.body.dataset.stamp !== {stamp!r}", timeout=10)
        assert "东方月初" in page.js("document.getElementById('text-witch').innerText")
        page.js("document.querySelector('#post-witch button.copy').click()")
        page.wait("document.body.dataset.copied === 'text-witch'")
        assert "东方月初" in page.js("navigator.clipboard.readText()")
        shot(page, "m42-notices.png", top_of="#post-roles")
