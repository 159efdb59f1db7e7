"""Errors are values that carry a message id, its arguments and the place; they
are translated only when shown, so the core holds no "current language" when
it makes one (modtool.base.problems)."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

from modtool.base import i18n
from modtool.base.i18n import Message
from modtool.base.problems import Problem, UserError, refusals


def test_a_problem_made_in_chinese_is_shown_in_the_language_in_force_when_shown():
    with i18n.speaking("zh"):
        p = Problem("dump.json", "文件不存在", floor=4)
    assert (p.msgid, dict(p.args)) == ("文件不存在", {})
    with i18n.speaking("en"):
        assert p.message == "No such file"
        assert str(p) == "dump.json (post #4): No such file"  # the floor words too
    with i18n.speaking("zh"):
        assert str(p) == "dump.json（4楼）: 文件不存在"


def test_a_problem_carries_its_message_id_and_arguments_filled_in_only_when_shown():
    p = Problem("ledger.yaml", "无法读取账本：{strerror}", 3, strerror="Permission denied")
    assert p.msgid == "无法读取账本：{strerror}" and p.args == {"strerror": "Permission denied"}
    assert p.line == 3 and p.floor is None
    with i18n.speaking("zh"):
        assert p.message == "无法读取账本：Permission denied"
    with i18n.speaking("en"):
        assert p.message == i18n.catalogue("en").gettext(p.msgid).format(strerror="Permission denied")
        assert "账本" not in p.message


def test_an_argument_named_like_a_place_field_goes_in_args():
    p = Problem("x.txt", "文件声明的编码是 {name}，但第 {line} 行有无法按此编码解码的字节", 7,
                args={"name": "gbk", "line": 7})
    assert p.line == 7 and p.args == {"name": "gbk", "line": 7}
    with i18n.speaking("zh"):
        assert p.message == "文件声明的编码是 gbk，但第 7 行有无法按此编码解码的字节"


def test_a_nested_message_argument_is_shown_in_the_same_language():
    p = Problem("", "{message}{note}", message=Message("文件不存在"), note=Message("（{floor}楼）", floor=2))
    with i18n.speaking("en"):
        assert p.message == "No such file (post #2)"
    with i18n.speaking("zh"):
        assert p.message == "文件不存在（2楼）"


def test_a_message_without_arguments_is_shown_as_it_is():
    assert Problem("", "名字「{x}」").message == "名字「{x}」"  # a player's braces are no fields


def test_problems_compare_and_hash_by_place_and_message_value():
    a = Problem("s", "帖子的 {key} 应是数字", key="pid", floor=3)
    b = Problem("s", "帖子的 {key} 应是数字", floor=3, key="pid")
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    assert a != Problem("s", "帖子的 {key} 应是数字", key="tid", floor=3)
    assert a != Problem("s", "帖子的 {key} 应是数字", key="pid", floor=4)
    assert a.in_language("en") == a  # the language it is shown in is no part of what it is
    assert Problem("s", "x {v}", v=[1, 2]) == Problem("s", "x {v}", v=[1, 2])
    assert hash(Problem("s", "x {v}", v=[1, 2])) == hash(Problem("s", "x {v}", v=[1, 2]))
    a_refused = Problem("s", "迟交 {n}", 2, n=1, refused=True)
    assert refusals([a_refused, Problem("s", "迟交 {n}", 2, n=1, refused=True), a]) == [a_refused]


def test_a_problem_is_frozen_and_pickles():
    import dataclasses

    p = Problem("s", "第 {n} 夜还没有开始", 1, n=2, refused=True)
    try:
        p.line = 3
    except dataclasses.FrozenInstanceError:
        pass
    else:
        raise AssertionError("a Problem changed")
    q = pickle.loads(pickle.dumps(p))
    assert q == p and q.message == p.message and q.refused
    assert dataclasses.replace(p, line=5).args == {"n": 2}


def test_a_problem_bound_to_a_language_is_shown_in_it_whatever_is_in_force():
    p = Problem("dump.json", "文件不存在", floor=1).in_language("en")
    with i18n.speaking("zh"):
        assert str(p) == "dump.json (post #1): No such file"


def test_json_of_a_problem_has_its_message_id_and_arguments_besides_the_message():
    p = Problem("s", "{message}{note}", 4, message=Message("文件不存在"), note="!")
    with i18n.speaking("en"):
        got = p.to_json()
    assert got == {"source": "s", "line": 4, "floor": None, "message": "No such file!",
                   "msgid": "{message}{note}", "args": {"message": {"msgid": "文件不存在", "args": {}}, "note": "!"}}
    assert Message.from_json({"msgid": got["msgid"], "args": got["args"]}) == p.msg


def test_a_user_error_is_rendered_when_shown_not_when_raised():
    with i18n.speaking("zh"):
        exc = UserError("找不到账本文件；先用 modtool new 建立游戏")
    with i18n.speaking("en"):
        assert str(exc) == "No ledger file; create the game first with modtool new"
    assert UserError("第 {n} 夜还没有开始", n=3).problems == [Problem("", "第 {n} 夜还没有开始", n=3)]
def test_a_problem_the_core_finds_while_english_is_spoken_keeps_the_chinese_message_id(tmp_path):
    """Fails if a site translates a problem when it makes it: made while the
    language is English, it must still carry the Chinese id and show in Chinese."""
    from modtool.forum.bounds import read_dump_bytes

    with i18n.speaking("en"):
        missing = read_dump_bytes(tmp_path / "nothing.json")
        folder = read_dump_bytes(tmp_path)
    assert missing.msgid == "文件不存在" and "这是一个文件夹" in folder.msgid
    with i18n.speaking("zh"):
        assert missing.message == "文件不存在"
    with i18n.speaking("en"):
        assert missing.message == "No such file"


def test_check_json_gives_each_problem_its_message_id_and_arguments_besides_the_message(tmp_path, capsys):
    import json
    import shutil
    from pathlib import Path

    from tests.support.values import run_cli

    g = tmp_path / "g"
    shutil.copytree(Path(__file__).resolve().parent.parent / "examples" / "mafia", g,
                    ignore=shutil.ignore_patterns(".modtool", "*.lock"))
    with open(g / "ledger.yaml", "a", encoding="utf-8") as f:
        f.write("  - {type: bogus}\n")
    code, out, err = run_cli(capsys, "check", g, "--json")
    assert code == 1, err
    [bogus] = [p for p in json.loads(out)["problems"] if p["msgid"].startswith("未知的事件类型")]
    assert bogus["args"]["type"] == "bogus" and {"source", "line", "floor", "message"} <= set(bogus)
    assert bogus["message"].startswith("unknown event type") or "bogus" in bogus["message"]
    assert not any("\u4e00" <= ch <= "\u9fff" for ch in bogus["message"])  # shown in the game's language


# Calls whose message argument (by position) is a message id, never text translated when made.
_MESSAGE_ARG = {"Problem": 1, "UserError": 0, "refuse": 1, "say": 0}


def _translated_when_made(node) -> bool:
    import ast

    if isinstance(node, ast.JoinedStr):
        return any(isinstance(v, ast.FormattedValue) for v in node.values)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):  # text glued (not a list of problems)
        return any(isinstance(side, ast.Constant) and isinstance(side.value, str) or _translated_when_made(side)
                   for side in (node.left, node.right))
    if isinstance(node, ast.IfExp):
        return _translated_when_made(node.body) or _translated_when_made(node.orelse)
    if isinstance(node, ast.Call):
        f = node.func
        name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
        if name in ("t", "tr", "gettext"):
            return True
        if name == "format":
            return _translated_when_made(f.value) or isinstance(f.value, ast.Constant)
    return False


def test_no_problem_is_translated_or_formatted_when_it_is_made():
    """Every Problem / UserError / refuse(...) of modtool's core and Chinese packs gets
    a message id and arguments: no t(...), .format(...), f-string or + in its message
    (the mafia pack's own English catalogue, ``_``, is another domain and left as it is)."""
    import ast
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent / "modtool"
    found = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            f = node.func
            name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
            at = _MESSAGE_ARG.get(name)
            if name == "refuse" and path.name == "_slow.py":
                at = 0
            if at is None or len(node.args) <= at or path.name == "registry.py" and name == "refuse":
                continue
            if _translated_when_made(node.args[at]):
                found.append(f"{path.relative_to(root.parent)}:{node.lineno}")
    assert not found, found


def test_the_guard_sees_a_problem_translated_when_made():
    import ast

    made = ast.parse('Problem(s, t("文件不存在"))\nUserError(f"第 {n} 夜")\nProblem(s, "x" + y)').body
    assert all(_translated_when_made(e.value.args[1 if e.value.func.id == "Problem" else 0]) for e in made)
    assert not _translated_when_made(ast.parse('"帖子的 {key} 应是数字"').body[0].value)


def test_a_listing_argument_takes_the_separator_of_the_language_it_is_shown_in():
    from modtool.base.i18n import Listing

    p = Problem("", "未知的游戏「{game}」；可用的有：{games}", game="x", games=Listing(["m42", "mafia"]))
    with i18n.speaking("zh"):
        assert p.message.endswith("m42、mafia")
    with i18n.speaking("en"):
        assert "m42, mafia" in p.message
    assert not Listing([]) and (Listing([]) or Message("没有")) == Message("没有")
    assert Message.from_json(p.msg.to_json()) == p.msg and pickle.loads(pickle.dumps(p)) == p


def test_a_mafia_problem_is_a_message_of_the_packs_own_catalogue_rendered_when_shown(tmp_path):
    """The mafia pack's words come from its own catalogue (English ids): a problem it
    makes keeps the id and arguments (``Msg``) and renders them when shown."""
    import pickle
    import shutil

    from modtool.base.problems import UserError
    from modtool.packs.mafia import commands
    from modtool.packs.mafia.messages import Msg

    shutil.copytree(Path(__file__).resolve().parents[1] / "examples" / "mafia", tmp_path / "g")
    with pytest.raises(UserError) as exc:
        commands.death(tmp_path / "g", "nobody-at-all", 5, None)
    problem = exc.value.problems[0]
    assert isinstance(problem.msg, Msg) and problem.msgid == 'no slot is named "{label}"{tail}'
    assert problem.args["label"] == "nobody-at-all"
    shown = str(problem)
    assert shown.startswith("command line WHO: no slot is named \"nobody-at-all\""), shown
    assert pickle.loads(pickle.dumps(problem)) == problem and str(pickle.loads(pickle.dumps(problem))) == shown
    assert isinstance(Msg("the alias is empty"), Msg) and str(Msg("day {day}", day=3)) == "day 3"
