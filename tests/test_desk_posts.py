"""The desk's posts and forms beyond the day view: private posts one message a
recipient (M42's role cards, 甄嬛's night messages), each with its own copy
button; M42's witch and hunter notices sent from the page, which records when
they went out (M42-R15) as ``modtool announce`` does; ``advance`` as a form;
fields that name a character offering the roster's names. The library calls
behind them (``Game.announce``, ``Game.advance``, a post's ``parts``) are
checked against the commands' own output."""

from __future__ import annotations

import html
import http.client
import json
import re
import socket
import tempfile
import time
from pathlib import Path

import pytest

import modtool.desk.server as server
from modtool import api
from modtool.base import i18n
from modtool.desk import pages
from tests.support.desk import copy_example, serving, serving_as_typed
from tests.support.values import run_main
from tests.test_desk import request


def _night_two(folder):
    """examples/m42 moved on to night 2 with the wolves' kill submitted: the witch is due a notice."""
    game = api.open_game(folder)
    game.advance(at="2026-11-05 21:00")
    game.act("狼人", "kill", ["东方月初"], at="2026-11-05 21:30")
    return game


# --- the library --------------------------------------------------------------

def test_roles_come_one_card_a_character_each_as_the_command_gives_it_alone(tmp_path, capsys):
    folder = copy_example("m42", tmp_path)
    view = api.open_game(folder).post("roles")
    parts = view.to_json()["parts"]
    assert [p["to"] for p in parts][:2] == ["涂山苏苏（发给 苏苏今天也很努力）", "白月初（发给 月初不是白）"]
    assert len(parts) == 13
    # Each part is what `announce roles --character NAME` prints for that character.
    capsys.readouterr()
    assert run_main(["announce", str(folder), "roles", "--character", "金人凤"]) == 0
    alone = capsys.readouterr().out
    assert next(p["text"] for p in parts if p["to"].startswith("金人凤")).strip() == alone.strip()
    # A wolf's card names the other wolves; a villager's names none.
    wolf = next(p["text"] for p in parts if p["to"].startswith("金人凤"))
    assert "狼队同伴：王权霸业、石宽、李去浊" in wolf and "狼队" not in parts[0]["text"]


def test_zhenhuan_private_comes_one_message_a_seat_as_the_command_gives_it_alone(tmp_path, capsys):
    folder = copy_example("zhenhuan", tmp_path)
    parts = api.open_game(folder).post("private", night=1).to_json()["parts"]
    assert parts[0]["to"] == "1号（发给 延禧宫）" and len(parts) == 10
    capsys.readouterr()
    assert run_main(["announce", str(folder), "private", "--night", "1", "--seat", "3"]) == 0
    assert parts[2]["text"].strip() == capsys.readouterr().out.strip()


def test_a_post_to_everyone_has_no_parts(tmp_path):
    folder = copy_example("m42", tmp_path)
    assert "parts" not in api.open_game(folder).post("vote", day=2).to_json()


def test_announce_records_the_witch_notice_as_the_command_does(tmp_path):
    """M42-R15: the witch's half-hour runs from the notice, a recorded fact."""
    folder = copy_example("m42", tmp_path)
    game = _night_two(folder)
    with pytest.raises(api.UserError, match="通知发出时要记下时间"):
        game.post("witch")  # a post written nowhere cannot send it
    said = game.announce("witch", told_at="2026-11-05 21:32")
    assert "今晚被指杀的角色是：东方月初" in said.text and "11-05 22:02 前答复" in said.text
    assert said.notes == ("已记录：第 2 夜 2026-11-05 21:32 通知女巫，时限 2026-11-05 22:02（M42-R15）",)
    last = game.events()[-1]
    assert (last["type"], last["to"], last["night"], last["at"]) == ("notice", "witch", 2, "2026-11-05 21:32:00")
    assert "已在 11-05 21:32 通知女巫" in game.status().text


def test_advance_through_the_library_says_what_the_command_says(tmp_path, capsys):
    a, b = copy_example("m42", tmp_path / "a"), copy_example("m42", tmp_path / "b")
    said = api.open_game(a).advance(at="2026-11-05 21:00")
    capsys.readouterr()
    assert run_main(["advance", str(b), "--at", "2026-11-05 21:00"]) == 0
    assert said.text.replace(str(a), "GAME").strip() == capsys.readouterr().out.replace(str(b), "GAME").strip()
    assert said.text.startswith("第 2 天白天 → 第 2 夜")


# --- the desk -----------------------------------------------------------------

