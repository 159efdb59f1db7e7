"""Posts: player text cannot break them; templates are found, overridden and sandboxed."""

import pytest

from modtool.packs.m42.report import vote_post_context
from modtool.base.problems import UserError
from modtool.core.render import Safe, neutralise, render

EVIL = "[/table][b]x[/b][url=http://evil]点我[/url]"


def tally_json(name=EVIL):
    return {
        "day": 2,
        "valid": [{"floor": 3, "pid": "77", "time": "2026-11-04 10:00:00", "voter": name, "target": "金人凤", "weight": 1}],
        "changes": [],
        "invalid": [{"floor": 4, "pid": "78", "author": name, "voter": None, "reason": f"投票对象「{name}」不是存活角色的名字"}],
        "not_voted": [name],
        "counts": {"金人凤": 1},
        "result": {"kind": "exile", "target": "金人凤", "explain": "金人凤以1票获得最多票，被放逐出局（M42-R4）。"},
    }


def test_player_text_cannot_open_bbcode_in_the_vote_post():
    out = render("m42", "vote", "bbcode", vote_post_context(tally_json(), "M42", "2026-11-05 21:00", False, "", "bbcode"))
    assert out.count("[/table]") == 1  # only the template's own
    assert "[url=http://evil]" not in out and "［url=http://evil］点我" in out
    assert "[url=forum.php?mod=redirect&goto=findpost&pid=77]3#[/url]" in out  # modtool's own link stays


def test_player_text_cannot_break_the_markdown_table():
    out = render("m42", "vote", "markdown", vote_post_context(tally_json("a|b*c*"), "M42", "2026-11-05 21:00", False, "", "markdown"))
    row = next(line for line in out.splitlines() if "金人凤 | 1" in line)
    assert row.count("|") == 7 and "a｜b＊c＊" in row


def test_neutralise_keeps_safe_text():
    assert neutralise(Safe("[b]x[/b]"), "bbcode") == "[b]x[/b]"
    assert neutralise("[b]x[/b]", "bbcode") == "［b］x［/b］"
    assert neutralise(None, "bbcode") == ""


def test_unknown_format_and_kind_are_user_errors():
    with pytest.raises(UserError, match="未知的格式"):
        render("m42", "vote", "html", {})
    with pytest.raises(UserError, match="没有「nosuch」"):
        render("m42", "nosuch", "bbcode", {})


def test_director_template_syntax_error_names_the_file(tmp_path):
    (tmp_path / "templates" / "m42").mkdir(parents=True)
    (tmp_path / "templates" / "m42" / "vote.bbcode.j2").write_text("{% if %}\n", encoding="utf-8")
    with pytest.raises(UserError, match="语法错误"):
        render("m42", "vote", "bbcode", {}, tmp_path)


def test_sandbox_refuses_unsafe_attribute_access(tmp_path):
    (tmp_path / "templates" / "m42").mkdir(parents=True)
    (tmp_path / "templates" / "m42" / "vote.bbcode.j2").write_text("{{ ''.__class__.__mro__[1].__subclasses__() }}\n", encoding="utf-8")
    with pytest.raises(UserError):
        render("m42", "vote", "bbcode", {}, tmp_path)
