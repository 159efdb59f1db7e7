"""The mafia pack's vote chart: the same day replay as the vote count post
(``tally_day``), drawn as who votes whom and each wagon over the day."""

from __future__ import annotations

from modtool.sdk import Bar, Segment, Step, VoteChart, ChartWords as Words
from modtool.packs.mafia.day import NO_LYNCH, DayTally, facts
from modtool.packs.mafia.messages import _
from modtool.packs.mafia.views import tally_json


def words() -> Words:
    return Words(votes_axis=_("votes"), time_axis=_("time (UTC)"), count_axis=_("votes"),
                 abstained="", not_voting=_("Not voting: {names}"), nobody=_("No votes"),
                 close=_("deadline"), freeze="", double="", change=_("vote moved"), none="-", separator=", ",
                 upto=_("counted to"))


def chart_of(gd, t: DayTally, deadline=None, upto_at=None) -> VoteChart:
    data = tally_json(gd, t)
    slots = facts(gd).slots
    bars = [Bar(row["target"], tuple(Segment(v) for v in row["voters"])) for row in data["votes"]]
    bars.sort(key=lambda b: -b.total)  # stable: ties keep the oldest wagon first, as the count post
    steps = []
    for post, when, voter, counts, moved in t.steps:
        shown = {(_("No lynch") if k == NO_LYNCH else slots.name(k, post)): n for k, n in counts.items()}
        steps.append(Step(when, shown, slots.name(voter, post), change=moved))
    if data["no_lynch"]:
        bars.append(Bar(_("No lynch"), tuple(Segment(v) for v in data["no_lynch"])))
    marks = []
    if t.hammer_post is not None and steps:
        marks.append((steps[-1].at, _("hammer #{post}").format(post=t.hammer_post)))
    upto = _(" (up to post #{n})").format(n=data["upto_post"]) if data["upto_post"] is not None else ""
    subtitle = _("{living} alive, {majority} to lynch").format(**data) + upto
    if data["lynched"] and data["hammer_post"] is None:
        subtitle += "; " + _("{name} is lynched at the deadline with the most votes (deadline_rule: plurality, MS-R3).").format(
            name=data["lynched"])
    elif data["lynched"]:
        subtitle += "; " + _("{name} is lynched (majority reached at post #{post}).").format(
            name=data["lynched"], post=data["hammer_post"])
    elif data["deadline_passed"]:
        subtitle += "; " + _("The deadline passed without a majority: nobody is lynched (MS-R3).")
    first = facts(gd).posts
    start = next((p.time for p in first if p.floor == t.start), steps[0].at if steps else None)
    return VoteChart(title=_("Day {day} votes").format(day=t.day), subtitle=subtitle, bars=bars, words=words(),
                     abstained=[], not_voting=data["not_voting"], steps=steps, start=start, close=deadline, marks=marks,
                     threshold=(data["majority"], _("majority {n}").format(n=data["majority"])), upto=upto_at)
