"""Games as packs: the registry, a core that never names a game, and a tiny
game that runs new / import / tally with no line of it in the core."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from modtool.core import registry as packs
from modtool.core.pack import GamePack
from modtool.core.registry import all_packs, get_pack
from modtool.base.problems import UserError

ROOT = Path(__file__).resolve().parents[1] / "modtool"


def test_registry_finds_the_shipped_packs():
    found = all_packs()
    assert {"m42", "zhenhuan"} <= set(found)
    assert all(isinstance(p, GamePack) and p.id == gid for gid, p in found.items())
    assert packs.default_pack().id == "m42"  # `modtool new` without --game, as before


def test_unknown_game_is_a_user_error_naming_the_known_ones():
    with pytest.raises(UserError) as exc:
        get_pack("nope")
    assert "未知的游戏「nope」" in str(exc.value.problems[0]) and "m42" in str(exc.value.problems[0])


def _core_files() -> list[Path]:
    """modtool's own modules outside ``modtool/packs/``: the core, the forum readers, the ledger, the CLI."""
    return [f for f in ROOT.rglob("*.py") if ROOT / "packs" not in f.parents]


# --- the core speaks no game: an allow-list ---------------------------------------------
#
# A game's vocabulary is read from the packs themselves (``_vocabulary``): their ids, their
# own event types, role and camp ids and names, option names, vote-form labels and the
# labels of their events. The core's code (string literals, docstrings left out, and
# names) may use none of it, and no forum's name outside ``modtool/forum/`` (where the
# readers of each forum live). What the core legitimately keeps is listed below, each
# word with the files that may use it and why; anything else is a failure.

SHARED_OPTIONS = "an option every game may set, read by a core service for every game"
PER_GAME_CLI = ("cli/commands.py's shared commands still carry per-game options and help (new --players/--require/"
                "--board, act's abilities, announce --card/--close/--seat/--told-at/--title, tally --close); "
                "they move into the packs with the per-game verbs (the command-registration work)")
ALLOWED: dict[tuple[str, str], str] = {
    # The shared commands (modtool.core.pack.SHARED_COMMANDS): the core's CLI offers them, each pack answers.
    ("act", "modtool/core/pack.py"): "a shared command a pack answers (SHARED_COMMANDS)",
    ("act", "modtool/cli/app.py"): "the shared command act, answered by the game's pack",
    ("act", "modtool/desk/pages.py"): "the desk's form for the shared command act (modtool.api.Game.act)",
    ("advance", "modtool/core/pack.py"): "a shared command a pack answers (SHARED_COMMANDS)",
    ("advance", "modtool/cli/app.py"): "the shared command advance, answered by the game's pack",
    ("advance", "modtool/desk/pages.py"): "the desk's form for the shared command advance (modtool.api.Game.advance)",
    ("投票", "modtool/desk/pages.py"): "the advance form's help, the command's own words (白天→结算投票)",
    # Threads and the vote form are core services every forum game uses (DESIGN: voteform.py).
    ("vote", "modtool/core/schema.py"): "a post's thread (THREADS: vote, discussion, process)",
    ("vote", "modtool/core/voteform.py"): "the core's vote-form parser: a vote or a change",
    ("vote", "modtool/cli/commands.py"): "import --thread vote (a post's thread)",
    ("投票", "modtool/cli/commands.py"): "import --thread vote（投票帖）: a post's thread",
    ("投票", "modtool/forum/plaintext.py"): "the plain-text format's help shows a sample post",
    ("投票对象", "modtool/forum/plaintext.py"): "the plain-text format's help shows a sample post",
    ("改票对象", "modtool/forum/plaintext.py"): "the plain-text format's help shows a sample post",
    ("改票理由", "modtool/forum/plaintext.py"): "the plain-text format's help shows a sample post",
    # Options the core reads for every game; each pack's data file gives their defaults.
    ("timezone", "modtool/core/gamefile.py"): SHARED_OPTIONS + " (the game's clock, checked only as a zone name)",
    ("fold_script", "modtool/core/gamefile.py"): SHARED_OPTIONS + " (name folding, modtool.base.text)",
    ("list_limit", "modtool/core/render.py"): SHARED_OPTIONS + " (how long a rendered list grows)",
    ("list_limit", "modtool/sdk/__init__.py"): "the sdk's name for render.list_limit (the shared option)",
    ("time_margin_days", "modtool/core/timespan.py"): SHARED_OPTIONS + " (a typed time far past the game: a typo)",
    # Words of another sense.
    ("open", "modtool/forum/html2bb.py"): "an HTML attribute (<details open>), not M42's open event",
    # Not moved yet: owned by the per-game `new` and per-game verbs work (other branches).
    ("close_time", "modtool/core/newgame.py"): "create_game, M42's dealing new, writes M42's header comment; "
                                                "it moves into the m42 pack with the per-game `new` work",
    **{(word, "modtool/cli/commands.py"): PER_GAME_CLI
       for word in ("card", "close", "last_words", "vote_post_title", "关门时间", "判罚", "狼人", "甄嬛", "禁票", "遗言",
                    "m42", "mafia")},
}
FORUM_WORDS = ("discuz", "phpbb", "mafiascum")  # a forum's own name: only its reader (modtool/forum/, a pack) says it


