"""A day's votes in the M42 vote thread -> a tally and its result.

Rulings implemented here (RULINGS.md): M42-R2 (sheriff election, day 1),
M42-R3 (sheriff's double vote, abstention counts nothing), M42-R4 (exile,
day >= 2, scapegoat on a tie or no votes), M42-R5 (vote posts), M42-R8
(characters barred by the scapegoat cannot vote).

Pipeline: posts (floor order) and the director's proxy votes (代投, merged in
by time, after the posts of the same minute) -> one event stream -> each event
is checked and either counted, or listed as invalid with a pasteable reason.
Nothing here raises on bad input: every problem is a value in the Tally.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from operator import itemgetter

import regex

from modtool.packs.m42.voteparse import FormatError, ParsedVote, VoteLabels, labels_patterns, parse_vote_compiled
from modtool.sdk import Body, fold_name, Post, ReplyRef, Roster
from modtool.sdk import closest as _hint  # "did you mean" hints never decide a vote (M42-R5)

TIME_FMT = "%Y-%m-%d %H:%M:%S"


@dataclass
class VoteOptions:
    """Judgement calls of the vote rules; defaults from RULINGS.md."""

    change_limit: int = 1  # M42-R5: a change is allowed once per day
    change_freeze_minutes: int = 60  # M42-R5: no change in the last hour before close
    sheriff_weight: int = 2  # M42-R3
    proxy_freeze_minutes: int = 60  # M42-R5: no 代投 in the last hour before close
    scapegoat_role: str = "scapegoat"  # role id of 替罪羊 (M42-R4, M42-R8)
    vote_in_hide: bool = False  # a vote inside [hide] is not public, so not read


@dataclass
class ProxyVote:
    """A delegated vote (代投) recorded by the director (M42-R5)."""

    voter: str  # character name
    target: str
    at: datetime
    kind: str = "vote"  # "vote" | "change"
    line: int | None = None  # ledger line, for messages
    note: str = ""
    event: int | str | None = None  # the proxy event's id (modtool.base.events.ref_of): what reports name


@dataclass
class DayContext:
    day: int
    roster: Roster
    alive: set[str]  # character names in the game at the start of the day
    sheriff: str | None
    barred: set[str]  # M42-R8: characters the scapegoat barred from voting today
    close: datetime
    sped_up: bool = False
    scapegoat: str | None = None  # the scapegoat's name if alive, else None


def scapegoat_of(roster: Roster, alive: set[str], options: VoteOptions | None = None) -> str | None:
    """The living scapegoat's name, for ``DayContext.scapegoat``."""
    role = (options or VoteOptions()).scapegoat_role
    for c in roster:
        if c.role == role and c.name in alive:
            return c.name
    return None


@dataclass
class Tally:
    day: int
    valid: list[dict] = field(default_factory=list)
    changes: list[dict] = field(default_factory=list)
    invalid: list[dict] = field(default_factory=list)
    ignored: list[dict] = field(default_factory=list)
    chatter: list[dict] = field(default_factory=list)  # M42-R5: roster posts that do not try to vote
    flags: list[dict] = field(default_factory=list)
    not_voted: list[str] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)
    result: dict = field(default_factory=dict)

    def current(self) -> list[dict]:
        """The votes that count now (not replaced by a change)."""
        return [v for v in self.valid if v.get("changed_to") is None]

    def to_json(self) -> dict:
        return _jsonable(
            {
                "day": self.day,
                "valid": self.valid,
                "changes": self.changes,
                "invalid": self.invalid,
                "ignored": self.ignored,
                "chatter": self.chatter,
                "flags": self.flags,
                "not_voted": self.not_voted,
                "counts": self.counts,
                "result": self.result,
            }
        )


def _jsonable(x):
    if isinstance(x, datetime):
        return x.strftime(TIME_FMT)
    if isinstance(x, dict):
        return {str(k): _jsonable(v) for k, v in x.items()}
    if isinstance(x, (list, tuple, set)):
        return [_jsonable(v) for v in x]
    return x


# --- the tally -----------------------------------------------------------------


_REF_TIME = regex.compile(r"(\d{4})-(\d{1,2})-(\d{1,2})\s+(\d{1,2}):(\d{2})", regex.V1)


def _minute_key(t: datetime) -> tuple:
    return (t.year, t.month, t.day, t.hour, t.minute)


