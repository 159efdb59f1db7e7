"""A game folder opened for use: ledger, game definition, roster, options.

Everything a command needs before the rules run, with every problem of the
header and of each event's shape collected (``check`` prints them all).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import compress, islice
from operator import attrgetter
from pathlib import Path
from zoneinfo import ZoneInfo

from modtool import ledger
from modtool.base import i18n
from modtool.base.events import Event, event_id, fingerprint
from modtool.core.games import Game, load_game
from modtool.base.i18n import Message, t
from modtool.base.problems import Problem, UserError
from modtool.core.registry import default_pack, get_pack
from modtool.core.roster import Character, Roster
from modtool.core.schema import COMMON_EVENTS, Schema, check_events
from modtool.base.text import fold_name
from modtool.base.times import zone
from modtool.ledger._cache import code_fingerprint, read_record, write_record

LEDGER_NAME = "ledger.yaml"


@dataclass
class GameDir:
    path: Path
    ledger_path: Path
    header: dict
    events: list[Event]
    digest: str
    game: Game
    roster: Roster
    options: dict
    tz: ZoneInfo
    problems: list[Problem] = field(default_factory=list)
    # What is derived from the events once per load and reused (indexes,
    # parsed times, Post values), each under its own key.
    memo: dict = field(default_factory=dict, repr=False, compare=False)
    # The ledger as read, before reverts: how many events, the last one's line,
    # and the marks of its cached stretches (see ledger.LedgerData.marks).
    raw_count: int = field(default=0, repr=False, compare=False)
    raw_last_line: int = field(default=0, repr=False, compare=False)
    marks: list = field(default_factory=list, repr=False, compare=False)
    # The zones the director set by fact (``GamePack.zone_event``), as (ledger line, zone) in
    # ledger order: a time written before the first is in the options' zone, one written
    # after a fact in that fact's zone; ``tz`` is the last. Empty: every time is in ``tz``.
    zones: tuple = field(default=(), repr=False, compare=False)
    base_tz: ZoneInfo | None = field(default=None, repr=False, compare=False)

    def zone_at(self, ev) -> ZoneInfo:
        """The zone the time texts of event ``ev`` were written in (see ``zones``)."""
        if not self.zones or ev.line is None:
            return self.tz
        from bisect import bisect_left

        i = bisect_left([line for line, _ in self.zones], ev.line)
        return self.zones[i - 1][1] if i else self.base_tz

    @property
    def source(self) -> str:
        return str(self.ledger_path)

    @property
    def folder_arg(self) -> str:
        """The game folder as a director types it in a command (quoted for the shell if need be)."""
        import shlex

        return shlex.quote(str(self.ledger_path.parent))

    def of_type(self, *types: str) -> list[Event]:
        """Events of the given types, in ledger order (each type picked out
        once per load, by C loops over the events' types: a large ledger
        holds a hundred thousand posts that most commands never ask for)."""
        index = self.memo.get("by_type")
        if index is None:
            index = self.memo["by_type"] = {}
            self.memo["types"] = list(map(_TYPE, self.events))
        if len(types) == 1:
            got = index.get(types[0])
            if got is None:
                got = index[types[0]] = list(compress(self.events, map(types[0].__eq__, self.memo["types"])))
            return got
        return list(compress(self.events, map(frozenset(types).__contains__, self.memo["types"])))


def ledger_path(game_dir: Path) -> Path:
    return Path(game_dir) / LEDGER_NAME


def event_schemas(game_id: str) -> dict[str, Schema]:
    """The common event types and those of the game's pack."""
    schemas = dict(COMMON_EVENTS)
    schemas.update(get_pack(game_id).event_schemas())
    return schemas


# A game whose pack names no time zone keeps its times in UTC.
DEFAULT_ZONE = "UTC"


def _zone(name, game: Game, problems: list[Problem], source: str) -> ZoneInfo:
    """The zone ``name`` (None: the game's default); a name no zone has is a problem,
    and the pack's default zone (else UTC) stands in for it."""
    default = game.options().get("timezone") or DEFAULT_ZONE
    try:
        return zone(str(name if name is not None else default))
    except ValueError as exc:
        problems.append(Problem(source, "{error}", error=str(exc)))
    try:
        return zone(str(default))
    except ValueError:
        return zone(DEFAULT_ZONE)