def _vocabulary() -> dict[str, set[str]]:
    """Every word a game owns, from the packs' own schemas and data: {word: where it comes from}."""
    from modtool.core.games import load_game

    words: dict[str, set[str]] = {}

    def add(word, why: str) -> None:
        word = str(word).strip()
        if word:
            words.setdefault(word, set()).add(why)

    for gid, pack in all_packs().items():
        game = load_game(gid)
        data = game.data
        add(gid, f"{gid}: the pack's id")
        for kind in pack.event_schemas():  # all of them: a type the core took back is still the pack's
            add(kind, f"{gid}: event type")
        for kind, label in pack.event_labels(game).items():
            if not str(label).isascii():  # an English label is an everyday word ("death"); its type is listed
                add(label, f"{gid}: label of its {kind} event")
        for key in ("roles", "camps"):
            for ident, entry in (data.get(key) or {}).items():
                add(ident, f"{gid}: {key} id")
                if isinstance(entry, dict) and entry.get("name"):
                    add(entry["name"], f"{gid}: {key} name")
        for option in data.get("options") or {}:
            add(option, f"{gid}: option")
        for field, labels in (data.get("vote_labels") or {}).items():
            for label in labels if isinstance(labels, list) else [labels]:
                add(label, f"{gid}: vote form label {field}")
    return words


def _code_words(path: Path):
    """(line, is a name, text) of each string literal and name of a module's code; docstrings left out."""
    import ast

    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                docs.add(id(first.value))
    handlers = set()  # errors="replace", .decode("utf-8", "replace"): a codec's error handler
    for node in ast.walk(tree):
        if isinstance(node, ast.keyword) and node.arg == "errors" and isinstance(node.value, ast.Constant):
            handlers.add(id(node.value))
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
              and node.func.attr in ("decode", "encode") and len(node.args) >= 2):
            handlers.add(id(node.args[1]))
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs | handlers:
            yield node.lineno, False, node.value
        elif isinstance(node, ast.Name):
            yield node.lineno, True, node.id
        elif isinstance(node, ast.Attribute):
            yield node.lineno, True, node.attr
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            yield node.lineno, True, node.name
        elif isinstance(node, ast.arg):
            yield node.lineno, True, node.arg


def _uses(word: str, is_name: bool, text: str, ids: set[str]) -> bool:
    """Does ``text`` use ``word``? An everyday English word ("open", "card") only when it is the
    whole string; a word of its own (a pack id, ``close_time``, 关门时间) anywhere in it."""
    own = word in ids or not word.isascii() or "_" in word or "-" in word
    if is_name:
        return own and text == word
    if text.strip() == word:
        return True
    if not own:
        return False
    if not word.isascii():
        return word in text
    return re.search(rf"(?<![A-Za-z0-9_]){re.escape(word)}(?![A-Za-z0-9_])", text, re.I) is not None


def _game_words_in_core() -> list[str]:
    words = _vocabulary()
    ids = set(all_packs())
    forum = re.compile("|".join(FORUM_WORDS), re.I)
    found = []
    for f in sorted(_core_files()):
        rel = f.relative_to(ROOT.parent).as_posix()
        for line, is_name, text in _code_words(f):
            for word in words:
                if _uses(word, is_name, text, ids) and (word, rel) not in ALLOWED:
                    found.append(f"{rel}:{line}: {text[:70]!r} uses {word!r} ({'; '.join(sorted(words[word]))})")
            if not is_name and not rel.startswith("modtool/forum/") and forum.search(text):
                found.append(f"{rel}:{line}: {text[:70]!r} names a forum (its reader is in modtool/forum/ or a pack)")
    return found


def test_core_never_names_a_game():
    found = _game_words_in_core()
    assert not found, "the core uses a game's words (move it into the pack, or list it in ALLOWED with why):\n" \
        + "\n".join(found)


