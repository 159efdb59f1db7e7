"""Every record has a name no edit moves (issue: a season you can trust, point 1).

Every event modtool writes carries a stable id (modtool.base.events); undo,
``undo --import``, restore and the acknowledged record name events by id,
never by line. So a director's comment or blank line, added anywhere in an
editor, changes no report: the property tests below insert them at random
places in every example ledger, and in ledgers that hold undos, undone
imports and restores, and compare every reporting command's output byte for
byte. Ledgers written before ids (reverts by ``line``) keep working, and
``modtool upgrade`` rewrites just those references.
"""

from __future__ import annotations

import random
import re
import shutil
from pathlib import Path

import pytest

from modtool import ledger
from modtool.ledger import _store
from tests.support.values import run_main

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"

# A line an event item starts on, or a top-level key: a comment or a blank
# line before it is outside every value (inside a `|` block it would be text).
_SAFE = re.compile(r"^(?:[A-Za-z_]\w*:|\s*- )")


def fresh() -> None:
    """Forget what this process remembers, as a new command would."""
    from modtool.core import gamefile

    _store._memo.clear()
    gamefile._opened.clear()


def copy_game(src: Path, dst: Path) -> Path:
    shutil.copytree(src, dst, ignore=shutil.ignore_patterns(".modtool", "*.lock", "expected", "dumps", "*.png"))
    return dst


def add_comments(path: Path, rng: random.Random, n: int = 12) -> None:
    """Comment lines and blank lines at ``n`` random safe places, as a director adds them in an editor."""
    lines = path.read_text(encoding="utf-8").split("\n")
    safe = [i for i, line in enumerate(lines) if _SAFE.match(line)]
    events_at = next(i for i, line in enumerate(lines) if line.startswith("events:"))
    for i in sorted(rng.sample(safe, min(n, len(safe))), reverse=True):
        indent = re.match(r"\s*", lines[i]).group() if i > events_at else ""
        extra = rng.choice([[""], [indent + "# 导演的备注：这里要再看一下"], ["", indent + "# 第二天 —— 注意"], ["", ""]])
        lines[i:i] = extra
    lines.append("# 文件末尾的注释")
    path.write_text("\n".join(lines), encoding="utf-8")


def reports(game: Path, capsys) -> dict[str, tuple[int, str, str]]:
    """Every reporting command's output on this game, in this process."""
    from modtool.core.gamefile import open_game

    fresh()
    gd = open_game(game)
    days = sorted({e.data.get("day") for e in gd.of_type("post") if isinstance(e.data.get("day"), int)}) or [1]
    if gd.game.id == "mafia":
        commands = [["tally", "--day", str(d), "--json"] for d in days] + [["tally", "--day", str(days[-1])]]
    else:
        commands = [["status"], ["status", "--json"]] + [["tally", "--day", str(d), "--json"] for d in days] \
            + [["tally", "--day", str(d)] for d in days]
        if gd.game.id == "m42":
            commands += [["cards"], ["schedule"], ["flags"]]
    commands.append(["check", "--json"])
    out = {}
    capsys.readouterr()
    for cmd in commands:
        fresh()
        code = run_main([cmd[0], str(game), *cmd[1:]])
        got = capsys.readouterr()
        out[" ".join(cmd)] = (code, got.out, got.err)
    return out


_PLACE = re.compile(r'ledger\.yaml:(\d+)|"line": (\d+)')


def _places(outs: dict) -> set[int]:
    return {int(m.group(1) or m.group(2)) for _, out, err in outs.values() for m in _PLACE.finditer(out + err)}


def _without_places(outs: dict) -> dict:
    """Outputs with the ledger lines they point at blanked: a pointer to a line
    (``ledger.yaml:364:``, ``"line": 364``) must move with its line, and is
    checked apart (``assert_comments_change_nothing``); everything else must
    stay byte for byte."""
    return {k: (code, _PLACE.sub("ledger.yaml:_", out), _PLACE.sub("ledger.yaml:_", err))
            for k, (code, out, err) in outs.items()}


def assert_comments_change_nothing(game: Path, capsys, seed: int) -> None:
    path = game / "ledger.yaml"
    raw_before = reports(game, capsys)
    assert any(code == 0 for code, _, _ in raw_before.values())
    old_lines = path.read_text(encoding="utf-8").split("\n")
    pointed = {n: old_lines[n - 1] for n in _places(raw_before) if 0 < n <= len(old_lines)}
    add_comments(path, random.Random(seed))
    raw_after = reports(game, capsys)
    before, after = _without_places(raw_before), _without_places(raw_after)
    for cmd in before:
        assert after[cmd] == before[cmd], cmd
    # Each pointer still points at the text it pointed at before.
    new_lines = path.read_text(encoding="utf-8").split("\n")
    assert sorted(pointed.values()) == sorted(new_lines[n - 1] for n in _places(raw_after) if 0 < n <= len(new_lines))


