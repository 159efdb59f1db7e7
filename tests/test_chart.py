"""modtool chart: the picture is the vote post's replay, drawn with real glyphs, byte-stable."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from modtool.core.chart import draw, fonts
from tests.support.values import run_main

ROOT = Path(__file__).resolve().parent.parent


def _copy(tmp_path: Path, name: str) -> Path:
    g = tmp_path / name
    shutil.copytree(ROOT / "examples" / name, g, ignore=shutil.ignore_patterns(".modtool", "*.lock", "*.png"))
    return g


def _cjk_font_or_skip(texts=("金人凤涂山红红票数关门",)) -> Path:
    try:
        return fonts.choose(list(texts))
    except Exception as exc:  # noqa: BLE001
        if __import__("os").environ.get("MODTOOL_REQUIRE_BROWSER"):  # CI installs fonts-noto-cjk with the browser
            raise
        pytest.skip(f"no CJK font on this machine ({exc}); CI installs fonts-noto-cjk")


def _m42_chart(g: Path, **kw):
    from modtool.core.gamefile import open_game
    from modtool.core.registry import get_pack

    gd = open_game(g)
    return get_pack("m42").chart(g, gd, day=kw.get("day", 2), floor=kw.get("floor"), at=kw.get("at"), close=None)


def test_the_chart_counts_what_the_vote_post_counts_m42(tmp_path, capsys):
    """The numbers in the picture are the vote post's: the same replay (M42-R3: the sheriff's vote is 2)."""
    import json

    g = _copy(tmp_path, "m42")
    capsys.readouterr()
    assert run_main(["announce", str(g), "vote", "--day", "2"]) == 0
    post = capsys.readouterr().out
    in_post = {m.group(1): int(m.group(2)) for m in re.finditer(r"(?m)^(\S+) (\d+) 票：", post)}
    chart = _m42_chart(g)
    assert chart.totals() == in_post == {"金人凤": 8, "涂山红红": 4}
    assert ("涂山红红", 2) in [(s.voter, s.weight) for b in chart.bars for s in b.segments]  # the sheriff
    assert chart.not_voting == ["东方淮竹"] and "未投票：东方淮竹" in post.replace("[b]未投票[/b]", "未投票")
    # At a moment of the day (--at, --floor) the picture is the tally at that moment.
    for kw, argv in (({"at": "2026-11-04 18:00"}, ["--at", "2026-11-04 18:00"]), ({"floor": 6}, ["--floor", "6"])):
        assert run_main(["tally", str(g), "--day", "2", "--json", *argv]) == 0
        data = json.loads(capsys.readouterr().out)
        chart = _m42_chart(g, **kw)
        assert chart.totals() == {k: v for k, v in data["counts"].items() if v} and chart.totals(), kw
        assert chart.not_voting == data["not_voted"] and chart.upto is not None, kw
    from modtool.packs.m42.queries import tally_of as _tally

    _, _, t, _ = _tally(g, 2, None, None, None)
    chart = _m42_chart(g)
    assert sum(1 for s in chart.steps if s.change) == len(t.changes) == 2  # changes are marked
    assert {k: v for k, v in chart.steps[-1].counts.items() if v} == {k: v for k, v in t.counts.items() if v}
    assert chart.freeze is not None and (chart.close - chart.freeze).total_seconds() == 3600  # M42-R5's last hour


def test_the_chart_counts_what_the_count_post_counts_mafia(tmp_path, capsys):
    g = _copy(tmp_path, "mafia")
    capsys.readouterr()
    assert run_main(["announce", str(g), "vote", "--day", "1"]) == 0
    post = capsys.readouterr().out
    in_post = {m.group(1): int(m.group(2)) for m in re.finditer(r"(?m)^\[b\](.+) \((\d+)\)\[/b\]: ", post)}
    assert in_post.pop("Not voting") == 7
    from modtool.core.gamefile import open_game
    from modtool.core.registry import get_pack

    chart = get_pack("mafia").chart(g, open_game(g), day=1, floor=None, at=None, close=None)
    assert chart.totals() == in_post == {"Peabody": 2, "Pine": 2, "RangeroftheNorth": 1}
    assert chart.threshold[0] == 7


def test_every_character_drawn_is_in_the_font_and_the_png_suits_a_forum(tmp_path, capsys):
    from PIL import Image

    g = _copy(tmp_path, "m42")
    chart = _m42_chart(g)
    font = _cjk_font_or_skip(chart.texts())
    fig, drawn = draw.figure(chart, font)
    assert any("金人凤" in x for x in drawn) and any("11-04" in x for x in drawn)  # tick labels included
    assert fonts.missing(str(font), fonts.needed(drawn)) == []
    out = tmp_path / "c.png"
    assert run_main(["chart", str(g), "--day", "2", "-o", str(out), "--font", str(font)]) == 0
    with Image.open(out) as img:
        assert img.format == "PNG" and img.width == 900 and 400 <= img.height <= 1600
    assert out.stat().st_size < 1_000_000


@pytest.mark.parametrize("suffix", [".png", ".svg"])
def test_the_same_ledger_gives_the_same_bytes(tmp_path, capsys, suffix):
    g = _copy(tmp_path, "m42")
    font = _cjk_font_or_skip()
    a, b = tmp_path / f"a{suffix}", tmp_path / f"b{suffix}"
    assert run_main(["chart", str(g), "--day", "2", "-o", str(a), "--font", str(font)]) == 0
    assert run_main(["chart", str(g), "--day", "2", "-o", str(b), "--font", str(font)]) == 0
    assert a.read_bytes() == b.read_bytes()
    if suffix == ".svg":
        assert b"<text" not in a.read_bytes()  # glyphs as outlines: readable without the font


def test_english_charts_use_the_bundled_font_the_same_everywhere(tmp_path, capsys):
    from matplotlib import get_data_path

    g = _copy(tmp_path, "mafia")
    out = tmp_path / "m.svg"
    assert run_main(["chart", str(g), "--day", "1", "-o", str(out)]) == 0
    said = capsys.readouterr().out
    assert said.startswith("Wrote ") and str(Path(get_data_path())) in said


def test_a_font_without_the_characters_is_refused_and_nothing_is_written(tmp_path, capsys):
    from matplotlib import get_data_path

    g = _copy(tmp_path, "m42")
    latin = Path(get_data_path()) / "fonts" / "ttf" / "DejaVuSans.ttf"
    out = tmp_path / "c.png"
    capsys.readouterr()
    assert run_main(["chart", str(g), "--day", "2", "-o", str(out), "--font", str(latin)]) == 1
    err = capsys.readouterr().err
    assert "缺少这些字" in err and "东" in err and "Traceback" not in err
    assert not out.exists()


def test_no_font_on_the_machine_says_how_to_get_one(tmp_path, capsys, monkeypatch):
    g = _copy(tmp_path, "m42")
    monkeypatch.setattr(fonts, "_system_fonts", lambda: [])
    monkeypatch.delenv(fonts.ENV, raising=False)
    capsys.readouterr()
    assert run_main(["chart", str(g), "--day", "2", "-o", str(tmp_path / "c.png")]) == 1
    err = capsys.readouterr().err
    assert "fonts-noto-cjk" in err and "--font" in err and "MODTOOL_FONT" in err


def test_wrong_suffix_and_unsupported_game_are_refused(tmp_path, capsys):
    g = _copy(tmp_path, "m42")
    capsys.readouterr()
    assert run_main(["chart", str(g), "--day", "2", "-o", str(tmp_path / "c.gif")]) == 1
    assert ".png 或 .svg" in capsys.readouterr().err
    zh = _copy(tmp_path, "zhenhuan")
    assert run_main(["chart", str(zh), "--day", "2", "--at", "2026-11-05 18:00", "-o", str(tmp_path / "c.png")]) == 1
    assert "按整天的提名画" in capsys.readouterr().err


def test_the_zhenhuan_chart_is_the_nominations_post(tmp_path, capsys):
    """Each nomination a bar of its voters, ghost votes marked, the ZH-R11 threshold drawn."""
    from modtool.core.gamefile import open_game
    from modtool.core.registry import get_pack
    from modtool.packs.zhenhuan.game import replay
    from modtool.packs.zhenhuan.posts import nominations

    zh = _copy(tmp_path, "zhenhuan")
    gd = open_game(zh)
    data = nominations(gd, replay(gd)[0], 3)
    chart = get_pack("zhenhuan").chart(zh, gd, day=3, floor=None, at=None, close=None)
    assert [b.total for b in chart.bars] == [n["votes"] for n in data["nominations"]]
    ghosts = sum(v["ghost"] for n in data["nominations"] for v in n["voters"])
    assert ghosts and sum(s.voter.endswith("死者票") for b in chart.bars for s in b.segments) == ghosts
    assert [b.mark for b in chart.bars] == [n["threshold"] for n in data["nominations"]]  # each its own (ZH-R11)


def test_announce_vote_carries_the_chart_image_line(tmp_path, capsys):
    g = _copy(tmp_path, "m42")
    capsys.readouterr()
    assert run_main(["announce", str(g), "vote", "--day", "2", "--image-url", "https://bbs.example/a.png"]) == 0
    assert "\n[img]https://bbs.example/a.png[/img]\n" in capsys.readouterr().out
    assert run_main(["announce", str(g), "vote", "--day", "2", "--image-url", "https://bbs.example/a.png", "--format", "md"]) == 0
    assert "![票型图](https://bbs.example/a.png)" in capsys.readouterr().out
    assert run_main(["announce", str(g), "vote", "--day", "2", "--image"]) == 0
    assert "[img]上传票型图后把图片地址填在这里[/img]" in capsys.readouterr().out
    assert run_main(["announce", str(g), "vote", "--day", "2"]) == 0
    assert "[img]" not in capsys.readouterr().out  # without either, the post is as before
    assert run_main(["announce", str(g), "roles", "--image"]) == 1
    mafia = _copy(tmp_path, "mafia")
    capsys.readouterr()
    assert run_main(["announce", str(mafia), "vote", "--image"]) == 0
    assert "[img]PASTE THE UPLOADED CHART'S ADDRESS HERE[/img]" in capsys.readouterr().out


def test_modtool_help_does_not_import_matplotlib():
    import subprocess
    import sys

    code = "import sys; from modtool.cli.app import main\ntry:\n main(['--help'])\nexcept SystemExit: pass\nprint('matplotlib' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT).stdout
    assert out.strip().endswith("False")


def test_a_place_that_cannot_be_written_is_named_not_a_traceback(tmp_path, capsys):
    g = _copy(tmp_path, "mafia")
    (tmp_path / "a-folder.png").mkdir()
    for out, said in ((tmp_path / "no" / "such" / "c.png", "does not exist"), (tmp_path / "a-folder.png", "is a folder")):
        capsys.readouterr()
        assert run_main(["chart", str(g), "--day", "1", "-o", str(out)]) == 1
        err = capsys.readouterr().err
        assert err.startswith("Error: command line -o: ") and said in err and "Traceback" not in err


def test_names_that_look_like_math_or_markup_are_drawn_as_typed(tmp_path):
    """matplotlib would read "$…$" as TeX (and fail on "$\\frac$"): a player's name is text."""
    from modtool.core.chart.model import Bar, Segment, VoteChart
    from modtool.packs.mafia.chart import words

    names = ["$\\frac{", "x$^2$", "$\\sqrt$", "<b>&amp;", "[b]VOTE[/b]"]
    chart = VoteChart(title="Day 1 $\\frac$", subtitle="a$b$c", bars=[Bar(names[0], (Segment(names[1]),))],
                      words=words(), not_voting=names[2:] + [f"Player {i}" for i in range(40)])
    font = fonts.choose(chart.texts())
    _, drawn = draw.figure(chart, font)
    joined = "\n".join(drawn)
    assert all(n in joined.replace("\n", " ") for n in names)
    draw.save(chart, tmp_path / "x.png", font)
    assert (tmp_path / "x.png").stat().st_size > 0


