"""The core's commands for every game, as functions that return values and
print nothing: ``new`` (a new ledger), ``check`` (a ``View`` and the damage
found), ``import`` (a batch of forum posts) and ``undo`` (a revert of the
last fact, or of a whole import); the ones that record return ``Said``.
The command line parses their arguments and prints their answers
(``modtool.cli.commands``); ``modtool.api`` calls them too.
"""

from __future__ import annotations

import shlex
from pathlib import Path

from modtool.core.announced import corrected as corrections_of, record as record_fact
from modtool.core.batches import batch_of, describe, edited_later, find_batch, marker, next_batch
from modtool.core.command import Said
from modtool.base.events import describe_ref, ref_of
from modtool.core.gamefile import open_game
from modtool.core.games import load_game
from modtool.base.i18n import Listing, Message, t
from modtool.core.importer import ImportReport, OutsideDay, first_line, plan_import
from modtool.core.pack import NEW_OPTIONS
from modtool.base.problems import Problem, UserError, damage, refusals
from modtool.core.registry import get_pack
from modtool.core.schema import THREADS, event_name
from modtool.core.soundness import game_problems, refusals_text, require_sound, require_sound_after
from modtool.core.upgrade import id_warnings
from modtool.core.view import View
from modtool.forum import time_stamp
from modtool.forum.bounds import shown
from modtool.ledger import load


def new_game(game_dir: Path, game: str, *, roster: Path | None = None, seed: int | None = None,
             players: int | None = None, require: tuple[str, ...] = (), board: str | None = None,
             custom_roles: bool = False) -> Said:
    """``modtool new``: the game ``game``'s new ledger in ``game_dir``; an option the
    game does not declare (``GamePack.new_options``) is refused, naming those it takes."""
    pack = get_pack(game)
    given = {"seed": seed is not None, "players": players is not None, "require": bool(require),
             "board": board is not None, "custom_roles": custom_roles}
    for name, on in given.items():  # a game's own options are offered to it alone
        if on and name not in pack.new_options:
            takes = ["--roster", *(NEW_OPTIONS[n] for n in NEW_OPTIONS if n in pack.new_options)]
            raise UserError(Problem(Message("命令行 {option}", option=NEW_OPTIONS[name]),
                                    "游戏 {game} 不用这个选项；它的 new 可用：{options}（什么也没写）",
                                    game=pack.id, options=Listing(takes)))
    data = load_game(game)
    if game_dir.exists() and not game_dir.is_dir():
        raise UserError(Problem(str(game_dir), "这是一个文件，不是游戏文件夹；请换一个名字"))
    path, warnings = pack.new_game(game_dir, data, roster=roster, seed=seed, players=players,
                                   require=list(require), board=board, custom_roles=custom_roles)
    return Said.lines(t("已建立 {path}").format(path=path), *(t("提醒：{warning}").format(warning=w) for w in warnings))


def check_game(game_dir: Path, *, shown_as: str | None = None) -> tuple[View, list[Problem]]:
    """``modtool check``: the answer (the header's reminders, the refused submissions,
    or that nothing is wrong; ``--json``'s data) and the damage found, which fails it."""
    gd = open_game(game_dir)
    found = game_problems(gd)
    problems, refused = damage(found), refusals(found)
    vanished = load(gd.ledger_path).vanished  # told by the read; a failure of check too
    if vanished:
        problems.append(Problem(gd.source, "账本里少了 {n} 条 modtool 写入并确认过的记录：用 modtool restore {game} 追加回去，"
                                           "或确认是有意删除的：modtool restore {game} --forget",
                                n=len(vanished), game=_typed(game_dir, shown_as)))
    warnings = get_pack(gd.game.id).header_warnings(gd) + id_warnings(gd)
    data = {"ok": not problems, "events": len(gd.events), "problems": [p.to_json() for p in problems],
            "refused": [p.to_json() for p in refused], "warnings": warnings}
    # the storyteller may mean a reminder: shown, never a failure
    lines = [t("提醒：{warning}").format(warning=f"{gd.ledger_path}: {w}") for w in warnings]
    if not problems:
        lines.append(t("{ledger}：{n} 个事件，没有发现问题").format(ledger=gd.ledger_path, n=len(gd.events)))
    text = "".join(f"{line}\n" for line in lines) + refusals_text(refused)
    return View.of("check", gd.game.id, data, text), problems