@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("example", ["m42", "m42-full", "m42-discipline", "zhenhuan", "mafia"])
def test_comments_and_blank_lines_anywhere_change_no_report_of_an_example(tmp_path, capsys, example, seed):
    game = copy_game(EXAMPLES / example, tmp_path / "g")
    assert_comments_change_nothing(game, capsys, seed)


def discussion_pages(folder: Path) -> tuple[Path, Path]:
    """Two pasted pages of day 2's discussion thread (the m42 example's accounts)."""
    one = folder / "讨论-1.txt"
    one.write_text("楼主 M42导演 2026-11-04 10:00\n第二天讨论帖\n\n#2 红红的红 2026-11-04 10:05\n我验了金人凤\n\n"
                   "#3 金凤凰 2026-11-04 10:20\n别听她的\n", encoding="utf-8")
    two = folder / "讨论-2.txt"
    two.write_text("#4 雅雅女王 2026-11-04 11:00\n我信姐姐\n\n#5 石头宽宽 2026-11-04 11:30\n划水一下\n", encoding="utf-8")
    return one, two


def _undo_import_restore_game(tmp_path: Path, capsys) -> Path:
    """The m42 example with an undo, an import undone and an event restored after an editor lost it."""
    game = copy_game(EXAMPLES / "m42", tmp_path / "g")
    one, two = discussion_pages(tmp_path)
    assert run_main(["card", str(game), "白月初", "blue", "--reason", "划水", "--at", "2026-11-04 12:00"]) == 0
    assert run_main(["card", str(game), "石宽", "yellow", "--reason", "刷屏", "--at", "2026-11-04 12:30"]) == 0
    assert run_main(["undo", str(game)]) == 0  # the yellow was a mistake
    assert run_main(["import", str(game), str(one), "--thread", "discussion", "--day", "2"]) == 0
    assert run_main(["import", str(game), str(two), "--thread", "vote", "--day", "2"]) == 0
    assert run_main(["undo", str(game), "--import", "last"]) == 0  # wrong thread
    assert run_main(["card", str(game), "金人凤", "blue", "--reason", "刷屏", "--at", "2026-11-04 13:00"]) == 0
    # An editor saves a stale copy: the last card vanishes, and restore puts it back.
    path = game / "ledger.yaml"
    text = path.read_text(encoding="utf-8")
    cut = text.rindex("  - type: card")
    path.write_text(text[:cut], encoding="utf-8")
    fresh()
    assert run_main(["restore", str(game)]) == 0
    capsys.readouterr()
    return game


@pytest.mark.parametrize("seed", [3, 4, 5])
def test_comments_change_nothing_in_a_ledger_with_undos_undone_imports_and_restores(tmp_path, capsys, seed):
    game = _undo_import_restore_game(tmp_path, capsys)
    outs = reports(game, capsys)
    cards = outs["cards"][1]
    assert "白月初" in cards and "金人凤" in cards and "石宽" not in cards  # the undo holds, the restore too
    assert_comments_change_nothing(game, capsys, seed)


def test_an_undo_names_the_event_by_id_and_a_comment_above_it_keeps_it_undone(tmp_path, capsys):
    game = copy_game(EXAMPLES / "m42", tmp_path / "g")
    assert run_main(["card", str(game), "石宽", "red", "--reason", "辱骂", "--at", "2026-11-04 12:30"]) == 0
    assert run_main(["undo", str(game)]) == 0
    fresh()
    events = ledger.load(game / "ledger.yaml").events
    card, revert = events[-2], events[-1]
    assert revert.type == "revert" and revert.data["of"] == card.data["id"] and "line" not in revert.data
    path = game / "ledger.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("events:\n", "events:\n# 一行注释\n\n", 1), encoding="utf-8")
    fresh()
    capsys.readouterr()
    assert run_main(["status", str(game)]) == 0
    assert "石宽（狼人）" in capsys.readouterr().out.split("已出局")[0]  # still in: the red card stays undone


