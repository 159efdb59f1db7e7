"""What each ledger event must carry, checked field by field with its line.

Every event is a fact (outcomes are derived by replay): a saved post, a time the
director set, a night submission, a director's decision. Nothing here is an
outcome; outcomes come from replay.
"""

from __future__ import annotations

import operator
from functools import lru_cache

from modtool.base.events import Event
from modtool.base.i18n import Listing, t, words_for_language
from modtool.base.problems import Problem
from modtool.core.registry import get_pack

# field -> (python types accepted, required), or (types, required, the values allowed):
# a field with a closed set of values (a pack's ``kind: vote|change``) names them as a
# tuple, checked when the field is present.
_STR = (str,)
_INT = (int,)
Schema = dict[str, tuple]

# The game-neutral events: what any game played on a forum records. A game's own
# events (a close time, a delegated vote, a death, a night action) are its pack's
# (``GamePack.event_schemas``); tests/test_packs.py keeps game words out of here.
COMMON_EVENTS: dict[str, Schema] = {
    # A forum post saved by the director (modtool import).
    "post": {
        "thread": (_STR, True),
        "day": (_INT, True),
        "floor": (_INT, True),
        "author": (_STR, True),
        "time": (_STR, True),
        "body": (_STR, True),
        "pid": (_STR, False),
        "tid": (_STR, False),
        "edited": (_STR, False),
        "reply_to": ((dict,), False),
        "source": (_STR, False),
    },
}

# Undo: the event named by ``of`` (its id, or the fingerprint of one without
# an id; modtool.base.events) no longer counts. ``line`` is how ledgers written
# before ids named it; it still works, and ``modtool upgrade`` rewrites it.
COMMON_EVENTS["revert"] = {"of": ((int, str), False), "line": (_INT, False), "note": (_STR, False)}
# Every event may carry its stable id (modtool.base.events), whatever its type.
ID_FIELD = (_INT, False)
# One import (modtool import): the marker written right before the posts it
# added, which are the ``posts`` post events that follow it. Reverting the
# marker takes back the whole batch (modtool undo --import; gamefile.effective_events).
COMMON_EVENTS["import"] = {
    "batch": (_INT, True),
    "thread": (_STR, True),
    "day": (_INT, True),
    "posts": (_INT, True),
    "files": ((list,), False),
}

# A later version of a saved post (G-R3): a re-import found its text changed on the
# forum. ``of`` names the post event (its id); the fields are the post's, as it reads now.
COMMON_EVENTS["edit"] = {"of": ((int, str), True), **COMMON_EVENTS["post"]}

# Results the forum has read (G-R2; modtool.core.announced): written by announce and advance.
# ``gone``: results the forum was told no longer happen (``modtool corrected``: the replay no
# longer reaches them, and the correction said so).
COMMON_EVENTS["announced"] = {"by": (_STR, False), "results": ((dict,), True), "labels": ((dict,), False),
                              "gone": ((list,), False)}

THREADS = ("vote", "discussion", "process")

# Each common event type as a director reads it (undo and restore name what they
# touched): the core's Chinese, a message id of its catalogue (modtool.base.i18n).
# A pack's own types are labelled by the pack (``GamePack.event_labels``).
EVENT_LABELS = {
    "post": "帖子", "revert": "撤销", "import": "导入", "edit": "帖子的新版本", "announced": "已公布的结果",
}


def event_name(kind, game=None) -> str:
    """``kind``'s name in the language of ``game`` (a ``modtool.core.games.Game``):
    a common event's from the core's catalogue, the game's own from its pack
    (``GamePack.event_labels``), else the type itself. Without ``game``: a common
    event's name in the language words come in here (``modtool.base.i18n``)."""
    if not isinstance(kind, str):  # a type written by hand as a list or a number
        return str(kind)
    if game is None:
        return t(EVENT_LABELS[kind]) if kind in EVENT_LABELS else kind
    pack = get_pack(game.id)
    if kind in EVENT_LABELS:
        return words_for_language(pack.language)(EVENT_LABELS[kind])
    return str(pack.event_labels(game).get(kind, kind))


def _choices_ok(data: dict, schema: Schema) -> bool:
    for name, spec in schema.items():
        if len(spec) > 2 and name in data and data[name] not in spec[2]:
            return False
    return True


def _well_formed(ev: Event, schema: Schema) -> bool:
    """The common case, checked quickly: every field known, present and of its type."""
    data = ev.data
    for name, value in data.items():
        spec = schema.get(name)
        if spec is None:
            if name == "id" and type(value) is int and value >= 1:
                continue
            return False
        if value is None or type(value) not in spec[0]:
            return False
    if ev.type == "revert" and ("of" in data) == ("line" in data):
        return False
    for name, spec in schema.items():
        if spec[1] and name not in data:
            return False
    if ev.type == "post" and data["thread"] not in THREADS:
        return False
    if not _choices_ok(data, schema):
        return False
    return all(data[k] >= 1 for k in ("day", "night") if k in data)


# The post schema above, as _post_fine reads it (tests/test_fast_paths.py holds the two together).
_POST_REQUIRED = operator.itemgetter("thread", "day", "floor", "author", "time", "body")
_POST_OPTIONAL = {name: spec[0][0] for name, spec in COMMON_EVENTS["post"].items() if not spec[1]}
_POST_FIELDS = frozenset(COMMON_EVENTS["post"]) | {"id"}