def read_roster(entries, game: Game, source: str, script: bool = True) -> tuple[Roster, list[Problem]]:
    """Roster entries (from a ledger header or a roster file) to a Roster;
    ``script``: names equal but for 简繁 are the same name (M42-R5a)."""
    problems: list[Problem] = []
    if not isinstance(entries, list) or not entries:
        return Roster([], script), [Problem(source, "roster 应是角色列表，且至少有一个角色")]
    role_by_label = {}
    for rid, role in game.roles.items():
        role_by_label[rid] = rid
        role_by_label[fold_name(str(role.get("name", rid)))] = rid
    # A seat may hold a category as its character: 甄嬛's travellers (ZH-R1), dealt by `new` beyond 15 players.
    for cid, category in (game.data.get("categories") or {}).items():
        if isinstance(category, dict) and category.get("team", "") is None:
            role_by_label.setdefault(cid, cid)
    chars: list[Character] = []
    for i, entry in enumerate(entries, 1):
        where = t("roster → 第 {i} 个角色").format(i=i)
        if isinstance(entry, (str, int)):
            entry = {"name": entry}
        if not isinstance(entry, dict) or entry.get("name") in (None, ""):
            problems.append(Problem(source, "{where}：缺少 name", where=where))
            continue
        name = str(entry["name"]).strip()
        account = str(entry.get("account", name)).strip()
        aliases = entry.get("aliases") or []
        if isinstance(aliases, (str, int)):
            aliases = [aliases]
        role = entry.get("role")
        if role is not None:
            rid = role_by_label.get(fold_name(str(role)))
            if rid is None:
                problems.append(Problem(source, "{where}（{name}）：未知的身份「{role}」", where=where, name=name, role=role))
            role = rid
        seat = entry.get("seat")
        chars.append(Character(name, account, tuple(str(a).strip() for a in aliases), role, seat))
    # M42-R5: a vote names one character by its name or an alias, compared folded; a label two
    # characters answer to (identical names included) would make such a vote unreadable.
    seen_names: dict[str, int] = {}
    seen_accounts: dict[str, str] = {}
    for i, c in enumerate(chars):
        for label in dict.fromkeys((c.name, *c.aliases)):
            key = fold_name(label, script)
            other = seen_names.setdefault(key, i)
            if other != i:
                problems.append(Problem(source, "roster：名字或别名「{label}」同时属于「{name}」和「{name2}」（第 {value}、{value2} 个角色；比较时不分全半角、简繁，忽略不可见字符）", label=label, name=chars[other].name, name2=c.name, value=other + 1, value2=i + 1))
        key = fold_name(c.account, script)
        if key in seen_accounts:
            problems.append(Problem(source, "论坛账号「{account}」重复（{value}、{name}）", account=c.account, value=seen_accounts[key], name=c.name))
        seen_accounts[key] = c.name
    return Roster(chars, script), problems


# The last game opened from each ledger, with what checking its events found:
# a command opens its game several times (before and after an append), and a
# ledger that only grew needs only its new events checked.
_opened: dict[str, tuple] = {}  # abs ledger path -> (LedgerData, game_dir, GameDir, event problems)


def open_game(game_dir: Path) -> GameDir:
    """Load and validate a game folder; raises UserError only if unusable."""
    import os

    path = ledger_path(game_dir)
    if not path.is_file():
        raise UserError(Problem(str(path), "找不到账本；先用 modtool new 建立游戏"))
    data = ledger.load(path)
    key = os.path.abspath(path)
    prev = _opened.get(key)
    if prev is not None and prev[0] is data and prev[1] == Path(game_dir):
        _speak_for(prev[2])
        return prev[2]
    source = str(path)
    header = data.header
    problems: list[Problem] = []
    game_id = header.get("game")
    if not isinstance(game_id, str):
        raise UserError(Problem(source, "账本开头缺少 game（例如 game: {game}）", game=default_pack().id))
    game = load_game(game_id)

    header = get_pack(game_id).header_roster(header)  # e.g. Clocktower: the seats are the roster
    options = game.options(header.get("options") if isinstance(header.get("options"), dict) else None)
    if header.get("options") is not None and not isinstance(header.get("options"), dict):
        problems.append(Problem(source, "options 应是映射（键: 值）"))
    unknown = set(options) - set(game.options())
    for key in sorted(unknown):
        problems.append(Problem(source, "options 里有未知的选项「{key}」", key=key))
    # The game's clock: its zone comes from the pack's data (its default options) or the
    # ledger's override, checked here only as a zone name; whatever else the game's
    # schedule reads (a daily close time) its pack checks (GamePack.check_options).
    tz = _zone(options.get("timezone"), game, problems, source)
    problems += get_pack(game_id).check_options(options, source)
    roster, roster_problems = read_roster(header.get("roster"), game, source, options.get("fold_script", True) is not False)
    problems += roster_problems
    schemas = event_schemas(game_id)
    event_problems = None
    if prev is not None and prev[0].header is data.header:
        n = len(prev[0].events)
        if 0 < n <= len(data.events) and data.events[n - 1] is prev[0].events[n - 1]:
            event_problems = prev[3] + check_events(data.events[n:], schemas, source)  # only what was appended
    if event_problems is None:
        event_problems = _checked_before(path, game_id, schemas, data, source)
    if event_problems is None:
        event_problems = check_events(data.events, schemas, source)
        _remember_checks(path, game_id, schemas, data, event_problems)
    problems += event_problems
    events, revert_problems = effective_events(data.events, source)
    problems += revert_problems
    gd = GameDir(Path(game_dir), path, header, events, data.digest, game, roster, options, tz, problems,
                 raw_count=len(data.events), raw_last_line=data.events[-1].line if data.events else 0,
                 marks=list(data.marks))
    _set_zones(gd, get_pack(game_id).zone_event, source)
    _opened[key] = (data, Path(game_dir), gd, event_problems)
    _speak_for(gd)
    return gd


