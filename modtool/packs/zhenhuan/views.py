"""What each 甄嬛 report and post is allowed to know (secrets stay secret).

Pure functions of ``(gd, board)``: the board is ``modtool.packs.zhenhuan.game.replay``'s
grimoire; a past phase is looked at by replaying the same ledger with the
``advance`` events up to that phase (the ledger holds facts, the rest is
derived: principle 1).

Storyteller views (``status_*``, ``night_*``, the ``notes`` post) show the whole
grimoire. Public posts (``dawn``, ``nominations``, ``execution``) are built
from seat numbers, player names, deaths without causes and votes only: no
character, team, reminder or night target of anyone, so a public template
cannot leak what it was never given. The ``end`` post, once there is a winner,
reveals everything. ``private`` gives each seat exactly what it learned.

Questions the rules leave to the storyteller are listed, never answered here.

This module is the entry point (``post_context`` and the kinds); the views live in
``grimoire_view`` (status, night sheet), ``posts`` (public and end posts), ``private_posts``
(private messages, notes), with ``history`` (earlier boards), ``night_info`` and ``view_labels``.
"""

from __future__ import annotations

from modtool.sdk import GameDir, UserError
from modtool.packs.zhenhuan.grimoire_view import next_steps, night_json, night_text, status_json, status_text  # noqa: F401
from modtool.packs.zhenhuan.history import board_at, day_report  # noqa: F401
from modtool.packs.zhenhuan.night_info import info_text  # noqa: F401
from modtool.packs.zhenhuan.post_kinds import KINDS
from modtool.packs.zhenhuan.posts import dawn, end, execution, nominations  # noqa: F401
from modtool.packs.zhenhuan.private_posts import notes, private  # noqa: F401
from modtool.packs.zhenhuan.view_labels import (  # noqa: F401
    ABILITIES, CAUSE, INFO_CHARACTERS, MAY_BE_FALSE, STATUS_LABEL, TEAM, UNRECORDED, cn, phase_label, status_label,
)


def post_context(gd: GameDir, board, kind: str, *, day: int | None = None, night: int | None = None,
                 seat: int | None = None) -> dict:
    """The template context of ``kind`` (templates/zhenhuan/<kind>.<bbcode|md>.j2)."""
    if kind == "dawn":
        return dawn(gd, board, night)
    if kind == "nominations":
        return nominations(gd, board, day)
    if kind == "execution":
        return execution(gd, board, day)
    if kind == "end":
        return end(gd, board)
    if kind == "private":
        return private(gd, board, night, seat)
    if kind == "notes":
        return notes(gd, board, night)
    raise UserError("未知的帖子类型「{kind}」；可用：{KINDS}", kind=kind, KINDS='、'.join(KINDS))
