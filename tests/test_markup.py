"""modtool.forum.markup: the poster's own text out of a Discuz BBCode body (M42-R5:
quoted text is never the poster's vote)."""

from modtool.forum.markup import Body, MarkupError, has_hidden, own_text, quotes, reply_refs, split_body


def q(text, name="白月初", pid="1001", when="2026-11-03 20:15"):
    """A quote as the Discuz web editor writes it."""
    return (
        f"[quote][size=2][url=forum.php?mod=redirect&goto=findpost&pid={pid}&ptid=77]"
        f"[color=#999999]{name} 发表于 {when}[/color][/url][/size]\n{text}[/quote]"
    )


def test_plain_text_unchanged():
    assert own_text("投票对象：涂山红红\n投票理由：好吃") == "投票对象：涂山红红\n投票理由：好吃"


def test_quote_removed_own_text_kept():
    body = q("投票对象：涂山红红\n投票理由：她很可疑") + "\n改票对象：白月初\n改票理由：想了想"
    own = own_text(body)
    assert "涂山红红" not in own
    assert "改票对象：白月初" in own
    assert quotes(body) == ["白月初 发表于 2026-11-03 20:15\n投票对象：涂山红红\n投票理由：她很可疑"]


def test_nested_quotes_removed_entirely():
    body = "[quote]外层[quote]内层 投票对象：甲[/quote]外层尾 投票对象：乙[/quote]我的话"
    assert own_text(body) == "我的话"
    assert quotes(body) == ["外层外层尾 投票对象：乙"]


def test_unclosed_quote_hides_the_rest():
    assert own_text("前面[quote]投票对象：涂山红红\n投票理由：x") == "前面"


def test_quote_tag_case_insensitive():
    assert own_text("[QUOTE]投票对象：甲[/Quote]自己的") == "自己的"


def test_hide_removed_and_reported():
    body = "公开的话[hide]投票对象：涂山雅雅[/hide][hide=20]积分可见[/hide]"
    assert own_text(body) == "公开的话"
    assert has_hidden(body)
    assert split_body(body).hidden == ("投票对象：涂山雅雅", "积分可见")
    assert split_body(body, keep_hidden=True).own == "公开的话投票对象：涂山雅雅积分可见"
    assert not has_hidden("没有隐藏")


def test_unclosed_hide_is_public_text():
    assert own_text("[hide]投票对象：甲") == "投票对象：甲"
    assert not has_hidden("[hide]投票对象：甲")


def test_simple_tags_case_sensitive():
    assert own_text("[b]粗[/b] [B]不是标签[/B] [i]斜[/i] [u]下[/u] [s]删[/s]") == "粗 [B]不是标签[/B] 斜 下 删"


def test_parameterised_tags_case_insensitive():
    body = "[COLOR=Red]红字[/color][Size=5]大[/SIZE][font=宋体]宋[/FONT][align=center]中[/align][backcolor=yellow]底[/backcolor]"
    assert own_text(body) == "红字大宋中底"


def test_url_keeps_text_img_attach_removed():
    body = "[url=http://x.cn/a]链接字[/url][url]http://y.cn[/url][img]http://x.cn/a.png[/img][IMG=10,10]http://z[/img][attach]123[/attach]尾"
    assert own_text(body) == "链接字http://y.cn尾"


def test_code_content_literal():
    assert own_text("[code][b]投票对象[/b][quote]x[/quote][/code]后") == "[b]投票对象[/b][quote]x[/quote]后"


def test_quote_inside_code_is_not_a_quote():
    assert own_text("[code][quote][/code]投票对象：甲") == "[quote]投票对象：甲"


def test_unknown_tags_are_text():
    assert own_text("[spoiler]x[/spoiler]") == "[spoiler]x[/spoiler]"


def test_list_items_on_their_own_lines():
    assert own_text("[list][*]投票对象：甲[*]投票理由：乙[/list]").split("\n")[1:3] == ["投票对象：甲", "投票理由：乙"]


def test_reply_refs_from_quote_header_and_old_marker():
    refs = reply_refs(q("投票对象：甲", name="红红酱", pid="555", when="2026-11-3 9:05") + "改票")
    assert refs[0].pid == "555" and refs[0].author == "红红酱" and refs[0].time == "2026-11-3 9:05"
    old = "[b]回复 [url=forum.php?mod=redirect&goto=findpost&pid=88&ptid=1]7#[/url] [i]雅雅[/i] [/b]\n改票对象：甲"
    r = reply_refs(old)
    assert r and r[0].pid == "88" and r[0].floor == 7 and r[0].author == "雅雅"


def test_mobile_quote_without_pid_link():
    refs = reply_refs("[quote]红红酱 发表于 2026-11-03 20:15\n投票对象：甲[/quote]改")
    assert refs[0].pid is None and refs[0].author == "红红酱"


def test_timeout_is_a_value_not_an_exception():
    r = split_body("[b]x" * 200000, timeout=1e-6)
    assert isinstance(r, MarkupError)
    assert "格式错误" in r.reason
    assert isinstance(split_body("正常"), Body)


def test_pathological_nesting_does_not_raise():
    assert own_text("[quote]" * 5000) == ""
    assert own_text("[hide]" * 3000 + "[/hide]" * 3000) == ""
    assert own_text("[/quote][/hide][/code]x") == "x"


def test_keep_tags_keeps_the_own_texts_markup_and_drops_quotes_and_hidden_parts():
    body = '[b]我[/b][quote="甲"][b]引用[/b][/quote][hide]藏[/hide][code][b]码[/b][/code][color=red]红[/color]'
    kept = split_body(body, keep_tags=True)
    assert kept.own == "[b]我[/b]［b］码［/b］[color=red]红[/color]"
    assert kept.quotes == split_body(body).quotes == ("引用",) and kept.hidden == ("藏",)
    assert split_body(body).own == "我[b]码[/b]红"  # the plain view is unchanged
