"""modtool serve under hostile or unlucky requests: each one answered (a refusal
or the problem, never a dropped connection or a traceback in the desk's
terminal), the ledger untouched by what was refused."""

from __future__ import annotations

import json
import socket

import pytest

from tests.support.desk import copy_example, serving
from tests.support.values import run_main

VOTE = "#24 月初不是白 2026-11-05 21:10\n投票对象：涂山红红\n"
CARD = {"character": "石宽", "color": "yellow", "reason": "刷屏", "at": "2026-11-05 20:10"}


def raw(port: int, data: bytes) -> tuple[int, bytes]:
    """Send ``data`` as it is; the status (0: no answer at all) and the body."""
    with socket.create_connection(("127.0.0.1", port), timeout=60) as s:
        s.sendall(data)
        s.shutdown(socket.SHUT_WR)
        got = b""
        while chunk := s.recv(65536):
            got += chunk
    if not got:
        return 0, b""
    head, _, body = got.partition(b"\r\n\r\n")
    return int(head.split()[1]), body


def post(desk, path: str, body: bytes, extra: str = "", length: bool = True) -> tuple[int, bytes]:
    head = (f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{desk.port}\r\nX-Modtool-Token: {desk.token}\r\n"
            f"Content-Type: application/json\r\n{extra}")
    if length:
        head += f"Content-Length: {len(body)}\r\n"
    return raw(desk.port, head.encode() + b"\r\n" + body)


@pytest.fixture
def m42(tmp_path, capsys):
    folder = copy_example("m42", tmp_path)
    with serving(folder) as (desk, url):
        yield folder, desk
    assert "Traceback" not in capsys.readouterr().err


def test_deeply_nested_json_is_refused_with_an_answer(m42):
    folder, desk = m42
    before = (folder / "ledger.yaml").read_bytes()
    for body in (b"[" * 100_000 + b"]" * 100_000, b'{"a":' * 100_000 + b"1" + b"}" * 100_000):
        status, text = post(desk, "/g/m42/write/card", body)
        assert status == 400 and b"JSON" in text
    assert (folder / "ledger.yaml").read_bytes() == before


def test_a_lone_surrogate_in_a_form_field_is_refused_with_an_answer(m42):
    """The refusal names the value sent; the answer must still be sent (JSON escapes it)."""
    folder, desk = m42
    before = (folder / "ledger.yaml").read_bytes()
    for field in ("character", "reason"):
        body = json.dumps({**CARD, field: "\ud800"}).encode()  # json.dumps writes it as the escape \ud800
        status, text = post(desk, "/g/m42/write/card", body)
        answer = json.loads(text)
        assert status == 200 and answer["ok"] is False and answer["written"] is False, field
    assert (folder / "ledger.yaml").read_bytes() == before


@pytest.mark.parametrize("kind", [["witch"], {"a": 1}, 5])
def test_a_post_kind_that_is_not_a_name_is_refused(m42, kind):
    folder, desk = m42
    status, text = post(desk, "/g/m42/send", json.dumps({"kind": kind}).encode())
    answer = json.loads(text)
    assert status == 200 and answer["ok"] is False and answer["written"] is False


def test_a_chunked_body_is_refused_not_taken_for_an_empty_one(m42):
    """An empty body is ``{}``, which for undo means "the last event": a body the
    desk does not read must not run the write as if nothing had been sent."""
    folder, desk = m42
    before = (folder / "ledger.yaml").read_bytes()
    body = b'10\r\n{"batch": "99"}\r\n0\r\n\r\n'
    status, _ = post(desk, "/g/m42/write/undo", body, "Transfer-Encoding: chunked\r\n", length=False)
    assert status == 411
    assert (folder / "ledger.yaml").read_bytes() == before


def test_a_second_host_header_or_a_foreign_absolute_target_is_refused(m42):
    folder, desk = m42
    ours = f"127.0.0.1:{desk.port}"
    for head in (f"GET /g/m42/stamp HTTP/1.1\r\nHost: {ours}\r\nHost: evil.example:{desk.port}\r\n\r\n",
                 f"GET http://evil.example:{desk.port}/g/m42/stamp HTTP/1.1\r\nHost: {ours}\r\n\r\n"):
        status, text = raw(desk.port, head.encode())
        assert status == 403 and b"DNS rebinding" in text, head
    status, _ = raw(desk.port, f"GET http://{ours}/g/m42/stamp HTTP/1.1\r\nHost: {ours}\r\n\r\n".encode())
    assert status == 200


