"""Probe: a family of hostile forum dumps thrown at ``modtool import``, each in a
real process, and what came of each.

Not collected by pytest. Run from the project root:

    .venv/bin/python tests/probes/probe_hostile_imports.py [--src DIR] [--timeout 60] [-v]

``--src`` runs the modtool of another source tree (e.g. ``git archive`` of an
older commit unpacked in /tmp) with this tree's probe, for before/after figures.

Each try imports one file into a copy of a new game (``modtool new`` from
the roster of ``examples/m42`` for the Discuz and pasted dumps, of
``examples/mafia`` for the phpBB ones) and records: the exit code, whether a traceback or an internal
error reached the director, whether the ledger changed, whether ``modtool
check`` still passes afterwards, whether a raw control character (ESC, BEL,
CSI…) reached the terminal, and the time. A try fails when

* the command crashed (exit code other than 0 and 1, a traceback, "internal error"),
* it ran out of time (a stalled parser),
* it refused (exit 1) but changed the ledger,
* it succeeded but left a ledger that ``check`` refuses (a bricked game),
* it imported what must be refused (a value out of bounds, a cut page),
* a raw control character was printed.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
REFUSE, ACCEPT, EITHER = "refuse", "accept", "either"
RAW_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


@dataclass
class Case:
    family: str
    name: str
    game: str  # "m42" or "mafia"
    content: bytes | None  # None: ``path`` is given as it is
    expect: str
    path: str | None = None
    suffix: str = ".txt"


# --- dumps ------------------------------------------------------------------------

def jsonl(number='"3"', user='"Pine"', stamp='"Mon May 02, 2011 10:00 am"', content='"hello"') -> bytes:
    return f'{{"number": {number}, "user": {user}, "timestamp": {stamp}, "content": {content}}}\n'.encode()


def viewtopic(posts: list[tuple[str, str, str]], start: str = "25") -> str:
    """A saved prosilver page: (pid, author, content HTML) per post."""
    out = ['<!DOCTYPE html>\n<html><head><title>Mini 9999</title>\n'
           f'<link rel="canonical" href="https://forum.mafiascum.net/viewtopic.php?t=9999&amp;start={start}"></head>\n'
           '<body><div id="page-body">\n']
    for pid, author, content in posts:
        out.append(f'<div id="p{pid}" class="post bg2"><div class="inner"><div class="postbody">\n'
                   f'<p class="author">by <strong><a href="./memberlist.php?u=1" class="username">{author}</a></strong>'
                   ' &raquo; Mon May 02, 2011 12:30 pm</p>\n'
                   f'<div class="content">{content}</div>\n</div></div></div>\n')
    out.append("</div></body></html>\n")
    return "".join(out)


def discuz_json(**fields) -> bytes:
    post = {"pid": "90001", "tid": "8848", "author": "月初不是白", "authorid": "101", "position": "2",
            "dbdateline": "1793707200", "message": "投票对象：白月初"}
    post.update(fields)
    return json.dumps({"Version": "4", "Charset": "UTF-8", "Variables": {"postlist": [post]}}, ensure_ascii=True).encode()


def discuz_page(floor: str = "2", when: str = "2026-11-4 20:15:05", author: str = "月初不是白", body: str = "投票对象：白月初") -> str:
    return (
        "<!DOCTYPE html>\n<html><head><title>t</title></head><body>\n"
        f'<div id="post_90001"><table id="pid90001"><tr><td class="pls"><div class="authi"><a class="xw1" href="#">{author}</a></div></td>\n'
        f'<td class="plc"><div class="pi"><strong><a id="postnum90001"><em>{floor}</em><sup>#</sup></a></strong>'
        f'<em id="authorposton90001">发表于 {when}</em></div>\n'
        f'<table><tr><td class="t_f" id="postmessage_90001">{body}</td></tr></table></td></tr></table></div>\n'
        "</body></html>\n"
    )


def pasted(floor: str = "#12", name: str = "月初不是白", when: str = "2026-11-04 20:15", body: str = "投票对象：白月初") -> bytes:
    return f"{floor} {name} {when}\n{body}\n".encode()


def fill(unit: str, size: int = 420_000) -> str:
    return (unit * (size // len(unit) + 1))[:size]


def cases() -> list[Case]:
    out: list[Case] = []
    add = out.append
    # 1. post numbers and floors out of bounds
    big = "99999999999999999999"
    add(Case("numbers", "phpBB page start=10^20", "mafia", viewtopic([("100", "Pine", "hi")], start=big).encode(), REFUSE, suffix=".html"))
    add(Case("numbers", "phpBB page start=10^9", "mafia", viewtopic([("100", "Pine", "hi")], start="1000000000").encode(), REFUSE, suffix=".html"))
    add(Case("numbers", "phpBB JSON lines number 10^20", "mafia", jsonl(number=f'"{big}"'), REFUSE, suffix=".jsonl"))
    add(Case("numbers", "phpBB JSON lines number -1", "mafia", jsonl(number='"-1"'), REFUSE, suffix=".jsonl"))
    add(Case("numbers", "phpBB JSON lines number true", "mafia", jsonl(number="true"), REFUSE, suffix=".jsonl"))
    add(Case("numbers", "phpBB JSON lines number 3.5", "mafia", jsonl(number="3.5"), REFUSE, suffix=".jsonl"))
    add(Case("numbers", "pasted floor of 31 digits", "m42", pasted(floor="#" + "1" * 31), REFUSE))
    add(Case("numbers", "pasted floor of 31 full-width digits", "m42", pasted(floor="#" + "１" * 31), REFUSE))
    add(Case("numbers", "Discuz JSON position 10^20", "m42", discuz_json(position=big), REFUSE, suffix=".json"))
    add(Case("numbers", "Discuz JSON position -5", "m42", discuz_json(position="-5"), REFUSE, suffix=".json"))
    add(Case("numbers", "Discuz JSON position as a number 1e300", "m42", discuz_json(position=1e300), REFUSE, suffix=".json"))
    add(Case("numbers", "Discuz JSON pid of 300 digits", "m42", discuz_json(pid="1" * 300), REFUSE, suffix=".json"))
    add(Case("numbers", "Discuz page floor of 31 digits", "m42", discuz_page(floor="1" * 31).encode(), REFUSE, suffix=".html"))
    # 2. years
    add(Case("years", "pasted year 9999", "m42", pasted(when="9999-12-31 23:59"), REFUSE))
    add(Case("years", "pasted year 0001", "m42", pasted(when="0001-01-01 00:00"), REFUSE))
    add(Case("years", "phpBB JSON lines year 9999", "mafia", jsonl(stamp='"Fri Dec 31, 9999 11:30 pm"'), REFUSE, suffix=".jsonl"))
    add(Case("years", "phpBB JSON lines year 0001", "mafia", jsonl(stamp='"Mon Jan 01, 0001 12:30 am"'), REFUSE, suffix=".jsonl"))
    add(Case("years", "phpBB page year 9999", "mafia", viewtopic([("100", "Pine", "hi")]).replace("2011", "9999").encode(), REFUSE, suffix=".html"))
    add(Case("years", "Discuz JSON dbdateline year 9999", "m42", discuz_json(dbdateline="253402300799"), REFUSE, suffix=".json"))
    add(Case("years", "Discuz JSON dbdateline 10^20", "m42", discuz_json(dbdateline=big), REFUSE, suffix=".json"))
    add(Case("years", "Discuz JSON dateline year 9999", "m42", discuz_json(dbdateline="", dateline="9999-12-31 23:59"), REFUSE, suffix=".json"))
    add(Case("years", "Discuz page year 9999", "m42", discuz_page(when="9999-12-31 23:59:59").encode(), REFUSE, suffix=".html"))
    # 3. nesting
    add(Case("nesting", "JSON 100,000 deep", "m42", b"[" * 100_000 + b"]" * 100_000, REFUSE, suffix=".json"))
    add(Case("nesting", "JSON postlist 100,000 deep", "m42", b'{"Variables": {"postlist": ' + b"[" * 100_000 + b"]" * 100_000 + b"}}", REFUSE, suffix=".json"))
    add(Case("nesting", "JSON field 900 deep", "m42", discuz_json(position=json.loads("[" * 900 + "]" * 900)), REFUSE, suffix=".json"))
    add(Case("nesting", "phpBB JSON lines 100,000 deep", "mafia", jsonl(content="[" * 100_000 + "]" * 100_000), REFUSE, suffix=".jsonl"))
    add(Case("nesting", "phpBB JSON lines content 900 deep", "mafia", jsonl(content="[" * 900 + "]" * 900), REFUSE, suffix=".jsonl"))
    # 4. sizes
    add(Case("sizes", "/dev/zero as a dump", "m42", None, REFUSE, path="/dev/zero"))
    add(Case("sizes", "a 4 GB sparse file", "m42", None, REFUSE, path="<sparse>"))
    add(Case("sizes", "an author name of 100,000 characters", "mafia", jsonl(user=json.dumps("P" * 100_000)), REFUSE, suffix=".jsonl"))
    add(Case("sizes", "a post of 3 MB", "mafia", jsonl(content=json.dumps("x" * 3_000_000)), REFUSE, suffix=".jsonl"))
    # 5. pages cut short (19 cuts each)
    page = viewtopic([("100", "Pine", "I think <span class=\"noboldsig\">Vote: Peabody</span> is right."),
                      ("101", "Peabody", "<blockquote><div><cite>Pine wrote:</cite>quoted</div></blockquote>mine"),
                      ("102", "Valern", "<span class=\"bbvote\" title=\"This is an official vote.\">VOTE: Pine</span>")]).encode()
    start = page.index(b'<div id="p100"')
    for k in range(1, 20):
        cut = start + (len(page) - start) * k // 20
        add(Case("cut pages", f"phpBB page cut at byte {cut}/{len(page)}", "mafia", page[:cut], REFUSE, suffix=".html"))
    whole = (ROOT / "tests" / "fixtures" / "forum" / "thread-8848-page1.html").read_bytes()
    start = whole.index(b'id="post_')
    for k in range(1, 20):
        cut = start + (len(whole) - start) * k // 20
        add(Case("cut pages", f"Discuz page cut at byte {cut}/{len(whole)}", "m42", whole[:cut], REFUSE, suffix=".html"))
    # 6. characters a ledger cannot store, or a terminal must not get raw
    add(Case("characters", "phpBB JSON lines lone surrogate in content", "mafia", jsonl(content='"cut emoji \\ud83d here"'), ACCEPT, suffix=".jsonl"))
    add(Case("characters", "phpBB JSON lines lone surrogate in user", "mafia", jsonl(user='"Pi\\udc00ne"'), EITHER, suffix=".jsonl"))
    add(Case("characters", "Discuz JSON lone surrogate in message", "m42", discuz_json(message="投票对象：白月初\ud83d"), ACCEPT, suffix=".json"))
    add(Case("characters", "phpBB JSON lines ESC sequence in user", "mafia", jsonl(user='"Pi\\u001b[31mne\\u0007"'), EITHER, suffix=".jsonl"))
    add(Case("characters", "phpBB JSON lines C1 CSI in user", "mafia", jsonl(user='"Pi\\u009b2Jne"'), EITHER, suffix=".jsonl"))
    add(Case("characters", "phpBB JSON lines ESC in time", "mafia", jsonl(stamp='"\\u001b]0;pwned\\u0007"'), REFUSE, suffix=".jsonl"))
    add(Case("characters", "pasted name with ESC", "m42", pasted(name="月初\x1b[2J不是白"), EITHER))
    add(Case("characters", "pasted body with ESC", "m42", pasted(body="投票对象：白月初\x1b[2J"), ACCEPT))
    add(Case("characters", "Discuz JSON author with BEL", "m42", discuz_json(author="月初\x07不是白"), EITHER, suffix=".json"))
    add(Case("characters", "Discuz JSON floor text with ESC", "m42", discuz_json(position="\x1b[2J"), REFUSE, suffix=".json"))
    add(Case("characters", "NUL bytes in JSON lines", "mafia", jsonl(content='"a\\u0000b"'), EITHER, suffix=".jsonl"))
    # 7. parsers that stall on a 420 KB post
    stall = {
        "open spans, then unmatched </b>": fill("<span>", 210_000) + fill("</b>", 210_000),
        "'</' runs": fill("</"),
        "'<!--' runs": fill("<!--"),
        "'<a ' runs": fill("<a "),
        "unclosed attribute values": fill('<a href="x'),
        "'Last edited by' on one line": "Last edited by x" + fill(" on x"),
        "reply markers, unclosed [i]": fill("[b]回复 [url=forum.php?pid=1]1#[/url] [i]"),
    }
    for name, body in stall.items():
        add(Case("stalls", f"phpBB JSON lines: {name}", "mafia", jsonl(content=json.dumps(body)), EITHER, suffix=".jsonl"))
        add(Case("stalls", f"phpBB page: {name}", "mafia", viewtopic([("100", "Pine", body)]).encode(), EITHER, suffix=".html"))
        add(Case("stalls", f"Discuz JSON: {name}", "m42", discuz_json(message=body), EITHER, suffix=".json"))
        add(Case("stalls", f"Discuz page: {name}", "m42", discuz_page(body=body).encode(), EITHER, suffix=".html"))
    for name, body in {"spaces inside a header line": "#1 a" + " " * 420_000 + "b",
                       "spaces inside a reply line": "回复 #1 a" + " " * 420_000 + "b",
                       "[quote] runs": fill("[quote]")}.items():
        add(Case("stalls", f"pasted: {name}", "m42", pasted(body=body), EITHER))
    # 8. odd files
    add(Case("files", "an empty file", "m42", b"", REFUSE))
    add(Case("files", "random bytes", "m42", bytes(range(256)) * 100, REFUSE, suffix=".bin"))
    add(Case("files", "a folder", "m42", None, REFUSE, path="<dir>"))
    add(Case("files", "a file that does not exist", "m42", None, REFUSE, path="<missing>"))
    return out


# --- running ----------------------------------------------------------------------

def new_games(src: Path, tmp: Path, timeout: float) -> dict[str, Path]:
    """A new game of each pack, made once by ``modtool new`` from the bundled rosters."""
    games = {}
    for game, args in {"m42": ["--roster", str(ROOT / "examples" / "m42" / "roster.yaml"), "--seed", "1"],
                       "mafia": ["--roster", str(ROOT / "examples" / "mafia" / "roster.yaml")]}.items():
        games[game] = tmp / f"new-{game}"
        code, out, err, _ = run(src, ["new", str(games[game]), "--game", game, *args], timeout)
        if code != 0:
            raise SystemExit(f"modtool new --game {game} failed: {err or out}")
    return games


def fresh_game(games: dict[str, Path], tmp: Path, game: str, n: int) -> Path:
    dst = tmp / f"game{n}"
    shutil.copytree(games[game], dst, ignore=shutil.ignore_patterns(".modtool"))
    return dst


def run(src: Path, argv: list[str], timeout: float) -> tuple[int | None, str, str, float]:
    env = dict(os.environ, PYTHONPATH=str(src), LANG="C.UTF-8")
    env.pop("LC_ALL", None)
    t0 = time.perf_counter()
    try:
        # cwd: ``-m`` puts the working folder first on sys.path, before PYTHONPATH
        p = subprocess.run([sys.executable, "-m", "modtool", *argv], capture_output=True, timeout=timeout, env=env,
                           stdin=subprocess.DEVNULL, cwd=src)
    except subprocess.TimeoutExpired:
        return None, "", "", time.perf_counter() - t0
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace"), time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--src", type=Path, default=ROOT, help="the source tree whose modtool runs")
    ap.add_argument("--timeout", type=float, default=60.0)
    ap.add_argument("--family", action="append", help="only these families")
    ap.add_argument("-v", "--verbose", action="store_true", help="show what each try printed")
    args = ap.parse_args()
    failures: dict[str, int] = {}
    tries = 0
    by_family: dict[str, list[int]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        games = new_games(args.src, tmp, args.timeout)
        for n, case in enumerate(c for c in cases() if not args.family or c.family in args.family):
            game = fresh_game(games, tmp, case.game, n)
            if case.content is not None:
                dump = tmp / f"dump{n}{case.suffix}"
                dump.write_bytes(case.content)
            elif case.path == "<sparse>":
                dump = tmp / f"sparse{n}.json"
                with open(dump, "wb") as f:
                    f.truncate(4 << 30)
            elif case.path == "<dir>":
                dump = tmp / f"folder{n}"
                dump.mkdir()
            elif case.path == "<missing>":
                dump = tmp / f"missing{n}.json"
            else:
                dump = Path(case.path)
            ledger = game / "ledger.yaml"
            before = ledger.read_bytes()
            code, out, err, took = run(args.src, ["import", str(game), str(dump), "--thread", "vote", "--day", "1"], args.timeout)
            changed = ledger.read_bytes() != before
            crashed = "Traceback" in out + err or "内部错误" in out + err or "nternal error" in out + err
            raw = bool(RAW_CONTROL.search(out + err))
            check_ok = True
            if changed and code == 0:
                ccode, cout, cerr, _ = run(args.src, ["check", str(game)], args.timeout)
                check_ok = ccode == 0
            why = []
            if code is None:
                why.append(f"stalled (> {args.timeout:.0f} s)")
            else:
                if code not in (0, 1) or crashed:
                    why.append(f"crashed (exit {code})")
                if code == 1 and changed:
                    why.append("refused but changed the ledger")
                if code == 0 and changed and not check_ok:
                    why.append("bricked: check fails after the import")
                if code == 0 and case.expect == REFUSE:
                    why.append("imported what must be refused")
                if code == 1 and case.expect == ACCEPT:
                    why.append("refused what should import")
                if raw:
                    why.append("raw control character printed")
            tries += 1
            fam = by_family.setdefault(case.family, [0, 0])
            fam[0] += 1
            if why:
                fam[1] += 1
                for w in why:
                    key = w.split(" (")[0]
                    failures[key] = failures.get(key, 0) + 1
            shown = "FAIL " + "; ".join(why) if why else "ok"
            print(f"[{case.family}] {case.name}: exit {code}, traceback {'y' if crashed else 'n'}, "
                  f"ledger changed {'y' if changed else 'n'}, {took:.1f} s: {shown}", flush=True)
            if args.verbose or why:
                said = (err.strip() or out.strip()).splitlines()[:3]
                for line in said:
                    print("      " + line.encode("unicode_escape").decode("ascii")[:200] if RAW_CONTROL.search(line) else "      " + line[:200])
            shutil.rmtree(game, ignore_errors=True)
            if case.content is not None or case.path in ("<sparse>", "<dir>"):
                if dump.is_dir():
                    dump.rmdir()
                else:
                    dump.unlink(missing_ok=True)
    print(f"\n{tries} tries, {sum(f for _, f in by_family.values())} failed")
    for fam, (n, f) in by_family.items():
        print(f"  {fam:12s} {n:3d} tries, {f:3d} failed")
    for key, n in sorted(failures.items(), key=lambda kv: -kv[1]):
        print(f"  {n:3d} × {key}")


if __name__ == "__main__":
    main()
