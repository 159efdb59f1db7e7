"""The desk's HTTP server: the standard library's ``ThreadingHTTPServer``.

Why this stack: nothing to install (http.server and jinja2, already a
dependency), start-up in milliseconds, and the page is plain HTML with one
script and one style sheet shipped in the package. Tested by driving the
page in headless Chromium (tests/test_desk_browser.py) and by plain requests
(tests/test_desk.py).

Guards, each tested in tests/test_desk.py:

- it listens on the loopback address unless told otherwise (``modtool serve
  --host`` with ``--allow-remote``, which warns);
- a request whose Host header is not the address being served is refused
  (DNS rebinding), and a write whose Origin is another site;
- every write carries the token issued with the page (header
  ``X-Modtool-Token``; CSRF);
- no path comes from a request: games are known by the names found at start,
  assets by a fixed list, and the desk writes only inside a game folder's
  ``.modtool/desk/`` (pasted dumps, the chart, the grimoire page, the preview copy);
- pages are jinja2 templates with HTML autoescape, under a Content Security
  Policy that allows only the desk's own script and style.

Every call into the library runs under one mutex (the lock's session in
``modtool.ledger`` is the process's, not a thread's), and each call takes the
game folder's lock for itself only: a command run meanwhile waits at most for
one call. The change poll (``stamp``) reads only the ledger's size and time.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import json
import secrets
import shutil
import socket
import sys
import threading
from contextlib import contextmanager
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, quote, unquote, urlsplit

from modtool import api
from modtool.api import language, Problem, speaking, t, THREADS, UserError
from modtool.desk import pages
from modtool.desk.pages import stamp

STATIC = Path(__file__).parent / "static"
TEMPLATES = Path(__file__).parent / "templates"
ASSETS = {"desk.js": "text/javascript; charset=utf-8", "desk.css": "text/css; charset=utf-8"}
TOKEN_HEADER = "X-Modtool-Token"
IDLE_SECONDS = 120
KEEP_PASTES = 20  # pasted dumps kept in GAME/.modtool/desk/pasted/ (20 MB each at most, said the tester)
MAX_BODY = 64 * 1024 * 1024  # a pasted or dropped dump: a long thread page fits
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self'; frame-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'self'")
# The grimoire page is modtool's own standalone page (its style and layout script inline): it may
# run them, and fetch nothing.
GRIMOIRE_CSP = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; frame-ancestors 'self'"


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def find_games(folder: Path) -> dict[str, Path]:
    """The game folders served: ``folder`` itself when it holds a ledger, else each
    folder in it that does, by name. Each path stays as the director typed it
    (relative to where ``serve`` runs), so the commands a page suggests ("下一步：
    modtool advance examples/m42") are the ones to type in that terminal."""
    if (folder / "ledger.yaml").is_file():
        return {folder.resolve().name: folder}
    if not folder.is_dir():
        return {}
    return {p.name: p for p in sorted(folder.iterdir()) if p.is_dir() and (p / "ledger.yaml").is_file()}


class Desk:
    """The served games, the page's token and the one mutex around library calls."""

    def __init__(self, folder: Path, host: str = "127.0.0.1", port: int = 8420):
        self.folder = Path(folder)
        self.paths = find_games(self.folder)
        if not self.paths:
            raise UserError(Problem(str(folder), "这里没有游戏：既没有 ledger.yaml，也没有含 ledger.yaml 的子文件夹"))
        self.games = {name: api.open_game(path) for name, path in self.paths.items()}
        self.host, self.port = host, port
        # The language the command spoke when it started (its locale, or its games'): the
        # server's threads do not inherit it, so a page of no game (the index) takes this one.
        self.language = language()
        self.token = secrets.token_urlsafe(32)
        self.mutex = threading.Lock()
        self.answering = 0  # writes being run and answered (``settle`` waits for them)
        self.answered = threading.Condition()
        self.charts: dict[str, str] = {}  # game -> the ledger stamp its chart.svg was drawn at
        import jinja2

        self.env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(TEMPLATES)), autoescape=True,
                                      undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True)

    def hosts(self) -> set[str]:
        """The Host headers accepted: the address served (and ``localhost`` for a loopback one)."""
        names = {self.host}
        if is_loopback(self.host):
            names |= {"localhost", "127.0.0.1"}
        bracket = {f"[{n}]" if ":" in n else n for n in names}
        return {f"{n}:{self.port}" for n in bracket}

    def work(self, name: str) -> Path:
        """The game's own folder for what the desk writes (never outside the game folder)."""
        folder = self.paths[name] / ".modtool" / "desk"
        with unwritable(folder):
            folder.mkdir(parents=True, exist_ok=True)
        return folder

    def render(self, template: str, game: str | None, **context) -> str:
        g = self.games.get(game) if game else None
        language = g.language if g else self.language  # a page of no game: the language serve spoke
        with speaking(language):
            return self.env.get_template(template).render(
                t=t, token=self.token, game=game, games=list(self.games), language=language, **context)

    @contextmanager
    def write_answered(self):
        """Around running a write and sending its answer (``settle``)."""
        with self.answered:
            self.answering += 1
        try:
            yield
        finally:
            with self.answered:
                self.answering -= 1
                self.answered.notify_all()

    def settle(self, timeout: float | None = None) -> bool:
        """Wait until no write is being run or answered (Ctrl-C: an import under way
        ends and the page hears of it before the process leaves); False on timeout."""
        with self.answered:
            return self.answered.wait_for(lambda: self.answering == 0, timeout)

    # --- pages ----------------------------------------------------------------
    def day_page(self, name: str) -> str:
        game = self.games[name]
        with self.mutex:
            seen = stamp(self.paths[name])  # before reading: a change meanwhile is seen by the next poll
            forms = pages.forms(game)
            try:
                glance = pages.glance(game)
                names = game.characters()
            except UserError as exc:  # a ledger that cannot be read (edited by hand): its problem, no stale view
                glance = {"panels": [], "problems": [str(p) for p in exc.problems], "chart": False,
                          "chart_missing": [], "grimoire": False}
                names = ()
        return self.render("day.html.j2", name, stamp=seen, page="day", glance=glance, forms=forms,
                           threads=THREADS, names=names)

    def posts_page(self, name: str, query: str = "") -> str:
        game = self.games[name]
        chosen = pages.post_options(game, parse_qs(query))
        with self.mutex:
            seen = stamp(self.paths[name])
            found = pages.posts(game, **chosen["values"])
        return self.render("posts.html.j2", name, stamp=seen, page="posts", posts=found, chosen=chosen)

    def chart_svg(self, name: str) -> bytes:
        game = self.games[name]
        with self.mutex, speaking(game.language):
            out = self.work(name) / "chart.svg"
            seen = stamp(self.paths[name])
            if self.charts.get(name) == seen and out.is_file():  # drawn at this ledger already (about 1 s saved a view)
                return out.read_bytes()
            with unwritable(out):
                game.draw_chart(out)
            self.charts[name] = seen
            return out.read_bytes()

    def grimoire_html(self, name: str) -> bytes:
        game = self.games[name]
        out = self.work(name) / "grimoire.html"
        with self.mutex, unwritable(out):
            game.command("grimoire", out=out)
            return out.read_bytes()

    # --- writes ---------------------------------------------------------------
    def paste_file(self, name: str, text: str) -> tuple[str, Path]:
        """The pasted or dropped dump, kept in the game folder under its digest."""
        if not isinstance(text, str) or not text.strip():
            raise UserError(Problem(t("粘贴框"), "没有内容：请粘贴帖子页面，或拖入 JSON/HTML 文件"))
        data = text.encode("utf-8", "surrogatepass")
        digest = hashlib.sha256(data).hexdigest()[:16]
        folder = self.work(name) / "pasted"
        path = folder / f"{digest}.txt"
        with unwritable(folder):
            folder.mkdir(exist_ok=True)
            # Kept only whole: written aside and renamed (a full disk or a kill leaves no
            # short file under the name), and one already there used only if it is this paste.
            if not (path.is_file() and hashlib.sha256(path.read_bytes()).hexdigest()[:16] == digest):
                aside = folder / f"{digest}.{secrets.token_hex(4)}.part"
                try:
                    aside.write_bytes(data)
                    aside.replace(path)
                finally:
                    aside.unlink(missing_ok=True)
            path.touch()  # the newest paste, kept
            _prune(folder, keep=KEEP_PASTES)
        return digest, path

    def pasted(self, name: str, digest: str) -> Path:
        if not (isinstance(digest, str) and len(digest) == 16 and all(c in "0123456789abcdef" for c in digest)):
            raise UserError(Problem(t("粘贴框"), "找不到要导入的内容：请重新预览"))
        path = self.work(name) / "pasted" / f"{digest}.txt"
        if not path.is_file():
            raise UserError(Problem(t("粘贴框"), "找不到要导入的内容：请重新预览"))
        return path

    def preview(self, name: str, sent: dict) -> dict:
        """What importing the paste would do (its text, and ``data``: the new,
        edited and outside-the-day posts as ``Game.import_posts`` lists them),
        and the day's tally (or the game's status) after it: the import run for
        real on a copy of the ledger inside the game folder's
        ``.modtool/desk/preview/``, so the answer is the library's own."""
        game = self.games[name]
        with self.mutex, speaking(game.language):
            try:
                thread, day = _thread_day(sent)
                digest, path = self.paste_file(name, sent.get("text"))
                said = game.import_posts([path], thread=thread, day=day, dry_run=True)
                copy = self.work(name) / "preview"
                with unwritable(copy):
                    copy.mkdir(exist_ok=True)
                    shutil.copyfile(self.paths[name] / "ledger.yaml", copy / "ledger.yaml")
                trial = api.open_game(copy)
                with api.not_counted():  # the copy's import is no write to the game's ledger (Ctrl-C's message)
                    trial.import_posts([path], thread=thread, day=day)
                after = trial.tally(day=day) if pages.get_pack(game.id).answers("tally") else trial.status()
            except UserError as exc:
                return pages.answer(game, False, "", [], [str(p) for p in exc.problems])
            return {"ok": True, "written": False, "id": digest, "text": said.text,
                    "after": _as_the_game(after.text, copy, self.paths[name]),
                    "data": said.data, "notes": [], "problems": []}

    def import_paste(self, name: str, sent: dict) -> dict:
        game = self.games[name]
        with self.mutex, speaking(game.language):
            before = stamp(self.paths[name])
            try:
                thread, day = _thread_day(sent)
                said = game.import_posts([self.pasted(name, sent.get("id"))], thread=thread, day=day)
            except UserError as exc:
                return pages.answer(game, False, "", [], [str(p) for p in exc.problems])
            # Imported twice: every post skipped, nothing written, and not said to be.
            return pages.answer(game, stamp(self.paths[name]) != before, said.text, list(said.notes), [])

    def write(self, name: str, command: str, sent: dict) -> dict:
        with self.mutex:
            return pages.run_write(self.games[name], command, sent)

    def send(self, name: str, sent: dict) -> dict:
        with self.mutex:
            return pages.send(self.games[name], sent)


