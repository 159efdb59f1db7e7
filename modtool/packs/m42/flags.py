"""Flags for the director (M42-R17): things to look at, never automatic cards.

The rule post (违规判定 6「账号回帖」) forbids the director's enlarged font and
red font "or a colour the director finds close to #FF0000", posts by characters
who are out (诈尸) in the discussion, vote and process threads; RULINGS.md
M42-R17 adds Discuz code in last words and vote posts edited after posting.
Every finding here is a ``Flag`` with a Chinese note naming the evidence; the
director decides whether it is a card.

What the forum shows, not what was typed (Discuz X ``discuzcode()``,
reference/discuz/FORMATS.md §3):

- ``[color=X]`` becomes ``<font color="X">`` only when X is ``[#A-Za-z0-9_]+``;
  ``[color=rgb(…)]`` / ``[color=rgba(…)]`` (digits, commas, spaces) becomes
  ``style="color:…"``. Any other parameter leaves the tag as literal text, so
  it colours nothing and is not flagged.
- A ``<font color>`` value is read by the browser's legacy colour rules (HTML
  "rules for parsing a legacy colour value"): CSS named colours, ``#RGB``,
  and everything else as hex digits (``FF0000`` without ``#`` is red, even
  ``chucknorris`` is a dark red). This module applies the same rules, so the
  colour judged is the colour players saw.
- ``[size=N]`` (1–2 digits) becomes ``<font size="N">``: N is clamped to 1..7
  (1=10px, 2=13px, 3=16px, 4=18px, 5=24px, 6=32px, 7=48px).
  ``[size=12px]`` / ``[size=10.5pt]`` becomes ``style="font-size:…"``.
- Only the poster's own text counts: ``[quote]`` blocks are skipped (a quote of
  the director's red announcement is not the poster's red font; nesting is
  counted and an unclosed quote hides the rest, as in ``modtool.forum.markup``);
  ``[code]`` content is literal text. ``[hide]`` content is still the poster's
  text and is checked.
- A colour or size tag that wraps no visible text (``[color=red][/color]``, or
  one whose text is all inside an inner colour tag) is not flagged.

Judgement calls (``FlagOptions``, documented defaults):

- ``red_distance = 100``: near-red means Euclidean RGB distance to
  (255, 0, 0) at most 100. Named colours go through the same rule: red (0),
  orangered (69), crimson (72), firebrick (91) are flagged; darkred (116),
  tomato (122), maroon (127), indianred (139), deeppink (148) are not.
- ``big_size = 4``: Discuz post text is 14px, between ``[size=2]`` (13px) and
  ``[size=3]`` (16px), which players use freely; ``[size=4]`` (18px) and up is
  enlarged. ``big_px = 18``: the same threshold for px sizes (pt are converted,
  1pt = 4/3 px, so 13.5pt and up).
- One flag per distinct tag in a post (``[color=red]`` typed three times is one
  flag); different reds in one post are separate flags.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import regex

from modtool.sdk import fold_name, Post

#: The director's red.
DIRECTOR_RED = (255, 0, 0)

#: Thread ids (modtool.core.schema.THREADS) where a character who is out may not post.
ZOMBIE_THREADS = frozenset({"discussion", "vote", "process"})
THREAD_NAMES = {"discussion": "讨论帖", "vote": "投票帖", "process": "进程帖"}

#: ``thread`` value for a post that carries a character's last words (e.g. a
#: private post to the director); ``find_flags`` then only checks Discuz code.
LAST_WORDS_THREAD = "last_words"


@dataclass
class FlagOptions:
    """Thresholds of the M42-R17 flags; see the module doc for the reasons."""

    red_distance: float = 100.0  # max RGB distance to #FF0000 that counts as red
    big_size: int = 4  # [size=N]: N >= big_size is enlarged (after clamping to 1..7)
    big_px: float = 18.0  # [size=Npx] / [size=Npt]: px >= big_px is enlarged
    director_accounts: tuple[str, ...] = ()  # posts by these accounts get no flags


@dataclass(frozen=True)
class Flag:
    floor: int
    pid: str
    author: str  # forum account, as shown
    kind: str  # "red_font" | "big_font" | "zombie" | "bbcode_in_last_words" | "edited_vote"
    note: str  # Chinese, names the evidence


# ---------------------------------------------------------------------------
# Colours

# The HTML legacy colour rules and the CSS named colours are webcolors' (a
# maintained implementation of the HTML and CSS colour specifications, with the
# spec's steps as its comments), imported only when a colour is judged.
# webcolors lists the CSS3 names; browsers also know the one name CSS Color 4
# added (the HTML spec's named colours are CSS Color 4's).
_CSS4_ADDED = {"rebeccapurple": "#663399"}


def css_colours() -> dict[str, str]:
    """CSS named colours (CSS Color 4 / HTML), lower case -> RGB hex."""
    import webcolors

    return {name: webcolors.name_to_hex(name, spec=webcolors.CSS3)[1:].upper()
            for name in webcolors.names(webcolors.CSS3)} | {k: v[1:] for k, v in _CSS4_ADDED.items()}


def __getattr__(name: str):
    if name == "CSS_COLOURS":  # computed on first use: webcolors is not imported with this module
        return css_colours()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


RGB = tuple[int, int, int]

_DISCUZ_COLOR_WORD = regex.compile(r"[#A-Za-z0-9_]+", regex.V1)
_DISCUZ_COLOR_RGB = regex.compile(r"(?i:rgba?)\(([\d\s,]+)\)", regex.V1)


def legacy_colour(value: str) -> RGB | None:
    """RGB of a ``<font color="value">`` per the HTML legacy colour rules, or
    None when the browser shows no colour (empty, "transparent")."""
    import webcolors

    # HTML strips ASCII whitespace only; webcolors' str.strip() would take other
    # Unicode spaces too. A space left is in no colour name and no hex digit (the
    # rules read it as "0"), and so is "!": written so, nothing more is stripped.
    v = "".join("!" if c.isspace() else c for c in value.strip(" \t\n\f\r"))
    if v.lower() in _CSS4_ADDED:
        return tuple(webcolors.hex_to_rgb(_CSS4_ADDED[v.lower()]))  # type: ignore[return-value]
    try:
        return tuple(webcolors.html5_parse_legacy_color(v))  # type: ignore[return-value]
    except ValueError:  # empty or "transparent": the rules give no colour
        return None


def css_rgb(args: str) -> RGB | None:
    """RGB of ``rgb(args)`` / ``rgba(args)`` as Discuz lets it through (integers
    only), or None when CSS rejects it or the alpha is 0 (invisible)."""
    if "," in args:
        parts = [p.strip() for p in args.split(",")]
    else:
        parts = args.split()
    if len(parts) not in (3, 4) or not all(p.isdigit() for p in parts):
        return None
    if len(parts) == 4 and int(parts[3]) == 0:
        return None
    r, g, b = (min(int(p), 255) for p in parts[:3])
    return r, g, b


def discuz_colour(param: str) -> RGB | None:
    """The colour a ``[color=param]`` shows on the forum, or None (literal tag
    or no colour)."""
    if _DISCUZ_COLOR_WORD.fullmatch(param):
        return legacy_colour(param)
    m = _DISCUZ_COLOR_RGB.fullmatch(param)
    if m:
        return css_rgb(m.group(1))
    return None


def red_distance(rgb: RGB) -> float:
    """Euclidean RGB distance to the director's red #FF0000."""
    return math.dist(rgb, DIRECTOR_RED)