def test_invisible_characters_are_not_drawn_and_a_glyph_no_font_has_is_refused(tmp_path, capsys):
    """A zero-width space or a direction mark in a name is left out (a reader sees none); an emoji
    no font here has refuses the chart, naming it: never a picture of boxes (a font whose map
    claims everything, LastResort, is never chosen)."""
    g = _copy(tmp_path, "mafia")
    text = (g / "ledger.yaml").read_text(encoding="utf-8")
    (g / "ledger.yaml").write_text(text.replace('"name": "Pine"', '"name": "Pi\\u200bne\\u200f"'), encoding="utf-8")
    capsys.readouterr()
    assert run_main(["chart", str(g), "--day", "1", "-o", str(tmp_path / "a.png")]) == 0
    assert "DejaVuSans" in capsys.readouterr().out
    (g / "ledger.yaml").write_text(text.replace('"name": "Pine"', '"name": "Pine\\ud83d\\ude00"'), encoding="utf-8")
    try:
        fonts.choose(["Pine\U0001F600"])
    except Exception:  # noqa: BLE001 - no font here has it: the chart must refuse
        assert run_main(["chart", str(g), "--day", "1", "-o", str(tmp_path / "b.png")]) == 1
        assert "\U0001F600" in capsys.readouterr().err and not (tmp_path / "b.png").exists()
    for _, fname, name in fonts._system_fonts():
        assert not name.startswith("LastResort") and "LastResort" not in fname


