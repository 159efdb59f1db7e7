"""Property tests: reading player text never raises, and the tally keeps its
invariants on any list of posts (errors are values)."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.support.fuzz import examples

from modtool.packs.m42.tally import DayContext, ProxyVote, VoteOptions, tally_day
from modtool.packs.m42.voteparse import FormatError, ParsedVote, VoteLabels, parse_vote
from modtool.forum.markup import Body, MarkupError, own_text, split_body
from modtool.forum.posts import Post, ReplyRef
from modtool.core.roster import Character, Roster

CST = timezone(timedelta(hours=8))
ROSTER = Roster(
    [
        Character("涂山苏苏", "苏苏今天也很努力", ("苏苏",), "villager"),
        Character("白月初", "月初不是白", ("月初",), "villager"),
        Character("涂山红红", "红红的红", ("红红",), "seer"),
        Character("东方月初", "东方不败月", ("月初",), "villager"),
        Character("东方淮竹", "淮竹清风", ("淮竹",), "scapegoat"),
        Character("石宽", "石头宽宽", (), "werewolf"),
        Character("李去浊", "去浊留清", (), "werewolf"),
    ]
)
NAMES = [c.name for c in ROSTER]
ACCOUNTS = [c.account for c in ROSTER] + ["路人甲"]
CLOSE = datetime(2026, 11, 4, 21, 0, tzinfo=CST)

FRAGMENTS = [
    "投票对象", "投票理由", "改票对象", "改票理由", "投票對象", "：", ":", "﹕", " ", "\n", "　", "\u200b",
    "弃权", "棄權", "[quote]", "[/quote]", "[hide]", "[/hide]", "[hide=5]", "[code]", "[/code]", "[b]", "[/b]",
    "[B]", "[color=red]", "[/COLOR]", "[img]", "[/img]", "[attach]", "[/attach]", "[url=x]", "[/url]", "[*]",
    "[size=2][url=forum.php?mod=redirect&goto=findpost&pid=5003&ptid=1][color=#999999]月初不是白 发表于 2026-11-04 10:03[/color][/url][/size]",
    "好吃", "Аlicе", "ｊｉａｏ", "[", "]", "=", "/",
] + NAMES + ["红红", "月初", "淮竹", "小明"]

texts = st.one_of(st.text(max_size=300), st.lists(st.sampled_from(FRAGMENTS), max_size=40).map("".join))


@settings(max_examples=examples(400), deadline=None)
@given(texts)
def test_parse_vote_never_raises(text):
    r = parse_vote(text, VoteLabels())
    assert isinstance(r, (ParsedVote, FormatError))
    if isinstance(r, ParsedVote):
        assert r.target and r.kind in ("vote", "change")
    else:
        assert r.reason


@settings(max_examples=examples(400), deadline=None)
@given(texts)
def test_own_text_never_raises(text):
    own = own_text(text)
    assert isinstance(own, str)
    assert len(own) <= len(text) + text.count("[") * 1  # tags only ever shrink to a newline
    r = split_body(text, keep_hidden=True)
    assert isinstance(r, (Body, MarkupError))


def _post(draw, floor):
    body = draw(
        st.one_of(
            texts,
            st.builds(lambda t, r: f"投票对象：{t}\n投票理由：{r}", st.sampled_from(NAMES + ["弃权", "小明", "月初"]), st.just("x")),
            st.builds(lambda t: f"改票对象：{t} 改票理由：y", st.sampled_from(NAMES + ["弃权", "小明"])),
        )
    )
    minute = draw(st.integers(0, 14 * 60 + 10))
    reply = draw(
        st.one_of(
            st.none(),
            st.builds(ReplyRef, pid=st.sampled_from([None, "5001", "5002", "5003"]), floor=st.one_of(st.none(), st.integers(1, 30))),
        )
    )
    return Post(
        pid=str(5000 + floor),
        floor=floor,
        author=draw(st.sampled_from(ACCOUNTS)),
        time=datetime(2026, 11, 4, 7, 0, tzinfo=CST) + timedelta(minutes=minute),
        body=body,
        edited=draw(st.sampled_from([None, "本帖最后由 x 于 2026-11-04 12:00 编辑"])),
        reply_to=reply,
    )


@st.composite
def days(draw):
    n = draw(st.integers(0, 25))
    floors = draw(st.lists(st.integers(1, 40), min_size=n, max_size=n))
    posts = [_post(draw, f) for f in floors]
    proxies = draw(
        st.lists(
            st.builds(
                ProxyVote,
                voter=st.sampled_from(NAMES + ["小明"]),
                target=st.sampled_from(NAMES + ["弃权", "小明", ""]),
                at=st.integers(0, 14 * 60 + 10).map(lambda m: datetime(2026, 11, 4, 7, 0, tzinfo=CST) + timedelta(minutes=m)),
                kind=st.sampled_from(["vote", "change"]),
            ),
            max_size=5,
        )
    )
    alive = set(draw(st.sets(st.sampled_from(NAMES))))
    ctx = DayContext(
        day=draw(st.integers(1, 4)),
        roster=ROSTER,
        alive=alive,
        sheriff=draw(st.one_of(st.none(), st.sampled_from(NAMES))),
        barred=set(draw(st.sets(st.sampled_from(NAMES), max_size=2))),
        close=CLOSE,
        sped_up=draw(st.booleans()),
        scapegoat="东方淮竹" if "东方淮竹" in alive else None,
    )
    options = VoteOptions(change_limit=draw(st.integers(0, 2)))
    upto = draw(st.one_of(st.none(), st.integers(1, 40)))
    return ctx, posts, proxies, options, upto


@settings(max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(days())
def test_tally_day_never_raises_and_keeps_invariants(day):
    ctx, posts, proxies, options, upto = day
    t = tally_day(ctx, posts, proxies, VoteLabels(), options, upto_floor=upto)
    current = t.current()
    voters = [v["voter"] for v in current]
    assert len(voters) == len(set(voters))  # each voter counted at most once
    assert all(v in ctx.alive and v not in ctx.barred for v in voters)
    assert sum(t.counts.values()) == sum(v["weight"] for v in current if not v["abstain"])
    assert all(w > 0 for w in t.counts.values())
    assert list(t.counts.values()) == sorted(t.counts.values(), reverse=True)
    assert all(k in ctx.alive for k in t.counts)
    assert not set(t.not_voted) & set(voters)
    assert all(len([c for c in t.changes if c["voter"] == v]) <= options.change_limit for v in voters)
    if upto is not None:
        assert all(e["floor"] is None or e["floor"] <= upto for e in t.valid + t.invalid + t.ignored)
    r = t.result
    assert r["kind"] in ({"sheriff", "no_sheriff"} if ctx.day == 1 else {"exile", "no_exile", "scapegoat"})
    assert r["target"] is None or r["target"] in ctx.alive
    if r["kind"] in ("sheriff", "exile"):
        assert t.counts[r["target"]] == max(t.counts.values())
    json.dumps(t.to_json(), ensure_ascii=False)


# --- fast paths agree with the slow paths they skip ---------------------------

import time  # noqa: E402

from modtool.forum import markup  # noqa: E402
from modtool.core import postform  # noqa: E402
from modtool.core import voteform  # noqa: E402
from modtool.base.text import fold, fold_name  # noqa: E402

# Characters whose folding is not one-to-one or not local: combining marks,
# compatibility ligatures and squares, invisibles, odd spaces and line ends.
UNICODE_ODD = [
    "\u0301", "\u00b4", "㎏", "ﬁ", "①", "…", "\u200b", "\ufeff", "\u00ad", "\u034f", "\u3000", "\u00a0",
    "\u2000", "\u2028", "\u2029", "\x85", "\t", "\r", "\v", "\f", "e", "ｅ", "\u1100", "\u1161", "\u11a8",
    "\uac00", "\u0344", "\u0f73", "\u2126", "ǅ", "\u1e9b", "\uf900", "饺", "回复",
]
odd_texts = st.one_of(
    texts,
    st.lists(st.one_of(st.sampled_from(FRAGMENTS + UNICODE_ODD), st.characters()), max_size=40).map("".join),
)


def _fold_map_reference(raw: str) -> tuple[str, list[int]]:
    """The fold map by definition: each character folded on its own."""
    out = [fold(ch) for ch in raw]
    F = "".join(out)
    if len(F) == len(raw):
        return F, list(range(len(raw)))
    src: list[int] = []
    for i, f in enumerate(out):
        src.extend([i] * len(f))
    return F, src


@settings(max_examples=examples(400), deadline=None)
@given(odd_texts)
def test_fold_map_fast_path_matches_definition(text):
    F, src = postform.fold_map(text)
    assert (F, list(range(len(text))) if src is None else src) == _fold_map_reference(text)


@settings(max_examples=examples(400), deadline=None)
@given(odd_texts)
def test_blank_matches_fold_name(text):
    t = text.strip()
    assert postform.blank(t) == (not fold_name(t))


@settings(max_examples=examples(400), deadline=None)
@given(odd_texts, st.integers(0, 50), st.integers(0, 50))
def test_line_end_matches_regex(text, a, b):
    F, _ = postform.fold_map(text)
    le = postform._LINE_END.search(F, a, b)
    assert postform.line_end(F, a, b) == (-1 if le is None else le.start())


@settings(max_examples=examples(400), deadline=None)
@given(odd_texts)
def test_fold_target_is_fold_name(text):
    assert voteform._fold_target(text) == fold_name(text)


@settings(max_examples=examples(400), deadline=None)
@given(odd_texts, st.booleans())
def test_split_body_fast_path_matches_full_split(text, keep_hidden):
    r = markup.split_body(text, keep_hidden=keep_hidden)
    assert r == markup._split(text, keep_hidden, time.monotonic() + markup.DEFAULT_TIMEOUT)


@settings(max_examples=examples(400), deadline=None)
@given(odd_texts)
def test_old_reply_marker_needs_its_literal(text):
    if "回复" not in text:
        assert not list(markup._OLD_REPLY.finditer(text))

