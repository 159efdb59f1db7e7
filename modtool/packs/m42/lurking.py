"""Lurking (潜水), M42-R14: one yellow card each.

Rule post 违规判定 5「潜水（以下行为均固定判罚一张“黄牌”）」:
(1) fewer than five posts on a discussion day that was not sped up;
(2) three consecutive discussion days, none sped up, each under ten posts;
(3) no vote on a discussion day that was not sped up.
RULINGS.md M42-R14 names them (a) fewer than 5 posts, (b) no valid vote (an
abstention is a vote), (c) the chain of three days under 10.

Input per discussion day is a ``LurkDay``; the caller (who knows the schedule,
speed-ups, who went out when, and the tally) fills it in.

Decisions:

- Only characters in the game for the WHOLE day (``LurkDay.in_game``) are
  judged. Day 1 counts as a discussion day.
- Posts are counted in the discussion thread within ``[start, end]`` (both
  inclusive: a post stamped at the close minute still counts). Posts are
  mapped to characters by ``roster.by_account(post.author)``; posts by other
  accounts (director, spectators) are ignored. The same post seen twice (two
  overlapping dump pages: same pid, or same floor when there is no pid) is
  counted once. Every post counts, whatever its content (the rule counts posts).
- (c): a day under ``chain_posts`` extends the character's chain; a day at or
  above it resets the chain. When the chain reaches ``chain_days`` (3) a
  yellow fires and the chain starts again from zero (so six such days in a
  row give two yellows, not four). The chain is broken (reset) by: a sped-up
  day; a day the character was not in the game for the whole day; a gap in
  day numbers (the days were not consecutive in the input).
- A sped-up day gives no yellows at all.
- A day's (a) and (b) and (c) are independent: one day can give up to three.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime

from modtool.sdk import Post, Roster

TIME_FMT = "%m-%d %H:%M"


@dataclass
class LurkOptions:
    """Thresholds of M42-R14 (defaults from the rule post)."""

    min_posts: int = 5  # (a) fewer than this on a day -> yellow
    chain_posts: int = 10  # (c) a day under this extends the chain
    chain_days: int = 3  # (c) this many consecutive days -> yellow


@dataclass
class LurkDay:
    day: int
    start: datetime  # the day-start post's time (timezone-aware)
    end: datetime  # the discussion day's close
    sped_up: bool = False
    in_game: set[str] = field(default_factory=set)  # characters in the game for the whole day
    posts: list[Post] = field(default_factory=list)  # the day's discussion-thread posts
    voted: set[str] = field(default_factory=set)  # characters with a valid vote (abstention counts)
    # Posts per character in the window, when the caller counted them (``count_posts``)
    # from the saved posts without building a Post each; else counted from ``posts``.
    counts: dict[str, int] | None = None


@dataclass(frozen=True)
class LurkResult:
    day: int  # the day the yellow is given for (for (c): the third day of the chain)
    character: str
    rule: str  # "a" | "b" | "c"
    count: int  # posts counted on ``day``
    window: tuple[datetime, datetime]  # ``day``'s counting window
    days: tuple[int, ...]  # (day,) for (a)/(b); the chain's days for (c)
    note: str  # Chinese, pasteable
    counts: tuple[int, ...] = ()  # posts per day of ``days``


def _window_text(d: LurkDay) -> str:
    return f"{d.start.strftime(TIME_FMT)} 至 {d.end.strftime(TIME_FMT)}"


def count_posts(stamps: Iterable[tuple[str, int, str, datetime]], start: datetime, end: datetime,
                in_game: Iterable[str] = (), roster: Roster | None = None) -> dict[str, int]:
    """Posts per poster within ``[start, end]``, the same post counted once.

    ``stamps``: ``(pid, floor, author, time)`` of each saved post, in thread
    order; the first save of a post is the one judged. With a roster: keyed by
    character name, every character of ``in_game`` present (0 included), plus
    any other roster character who posted (e.g. one who went out that day);
    accounts not in the roster are left out; roster order. Without a roster:
    keyed by forum account as shown, in order of first post.
    """
    seen: set = set()
    by_account: dict[str, int] = {}
    for pid, floor, author, time in stamps:
        key = pid if pid else (floor, author, time)  # a pid (str) never equals a (floor, author, time) tuple
        if key in seen:
            continue
        seen.add(key)
        if start <= time <= end:
            by_account[author] = by_account.get(author, 0) + 1
    if roster is None:
        return by_account
    raw: dict[str, int] = {name: 0 for name in in_game}
    for account, n in by_account.items():
        c = roster.by_account(account)
        if c is not None:
            raw[c.name] = raw.get(c.name, 0) + n
    order = {name: i for i, name in enumerate(roster.names())}
    return {k: raw[k] for k in sorted(raw, key=lambda n: (order.get(n, len(order)), n))}


def post_counts(day: LurkDay, roster: Roster | None = None) -> dict[str, int]:
    """Posts per poster within the day's window (duplicates counted once); see ``count_posts``."""
    if day.counts is not None and roster is not None:
        return day.counts
    stamps = ((p.pid, p.floor, p.author, p.time) for p in day.posts)
    return count_posts(stamps, day.start, day.end, day.in_game, roster)


