"""M42-R17: flags for the director (red / enlarged font, 诈尸, Discuz code in
last words, edited vote posts). Flags only: never cards."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from modtool.packs.m42.flags import (
    CSS_COLOURS,
    Flag,
    FlagOptions,
    discuz_colour,
    discuz_size,
    find_flags,
    last_words_flags,
    legacy_colour,
    own_markup,
    red_distance,
)
from modtool.forum.posts import Post

TZ = ZoneInfo("Asia/Shanghai")


def post(body, *, floor=12, author="红红的红", edited=None):
    return Post(
        pid=str(88000 + floor),
        floor=floor,
        author=author,
        time=datetime(2026, 11, 4, 14, 30, tzinfo=TZ),
        body=body,
        edited=edited,
    )


def flags(body, thread="discussion", author_out=False, options=None, **kw):
    return find_flags(post(body, **kw), thread=thread, author_out=author_out, options=options or FlagOptions())


def kinds(fs):
    return [f.kind for f in fs]


def q(text, name="导演M42", pid="87001", when="2026-11-04 09:00"):
    """A quote as the Discuz web editor writes it."""
    return (
        f"[quote][size=2][url=forum.php?mod=redirect&goto=findpost&pid={pid}&ptid=77]"
        f"[color=#999999]{name} 发表于 {when}[/color][/url][/size]\n{text}[/quote]"
    )


# --- red font ---------------------------------------------------------------


def test_m42_r17_named_red_flagged_case_insensitive():
    fs = flags("[color=Red]我是预言家[/color]，昨晚验了石宽，查杀！")
    assert kinds(fs) == ["red_font"]
    f = fs[0]
    assert (f.floor, f.pid, f.author) == (12, "88012", "红红的红")
    assert "[color=Red]" in f.note and "#FF0000" in f.note and "距离 0" in f.note
    assert "我是预言家" in f.note


def test_m42_r17_near_red_hex_names_the_distance():
    fs = flags("[color=#FF1010]金人凤昨天那票很奇怪[/color]")
    assert kinds(fs) == ["red_font"]
    assert "[color=#FF1010]" in fs[0].note
    assert "距离 23" in fs[0].note  # sqrt(16² + 16²) = 22.6
    assert "近红色" in fs[0].note


def test_m42_r17_short_hex_and_rgb_forms():
    assert kinds(flags("[color=#f00]听我说[/color]")) == ["red_font"]
    assert kinds(flags("[color=rgb(255, 0, 0)]听我说[/color]")) == ["red_font"]
    assert kinds(flags("[color=RGB(240,20,20)]听我说[/color]")) == ["red_font"]
    # alpha 0 shows nothing
    assert flags("[color=rgba(255,0,0,0)]听我说[/color]") == []
    # CSS rejects rgb() with two values: no colour
    assert flags("[color=rgb(255,0)]听我说[/color]") == []


def test_m42_r17_named_reds_by_the_same_distance_rule():
    for name in ("crimson", "firebrick", "orangered"):
        assert kinds(flags(f"[color={name}]我是女巫[/color]")) == ["red_font"], name
    for name in ("darkred", "tomato", "maroon", "indianred", "deeppink"):
        assert flags(f"[color={name}]我是女巫[/color]") == [], name
    assert "即 #DC143C" in flags("[color=crimson]我是女巫[/color]")[0].note


def test_m42_r17_red_distance_threshold_is_an_option():
    assert flags("[color=darkred]我是猎人[/color]") == []
    fs = flags("[color=darkred]我是猎人[/color]", options=FlagOptions(red_distance=120))
    assert kinds(fs) == ["red_font"] and "阈值 120" in fs[0].note
    assert flags("[color=#FF1010]我是猎人[/color]", options=FlagOptions(red_distance=20)) == []


def test_m42_r17_other_colours_not_flagged():
    body = "[color=Blue]蓝色字[/color][color=#999999]灰色字[/color][color=green]绿[/color][color=#FF00FF]紫红[/color]"
    assert flags(body) == []


def test_m42_r17_hex_without_hash_is_red_as_the_browser_shows_it():
    # <font color="FF0000"> and the famous "chucknorris" are read as hex digits.
    assert kinds(flags("[color=FF0000]我是预言家[/color]")) == ["red_font"]
    assert legacy_colour("chucknorris") == (192, 0, 0)
    assert kinds(flags("[color=chucknorris]我是预言家[/color]")) == ["red_font"]


def test_m42_r17_quoted_red_text_not_flagged():
    body = q("[color=Red][size=5]第二天开始，昨晚死亡的是：涂山苏苏[/size][/color]") + "\n苏苏走了，我觉得刀口很奇怪。"
    assert flags(body) == []


def test_m42_r17_nested_and_unclosed_quote_hide_red():
    nested = "[quote]外层[quote][color=red]内层红字[/color][/quote][color=red]外层红字[/color][/quote]我的话"
    assert flags(nested) == []
    assert flags("[quote]引用没有闭合 [color=red]红字[/color]") == []


def test_m42_r17_red_after_quote_is_flagged():
    body = q("投票对象：石宽") + "[color=#ff0000]同意，投石宽[/color]"
    fs = flags(body)
    assert kinds(fs) == ["red_font"] and "同意，投石宽" in fs[0].note


def test_m42_r17_code_block_is_literal():
    assert flags("导演的格式是 [code][color=red]第X天[/color][/code] 这样吧") == []


def test_m42_r17_red_in_hide_is_still_the_posters_text():
    assert kinds(flags("[hide][color=red]我是预言家[/color][/hide]")) == ["red_font"]


def test_m42_r17_literal_or_empty_colour_tags_not_flagged():
    assert flags("[color=红色]这不是代码[/color]") == []  # Discuz leaves the tag as text
    assert flags("[color=red][/color]后面是黑字") == []
    assert flags("[color=red][color=blue]蓝字[/color][/color]") == []
    # the outer red still colours its own text
    assert kinds(flags("[color=red]红[color=blue]蓝[/color][/color]")) == ["red_font"]


def test_m42_r17_one_flag_per_distinct_tag():
    body = "[color=red]我[/color]是[color=RED]预言家[/color]，[color=#FF1010]验了石宽[/color]"
    fs = flags(body)
    assert kinds(fs) == ["red_font", "red_font"]
    assert "[color=red]" in fs[0].note and "[color=#FF1010]" in fs[1].note


# --- big font ---------------------------------------------------------------


def test_m42_r17_enlarged_font_flagged():
    fs = flags("[size=6]都来投我[/size]，我是好人")
    assert kinds(fs) == ["big_font"]
    assert "[size=6]" in fs[0].note and "32px" in fs[0].note and "都来投我" in fs[0].note


def test_m42_r17_size_threshold_default_4():
    assert flags("[size=3]小声说一句[/size]") == []
    assert flags("[size=2]小声说一句[/size]") == []
    assert kinds(flags("[size=4]大声说一句[/size]")) == ["big_font"]
    assert kinds(flags("[size=10]大声说一句[/size]")) == ["big_font"]  # clamped to 7
    assert flags("[size=4]大声说一句[/size]", options=FlagOptions(big_size=5)) == []


def test_m42_r17_px_and_pt_sizes():
    assert flags("[size=14px]正常大小[/size]") == []
    assert kinds(flags("[size=18px]放大[/size]")) == ["big_font"]
    assert kinds(flags("[size=24PX]放大[/size]")) == ["big_font"]
    assert flags("[size=12pt]12pt 即 16px[/size]") == []
    assert kinds(flags("[size=14pt]14pt 约 18.7px[/size]")) == ["big_font"]
    assert flags("[size=100]不是代码[/size]") == []  # Discuz takes 1-2 digits only
    assert discuz_size("7") == (7, 48.0)
    assert discuz_size("2em") is None


def test_m42_r17_quoted_director_header_size_not_flagged():
    # The editor's quote header has [size=2] and grey colour; a quoted big red
    # announcement is the director's, not the poster's.
    body = q("[size=5][color=red]投票结束[/color][/size]") + "[size=2]好的[/size]"
    assert flags(body) == []


def test_m42_r17_red_and_big_together():
    fs = flags("[size=5][color=red]我是预言家，石宽查杀[/color][/size]")
    assert kinds(fs) == ["red_font", "big_font"]


# --- zombie -----------------------------------------------------------------


@pytest.mark.parametrize("thread,name", [("discussion", "讨论帖"), ("vote", "投票帖"), ("process", "进程帖")])
def test_m42_r17_zombie_in_game_threads(thread, name):
    fs = flags("我死得好冤，石宽是狼！", thread=thread, author_out=True)
    assert kinds(fs) == ["zombie"]
    assert name in fs[0].note and "诈尸" in fs[0].note and "石宽是狼" in fs[0].note


def test_m42_r17_out_character_elsewhere_or_alive_not_zombie():
    assert flags("观战中", thread="chat", author_out=True) == []
    assert flags("我还活着", thread="discussion", author_out=False) == []


def test_m42_r17_zombie_note_uses_own_text_not_quote():
    fs = flags(q("投票对象：石宽") + "顶", author_out=True)
    assert kinds(fs) == ["zombie"] and "「顶」" in fs[0].note


# --- edited vote ------------------------------------------------------------


def test_m42_r17_edited_vote_post():
    marker = "本帖最后由 红红的红 于 2026-11-04 20:40 编辑"
    fs = flags("投票对象：石宽\n投票理由：查杀", thread="vote", edited=marker)
    assert kinds(fs) == ["edited_vote"]
    assert marker in fs[0].note


def test_m42_r17_edited_post_outside_vote_thread_not_flagged():
    marker = "本帖最后由 红红的红 于 2026-11-04 20:40 编辑"
    assert flags("补充一下", thread="discussion", edited=marker) == []
    assert flags("投票对象：石宽", thread="vote") == []


def test_m42_r17_flags_are_values_in_order():
    fs = flags(
        "[color=red]投票对象：石宽[/color]", thread="vote", author_out=True, edited="本帖最后由 红红的红 于 2026-11-04 20:40 编辑"
    )
    assert kinds(fs) == ["red_font", "zombie", "edited_vote"]
    assert all(isinstance(f, Flag) for f in fs)


def test_m42_r17_director_accounts_not_flagged():
    opts = FlagOptions(director_accounts=("导演M42",))
    assert flags("[size=5][color=red]第二天开始[/color][/size]", author="导演M42", options=opts) == []


# --- last words -------------------------------------------------------------


def test_m42_r17_bbcode_in_last_words():
    notes = last_words_flags("[color=red]我是预言家[/color]，石宽查杀，[b]一定要投他[/b]！[b]拜托[/b]")
    assert notes == [
        "遗言中含有 Discuz 代码 [color=red]",
        "遗言中含有 Discuz 代码 [/color]",
        "遗言中含有 Discuz 代码 [b]（2 处）",
        "遗言中含有 Discuz 代码 [/b]（2 处）",
    ]


def test_m42_r17_plain_last_words_not_flagged():
    assert last_words_flags("我是村民，[狼人]是石宽和金人凤，［color=red］全角括号不是代码。[B]大写也不是[/B]") == []
    assert last_words_flags("") == []


def test_m42_r17_last_words_param_tags_case_insensitive():
    assert last_words_flags("[URL=http://example.com]看这里[/URL]") == [
        "遗言中含有 Discuz 代码 [URL=http://example.com]",
        "遗言中含有 Discuz 代码 [/URL]",
    ]
    assert last_words_flags("[img]http://example.com/a.png[/img]")[0] == "遗言中含有 Discuz 代码 [img]"


def test_m42_r17_last_words_thread_gives_bbcode_flags():
    fs = flags("遗言：[size=5]石宽是狼[/size]", thread="last_words", author_out=True)
    assert kinds(fs) == ["bbcode_in_last_words", "bbcode_in_last_words"]
    assert "[size=5]" in fs[0].note


# --- helpers ------------------------------------------------------------------


def test_m42_r17_colour_helpers():
    assert len(CSS_COLOURS) == 148
    assert discuz_colour("red") == (255, 0, 0)
    assert discuz_colour("#F00") == (255, 0, 0)
    assert discuz_colour("rgb(300,0,0)") == (255, 0, 0)
    assert discuz_colour("transparent") is None
    assert discuz_colour("红") is None
    assert round(red_distance((178, 34, 34))) == 91
    assert own_markup("a[quote]b[/quote]c[code][quote][/code]d") == "acd"


def test_m42_r17_legacy_colour_follows_the_html_rules_where_webcolors_differs():
    """webcolors does the HTML legacy colour rules; two places where it differs
    from what a browser shows are kept as the browser shows them: the CSS Color 4
    name rebeccapurple (webcolors lists CSS3's), and spaces other than ASCII
    ones, which HTML does not strip (webcolors' str.strip would)."""
    assert legacy_colour("RebeccaPurple") == (102, 51, 153)
    assert legacy_colour("\u3000red") == (0, 237, 0)  # not "red": "0red" read as hex digits
    assert legacy_colour("\u3000reen") == (0, 238, 0)  # not "green"
    assert legacy_colour("red\u3000") == (14, 208, 0)
    assert legacy_colour("#\x85A\x0b") == (0, 10, 0)  # not the short form "#0A0"
    assert legacy_colour(" \t#F00\n") == (255, 0, 0)
    assert legacy_colour("\U0001F600f") == (0, 0, 15)  # beyond U+FFFF: "00"
    assert legacy_colour("#" + "f" * 200) == (255, 255, 255)
    assert [legacy_colour(v) for v in ("", " ", "transparent", "TRANSPARENT")] == [None] * 4