def _typed(game_dir: Path, shown_as: str | None) -> str:
    """The folder as the director types it in a command this one suggests, quoted for the
    shell where it must be (a space, a quote), as the game's own next steps quote it."""
    return shlex.quote(shown_as or str(game_dir))


def import_posts(game_dir: Path, files: list[Path], thread: str, day: int, *, dry_run: bool = False,
                 progress=None, shown_as: str | None = None) -> Said:
    """Import the posts of ``files`` into the game as day ``day``'s ``thread``, once each
    (``dry_run``: plan and tell, write nothing). ``progress(done, total)`` is told
    while a long import reads; ``shown_as``: the folder as the director typed it."""
    if thread not in THREADS:  # once, before any post is read (not once a post)
        raise UserError(Problem(Message("命令行 --thread"), "应为 {value} 之一，而不是「{value2}」",
                                value=Listing(list(THREADS)), value2=thread))
    gd = open_game(game_dir)
    game = _typed(game_dir, shown_as)
    if not dry_run:
        require_sound(gd)  # nothing is written on a damaged ledger
    events, report = plan_import(gd, files, thread, day, progress=progress)
    if report.problems:
        raise UserError(report.problems)
    pack = get_pack(gd.game.id)
    outside = pack.outside_day(gd, day, events)
    report.notices += [found.notice for found in outside]
    report.notices += pack.import_notices(gd, day, events)
    data = _import_data(events, report, outside, thread, day, dry_run)  # before the marker goes in
    batch = None
    if events:
        batch = next_batch(gd)
        events.insert(0, marker(batch, thread, day, len(events), files))
    if not dry_run and events:
        record_fact(gd, events, one_line=True)
    said = t("将导入 {added} 帖，跳过已有的 {skipped} 帖") if dry_run else t("已导入 {added} 帖，跳过已有的 {skipped} 帖")
    if batch is not None and not dry_run:
        said += t("（导入批次 {batch}；导错了可以用 modtool undo {game} --import {batch} 一步撤销）")
    lines = [said.format(added=report.added, skipped=report.skipped, batch=batch, game=game)]
    lines += [t("注意：{notice}").format(notice=notice) for notice in report.notices]
    lines += [t("注意：{floor}楼（{author}）在论坛上被编辑过：已记下新版本，旧版本保留在账本里（G-R3；tally 列出两个版本）").format(
        floor=post.floor, author=post.author) for post in report.changed]
    lines += [t("注意：{floor}楼（{author}）与账本中已导入的内容不同（可能被编辑过），未覆盖").format(
        floor=post.floor, author=post.author) for post in report.twice]
    for post, old, post_id in report.retimed[:10]:  # skipped: a re-import never rewrites a saved post's time
        lines.append(t("注意：{floor}楼（{author}）已经导入过，时间与账本中的不同（账本：{old}，这次：{new}），没有改：账本里的时间写错了的话，"
                       "用 modtool undo {game} --import {batch} 撤销导入它的那一批，再重新导入").format(
            floor=post.floor, author=post.author, old=old, new=time_stamp(post.time)[:16], game=game,
            batch=batch_of(gd, post_id) or "N"))
    if len(report.retimed) > 10:  # a whole page saved in another zone, say: the rest in one line
        lines.append(t("注意：另有 {n} 帖的时间与账本中的不同，同样没有改").format(n=len(report.retimed) - 10))
    for account, floors in report.unknown_accounts.items():
        shown = t("、").join(t("{floor}楼").format(floor=f) for f in floors[:10])
        if len(floors) > 10:
            shown += t(" 等 {n} 帖").format(n=len(floors))
        lines.append(t("不在名单上的账号「{account}」：{floors}（不计票）").format(account=account, floors=shown))
    data["batch"] = batch
    return Said.lines(*lines, data=data)