# ---------------------------------------------------------------------------
# Sizes

#: px of <font size=1..7> (CSS absolute sizes x-small .. xxx-large).
FONT_SIZE_PX = {1: 10, 2: 13, 3: 16, 4: 18, 5: 24, 6: 32, 7: 48}

_SIZE_NUM = regex.compile(r"\d{1,2}", regex.V1)
_SIZE_LEN = regex.compile(r"(\d{1,2}(?:\.\d{1,2})?)(px|pt)", regex.V1 | regex.IGNORECASE)


def discuz_size(param: str) -> tuple[int | None, float] | None:
    """(font size 1..7 or None, px) that a ``[size=param]`` shows, or None when
    Discuz leaves the tag as literal text."""
    if _SIZE_NUM.fullmatch(param):
        n = min(max(int(param), 1), 7)
        return n, float(FONT_SIZE_PX[n])
    m = _SIZE_LEN.fullmatch(param)
    if m:
        x = float(m.group(1))
        return None, x if m.group(2).lower() == "px" else x * 4 / 3
    return None


# ---------------------------------------------------------------------------
# The poster's own markup

# The tags that matter here; parameterised tags are case-insensitive.
_OWN_TAG = regex.compile(r"\[(/?)(quote|code|color|size)(?:=([^\]\[\n]{0,200}))?\]", regex.V1 | regex.IGNORECASE)
_ANY_TAG = regex.compile(r"\[/?(?:[A-Za-z]{1,12}|\*)(?:=[^\]\[\n]{0,200})?\]", regex.V1)
_SPACE = regex.compile(r"\s+", regex.V1)