def test_deleting_an_imports_lines_in_an_editor_then_restore_forget_leaves_a_working_game(tmp_path, capsys):
    """README's recovery: delete an import's lines by hand, then ``restore --forget``."""
    game = copy_game(EXAMPLES / "m42", tmp_path / "g")
    one, two = discussion_pages(tmp_path)
    assert run_main(["import", str(game), str(one), "--thread", "discussion", "--day", "2"]) == 0
    assert run_main(["import", str(game), str(two), "--thread", "discussion", "--day", "2"]) == 0
    assert run_main(["card", str(game), "金人凤", "blue", "--reason", "刷屏", "--at", "2026-11-04 13:00"]) == 0
    assert run_main(["undo", str(game)]) == 0
    path = game / "ledger.yaml"
    lines = path.read_text(encoding="utf-8").split("\n")
    first = next(i for i, line in enumerate(lines) if '"type":"import"' in line.replace(" ", ""))
    second = next(i for i, line in enumerate(lines) if i > first and '"type":"import"' in line.replace(" ", ""))
    del lines[first:second]  # the director removes batch 1, marker and posts, in an editor
    path.write_text("\n".join(lines), encoding="utf-8")
    fresh()
    assert run_main(["restore", str(game), "--forget"]) == 0
    before = reports(game, capsys)
    assert all(code == 0 for cmd, (code, _, _) in before.items()), before
    assert "金人凤" not in before["cards"][1]  # the undo still takes back the card, not a line that moved
    fresh()
    assert run_main(["undo", str(game), "--import", "last"]) == 0  # batch 2, by its id
    fresh()
    from modtool.core.gamefile import open_game

    assert not open_game(game).of_type("import")


LEGACY = """\
  - type: card
    character: 石宽
    color: red
    reason: 辱骂
    at: "2026-11-04 12:30"
  - type: revert
    line: {line}
    note: 撤销 card
"""


def _legacy_game(tmp_path: Path) -> Path:
    """The m42 example as an older modtool left it: an undone red card, the revert naming its line."""
    game = copy_game(EXAMPLES / "m42", tmp_path / "g")
    path = game / "ledger.yaml"
    text = path.read_text(encoding="utf-8")
    if not text.endswith("\n"):
        text += "\n"
    line = text.count("\n") + 1
    path.write_text(text + LEGACY.format(line=line), encoding="utf-8")
    return game


def test_a_ledger_with_line_reverts_keeps_working_and_check_names_upgrade(tmp_path, capsys):
    game = _legacy_game(tmp_path)
    fresh()
    capsys.readouterr()
    assert run_main(["status", str(game)]) == 0
    assert "石宽（狼人）" in capsys.readouterr().out.split("已出局")[0]
    assert run_main(["check", str(game)]) == 0
    out = capsys.readouterr().out
    assert f"modtool upgrade {game}" in out and "按行号" in out


def test_upgrade_rewrites_only_the_line_references_and_then_comments_are_harmless(tmp_path, capsys):
    game = _legacy_game(tmp_path)
    path = game / "ledger.yaml"
    old = path.read_text(encoding="utf-8")
    before = reports(game, capsys)
    fresh()
    assert run_main(["upgrade", str(game)]) == 0
    assert "已升级 1 条撤销记录" in capsys.readouterr().out
    new = path.read_text(encoding="utf-8")
    changed = [(a, b) for a, b in zip(old.split("\n"), new.split("\n")) if a != b]
    assert len(old.split("\n")) == len(new.split("\n"))
    from modtool.base.events import fingerprint

    fp = fingerprint("card", {"character": "石宽", "color": "red", "reason": "辱骂", "at": "2026-11-04 12:30"})
    assert changed == [(changed[0][0], f"    of: {fp}")] and changed[0][0].startswith("    line: ")
    after = reports(game, capsys)
    assert {k: v for k, v in after.items() if not k.startswith("check")} == \
        {k: v for k, v in before.items() if not k.startswith("check")}  # the upgrade adds and removes no line
    assert "upgrade" not in after["check --json"][1] and after["check --json"][0] == 0
    fresh()
    assert run_main(["upgrade", str(game)]) == 0  # twice: nothing left to do
    assert "已是最新写法" in capsys.readouterr().out
    assert_comments_change_nothing(game, capsys, 7)


def test_without_upgrade_a_comment_above_a_line_revert_is_named_by_check(tmp_path, capsys):
    """The old trap, still visible rather than silent until the upgrade: a
    comment above a line revert makes it point at another line, and every
    command names it."""
    game = _legacy_game(tmp_path)
    path = game / "ledger.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("events:\n", "events:\n# 注释\n", 1), encoding="utf-8")
    fresh()
    capsys.readouterr()
    assert run_main(["check", str(game)]) == 1
    assert "revert 指向第" in capsys.readouterr().err


