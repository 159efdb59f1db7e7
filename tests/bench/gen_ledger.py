"""A realistic large ledger for benchmarks: 50 characters, 30 days, 5,000 vote posts.

    from tests.bench.gen_ledger import generate_large_ledger
    generate_large_ledger(tmp_path / "ledger.yaml")
"""

from __future__ import annotations

import random
from pathlib import Path

from modtool.ledger import dump_event, dump_event_line

_SURNAMES = "饺包馒烧春汤粽油麻糖豆花米粉面饼糕酥卷饭粥茶酒梅兰竹菊松柏桃李杏枣栗橙柚梨瓜椒蒜葱姜醋盐蜜乳酪虾蟹鱼"
_TAILS = ["子", "儿", "君", "酱", "仔", "宝", "哥", "姐"]
_REASONS = [
    "发言太划水了",
    "昨天的票型很奇怪，跟风投了[b]两次[/b]",
    "直觉，没有理由",
    "他说的「我是好人」不可信: 前后矛盾",
    "# 先挂个票，晚点改",
    "引用一下楼上：\n> 我觉得他是狼\n同意",
    "投他，理由见讨论帖 #12 楼",
    "2026-11-02 那天他说过自己是预言家",
]
# Two wolves, the four power roles, and plain villagers; votes only name
# villagers, so the generated game runs its 30 days without a winner.
_ROLES = ["werewolf", "werewolf", "seer", "witch", "hunter", "scapegoat"]


def _date(day: int) -> str:
    """Day ``day`` of the generated game, one calendar day each from 2026-11-02."""
    from datetime import date, timedelta

    return (date(2026, 11, 2) + timedelta(days=day - 1)).isoformat()


def _names(n: int) -> list[str]:
    names = []
    for i in range(n):
        names.append(_SURNAMES[i % len(_SURNAMES)] + _TAILS[(i // len(_SURNAMES)) % len(_TAILS)])
    return names


def generate_large_ledger(path: Path, characters: int = 50, days: int = 30, votes: int = 5000,
                          discussion: int = 0, seed: int = 20261102, one_line: bool = False) -> Path:
    """Write a ledger like a real late game to ``path``; returns ``path``.

    Vote posts (``投票对象：X`` plus a reason, some multi-line, some quoting or
    replying to another floor), a close event per day, and ``discussion``
    extra discussion posts: YAML block mappings like every other event, or with
    ``one_line`` one-line JSON events (``dump_event_line``), as ``modtool
    import`` stores posts. The default output does not change.
    """
    rng = random.Random(seed)
    path = Path(path)
    names = _names(characters)
    accounts = [n + "的账号" for n in names]
    out = [
        "# 导演的备注：m42 第 1 届，大型测试账本\n",
        "game: m42\n",
        f"seed: {seed}\n",
        "options:\n",
        '  close_time: "21:00"\n',
        "  timezone: Asia/Shanghai\n",
        "roster:\n",
    ]
    for i, (n, a) in enumerate(zip(names, accounts)):
        out.append(f"  - name: {n}\n    account: {a}\n    aliases: [{n[0]}{n[0]}]\n    role: {_ROLES[i] if i < len(_ROLES) else 'villager'}\n")
    out.append("events:\n")
    pid = 100000
    dump_post = dump_event_line if one_line else dump_event
    per_day = votes // days
    extra = votes - per_day * days
    for day in range(1, days + 1):
        n_votes = per_day + (1 if day <= extra else 0)
        floor = 1
        # Everyone posts once (a few forget the reason), then the thread goes on.
        first = rng.sample(range(characters), characters)
        for k in range(n_votes):
            pid += 1
            floor += 1
            who = first[k] if k < len(first) else rng.randrange(characters)
            target = rng.randrange(len(_ROLES), characters)
            reason = rng.choice(_REASONS)
            body = f"投票对象：{names[target]}" if rng.random() < 0.1 else f"投票对象：{names[target]}\n投票理由：{reason}"
            minute = k * 600 // max(n_votes, 1)
            ev = {
                "type": "post",
                "thread": "vote",
                "day": day,
                "pid": str(pid),
                "floor": floor,
                "author": accounts[who],
                "time": f"{_date(day)} {10 + minute // 60:02d}:{minute % 60:02d}:00",
                "body": body,
            }
            if rng.random() < 0.15:
                ev["reply_to"] = {"pid": str(pid - rng.randint(1, 5)), "floor": max(1, floor - rng.randint(1, 5))}
            if rng.random() < 0.05:
                ev["edited"] = ev["time"]
            out.append(dump_event(ev))
            if rng.random() < 0.01:
                out.append("    # 导演：这一票有争议，待复核\n")
        for _ in range(discussion // days):
            pid += 1
            out.append(dump_post({
                "type": "post", "thread": "discussion", "day": day, "pid": str(pid), "floor": rng.randint(1, 999),
                "author": rng.choice(accounts), "time": f"{_date(day)} 12:00:00",
                "body": "\n".join(rng.choice(_REASONS) for _ in range(rng.randint(1, 6))),
            }))
        out.append(dump_event({"type": "close", "day": day, "at": f"{_date(day)} 21:00"}))
        # The director closes the day, resolves the night and opens the next day (M42-R1).
        out.append(dump_event({"type": "advance", "phase": "day", "number": day, "at": f"{_date(day)} 21:00"}))
        if day < days:
            out.append(dump_event({"type": "advance", "phase": "night", "number": day, "at": f"{_date(day)} 22:30"}))
            out.append(dump_event({"type": "advance", "phase": "dawn", "number": day, "at": f"{_date(day + 1)} 09:00"}))
    path.write_text("".join(out), encoding="utf-8")
    return path
