"""M42's answers to queries, as values (``modtool.core.view.View``): the day's
tally, the game's status, an announcement post, and its own queries (cards,
schedule, flags). The commands (``packs/m42/answers.py``, declared in ``verbs.py``) return them and the CLI prints them; ``modtool.api``
returns them. Nothing here prints or writes."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

from modtool.sdk import (
    damage, fmt, list_limit, open_game, Problem, refusals, refusals_text, render, render_each, t, time_arg,
    UserError, View,
)
from modtool.packs.m42.engine import day_context, day_tally
from modtool.packs.m42.post_kinds import SENT_KINDS
from modtool.packs.m42.replay import replay
from modtool.packs.m42.report import tally_text
from modtool.packs.m42.status import exits_json, status_json, status_text


def require_m42(gd) -> None:
    if gd.game.id != "m42":
        raise UserError("这个命令目前只支持 {games}，这局是 {game}", games="m42", game=gd.game.id)


def m42_state(game_dir: Path):
    """Open an M42 game folder, refuse it if its ledger has problems, and replay it."""
    gd = open_game(game_dir)
    require_m42(gd)
    if gd.problems:
        raise UserError(gd.problems)
    return gd, replay(gd)


def cards_view(game_dir: Path, query):
    """Every character's cards (M42-R13) as a value (``modtool.api.Game.view("cards")``)."""
    from modtool.packs.m42.cardlist import cards_json, cards_text

    gd, st = m42_state(game_dir)
    return View.of("cards", gd.game.id, cards_json(gd, st), cards_text(gd, st))


def lurking_view(game_dir: Path, query):
    """Lurking so far on the open discussion day (M42-R14) as a value (``Game.view("lurking")``)."""
    from modtool.packs.m42.lurk_today import lurk_today, lurk_today_text

    gd, st = m42_state(game_dir)
    data = lurk_today(gd, st)
    return View.of("lurking", gd.game.id, data, lurk_today_text(data))


def schedule_view(game_dir: Path, query):
    """A discussion day's schedule (M42-R15) as a value (``Game.view("schedule", day=…)``)."""
    from modtool.packs.m42.discipline import schedule_json, schedule_text

    gd, st = m42_state(game_dir)
    day = query.day if query is not None else None
    return View.of("schedule", gd.game.id, schedule_json(gd, st, day), schedule_text(gd, st, day))


def flags_view(game_dir: Path, query):
    """Posts the director should look at (M42-R17, R14) as a value (``Game.view("flags")``)."""
    from modtool.packs.m42.discipline import all_flags, flags_text

    gd, st = m42_state(game_dir)
    rows = all_flags(gd, st, query.day if query is not None else None)
    return View.of("flags", gd.game.id, rows, flags_text(rows))


def tally_of(game_dir: Path, day: Optional[int], floor: Optional[int], at: Optional[str], close: Optional[str]):
    gd, st = m42_state(game_dir)
    day = day if day is not None else st.number  # the current day, as announce counts it
    close_dt = time_arg(close, gd.tz, "--close") if close else None
    at_dt = time_arg(at, gd.tz, "--at") if at else None
    ctx = day_context(gd, st, day, close_dt)
    t = day_tally(gd, ctx, upto_floor=floor, upto_time=at_dt)
    return gd, ctx, t, st


def tally_view(game_dir: Path, day, floor, at, close):
    """The day's tally as a value (``modtool.core.view.View``): its JSON and its text."""
    gd, ctx, t, rp = tally_of(game_dir, day, floor, at, close)
    notes = [str(p) for p in damage(rp.problems)]
    data = t.to_json()
    upto = f"{floor}楼" if floor is not None else at
    text = (tally_text(data, fmt(ctx.close, False), ctx.sped_up, notes, upto, list_limit(gd))
            + refusals_text(rp.problems))
    data["close"] = fmt(ctx.close)
    data["sped_up"] = ctx.sped_up
    data["notes"] = notes
    data["refused"] = [str(p) for p in refusals(rp.problems)]
    data["exits"] = exits_json(rp, day)
    return View.of("tally", gd.game.id, data, text)


def status_view(game_dir: Path):
    """The game as it stands, as a value (``modtool.core.view.View``)."""
    gd, st = m42_state(game_dir)
    data = status_json(gd, st)
    return View.of("status", gd.game.id, data, status_text(gd, st))


def _post_context(gd, st, kind: str, fmt_: str, options: dict) -> dict:
    from modtool.packs.m42.announce import context

    close = options.get("close")
    ctx = context(gd, st, kind, fmt_, options.get("day"), options.get("night"),
                  time_arg(close, gd.tz, "--close") if close else None,
                  options.get("card"), options.get("character"), options.get("title"))
    if kind == "vote":
        ctx["image"] = options.get("image")  # the chart's [img] line (modtool chart)
    return ctx


def post_text(game_dir: Path, gd, st, kind: str, fmt_: str, options: dict) -> str:
    return render(gd.game.id, kind, fmt_, _post_context(gd, st, kind, fmt_, options), game_dir)


def post_view(game_dir: Path, kind: str, fmt_: str, options: dict):
    """An announcement post as a value, written nowhere (``modtool.api``). The witch's
    and hunter's notices record when they went out (M42-R15): only the command sends them."""
    gd, st = m42_state(game_dir)
    if kind in SENT_KINDS:
        raise UserError(Problem("kind", "{kind} 通知发出时要记下时间（M42-R15）：请用 modtool announce {folder_arg} {kind}", kind=kind, folder_arg=gd.folder_arg))
    ctx = _post_context(gd, st, kind, fmt_, options)
    text = render(gd.game.id, kind, fmt_, ctx, game_dir)
    data = {"kind": kind, "format": fmt_, "text": text}
    if kind == "roles":  # one role card a character, each sent on its own (to the account)
        data["parts"] = render_each(gd.game.id, kind, fmt_, ctx, "cards",
                                    lambda c: t("{name}（发给 {account}）").format(name=c["name"], account=c["account"]),
                                    game_dir)
    return View.of("post", gd.game.id, data, text)
