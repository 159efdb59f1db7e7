"""M42-R15: when a discussion day opens and closes, and its deadlines.

Pure functions, no I/O. Input: the day-start time, the close time, the game's
zone, who is living, and the posts of the process thread (进程帖); output: a
``DaySchedule`` with the natural days, the close, the request cut-off, the
last-hour freeze (M42-R5: no change of vote and no 代投), the night deadline
for wolves and seer, and every speed-up / delay request with the reason it was
or was not counted.

Rule text (RULINGS.md M42-R15 and the rule post, 讨论日长短 / 行动时限 /
投票规则), and the readings taken here where it is silent:

- A *natural day* is a calendar date in the game's zone, 00:00 to 24:00.
- The first natural day is the opening date if the day opens strictly before
  ``close_time``, else the next date. Two natural days; if either is a
  Saturday or Sunday one more is added (the added day never adds another).
  The day closes at ``close_time`` on its last natural day.
- A request is a post in the process thread whose own text (quotes and
  ``[hide]`` removed: ``markup.own_text``, then ``text.fold``, then white
  space removed) contains 申请加速 / 申请延时, simplified or traditional
  (申請加速, 申請延時), 延迟 accepted for 延时 (the rule post itself says
  "延迟成功"). The reversed order (加速申请 / 延时申请) counts only when it is
  the whole post (punctuation and "+1" aside): inside a sentence it is
  usually talk about requests ("加速申请截止到几点？"). A mention right after a
  negation or a withdrawal (不/别/没/勿/不要/不用/不想/不会/没有/无需/不必/
  取消/撤回/撤销) is not a request; it is listed, not counted, with a note
  for the director (whether it withdraws an earlier request is the
  director's call). One post may hold one request of each kind.
- A request counts for the natural day of its (zone) date. A request made
  after the day opened but before its first natural day (day opened after
  ``close_time``) counts for the first natural day. It counts only if posted
  at or before that natural day's cut-off (``close_time - cutoff_hours``),
  at or after the opening, by a living character (account mapped by
  ``Roster.by_account``), once per character, natural day and kind.
- At each natural day's cut-off, in order: speed-up requests ≥ half of the
  living (``count * 2 >= len(living)``, at least one request) and delay
  requests likewise. A speed-up closes the day at that natural day's close
  and nothing later is evaluated. A delay appends one natural day after the
  currently last one. Both on the same natural day: the delay wins (the rule:
  a delay cancels a speed-up), so the speed-up is not applied.
- ``auto_speedup=True`` (the director's speed-up when few remain; see
  ``should_auto_speedup``, option ``auto_speedup_at_living``, default 5): the
  day is sped up from its opening and closes at ``close_time`` of its first
  natural day, weekend or not. Requests are still read on that day: a
  successful delay cancels the speed-up and adds one natural day after it.
- ``cutoff`` in the result is the cut-off on the last natural day (the one
  that decided the close); ``freeze`` is ``closes - freeze_minutes``;
  ``night_deadline`` is ``closes + 1 h`` (wolves' kill, the seer).
- ``why`` in a request is "" when it was counted, else a Chinese reason the
  director can paste.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta, tzinfo

import regex

from modtool.sdk import Body, fold, own_text, Post, Roster, zone

TIME_FMT = "%Y-%m-%d %H:%M:%S"
SPEEDUP = "speedup"
DELAY = "delay"
_KIND_ZH = {SPEEDUP: "加速", DELAY: "延时"}
#: M42-R15: the director may declare a speed-up when this many or fewer remain.
AUTO_SPEEDUP_AT_LIVING = 5
#: M42-R15 / 行动时限: wolves and seer act within an hour of the close.
NIGHT_ACTION_HOURS = 1

_WS = regex.compile(r"\s+", regex.V1)
_NEG = r"(?<!不|别|別|没|沒|勿|不要|不用|不想|不会|不會|没有|沒有|无需|無需|不必|取消|撤回|撤销|撤銷)"
_KIND_PAT = {SPEEDUP: r"加速", DELAY: r"延[时時迟遲]"}
_ASK = r"申[请請]"
_REQ = {k: regex.compile(_NEG + _ASK + p, regex.V1) for k, p in _KIND_PAT.items()}
_MENTION = {k: regex.compile(_ASK + p, regex.V1) for k, p in _KIND_PAT.items()}
# The reversed order, accepted only as the whole post (punctuation / +1 aside).
_WHOLE_REVERSED = {
    k: regex.compile(r"[\p{P}\p{S}]*" + p + _ASK + r"[\p{P}\p{S}]*(?:\+1)?[\p{P}\p{S}]*", regex.V1)
    for k, p in _KIND_PAT.items()
}


@dataclass
class DaySchedule:
    day: int
    opens: datetime
    natural_days: list[date]
    closes: datetime
    cutoff: datetime
    freeze: datetime
    sped_up: bool = False
    delayed: int = 0
    weekend_extended: bool = False
    requests: list[dict] = field(default_factory=list)
    decisions: list[dict] = field(default_factory=list)
    night_deadline: datetime | None = None

    def to_json(self) -> dict:
        return _jsonable(
            {
                "day": self.day,
                "opens": self.opens,
                "natural_days": self.natural_days,
                "closes": self.closes,
                "cutoff": self.cutoff,
                "freeze": self.freeze,
                "sped_up": self.sped_up,
                "delayed": self.delayed,
                "weekend_extended": self.weekend_extended,
                "requests": self.requests,
                "decisions": self.decisions,
                "night_deadline": self.night_deadline,
            }
        )


def _jsonable(x):
    if isinstance(x, datetime):
        return x.strftime(TIME_FMT)
    if isinstance(x, date):
        return x.isoformat()
    if isinstance(x, dict):
        return {str(k): _jsonable(v) for k, v in x.items()}
    if isinstance(x, (list, tuple, set)):
        return [_jsonable(v) for v in x]
    return x


def _zone(tz) -> tzinfo:
    if isinstance(tz, str):
        return zone(tz)
    return tz


def _local(dt: datetime, tz: tzinfo) -> datetime:
    return dt.replace(tzinfo=tz) if dt.tzinfo is None else dt.astimezone(tz)


def natural_day_bounds(d: date, tz) -> tuple[datetime, datetime]:
    """The natural day ``d`` in the game's zone: [00:00 of d, 00:00 of d+1)."""
    tz = _zone(tz)
    return datetime.combine(d, time(0), tzinfo=tz), datetime.combine(d + timedelta(days=1), time(0), tzinfo=tz)