def own_markup(body: str) -> str:
    """The body with ``[quote]`` blocks (nesting counted; unclosed: the rest)
    and ``[code]`` blocks removed, other markup kept."""
    toks = list(_OWN_TAG.finditer(body))
    out: list[str] = []
    pos = 0
    i = 0
    n = len(toks)

    def is_(t, name, closing):
        return t.group(2).lower() == name and (t.group(1) == "/") == closing

    # First [/code] after each index (computed backwards: linear time).
    next_close = [-1] * (n + 1)
    for k in range(n - 1, -1, -1):
        next_close[k] = k if is_(toks[k], "code", True) else next_close[k + 1]

    def code_end(k):  # index of the first [/code] after k, or -1
        return next_close[k + 1]

    while i < n:
        t = toks[i]
        if is_(t, "code", False):
            j = code_end(i)
            if j != -1:
                out.append(body[pos : t.start()])
                pos = toks[j].end()
                i = j + 1
                continue
        elif is_(t, "quote", False):
            out.append(body[pos : t.start()])
            depth, j = 1, i + 1
            while j < n and depth:
                u = toks[j]
                if is_(u, "code", False):
                    k = code_end(j)
                    if k != -1:
                        j = k + 1
                        continue
                if is_(u, "quote", False):
                    depth += 1
                elif is_(u, "quote", True):
                    depth -= 1
                j += 1
            if depth:
                return "".join(out)
            pos = toks[j - 1].end()
            i = j
            continue
        i += 1
    out.append(body[pos:])
    return "".join(out)


def _visible(markup: str) -> str:
    return _SPACE.sub(" ", _ANY_TAG.sub("", markup)).strip()


def _snippet(text: str, limit: int = 20) -> str:
    return text if len(text) <= limit else text[:limit] + "…"


def _font_findings(body: str, options: FlagOptions) -> list[tuple[str, str]]:
    own = own_markup(body)
    toks = [t for t in _OWN_TAG.finditer(own) if t.group(2).lower() in ("color", "size")]
    # Start of the next tag of the same name after each tag (linear time).
    nxt_of: list[int] = [len(own)] * len(toks)
    following = {"color": len(own), "size": len(own)}
    for k in range(len(toks) - 1, -1, -1):
        nm = toks[k].group(2).lower()
        nxt_of[k] = following[nm]
        following[nm] = toks[k].start()
    found: list[tuple[str, str]] = []
    seen: set[tuple[str, str]] = set()
    for k, t in enumerate(toks):
        if t.group(1) == "/" or t.group(3) is None:
            continue
        name = t.group(2).lower()
        param = t.group(3)
        key = (name, param.strip().lower())
        if key in seen:
            continue
        # The text this tag colours/sizes itself: up to the next tag of its kind.
        text = _visible(own[t.end() : nxt_of[k]])
        if not text:
            continue
        if name == "color":
            rgb = discuz_colour(param)
            if rgb is None:
                continue
            d = red_distance(rgb)
            if d > options.red_distance:
                continue
            seen.add(key)
            hexv = "#%02X%02X%02X" % rgb
            same = param.strip().upper() == hexv
            what = "红色字体" if d == 0 else "近红色字体"
            shown = "" if same else f"即 {hexv}，"
            found.append(
                (
                    "red_font",
                    f"使用了{what} {t.group(0)}（{shown}与 #FF0000 的距离 {round(d)}，"
                    f"阈值 {options.red_distance:g}）：「{_snippet(text)}」",
                )
            )
        else:
            sz = discuz_size(param)
            if sz is None:
                continue
            n, px = sz
            big = (n >= options.big_size) if n is not None else (px >= options.big_px)
            if not big:
                continue
            seen.add(key)
            size_desc = f"{n} 号，约 {px:g}px" if n is not None else f"约 {px:g}px"
            found.append(
                (
                    "big_font",
                    f"使用了放大字体 {t.group(0)}（{size_desc}，阈值 {options.big_size} 号或 "
                    f"{options.big_px:g}px）：「{_snippet(text)}」",
                )
            )
    return found


