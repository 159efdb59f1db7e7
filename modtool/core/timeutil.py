"""Times as the director writes them: "2026-11-02 21:00[:SS]" in the game's zone."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, time
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import regex
from modtool.core.i18n import t

_TIME = regex.compile(
    r"(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})[ T]+(\d{1,2}):(\d{2})(?::(\d{2}))?", regex.V1
)


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
    from modtool.core.text import fold

    m = _TIME.fullmatch(fold(str(text)).strip())
    if not m:
        raise ValueError(t("时间「{text}」看不懂，应写成 2026-11-02 21:00 这样").format(text=text))
    y, mo, d, h, mi, s = (int(g) if g else 0 for g in m.groups())
    try:
        return datetime(y, mo, d, h, mi, s, tzinfo=tz)
    except ValueError as exc:
        raise ValueError(t("时间「{text}」不是有效的日期时间").format(text=text)) from exc


def parse_clock(text: str) -> time:
    m = regex.fullmatch(r"(\d{1,2}):(\d{2})", str(text).strip())
    if not m or int(m[1]) > 23 or int(m[2]) > 59:
        raise ValueError(t("时刻「{text}」应写成 21:00 这样").format(text=text))
    return time(int(m[1]), int(m[2]))


def fmt(dt: datetime | None, seconds: bool = True) -> str:
    if dt is None:
        return ""
    return dt.strftime("%Y-%m-%d %H:%M:%S" if seconds else "%Y-%m-%d %H:%M")
