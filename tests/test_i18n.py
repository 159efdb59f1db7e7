"""The core's words come in the language of the game's pack, from gettext
catalogues (modtool.base.i18n), never from ``if language ==`` branches."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from modtool.base.i18n import LOCALE, catalogue
from tests.support.values import run_main

ROOT = Path(__file__).resolve().parent.parent


def test_committed_catalogues_are_their_po_files_compiled():
    """Each .mo holds exactly the messages of its .po (python -m modtool.base.i18n_compile)."""
    import gettext

    from babel.messages.pofile import read_po

    pos = sorted(LOCALE.glob("*/LC_MESSAGES/*.po"))
    assert pos
    for po in pos:
        with open(po, "rb") as f:
            want = {m.id: m.string for m in read_po(f) if m.id}
        with open(po.with_suffix(".mo"), "rb") as f:
            got = {k: v for k, v in gettext.GNUTranslations(f)._catalog.items() if k}
        assert got == want, f"run: python -m modtool.base.i18n_compile ({po})"


def test_every_english_message_keeps_the_placeholders_of_its_chinese_id():
    import re

    from babel.messages.pofile import read_po

    with open(LOCALE / "en" / "LC_MESSAGES" / "modtool.po", "rb") as f:
        catalog = read_po(f)
    for m in catalog:
        if m.id:
            assert m.string, m.id
            assert set(re.findall(r"{\w+}", m.id)) == set(re.findall(r"{\w+}", m.string)), m.id


def test_a_mafia_host_reads_the_core_in_english_and_m42_stays_chinese(tmp_path, capsys):
    roster = tmp_path / "roster.yaml"
    roster.write_text("- {name: Pine, account: Pine}\n- {name: Valern, account: Valern}\n- {name: Trendall, account: Trendall}\n",
                      encoding="utf-8")
    g = tmp_path / "g"
    assert run_main(["new", str(g), "--game", "mafia", "--roster", str(roster)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Created ") and "已建立" not in out
    posts = tmp_path / "posts.jsonl"
    posts.write_text(
        '{"forum": "53", "thread": "1", "pagelink": "x", "number": "3", "timestamp": "Fri Mar 25, 2011 12:30 pm", '
        '"user": "Pine", "content": "<span class=\\"noboldsig\\">vote: Valern</span>"}\n'
        '{"forum": "53", "thread": "1", "pagelink": "x", "number": "4", "timestamp": "Fri Mar 25, 2011 12:40 pm", '
        '"user": "Stranger", "content": "hello"}\n', encoding="utf-8")
    assert run_main(["start-day", str(g), "--day", "1", "--post", "3"]) == 0
    capsys.readouterr()
    assert run_main(["import", str(g), str(posts), "--thread", "vote", "--day", "1"]) == 0
    out = capsys.readouterr().out
    assert "Imported 2 posts" in out and 'Account "Stranger" is not in the roster: #4 (not counted)' in out
    assert not any("\u4e00" <= ch <= "\u9fff" for ch in out), out
    assert run_main(["check", str(g)]) == 0
    assert "no problems found" in capsys.readouterr().out
    m42 = tmp_path / "m42"
    shutil.copytree(ROOT / "examples" / "m42", m42, ignore=shutil.ignore_patterns(".modtool", "*.lock"))
    assert run_main(["check", str(m42)]) == 0
    assert "没有发现问题" in capsys.readouterr().out


def test_a_replacement_account_is_not_called_unknown_by_import(tmp_path, capsys):
    roster = tmp_path / "roster.yaml"
    roster.write_text("- {name: Pine, account: Pine}\n- {name: Valern, account: Valern}\n", encoding="utf-8")
    g = tmp_path / "g"
    assert run_main(["new", str(g), "--game", "mafia", "--roster", str(roster)]) == 0
    assert run_main(["replace", str(g), "Pine", "Quilford", "--post", "2"]) == 0
    posts = tmp_path / "posts.jsonl"
    posts.write_text('{"forum": "53", "thread": "1", "pagelink": "x", "number": "3", "timestamp": "Fri Mar 25, 2011 12:30 pm", '
                     '"user": "Quilford", "content": "hi"}\n', encoding="utf-8")
    capsys.readouterr()
    assert run_main(["import", str(g), str(posts), "--thread", "vote", "--day", "1"]) == 0
    assert "not in the roster" not in capsys.readouterr().out


def test_catalogue_falls_back_to_the_chinese_id():
    assert catalogue("zh").gettext("已建立 {path}") == "已建立 {path}"
    assert catalogue("en").gettext("一句没有翻译的话") == "一句没有翻译的话"


def test_a_mafia_host_gets_errors_undo_and_refusals_in_english(tmp_path, capsys):
    roster = tmp_path / "roster.yaml"
    roster.write_text("- {name: Pine, account: Pine}\n- {name: Valern, account: Valern}\n", encoding="utf-8")
    g = tmp_path / "g"
    assert run_main(["new", str(g), "--game", "mafia", "--roster", str(roster)]) == 0
    assert run_main(["start-day", str(g), "--day", "1", "--post", "3"]) == 0
    capsys.readouterr()
    assert run_main(["tally", str(g), "--day", "3"]) == 1  # a day not started: refused, in English
    err = capsys.readouterr().err
    assert err.startswith("Error: ") and "day 3 has not started" in err
    assert run_main(["advance", str(g)]) == 1  # a shared command the pack does not answer
    err = capsys.readouterr().err
    assert err.startswith("Error: This command is only for")
    assert run_main(["undo", str(g)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Took back the") and not any("\u4e00" <= ch <= "\u9fff" for ch in out)


def test_an_error_before_any_game_opens_is_chinese_even_after_a_mafia_command(tmp_path, capsys):
    """The error prefix follows the game *this* command opened, not an earlier one in the process."""
    roster = tmp_path / "roster.yaml"
    roster.write_text("- {name: Pine, account: Pine}\n", encoding="utf-8")
    assert run_main(["new", str(tmp_path / "g"), "--game", "mafia", "--roster", str(roster)]) == 0
    assert run_main(["check", str(tmp_path / "g")]) == 0
    capsys.readouterr()
    assert run_main(["check", str(tmp_path / "none")]) == 1
    assert capsys.readouterr().err.startswith("错误：")


# -- which language a command speaks before it opens a game (modtool.cli.language.language_of_command)


def test_the_command_line_names_the_language_game_folder_then_game_option_then_locale():
    from modtool.cli.language import language_of_command

    mafia, m42 = str(ROOT / "examples" / "mafia"), str(ROOT / "examples" / "m42")
    zh, en = {"LANG": "zh_CN.UTF-8"}, {"LANG": "en_US.UTF-8"}
    assert language_of_command(["tally", mafia, "--help"], zh) == "en"
    assert language_of_command(["tally", m42, "--help"], en) == "zh"
    assert language_of_command(["new", "x", "--game", "mafia"], zh) == "en"
    assert language_of_command(["new", "x", "--game=m42"], en) == "zh"
    assert language_of_command(["--help"], en) == "en"
    assert language_of_command(["--help"], {"LANGUAGE": "en_GB:zh_CN", "LANG": "zh_CN.UTF-8"}) == "en"
    assert language_of_command(["--help"], {"LC_ALL": "zh_TW.UTF-8", "LANG": "en_US.UTF-8"}) == "zh"
    assert language_of_command(["--help"], {"LANG": "C.UTF-8"}) == "en"  # C/POSIX names no language: English
    assert language_of_command(["--help"], {}) == "en"
    assert language_of_command(["--help"], {"LANG": "zh_CN.UTF-8"}) == "zh"
    assert language_of_command(["new", "x", "--game", "nosuch"], en) == "en"  # an unknown game: the locale


def test_an_english_locale_reads_help_and_usage_errors_in_english(monkeypatch, capsys):
    monkeypatch.setenv("LANG", "en_US.UTF-8")
    assert run_main(["--help"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Usage: modtool") and "Count a day's votes" in out
    listed = set(re.findall(r"(?m)^  ([a-z-]+)  ", out))
    assert {"tally", "replace"} <= listed and not listed & {"card", "night"}  # the Chinese games' own are not listed
    assert run_main(["talli"]) == 2
    assert capsys.readouterr().err == "Error: No such command: talli; did you mean tally (modtool --help lists them all)\n"
    monkeypatch.setenv("LANG", "zh_CN.UTF-8")
    assert run_main(["--help"]) == 0
    out = capsys.readouterr().out
    listed = set(re.findall(r"(?m)^  ([a-z-]+)  ", out))
    assert out.startswith("用法: modtool") and {"tally", "card", "night"} <= listed and "replace" not in listed


def test_a_mafia_folder_or_game_speaks_english_in_a_chinese_locale(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("LANG", "zh_CN.UTF-8")
    assert run_main(["tally", str(ROOT / "examples" / "mafia"), "--help"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Usage: modtool tally") and "Options:" in out and "--upto-post" in out
    assert not any("\u4e00" <= ch <= "\u9fff" for ch in out), out
    assert run_main(["new", str(tmp_path / "g"), "--game", "mafia", "--roster", str(tmp_path / "none.yaml")]) == 1
    err = capsys.readouterr().err
    assert err.startswith("Error: ") and "Cannot read the roster file" in err
    assert run_main(["tally", str(ROOT / "examples" / "mafia"), "--at", "yesterday"]) == 1
    assert capsys.readouterr().err == ('Error: argument --at: Cannot read the time "yesterday": '
                                       "write it like 2011-03-25 21:00 (nothing was written)\n")


def test_a_mafia_ledger_damaged_by_hand_is_reported_in_english(tmp_path, capsys):
    g = tmp_path / "g"
    shutil.copytree(ROOT / "examples" / "mafia", g, ignore=shutil.ignore_patterns(".modtool", "*.lock"))
    with open(g / "ledger.yaml", "a", encoding="utf-8") as f:
        f.write("  - {type: bogus}\n  - {type: post, floor: x\n")
    assert run_main(["check", str(g)]) == 1
    err = capsys.readouterr().err
    assert "YAML syntax error: braces { } do not pair up" in err and err.startswith("Error: ")
    assert not any("\u4e00" <= ch <= "\u9fff" for ch in err), err


def test_importing_a_topics_posts_again_as_another_day_is_refused_in_english(tmp_path, capsys):
    """phpBB post numbers run through the whole topic (GamePack.post_numbers_span_days)."""
    g = tmp_path / "g"
    shutil.copytree(ROOT / "examples" / "mafia", g, ignore=shutil.ignore_patterns(".modtool", "*.lock"))
    before = (g / "ledger.yaml").read_bytes()
    assert run_main(["import", str(g), str(g / "day1-posts.jsonl"), "--thread", "vote", "--day", "2"]) == 1
    err = capsys.readouterr().err
    assert "Post #3 was imported as day 1's vote thread; now it would be day 2's vote thread" in err
    assert (g / "ledger.yaml").read_bytes() == before


# -- click's and typer's own words (modtool.cli.words): the stdlib gettext domain "click"


def test_every_chinese_click_word_keeps_the_placeholders_of_its_english_id():
    from babel.messages.pofile import read_po

    with open(LOCALE / "zh" / "LC_MESSAGES" / "click.po", "rb") as f:
        catalog = read_po(f)
    ids = [m.id for m in catalog if m.id]
    assert "Usage:" in ids and "Show this message and exit." in ids
    for m in catalog:
        if m.id:
            assert m.string, m.id
            assert re.findall(r"{[^{}]*}", m.id) == re.findall(r"{[^{}]*}", m.string), m.id


def test_click_speaks_through_the_stdlib_gettext_not_patched_modules(monkeypatch, capsys):
    """click's and typer's ``_`` stay the standard library's ``gettext.gettext``;
    the command's language reaches it through the bound domain and ``LANGUAGE``,
    which are the user's again after the command (the next command, or the
    program around modtool, reads its own locale)."""
    import gettext
    import importlib

    monkeypatch.delenv("LANGUAGE", raising=False)
    monkeypatch.setenv("LANG", "en_US.UTF-8")
    domain = gettext.textdomain()
    assert run_main(["tally", str(ROOT / "examples" / "m42"), "--help"]) == 0  # a Chinese game in an English locale
    out = capsys.readouterr().out
    assert out.startswith("用法: modtool tally") and "选项:" in out and "显示这份说明并退出。" in out
    assert "LANGUAGE" not in __import__("os").environ and gettext.textdomain() == domain
    for name in ("click.core", "click.formatting", "click.types", "click.exceptions", "click.decorators",
                 "click.parser", "typer.core"):
        module = importlib.import_module(name)
        if hasattr(module, "_"):
            assert module._ is gettext.gettext, name
    assert run_main(["tally", str(ROOT / "examples" / "m42"), "--day", "0"]) == 2  # click's range error, in Chinese
    assert capsys.readouterr().err == "错误：参数 --day 的值不对：0 不在范围 x>=1 之内。\n"
    monkeypatch.setenv("LANGUAGE", "zh_CN")  # an English game in a Chinese locale reads click's own English
    assert run_main(["tally", str(ROOT / "examples" / "mafia"), "--day", "0"]) == 2
    assert capsys.readouterr().err == "Error: Bad value for --day: 0 is not in the range x>=1.\n"
    assert __import__("os").environ["LANGUAGE"] == "zh_CN"