def test_the_posts_page_gives_each_character_its_card_with_a_copy_button(tmp_path):
    folder = copy_example("m42", tmp_path)
    with serving(folder) as (desk, url):
        status, page = request(url, "GET", "/g/m42/posts")
    assert status == 200
    section = page[page.index('id="post-roles"'):page.index('id="post-witch"')]
    copies = re.findall(r'class="copy" data-for="(text-roles-\d+)"', section)
    assert len(copies) == 13
    for target in copies:
        assert f'id="{target}"' in section
    assert "金人凤（发给 金凤凰）" in html.unescape(section)


def test_the_witch_notice_is_sent_from_the_page_and_recorded(tmp_path):
    folder = copy_example("m42", tmp_path)
    _night_two(folder)
    with serving(folder) as (desk, url):
        status, page = request(url, "GET", "/g/m42/posts")
        assert 'class="send" data-kind="witch"' in page and 'class="send" data-kind="hunter"' in page
        headers = {"X-Modtool-Token": desk.token}

        def send(**sent):
            return json.loads(request(url, "POST", "/g/m42/send", headers=headers, body=sent)[1])

        # Refused as the command refuses it: the hunter is not due a notice, a time before the
        # game began, a post that is no notice; nothing written.
        before = (folder / "ledger.yaml").read_bytes()
        for sent in ({"kind": "hunter"}, {"kind": "witch", "told_at": "2026-10-01 10:00"}, {"kind": "vote"}):
            answer = send(**sent)
            assert not answer["ok"] and not answer["written"] and answer["problems"], (sent, answer)
        assert (folder / "ledger.yaml").read_bytes() == before
        answer = send(kind="witch", told_at="2026-11-05 21:32")
        assert answer["ok"] and answer["written"]
        assert "今晚被指杀的角色是：东方月初" in answer["text"]
        assert [e for e in api.open_game(folder).events() if e["type"] == "notice"][-1]["at"] == "2026-11-05 21:32:00"
        # Sent again: the same text, nothing written, and the page is told so (not "written").
        before = (folder / "ledger.yaml").read_bytes()
        again = send(kind="witch")
        assert again["ok"] and not again["written"] and again["text"] == answer["text"]
        assert "账本里已有记录" in again["notes"][0]
        assert (folder / "ledger.yaml").read_bytes() == before
        # And it needs the page's token, as every write does.
        assert request(url, "POST", "/g/m42/send", body={"kind": "witch"})[0] == 403


def test_advance_is_a_form_and_names_are_offered(tmp_path):
    folder = copy_example("m42", tmp_path)
    game = api.open_game(folder)
    found = {f["name"]: f for f in pages.forms(game)}
    assert "advance" in found
    named = {x["name"] for f in found.values() for x in f["fields"] if x["names"] == "character"}
    assert {"character", "voter", "target", "actor", "targets"} <= named
    with serving(folder) as (desk, url):
        page = request(url, "GET", "/g/m42/")[1]
        assert 'list="names-character"' in page
        options = re.findall(r'<datalist id="names-character">(.*?)</datalist>', page, re.S)[0]
        assert re.findall(r'<option value="([^"]+)">', options) == list(game.characters())
        answer = json.loads(request(url, "POST", "/g/m42/write/advance",
                                                  headers={"X-Modtool-Token": desk.token},
                                                  body={"at": "2026-11-05 21:00"})[1])
    assert answer["written"] and answer["text"].startswith("第 2 天白天 → 第 2 夜")
    assert game.events()[-1]["type"] == "advance"


def test_the_commands_a_page_suggests_name_the_folder_as_typed(tmp_path, monkeypatch):
    """``modtool serve examples/m42``: status's next steps say ``modtool … examples/m42``, the
    command to type in that terminal, not the folder's absolute path."""
    copy_example("m42", tmp_path / "examples")
    monkeypatch.chdir(tmp_path)
    with serving(Path("examples/m42")) as (desk, url):
        page = html.unescape(request(url, "GET", "/g/m42/")[1])
    assert "modtool advance examples/m42" in page
    assert str(tmp_path) not in page


def test_the_form_list_names_each_write_in_the_directors_words():
    titles = {ex: {f["name"]: f["title"] for f in pages.forms(api.open_game(f"examples/{ex}"))}
              for ex in ("m42", "zhenhuan", "mafia")}
    assert titles["m42"]["card"] == "判罚一张牌" and titles["m42"]["withdraw"] == "撤销一张牌"
    # A stop inside brackets does not end it; a game's name before the help is left out.
    assert titles["m42"]["advance"] == "结束当前阶段（白天→结算投票；夜晚→结算行动；黎明→开始新的一天）"
    assert titles["zhenhuan"]["info"] == "记录说书人在夜里实际给出的信息（醉/毒时可以是假的）"
    assert titles["mafia"]["replace"] == "a replacement takes over a slot and its current vote"
    assert titles["mafia"]["undo"] == "Undo the latest event still in force"


