"""modtool serve's guards, by plain HTTP requests (no browser): loopback by
default, the Host header (DNS rebinding), the page's token on every write
(CSRF), a cross-site Origin, no path from a request, player text escaped, a
refused write writing nothing, and the command's refusal of a non-loopback
host without --allow-remote."""

from __future__ import annotations

import http.client
import json
import re
from pathlib import Path

import pytest

import modtool.desk.server as desk_module
from modtool.base.problems import Problem, UserError

from modtool.desk.server import Desk, is_loopback
from tests.support.desk import copy_example, serving
from tests.support.values import run_main


def request(url: str, method: str, path: str, *, host: str | None = None, body: dict | None = None,
            headers: dict | None = None) -> tuple[int, str]:
    port = int(url.rsplit(":", 1)[1])
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    sent = {"Host": host if host is not None else f"127.0.0.1:{port}", **(headers or {})}
    data = json.dumps(body).encode() if body is not None else None
    if data is not None:
        sent["Content-Type"] = "application/json"
    conn.request(method, path, body=data, headers=sent)
    reply = conn.getresponse()
    return reply.status, reply.read().decode("utf-8", "replace")


@pytest.fixture
def m42(tmp_path):
    folder = copy_example("m42", tmp_path)
    with serving(folder) as (desk, url):
        yield folder, desk, url


def test_loopback_names_only():
    assert is_loopback("127.0.0.1") and is_loopback("::1") and is_loopback("localhost")
    assert not is_loopback("0.0.0.0") and not is_loopback("192.168.1.5") and not is_loopback("evil.example")


def test_a_foreign_host_header_is_refused(m42):
    folder, desk, url = m42
    assert request(url, "GET", "/g/m42/")[0] == 200
    assert request(url, "GET", "/g/m42/", host=f"localhost:{desk.port}")[0] == 200
    for host in (f"evil.example:{desk.port}", "127.0.0.1", f"127.0.0.1:{desk.port + 1}", ""):
        status, text = request(url, "GET", "/g/m42/", host=host)
        assert (status, "DNS rebinding" in text) == (403, True), host
    status, _ = request(url, "POST", "/g/m42/write/undo", host=f"evil.example:{desk.port}", body={},
                        headers={"X-Modtool-Token": desk.token})
    assert status == 403


def test_every_write_needs_the_page_token_and_a_same_site_origin(m42):
    folder, desk, url = m42
    before = (folder / "ledger.yaml").read_bytes()
    page = request(url, "GET", "/g/m42/")[1]
    assert re.search(r'name="modtool-token" content="([^"]+)"', page).group(1) == desk.token
    card = {"character": "石宽", "color": "yellow", "reason": "刷屏", "at": "2026-11-05 20:10"}
    for headers in ({}, {"X-Modtool-Token": "guess"}, {"X-Modtool-Token": desk.token, "Origin": "http://evil.example"}):
        status, text = request(url, "POST", "/g/m42/write/card", body=card, headers=headers)
        assert status == 403, headers
    assert (folder / "ledger.yaml").read_bytes() == before
    status, text = request(url, "POST", "/g/m42/write/card", body=card,
                           headers={"X-Modtool-Token": desk.token, "Origin": url})
    assert status == 200 and json.loads(text)["written"] is True
    assert (folder / "ledger.yaml").read_bytes() != before


def test_a_refused_write_writes_nothing_and_says_why(m42):
    folder, desk, url = m42
    before = (folder / "ledger.yaml").read_bytes()
    for body in ({"character": "没有这个人", "color": "yellow", "reason": "x", "at": "2026-11-05 20:10"},
                 {"character": "石宽", "color": "yellow", "reason": "x", "at": "1999-01-01 10:00"},
                 {"character": "石宽", "color": "yellow", "reason": "x", "floor": "abc"},
                 {"color": "yellow", "reason": "x"}):
        status, text = request(url, "POST", "/g/m42/write/card", body=body, headers={"X-Modtool-Token": desk.token})
        answer = json.loads(text)
        assert status == 200 and answer["ok"] is False and answer["written"] is False, body
        assert answer["problems"] and answer["problems"][0].startswith("错误："), answer
    status, text = request(url, "POST", "/g/m42/write/nosuch", body={}, headers={"X-Modtool-Token": desk.token})
    assert json.loads(text)["ok"] is False
    assert (folder / "ledger.yaml").read_bytes() == before


def test_the_form_refuses_what_the_command_refuses(m42, capsys):
    """The same refusal, word for word, as the command line's for the same values."""
    folder, desk, url = m42
    body = {"day": "1", "at": "2026-11-02 11:00"}
    status, text = request(url, "POST", "/g/m42/write/close", body=body, headers={"X-Modtool-Token": desk.token})
    answer = json.loads(text)
    capsys.readouterr()
    code = run_main(["close", str(folder), "--day", "1", "--at", "2026-11-02 11:00"])
    err = capsys.readouterr().err
    assert answer["written"] is (code == 0)
    if code:
        assert [p.replace(str(folder), "") for p in answer["problems"]] == [l.replace(str(folder), "") for l in err.splitlines() if l]


