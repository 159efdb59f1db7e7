"""Times: the one home for reading and writing them.

- as the director writes them (``parse_time``): "2026-11-02 21:00[:SS]" in the
  game's zone, refused with a message naming the form it wants;
- as a Discuz forum shows them (``TIME_PATTERN``, ``parse_shown_time``,
  ``time_from_match``, ``show_time``): the same form, and "2024年3月1日",
  full-width digits and colons; the forum readers build their header patterns
  from ``TIME_PATTERN``;
- as another forum prints them in words (``parse_formatted``: strptime forms
  with the forum's UTC offset, e.g. phpBB's "Mon May 02, 2011 4:15 pm");
- a time of day (``parse_clock``), a zone (``zone``), and how modtool writes a
  time (``fmt``);
- the wall clock a command may stand on (``wall_clock``, ``now_in`` a phase's
  ``Window``), below.

A director's time is read with the forum's pattern after folding (NFKC), so
whatever form a post shows may be typed too.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from collections.abc import Iterable
from datetime import datetime, time, timezone, tzinfo
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from modtool.base.i18n import t
from modtool.base.problems import Problem, UserError
from modtool.base.text import fold

# Discuz shows "2024-3-1 12:00" (not zero padded), seconds on the web page.
# Also accepted: "/" or "." as separators, "2024年3月1日", full-width digits
# and a full-width colon.
_D = r"[0-9０-９]"
# The white space between date and time is read in one way only (possessive,
# and "日" in its own group): a date followed by a long run of spaces is
# not tried in every split of the run (quadratic).
TIME_PATTERN = (
    rf"({_D}{{4}})\s*[-/.年－／．]\s*({_D}{{1,2}})\s*[-/.月－／．]\s*({_D}{{1,2}})(?:\s*+日)?"
    rf"(?:\s*+T\s*+|\s++)({_D}{{1,2}})\s*[:：]\s*({_D}{{2}})(?:\s*[:：]\s*({_D}{{2}}))?"
)
_TIME_FULL = re.compile(r"\s*" + TIME_PATTERN + r"\s*\Z")


def parse_shown_time(text: str, tz: tzinfo) -> datetime | None:
    """"2024-3-1 12:00[:05]" in the zone ``tz``; None when it is not a time."""
    m = _TIME_FULL.match(text)
    if not m:
        return None
    return time_from_match(m, tz)


def time_from_match(m: re.Match, tz: tzinfo, first: int = 1) -> datetime | None:
    g = m.groups()[first - 1 : first + 5]
    try:
        return datetime(int(g[0]), int(g[1]), int(g[2]), int(g[3]), int(g[4]), int(g[5] or 0), tzinfo=tz)
    except (ValueError, OverflowError):
        return None


_SHOWN: dict[tuple, str] = {}


def show_time(m: re.Match, first: int = 1) -> str:
    """A matched forum time as "YYYY-MM-DD HH:MM[:SS]" (ReplyRef.time)."""
    g = m.group(first, first + 1, first + 2, first + 3, first + 4, first + 5)
    text = _SHOWN.get(g)
    if text is None:
        y, mo, d, h, mi, s = (str(int(x)) if x else "" for x in g)  # int(): full-width digits
        text = f"{y}-{mo.zfill(2)}-{d.zfill(2)} {h.zfill(2)}:{mi.zfill(2)}"
        if s:
            text += ":" + s.zfill(2)
        if len(_SHOWN) > 10000:
            _SHOWN.clear()
        _SHOWN[g] = text
    return text




def zone(name: str) -> ZoneInfo:
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError) as exc:
        raise ValueError(t("未知的时区「{name}」").format(name=name)) from exc


def parse_time(text, tz: ZoneInfo) -> datetime:
    """Parse a director-written time; naive times are in the game's zone."""
    return parse_times((text,), tz)[0]