def _ref_matches(ref: ReplyRef, post: Post, zone) -> bool:
    if ref.pid and post.pid and str(ref.pid) == str(post.pid):
        return True
    if ref.floor is not None and ref.floor == post.floor:
        return True
    if ref.author and ref.time and fold_name(ref.author) == fold_name(post.author):
        m = _REF_TIME.search(ref.time)
        if m:
            t = post.time.astimezone(zone) if (zone is not None and post.time.tzinfo) else post.time
            if tuple(int(g) for g in m.groups()) == _minute_key(t):
                return True
    return False


class _Day:
    """Mutable state while the day's events are replayed."""

    def __init__(self, ctx: DayContext, labels: VoteLabels, options: VoteOptions):
        self.ctx = ctx
        self.labels = labels
        self.pats = labels_patterns(labels)  # compiled once per tally, not per post
        self.options = options
        self.zone = ctx.close.tzinfo
        self.t = Tally(day=ctx.day)
        self.counted: dict[str, dict] = {}  # voter -> current valid entry
        self.vote_posts: dict[str, list[Post]] = {}  # voter -> posts a change may reply to
        self.changes_used: dict[str, int] = {}
        # Replay log for M42-R2: (+target, -target, where: the vote's floor (None: 代投) and time).
        self.events: list[tuple[str, str | None, tuple]] = []
        self.live_labels = [
            lab
            for c in ctx.roster
            if c.name in ctx.alive
            for lab in (c.name, *c.aliases)
        ] + list(labels.abstain)

    def aware(self, t: datetime) -> datetime:
        if t.tzinfo is None and self.zone is not None:
            return t.replace(tzinfo=self.zone)
        if t.tzinfo is not None and self.zone is None:
            return t.replace(tzinfo=None)
        return t

    # -- reporting helpers
    def invalid(self, *, floor, pid, author, voter, reason, hint=None, time=None, **extra):
        e = {"floor": floor, "pid": pid, "author": author, "voter": voter, "reason": reason, "hint": hint, "time": time}
        e.update(extra)
        self.t.invalid.append(e)

    def invalid_post(self, base: dict, reason: str) -> None:
        """``invalid(**base, reason=reason)`` without the keyword round trip."""
        self.t.invalid.append(
            {"floor": base["floor"], "pid": base["pid"], "author": base["author"], "voter": base["voter"],
             "reason": reason, "hint": None, "time": base["time"]}
        )

    def flag(self, floor, voter, kind, note):
        self.t.flags.append({"floor": floor, "voter": voter, "kind": kind, "note": note})

    def weight(self, voter: str, abstain: bool) -> int:
        if abstain:
            return 0  # M42-R3
        if self.ctx.day >= 2 and self.ctx.sheriff and voter == self.ctx.sheriff:
            return self.options.sheriff_weight  # M42-R3
        return 1

    def resolve_target(self, pv: ParsedVote) -> tuple[str | None, str | None, str | None]:
        """(name, error, hint): the living character (or "弃权") the target names."""
        if pv.abstain:
            return "弃权", None, None
        hits = self.ctx.roster.lookup(pv.raw_target)  # folded as the roster folds names (M42-R5a: fold_script)
        label = "改票对象" if pv.kind == "change" else "投票对象"
        if len(hits) > 1:
            names = "、".join(f"「{c.name}」" for c in hits)
            return None, f"{label}「{pv.raw_target}」同时是{names}的名字或别名，无法判断投给谁", None
        if len(hits) == 1:
            c = hits[0]
            if c.name not in self.ctx.alive:
                return None, f"{label}「{pv.raw_target}」（{c.name}）已出局", None
            return c.name, None, None
        h = _hint(pv.target, self.live_labels)
        return None, f"{label}「{pv.raw_target}」不是存活角色的名字", (f"你是不是想投「{h}」？" if h else None)

    # -- a post
    def post(self, p: Post) -> None:
        ctx = self.ctx
        ch = ctx.roster.by_account(p.author)
        if ch is None:  # M42-R5: not in the roster -> ignored and listed
            self.t.ignored.append({"floor": p.floor, "pid": p.pid, "author": p.author, "time": p.time})
            return
        voter = ch.name
        base = {"floor": p.floor, "pid": p.pid, "author": p.author, "voter": voter, "time": p.time}
        zombie = voter not in ctx.alive
        if zombie:  # M42-R17: any post by a character who is out is flagged (诈尸)
            self.flag(p.floor, voter, "zombie", f"{voter}已出局，仍在投票帖发帖（诈尸）")
        body = p.split(keep_hidden=self.options.vote_in_hide)
        if not isinstance(body, Body):
            self.invalid_post(base, body.reason)
            return
        pats = self.pats
        pv = parse_vote_compiled(body.own, pats)
        if isinstance(pv, FormatError) and pv.not_a_vote:
            if body.hidden and any(
                not isinstance(parse_vote_compiled(h, pats), FormatError) or "投票" in h or "改票" in h
                for h in body.hidden
            ):
                pv = FormatError("格式错误：投票写在[hide]隐藏内容里，其他玩家看不到，不算公开投票；请公开重新发帖")
            else:
                # M42-R5: chatter (quoted votes included) is not a vote, so not an invalid one.
                self.t.chatter.append(base)
                return
        if zombie:  # M42-R5: a character who is out cannot vote
            self.invalid_post(base, f"{voter}已出局，不能投票（诈尸）")
            return
        if isinstance(pv, FormatError):
            self.invalid_post(base, pv.reason)
            return
        if p.edited:  # M42-R5, G-R3: counts as it reads now, flagged, with the text it had before
            before = "".join(f"；之前的版本：「{' / '.join(str(v.get('body', '')).split())}」"
                             for v in (p.extra.get("earlier") or []))
            if p.extra.get("after_close"):  # G-R3: an edit after the close does not count
                before += f"；关门后又被编辑为「{' / '.join(str(p.extra['after_close']).split())}」，不计（G-R3）"
            self.flag(p.floor, voter, "edited", f"投票帖被编辑过（{p.edited}），按现在的内容计票，请导演核对{before}")
        if voter in ctx.barred:  # M42-R8
            self.invalid_post(base, f"{voter}被替罪羊指定今天不得投票（M42-R8）")
            return
        if self.aware(p.time) > ctx.close:
            self.invalid_post(base, "关门后发帖，投票无效（迟到）")
            return
        if pv.kind == "vote":
            self.new_vote(base, pv, p)
        else:
            self.change(base, pv, p, body=body)

    def new_vote(self, base: dict, pv: ParsedVote, p: Post | None, proxy: dict | None = None) -> None:
        voter = base["voter"]
        if voter in self.counted:
            first = self._first_vote(voter)
            where = f"你的有效投票在第{first['floor']}楼" if first and first.get("floor") is not None else "你已有一票有效投票（导演代投）"
            self.invalid(**base, reason="已经投过票；改票请用改票格式并回复原投票楼层", hint=where, **(proxy or {}))
            return
        name, err, hint = self.resolve_target(pv)
        if err:
            self.invalid(**base, reason=err, hint=hint, **(proxy or {}))
            return
        entry = {
            **base,
            "target": name,
            "raw_target": pv.raw_target,
            "weight": self.weight(voter, pv.abstain),
            "kind": "vote",
            "abstain": pv.abstain,
            "changed_to": None,
            "changed_at_floor": None,
            **(proxy or {}),
        }
        self.t.valid.append(entry)
        self.counted[voter] = entry
        if p is not None:
            self.vote_posts.setdefault(voter, []).append(p)
        self.events.append((name, None, (base["floor"], base["time"])))

    def _first_vote(self, voter: str) -> dict | None:
        for v in self.t.valid:
            if v["voter"] == voter and v["kind"] == "vote":
                return v
        return None

    def change(
        self, base: dict, pv: ParsedVote, p: Post | None, proxy: dict | None = None, body: Body | None = None
    ) -> None:
        ctx, opt = self.ctx, self.options
        voter = base["voter"]
        extra = proxy or {}
        if ctx.sped_up:
            self.invalid(**base, reason="今天执行加速，不允许改票", **extra)
            return
        t = self.aware(base["time"])
        if t >= ctx.close - timedelta(minutes=opt.change_freeze_minutes):
            self.invalid(**base, reason=f"关门前{_minutes(opt.change_freeze_minutes)}内不允许改票", **extra)
            return
        cur = self.counted.get(voter)
        if cur is None:
            self.invalid(
                **base, reason="还没有有效的投票，不能改票；请用投票格式（投票对象/投票理由）重新发帖", **extra
            )
            return
        if self.changes_used.get(voter, 0) >= opt.change_limit:
            self.invalid(**base, reason=f"改票只允许{_times(opt.change_limit)}，今天已经改过票", **extra)
            return
        if p is not None:  # a posted change must reply to the voter's own counted vote post
            own = self.vote_posts.get(voter, [])
            if not own:
                self.invalid(**base, reason="原投票是导演代投，改票请联系导演", **extra)
                return
            refs = [p.reply_to] if p.reply_to is not None else []
            if body is None:
                body = p.split()
            if isinstance(body, Body):
                refs.extend(body.refs)
            if not any(_ref_matches(r, q, self.zone) for r in refs for q in own):
                floors = "、".join(str(q.floor) for q in own)
                self.invalid(
                    **base,
                    reason="改票需回复原投票楼层",
                    hint=f"请回复（引用）你的有效投票（第{floors}楼）重新改票",
                    **extra,
                )
                return
        name, err, hint = self.resolve_target(pv)
        if err:
            self.invalid(**base, reason=err, hint=hint, **extra)
            return
        self.changes_used[voter] = self.changes_used.get(voter, 0) + 1
        entry = {
            **base,
            "target": name,
            "raw_target": pv.raw_target,
            "weight": self.weight(voter, pv.abstain),
            "kind": "change",
            "abstain": pv.abstain,
            "changed_to": None,
            "changed_at_floor": None,
            **extra,
        }
        cur["changed_to"] = name
        cur["changed_at_floor"] = base["floor"]
        self.t.valid.append(entry)
        self.t.changes.append({"floor": base["floor"], "voter": voter, "from": cur["target"], "to": name, **extra})
        self.counted[voter] = entry
        if p is not None:
            self.vote_posts.setdefault(voter, []).append(p)
        self.events.append((name, cur["target"], (base["floor"], base["time"])))

    # -- a proxy vote (代投)
    def proxy(self, pr: ProxyVote) -> None:
        ctx, opt = self.ctx, self.options
        ch = ctx.roster.get(pr.voter) or next(iter(ctx.roster.lookup(pr.voter)), None)
        extra = {"proxy": True, "event": pr.event, "note": pr.note}
        at = self.aware(pr.at)
        if ch is None:
            self.invalid(
                floor=None, pid=None, author=None, voter=None, time=at,
                reason=f"代投：「{pr.voter}」不是本局角色", **extra,
            )
            return
        base = {"floor": None, "pid": None, "author": ch.account, "voter": ch.name, "time": at}
        if ch.name not in ctx.alive:
            self.invalid(**base, reason=f"代投：{ch.name}已出局，不能投票", **extra)
            return
        if ch.name in ctx.barred:
            self.invalid(**base, reason=f"代投：{ch.name}被替罪羊指定今天不得投票（M42-R8）", **extra)
            return
        if at > ctx.close:
            self.invalid(**base, reason="代投：关门后，投票无效（迟到）", **extra)
            return
        if at >= ctx.close - timedelta(minutes=opt.proxy_freeze_minutes):
            self.invalid(**base, reason=f"代投：关门前{_minutes(opt.proxy_freeze_minutes)}内不接受代投", **extra)
            return
        target = fold_name(pr.target)
        pv = ParsedVote(
            kind="change" if pr.kind == "change" else "vote",
            target=target,
            raw_target=pr.target.strip(),
            reason="导演代投",
            abstain=target in {fold_name(a) for a in self.labels.abstain},
        )
        if not target:
            self.invalid(**base, reason="代投：没有明确的投票对象", **extra)
        elif pv.kind == "vote":
            self.new_vote(base, pv, None, extra)
        else:
            self.change(base, pv, None, extra)

    # -- the end of the day
    def finish(self) -> Tally:
        ctx, t = self.ctx, self.t
        current = t.current()
        voted = {v["voter"] for v in current}
        t.not_voted = [c.name for c in ctx.roster if c.name in ctx.alive and c.name not in ctx.barred and c.name not in voted]
        order = {c.name: i for i, c in enumerate(ctx.roster)}
        counts: dict[str, int] = {}
        for v in current:
            if not v["abstain"]:  # M42-R3
                counts[v["target"]] = counts.get(v["target"], 0) + v["weight"]
        t.counts = dict(sorted(counts.items(), key=lambda kv: (-kv[1], order.get(kv[0], len(order)), kv[0])))
        t.result = self.sheriff_result() if ctx.day <= 1 else self.exile_result()
        return t

    def sheriff_result(self) -> dict:
        """M42-R2: most valid votes; tie -> among the tied, the one whose running tally
        rose to the final maximum earliest, counting for each the last moment it rose
        to that value; no valid votes -> no sheriff."""
        counts = {k: v for k, v in self.t.counts.items() if v > 0}
        if not counts:
            return {"kind": "no_sheriff", "target": None, "tied": [], "rule": "M42-R2",
                    "explain": "没有任何角色获得有效票，本局不产生警长（M42-R2）。"}
        top = max(counts.values())
        tied = [k for k, v in counts.items() if v == top]
        if len(tied) == 1:
            return {"kind": "sheriff", "target": tied[0], "tied": [], "rule": "M42-R2",
                    "explain": f"{tied[0]}以{top}票获得最多有效票，当选警长（M42-R2）。"}
        # Replay valid votes and changes in post order (weights are 1 on day 1).
        running: dict[str, int] = {}
        first_rise: dict[str, int] = {}
        last_rise: dict[str, int] = {}
        for i, (plus, minus, _) in enumerate(self.events):
            if plus == minus:
                continue  # a change to the same target moves nothing
            if minus is not None and minus != "弃权":
                running[minus] = running.get(minus, 0) - 1
            if plus is not None and plus != "弃权":
                running[plus] = running.get(plus, 0) + 1
                if running[plus] == top:
                    first_rise.setdefault(plus, i)
                    last_rise[plus] = i
        order = sorted(tied, key=lambda k: last_rise.get(k, len(self.events)))
        winner = order[0]
        return {"kind": "sheriff", "target": winner, "tied": tied, "rule": "M42-R2",
                "explain": self._tie_explain(tied, order, top, first_rise, last_rise)}

    def _tie_explain(self, tied: list[str], order: list[str], top: int, first: dict, last: dict) -> str:
        """M42-R2 in the director's words, as computed: each tied character's last rise to
        the final maximum, earliest first; and a character who had reached it earlier
        but fell back, whose earlier moment does not count (the chart shows it)."""
        def where(i: int) -> str:
            floor, time = self.events[i][2]
            stamp = f"（{self.aware(time):%m-%d %H:%M}）" if time is not None else ""
            return (f"{floor}楼" if floor is not None else "代投") + stamp

        rises = "、".join(f"{k} {where(last[k])}" for k in order if k in last)
        winner = order[0]
        text = (f"{'、'.join(tied)}同为{top}票。平票时比较各人票数最后一次升到{top}票的时刻（M42-R2）："
                f"{rises}；{winner}最早，当选警长（M42-R2）。")
        earlier = [k for k in order[1:] if k in first and first[k] < last[winner]]
        for k in earlier:
            text += f"{k}在 {where(first[k])} 曾先到{top}票，之后票数减少，再升到{top}票已晚于{winner}。"
        return text

    def exile_result(self) -> dict:
        """M42-R4: unique top exiled; tie or no votes -> scapegoat if alive."""
        sg = self.ctx.scapegoat
        counts = {k: v for k, v in self.t.counts.items() if v > 0}
        if not counts:
            if sg:
                return {"kind": "scapegoat", "target": sg, "tied": [], "rule": "M42-R4",
                        "explain": f"没有任何角色获得有效票，替罪羊{sg}冤死出局（M42-R4）。"}
            return {"kind": "no_exile", "target": None, "tied": [], "rule": "M42-R4",
                    "explain": "没有任何角色获得有效票，替罪羊已不在场，今天无人出局（M42-R4）。"}
        top = max(counts.values())
        tied = [k for k, v in counts.items() if v == top]
        if len(tied) == 1:
            return {"kind": "exile", "target": tied[0], "tied": [], "rule": "M42-R4",
                    "explain": f"{tied[0]}以{top}票获得最多票，被放逐出局（M42-R4）。"}
        names = "、".join(tied)
        if sg:
            return {"kind": "scapegoat", "target": sg, "tied": tied, "rule": "M42-R4",
                    "explain": f"{names}同为{top}票平票，替罪羊{sg}代替平票角色冤死出局（M42-R4）。"}
        return {"kind": "no_exile", "target": None, "tied": tied, "rule": "M42-R4",
                "explain": f"{names}同为{top}票平票，替罪羊已不在场，今天无人出局（M42-R4）。"}