def should_auto_speedup(living, at_living: int = AUTO_SPEEDUP_AT_LIVING) -> bool:
    """M42-R15: the director's speed-up applies when ``at_living`` or fewer remain."""
    return len(living) <= at_living


def _at(d: date, clock: time, tz: tzinfo) -> datetime:
    return datetime.combine(d, clock, tzinfo=tz)


def _is_weekend(d: date) -> bool:
    return d.weekday() >= 5


def request_kinds(body: str) -> tuple[list[str], list[str]]:
    """(kinds requested, kinds only mentioned under a negation) in a post body.

    Only the poster's own text is read (quotes and [hide] removed).
    """
    return _request_kinds_in(own_text(body))


def _request_kinds_in(own: str) -> tuple[list[str], list[str]]:
    """``request_kinds`` on the poster's own text (already split off)."""
    text = _WS.sub("", fold(own))
    asked, negated = [], []
    for kind in (SPEEDUP, DELAY):
        if _REQ[kind].search(text) or _WHOLE_REVERSED[kind].fullmatch(text):
            asked.append(kind)
        elif _MENTION[kind].search(text):
            negated.append(kind)
    return asked, negated


def compute_day_schedule(
    day: int,
    opens: datetime,
    close_time: time,
    tz,
    living: set[str],
    process_posts: list[Post],
    roster: Roster,
    auto_speedup: bool = False,
    freeze_minutes: int = 60,
    cutoff_hours: int = 3,
) -> DaySchedule:
    """The schedule of discussion day ``day`` (M42-R15). Never raises on posts."""
    tz = _zone(tz)
    opens = _local(opens, tz)
    living = set(living)
    n_living = len(living)
    needed = max(1, (n_living + 1) // 2)
    cut = timedelta(hours=cutoff_hours)

    first = opens.date() if opens.time() < close_time else opens.date() + timedelta(days=1)
    days = [first, first + timedelta(days=1)]
    weekend = any(_is_weekend(x) for x in days)
    if weekend:
        days.append(days[-1] + timedelta(days=1))
    sped_up = False
    if auto_speedup:
        days = [first]
        sped_up = True

    # --- read every request once (independent of the close) ---------------------
    requests: list[dict] = []
    seen: set[tuple[date, str, str]] = set()
    by_day: dict[date, dict[str, int]] = {}
    for p in sorted(process_posts, key=lambda p: (_local(p.time, tz), p.floor)):
        own = p.split()  # the post's memoised split: own text, quotes and [hide] removed
        asked, negated = _request_kinds_in(own.own if isinstance(own, Body) else "")
        if not asked and not negated:
            continue
        when = _local(p.time, tz)
        nd = max(when.date(), first) if when >= opens else when.date()
        ch = roster.by_account(p.author)
        name = ch.name if ch else None
        cutoff_here = _at(nd, close_time, tz) - cut
        for kind in asked + negated:
            zh = _KIND_ZH[kind]
            why = ""
            if kind in negated:
                why = f"帖子写的是否定或撤回（如「不申请{zh}」），不当作申请；是否撤回之前的申请请导演核对"
            elif when < opens:
                why = f"在本讨论日开始（{opens.strftime('%m-%d %H:%M')}）之前申请，不计入"
            elif ch is None:
                why = f"发帖账号「{p.author}」不是本局角色，不计入"
            elif name not in living:
                why = f"{name} 已出局，申请不计入"
            elif when > cutoff_here:
                why = f"在当日截止时间 {cutoff_here.strftime('%m-%d %H:%M')} 之后申请{zh}，不计入"
            elif (nd, kind, name) in seen:
                why = f"{name} 在 {nd.strftime('%m-%d')} 已申请过{zh}，重复申请不计入"
            counted = not why
            if counted:
                seen.add((nd, kind, name))
                by_day.setdefault(nd, {SPEEDUP: 0, DELAY: 0})[kind] += 1
            requests.append(
                {
                    "natural_day": nd,
                    "kind": kind,
                    "character": name,
                    "account": p.author,
                    "floor": p.floor,
                    "time": when,
                    "counted": counted,
                    "why": why,
                }
            )

    # --- decide, natural day by natural day -------------------------------------
    decisions: list[dict] = []
    delayed = 0
    i = 0
    while i < len(days):
        nd = days[i]
        counts = by_day.get(nd, {SPEEDUP: 0, DELAY: 0})
        ok = {}
        for kind in (SPEEDUP, DELAY):
            c = counts[kind]
            ok[kind] = c >= 1 and c * 2 >= n_living
            decisions.append(
                {"natural_day": nd, "kind": kind, "count": c, "needed": needed, "living": n_living, "success": ok[kind]}
            )
        if ok[DELAY]:  # a delay cancels a speed-up, the same day's included
            delayed += 1
            sped_up = False
            days.append(days[-1] + timedelta(days=1))
        elif ok[SPEEDUP]:
            sped_up = True
            del days[i + 1 :]
            break
        i += 1

    last = days[-1]
    closes = _at(last, close_time, tz)
    for r in requests:
        if r["time"] > closes:
            r["counted"] = False
            r["why"] = f"在本讨论日关门（{closes.strftime('%m-%d %H:%M')}）之后申请，不计入"

    return DaySchedule(
        day=day,
        opens=opens,
        natural_days=days,
        closes=closes,
        cutoff=closes - cut,
        freeze=closes - timedelta(minutes=freeze_minutes),
        sped_up=sped_up,
        delayed=delayed,
        weekend_extended=weekend,
        requests=requests,
        decisions=decisions,
        night_deadline=closes + timedelta(hours=NIGHT_ACTION_HOURS),
    )
