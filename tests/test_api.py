"""modtool as a library (modtool.api): values, not output; the same guard as the commands."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from modtool import api
from modtool.base import i18n

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


@pytest.fixture
def m42(tmp_path):
    shutil.copytree(EXAMPLES / "m42", tmp_path / "m42")
    return tmp_path / "m42"


def test_a_tally_is_a_value_with_the_commands_json_and_text(m42, capsys):
    from tests.support.values import run_cli

    view = api.open_game(m42).tally(day=2, floor=15)
    assert view.kind == "tally" and view.game == "m42"
    code, out, _ = run_cli(capsys, "tally", str(m42), "--day", "2", "--floor", "15", "--json")
    assert code == 0
    import json

    assert view.to_json() == json.loads(out)
    code, out, _ = run_cli(capsys, "tally", str(m42), "--day", "2", "--floor", "15")
    assert view.text == out
    assert capsys.readouterr() == ("", "")  # the query printed nothing


def test_a_view_cannot_be_changed_by_one_who_reads_it(m42):
    view = api.open_game(m42).status()
    data = view.to_json()
    data["phase"] = "changed"
    data.clear()
    assert view.to_json() and view.to_json().get("phase") != "changed"
    with pytest.raises(AttributeError):
        view.text = "x"


def test_the_callers_language_is_back_after_a_call_in_the_games_language(m42):
    mafia = api.open_game(EXAMPLES / "mafia")
    with i18n.speaking("zh"):
        assert mafia.language == "en"
        mafia.tally()
        assert i18n.language() == "zh"
    with i18n.speaking("en"):
        api.open_game(m42).status()
        assert i18n.language() == "en"


def test_an_error_is_a_value_with_its_place_in_the_games_language(tmp_path):
    with pytest.raises(api.UserError) as exc:
        api.open_game(tmp_path)
    problem = exc.value.problems[0]
    assert problem.source.endswith("ledger.yaml") and "找不到账本" in problem.message
    with pytest.raises(api.UserError) as exc:
        api.open_game(EXAMPLES / "zhenhuan").tally()  # 甄嬛 counts nominations, not a tally
    assert "m42" in str(exc.value)
    with pytest.raises(api.UserError) as exc:
        api.open_game(EXAMPLES / "mafia").tally(day=9)
    assert not any("\u4e00" <= ch <= "\u9fff" for ch in str(exc.value)), exc.value


def test_record_writes_through_the_write_guard_and_a_refusal_writes_nothing(m42):
    game = api.open_game(m42)
    before = (m42 / "ledger.yaml").read_bytes()
    n = len(game.events())
    with pytest.raises(api.UserError):
        game.record([{"type": "no_such_event", "day": 1}])  # damage: refused
    assert (m42 / "ledger.yaml").read_bytes() == before
    done = game.record([{"type": "close", "day": 2, "at": "2026-11-05 22:00", "note": "from a program"}])
    assert len(game.events()) == n + 1 and done.notes == ()
    assert game.events()[-1]["note"] == "from a program"
    assert "from a program" in (m42 / "ledger.yaml").read_text(encoding="utf-8")


def test_g_r2_record_refuses_to_change_an_announced_result_unless_forced(m42, capsys):
    game = api.open_game(m42)
    assert game.status().to_json()["announced_changed"] == []
    before = (m42 / "ledger.yaml").read_bytes()
    # Day 1's close moved to before the day's votes: day 1's settled result would change.
    with pytest.raises(api.UserError) as exc:
        game.record([{"type": "close", "day": 1, "at": "2026-11-02 10:30"}])
    assert "G-R2" in str(exc.value)
    assert (m42 / "ledger.yaml").read_bytes() == before
    capsys.readouterr()
    done = game.record([{"type": "close", "day": 1, "at": "2026-11-02 10:30"}], force=True)
    changed = game.status().to_json()["announced_changed"]  # what the forum must now correct
    assert changed and all(line in done.notes[0] for line in changed)
    assert done.events == len(game.events()) and game.events()[-1]["type"] == "announced"  # what the forum read, kept
    assert len(done.notes) == 1 and "--force" in done.notes[0]  # told as a value
    assert capsys.readouterr() == ("", "")  # never printed


def test_the_modules_example_runs(monkeypatch):
    import doctest

    monkeypatch.chdir(EXAMPLES.parent)
    failed, tried = doctest.testmod(api)
    assert tried >= 4 and failed == 0


def test_an_option_a_game_does_not_read_breaks_no_game(m42):
    """A shared query is one value (core.view.Query): an option added for one
    game (a tally --quorum, say) is ignored by the packs that do not read it,
    never a TypeError in every other game's tally."""
    plain = api.open_game(m42).tally(day=2)
    assert api.open_game(m42).tally(day=2, quorum=5).to_json() == plain.to_json()
    assert api.open_game(EXAMPLES / "mafia").tally(quorum=5).to_json() == api.open_game(EXAMPLES / "mafia").tally().to_json()
    q = api.Query(day=2, options={"quorum": 5})
    assert q.get("day") == 2 and q.get("quorum") == 5 and q.get("nothing", 0) == 0
    with pytest.raises(TypeError):
        q.options["quorum"] = 6  # read-only, like the rest of the value