# ---------------------------------------------------------------------------
# Last words

# Tag classes as in modtool.forum.markup (FORMATS.md §3): simple tags are
# case-sensitive, parameterised tags case-insensitive, unknown tags are text.
from modtool.sdk import PARAM_TAGS as _PARAM, SIMPLE_TAGS as _SIMPLE, SIMPLE_PARAM_FORMS as _SIMPLE_PARAM_FORMS  # noqa: E402  (one home for Discuz's tag classes)
_LW_TAG = regex.compile(r"\[(/?)([A-Za-z]{1,12}|\*)(?:=([^\]\[\n]{0,200}))?\]", regex.V1)


def _is_discuz_tag(m) -> bool:
    closing, raw, param = m.group(1) == "/", m.group(2), m.group(3)
    if closing and param is not None:
        return False
    if raw in _SIMPLE and (param is None or (not closing and (raw, param) in _SIMPLE_PARAM_FORMS)):
        return True
    return raw.lower() in _PARAM


def last_words_flags(text: str) -> list[str]:
    """One Chinese note per distinct Discuz tag in last-words text (the director
    pastes last words into the day-start post, where the code would render).
    Unknown bracketed words (``[狼人]``, ``[B]``) are text, not code."""
    counts: dict[str, int] = {}
    for m in _LW_TAG.finditer(text):
        if _is_discuz_tag(m):
            counts[m.group(0)] = counts.get(m.group(0), 0) + 1
    return [
        f"遗言中含有 Discuz 代码 {tag}" + (f"（{c} 处）" if c > 1 else "") for tag, c in counts.items()
    ]


# ---------------------------------------------------------------------------


def find_flags(post: Post, *, thread: str, author_out: bool, options: FlagOptions | None = None) -> list[Flag]:
    """The M42-R17 flags of one post, in a fixed order: red font, big font,
    zombie, edited vote (or, for ``thread="last_words"``, Discuz code only).

    ``thread`` is a ``modtool.core.schema.THREADS`` id ("discussion", "vote",
    "process") or another name for other threads (fonts are still checked:
    the rule is about every post from a game account). ``author_out``: the
    author's character had been announced out when the post was made (the
    caller decides, it knows the announcements).
    """
    options = options or FlagOptions()
    if options.director_accounts and fold_name(post.author) in {fold_name(a) for a in options.director_accounts}:
        return []

    def flag(kind: str, note: str) -> Flag:
        return Flag(floor=post.floor, pid=post.pid, author=post.author, kind=kind, note=note)

    if thread == LAST_WORDS_THREAD:
        return [flag("bbcode_in_last_words", n) for n in last_words_flags(post.body)]
    found = sorted(_font_findings(post.body, options), key=lambda kn: kn[0] != "red_font")  # stable
    out = [flag(kind, note) for kind, note in found]
    if author_out and thread in ZOMBIE_THREADS:
        text = _visible(own_markup(post.body))
        said = f"：「{_snippet(text)}」" if text else ""
        out.append(flag("zombie", f"已出局角色在{THREAD_NAMES[thread]}发言（诈尸）{said}"))
    if thread == "vote" and post.edited:
        out.append(flag("edited_vote", f"投票帖的帖子发出后被编辑过（{post.edited.strip()}），请核对改动"))
    return out