def test_no_path_comes_from_a_request(m42, tmp_path):
    folder, desk, url = m42
    (tmp_path / "secret.txt").write_text("secret")
    for path in ("/static/../../secret.txt", "/static/%2e%2e/server.py", "/g/..%2fsecret.txt/", "/g/m42/../../secret.txt",
                 "/static/server.py", "/g/nosuch/"):
        status, text = request(url, "GET", path)
        assert status == 404 and "secret" not in text, path
    status, text = request(url, "POST", "/g/m42/import", body={"id": "../../ledger", "thread": "vote", "day": 2},
                           headers={"X-Modtool-Token": desk.token})
    assert json.loads(text)["written"] is False


def test_player_text_is_escaped_in_html(tmp_path):
    """Whatever a library answer holds (a post's text, a name, a refusal) reaches the
    page as text: the templates autoescape, and the page's own script never makes
    HTML of an answer (it sets ``textContent``)."""
    desk = Desk(copy_example("m42", tmp_path))
    hostile = "<script>alert(1)</script><img src=x onerror=alert(2)>"
    glance = {"panels": [{"key": "tally", "title": hostile, "text": hostile}, {"key": "x", "title": "x", "error": [hostile]}],
              "problems": [hostile], "chart": False, "chart_missing": [hostile], "grimoire": False}
    forms = [{"name": "card", "title": hostile, "help": hostile, "fields": [{"name": "n", "label": hostile, "type": "text", "choices": [],
                                                           "many": False, "required": True, "min": None, "default": hostile,
                                                           "checked": False, "names": "character", "flag": "--at"}]}]
    page = desk.render("day.html.j2", "m42", stamp="1", page="day", glance=glance, forms=forms, threads=("vote",),
                       names=(hostile,))
    assert "<script>alert" not in page and "<img src=x" not in page
    assert page.count("&lt;script&gt;alert(1)&lt;/script&gt;") >= 7
    posts = [{"kind": "roles", "about": hostile, "sent": False, "text": hostile,
              "parts": [{"to": hostile, "text": hostile}]},
             {"kind": "witch", "about": hostile, "sent": True, "parts": []}]
    chosen = {"fields": [{"name": "day", "label": hostile, "value": hostile}], "format": "bbcode",
              "formats": ["bbcode"], "problems": [hostile]}
    page = desk.render("posts.html.j2", "m42", stamp="1", page="posts", posts=posts, chosen=chosen)
    assert "<script>alert" not in page and "<img src=x" not in page
    # 2 abouts twice (index, heading), text, to, part; the day's label, value and a refusal
    assert page.count("&lt;script&gt;alert(1)&lt;/script&gt;") == 10
    script = (Path(desk_module.__file__).parent / "static" / "desk.js").read_text(encoding="utf-8")
    assert "innerHTML" not in script and "insertAdjacentHTML" not in script


def test_the_preview_writes_nothing_to_the_ledger(m42):
    folder, desk, url = m42
    before = (folder / "ledger.yaml").read_bytes()
    paste = "#24 月初不是白 2026-11-05 21:10\n投票对象：涂山红红\n"
    status, text = request(url, "POST", "/g/m42/preview", body={"text": paste, "thread": "vote", "day": 2},
                           headers={"X-Modtool-Token": desk.token})
    answer = json.loads(text)
    assert "将导入 1 帖" in answer["text"] and "24楼" in answer["after"]
    assert (folder / "ledger.yaml").read_bytes() == before
    # What the desk wrote lies inside the game folder.
    assert (folder / ".modtool" / "desk" / "pasted" / f"{answer['id']}.txt").is_file()


# Day 1's last vote post edited on the forum since, and a post timed after day 1 closed.
EDITED_AND_LATE = ("#14 秦兰兰 2026-11-03 20:30\n投票对象：东方秦兰\n投票理由：改了主意\n\n"
                   "#15 秦兰兰 2026-11-04 12:00\n<b>晚了</b>\n投票对象：石宽\n")