def _import_data(events: list[dict], report: ImportReport, outside: list[OutsideDay], thread: str, day: int,
                 dry_run: bool) -> dict:
    """What an import's text tells, as values (``Said.data``): the posts new to the
    ledger, the ones edited on the forum since they were imported (``recorded``:
    as a new version, G-R3; false: a second, different copy in this import, not
    taken), the posts outside the day (with the day's span where known), the
    accounts not in the roster and their floors; times to the minute."""
    new = [{"floor": ev.get("floor"), "author": shown(ev["author"]), "time": ev["time"][:16], "thread": ev["thread"],
            "first_line": first_line(ev["body"])} for ev in events if ev["type"] == "post"]
    edited = [{"floor": post.floor, "author": post.author, "time": time_stamp(post.time)[:16],
               "first_line": first_line(post.body), "recorded": recorded}
              for posts, recorded in ((report.changed, True), (report.twice, False)) for post in posts]
    return {"dry_run": dry_run, "thread": thread, "day": day, "added": report.added, "skipped": report.skipped,
            "new": new, "edited": edited, "outside": [row for found in outside for row in found.rows()],
            "unknown_accounts": [{"account": account, "floors": list(floors)}
                                 for account, floors in report.unknown_accounts.items()]}


def corrected(game_dir: Path, *, shown_as: str | None = None) -> Said:
    """The director corrected the forum: record that it now reads the replay's results
    (G-R2), so ``status`` stops listing them; nothing to correct: refused, nothing written."""
    gd = open_game(game_dir)
    events, covered = corrections_of(gd)
    if not events:
        raise UserError(Problem(gd.source, "论坛上没有需要更正的结果（status 没有列出），什么也没写"))
    record_fact(gd, events)
    return Said.lines(t("已记下论坛已更正：\n  {changes}").format(changes="\n  ".join(covered)))


def undo(game_dir: Path, batch: str | None = None, *, shown_as: str | None = None) -> Said:
    """Take back the last fact still in force (a ``revert`` appended; history kept),
    or with ``batch`` (a batch number or ``last``) a whole import."""
    gd = open_game(game_dir)
    game = _typed(game_dir, shown_as)
    if batch is not None:
        found = find_batch(gd, batch)
        later = edited_later(gd, found)
        if later:  # undone alone, this batch would leave those edits naming nothing (the ledger unreadable)
            raise UserError(Problem(Message("命令行 --import"), "导入批次 {later} 记下了这一批帖子在论坛上编辑后的版本（G-R3）："
                                    "先撤销它（modtool undo {game} --import {last}），再撤销这一批；什么也没写",
                                    later=Listing([str(b) for b in later]), game=game, last=later[-1]))
        what = describe(found)
        new = [{"type": "revert", "of": ref_of(found), "note": t("撤销{what}").format(what=what)}]
        require_sound_after(gd, new)  # the batch's own damage (a broken post) may go with it, nothing else
        record_fact(gd, new)
        return Said.lines(t("已撤销{what}（账本中保留原记录）").format(what=what))
    # The director's last record: the forum's version of a result modtool kept (G-R2) is not one.
    facts = [e for e in gd.events if e.type != "announced"]
    if not facts:
        raise UserError("没有可以撤销的事件")
    last = facts[-1]
    ref = ref_of(last)
    new = [{"type": "revert", "of": ref, "note": t("撤销 {type}").format(type=last.type)}]
    # Undo may take back the damaged line itself, or mend what the last fact broke
    # (an undo that left an edit naming nothing), nothing else.
    require_sound_after(gd, new)
    record_fact(gd, new)
    lines = [t("已撤销第 {line} 行的{what}记录（事件 {ref}；账本中保留原记录）").format(
        line=last.line, what=event_name(last.type, gd.game), ref=describe_ref(ref))]
    if last.type == "post" and gd.of_type("import"):
        lines.append(t("要撤销整次导入，请用：modtool undo {game} --import last").format(game=game))
    return Said.lines(*lines)
