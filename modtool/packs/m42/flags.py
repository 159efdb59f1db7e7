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
  counted and an unclosed quote hides the rest, as in ``modtool.core.markup``);
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

from modtool.core.posts import Post
from modtool.core.text import fold_name

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

# CSS named colours (CSS Color 4 / HTML), lower case -> RGB hex.
CSS_COLOURS: dict[str, str] = {
    "aliceblue": "F0F8FF", "antiquewhite": "FAEBD7", "aqua": "00FFFF", "aquamarine": "7FFFD4",
    "azure": "F0FFFF", "beige": "F5F5DC", "bisque": "FFE4C4", "black": "000000",
    "blanchedalmond": "FFEBCD", "blue": "0000FF", "blueviolet": "8A2BE2", "brown": "A52A2A",
    "burlywood": "DEB887", "cadetblue": "5F9EA0", "chartreuse": "7FFF00", "chocolate": "D2691E",
    "coral": "FF7F50", "cornflowerblue": "6495ED", "cornsilk": "FFF8DC", "crimson": "DC143C",
    "cyan": "00FFFF", "darkblue": "00008B", "darkcyan": "008B8B", "darkgoldenrod": "B8860B",
    "darkgray": "A9A9A9", "darkgreen": "006400", "darkgrey": "A9A9A9", "darkkhaki": "BDB76B",
    "darkmagenta": "8B008B", "darkolivegreen": "556B2F", "darkorange": "FF8C00", "darkorchid": "9932CC",
    "darkred": "8B0000", "darksalmon": "E9967A", "darkseagreen": "8FBC8F", "darkslateblue": "483D8B",
    "darkslategray": "2F4F4F", "darkslategrey": "2F4F4F", "darkturquoise": "00CED1", "darkviolet": "9400D3",
    "deeppink": "FF1493", "deepskyblue": "00BFFF", "dimgray": "696969", "dimgrey": "696969",
    "dodgerblue": "1E90FF", "firebrick": "B22222", "floralwhite": "FFFAF0", "forestgreen": "228B22",
    "fuchsia": "FF00FF", "gainsboro": "DCDCDC", "ghostwhite": "F8F8FF", "gold": "FFD700",
    "goldenrod": "DAA520", "gray": "808080", "grey": "808080", "green": "008000",
    "greenyellow": "ADFF2F", "honeydew": "F0FFF0", "hotpink": "FF69B4", "indianred": "CD5C5C",
    "indigo": "4B0082", "ivory": "FFFFF0", "khaki": "F0E68C", "lavender": "E6E6FA",
    "lavenderblush": "FFF0F5", "lawngreen": "7CFC00", "lemonchiffon": "FFFACD", "lightblue": "ADD8E6",
    "lightcoral": "F08080", "lightcyan": "E0FFFF", "lightgoldenrodyellow": "FAFAD2", "lightgray": "D3D3D3",
    "lightgreen": "90EE90", "lightgrey": "D3D3D3", "lightpink": "FFB6C1", "lightsalmon": "FFA07A",
    "lightseagreen": "20B2AA", "lightskyblue": "87CEFA", "lightslategray": "778899", "lightslategrey": "778899",
    "lightsteelblue": "B0C4DE", "lightyellow": "FFFFE0", "lime": "00FF00", "limegreen": "32CD32",
    "linen": "FAF0E6", "magenta": "FF00FF", "maroon": "800000", "mediumaquamarine": "66CDAA",
    "mediumblue": "0000CD", "mediumorchid": "BA55D3", "mediumpurple": "9370DB", "mediumseagreen": "3CB371",
    "mediumslateblue": "7B68EE", "mediumspringgreen": "00FA9A", "mediumturquoise": "48D1CC",
    "mediumvioletred": "C71585", "midnightblue": "191970", "mintcream": "F5FFFA", "mistyrose": "FFE4E1",
    "moccasin": "FFE4B5", "navajowhite": "FFDEAD", "navy": "000080", "oldlace": "FDF5E6",
    "olive": "808000", "olivedrab": "6B8E23", "orange": "FFA500", "orangered": "FF4500",
    "orchid": "DA70D6", "palegoldenrod": "EEE8AA", "palegreen": "98FB98", "paleturquoise": "AFEEEE",
    "palevioletred": "DB7093", "papayawhip": "FFEFD5", "peachpuff": "FFDAB9", "peru": "CD853F",
    "pink": "FFC0CB", "plum": "DDA0DD", "powderblue": "B0E0E6", "purple": "800080",
    "rebeccapurple": "663399", "red": "FF0000", "rosybrown": "BC8F8F", "royalblue": "4169E1",
    "saddlebrown": "8B4513", "salmon": "FA8072", "sandybrown": "F4A460", "seagreen": "2E8B57",
    "seashell": "FFF5EE", "sienna": "A0522D", "silver": "C0C0C0", "skyblue": "87CEEB",
    "slateblue": "6A5ACD", "slategray": "708090", "slategrey": "708090", "snow": "FFFAFA",
    "springgreen": "00FF7F", "steelblue": "4682B4", "tan": "D2B48C", "teal": "008080",
    "thistle": "D8BFD8", "tomato": "FF6347", "turquoise": "40E0D0", "violet": "EE82EE",
    "wheat": "F5DEB3", "white": "FFFFFF", "whitesmoke": "F5F5F5", "yellow": "FFFF00",
    "yellowgreen": "9ACD32",
}

RGB = tuple[int, int, int]

_HEX = frozenset("0123456789abcdefABCDEF")
_DISCUZ_COLOR_WORD = regex.compile(r"[#A-Za-z0-9_]+", regex.V1)
_DISCUZ_COLOR_RGB = regex.compile(r"(?i:rgba?)\(([\d\s,]+)\)", regex.V1)


def _hex_rgb(h: str) -> RGB:
    return int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16)


def legacy_colour(value: str) -> RGB | None:
    """RGB of a ``<font color="value">`` per the HTML legacy colour rules, or
    None when the browser shows no colour (empty, "transparent")."""
    v = value.strip(" \t\n\f\r")
    if not v or v.lower() == "transparent":
        return None
    named = CSS_COLOURS.get(v.lower())
    if named:
        return _hex_rgb(named)
    if len(v) == 4 and v[0] == "#" and all(c in _HEX for c in v[1:]):
        return tuple(int(c, 16) * 17 for c in v[1:])  # type: ignore[return-value]
    v = "".join("00" if ord(c) > 0xFFFF else c for c in v)[:128]
    if v.startswith("#"):
        v = v[1:]
    v = "".join(c if c in _HEX else "0" for c in v)
    while not v or len(v) % 3:
        v += "0"
    n = len(v) // 3
    parts = [v[0:n], v[n : 2 * n], v[2 * n :]]
    if n > 8:
        parts = [p[-8:] for p in parts]
    while len(parts[0]) > 2 and all(p[0] == "0" for p in parts):
        parts = [p[1:] for p in parts]
    parts = [p[:2] for p in parts]
    return tuple(int(p, 16) for p in parts)  # type: ignore[return-value]


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

# Tag classes as in modtool.core.markup (FORMATS.md §3): simple tags are
# case-sensitive, parameterised tags case-insensitive, unknown tags are text.
from modtool.core.markup import _PARAM, _SIMPLE, _SIMPLE_PARAM_FORMS  # noqa: E402  (one home for Discuz's tag classes)
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
