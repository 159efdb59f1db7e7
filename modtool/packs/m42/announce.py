"""Which view each M42 post is rendered from (public ones never see secrets)."""

from __future__ import annotations

from datetime import datetime

from modtool.sdk import fmt, GameDir, list_limit, Problem, UserError
from modtool.packs.m42 import facts, views
from modtool.packs.m42.engine import State, day_context, day_tally
from modtool.packs.m42.post_kinds import KINDS
from modtool.packs.m42.report import vote_post_context


def context(gd: GameDir, st: State, kind: str, fmt_: str, day: int | None, night: int | None,
            close: datetime | None = None, card: int | None = None, character: str | None = None,
            title: str | None = None) -> dict:
    if kind not in KINDS:
        raise UserError("未知的帖子种类「{kind}」；可用：{kinds}", kind=kind, kinds="、".join(KINDS))
    if character is not None and kind != "roles":
        raise UserError("--character 只用于 roles（身份通知），不用于 {kind}", kind=kind)
    if title is not None and kind != "vote":
        raise UserError(Problem("命令行", "--title 只用于 vote 帖（现在是「{kind}」）", kind=kind))
    day = day if day is not None else st.number
    night = night if night is not None else st.number
    if kind == "vote":
        ctx = day_context(gd, st, day, close)
        t = day_tally(gd, ctx)
        post = vote_post_context(t.to_json(), gd.game.name, fmt(ctx.close, False), ctx.sped_up,
                                 str(gd.options.get("forum_base_url", "")), fmt_,
                                 list_limit(gd), facts.vote_post_title(gd, title))
        # M42-R13 / rule post: red-card exits are announced right after the vote.
        post["reds"] = [e.name for e in st.exits if e.cause == "redcard" and e.phase == "day" and e.number == day]
        return post
    if kind == "day-start":
        return views.day_start(gd, st, day)
    if kind == "succession":
        return views.succession(gd, st)
    if kind == "end":
        return views.end(gd, st)
    if kind == "cards":
        return views.cards_post(gd, st, day)
    if kind == "speed":
        return views.speed_post(gd, st, day)
    if kind == "schedule":
        return views.schedule_post(gd, st, day)
    if kind == "card-notice":
        return views.card_notice(gd, st, card)
    if kind == "roles":
        return views.role_cards(gd, st, character)
    if kind == "witch":
        return views.witch_notice(gd, st, night)
    if kind == "seer":
        return views.seer_result(gd, st, night)
    if kind == "wolves":
        return views.wolves_result(gd, st, night)
    return views.prompt(gd, st, kind)