def test_a_ledger_broken_by_hand_shows_its_problem_on_the_day_page_and_the_page_recovers(m42):
    """The page's poll redraws from the day page: a plain-text refusal there left the
    last good tally on screen, said to be in sync with a ledger that no longer held it."""
    folder, desk = m42
    ledger = folder / "ledger.yaml"
    good = ledger.read_bytes()
    ledger.write_bytes(good + b"events: [\n  - {type: oops\n")
    status, page = raw(desk.port, f"GET /g/m42/ HTTP/1.1\r\nHost: 127.0.0.1:{desk.port}\r\n\r\n".encode())
    page = page.decode()
    assert status == 200 and 'id="live"' in page and "YAML" in page
    assert 'id="panel-tally"' not in page  # no tally the ledger does not hold
    ledger.write_bytes(good)
    status, page = raw(desk.port, f"GET /g/m42/ HTTP/1.1\r\nHost: 127.0.0.1:{desk.port}\r\n\r\n".encode())
    assert status == 200 and 'id="panel-tally"' in page.decode()


def test_an_unusable_desk_folder_is_told_not_a_dropped_connection(m42):
    folder, desk = m42
    (folder / ".modtool").mkdir(exist_ok=True)
    (folder / ".modtool" / "desk").write_text("not a folder")
    status, text = post(desk, "/g/m42/preview", json.dumps({"text": VOTE, "thread": "vote", "day": 2}).encode())
    answer = json.loads(text)
    assert status == 200 and answer["ok"] is False and ".modtool" in answer["problems"][0]
    status, text = raw(desk.port, f"GET /g/m42/grimoire.html HTTP/1.1\r\nHost: 127.0.0.1:{desk.port}\r\n\r\n".encode())
    assert status == 409 and b".modtool" in text


def test_an_unexpected_failure_is_answered_and_told_in_one_line(m42, monkeypatch, capsys):
    from modtool.desk import pages

    folder, desk = m42

    def broken(game):
        raise RuntimeError("boom")

    monkeypatch.setattr(pages, "glance", broken)
    status, text = raw(desk.port, f"GET /g/m42/ HTTP/1.1\r\nHost: 127.0.0.1:{desk.port}\r\n\r\n".encode())
    assert status == 500 and b"RuntimeError" in text
    err = capsys.readouterr().err
    assert "RuntimeError" in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("where", ["nosuch", "ledger.yaml"])
def test_serve_of_a_folder_that_is_not_there_is_one_line(tmp_path, capsys, where):
    folder = copy_example("m42", tmp_path)
    assert run_main(["serve", str(folder / where), "--port", "0"]) == 1
    err = capsys.readouterr().err
    assert "Traceback" not in err and "内部错误" not in err and "internal error" not in err, err


def test_a_preview_is_not_counted_as_a_write_to_the_ledger(tmp_path):
    """Ctrl-C tells whether the command wrote to the ledger: the preview's import on
    a copy of it is not a write to it."""
    from modtool.desk.server import Desk
    from modtool.ledger import _report

    desk = Desk(copy_example("m42", tmp_path), "127.0.0.1", 0)
    before = (_report.appended, list(_report.written))
    answer = desk.preview("m42", {"text": VOTE, "thread": "vote", "day": 2})
    assert answer["ok"] is True
    assert (_report.appended, _report.written) == before