class LurkWatch:
    """M42-R14 day by day: the running (c) chains, and the yellows of each
    discussion day as it closes (days in increasing order)."""

    def __init__(self, roster: Roster, options: LurkOptions | None = None):
        self.roster = roster
        self.options = options or LurkOptions()
        self.order = {name: i for i, name in enumerate(roster.names())}
        self.chains: dict[str, list[tuple[int, int]]] = {}  # character -> [(day, count)] of the running chain
        self.prev_day: int | None = None

    def close(self, d: LurkDay) -> list[LurkResult]:
        """The yellows of day ``d``, in roster order, then rule (a, b, c)."""
        options, order, chains = self.options, self.order, self.chains
        if self.prev_day is not None and d.day != self.prev_day + 1:
            chains.clear()  # a gap: the days are not consecutive
        self.prev_day = d.day
        if d.sped_up:
            chains.clear()
            return []
        for name in list(chains):
            if name not in d.in_game:
                del chains[name]
        counts = post_counts(d, self.roster)
        window = (d.start, d.end)
        results: list[LurkResult] = []
        for name in sorted(d.in_game, key=lambda n: (order.get(n, len(order)), n)):
            n = counts.get(name, 0)
            if n < options.min_posts:
                results.append(
                    LurkResult(
                        day=d.day, character=name, rule="a", count=n, window=window, days=(d.day,),
                        counts=(n,),
                        note=(
                            f"{name} 第{d.day}天讨论日（{_window_text(d)}）在讨论帖只发了 {n} 帖，"
                            f"不足 {options.min_posts} 帖：潜水，黄牌一张（M42-R14 (a)）"
                        ),
                    )
                )
            if name not in d.voted:
                results.append(
                    LurkResult(
                        day=d.day, character=name, rule="b", count=n, window=window, days=(d.day,),
                        counts=(n,),
                        note=f"{name} 第{d.day}天讨论日没有有效投票（弃票算投票）：潜水，黄牌一张（M42-R14 (b)）",
                    )
                )
            if n < options.chain_posts:
                chain = chains.setdefault(name, [])
                chain.append((d.day, n))
                if len(chain) >= options.chain_days:
                    ds = tuple(x for x, _ in chain)
                    cs = tuple(c for _, c in chain)
                    results.append(
                        LurkResult(
                            day=d.day, character=name, rule="c", count=n, window=window, days=ds, counts=cs,
                            note=(
                                f"{name} 连续 {len(ds)} 个未加速的讨论日（第{'、'.join(map(str, ds))}天）"
                                f"发帖均不足 {options.chain_posts} 帖（分别 {'、'.join(map(str, cs))} 帖）："
                                f"潜水，黄牌一张（M42-R14 (c)），连续计数重新开始"
                            ),
                        )
                    )
                    del chains[name]
            else:
                chains.pop(name, None)
        return results


def lurking(days: list[LurkDay], roster: Roster, options: LurkOptions | None = None) -> list[LurkResult]:
    """The lurking yellows of a game so far, ordered by day, then roster
    order, then rule (a, b, c)."""
    watch = LurkWatch(roster, options)
    return [r for d in sorted(days, key=lambda x: x.day) for r in watch.close(d)]
