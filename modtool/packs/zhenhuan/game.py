"""A 甄嬛 game folder replayed: the ledger's facts → the engine → a Board.

Nominations and votes are read from the imported vote-thread posts (ZH-R11)
as well as recorded directly; the posts stay the facts and the derived
``nominate``/``vote`` events carry the post's ledger line.
"""

from __future__ import annotations

import re

from modtool.sdk import Event, GameDir, post_of, Problem, UserError
# Who may record which choice: the ability tables live with the windows they open in.
from modtool.packs.zhenhuan import day as day_module, engine
from modtool.packs.zhenhuan.nominations import Labels, post_event, PostError
from modtool.packs.zhenhuan.windows import DAY_ABILITIES, NIGHT_ABILITIES  # noqa: F401 - also read from here
from modtool.packs.zhenhuan.windows import night_number_refusal


def seats_of(gd: GameDir) -> list[dict]:
    return [dict(s) for s in gd.header.get("seats", []) if isinstance(s, dict)]


def seat_problems(gd: GameDir) -> list[Problem]:
    """The header's seats as a hand may have left them: each a mapping whose
    ``seat`` is a whole number, the seats numbered 1 to N once each in order
    (a seat 0, a seat twice or a "5" would replay another game)."""
    raw = gd.header.get("seats", [])
    if not isinstance(raw, list):
        return [Problem(gd.source, "seats 应是座位列表（- {seat: 1, player: …, character: …}）")]
    found = []
    for i, entry in enumerate(raw, 1):
        number = entry.get("seat") if isinstance(entry, dict) else None
        if type(number) is not int or number != i:
            shown = f"文字「{number}」" if isinstance(number, str) else f"「{number}」"
            found.append(Problem(gd.source, "seats → 第 {i} 项的 seat 应是数字 {i}（座位按 1～{n_raw} 依次排列），现在是{shown}", i=i, n_raw=len(raw), shown=shown))
    return found


def events_with_posts(gd: GameDir) -> tuple[list[Event], list[Problem]]:
    from types import SimpleNamespace

    seats = [SimpleNamespace(number=s["seat"], player=str(s.get("player"))) for s in seats_of(gd)]
    players = {s.player for s in seats}
    labels = Labels.from_mapping(gd.game.data.get("vote_labels", {}))
    out: list[Event] = []
    problems: list[Problem] = []
    for ev in gd.events:
        if ev.type == "post" and ev.data.get("thread") == "vote":
            if gd.roster.by_account(str(ev.data.get("author"))) is None and str(ev.data.get("author")) not in players:
                continue  # the storyteller's own posts and other accounts: listed at import, never read as votes
            derived = post_event(post_of(ev, gd), ev.data["day"], seats, labels=labels)
            if isinstance(derived, PostError):
                if not derived.not_a_vote:
                    # A player's post that breaks the form is a fact refused, not damage.
                    problems.append(Problem(gd.source, derived.reason, ev.line, ev.data.get("floor"), refused=True))
                continue
            out.append(Event(derived.pop("type"), derived, ev.line))
        else:
            out.append(ev)
    return out, problems


def ability_problems(gd: GameDir, board, events) -> list[Problem]:
    """A choice recorded for a seat whose character has no such ability is refused with its line."""
    out = []
    for ev in events:
        table = NIGHT_ABILITIES if ev.type == "night_action" else DAY_ABILITIES if ev.type == "day_action" else None
        if table is None:
            continue
        ability = ev.data.get("ability")
        if ability not in table:
            out.append(Problem(gd.source, "未知的技能「{ability}」（可用：{table}）", ev.line, ability=ability, table='、'.join(table)))
            continue
        holders = table[ability]
        n = ev.data.get("seat")
        if holders is None or not isinstance(n, int) or not 1 <= n <= len(board.seats):
            continue
        seat = board.seat(n)
        held = {seat.character, seat.original, board.became.get(n)}
        if not held & holders:
            names = "、".join(gd.game.role_name(h) for h in sorted(holders))
            out.append(Problem(gd.source, "不受理：{n}号（{role_name}）没有这个技能；{ability} 属于{names}", ev.line, refused=True, n=n, role_name=gd.game.role_name(seat.character), ability=ability, names=names))
        elif ev.type == "night_action" and isinstance(ev.data.get("night"), int):
            # A window the night's number alone rules out (ZH-R6, R8, R13), written by hand.

            character = next(c for c in (seat.character, board.became.get(n), seat.original) if c in holders)
            why = night_number_refusal(gd.game, character, ability, ev.data["night"], board.options)
            if why:
                # Refused, not damage: the entry stays a fact and the rest of the game goes on.
                out.append(Problem(gd.source, "不受理：{n}号第 {data} 夜的「{ability}」：{why}", ev.line, refused=True, n=n, data=ev.data['night'], ability=ability, why=why))
    return out