def _set_zones(gd: GameDir, zone_type: str | None, source: str) -> None:
    """The game's zone set by the director's facts (``GamePack.zone_event``, its field
    ``zone``): from each such fact on, times are written in its zone; the last is the
    game's zone now. A zone no name has is a problem, and changes nothing."""
    if not zone_type:
        return
    zones = []
    for ev in gd.of_type(zone_type):
        try:
            zones.append((ev.line if ev.line is not None else 0, zone(str(ev.data.get("zone")))))
        except ValueError as exc:
            gd.problems.append(Problem(source, "{error}", ev.line, error=str(exc)))
    if zones:
        gd.base_tz, gd.tz, gd.zones = gd.tz, zones[-1][1], tuple(zones)


def _speak_for(gd: GameDir) -> None:
    """A game opened: words from here on come in its pack's language (modtool.base.i18n)."""
    i18n.speak(get_pack(gd.game.id).language)


def _checks_key(game_id: str, schemas: dict) -> str:
    """What the event checks depend on: the game's schemas and modtool's code."""
    import hashlib

    return hashlib.sha256((code_fingerprint() + repr(sorted(schemas.items())) + game_id).encode()).hexdigest()


def _checks_path(ledger: Path) -> Path:
    return ledger.parent / ".modtool" / "checked.bin"


def _checked_before(ledger: Path, game_id: str, schemas: dict, data, source: str) -> list[Problem] | None:
    """The event problems of an earlier command, when the ledger still begins with
    the events it checked: only the events after them are checked now."""
    rec = read_record(_checks_path(ledger))
    try:
        if rec is None or rec["key"] != _checks_key(game_id, schemas):
            return None
        mark = (rec["n"], rec["token"])
        if mark not in data.marks:
            return None
        old = [Problem(source, Message.from_json(m), line, floor) for m, line, floor in rec["problems"]]
    except (KeyError, TypeError, ValueError):
        return None
    new = check_events(data.events[rec["n"]:], schemas, source)
    if new or len(data.events) > rec["n"]:
        _remember_checks(ledger, game_id, schemas, data, old + new)
    return old + new


def _remember_checks(ledger: Path, game_id: str, schemas: dict, data, problems: list[Problem]) -> None:
    if not data.marks or len(problems) > 1000:
        return
    n, token = data.marks[-1]
    if n != len(data.events):
        return
    write_record(_checks_path(ledger), {"key": _checks_key(game_id, schemas), "n": n, "token": token,
                                        "problems": [(p.msg.to_json(), p.line, p.floor) for p in problems]})


_LINE, _TYPE = attrgetter("line"), attrgetter("type")


def effective_events(events: list[Event], source: str) -> tuple[list[Event], list[Problem]]:
    """The events that count: a ``revert`` takes back the event it names (undo);
    history is never rewritten. A revert names its target by ``of``: the
    target's id, or for an event written by hand without one its fingerprint
    (modtool.base.events); a ledger written before ids names it by ``line``, which
    still works (check names ``modtool upgrade``). Reverting an ``import``
    marker takes back its batch too: the posts whose ids follow the marker's
    (an import numbers its posts right after its marker), or for a marker
    without an id the ``posts`` post events right after it.

    An ``edit`` is a later version of the post it names by ``of`` (G-R3: a
    re-import of an edited post): the post stands where it stood, with the
    edit's text, and ``earlier`` lists the versions before it."""
    types = list(map(_TYPE, events))
    if "revert" not in types and "edit" not in types:
        return list(events), []  # nothing taken back: the common case, found without a loop in Python
    live, problems = _without_reverted(events, source) if "revert" in types else (list(events), [])
    if "edit" in types:
        live = _with_edits(live, source, problems)
    return live, problems


