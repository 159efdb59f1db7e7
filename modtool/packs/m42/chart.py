"""M42's vote chart: the same replay as the vote post (``tally_day`` on the
day's posts and proxies), drawn as who voted for whom and the day's timeline.

What the rules decide is the tally's, drawn as it counts: the sheriff's vote
weighs 2 and an abstention counts for no one (M42-R3), a change replaces the
voter's vote, and no change is allowed in the last hour before the close
(M42-R5: the 改票截止 line; none on a sped-up day, M42-R15)."""

from __future__ import annotations

from datetime import datetime, timedelta

from modtool.sdk import Bar, ChartWords as Words, fmt, Segment, Step, VoteChart

WORDS = Words(votes_axis="票数", time_axis="时间", count_axis="票数", abstained="弃权：{names}",
              not_voting="未投票：{names}", nobody="无人得票", close="关门", freeze="改票截止",
              double="×2", change="改票", none="无", separator="、", upto="统计到")


def chart_of(gd, ctx, t, *, upto: str | None = None, upto_at: datetime | None = None,
             freeze_minutes: int = 60) -> VoteChart:
    """The chart of ``t`` (an M42 ``Tally`` of day ``ctx.day``, as the vote post counts it)."""
    current = t.current()
    order = {name: i for i, name in enumerate(t.counts)}
    bars = []
    for target, _ in t.counts.items():
        segs = tuple(Segment(v["voter"], v["weight"]) for v in current if not v["abstain"] and v["target"] == target)
        if segs:
            bars.append(Bar(target, segs))
    bars.sort(key=lambda b: (-b.total, order[b.target]))
    steps: list[Step] = []
    held: dict[str, tuple[str, int, bool]] = {}  # voter -> (target, weight, abstain)
    counts: dict[str, int] = {}
    for v in t.valid:  # in the order the replay counted them
        before = held.get(v["voter"])
        if before is not None and not before[2]:
            counts[before[0]] = counts.get(before[0], 0) - before[1]
        held[v["voter"]] = (v["target"], v["weight"], v["abstain"])
        if not v["abstain"]:
            counts[v["target"]] = counts.get(v["target"], 0) + v["weight"]
        steps.append(Step(_aware(v["time"], ctx.close), dict(counts), v["voter"], change=v["kind"] == "change"))
    result = t.result.get("explain", "")
    subtitle = f"关门 {fmt(ctx.close, False)}" + ("（本日加速）" if ctx.sped_up else "") + \
        (f"；统计到 {upto}" if upto else "") + (f"；{result}" if result and not upto else "")
    freeze = None if ctx.sped_up else ctx.close - timedelta(minutes=freeze_minutes)
    start = min([s.at for s in steps] + [ctx.close - timedelta(hours=12)])
    title = f"{gd.game.name} 第{ctx.day}天" + ("警长竞选票型" if ctx.day <= 1 else "放逐票型")
    return VoteChart(title=title, subtitle=subtitle, bars=bars, words=WORDS,
                     abstained=[v["voter"] for v in current if v["abstain"]], not_voting=list(t.not_voted),
                     steps=steps, start=start.replace(minute=0, second=0, microsecond=0), close=ctx.close, freeze=freeze,
                     upto=upto_at if upto_at is not None else (steps[-1].at if upto and steps else None))


def _aware(when, close: datetime) -> datetime:
    if isinstance(when, str):
        when = datetime.fromisoformat(when)
    return when if when.tzinfo is not None else when.replace(tzinfo=close.tzinfo)