@contextmanager
def unwritable(path: Path):
    """What the desk keeps in the game folder could not be written (a file where its
    folder should be, no space left): the refusal naming it, not a dropped request."""
    try:
        yield
    except OSError as exc:
        raise UserError(Problem(str(path), "网页工作台无法在这里写文件：{why}", why=exc.strerror or exc)) from None




def _prune(folder: Path, keep: int) -> None:
    """The ``keep`` newest pastes stay (one previewed a while ago can still be imported);
    older ones go: what was imported is in the ledger, the pastes are the desk's scratch."""
    pastes = sorted(folder.glob("*.txt"), key=lambda p: p.stat().st_mtime_ns, reverse=True)
    for old in pastes[keep:]:
        old.unlink(missing_ok=True)


def _as_the_game(text: str, copy: Path, folder: Path) -> str:
    """The preview's answer as the game's own: the copy's folder in its commands and
    places ("modtool nominate GAME/.modtool/desk/preview …" would write to the copy,
    and say it recorded) named as the game folder, as typed to ``serve``."""
    import shlex

    for said, meant in ((shlex.quote(str(copy)), shlex.quote(str(folder))), (str(copy), str(folder))):
        text = text.replace(said, meant)
    return text


def _thread_day(sent: dict) -> tuple[str, int]:
    thread = sent.get("thread")
    if thread not in THREADS:
        raise UserError(Problem(t("帖子"), "帖子的种类应是 {threads} 之一", threads=", ".join(THREADS)))
    try:
        day = int(str(sent.get("day", "")).strip())
    except ValueError:
        day = 0
    if day < 1:
        raise UserError(Problem(t("第几天"), "请填写这些帖子属于第几天（1 起）"))
    return thread, day