def test_long_names_and_leftovers_of_a_killed_writer(tmp_path, capsys):
    import os

    from modtool.core.outfile import write_file

    name = tmp_path / ("x" * 245 + ".png")  # a valid name; a temp file named after it would not be
    write_file(name, b"data", "-o")
    assert name.read_bytes() == b"data"
    with pytest.raises(Exception) as exc:
        write_file(tmp_path / ("x" * 300 + ".png"), b"data", "-o")
    assert "-o" in str(exc.value.problems[0])
    dead = 2 ** 22 + 12345  # above the usual pid_max: no such process
    assert not os.path.exists(f"/proc/{dead}")
    left = tmp_path / f".modtool-out-{dead}-abc.tmp"
    left.write_bytes(b"half")
    mine = tmp_path / f".modtool-out-{os.getpid()}-abc.tmp"
    mine.write_bytes(b"mine")
    write_file(tmp_path / "c.png", b"x", "-o")
    assert not left.exists() and mine.exists()  # a dead writer's leftover swept, a living one's kept


# --- the chart extra: matplotlib and friends are not in a plain install ------------------------------------

# A Python without the chart extra: the drawing libraries cannot be imported
# (None in sys.modules is what Python itself says "not installed" with).
_WITHOUT_CHART = "import sys\nfor m in ('matplotlib', 'fontTools', 'PIL', 'numpy'):\n    sys.modules[m] = None\n"