def _post_fine(data: dict) -> bool:
    """True when ``check_event`` would find nothing wrong with this post event:
    the commonest event (a ledger may hold 100,000 saved posts), judged in a
    few steps. False means "check it in full", not "wrong"."""
    try:
        thread, day, floor, author, time, body = _POST_REQUIRED(data)
    except KeyError:
        return False
    if not (type(thread) is str and thread in THREADS and type(day) is int and day >= 1 and type(floor) is int
            and type(author) is str and type(time) is str and type(body) is str):
        return False
    n = len(data)
    i = data.get("id")
    if i is not None:
        if type(i) is not int or i < 1:
            return False
        n -= 1
    if n == 6 or (n == 7 and type(data.get("pid")) is str):  # what import writes
        return True
    if not data.keys() <= _POST_FIELDS:
        return False
    for name, kind in _POST_OPTIONAL.items():
        value = data.get(name)
        if value is not None and type(value) is not kind:
            return False
    return True


def _shape(ev: Event) -> tuple:
    """Everything ``check_event`` reads of an event when it finds nothing wrong:
    its type, keys, the type of each value and the values it compares (thread,
    kind, day, night). Events of one shape are all fine or all not."""
    d = ev.data
    return ev.type, tuple(d), tuple(map(type, d.values())), d.get("thread"), d.get("kind"), d.get("day"), d.get("night")


def check_events(events: list[Event], schemas: dict[str, Schema], source: str) -> list[Problem]:
    """``check_event`` of every event, in ledger order: the usual post in a few
    steps, other events once per shape."""
    problems: list[Problem] = []
    fine: set[tuple] = set()  # shapes of events already found without problems
    post_checked = COMMON_EVENTS["post"] is schemas.get("post")
    # Fields with a closed set of values: their values are part of the shape too.
    closed = {kind: tuple(n for n, spec in schema.items() if len(spec) > 2) for kind, schema in schemas.items()}
    for ev in events:
        if post_checked and ev.type == "post" and _post_fine(ev.data):
            continue
        try:
            shape = _shape(ev)
            values = closed.get(ev.type)
            if values:
                shape += tuple(ev.data.get(n) for n in values)
            if shape in fine:
                continue
        except TypeError:  # a list or mapping where thread, kind, day or night should be: check in full
            shape = None
        found = check_event(ev, schemas, source)
        if found:
            problems += found
        elif shape is not None:
            fine.add(shape)
    return problems


@lru_cache(maxsize=4096)
def _time_problem(text: str) -> str | None:
    from datetime import timezone

    from modtool.base.times import parse_time

    try:
        parse_time(text, timezone.utc)
    except ValueError as exc:
        return str(exc)
    return None


def _bad_time(value) -> str | None:
    """Why an event's ``at`` (a time the director or a command wrote) cannot be read, or None.
    (Post times come from the importer, checked by the replay that reads them.)"""
    return _time_problem(value) if isinstance(value, str) else None


def check_event(ev: Event, schemas: dict[str, Schema], source: str) -> list[Problem]:
    """Problems with one event's shape: unknown type, missing or mistyped fields."""
    schema = schemas.get(ev.type)
    if schema is None:
        known = t("、").join(sorted(schemas))
        return [Problem(source, "未知的事件类型「{type}」（可用：{known}）", ev.line, type=ev.type, known=known)]
    bad_at = _bad_time(ev.data.get("at"))
    when = [Problem(source, "{type} 事件的 at：{why}", ev.line, type=ev.type, why=bad_at)] if bad_at else []
    if _well_formed(ev, schema):
        return when
    out = when
    for name, spec in schema.items():
        types, required = spec[0], spec[1]
        if name not in ev.data or ev.data[name] is None:
            if required:
                out.append(Problem(source, "{type} 事件缺少 {name} 字段", ev.line, type=ev.type, name=name))
            continue
        value = ev.data[name]
        if (isinstance(value, bool) and bool not in types) or not isinstance(value, types):
            want = {str: t("文字"), int: t("整数"), dict: t("映射"), list: t("列表"), bool: t("true 或 false")}[types[0]]
            out.append(Problem(source, "{type} 事件的 {name} 应为{want}，现在是「{value}」", ev.line, type=ev.type, name=name, want=want, value=value))
    if "id" in ev.data and "id" not in schema:
        v = ev.data["id"]
        if type(v) is not int or v < 1:
            out.append(Problem(source, "{type} 事件的 id 应为从 1 开始的整数（modtool 写入的编号，不要手改），现在是「{value}」", ev.line, type=ev.type, value=v))
    if ev.type == "revert" and ("of" in ev.data) == ("line" in ev.data):
        out.append(Problem(source, "revert 事件应有 of 字段（被撤销的事件的 id）", ev.line))
    for name in ev.data:
        if name not in schema and name != "id":
            out.append(Problem(source, "{type} 事件有未知字段 {name}", ev.line, type=ev.type, name=name))
    if ev.type == "post" and ev.data.get("thread") not in THREADS:
        out.append(Problem(source, "post 事件的 thread 应为 vote、discussion 或 process 之一", ev.line))
    for name, spec in schema.items():
        value = ev.data.get(name)
        if len(spec) > 2 and isinstance(value, spec[0]) and value not in spec[2]:  # a wrong type is told above
            out.append(Problem(source, "{type} 事件的 {name} 应为 {values} 之一，现在是「{value}」", ev.line, type=ev.type, name=name, values=Listing(map(str, spec[2])), value=ev.data[name]))
    for key in ("day", "night"):
        if isinstance(ev.data.get(key), int) and not isinstance(ev.data.get(key), bool) and ev.data[key] < 1:
            out.append(Problem(source, "{type} 事件的 {key} 应从 1 开始", ev.line, type=ev.type, key=key))
    return out