class Handler(BaseHTTPRequestHandler):
    desk: Desk  # set on the subclass made by ``make_server``
    # A connection quiet this long (nothing sent, or a body that stops coming) is closed:
    # each holds a thread, and a page sends its whole request at once.
    timeout = IDLE_SECONDS
    server_version = "modtool-desk"
    sys_version = ""

    def log_message(self, format, *args):  # noqa: A002 - http.server's name
        pass  # quiet: the desk's terminal shows only what the director must know

    # --- guards ---------------------------------------------------------------
    def _host_ok(self) -> bool:
        given = self.headers.get_all("Host") or [""]
        host = given[0].lower()
        target = urlsplit(self.path)  # an absolute-form target names the host itself (RFC 9112 3.2.2)
        if len(given) != 1 or host not in self.desk.hosts() or (target.scheme and target.netloc.lower() != host):
            self._send(HTTPStatus.FORBIDDEN, b"wrong Host header (DNS rebinding guard)\n", "text/plain")
            return False
        return True

    def _write_ok(self) -> bool:
        origin = self.headers.get("Origin")
        if origin is not None and urlsplit(origin).netloc.lower() not in self.desk.hosts():
            self._send(HTTPStatus.FORBIDDEN, b"cross-site write refused\n", "text/plain")
            return False
        if not hmac.compare_digest(self.headers.get(TOKEN_HEADER, ""), self.desk.token):
            # Most often a page opened before the desk was started again (a new token each start):
            # said in the game's language, with what to do (CSRF guard).
            name, _ = self._route()
            game = self.desk.games.get(name) if name else None
            with speaking(game.language if game else language()):
                said = t("这个页面已过期（工作台重新启动过，或页面不是这个工作台给的）：请刷新页面再试；什么也没写")
            self._send(HTTPStatus.FORBIDDEN, f"{said}\n(CSRF guard: missing or wrong desk token)\n".encode("utf-8"),
                       "text/plain; charset=utf-8")
            return False
        return True

    # --- replies --------------------------------------------------------------
    def _send(self, status, body: bytes, ctype: str, csp: str = CSP) -> None:
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Referrer-Policy", "no-referrer")
        self.send_header("Content-Security-Policy", csp)
        self.end_headers()
        if self.command != "HEAD":
            try:
                self.wfile.write(body)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the page went elsewhere before the answer came: nothing to tell

    def _html(self, text: str) -> None:
        self._send(HTTPStatus.OK, text.encode("utf-8"), "text/html; charset=utf-8")

    def _json(self, value: dict, status=HTTPStatus.OK) -> None:
        self._send(status, json.dumps(value).encode("ascii"), "application/json; charset=utf-8")

    def _route(self) -> tuple[str | None, str]:
        """(game name, the rest of the path) for ``/g/<name>/<rest>``; (None, path) otherwise."""
        path = urlsplit(self.path).path
        if path.startswith("/g/"):
            name, _, rest = path[3:].partition("/")
            name = unquote(name)
            if name in self.desk.games:
                return name, rest
            return "", rest
        return None, path

    def do_GET(self) -> None:  # noqa: N802 - http.server's name
        self._guarded(self._get)

    def do_POST(self) -> None:  # noqa: N802
        self._guarded(self._post)

    def _guarded(self, run) -> None:
        """``run`` the request; a failure nobody foresaw (a bug) is answered 500 and told
        in one line in the desk's terminal, its traceback in a report file, as the
        command line tells one: never a traceback on screen, never a dropped request."""
        try:
            run()
        except (BrokenPipeError, ConnectionResetError):
            pass  # the page went away
        except TimeoutError:
            self.close_connection = True  # a body that stopped coming (``timeout``): nothing ran, nothing to tell
        except Exception as exc:  # noqa: BLE001 - see above
            said = t("modtool 内部错误（不是你的错）：{name}。详情已写入 {report}").format(
                name=exc.__class__.__name__, report=_report_crash(exc))
            print(said, file=sys.stderr, flush=True)
            try:
                self._send(HTTPStatus.INTERNAL_SERVER_ERROR, (said + "\n").encode("utf-8"), "text/plain; charset=utf-8")
            except OSError:
                pass

    def _get(self) -> None:
        if not self._host_ok():
            return
        name, rest = self._route()
        try:
            if name is None:
                if rest == "/":
                    if len(self.desk.games) == 1:
                        self.send_response(HTTPStatus.SEE_OTHER)
                        self.send_header("Location", f"/g/{quote(next(iter(self.desk.games)), safe='')}/")  # a header is Latin-1: 西游局 percent-encoded
                        self.send_header("Content-Length", "0")
                        self.end_headers()
                        return
                    return self._html(self.desk.render("index.html.j2", None, page="index", stamp=""))
                if rest.startswith("/static/") and rest[8:] in ASSETS:
                    return self._send(HTTPStatus.OK, (STATIC / rest[8:]).read_bytes(), ASSETS[rest[8:]])
            elif name:
                if rest == "":
                    return self._html(self.desk.day_page(name))
                if rest == "posts":
                    return self._html(self.desk.posts_page(name, urlsplit(self.path).query))
                if rest == "stamp":
                    return self._json({"stamp": stamp(self.desk.paths[name])})
                if rest == "chart.svg":
                    return self._send(HTTPStatus.OK, self.desk.chart_svg(name), "image/svg+xml")
                if rest == "grimoire.html":
                    return self._send(HTTPStatus.OK, self.desk.grimoire_html(name), "text/html; charset=utf-8", GRIMOIRE_CSP)
        except UserError as exc:
            return self._send(HTTPStatus.CONFLICT, str(exc).encode("utf-8"), "text/plain; charset=utf-8")
        self._send(HTTPStatus.NOT_FOUND, b"not found\n", "text/plain")

    def _post(self) -> None:
        if not self._host_ok() or not self._write_ok():
            return
        name, rest = self._route()
        if not name:
            return self._send(HTTPStatus.NOT_FOUND, b"not found\n", "text/plain")
        if "Transfer-Encoding" in self.headers:  # a body the desk does not read must not run as an empty one
            return self._send(HTTPStatus.LENGTH_REQUIRED, b"Content-Length required\n", "text/plain")
        try:
            length = int(self.headers.get("Content-Length", "0"))
        except ValueError:
            length = -1
        if not 0 <= length <= MAX_BODY:
            return self._send(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, b"too large\n", "text/plain")
        try:
            sent = json.loads(self.rfile.read(length) or b"{}")
        except (ValueError, RecursionError):  # RecursionError: nested too deep
            sent = None
        if not isinstance(sent, dict):
            return self._send(HTTPStatus.BAD_REQUEST, b"a JSON object is expected\n", "text/plain")
        with self.desk.write_answered():
            self._dispatch(name, rest, sent)

    def _dispatch(self, name: str, rest: str, sent: dict) -> None:
        if rest == "preview":
            return self._json(self.desk.preview(name, sent))
        if rest == "import":
            return self._json(self.desk.import_paste(name, sent))
        if rest == "send":
            return self._json(self.desk.send(name, sent))
        if rest.startswith("write/"):
            return self._json(self.desk.write(name, rest[6:], sent))
        self._send(HTTPStatus.NOT_FOUND, b"not found\n", "text/plain")