@pytest.mark.parametrize("example, argv, kind, options", [
    ("m42", ["--day", "2"], "vote", {"day": 2}),
    ("zhenhuan", ["--day", "1"], "nominations", {"day": 1}),
    ("mafia", [], "vote", {}),
])
def test_a_post_is_the_one_the_command_prints_and_nothing_is_written(tmp_path, capsys, example, argv, kind, options):
    from tests.support.values import run_cli

    game = tmp_path / example
    shutil.copytree(EXAMPLES / example, game)
    before = (game / "ledger.yaml").read_bytes()
    code, out, err = run_cli(capsys, "announce", str(game), kind, *argv)
    assert code == 0, err
    post = api.open_game(game).post(kind, **options)
    assert post.text == out and post.to_json() == {"kind": kind, "format": "bbcode", "text": out}
    assert (game / "ledger.yaml").read_bytes() == before


def test_m42_r15_a_notice_whose_sending_is_a_fact_is_the_commands_alone(m42):
    before = (m42 / "ledger.yaml").read_bytes()
    with pytest.raises(api.UserError) as exc:
        api.open_game(m42).post("witch", night=1)
    assert "M42-R15" in str(exc.value)
    assert (m42 / "ledger.yaml").read_bytes() == before


@pytest.mark.parametrize("name, argv, options", [
    ("cards", [], {}), ("schedule", ["--day", "2"], {"day": 2}), ("flags", ["--day", "2"], {"day": 2}),
])
def test_a_games_own_query_is_the_answer_its_command_prints(capsys, name, argv, options):
    import json

    from tests.support.values import run_cli

    game = EXAMPLES / "m42-discipline"
    code, out, err = run_cli(capsys, name, str(game), *argv, "--json")
    assert code == 0, err
    view = api.open_game(game).view(name, **options)
    assert view.kind == name and view.to_json() == json.loads(out)
    code, out, err = run_cli(capsys, name, str(game), *argv)
    assert view.text == out


def test_a_query_the_game_has_not_is_refused_naming_it():
    with pytest.raises(api.UserError) as exc:
        api.open_game(EXAMPLES / "mafia").view("cards")
    said = str(exc.value)
    assert said.startswith("cards: ") and "m42" in said and "mafia" in said  # who has it, and this game
    assert not any("\u4e00" <= ch <= "\u9fff" for ch in said)  # in the game's language


def test_a_games_own_command_runs_with_the_commands_checks_and_returns_what_it_tells(m42, capsys):
    """``Game.command`` runs the function the command line runs: the same "did you
    mean" refusal (nothing written), the same answer (a value), nothing printed."""
    from modtool.core.command import Said
    from modtool.base.problems import UserError

    game = api.open_game(m42)
    assert "card" in game.commands() and "deadline" not in game.commands()
    before = len(game.events())
    with pytest.raises(UserError) as exc:
        game.command("card", character="没有这个人", color="yellow", reason="情绪发言", at="2026-11-05 20:10")
    assert "没有这个人" in str(exc.value) and len(game.events()) == before
    said = game.command("card", character="石宽", color="yellow", reason="情绪发言", at="2026-11-05 20:10")
    assert isinstance(said, Said) and said.text.startswith("已判罚：石宽 黄牌（情绪发言）")
    assert len(game.events()) == before + 1 and game.events()[-1]["type"] == "card"
    cards = game.command("cards")
    assert cards.to_json() == game.view("cards").to_json()
    assert capsys.readouterr() == ("", "")
    with pytest.raises(UserError) as exc:
        game.command("deadline", day=1, at="2026-11-05 21:00")
    assert "没有这个命令" in str(exc.value) and "card" in str(exc.value)