def parse_times(texts: Iterable, tz: ZoneInfo) -> list[datetime]:
    """``parse_time`` of each text, in order (a ledger holds 100,000 post times:
    what modtool itself writes is read in a few steps, and a text equal to the
    one before it, as posts of one minute often are, is not read again)."""
    fromisoformat, combine = datetime.fromisoformat, datetime.combine
    out: list[datetime] = []
    previous = None
    for text in texts:
        if type(text) is str and text == previous:
            out.append(out[-1])
            continue
        previous = text
        if isinstance(text, str) and len(text) in (16, 19) and text[4] == "-":
            try:  # fast path for what modtool itself writes
                dt = fromisoformat(text)
            except ValueError:
                pass
            else:  # combine(): the value of dt.replace(tzinfo=tz) in a third of the time
                out.append(dt if dt.tzinfo else combine(dt, dt.time(), tz))
                continue
        out.append(_parse_written(text, tz))
    return out


def _parse_written(text, tz: ZoneInfo) -> datetime:
    if isinstance(text, datetime):
        return text if text.tzinfo else text.replace(tzinfo=tz)

    m = _TIME_FULL.match(fold(str(text)))
    if not m:
        raise ValueError(t("时间「{text}」看不懂，应写成 2026-11-02 21:00 这样").format(text=text))
    y, mo, d, h, mi, s = (int(g) if g else 0 for g in m.groups())
    try:
        return datetime(y, mo, d, h, mi, s, tzinfo=tz)
    except (ValueError, OverflowError) as exc:
        raise ValueError(t("时间「{text}」不是有效的日期时间").format(text=text)) from exc


# Zone abbreviations a director may write after a time, each its standard offset
# (``CET`` is always UTC+1, ``CEST`` UTC+2: the letters say which half of the year).
# Ambiguous ones (CST: China or US Central; IST) are not here: an IANA name or an offset says it.
ZONE_ABBREVIATIONS = {"UTC": 0, "GMT": 0, "Z": 0, "WET": 0, "WEST": 60, "BST": 60, "CET": 60, "CEST": 120,
                      "EET": 120, "EEST": 180, "MSK": 180, "EST": -300, "EDT": -240, "CDT": -300,
                      "MST": -420, "MDT": -360, "PST": -480, "PDT": -420, "AEST": 600, "AEDT": 660, "JST": 540}
_OFFSET = re.compile(r"(?:UTC|GMT)?\s*([+-])\s*(\d{1,2})(?::?(\d{2}))?", re.I)
_DATE_ONLY = re.compile(r"\s*\d{4}\s*[-/.]\s*\d{1,2}\s*[-/.]\s*\d{1,2}\s*(?:\s\S.*)?\Z")


def zone_suffix(text: str) -> tuple[str, tzinfo | None, str]:
    """A typed time split into its time and the zone written after it: (the time
    text, the zone or None, the zone as written). Read after the time: an IANA
    name (``Europe/Berlin``), ``UTC``, an offset (``UTC+1``, ``GMT-05:00``,
    ``+01:00``, ``-0500``) or an abbreviation of ``ZONE_ABBREVIATIONS``.
    A suffix that is none of them raises ValueError naming it."""
    folded = fold(str(text)).strip()
    m = re.match(rf"\s*({TIME_PATTERN})\s*(\S.*?)?\s*\Z", folded)
    if not m or not m.group(m.re.groups):
        return str(text), None, ""
    written = m.group(m.re.groups)
    return m.group(1), zone_named(written), written


def zone_named(written: str) -> tzinfo:
    """The zone ``written`` names (see ``zone_suffix``); ValueError when none."""
    from datetime import timedelta

    key = written.strip()
    if key.upper() in ZONE_ABBREVIATIONS:
        minutes = ZONE_ABBREVIATIONS[key.upper()]
        return timezone(timedelta(minutes=minutes)) if minutes else timezone.utc
    m = _OFFSET.fullmatch(key)
    if m:
        hours, minutes = int(m.group(2)), int(m.group(3) or 0)
        if hours > 14 or minutes > 59:
            raise ValueError(t("时区「{zone}」不是有效的 UTC 偏移（例如 UTC+1、+01:00）").format(zone=written))
        delta = timedelta(hours=hours, minutes=minutes) * (1 if m.group(1) == "+" else -1)
        return timezone(delta) if delta else timezone.utc
    if "/" in key or key.isalpha():
        try:
            return ZoneInfo(key)
        except (ZoneInfoNotFoundError, ValueError):
            pass
    raise ValueError(t("时间后面的「{zone}」不是时区：可写 IANA 时区名（Europe/Berlin）、UTC+1、+01:00 或 CET 这样的缩写").format(zone=written))