def test_core_never_imports_a_pack_or_asks_which_game_it_is():
    ids = sorted(all_packs())
    named = re.compile(r"game_id\s*[!=]=|game\.id\s*[!=]=")
    imported = re.compile(r"^\s*(from|import)\s+modtool\.packs\.(" + "|".join(map(re.escape, ids)) + r")\b")
    found = []
    for f in _core_files():
        for n, line in enumerate(f.read_text(encoding="utf-8").splitlines(), 1):
            code = line.split("#", 1)[0]
            if named.search(code) or imported.search(code):
                found.append(f"{f.relative_to(ROOT.parent)}:{n}: {line.strip()}")
    assert not found, "the core names a game (move it into the pack):\n" + "\n".join(found)


def test_every_allowance_is_still_needed():
    """An entry of ALLOWED nothing uses any more is removed, so the list stays what the core keeps."""
    words = _vocabulary()
    ids = set(all_packs())
    used = set()
    for f in _core_files():
        rel = f.relative_to(ROOT.parent).as_posix()
        for _, is_name, text in _code_words(f):
            used |= {(w, rel) for (w, path) in ALLOWED if path == rel and w in words and _uses(w, is_name, text, ids)}
    assert set(ALLOWED) - used == set()


def test_the_guard_sees_a_game_event_put_back_into_the_core(tmp_path, monkeypatch):
    """Re-adding M42's proxy (代投) to the core's schema fails the guard."""
    schema = ROOT / "core" / "schema.py"
    text = schema.read_text(encoding="utf-8")
    anchor = "COMMON_EVENTS: dict[str, Schema] = {\n"
    assert anchor in text
    copy = tmp_path / "modtool"
    import shutil

    shutil.copytree(ROOT, copy, ignore=shutil.ignore_patterns("__pycache__", "packs"))
    (copy / "core" / "schema.py").write_text(text.replace(anchor, anchor + '    "proxy": {"day": (_INT, True)},\n'),
                                             encoding="utf-8")
    monkeypatch.setattr(sys.modules[__name__], "ROOT", copy)
    found = _game_words_in_core()
    assert len(found) == 1 and "modtool/core/schema.py" in found[0] and "'proxy' (m42: event type)" in found[0], found


def test_no_pack_imports_another_pack():
    ids = sorted(all_packs())
    for pack_dir in {p.parent for p in ROOT.glob("packs/*/pack.py")}:
        others = [i for i in ids if i != pack_dir.name]
        bad = re.compile("|".join(rf"\bmodtool\.packs\.{re.escape(i)}\b" for i in others))
        for f in pack_dir.rglob("*.py"):
            hits = [line for line in f.read_text(encoding="utf-8").splitlines() if "import" in line and bad.search(line)]
            assert not hits, f"{f}: {hits}"


# --- a tiny game, registered in this process ---------------------------------

TINY_YAML = """\
name: 小游戏
players: 3
roles:
  villager: {name: 村民, camp: town, count: 2}
  wolf: {name: 狼, camp: wolves, count: 1}
camps:
  town: {name: 好人}
  wolves: {name: 狼人}
options:
  timezone: Asia/Shanghai
  close_time: "21:00"
"""

DUMP = """\
#1 甲 2026-11-03 10:00
票：乙

#2 乙 2026-11-03 10:05
票：甲

#3 丙 2026-11-03 10:06
票：乙
"""


class TinyPack(GamePack):
    """A game of one rule: a post ``票：NAME`` is a vote; the last one of each player counts."""

    id = "tiny"
    name = "tiny（小游戏）"

    def __init__(self, folder: Path):
        self.folder = folder

    def data_file(self) -> Path:
        return self.folder / "tiny.yaml"

    def tally_view(self, game_dir, gd, query):
        from modtool.core.view import View

        last = {}
        for ev in gd.of_type("post"):
            if ev.data["day"] == (query.day or 1) and str(ev.data["body"]).startswith("票："):
                last[ev.data["author"]] = str(ev.data["body"])[2:].strip()
        counts: dict[str, int] = {}
        for target in last.values():
            counts[target] = counts.get(target, 0) + 1
        ranked = sorted(counts.items(), key=lambda kv: -kv[1])
        return View.of("tally", self.id, dict(ranked), "".join(f"{t}：{n}\n" for t, n in ranked))