def test_without_the_chart_extra_chart_says_how_to_install_it_in_one_line(tmp_path):
    """The real entry point in a fresh process: one line in the game's language, exit 1, no traceback, no file."""
    import os
    import subprocess
    import sys

    runner = tmp_path / "modtool_without_chart.py"
    runner.write_text(_WITHOUT_CHART + "from modtool.__main__ import run\nrun()\n", encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONIOENCODING": "utf-8"}
    for game, language_says in (("m42", "需要可选的绘图组件"), ("mafia", "needs the optional drawing libraries")):
        g = _copy(tmp_path, game)
        out = tmp_path / f"{game}.png"
        done = subprocess.run([sys.executable, str(runner), "chart", str(g), "--day", "1", "-o", str(out)],
                              capture_output=True, text=True, encoding="utf-8", env=env, timeout=120)
        assert done.returncode == 1, done.stderr
        assert done.stdout == "" and len(done.stderr.splitlines()) == 1, done.stderr
        assert language_says in done.stderr and "pip install 'modtool[chart]'" in done.stderr
        assert "matplotlib" in done.stderr and "Traceback" not in done.stderr
        assert not out.exists()


def test_without_the_chart_extra_grimoire_png_says_how_to_install_it(tmp_path, capsys, monkeypatch):
    for m in ("matplotlib", "fontTools", "PIL", "numpy"):
        monkeypatch.setitem(__import__("sys").modules, m, None)
    zh = _copy(tmp_path, "zhenhuan")
    code = run_main(["grimoire", str(zh), "-o", str(tmp_path / "g.html"), "--png", str(tmp_path / "g.png")])
    err = capsys.readouterr().err
    assert code == 1 and len(err.splitlines()) == 1
    assert "--png" in err and "缺少 PIL" in err and "pip install 'modtool[chart]'" in err
    assert not (tmp_path / "g.html").exists() and not (tmp_path / "g.png").exists()


def test_a_font_installed_after_matplotlib_first_ran_is_found(monkeypatch):
    """matplotlib keeps the system's fonts in a cache made when it first runs: a
    director who installs a Chinese font then (as the refusal advises) is not told
    again that there is none. A stale list (no font in it) is scanned afresh."""
    from matplotlib import font_manager

    from modtool.core.chart import fonts

    _cjk_font_or_skip()
    stale = font_manager.FontManager.__new__(font_manager.FontManager)
    stale.ttflist, stale.afmlist = [], []
    monkeypatch.setattr(font_manager, "fontManager", stale)
    written = []
    monkeypatch.setattr(font_manager, "json_dump", lambda fm, path: written.append(path))
    path = fonts.choose(["金人凤涂山红红票数关门"])
    assert not fonts.missing(str(path), fonts.needed(["金人凤涂山红红票数关门"]))
    assert font_manager.fontManager is not stale and written  # and the fresh list is kept for the next run
