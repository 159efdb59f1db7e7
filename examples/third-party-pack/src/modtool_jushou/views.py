"""What the commands show of a day: one dict (``--json`` prints it as it is),
the text of ``tally``, and the context of the ``result`` post's template."""

from __future__ import annotations

from modtool.sdk import fmt, Problem, UserError

from modtool_jushou.messages import _
from modtool_jushou.rules import Day, replay


def day_of(gd, day: int | None) -> Day:
    """The replay of ``day`` (the latest day when None); a user error for a day without hands."""
    if gd.problems:
        raise UserError(gd.problems)
    days = replay(gd)
    if day is None:
        if not days:
            raise UserError(Problem(_("命令行"), _("账本里还没有投票帖：先用 modtool import … --thread vote 导入")))
        day = max(days)
    if day not in days:
        known = "、".join(map(str, days)) or _("没有")
        raise UserError(Problem(_("命令行 --day"), _("第 {day} 天没有投票帖（有投票帖的：{days}）").format(day=day, days=known)))
    return days[day]


def day_json(d: Day) -> dict:
    return {
        "game": "jushou",
        "day": d.day,
        "living": len(d.living),
        "majority": d.majority,
        "deadline": fmt(d.deadline, False) or None,
        "hands": [{"name": name, "count": len(voters), "by": voters} for name, voters in d.counts()],
        "chosen": None if d.chosen is None else {
            "name": d.chosen.target, "floor": d.chosen.floor, "time": fmt(d.chosen.time, False)},
        "invalid": [{"floor": i.floor, "author": i.author, "reason": i.reason} for i in d.invalid],
        "not_raised": d.not_raised(),
    }


def tally_text(data: dict) -> str:
    lines = [_("第 {day} 天举手：在场 {living} 人，过半数为 {majority} 手").format(**data)]
    if data["deadline"]:
        lines.append(_("截止时间：{at}").format(at=data["deadline"]))
    for h in data["hands"]:
        lines.append("  " + _("{name}：{count} 手（{by}）").format(name=h["name"], count=h["count"], by="、".join(h["by"])))
    if data["chosen"]:
        lines.append(_("当选：{name}（{floor} 楼，{time}）").format(**data["chosen"]))
    else:
        lines.append(_("还没有人得到过半数的手"))
    if data["invalid"]:
        lines.append(_("不算的举手帖（{n}）：").format(n=len(data["invalid"])))
        lines += ["  " + _("{floor} 楼 {author}：{reason}").format(**i) for i in data["invalid"]]
    if data["not_raised"]:
        lines.append(_("未举手（{n}）：{names}").format(n=len(data["not_raised"]), names="、".join(data["not_raised"])))
    return "\n".join(lines) + "\n"
