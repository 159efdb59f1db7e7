"""Benchmark: importing a 100,000-post Discuz! JSON dump.

Not collected by pytest. Run from the project root:

    .venv/bin/python tests/bench/bench_import.py [N_POSTS]

Prints the time of read_dump and of the baseline (a bare json.load plus one
regex pass over the file's text), and their ratio. DESIGN.md asks for a ratio
under 2.
"""

from __future__ import annotations

import json
import random
import re
import sys
import tempfile
import time
from pathlib import Path
from zoneinfo import ZoneInfo

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from modtool.forum import read_dump  # noqa: E402

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


def best_of_alternating(k: int, *fns) -> list[float]:
    """Best time of each function over k rounds, run in turn so that a busy
    machine slows all of them alike."""
    best = [float("inf")] * len(fns)
    for _ in range(k):
        for i, fn in enumerate(fns):
            t = time.perf_counter()
            fn()
            best[i] = min(best[i], time.perf_counter() - t)
    return best


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
    tz = ZoneInfo("Asia/Shanghai")
    pattern = re.compile(r'"pid":\s*"(\d+)"')
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "dump.json"
        make_dump(path, n)
        size = path.stat().st_size

        def baseline():
            with open(path, encoding="utf-8") as f:
                text = f.read()
            json.loads(text)
            pattern.findall(text)

        calls = []
        posts, problems = read_dump(path, tz, progress=lambda d, t: calls.append(d))
        assert len(posts) == n and not problems, (len(posts), problems[:3])
        t_base, t_read = best_of_alternating(5, baseline, lambda: read_dump(path, tz))
    print(f"posts: {n:,}  file: {size / 1e6:.1f} MB  progress calls: {len(calls)}")
    print(f"baseline (json.load + one regex pass): {t_base:.3f} s")
    print(f"read_dump:                             {t_read:.3f} s")
    print(f"ratio: {t_read / t_base:.2f}")


if __name__ == "__main__":
    main()