def is_date_only(text: str) -> bool:
    """A date with no time of day ("2011-05-05", "2011-05-05 CET")."""
    folded = fold(str(text))
    return bool(_DATE_ONLY.match(folded)) and not re.search(r"\d{1,2}\s*:\s*\d{2}", folded)


def parse_formatted(text: str, forms, offset: timezone, tz: tzinfo) -> datetime | None:
    """``text`` by the first of the strptime ``forms`` that reads it, a time at the
    forum's UTC ``offset``, in the zone ``tz``; None when none does (or the
    year is out of range there)."""
    for form in forms:
        try:
            return datetime.strptime(text, form).replace(tzinfo=offset).astimezone(tz)
        except ValueError:
            continue
        except OverflowError:  # the year 9999 in another zone: out of bounds (modtool.forum.bounds)
            return None
    return None


def parse_clock(text: str) -> time:
    m = re.fullmatch(r"(\d{1,2}):(\d{2})", str(text).strip())
    if not m or int(m[1]) > 23 or int(m[2]) > 59:
        raise ValueError(t("时刻「{text}」应写成 21:00 这样").format(text=text))
    return time(int(m[1]), int(m[2]))


def fmt(dt: datetime | None, seconds: bool = True) -> str:
    if dt is None:
        return ""
    return dt.strftime("%Y-%m-%d %H:%M:%S" if seconds else "%Y-%m-%d %H:%M")


# --- the game's clock --------------------------------------------------------
# The game's clock: the time a command records.
#
# A time given on the command line (``--at`` and the like) is read in the
# game's zone. Without one, the wall clock is used only when it falls inside
# the current phase's window; otherwise the command is refused before
# anything is written, naming the window, so a fact is never stamped weeks
# after the phase it belongs to. Each game says what its windows are (for M42:
# ``modtool.packs.m42.windows``).


@dataclass(frozen=True)
class Window:
    """The span of a phase in which "now" may stand for a command's time."""

    label: str  # 第 3 天 / 第 3 夜 / …
    start: datetime | None
    end: datetime | None
    unknown: str = ""  # why there is no window (start or end not known), for the message


def wall_clock(tz) -> datetime:
    """The wall clock in the game's zone, to the second (tests replace this)."""
    return datetime.now(tz).replace(microsecond=0)


def span(w: Window) -> str:
    """「2026-11-05 09:00 至 21:00」: the end's date only when it differs."""
    start, end = w.start, w.end
    tail = end.strftime("%H:%M") if end.date() == start.date() else end.strftime("%Y-%m-%d %H:%M")
    return f"{start.strftime('%Y-%m-%d %H:%M')} 至 {tail}"


def now_in(window: Window, tz, option: str = "--at") -> datetime:
    """The wall clock if it falls inside ``window``; else a user error naming the window."""
    now = wall_clock(tz)
    shown = now.strftime("%Y-%m-%d %H:%M")
    if window.start is None or window.end is None:
        why = window.unknown or f"不知道{window.label}的起止时间"
        raise UserError(Problem("命令行", "现在是 {shown}；{why}，无法确定现在属于哪个阶段；请用 {option} 给出时间", shown=shown, why=why, option=option))
    if not window.start <= now <= window.end:
        raise UserError(Problem("命令行", "现在是 {shown}，不在{label}（{span}）之内；请用 {option} 给出时间", shown=shown, label=window.label, span=span(window), option=option))
    return now