def _minutes(m: int) -> str:
    if m % 60 == 0:
        return "一小时" if m == 60 else f"{m // 60}小时"
    return f"{m}分钟"


def _times(n: int) -> str:
    return "一次" if n == 1 else f"{n}次"


_EDIT_TIME = regex.compile(r"于\s*(\d{4})-(\d{1,2})-(\d{1,2})\s+(\d{1,2}):(\d{2})(?::(\d{2}))?")


def edit_time(edited: str | None, aware) -> datetime | None:
    """The time in a Discuz edit line (「本帖最后由 X 于 2026-11-5 20:52 编辑」), or None."""
    m = _EDIT_TIME.search(edited or "")
    if m is None:
        return None
    try:
        return aware(datetime(*(int(g) for g in m.groups() if g is not None)))
    except ValueError:
        return None


def version_at_close(p: Post, close: datetime, aware) -> Post:
    """G-R3: the version of an edited post standing at the day's close, where the
    forum gives the edit time. An edit after the close leaves the earlier saved
    version in force (flagged with the later text); an edit before it is read
    as a post at the edit time for the rules that depend on time (M42-R5's last
    hour). Without an edit time the latest version counts."""
    import dataclasses

    when = edit_time(p.edited, aware)
    if when is None:
        return p
    if when <= close:
        return dataclasses.replace(p, time=max(aware(p.time), when)) if when > aware(p.time) else p
    for v in reversed(p.extra.get("earlier") or []):
        t = edit_time(v.get("edited"), aware)
        if t is None or t <= close:
            extra = {**p.extra, "after_close": p.body}
            return dataclasses.replace(p, body=v.get("body", p.body), edited=v.get("edited") or p.edited, extra=extra)
    return p


