"""Zone names a mafia game takes: a place's IANA zone (Area/City) or UTC.

A name without a region (CET, EST, MST, EET, WET, GB, Japan, …) is refused: the
IANA zone CET follows daylight saving, while a time typed as "… CET" is the
abbreviation's fixed offset (UTC+1), so the two differ by an hour in summer.
The host names a place instead; the "did you mean" offers region zones with the
same offsets in winter and summer (well-known cities first).
"""

from __future__ import annotations

from datetime import datetime, timezone
from zoneinfo import ZoneInfo, available_timezones

# What a host writing the abbreviation most often means (its region zones).
_MEANT = {"CET": ("Europe/Berlin", "Europe/Paris"), "MET": ("Europe/Berlin", "Europe/Paris"),
          "EET": ("Europe/Athens", "Europe/Helsinki"), "WET": ("Europe/Lisbon", "Europe/London"),
          "EST": ("America/New_York", "America/Panama"), "EST5EDT": ("America/New_York",),
          "CST6CDT": ("America/Chicago",), "MST": ("America/Denver", "America/Phoenix"),
          "MST7MDT": ("America/Denver",), "PST8PDT": ("America/Los_Angeles",), "HST": ("Pacific/Honolulu",),
          "GMT": ("UTC", "Europe/London"), "GB": ("Europe/London",)}
_CITIES = ("Europe/London", "Europe/Berlin", "Europe/Paris", "Europe/Athens", "Europe/Helsinki", "Europe/Lisbon",
           "Europe/Moscow", "America/New_York", "America/Chicago", "America/Denver", "America/Phoenix",
           "America/Los_Angeles", "America/Panama", "Pacific/Honolulu", "Asia/Tokyo", "Asia/Shanghai",
           "Asia/Singapore", "Asia/Hong_Kong", "Asia/Kolkata", "Australia/Sydney", "Pacific/Auckland")


def has_region(name: str) -> bool:
    """``name`` is a place's zone (Area/City) or UTC."""
    return name == "UTC" or "/" in name


def region_zones(name: str) -> list[str]:
    """Region zones to offer for ``name`` (an IANA name without a region), at most two."""
    if name.upper() in _MEANT:
        return list(_MEANT[name.upper()])

    def offsets(z: str) -> tuple:
        tz = ZoneInfo(z)
        return tuple(datetime(2024, m, 15, 12, tzinfo=timezone.utc).astimezone(tz).utcoffset() for m in (1, 7))

    want = offsets(name)
    regions = [z for z in sorted(available_timezones()) if "/" in z and not z.startswith(("Etc/", "SystemV/"))]
    ordered = [z for z in _CITIES if z in regions] + [z for z in regions if z not in _CITIES]
    return [z for z in ordered if offsets(z) == want][:2]
