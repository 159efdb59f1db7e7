"""The 甄嬛 day as a vote chart: each nomination a bar of its voters (a ghost
vote marked 「死者票」), the execution threshold (half the living, rounded up,
ZH-R11) drawn, and who voted for no nomination; from the same day report as
the public ``nominations`` post."""

from __future__ import annotations

from modtool.sdk import Bar, Segment, VoteChart, ChartWords as Words
from modtool.packs.zhenhuan.history import _day_board
from modtool.packs.zhenhuan.posts import nominations

WORDS = Words(votes_axis="票数", time_axis="时间", count_axis="票数", abstained="", not_voting="没有投票：{names}",
              nobody="今天没有提名", close="黄昏", freeze="", double="", change="", none="无", separator="、")


def chart_of(gd, board, day: int | None) -> VoteChart:
    data = nominations(gd, board, day)
    bars, voted = [], set()
    for n in data["nominations"]:
        label = f"{n['nominee']}号 {n['nominee_player']}（{n['nominator']}号提名）"
        segs = tuple(Segment(f"{v['seat']}号" + ("死者票" if v["ghost"] else "")) for v in n["voters"])
        voted |= {v["seat"] for v in n["voters"]}
        bars.append(Bar(label, segs, mark=n["threshold"]))  # each nomination's own threshold (ZH-R11: the living then)

    b = _day_board(gd, data["day"])
    living = [s for s in b.seats if s.alive]
    return VoteChart(title=f"{gd.game.name} 第 {data['day']} 天提名与投票", subtitle=data["result"] + "（红色虚线：处决所需票数）",
                     bars=bars, words=WORDS, not_voting=[f"{s.number}号" for s in living if s.number not in voted])
