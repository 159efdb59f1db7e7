"""Lurking so far (M42-R14): the open discussion day, each character's posts in
the discussion thread until now, whether a vote of theirs stands, the days of
their running (c) chain, and the yellows the day would give if it closed now.

Nothing here is a second copy of the rule: the closed days are put through
``lurking.LurkWatch`` again (the same days the replay closed, so the same
chains), then today is closed on a copy of it with the posts and votes saved
so far, by the same code the replay runs at the close. A query: it writes
nothing and gives no card; the cards come at the close (``advance``).
"""

from __future__ import annotations

import copy
from modtool.sdk import fmt, t
from modtool.packs.m42 import facts, lurking
from modtool.packs.m42.discipline_engine import lurk_options, lurk_voters
from modtool.packs.m42.engine import day_context, day_tally, phase_label


def lurk_today(gd, st) -> dict:
    """The open discussion day's lurking so far, as data (``--json``): the posts saved
    until now, in the day's window (opening to close)."""
    if st.phase != "day" or st.number not in st.days:
        return {"day": None, "phase": phase_label(st), "number": st.number, "rows": [], "yellows": []}
    n = st.number
    rec = st.days[n]
    ctx = day_context(gd, st, n)
    until = ctx.close
    options = lurk_options(gd)
    base = {"day": n, "opened": fmt(rec.opened, False) if rec.opened else None, "close": fmt(ctx.close, False),
            "sped_up": ctx.sped_up, "min_posts": options.min_posts,
            "chain_posts": options.chain_posts, "chain_days": options.chain_days}
    if rec.opened is None:
        return {**base, "judged": False, "why": "not_opened", "rows": [], "yellows": []}
    watch = lurking.LurkWatch(gd.roster, options)
    for closed in st.lurk_days:  # the days the replay closed, in its order: the same chains
        watch.close(closed)
    in_game = [x for x in rec.alive_at_open if x in st.alive]
    imported = facts.has_posts(gd, "discussion", n)
    voted = lurk_voters(day_tally(gd, ctx), ctx)
    counts = lurking.count_posts(facts.post_stamps(gd, "discussion", n), rec.opened, until, in_game, gd.roster) \
        if imported else {}
    chains = {name: [d for d, _ in days] for name, days in watch.chains.items()}
    yellows = []
    if imported:  # without the thread, post counts cannot be judged (the replay's close says so too)
        today = lurking.LurkDay(n, rec.opened, until, ctx.sped_up, set(in_game), [], voted, counts)
        yellows = copy.deepcopy(watch).close(today)
    rows = [{"character": name, "posts": counts.get(name) if imported else None, "voted": name in voted,
             "barred": name in ctx.barred, "chain": chains.get(name, [])}
            for name in in_game]
    return {**base, "judged": imported and not ctx.sped_up,
            "why": None if imported and not ctx.sped_up else ("sped_up" if ctx.sped_up else "no_posts"),
            "rows": rows,
            "yellows": [{"character": r.character, "rule": r.rule, "note": r.note} for r in yellows]}


def lurk_today_text(data: dict) -> str:
    if data["day"] is None:
        return t("现在不是讨论日（{phase}）：潜水只在讨论日计算").format(phase=data["phase"]) + "\n"
    if data["why"] == "not_opened":
        return t("第 {day} 天讨论日还没有开始（没有开始时间）").format(day=data["day"]) + "\n"
    lines = [t("第 {day} 天讨论日：{opened} 至 {close}（M42-R14，按已导入的帖子）").format(**data)]
    if data["why"] == "sped_up":
        lines.append(t("这一天已加速：不判潜水（M42-R14）"))
    elif data["why"] == "no_posts":
        lines.append(t("讨论帖还没有导入：发帖数无法判定（只看投票）"))
    lines.append(t("讨论帖发帖数（至少 {min_posts} 帖；不足 {chain_posts} 帖连续 {chain_days} 天也判）、投票、此前连续不足 {chain_posts} 帖的天数：").format(**data))
    for r in data["rows"]:
        posts = "—" if r["posts"] is None else str(r["posts"])
        mark = "  " if r["posts"] is None or r["posts"] >= data["min_posts"] else "! "
        vote = t("被禁票") if r["barred"] else (t("已投票") if r["voted"] else t("未投票"))
        chain = t("，此前连续 {n} 天不足 {chain_posts} 帖（第 {days} 天）").format(
            n=len(r["chain"]), chain_posts=data["chain_posts"], days="、".join(map(str, r["chain"]))) if r["chain"] else ""
        lines.append(f"  {mark}{r['character']}：{posts} 帖，{vote}{chain}")
    if data["yellows"]:
        lines.append(t("如果现在关门，将判潜水黄牌："))
        lines += [f"  - {y['note']}" for y in data["yellows"]]
    elif data["judged"]:
        lines.append(t("如果现在关门，没有人因潜水被判黄牌"))
    return "\n".join(lines) + "\n"
