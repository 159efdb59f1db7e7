"""The day's tally as a director reads it: text for the terminal, context for the post."""

from __future__ import annotations

from modtool.sdk import Safe, capped, more_text

RESULT_WORDS = {
    "sheriff": "当选警长",
    "no_sheriff": "无人当选警长",
    "exile": "被放逐出局",
    "no_exile": "无人出局",
    "scapegoat": "替罪羊冤死出局",
}


def result_text(result: dict) -> str:
    kind, target = result["kind"], result.get("target")
    head = f"{target} {RESULT_WORDS[kind]}" if target else RESULT_WORDS[kind]
    # The tally's explanation names the result, the reason and the ruling id.
    return result.get("explain") or head


def purpose(day: int) -> str:
    return "警长竞选" if day == 1 else "放逐投票"


def counted_weight(v: dict) -> int:
    """What a valid vote adds to the count now: a vote superseded by a change
    (改票, M42-R5) adds 0, so the count column adds up to the counts."""
    return 0 if v.get("changed_to") is not None else v["weight"]


def vote_lines(tj: dict) -> tuple[list[dict], list[str]]:
    """The 票型: one row per target as the result is decided (``tj["counts"]``
    order) with its count and its voters in the order their standing votes
    were cast, a weighted vote (the sheriff's, M42-R3) marked ×N; and the
    characters whose standing vote is an abstention."""
    voters: dict[str, list[str]] = {}
    abstained: list[str] = []
    for v in tj["valid"]:
        if v.get("changed_to") is not None:
            continue
        if v.get("abstain"):
            abstained.append(v["voter"])
            continue
        w = v["weight"]
        voters.setdefault(v["target"], []).append(v["voter"] + (f"×{w}" if w > 1 else ""))
    rows = [{"target": k, "votes": n, "voters": "、".join(voters.get(k, []))} for k, n in tj["counts"].items()]
    # Among equal counts the one the result chose (M42-R2: the earliest last rise to the maximum) comes first.
    chosen = (tj.get("result") or {}).get("target")
    rows.sort(key=lambda r: (-r["votes"], r["target"] != chosen))
    return rows, abstained


def _ignored_text(ignored: list[dict], limit: int) -> str:
    """M42-R5: accounts not in the roster, listed once each with their posts, capped."""
    by_account: dict[str, list] = {}
    for g in ignored:
        by_account.setdefault(g["author"], []).append(g["floor"])
    shown, more = capped(list(by_account.items()), limit)
    parts = [f"{a}（{fl[0]}楼）" if len(fl) == 1 else f"{a}（{len(fl):,} 帖，首帖 {fl[0]}楼）" for a, fl in shown]
    text = "不在名单上的账号（未计）：" + "、".join(parts)
    if more:
        hidden = sum(len(fl) for _, fl in list(by_account.items())[limit:])
        text += f"……另有 {more:,} 个账号、{hidden:,} 帖"
    return text