def test_the_posts_page_makes_posts_for_a_chosen_day_night_and_format(tmp_path):
    folder = copy_example("m42", tmp_path)
    game = api.open_game(folder)
    with serving(folder) as (desk, url):
        default = html.unescape(request(url, "GET", "/g/m42/posts")[1])
        day1 = html.unescape(request(url, "GET", "/g/m42/posts?day=1&format=markdown")[1])
        bad = html.unescape(request(url, "GET", "/g/m42/posts?day=0&night=x")[1])
    assert game.post("vote", day=2).text.strip() in default
    assert game.post("vote", "markdown", day=1).text.strip() in day1 and "第 1 天" in day1
    assert "[b]" not in day1.split('id="text-vote"')[1].split("</pre>")[0]
    assert 'name="day" value="1"' in day1 and "<option selected>markdown</option>" in day1
    # A refused choice is said, and the posts are made as they stand.
    assert "至少是 1（现在是 0）" in bad and "「x」不是数字" in bad
    assert game.post("vote", day=2).text.strip() in bad


def test_mafia_posts_page_offers_only_what_its_announce_reads(tmp_path):
    folder = copy_example("mafia", tmp_path)
    with serving(folder) as (desk, url):
        page = request(url, "GET", "/g/mafia/posts?day=1")[1]
    assert 'name="day"' in page and 'name="night"' not in page
    assert ">Day <" in page or ">Day<" in page or "Day <input" in page


def test_a_game_folder_named_in_chinese_is_served_from_the_address_serve_prints(tmp_path):
    """The address `serve` prints redirects to the game's page: a Location header is
    Latin-1, so the name goes percent-encoded (it failed with an empty reply)."""
    folder = copy_example("m42", tmp_path)
    named = folder.rename(tmp_path / "西游局")
    with serving(named) as (desk, url):
        port = int(url.rsplit(":", 1)[1])
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        conn.request("GET", "/", headers={"Host": f"127.0.0.1:{port}"})
        reply = conn.getresponse()
        assert reply.status == 303 and reply.getheader("Location") == "/g/%E8%A5%BF%E6%B8%B8%E5%B1%80/"
        status, page = request(url, "GET", reply.getheader("Location"))
    assert status == 200 and "西游局" in page


def test_a_paste_imported_twice_is_not_said_to_be_written(tmp_path):
    folder = copy_example("m42", tmp_path)
    text = "#24 月初不是白 2026-11-05 20:10\n投票对象：涂山红红\n"
    with serving(folder) as (desk, url):
        headers = {"X-Modtool-Token": desk.token}
        shown = json.loads(request(url, "POST", "/g/m42/preview", headers=headers,
                                   body={"text": text, "thread": "vote", "day": 2})[1])
        sent = {"id": shown["id"], "thread": "vote", "day": 2}
        first = json.loads(request(url, "POST", "/g/m42/import", headers=headers, body=sent)[1])
        before = (folder / "ledger.yaml").read_bytes()
        again = json.loads(request(url, "POST", "/g/m42/import", headers=headers, body=sent)[1])
    assert first["written"] and "已导入 1 帖" in first["text"]
    assert again["ok"] and not again["written"] and "已导入 0 帖，跳过已有的 1 帖" in again["text"]
    assert (folder / "ledger.yaml").read_bytes() == before


def test_a_page_from_before_the_desk_restarted_is_told_to_reload_in_its_games_language(tmp_path):
    for example, words in (("m42", "请刷新页面再试"), ("mafia", "reload it and try again")):
        folder = copy_example(example, tmp_path)
        with serving(folder) as (desk, url):
            status, said = request(url, "POST", f"/g/{example}/write/undo", body={},
                                   headers={"X-Modtool-Token": "a token of the desk before"})
        assert status == 403 and words in said and "CSRF" in said


def test_a_form_field_shows_the_option_its_refusals_name(tmp_path):
    """A refusal worded for the command line names its option ("参数 --at: …"): the form shows
    each field's option beside its label, so the page's director can tell which field it means."""
    folder = copy_example("m42", tmp_path)
    with serving(folder) as (desk, url):
        page = request(url, "GET", "/g/m42/")[1]
    card = page[page.index('data-command="card"'):page.index('data-command="withdraw"')]
    assert '<code class="flag">--at</code>' in card and '<code class="flag">--reason</code>' in card
    assert '<code class="flag">CHARACTER</code>' in card  # a positional one as the usage line names it