def _play(tmp_path, capsys):
    from tests.test_cli import run

    (tmp_path / "roster.txt").write_text("甲\n乙\n丙\n", encoding="utf-8")
    (tmp_path / "dump.txt").write_text(DUMP, encoding="utf-8")
    g = tmp_path / "g"
    code, out, err = run(capsys, "new", g, "--game", "tiny", "--roster", tmp_path / "roster.txt")
    assert code == 0, err
    ledger = (g / "ledger.yaml").read_text(encoding="utf-8")
    assert "game: tiny" in ledger and "role" not in ledger and "seed" not in ledger  # the default new deals nothing
    code, out, err = run(capsys, "import", g, tmp_path / "dump.txt", "--thread", "vote", "--day", 1)
    assert code == 0, err
    assert "已导入 3 帖" in out
    code, out, err = run(capsys, "tally", g, "--day", 1)
    assert code == 0, err
    assert out == "乙：2\n甲：1\n"
    code, out, err = run(capsys, "check", g)
    assert code == 0, err
    # A shared command the tiny game does not answer is refused, naming who does.
    code, out, err = run(capsys, "act", g, "甲", "kill", "乙")
    assert code == 1 and "这个命令目前只支持" in err and "这局是 tiny" in err


def test_a_registered_pack_runs_new_import_tally(tmp_path, capsys):
    (tmp_path / "tiny.yaml").write_text(TINY_YAML, encoding="utf-8")
    packs.register(TinyPack(tmp_path))
    try:
        _play(tmp_path, capsys)
    finally:
        packs.unregister("tiny")
    assert "tiny" not in all_packs()


def test_a_pack_from_an_installed_distribution_is_found_by_its_entry_point(tmp_path, capsys, monkeypatch):
    site = tmp_path / "site"
    (site / "club_tiny-0.1.dist-info").mkdir(parents=True)
    (site / "club_tiny-0.1.dist-info" / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: club-tiny\nVersion: 0.1\n", encoding="utf-8")
    (site / "club_tiny-0.1.dist-info" / "entry_points.txt").write_text(
        "[modtool.games]\ntiny = club_tiny:make_pack\n", encoding="utf-8")
    (site / "tiny.yaml").write_text(TINY_YAML, encoding="utf-8")
    (site / "club_tiny.py").write_text(
        "from pathlib import Path\n"
        "from tests.test_packs import TinyPack\n\n"
        "def make_pack():\n"
        "    return TinyPack(Path(__file__).parent)\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(site))
    packs.refresh()
    try:
        assert type(all_packs().get("tiny")).__name__ == "TinyPack"  # loaded by its entry point
        _play(tmp_path, capsys)
    finally:
        sys.modules.pop("club_tiny", None)
        monkeypatch.undo()
        packs.refresh()
    assert "tiny" not in all_packs()


def test_shipped_packs_are_modtools_own_entry_points_and_win_over_an_installed_one(tmp_path, monkeypatch):
    """Built-in packs are declared like any other (pyproject's modtool.games); another
    distribution's pack of the same id does not shadow modtool's own."""
    from modtool.core.entrypoints import group_of_pyproject

    declared = group_of_pyproject((ROOT.parent / "pyproject.toml").read_text(encoding="utf-8"))
    assert sorted(declared) == [("m42", "modtool.packs.m42.pack:PACK"), ("mafia", "modtool.packs.mafia.pack:PACK"),
                                ("zhenhuan", "modtool.packs.zhenhuan.pack:PACK")]
    site = tmp_path / "site"
    (site / "club_m42-1.0.dist-info").mkdir(parents=True)
    (site / "club_m42-1.0.dist-info" / "entry_points.txt").write_text(
        "[modtool.games]\nm42 = club_m42:PACK\n", encoding="utf-8")
    (site / "club_m42.py").write_text("raise SystemExit('never imported')\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(site))
    packs.refresh()
    try:
        assert type(all_packs()["m42"]).__name__ == "M42Pack" and all_packs()["m42"].distribution == "modtool"
        assert packs.refusals() == []
    finally:
        monkeypatch.undo()
        packs.refresh()


def test_an_installed_pack_that_fails_to_load_is_refused_with_its_reason_not_a_crash(tmp_path, capsys, monkeypatch):
    from tests.test_cli import run

    site = tmp_path / "site"
    (site / "club_broken-0.1.dist-info").mkdir(parents=True)
    (site / "club_broken-0.1.dist-info" / "entry_points.txt").write_text(
        "[modtool.games]\nbroken = club_broken:PACK\n", encoding="utf-8")
    (site / "club_broken.py").write_text("import no_such_module_here\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(site))
    packs.refresh()
    try:
        assert "broken" not in all_packs()
        with pytest.raises(UserError) as exc:
            get_pack("broken")
        assert "游戏包「broken」（club-broken）没有载入：ModuleNotFoundError" in str(exc.value.problems[0])
        code, out, err = run(capsys, "check", ROOT.parent / "examples" / "m42")
        assert code == 0 and "没有载入" in err and "Traceback" not in err
    finally:
        sys.modules.pop("club_broken", None)
        monkeypatch.undo()
        packs.refresh()
