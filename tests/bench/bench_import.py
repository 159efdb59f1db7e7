"""Benchmark: importing a 100,000-post Discuz! JSON dump.

Not collected by pytest. Run from the project root:

    .venv/bin/python tests/bench/bench_import.py [N_POSTS] [--repeat N]

Every figure is the best of N fresh processes, run in turn so that a busy
machine slows all of them alike:

(0) bare python: interpreter start-up alone;
(a) the baseline: ``json.load`` of the dump plus one regex pass over every
    post's message;
(b) ``modtool import GAME DUMP --thread vote --day 1`` into a fresh game
    (made by ``modtool new`` from a roster of the dump's authors; not timed);
(c) the same with ``--dry-run``: reading and planning without the ledger
    append, so (b) - (c) is what writing 100,000 events costs;
(d) ``modtool.forum.read_dump`` alone, in a fresh process.

Peak memory is each child's own ru_maxrss (``os.wait4``). The bar is
b/a <= 2.0; the brief of the import speed work also asks for a peak RSS of (b)
at most twice that of (a).

The children keep compiled modules in a temporary cache
(PYTHONPYCACHEPREFIX), as an installed modtool has them, even where
PYTHONDONTWRITEBYTECODE is set; ``--no-pyc`` compiles every module in every
run instead. One untimed dry-run import warms that cache first.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ENV = dict(os.environ, PYTHONPATH=str(ROOT))

# The M42 pack wants 13 players: the 12 authors of the dump plus one who never posts.
ROLES = ["村民"] * 5 + ["预言家", "猎人", "替罪羊", "女巫"] + ["狼人"] * 4

NAMES = ["饺子", "包子", "馄饨", "烧卖", "汤圆", "春卷", "锅贴", "煎饺", "油条", "豆浆", "粽子", "月饼"]
CHATTER = [
    "早上好，今天谁先发言？",
    "我觉得{a}昨天的发言很奇怪",
    "+1",
    "{a}你解释一下为什么投{b}",
    "潜水党冒个泡 &lt;_&lt;",
    "今天先不投，等等看",
]


def message(rng: random.Random, n: int, pids: list[str]) -> str:
    a, b = rng.sample(NAMES, 2)
    kind = rng.random()
    if kind < 0.45:  # a vote: the commonest post of a game thread
        return f"投票对象：{a}<br />\r\n投票理由：{a}好吃"
    if kind < 0.60 and pids:  # a change quoting an earlier vote
        quoted = rng.choice(pids)
        return (
            '<div class="quote"><blockquote><font size="2"><a href="forum.php?mod=redirect&amp;goto=findpost&amp;'
            f'pid={quoted}&amp;ptid=4242" target="_blank"><font color="#999999">{b} 发表于 2026-11-3 20:15</font></a></font><br />\r\n'
            f"投票对象：{a}<br />\r\n投票理由：{a}好吃</blockquote></div><br />\r\n"
            f"改票对象：<strong>{b}</strong><br />\r\n改票理由：{b}更好吃"
        )
    if kind < 0.65:
        return (
            f'<i class="pstatus"> 本帖最后由 {a} 于 2026-11-3 20:40 编辑 </i><br />\r\n<br />\r\n'
            f'投票对象：<font color="Red">{b}</font><br />\r\n投票理由：见楼上 <img src="static/image/smiley/default/smile.gif" smilieid="1" border="0" alt="" />'
        )
    return rng.choice(CHATTER).format(a=a, b=b)


def make_dump(path: Path, n: int) -> None:
    rng = random.Random(42)
    posts = []
    pids: list[str] = []
    t0 = 1793707200
    for i in range(1, n + 1):
        pid = str(5000000 + i)
        author = rng.choice(NAMES) + "君"
        posts.append(
            {
                "pid": pid, "tid": "4242", "first": "1" if i == 1 else "0", "author": author,
                "authorid": str(1000 + NAMES.index(author[:-1])), "dateline": "2026-11-3 20:15",
                "message": message(rng, i, pids[-200:]), "anonymous": "0", "attachment": "0",
                "status": "0", "replycredit": "0", "position": str(i), "username": author, "adminid": "0",
                "groupid": "10", "memberstatus": "0", "number": str(i), "dbdateline": str(t0 + 7 * i),
            }
        )
        pids.append(pid)
    env = {"Version": "4", "Charset": "UTF-8", "Variables": {"member_uid": "1", "postlist": posts, "ppp": str(n)}}
    path.write_text(json.dumps(env, ensure_ascii=True, indent="\t"), encoding="utf-8")


def write_roster(path: Path) -> None:
    lines = [f"- {{name: {n}, account: {n}君, role: {r}}}" for n, r in zip(NAMES + ["白板"], ROLES)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def run(argv: list[str], cwd: Path) -> tuple[float, float, int]:
    """Wall time (s), CPU time (user + system, s) and peak RSS (KiB) of one
    child process, which must succeed."""
    with tempfile.TemporaryFile() as out:
        t = time.perf_counter()
        p = subprocess.Popen(argv, cwd=cwd, env=ENV, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT)
        _, status, usage = os.wait4(p.pid, 0)  # the child's own rusage, unlike RUSAGE_CHILDREN's running maximum
        wall = time.perf_counter() - t
        p.returncode = os.waitstatus_to_exitcode(status)
        if p.returncode != 0:
            out.seek(0)
            raise SystemExit(f"failed ({p.returncode}): {' '.join(map(str, argv))}\n{out.read().decode()}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("n", nargs="?", type=int, default=100_000)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--no-pyc", action="store_true", help="no cache of compiled modules")
    ap.add_argument("--make-dump", metavar="PATH", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.make_dump:
        make_dump(Path(args.make_dump), args.n)
        return
    n, py = args.n, sys.executable
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        if not args.no_pyc:
            ENV.pop("PYTHONDONTWRITEBYTECODE", None)
            ENV["PYTHONPYCACHEPREFIX"] = str(tmp / "pycache")
        dump = tmp / "dump.json"
        # Made in a child: a child's ru_maxrss starts from its parent's peak,
        # so this process must never hold the big dump itself.
        run([py, str(Path(__file__).resolve()), str(n), "--make-dump", str(dump)], ROOT)
        roster = tmp / "roster.yaml"
        write_roster(roster)
        size = dump.stat().st_size
        baseline = (
            "import json, re, sys\n"
            "tag = re.compile(r'<[^>]*>')\n"
            "with open(sys.argv[1], encoding='utf-8') as f:\n"
            "    data = json.load(f)\n"
            "for p in data['Variables']['postlist']:\n"
            "    tag.findall(p['message'])\n"
        )
        reader = (
            "import sys\n"
            "from pathlib import Path\n"
            "from zoneinfo import ZoneInfo\n"
            "from modtool.forum import read_dump\n"
            "posts, problems = read_dump(Path(sys.argv[1]), ZoneInfo('Asia/Shanghai'))\n"
            f"assert len(posts) == {n} and not problems, (len(posts), problems[:3])\n"
        )
        games = iter(range(10**6))

        def fresh_game() -> Path:
            game = tmp / f"game{next(games)}"
            run([py, "-m", "modtool", "new", str(game), "--game", "m42", "--roster", str(roster), "--seed", "1"], ROOT)
            return game

        def import_(*extra: str):
            game = fresh_game()
            result = run([py, "-m", "modtool", "import", str(game), str(dump), "--thread", "vote", "--day", "1", *extra], ROOT)
            ledger = game / "ledger.yaml"
            if not extra:
                with open(ledger, "rb") as f:  # in pieces: this process must stay small (see above)
                    lines = sum(chunk.count(b"\n") for chunk in iter(lambda: f.read(1 << 20), b""))
                assert lines > n, f"the ledger has {lines} lines for {n} posts"
            shutil.rmtree(game)
            return result

        jobs = {
            "0": lambda: run([py, "-c", "pass"], ROOT),
            "a": lambda: run([py, "-c", baseline, str(dump)], ROOT),
            "b": lambda: import_(),
            "c": lambda: import_("--dry-run"),
            "d": lambda: run([py, "-c", reader, str(dump)], ROOT),
        }
        import_("--dry-run")  # warm-up
        best = {k: [float("inf"), float("inf"), 0] for k in jobs}
        for _ in range(args.repeat):
            for k, job in jobs.items():
                wall, cpu, rss = job()
                best[k] = [min(best[k][0], wall), min(best[k][1], cpu), max(best[k][2], rss)]
    (t0, c0, r0), (ta, ca, ra), (tb, cb, rb), (tc, cc, rc), (td, cd, rd) = (best[k] for k in "0abcd")
    pyc = "modules compiled in every run" if args.no_pyc else "compiled modules cached"
    print(f"posts: {n:,}  file: {size / 1e6:.1f} MB  best of {args.repeat} fresh processes (wall, CPU), {pyc}; peak RSS: the largest seen")
    print(f"(0) bare python                           {t0:6.3f} s  {c0:6.3f} s  {r0 / 1024:7.1f} MB")
    print(f"(a) baseline: json.load + one regex pass  {ta:6.3f} s  {ca:6.3f} s  {ra / 1024:7.1f} MB")
    print(f"(b) modtool import                        {tb:6.3f} s  {cb:6.3f} s  {rb / 1024:7.1f} MB")
    print(f"(c) modtool import --dry-run              {tc:6.3f} s  {cc:6.3f} s  {rc / 1024:7.1f} MB")
    print(f"(d) read_dump alone                       {td:6.3f} s  {cd:6.3f} s  {rd / 1024:7.1f} MB")
    print(f"ledger append, (b) - (c):                 {tb - tc:6.3f} s  {cb - cc:6.3f} s")
    print(f"time ratio   b/a = {tb / ta:.2f} wall, {cb / ca:.2f} CPU  (goal <= 2.0)")
    print(f"             dry-run c/a = {tc / ta:.2f} wall, {cc / ca:.2f} CPU;  reader d/a = {td / ta:.2f} wall, {cd / ca:.2f} CPU")
    print(f"memory ratio b/a = {rb / ra:.2f}  (goal <= 2.0)")


if __name__ == "__main__":
    main()