def test_the_preview_lists_new_edited_and_outside_the_day_posts(m42, tmp_path):
    folder, desk, url = m42
    status, text = request(url, "POST", "/g/m42/preview", body={"text": EDITED_AND_LATE, "thread": "vote", "day": 1},
                           headers={"X-Modtool-Token": desk.token})
    data = json.loads(text)["data"]
    assert status == 200 and data["dry_run"] is True
    assert [(p["floor"], p["author"], p["time"], p["first_line"]) for p in data["new"]] == \
        [(15, "秦兰兰", "2026-11-04 12:00", "<b>晚了</b>")]
    assert [(p["floor"], p["recorded"]) for p in data["edited"]] == [(14, True)]
    assert [(p["floor"], p["start"], p["end"]) for p in data["outside"]] == [(15, "2026-11-02 10:00", "2026-11-03 21:00")]
    # The lists' headings, in the game's words: Chinese for M42, English for mafia.
    page = request(url, "GET", "/g/m42/")[1]
    assert all(h in page for h in ("新帖", "编辑过的帖子", "不在这一天的帖子"))
    with serving(copy_example("mafia", tmp_path)) as (_, mafia_url):
        page = request(mafia_url, "GET", "/g/mafia/")[1]
    assert all(h in page for h in ("New posts", "Edited posts", "Posts outside the day"))


def test_serve_refuses_a_network_host_without_allow_remote(tmp_path, capsys):
    folder = copy_example("m42", tmp_path)
    assert run_main(["serve", str(folder), "--host", "0.0.0.0"]) == 1
    assert "--allow-remote" in capsys.readouterr().err


def test_a_folder_of_games(tmp_path):
    copy_example("m42", tmp_path)
    copy_example("mafia", tmp_path)
    with serving(tmp_path) as (desk, url):
        assert set(desk.games) == {"m42", "mafia"}
        status, page = request(url, "GET", "/")
        assert status == 200 and "/g/m42/" in page and "/g/mafia/" in page
        assert "7 to lynch" in request(url, "GET", "/g/mafia/")[1]


def test_a_games_own_queries_are_titled_in_its_directors_words():
    """M42's panels read 每个角色的牌 …, not the query ids cards/schedule/flags."""
    from modtool import api
    from modtool.desk.pages import glance

    titles = [p["title"] for p in glance(api.open_game(Path(__file__).resolve().parents[1] / "examples" / "m42"))["panels"]]
    assert titles[2:] == ["每个角色的牌", "潜水观察", "讨论日的时间表", "需要导演留意的帖子"], titles


def test_without_the_chart_extra_the_day_says_how_to_install_it_not_a_broken_image(tmp_path, monkeypatch):
    from modtool.desk import pages
    from modtool.desk.server import Desk
    from tests.support.desk import copy_example

    def missing(*args, **kwargs):
        raise UserError(Problem("modtool chart", "缺少绘图组件：pip install 'modtool[chart]'"))

    monkeypatch.setattr(pages, "require_chart", missing)
    desk = Desk(copy_example("m42", tmp_path), "127.0.0.1", 0)
    page = desk.day_page(next(iter(desk.games)))
    assert "chart.svg" not in page and "pip install &#39;modtool[chart]&#39;" in page


def test_the_chart_is_drawn_once_a_ledger_state(tmp_path, monkeypatch):
    """A day view asks for chart.svg each time it loads: drawn again only after the ledger changed."""
    pytest.importorskip("matplotlib")
    from modtool import api
    from modtool.desk.server import Desk
    from tests.support.desk import copy_example

    folder = copy_example("m42", tmp_path)
    desk = Desk(folder, "127.0.0.1", 0)
    name = next(iter(desk.games))
    drawn = []
    real = api.Game.chart
    monkeypatch.setattr(api.Game, "chart", lambda self, *a, **k: drawn.append(1) or real(self, *a, **k))
    first = desk.chart_svg(name)
    assert desk.chart_svg(name) == first and len(drawn) == 1
    with open(folder / "ledger.yaml", "a", encoding="utf-8") as f:
        f.write("# 导演的备注\n")  # any change of the ledger
    desk.chart_svg(name)
    assert len(drawn) == 2


def test_an_ipv6_loopback_host_is_bound_and_its_host_header_accepted(tmp_path):
    """--host ::1 was taken as loopback but bound on an IPv4 socket (it failed at start)."""
    import socket
    import threading

    from modtool.desk.server import make_server

    try:
        probe = socket.socket(socket.AF_INET6)
        probe.bind(("::1", 0))
        probe.close()
    except OSError:
        pytest.skip("no IPv6 loopback here")
    desk = Desk(copy_example("m42", tmp_path), "::1", 0)
    server = make_server(desk)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        conn = http.client.HTTPConnection("::1", desk.port, timeout=10)
        conn.request("GET", "/g/m42/stamp", headers={"Host": f"[::1]:{desk.port}"})
        assert conn.getresponse().status == 200
        conn = http.client.HTTPConnection("::1", desk.port, timeout=10)
        conn.request("GET", "/g/m42/stamp", headers={"Host": f"evil.example:{desk.port}"})
        assert conn.getresponse().status == 403
    finally:
        server.shutdown()
        server.server_close()
