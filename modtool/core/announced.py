"""Announced results (G-R2): what the forum has already read is guarded.

A result counts as announced once the game advanced past it: the pack's
``results(gd)`` gives exactly those, ``{key: (label, value)}``, computed by
replay from the facts (the ``advance`` events among them), value a string
or a list of strings, the key naming the result (``day2.exile``), never a
line. So the forum's version of a result needs no record while the replay
still gives it; the ledger records it (an ``announced`` event, the value the
forum read) the moment a forced change makes the replay differ.

Every fact a command records goes through ``record``: the change is replayed
in memory first; a change that would alter an announced result is refused
with each change in words, and nothing is written, unless the director
confirms with ``--force`` (the CLI sets ``confirmed``); then it is written,
with the announced values it overrides, and the same list is printed. A
change that alters no announced result goes through as before (a late
chatter post). ``contradictions`` lists, for ``status``, the announced
results the current replay no longer gives.
"""

from __future__ import annotations

import contextlib
import contextvars

from modtool.base.i18n import Message, t
from modtool import ledger
from modtool.base.events import event_id, fingerprint
from modtool.base.problems import Problem, UserError
from modtool.core.registry import get_pack

_confirmed: contextvars.ContextVar[bool] = contextvars.ContextVar("modtool_confirmed", default=False)


@contextlib.contextmanager
def confirmed(force: bool):
    """Within: changes to announced results are written (the director said --force)."""
    token = _confirmed.set(bool(force))
    try:
        yield
    finally:
        _confirmed.reset(token)


def announced_values(gd) -> dict[str, object]:
    """The value the forum last read of each announced result (``_GONE``: told it no longer happens)."""
    out: dict[str, object] = {}
    for ev in gd.of_type("announced"):
        res = ev.data.get("results")
        if isinstance(res, dict):
            out.update(res)
        gone = ev.data.get("gone")
        if isinstance(gone, list):
            out.update(dict.fromkeys(map(str, gone), _GONE))
    return out


def _labels(gd) -> dict[str, str]:
    out: dict[str, str] = {}
    for ev in gd.of_type("announced"):
        labels = ev.data.get("labels")
        if isinstance(labels, dict):
            out.update({k: str(v) for k, v in labels.items()})
    return out


def _results(gd) -> dict[str, tuple[str, object]]:
    try:
        return get_pack(gd.game.id).results(gd)
    except UserError:
        return {}


_GONE = object()  # a result the replay no longer reaches (the game ended before it)


def _show(v) -> str:
    if v is _GONE:
        return t("（不再发生）")
    if v is None:
        return t("（无）")
    if isinstance(v, list):
        return t("、").join(map(str, v)) or t("（无）")
    return str(v)


def describe(label: str, old, new) -> str:
    """One change in words: 「第 2 天放逐：唐三藏 → 红孩儿」, 「第 3 天潜水黄牌：+唐三藏」."""
    if (isinstance(old, list) or isinstance(new, list)) and old is not _GONE and new is not _GONE:
        old_l, new_l = list(old or []), list(new or [])
        added = [x for x in new_l if x not in old_l]
        gone = [x for x in old_l if x not in new_l]
        parts = [f"+{x}" for x in added] + [f"−{x}" for x in gone]
        if parts:
            return t("{label}：{change}").format(label=label, change=" ".join(parts))
    return t("{label}：{change}").format(label=label, change=f"{_show(old)} → {_show(new)}")


def _changed(gd, new: list[dict]) -> tuple[list[tuple[str, str, object, object]], dict]:
    """(key, label, forum's value, new value) of each announced result ``new``
    would change; and {key: (label, forum's value)} of those an undone advance
    steps back from (not changed: not decided yet again)."""
    before = _results(gd)
    shown = {k: v for k, (_, v) in before.items()}
    shown.update(announced_values(gd))  # after a forced change, the forum's version is the recorded one
    if not shown:
        return [], {}  # nothing the forum has read yet: nothing to replay twice
    from modtool.core.simulation import simulated

    sim = simulated(gd, new)

    try:
        after = get_pack(gd.game.id).results(sim)
    except UserError as exc:  # the change would leave a game that cannot be replayed: say why, write nothing
        mine = Message("这次要记下的事件")  # a problem of the new events names no ledger line: none was written
        said = [Problem(mine, p.msg) if p.line is not None and p.line > gd.raw_last_line else p for p in exc.problems]
        raise UserError(said + [Problem(gd.source, "这次的记录会让账本无法重放（见上），什么也没写")]) from None
    labels = _labels(gd)
    # Undoing an advance steps the game back before a phase: its results are
    # not decided otherwise, only not yet again (modtool undo).
    steps = get_pack(gd.game.id).phase_events
    undoes_advance = any(e.type in steps for e in _reverted(gd, new))
    out, stepped = [], {}
    for key, forum in shown.items():
        b, a = before.get(key), after.get(key)
        bv = b[1] if b else _GONE
        av = a[1] if a else _GONE
        if av is _GONE and undoes_advance and bv is not _GONE:
            # A phase stepped back into: not a change, but what the forum read is
            # kept (record writes it down), so the phase advanced again to another
            # result, or a late import that changes it, still needs --force.
            stepped[key] = (b[0], forum)
            continue
        if bv == av or av == forum:
            continue  # unchanged, or back to what the forum read
        was = forum if bv is _GONE else bv  # a phase stepped back into: what the forum read
        out.append((key, (a or b)[0] if (a or b) else labels.get(key, key), was, av))
    return out, stepped


