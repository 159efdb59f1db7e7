"""Facts read out of events, once per load and kept in ``GameDir.memo``: an
event's time in the game's zone, a post event's ``Post``. Any pack uses them."""

from __future__ import annotations

from datetime import datetime

from modtool.core.gamefile import GameDir
from modtool.forum.posts import Post, ReplyRef
from modtool.base.problems import Problem, UserError
from modtool.base.times import parse_time


def event_time(gd: GameDir, ev, key: str = "at") -> datetime:
    """The time ``ev`` records under ``key``, in the game's zone (each distinct text parsed once per load)."""
    text = ev.data[key]
    written = gd.zone_at(ev) if gd.zones else gd.tz  # a time written before the director set another zone
    times = gd.memo.setdefault("times" if written is gd.tz else ("times", str(written)), {})
    hashable = type(text) is str
    found = times.get(text) if hashable else None
    if found is None:
        try:
            found = parse_time(text, written)
        except ValueError as exc:
            raise UserError(Problem(gd.source, "{error}", ev.line, error=str(exc))) from None
        if written is not gd.tz:
            found = found.astimezone(gd.tz)
        if hashable:
            times[text] = found
    return found


def post_of(ev, gd: GameDir) -> Post:
    """The Post of a post event (built once per load)."""
    posts = gd.memo.setdefault("posts", {})
    found = posts.get(id(ev))
    if found is not None and found[0] is ev:
        return found[1]
    d = ev.data
    ref = d.get("reply_to")
    reply = None
    if isinstance(ref, dict):
        floor = ref.get("floor")
        reply = ReplyRef(
            pid=str(ref["pid"]) if ref.get("pid") is not None else None,
            floor=floor if isinstance(floor, int) else None,
            author=str(ref["author"]) if ref.get("author") is not None else None,
            time=str(ref["time"]) if ref.get("time") is not None else None,
        )
    post = Post(
        pid=str(d.get("pid", "")),
        floor=d["floor"],
        author=str(d["author"]),
        time=event_time(gd, ev, "time"),
        body=d["body"],
        edited=d.get("edited"),
        reply_to=reply,
        source=f"{gd.source}:{ev.line}" if ev.line else gd.source,
        **({"extra": {"earlier": d["earlier"]}} if d.get("earlier") else {}),  # G-R3: the versions before this one
    )
    posts[id(ev)] = (ev, post)  # the event is kept with its Post, so its id is not reused
    return post