@pytest.mark.slow  # a real serve process, interrupted during a large import: the slow tier's kind
def test_ctrl_c_while_an_import_runs_lets_it_finish_then_stops_in_one_line(tmp_path):
    """Ctrl-C used to end the process under an import in progress (it was cut off,
    the journal undoing it) and said the desk had written to the ledger when only
    previews (on a copy) had: now the import ends and is answered first, and the
    message is true."""
    import fcntl
    import os
    import signal
    import subprocess
    import sys
    import threading
    import time

    from tests.test_desk import request

    folder = copy_example("m42", tmp_path)
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    serve = subprocess.Popen([sys.executable, "-m", "modtool", "serve", str(folder), "--port", "0"], env=env,
                             stderr=subprocess.PIPE, text=True, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        line = serve.stderr.readline()
        port = int(line.split("127.0.0.1:")[1].split("/")[0])
        url = f"http://127.0.0.1:{port}"
        page = request(url, "GET", "/g/m42/")[1]
        token = page.split('name="modtool-token" content="')[1].split('"')[0]
        paste = "".join(f"#{100 + i} 月初不是白 2026-11-05 20:{i % 60:02d}\n投票对象：涂山红红\n\n" for i in range(20000))
        status, text = request(url, "POST", "/g/m42/preview", body={"text": paste, "thread": "vote", "day": 2},
                               headers={"X-Modtool-Token": token})
        found = json.loads(text)["id"]
        answers = []
        def run_import():
            try:
                answers.append(request(url, "POST", "/g/m42/import", body={"id": found, "thread": "vote", "day": 2},
                                       headers={"X-Modtool-Token": token}))
            except OSError as exc:
                answers.append((0, repr(exc)))

        importing = threading.Thread(target=run_import)
        importing.start()
        with open(folder / ".ledger.lock", "a+") as lock:  # the import holds the folder's lock while it runs
            for _ in range(2000):
                try:
                    fcntl.flock(lock, fcntl.LOCK_SH | fcntl.LOCK_NB)
                    fcntl.flock(lock, fcntl.LOCK_UN)
                except BlockingIOError:
                    break
                time.sleep(0.005)
            else:
                pytest.fail("the import never took the lock")
        serve.send_signal(signal.SIGINT)
        err = serve.stderr.read()
        assert serve.wait(timeout=120) == 130
        importing.join(timeout=120)
    finally:
        if serve.poll() is None:
            serve.kill()
    assert "Traceback" not in err and err.strip() == "已中断；本命令在中断前已把记录写进账本。", err
    assert answers and answers[0][0] == 200, answers  # and the page heard so
    assert json.loads(answers[0][1])["written"] is True
    assert (folder / "ledger.yaml").read_text(encoding="utf-8").count("月初不是白") >= 20000
    assert run_main(["check", str(folder)]) == 0


@pytest.mark.parametrize("sent", [{"reason": ["x", {"y": 1}]}, {"reason": {"a": 1}}, {"reason": True},
                                  {"again": "false"}, {"force": "false"}, {"force": 1}])
def test_a_form_value_of_the_wrong_kind_is_refused_not_written_as_its_repr(m42, sent):
    """A form sends text, and true/false for a box: a list was written as "['x', {'y': 1}]",
    and "false" for a box meant true (--again, --force)."""
    folder, desk = m42
    before = (folder / "ledger.yaml").read_bytes()
    body = {"character": "石宽", "color": "blue", "reason": "刷屏", "at": "2026-11-05 20:10", **sent}
    status, text = post(desk, "/g/m42/write/card", json.dumps(body).encode())
    answer = json.loads(text)
    assert status == 200 and answer["ok"] is False and answer["written"] is False, answer
    assert (folder / "ledger.yaml").read_bytes() == before


def test_a_paste_file_torn_by_a_full_disk_is_written_again_not_used(tmp_path):
    """The paste was written straight to its name: a full disk (or a kill) left it
    cut short, and the same paste previewed later used what was there (an empty
    file, or part of the posts) for good."""
    import hashlib

    from modtool.desk.server import Desk

    desk = Desk(copy_example("m42", tmp_path), "127.0.0.1", 0)
    paste = VOTE + "\n#25 涂山雅雅 2026-11-05 21:20\n投票对象：石宽\n"
    digest = hashlib.sha256(paste.encode()).hexdigest()[:16]
    torn = desk.work("m42") / "pasted" / f"{digest}.txt"
    torn.parent.mkdir(parents=True, exist_ok=True)
    torn.write_text(VOTE, encoding="utf-8")  # the first post only
    answer = desk.preview("m42", {"text": paste, "thread": "vote", "day": 2})
    assert answer["ok"] is True and "将导入 2 帖" in answer["text"], answer
    assert torn.read_text(encoding="utf-8") == paste
    assert [p.name for p in torn.parent.iterdir()] == [torn.name]  # no temporary file left
