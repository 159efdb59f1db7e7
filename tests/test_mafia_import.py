"""phpBB topics in: post numbers, authors, UTC-5 forum times, and the BBCode the poster typed."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from pathlib import Path

from modtool.core.registry import dump_formats
from modtool.forum import read_dump
from modtool.packs.mafia.phpbb import html_to_bbcode

FIXTURES = Path(__file__).parent / "fixtures" / "mafia"
REAL = Path(__file__).resolve().parent.parent.parent / "shared" / "real" / "mafiascum"


def test_bold_and_vote_tags_come_back_as_the_bbcode_typed():
    html = ('<span class="noboldsig">Unvote: RotN</span><br>'
            '<span class="bbvote" title="This is an official vote.">VOTE: Lucresia</span>'
            '<span class="bbvote" title="This is an official unvote.">UNVOTE: </span>')
    assert html_to_bbcode(html) == "[b]Unvote: RotN[/b]\n[vote]Lucresia[/vote][unvote][/unvote]"


def test_nested_quotes_keep_cited_and_uncited_apart():
    html = ('<blockquote><div><cite>Erratus Apathos wrote:</cite>a<blockquote class="uncited"><div>b</div>'
            '</blockquote><blockquote><div><cite>Trendall wrote:</cite>c</div></blockquote></div></blockquote>d')
    assert html_to_bbcode(html) == '[quote="Erratus Apathos"]a[quote]b[/quote][quote="Trendall"]c[/quote][/quote]d'


def test_colour_and_entities():
    html = '<span style="color: purple"><span class="nocolorsig">Edited &amp; fixed</span></span>'
    assert html_to_bbcode(html) == "[color=purple]Edited & fixed[/color]"


def test_json_lines_are_detected_and_read_as_utc_minus_5(tmp_path):
    line = {"forum": "53", "thread": "1", "pagelink": "x", "number": "3", "timestamp": "Fri Mar 25, 2011 12:30 pm",
            "user": "Fenhl", "content": "<span class=\"noboldsig\">Vote: X</span>"}
    path = tmp_path / "posts.jsonl"
    path.write_text(json.dumps(line) + "\n" + "not json\n", encoding="utf-8")
    posts, problems = read_dump(path, timezone.utc, brought=dump_formats())
    assert [(p.floor, p.author, p.body) for p in posts] == [(3, "Fenhl", "[b]Vote: X[/b]")]
    assert posts[0].time == datetime(2011, 3, 25, 17, 30, tzinfo=timezone.utc)
    assert [(p.line, "not a JSON post record" in p.message) for p in problems] == [(2, True)]


def test_a_saved_prosilver_page_is_detected_and_read():
    posts, problems = read_dump(FIXTURES / "viewtopic-page.html", timezone.utc, brought=dump_formats())
    assert problems == []
    assert [(p.pid, p.floor, p.author) for p in posts] == [("100", 25, "Alice"), ("101", 26, "Bob")]
    assert posts[0].body == "I think [b]Vote: Bob[/b] is right.\n[unvote][/unvote][vote]Carol[/vote]"
    assert posts[1].body == '[quote="Alice"][quote]inner & old[/quote]outer[/quote]mine'
    assert posts[1].time == datetime(2011, 3, 25, 18, 5, tzinfo=timezone.utc)


def test_every_real_post_of_game_1145_is_read(tmp_path):
    import pytest

    if not REAL.is_dir():
        pytest.skip(f"the shared real data is not at {REAL}")
    posts, problems = read_dump(REAL / "game1145-day1-posts0-292.jsonl", timezone.utc, brought=dump_formats())
    assert problems == [] and len(posts) == 292 and 74 not in {p.floor for p in posts}