def test_a_mafia_command_through_the_library_speaks_english(tmp_path):
    shutil.copytree(EXAMPLES / "mafia", tmp_path / "mafia")
    game = api.open_game(tmp_path / "mafia")
    said = game.command("alias", alias="Lynchy", slot="lynchking")
    assert said.text == 'A vote for "Lynchy" now counts for lynchking.\n'
    assert game.events()[-1]["type"] == "alias"


def test_import_and_undo_through_the_library_are_the_commands(tmp_path, capsys):
    """``Game.import_posts`` and ``Game.undo`` are the functions the commands run:
    the same text, once each post, and an undo of the whole batch."""
    from tests.support.values import run_cli

    for name in ("a", "b"):
        shutil.copytree(EXAMPLES / "m42", tmp_path / name)
    dump = tmp_path / "day3.txt"
    dump.write_text("#1 路过的人 2026-11-06 10:00\n大家好\n\n#2 路过的人 2026-11-06 10:05\n再来一帖\n", encoding="utf-8")
    a, b = api.open_game(tmp_path / "a"), api.open_game(tmp_path / "b")
    said = a.import_posts([dump], thread="vote", day=3)
    code, out, _ = run_cli(capsys, "import", str(tmp_path / "b"), str(dump), "--thread", "vote", "--day", "3")
    assert code == 0 and said.text == out.replace(str(tmp_path / "b"), str(tmp_path / "a")), (said.text, out)
    assert "已导入" in said.text and len(a.events()) == len(b.events())
    assert a.import_posts([dump], thread="vote", day=3).text.startswith("已导入 0 帖")
    before = len(a.events())
    assert a.undo(batch="last").text.startswith("已撤销")
    code, out, _ = run_cli(capsys, "undo", str(tmp_path / "b"), "--import", "last")
    assert code == 0 and out.startswith("已撤销") and len(a.events()) == len(b.events()) < before
    assert capsys.readouterr() == ("", "")


def test_a_new_game_through_the_library_is_the_commands_and_refuses_what_the_game_does_not_take(tmp_path):
    from modtool.base.problems import UserError

    game = api.new_game(tmp_path / "g", "m42", roster=EXAMPLES / "m42" / "roster.yaml", seed=20261102)
    assert game.id == "m42" and game.problems() == ()
    with pytest.raises(UserError) as exc:
        api.new_game(tmp_path / "h", "mafia", roster=EXAMPLES / "m42" / "roster.yaml", seed=3)
    assert "--seed" in str(exc.value) and not (tmp_path / "h").exists()


def test_a_post_as_at_a_post_is_the_commands_and_a_game_that_cannot_cut_refuses(tmp_path, capsys, m42):
    """``post(floor=)`` (or ``upto_post=``) is ``announce --upto-post``; a game whose posts
    are not cut at a post refuses it rather than ignoring it (the whole day, silently)."""
    from modtool.base.problems import UserError
    from tests.support.values import run_cli

    shutil.copytree(EXAMPLES / "mafia", tmp_path / "mafia")
    game = api.open_game(tmp_path / "mafia")
    code, out, _ = run_cli(capsys, "announce", str(tmp_path / "mafia"), "vote", "--day", "1", "--upto-post", "5")
    assert code == 0 and game.post("vote", day=1, upto_post=5).text == out == game.post("vote", day=1, floor=5).text
    assert game.post("vote", day=1).text != out
    with pytest.raises(UserError) as exc:
        api.open_game(m42).post("vote", day=2, floor=5)
    assert "--floor/--upto-post" in str(exc.value) and "mafia" in str(exc.value)


def test_the_library_takes_one_dump_a_number_for_a_batch_and_a_commands_defaults(tmp_path):
    shutil.copytree(EXAMPLES / "mafia", tmp_path / "mafia")
    game = api.open_game(tmp_path / "mafia")
    said = game.command("replace", slot="Pine", player="NewPine", post=9)  # --account left out, as on the command line
    assert "NewPine" in said.text and game.events()[-1]["type"] == "replace"
    dump = tmp_path / "more.txt"
    dump.write_text("#900 NewPine 2011-04-01 10:00\nhello\n", encoding="utf-8")
    assert "1" in game.import_posts(str(dump), thread="vote", day=1).text  # one path, not a list
    batch = next(e for e in reversed(game.events()) if e["type"] == "import")["batch"]
    assert game.undo(batch=int(batch)).text  # a number, as the command line's text
