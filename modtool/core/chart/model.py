"""What a vote chart shows, as plain values a pack fills from its replay.

Two panels: who voted for whom when counted (one bar per target, a segment
per voter, a sheriff's double vote as a segment of weight 2; then the
abstentions and who did not vote), and the day as a timeline (each target's
count after every vote and change, changes marked, the close and the
last-change line drawn). The words are the game's language.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime


@dataclass(frozen=True)
class Segment:
    voter: str
    weight: int = 1  # 2 for M42's sheriff (M42-R3)


@dataclass(frozen=True)
class Bar:
    target: str
    segments: tuple[Segment, ...]
    mark: int | None = None  # a count that decides for this bar alone (甄嬛: its nomination's threshold)

    @property
    def total(self) -> int:
        return sum(s.weight for s in self.segments)


@dataclass(frozen=True)
class Step:
    """The counts right after one vote or change."""

    at: datetime
    counts: dict  # target -> count, after this step
    who: str  # the voter
    change: bool = False  # a change (marked on the line) rather than a first vote


@dataclass(frozen=True)
class Words:
    """The chart's own words, in the game's language."""

    votes_axis: str  # x axis of the bars: "票数" / "votes"
    time_axis: str  # x axis of the timeline
    count_axis: str  # y axis of the timeline
    abstained: str  # "弃权：{names}"
    not_voting: str  # "未投票：{names}"
    nobody: str  # "无人得票" / "No votes"
    close: str  # label of the close line
    freeze: str  # label of the last-change line
    double: str  # mark of a weight-2 segment, e.g. "×2"
    change: str  # legend of the change markers
    none: str = "-"
    upto: str = ""  # label of the moment a chart was asked at
    separator: str = ", "  # between names: "、" in Chinese


@dataclass
class VoteChart:
    title: str
    subtitle: str
    bars: list[Bar]
    words: Words
    abstained: list[str] = field(default_factory=list)
    not_voting: list[str] = field(default_factory=list)
    steps: list[Step] = field(default_factory=list)
    start: datetime | None = None  # where the timeline begins
    close: datetime | None = None
    freeze: datetime | None = None  # M42: no change after this (an hour before the close)
    marks: list[tuple[datetime, str]] = field(default_factory=list)  # other moments (a hammer)
    threshold: tuple[int, str] | None = None  # a count that decides (mafia's majority), and its label
    upto: datetime | None = None  # a chart asked at a moment (--at, --floor) ends there, marked

    def totals(self) -> dict[str, int]:
        return {b.target: b.total for b in self.bars}

    def texts(self) -> list[str]:
        """Every text the chart draws (for the font check)."""
        w = self.words
        out = [self.title, self.subtitle, w.votes_axis, w.time_axis, w.count_axis, w.close, w.freeze,
               w.double, w.change, w.nobody, w.abstained.format(names=w.none), w.none]
        out += [w.abstained.format(names=w.separator.join(self.abstained)),
                w.not_voting.format(names=w.separator.join(self.not_voting))]
        for b in self.bars:
            out += [b.target, str(b.total), str(b.mark or "")] + [s.voter for s in b.segments]
        out += [label for _, label in self.marks] + [self.words.upto]
        if self.threshold:
            out.append(self.threshold[1])
        return out