def tally_text(tj: dict, close: str, sped_up: bool, problems: list[str], upto: str | None, limit: int = 30) -> str:
    lines = [f"第 {tj['day']} 天投票（{purpose(tj['day'])}）　关门 {close}" + ("　本日加速" if sped_up else "")]
    if upto:
        lines.append(f"（截至 {upto} 的票型）")
    lines.append("")
    lines.append(f"有效的投票与改票（{len(tj['valid'])} 帖）：")
    for v in tj["valid"]:
        floor = f"{v['floor']}楼" if v.get("floor") is not None else "代投"
        note = f"　→ 改投 {v['changed_to']}（{v.get('changed_at_floor') or '代投'}楼）" if v.get("changed_to") else ""
        lines.append(f"  {floor:>6} {v['time']}  {v['voter']} → {v['target']}  ×{counted_weight(v)}{note}")
    if tj["changes"]:
        lines.append("改票：")
        for c in tj["changes"]:
            floor = f"{c['floor']}楼" if c.get("floor") is not None else "代投"
            lines.append(f"  {floor:>6} {c['voter']}：{c['from']} → {c['to']}")
    if tj["invalid"]:
        lines.append(f"无效帖（{len(tj['invalid'])}）：")
        shown, more = capped(tj["invalid"], limit)
        for i in shown:
            author = i.get("author") or "导演记录"
            who = author + (f"（{i['voter']}）" if i.get("voter") and i["voter"] != author else "")
            hint = f"　{i['hint']}" if i.get("hint") else ""
            floor = f"{i['floor']}楼" if i.get("floor") is not None else "代投"
            lines.append(f"  {floor:>6} {who}：{i['reason']}{hint}")
        if more:
            lines.append(f"  {more_text(more)}（完整列表：--json）")
    if tj.get("chatter"):  # M42-R5: not a try to vote, so not an invalid vote: only counted
        lines.append(f"闲聊（没有投票格式，不算投票）：{len(tj['chatter']):,} 帖")
    if tj.get("ignored"):
        lines.append(_ignored_text(tj["ignored"], limit))
    if tj.get("flags"):
        lines.append("请导演留意：")
        for f in tj["flags"]:
            lines.append(f"  {f['floor']}楼 {f.get('voter') or ''}：{f['note']}")
    lines.append("未投票：" + ("、".join(tj["not_voted"]) if tj["not_voted"] else "无"))
    counts = tj["counts"]
    lines.append("票数：" + ("、".join(f"{k} {v}" for k, v in counts.items()) if counts else "无人得票"))
    lines.append("结果：" + result_text(tj["result"]))
    for p in problems:
        lines.append("注意：" + p)
    return "\n".join(lines) + "\n"


def floor_link(floor, pid, base: str, fmt: str):
    if floor is None:
        return "代投"
    if not pid or not (str(pid).isascii() and str(pid).isdigit()):
        return f"{floor}#"  # no link from a pid that is not a number (a hand edit): it could break the post
    url = f"{base}forum.php?mod=redirect&goto=findpost&pid={pid}"
    if fmt == "bbcode":
        return Safe(f"[url={url}]{floor}#[/url]")
    return Safe(f"[{floor}#]({url})")


def post_title(template: str, game_name: str, day: int) -> str:
    """The vote post's title: the director's (``--title`` or the option
    ``vote_post_title``, where {game}, {day} and {purpose} are filled in) or
    the default."""
    if not template:
        return f"{game_name} 第 {day} 天投票结果（{purpose(day)}）"
    for key, value in (("{game}", game_name), ("{day}", str(day)), ("{purpose}", purpose(day))):
        template = template.replace(key, value)
    return template


def vote_post_context(tj: dict, game_name: str, close: str, sped_up: bool, base: str, fmt: str,
                      limit: int = 30, title: str = "") -> dict:
    votes = []
    for v in tj["valid"]:
        note = f"已改投 {v['changed_to']}" if v.get("changed_to") else ""
        if v.get("proxy"):
            note = (note + " " if note else "") + "代投"
        votes.append(
            {
                "floor_link": floor_link(v.get("floor"), v.get("pid"), base, fmt),
                "time": v["time"][5:16],
                "voter": v["voter"],
                "target": v["target"],
                "weight": counted_weight(v),
                "note": note,
            }
        )
    lines, abstained = vote_lines(tj)
    invalid, more = capped(tj["invalid"], limit)
    return {
        "game_name": game_name,
        "title": post_title(title, game_name, tj["day"]),
        "day": tj["day"],
        "purpose": purpose(tj["day"]),
        "close": close,
        "sped_up": sped_up,
        "lines": lines,
        "abstained": abstained,
        "votes": votes,
        "counts": [{"target": k, "votes": v} for k, v in tj["counts"].items()],
        "not_voted": tj["not_voted"],
        "invalid": [
            {"floor_link": floor_link(i.get("floor"), i.get("pid"), base, fmt), "author": i.get("author") or "", "reason": i["reason"]}
            for i in invalid
        ],
        "invalid_more": more_text(more) if more else "",
        "result_text": result_text(tj["result"]),
    }
