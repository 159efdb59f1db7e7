"""A saved page cut short (a failed save or copy) is refused, naming the file and
the last post read whole, and nothing of it is imported: Discuz pages already
were, phpBB pages imported the posts before the cut without a word (10 of 19
cuts of a three-post page). A fragment of a page (no <html>) has nothing to
tell its end by and imports as before."""

from __future__ import annotations

from datetime import timezone
from pathlib import Path

import pytest

from modtool.core.registry import dump_formats
from modtool.forum import read_dump_text

FIXTURE = Path(__file__).parent / "fixtures" / "mafia" / "viewtopic-page.html"
WHOLE = FIXTURE.read_text(encoding="utf-8")
FIRST, SECOND = WHOLE.index('<div id="p100"'), WHOLE.index('<div id="p101"')
OPENED = WHOLE.index(">", FIRST) + 1  # from here on the page is told to be phpBB's
CLOSE = WHOLE.rindex("</html>")


def read(text: str):
    return read_dump_text(text, "page.html", timezone.utc, brought=dump_formats())


@pytest.mark.parametrize("at", range(OPENED, CLOSE, 37))
def test_a_phpbb_page_cut_anywhere_before_its_end_is_refused_and_nothing_read(at):
    posts, problems = read(WHOLE[:at])
    assert posts == [] and len(problems) == 1, (at, problems)
    assert problems[0].source == "page.html" and "the page is cut short" in problems[0].message


def test_a_phpbb_page_cut_after_a_whole_post_names_it():
    posts, problems = read(WHOLE[:SECOND + 40])
    assert posts == []
    assert [p.message for p in problems] == [
        "the page is cut short after post #25: save the whole page again and import it (nothing of it was imported)"]


def test_a_phpbb_page_cut_inside_its_first_post_says_so():
    posts, problems = read(WHOLE[:FIRST + 200])
    assert posts == [] and "before its first post was read whole" in problems[0].message


def test_a_whole_phpbb_page_and_a_fragment_of_one_still_import():
    posts, problems = read(WHOLE)
    assert problems == [] and [p.floor for p in posts] == [25, 26]
    fragment = WHOLE[WHOLE.index("<body>"):WHOLE.index("</body>")]  # no <html>: nothing to tell its end by
    posts, problems = read(fragment)
    assert problems == [] and [p.author for p in posts] == ["Alice", "Bob"]


def test_a_file_cut_inside_its_last_utf8_character_is_reported_as_cut():
    data = "#12 月初不是白 2026-11-02 20:15\n投票对象：白月初".encode("utf-8")[:-1]
    posts, problems = read_dump_text(data, "d.txt", timezone.utc)
    assert posts == [] and problems[0].message.startswith("文件在末尾被截断（最后一个字只存下了一半）")