def replay(gd: GameDir):
    """(board, problems): the engine's grimoire and every problem with its ledger line."""
    bad_seats = seat_problems(gd)
    if bad_seats:  # the engine cannot seat such a table: named here, never replayed into another game
        raise UserError(bad_seats)

    events, problems = events_with_posts(gd)
    options = dict(gd.options)
    options.setdefault("bluffs", gd.header.get("bluffs", []))
    board = engine.replay(seats_of(gd), events, options, gd.header.get("seed"), game_data=gd.game.data)
    problems += board_problems(gd, board)
    if board.phase == "night" and board.preview is not None:
        # Tonight's choices are checked as they arrive: the preview resolves the night so far.
        seen = {(p.line, p.message) for p in problems}
        problems += [p for p in board_problems(gd, board.preview) if (p.line, p.message) not in seen and p.line is not None]
    if board.phase == "day":
        problems += _open_day_problems(gd, board, problems)
    problems += ability_problems(gd, board, events)
    problems += reference_problems(gd, board, events)
    return board, problems


_SEAT_FIELDS = {"night_action": ("seat",), "day_action": ("seat",), "info": ("seat",),
                "nominate": ("nominator", "nominee"), "vote": ("voter", "nominee")}
_KEY = re.compile(r"(night|day)(\d+)/")
_FALSE_INFO = re.compile(r"night(\d+)/false_info/seat(\d+)$")


def reference_problems(gd: GameDir, board, events) -> list[Problem]:
    """What a hand-written event names must exist, or replay would silently pass it by (ledger
    damage, with its line): a seat of the table (ZH-R1), a night or day the game has reached
    (ZH-R13 numbering: day N follows night N), and for an answer, a question the replay asked."""
    n_seats = len(board.seats)
    night = board.number if board.phase in ("night", "day", "over") else 0
    day = board.number - (1 if board.phase == "night" else 0)
    out = []

    def bad(ev, msg):
        out.append(Problem(gd.source, msg, ev.line))

    for ev in events:
        d = ev.data
        for name in _SEAT_FIELDS.get(ev.type, ()):
            n = d.get(name)
            if isinstance(n, int) and not isinstance(n, bool) and not 1 <= n <= n_seats:
                bad(ev, f"{ev.type} 事件的 {name}：没有 {n}号座位（座位是 1～{n_seats}号）")
        for key, reached, word in (("night", night, "夜"), ("day", day, "天")):
            n = d.get(key)
            if ev.type in _SEAT_FIELDS and isinstance(n, int) and not isinstance(n, bool) and n > reached:
                now = f"现在是第 {board.number} {'夜' if board.phase == 'night' else '天'}"
                bad(ev, f"{ev.type} 事件的 {key}：游戏还没有到第 {n} {word}（{now}）")
        if ev.type == "answer" and isinstance(d.get("key"), str):
            key = d["key"]
            m, fi = _KEY.match(key), _FALSE_INFO.match(key)
            if m and int(m.group(2)) > (night if m.group(1) == "night" else day):
                bad(ev, f"answer 事件的 key「{key}」：游戏还没有到这个阶段（现在是第 {board.number} {'夜' if board.phase == 'night' else '天'}）")
            elif key not in board.keys_seen and not (fi and 1 <= int(fi.group(2)) <= n_seats):
                bad(ev, f"answer 事件的 key「{key}」：工具没有问过这个问题（待回答的问题见 modtool status）")
    return out


def board_problems(gd: GameDir, board) -> list[Problem]:
    """The engine's problems: refused submissions, except the lines it found damaged."""
    damaged = set(board.damaged)
    return [Problem(gd.source, msg, line, refused=(line, msg) not in damaged) for line, msg in board.problems]


def today_report(gd: GameDir, board):
    """Today's nominations, votes and day abilities judged so far, on a copy of the board (ZH-R10, R11)."""
    import copy

    g = copy.deepcopy(board)
    g.preview = None
    roles = gd.game.data.get("roles")
    rules = day_module.DayRules.from_roles(roles) if isinstance(roles, dict) else None
    actions = [ev for d in sorted(g.day_actions) for ev in g.day_actions[d]]
    return day_module.day_report(g, board.number, engine._dicts(g.nominations.get(board.number, [])),
                                 engine._dicts(g.votes.get(board.number, [])), engine._dicts(actions), rules)


def _open_day_problems(gd: GameDir, board, known: list[Problem]) -> list[Problem]:
    """Today's nominations, votes and day abilities checked as they arrive (ZH-R10, R11), not only at dusk."""
    rep = today_report(gd, board)
    seen = {(p.line, p.message) for p in known}
    out = []
    for inv in rep.invalid:
        line = inv.event.get("line") if isinstance(inv.event, dict) else None
        if (line, inv.reason) not in seen:
            out.append(Problem(gd.source, inv.reason, line, refused=True))  # ZH-R10, R11: a fact refused
    return out


def replaced_choice(gd: GameDir, board, line: int | None) -> dict | None:
    """G-R1: the earlier valid submission that the one at ``line`` replaced (its data), or None."""
    if line is None:
        return None
    if board.phase == "night" and board.preview is not None:
        old = board.preview.replaces.get(line)
        return dict(old.data) if old is not None else None
    if board.phase != "day":
        return None
    rep = today_report(gd, board)
    old = rep.replaced.get(line)
    return {k: v for k, v in old.items() if k != "line"} if old is not None else None