def _reverted(gd, new: list[dict]) -> list:
    refs = {e.get("of") for e in new if e.get("type") == "revert"}
    if not refs:
        return []
    return [e for e in gd.events if event_id(e.data) in refs or (event_id(e.data) is None and fingerprint(e.type, e.data) in refs)]


def record(gd, events: list[dict], *, one_line: bool = False, tell=None):
    """Append ``events`` (ledger.append with the digest ``gd`` was read at), guarded by G-R2.
    ``tell(text)``: what the director must hear after the write (announced results it
    changed, to correct on the forum); None: said on stderr, as the commands say it."""
    from modtool.core.soundness import require_sound_after

    require_sound_after(gd, events)  # a damaged ledger, or a change that damages it: nothing written
    found, stepped = _changed(gd, events)
    said = [describe(label, old, now) for _, label, old, now in found]
    # A waive or a withdrawn card exists to change an announced card: it is told, never refused.
    correcting = bool(events) and all(e.get("type") in get_pack(gd.game.id).corrections for e in events)
    if said and not _confirmed.get() and not correcting:
        raise UserError(Problem(gd.source, "这次的记录会改变论坛上已经公布的结果（G-R2），什么也没写：\n  {changes}\n确实要改请在命令后加 --force（会记下并再列出这些改变）", changes="\n  ".join(said)))
    events = list(events)
    recorded = announced_values(gd)
    if found:  # what the forum read, kept: status lists it until the forum is corrected
        forum = {k: old for k, _, old, _ in found if k not in recorded and old is not _GONE}
        if forum:
            events.append({"type": "announced", "by": "correction" if correcting else "force", "results": forum,
                           "labels": {k: label for k, label, _, _ in found if k in forum}})
    back = {k: v for k, (_, v) in stepped.items() if k not in recorded}
    if back:  # an undone advance: its results stay what the forum read until decided again
        events.append({"type": "announced", "by": "undo", "results": back,
                       "labels": {k: label for k, (label, _) in stepped.items() if k in back}})
    if one_line and (found or back):
        data = ledger.append(gd.ledger_path, events[:-1], expect_digest=gd.digest, one_line=True)
        data = ledger.append(gd.ledger_path, events[-1:], expect_digest=data.digest)
    else:
        data = ledger.append(gd.ledger_path, events, expect_digest=gd.digest, one_line=one_line)
    if said:
        if tell is None:
            import typer

            def tell(text: str) -> None:
                typer.echo(text, err=True)

        text = (t("已记下；论坛上已公布的这些结果随之改变，请到论坛更正：\n  {changes}") if correcting and not _confirmed.get()
                else t("已按 --force 记下；论坛上已公布的这些结果随之改变，请到论坛更正：\n  {changes}"))
        tell(text.format(changes="\n  ".join(said)))
    return data


def _contradicted(gd) -> list[tuple[str, str, object, object]]:
    """(key, label, what the forum read, what the replay gives now) of each announced
    result the current replay no longer gives (after a forced change)."""
    shown = announced_values(gd)
    if not shown:
        return []
    now = _results(gd)
    labels = _labels(gd)
    out = []
    for key, v in shown.items():
        cur = now.get(key)
        if cur is None and v is _GONE:
            continue  # the forum was told it no longer happens
        if cur is None or cur[1] != v:
            out.append((key, cur[0] if cur else labels.get(key, key), v, cur[1] if cur else _GONE))
    return out


def contradictions(gd) -> list[str]:
    """Announced results the current replay no longer gives (a forced change): what to correct on the forum."""
    return [describe(label, v, cur) for _, label, v, cur in _contradicted(gd)]


def corrected(gd) -> tuple[list[dict], list[str]]:
    """``modtool corrected``: the director has corrected the forum, so it now reads what
    the replay gives. The fact to record (an ``announced`` of the replay's values, and
    of the results that no longer happen) and the corrections it covers, in words;
    ``[]`` when the forum has nothing to correct."""
    found = _contradicted(gd)
    if not found:
        return [], []
    results = {k: cur for k, _, _, cur in found if cur is not _GONE}
    gone = [k for k, _, _, cur in found if cur is _GONE]
    event = {"type": "announced", "by": "corrected", "results": results,
             "labels": {k: label for k, label, _, _ in found}}
    if gone:
        event["gone"] = gone
    return [event], [describe(label, v, cur) for _, label, v, cur in found]


def with_corrections(view, gd):
    """``status``'s answer with what the forum must correct (G-R2): the lines after the
    game's own text, and ``announced_changed`` in its data (empty when there is none),
    and the command that marks them done, naming the folder as the director types it."""
    from modtool.core.view import View

    wrong = contradictions(gd)
    data = view.to_json()
    if isinstance(data, dict):
        data["announced_changed"] = wrong
    if not wrong:
        return View.of(view.kind, view.game, data, view.text)
    text = view.text + t("论坛上已公布、但现在的记录给出不同结果的（请到论坛更正）：\n  {changes}").format(changes="\n  ".join(wrong))
    text += "\n" + t("在论坛上更正之后运行：modtool corrected {game}（记下论坛现在的结果，这里就不再列出）").format(game=gd.folder_arg) + "\n"
    return View.of(view.kind, view.game, data, text)