def _report_crash(exc: BaseException) -> str:
    """The traceback of ``exc`` in a report file (as ``modtool.cli.errors`` writes one): its path."""
    import tempfile
    import traceback

    fd, name = tempfile.mkstemp(prefix="modtool-crash-", suffix=".log")
    with open(fd, "w", encoding="utf-8") as f:
        f.write("".join(traceback.format_exception(exc)))
    return name


def serve(desk: Desk, server: ThreadingHTTPServer) -> None:
    """Serve until Ctrl-C, then let the writes under way end and be answered (a
    second Ctrl-C does not wait) and raise KeyboardInterrupt, which the command
    line tells. Ctrl-C stops the loop from a thread (``server.shutdown``) instead of
    raising wherever the main thread is: raised while it hands a new connection to
    its thread, the standard library closes that connection under the request,
    whose write is then done with its answer lost."""
    import signal

    stopped = []

    def stop(signum, frame):
        if not stopped:
            stopped.append(signum)
            threading.Thread(target=server.shutdown, daemon=True).start()

    main = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGINT, stop) if main else None
    try:
        server.serve_forever(poll_interval=0.2)
    finally:
        if main:
            signal.signal(signal.SIGINT, previous)
        try:
            desk.settle()
        finally:
            server.server_close()
    if stopped:
        raise KeyboardInterrupt


def make_server(desk: Desk) -> ThreadingHTTPServer:
    """The server for ``desk`` (bound, not yet serving; port 0 picks a free one)."""
    handler = type("DeskHandler", (Handler,), {"desk": desk})
    host = desk.host.strip("[]")
    # An IPv6 address (--host ::1) needs an IPv6 socket; the stdlib server makes an IPv4 one.
    serving = type("DeskServer", (ThreadingHTTPServer,), {"address_family": socket.AF_INET6}) if ":" in host \
        else ThreadingHTTPServer
    server = serving((host, desk.port), handler)
    server.daemon_threads = True
    desk.port = server.server_address[1]
    return server