def _without_reverted(events: list[Event], source: str) -> tuple[list[Event], list[Problem]]:
    live: dict[int, Event] = {}  # id(event) -> event, in ledger order
    by_id: dict[int, Event] = {}
    by_line: dict[int | None, Event] = {}
    prints: dict[int, str] = {}  # id(event) -> fingerprint, for the id-less events a revert looked at
    problems = []
    position: dict[int, int] | None = None  # id(event) -> index in events, made when a legacy import is reverted
    posts_by_id: dict[int, Event] | None = None
    for ev in events:
        if ev.type != "revert":
            live[id(ev)] = ev
            i = event_id(ev.data)
            if i is not None:
                by_id[i] = ev  # an id copied by hand with its event: the newest is the one an undo meant
            by_line[ev.line] = ev
            continue
        d = ev.data
        ref = d.get("of")
        target = None
        if type(ref) is int:
            target = by_id.get(ref)
        elif isinstance(ref, str):
            for e in live.values():
                if event_id(e.data) is None:
                    fp = prints.get(id(e))
                    if fp is None:
                        fp = prints[id(e)] = fingerprint(e.type, e.data)
                    if fp == ref:
                        target = e
                        break
        elif "of" not in d:
            ref = d.get("line")
            target = by_line.get(ref)
        if target is None or id(target) not in live:
            if "of" in d:
                problems.append(Problem(source, "revert 指向事件 {ref}，账本里没有这个仍然有效的事件", ev.line, ref=ref))
            else:
                problems.append(Problem(source, "revert 指向第 {line} 行，那里没有仍然有效的事件", ev.line, args={"line": ref}))
            continue
        del live[id(target)]
        if target.type == "import":
            tid = event_id(target.data)
            count = target.data.get("posts")
            count = count if isinstance(count, int) and not isinstance(count, bool) else 0
            if tid is not None:
                if posts_by_id is None:
                    posts_by_id = {event_id(e.data): e for e in events
                                   if e.type in ("post", "edit") and event_id(e.data) is not None}
                for k in range(tid + 1, tid + 1 + count):
                    member = posts_by_id.get(k)
                    if member is not None:
                        live.pop(id(member), None)
            else:
                if position is None:
                    position = {id(e): i for i, e in enumerate(events)}
                start = position[id(target)] + 1
                for member in islice(events, start, start + count):
                    if member.type != "post":
                        break  # the batch ends where its posts end (a hand edit may have removed some)
                    live.pop(id(member), None)
    return list(live.values()), problems


def _with_edits(events: list[Event], source: str, problems: list[Problem]) -> list[Event]:
    """Each ``edit`` put in its post's place (G-R3), the versions before it in ``earlier``."""
    out: list[Event | None] = []
    slot: dict = {}  # a post's reference (id or fingerprint) -> its index in out
    for ev in events:
        if ev.type == "post":
            i = event_id(ev.data)
            slot[i if i is not None else fingerprint(ev.type, ev.data)] = len(out)
            out.append(ev)
        elif ev.type == "edit":
            k = slot.get(ev.data.get("of"))
            if k is None:
                problems.append(Problem(source, "edit 指向帖子 {ref}，账本里没有这个仍然有效的帖子", ev.line, ref=ev.data.get("of")))
                continue
            old = out[k]
            earlier = list(old.data.get("earlier") or []) + [
                {f: old.data[f] for f in ("time", "edited", "body") if old.data.get(f) is not None}]
            data = {f: v for f, v in ev.data.items() if f not in ("of", "id")}
            if "id" in old.data:
                data["id"] = old.data["id"]  # the post keeps its name; the version has its own
            data["version_of"] = ev.data.get("of")
            data["version"] = event_id(ev.data)
            data["earlier"] = earlier
            data.setdefault("edited", t("重新导入时内容已改变"))  # flagged as edited even when the page shows no edit line
            out[k] = Event("post", data, ev.line)
        else:
            out.append(ev)
    return [e for e in out if e is not None]


def legacy_reverts(events: list[Event]) -> list[Event]:
    """Reverts that name their target by line (ledgers written before ids)."""
    return [e for e in events if e.type == "revert" and "of" not in e.data and "line" in e.data]