def test_a_revert_of_a_hand_written_event_names_its_fingerprint_and_survives_reindenting(tmp_path, capsys):
    game = copy_game(EXAMPLES / "m42", tmp_path / "g")
    path = game / "ledger.yaml"
    text = path.read_text(encoding="utf-8")
    if not text.endswith("\n"):
        text += "\n"
    path.write_text(text + '  - {type: card, character: 石宽, color: red, reason: 手写, at: "2026-11-04 12:30"}\n',
                    encoding="utf-8")
    fresh()
    assert run_main(["undo", str(game)]) == 0
    fresh()
    revert = ledger.load(path).events[-1]
    assert isinstance(revert.data["of"], str) and revert.data["of"].startswith("h")
    # The director rewrites the hand-written card in block style: same content, same fingerprint.
    text = path.read_text(encoding="utf-8").replace(
        '  - {type: card, character: 石宽, color: red, reason: 手写, at: "2026-11-04 12:30"}\n',
        '\n  # 手写的红牌\n  - type: card\n    character: 石宽\n    color: red\n    reason: 手写\n    at: "2026-11-04 12:30"\n')
    path.write_text(text, encoding="utf-8")
    fresh()
    capsys.readouterr()
    assert run_main(["status", str(game)]) == 0
    assert "石宽（狼人）" in capsys.readouterr().out.split("已出局")[0]


def test_check_names_a_hand_edited_id_that_is_not_a_number(tmp_path, capsys):
    game = copy_game(EXAMPLES / "m42", tmp_path / "g")
    assert run_main(["card", str(game), "白月初", "blue", "--reason", "划水", "--at", "2026-11-04 12:00"]) == 0
    path = game / "ledger.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(re.sub(r"id: (\d+)\n    character: 白月初", r"id: x\1\n    character: 白月初", text), encoding="utf-8")
    fresh()
    capsys.readouterr()
    assert run_main(["check", str(game)]) == 1
    assert "card 事件的 id 应为从 1 开始的整数" in capsys.readouterr().err


def test_a_withdraw_names_its_card_by_id_so_undoing_an_earlier_card_leaves_it_on_the_same_card(tmp_path, capsys):
    """Cards are numbered in ledger order; an undo of an earlier card renumbers the
    later ones, but a withdraw recorded before keeps naming the card it meant."""
    game = copy_game(EXAMPLES / "m42", tmp_path / "g")
    assert run_main(["card", str(game), "白月初", "blue", "--reason", "划水", "--at", "2026-11-04 12:00"]) == 0
    assert run_main(["card", str(game), "石宽", "blue", "--reason", "刷屏", "--at", "2026-11-04 12:30"]) == 0
    fresh()
    assert run_main(["withdraw", str(game), "2", "--reason", "误判"]) == 0  # 石宽's
    fresh()
    withdraw = ledger.load(game / "ledger.yaml").events[-1]
    stone = ledger.load(game / "ledger.yaml").events[-2]
    assert withdraw.data["of"] == stone.data["id"]
    # The director undoes 白月初's card by hand with a revert of its id: 石宽's card is now number 1.
    first = ledger.load(game / "ledger.yaml").events[-3]
    ledger.append(game / "ledger.yaml", [{"type": "revert", "of": first.data["id"]}])
    fresh()
    capsys.readouterr()
    assert run_main(["cards", str(game), "--json"]) == 0
    import json

    by = {c["character"]: c for c in json.loads(capsys.readouterr().out)["characters"]}
    assert by["白月初"]["cards"] == []
    (stone_card,) = by["石宽"]["cards"]
    assert stone_card["number"] == 1 and "误判" in json.dumps(stone_card, ensure_ascii=False)  # still withdrawn


def test_an_event_copied_in_an_editor_with_its_id_is_named_by_check_and_undo_takes_the_copy(tmp_path, capsys):
    game = copy_game(EXAMPLES / "m42", tmp_path / "g")
    assert run_main(["card", str(game), "白月初", "blue", "--reason", "划水", "--at", "2026-11-04 12:00"]) == 0
    path = game / "ledger.yaml"
    text = path.read_text(encoding="utf-8")
    block = text[text.rindex("  - type: card"):]
    path.write_text(text + block.replace("白月初", "石宽"), encoding="utf-8")  # the director copies the card for 石宽
    fresh()
    capsys.readouterr()
    assert run_main(["check", str(game)]) == 0
    assert "用了同一个 id" in capsys.readouterr().out
    fresh()
    assert run_main(["undo", str(game)]) == 0  # the copy, the newest record
    fresh()
    capsys.readouterr()
    assert run_main(["cards", str(game), "--json"]) == 0
    import json

    by = {c["character"]: c for c in json.loads(capsys.readouterr().out)["characters"]}
    assert len(by["白月初"]["cards"]) == 1 and by["石宽"]["cards"] == []