def test_a_form_left_empty_is_refused_in_the_games_language_and_a_many_field_starts_empty(tmp_path):
    folder = copy_example("mafia", tmp_path)
    game = api.open_game(folder)
    answer = pages.run_write(game, "replace", {"slot": "Pine", "player": "", "post": "5"})
    assert not answer["written"] and answer["problems"] == ["Error: the replacement's name: please fill this in"], answer
    fields = {x["name"]: x for f in pages.forms(api.open_game(copy_example("zhenhuan", tmp_path))) for x in f["fields"]}
    assert fields["targets"]["default"] == ""  # not "()" (an empty tuple shown), which a typed seat was glued to


def test_mafia_hints_name_the_game_folder_not_a_placeholder(tmp_path):
    folder = copy_example("mafia", tmp_path)
    text = api.open_game(folder).status().text + api.open_game(folder).tally().text
    assert f"(modtool deadline {folder} --day 1 --at TIME)" in text
    assert "GAME_DIR" not in text and " GAME " not in text


def test_the_previews_answer_names_the_game_folder_not_the_copy_it_ran_on(tmp_path, monkeypatch):
    """The preview runs the import on a copy inside GAME/.modtool/desk/preview; its answer (甄嬛:
    the status, with next steps and ledger lines) named that copy, and a command pasted from it
    wrote to the copy and said it recorded."""
    with serving_as_typed(copy_example("zhenhuan", tmp_path), monkeypatch) as (desk, url):
        answer = json.loads(request(url, "POST", "/g/zhenhuan/preview", headers={"X-Modtool-Token": desk.token},
                                    body={"text": "#1 延禧宫 2026-11-20 20:00\n随便聊聊\n", "thread": "discussion",
                                          "day": 4})[1])
    assert answer["ok"], answer
    assert ".modtool" not in answer["after"] and "preview" not in answer["after"]
    assert "modtool announce zhenhuan end" in answer["after"] and "zhenhuan/ledger.yaml:" in answer["after"]


def test_the_desk_keeps_only_the_newest_pastes(tmp_path, monkeypatch):
    """Each paste is kept so that a preview can be imported; they went on piling up in
    GAME/.modtool/desk/pasted/ for the whole season. The newest KEEP_PASTES stay."""
    monkeypatch.setattr(server, "KEEP_PASTES", 3)
    folder = copy_example("m42", tmp_path)
    desk = server.Desk(folder, "127.0.0.1", 0)
    digests = []
    for k in range(5):  # a director's pastes come seconds apart; a file's time has a coarse tick
        digests.append(desk.paste_file("m42", f"#{30 + k} 月初不是白 2026-11-05 20:0{k}\n投票对象：涂山红红\n")[0])
        time.sleep(0.05)
    kept = sorted(p.stem for p in (folder / ".modtool" / "desk" / "pasted").glob("*.txt"))
    assert kept == sorted(digests[-3:])
    assert desk.pasted("m42", digests[-1]).is_file()


def test_a_quiet_connection_is_closed_and_a_body_that_stops_coming_runs_nothing(tmp_path, monkeypatch):
    """Each connection holds a thread: one that sends nothing, or a body that stops half way,
    is closed after the handler's timeout; nothing runs, nothing is written, no crash report."""
    monkeypatch.setattr(server.Handler, "timeout", 0.5)
    folder = copy_example("m42", tmp_path)
    before = (folder / "ledger.yaml").read_bytes()
    crashes = set(Path(tempfile.gettempdir()).glob("modtool-crash-*"))
    with serving(folder) as (desk, url):
        port = int(url.rsplit(":", 1)[1])
        idle = socket.create_connection(("127.0.0.1", port), timeout=5)
        half = socket.create_connection(("127.0.0.1", port), timeout=5)
        half.sendall(f"POST /g/m42/write/undo HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nX-Modtool-Token: {desk.token}\r\n"
                     "Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"x\":".encode())
        assert idle.recv(100) == b""  # closed by the desk, not by us
        assert half.recv(100) == b""
        assert request(url, "GET", "/g/m42/")[0] == 200  # the desk goes on
    assert (folder / "ledger.yaml").read_bytes() == before
    assert set(Path(tempfile.gettempdir()).glob("modtool-crash-*")) == crashes


def test_the_index_of_a_folder_of_games_speaks_the_language_serve_spoke(tmp_path):
    """The server's threads do not inherit the command's language: the index (no game open)
    spoke the process default whatever serve had said in the terminal."""
    copy_example("m42", tmp_path)
    copy_example("mafia", tmp_path)
    for language, word in (("en", "Games"), ("zh", "游戏")):
        with i18n.speaking(language):
            server_desk = serving(tmp_path)
            desk, url = server_desk.__enter__()
        try:
            page = request(url, "GET", "/")[1]
        finally:
            server_desk.__exit__(None, None, None)
        assert f"<h2>{word}</h2>" in page, (language, page[:400])
