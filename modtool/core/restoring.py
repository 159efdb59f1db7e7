"""``modtool restore``: put back what modtool acknowledged and an editor's
stale save removed, or accept its removal (``--forget``). Like every writing
command it refuses while the ledger is damaged: the restore is replayed
first, so damage the restore itself mends (a revert whose event vanished)
does not stop it."""

from __future__ import annotations

from pathlib import Path

from modtool import ledger
from modtool.core.gamefile import ledger_path, open_game
from modtool.core.games import load_game
from modtool.base.i18n import t
from modtool.base.problems import Problem, UserError
from modtool.core.schema import event_name
from modtool.core.soundness import require_sound, require_sound_restored


def restore(game_dir: Path, forget: bool) -> list[str]:
    """Restore (or forget) what an editor's save removed; the lines to tell the director."""
    path = ledger_path(game_dir)
    if not path.is_file():
        raise UserError(Problem(str(path), "找不到账本；先用 modtool new 建立游戏"))

    def check(missing) -> None:  # under the ledger's lock, before anything is written
        gd = open_game(game_dir)
        if forget:
            require_sound(gd)
        else:
            require_sound_restored(gd, [v.event for v in missing])

    done = ledger.restore(path, forget=forget, check=check)
    if not done:
        return [t("没有少掉的记录：modtool 确认过的每一条都还在账本里")]

    try:  # its events' names in its language; the restore is written already, so never an error here
        game = load_game(str(ledger.load(path).header.get("game")))
    except UserError:
        game = None
    said = t("已确认删除 {n} 条记录：") if forget else t("已追加回账本末尾 {n} 条记录：")
    told = [said.format(n=len(done))]
    told += [t("  原第 {line} 行：{what}").format(line=v.line, what=event_name(v.event.get("type"), game)) for v in done]
    if not forget:
        told.append(t("请用 modtool check 看一下顺序是否需要调整（恢复的记录在最后）"))
    return told