def tally_day(
    ctx: DayContext,
    posts: list[Post],
    proxies: list[ProxyVote],
    labels: VoteLabels | None = None,
    options: VoteOptions | None = None,
    upto_floor: int | None = None,
    upto_time: datetime | None = None,
) -> Tally:
    """The tally of one day's vote thread (M42-R2..R5, R8).

    ``upto_floor`` / ``upto_time``: the tally as it stood right after that floor
    / at that time (later posts and proxy votes are not considered).
    """
    labels = labels or VoteLabels()
    options = options or VoteOptions()
    day = _Day(ctx, labels, options)
    if upto_time is not None:
        upto_time = day.aware(upto_time)
    aware = day.aware
    if ctx.close is not None and any(p.extra.get("earlier") for p in posts):
        posts = [version_at_close(p, aware(ctx.close), aware) for p in posts]
    # Each post's time made aware once: (sort key, post), sorted stably by key.
    keyed = [((p.floor, aware(p.time), p.pid), p) for p in posts]
    keyed.sort(key=itemgetter(0))
    prs = sorted(proxies, key=lambda x: (aware(x.at), x.line if x.line is not None else -1))
    # Merge: a proxy goes before the first post of a later minute.
    # Stream items: (is_post, post or proxy, its aware time).
    stream: list[tuple[bool, object, datetime]] = []
    if prs:
        pr_at = [aware(x.at) for x in prs]
        pr_min = [_minute_key(t) for t in pr_at]
        k = 0
        for key, p in keyed:
            t = key[1]
            pm = _minute_key(t)
            while k < len(prs) and pr_min[k] < pm:
                stream.append((False, prs[k], pr_at[k]))
                k += 1
            stream.append((True, p, t))
        stream.extend((False, prs[j], pr_at[j]) for j in range(k, len(prs)))
    else:
        stream = [(True, p, key[1]) for key, p in keyed]
    if upto_floor is not None:
        # Right after floor upto_floor: later posts and proxies are cut off.
        posts_at = [i for i, (is_post, x, _) in enumerate(stream) if is_post]
        upto = [i for i in posts_at if stream[i][1].floor <= upto_floor]
        cut = upto[-1] + 1 if upto else (posts_at[0] if posts_at else len(stream))
        stream = stream[:cut]
    for is_post, x, t in stream:
        if upto_time is not None and t > upto_time:
            continue
        if is_post:
            day.post(x)
        else:
            day.proxy(x)
    return day.finish()
