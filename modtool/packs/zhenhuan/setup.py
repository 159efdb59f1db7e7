"""Setting up a 血染甄嬛传 game: the composition table, the deal, the night order.

Pure functions over the game data of ``games/zhenhuan.yaml`` (a ``Game`` from
``modtool.core.games.load_game``); nothing here reads or writes files.

- ``composition(game, n, in_play)``: how many townsfolk/outsiders/minions/demons
  (and travellers) a game of ``n`` players has, modifiers applied (ZH-R1).
- ``deal(game, players, seed, require, board)``: a deterministic deal from the
  seed: characters, seating, the demon's bluffs and the storyteller's warnings.
  ``Setup.to_header()`` is what goes into the ledger header.
- ``night_order(game, first_night, n_players, in_play)``: the wake order (ZH-R13).

Determinism: one ``random.Random(seed)`` is used, always in this order: the
demon, the minions, the townsfolk, the outsiders (each drawn from the candidates
sorted by role id, so reordering the YAML does not change a deal), then the
players are shuffled into seats, then the characters are shuffled onto the
seats, then the bluffs are drawn. Changing this order changes every recorded
deal: don't.
"""

from __future__ import annotations

import random
import unicodedata
from dataclasses import dataclass, field

from modtool.sdk import fold_name, Game, UserError

CATEGORIES = ("townsfolk", "outsider", "minion", "demon")
TRAVELLER = "traveller"
_CAT_ZH = {"townsfolk": "村民", "outsider": "外来者", "minion": "爪牙", "demon": "恶魔", TRAVELLER: "旅行者"}


# --------------------------------------------------------------------------- data helpers


def _setup(game: Game) -> dict:
    return game.data.get("setup", {})


def player_range(game: Game) -> tuple[int, int]:
    p = game.data.get("players", {})
    if isinstance(p, dict):
        return int(p.get("min", 5)), int(p.get("max", 20))
    return int(p), int(p)


def never_dealt(game: Game) -> set[str]:
    out = set(_setup(game).get("never_dealt", []))
    out.update(rid for rid, r in game.roles.items() if r.get("created"))
    return out


def dealable(game: Game, category: str) -> list[str]:
    """Role ids of a category that may be dealt, sorted by id (the draw order)."""
    barred = never_dealt(game)
    return sorted(rid for rid, r in game.roles.items() if r.get("category") == category and rid not in barred)


def _fold(s: str) -> str:
    return unicodedata.normalize("NFKC", str(s)).strip().casefold()


def resolve_role(game: Game, name: str) -> str:
    """A role id from an id, its Chinese name or an alias (width-folded); UserError if unknown."""
    key = _fold(name)
    for rid, r in game.roles.items():
        if key == _fold(rid) or key == _fold(r.get("name", "")) or key in {_fold(a) for a in r.get("aliases", [])}:
            return rid
    known = "、".join(r.get("name", rid) for rid, r in game.roles.items())
    raise UserError("未知的角色「{name}」；{game}的角色有：{known}", name=name, game=game.name, known=known)


def _modifier_ids(game: Game) -> dict[str, dict]:
    return dict(_setup(game).get("modifiers", {}))


# --------------------------------------------------------------------------- composition (ZH-R1)


def composition(game: Game, n_players: int, in_play_modifiers=()) -> dict[str, int]:
    """Category counts for ``n_players`` (ZH-R1).

    ``in_play_modifiers``: role ids in play; those listed under
    ``setup.modifiers`` (苏培盛, 太上皇) change the counts and stack; any other
    id is ignored, so the whole list of dealt characters may be passed.
    Keys: townsfolk, outsider, minion, demon, traveller (0 up to 15 players).
    """
    lo, hi = player_range(game)
    if isinstance(n_players, bool) or not isinstance(n_players, int) or not lo <= n_players <= hi:
        raise UserError("{name}需要 {lo}–{hi} 名玩家，现在是 {n_players} 名", name=game.name, lo=lo, hi=hi, n_players=n_players)
    st = _setup(game)
    table = {int(k): v for k, v in st.get("table", {}).items()}
    top = max(table)
    row = table[n_players] if n_players in table else table[int(st.get("above_table", {}).get("use", top))]
    counts = dict(zip(CATEGORIES, (int(x) for x in row)))
    counts[TRAVELLER] = n_players - top if n_players > top else 0
    mods = _modifier_ids(game)
    for rid in in_play_modifiers:
        for cat, delta in mods.get(rid, {}).items():
            counts[cat] += int(delta)
    for cat in CATEGORIES:
        if counts[cat] < 0:
            raise UserError("{n_players} 人局加上{modifiers}后{category}数量为负，无法配置", n_players=n_players, modifiers='、'.join((game.role_name(r) for r in in_play_modifiers if r in mods)), category=_CAT_ZH[cat])
    return counts


# --------------------------------------------------------------------------- the deal


@dataclass
class Setup:
    seed: int
    seats: list[dict]  # [{seat, player, character}], seat 1..N clockwise
    bluffs: list[str] = field(default_factory=list)  # role ids; empty below info_at_players (ZH-R1)
    warnings: list[str] = field(default_factory=list)  # Chinese, for the storyteller
    warning_ids: list[str] = field(default_factory=list)  # ids from known_setup_warnings, same order
    board: str | None = None
    composition: dict[str, int] = field(default_factory=dict)

    def characters(self) -> list[str]:
        return [s["character"] for s in self.seats]

    def seat_of(self, character: str) -> int | None:
        return next((s["seat"] for s in self.seats if s["character"] == character), None)

    def to_header(self) -> dict:
        """The ledger header facts (see modtool.packs.zhenhuan.events): seed, seats, bluffs, board (only if a preset)."""
        header: dict = {
            "seed": self.seed,
            "seats": [{"seat": s["seat"], "player": s["player"], "character": s["character"]} for s in self.seats],
            "bluffs": list(self.bluffs),
        }
        if self.board is not None:
            header["board"] = self.board
        return header


def _check_players(game: Game, players) -> list[str]:
    lo, hi = player_range(game)
    names = [str(p).strip() for p in players]
    if len(names) < lo:
        raise UserError("玩家太少：{name}至少需要 {lo} 名玩家，现在只有 {n_names} 名", name=game.name, lo=lo, n_names=len(names))
    if len(names) > hi:
        raise UserError("玩家太多：{name}最多 {hi} 名玩家，现在有 {n_names} 名", name=game.name, hi=hi, n_names=len(names))
    if any(not n for n in names):
        raise UserError("玩家名单里有空的名字")
    # A vote or a nomination names a player as the roster's names are compared (modtool.base.text.fold_name):
    # two names equal after folding would make it unreadable (ZH-R11, as M42-R5).
    seen: dict[str, str] = {}
    dup = [f"「{seen[k]}」和「{n}」" if seen[k] != n else f"「{n}」"
           for n in names if (k := fold_name(n)) in seen or seen.setdefault(k, n) is None]
    if dup:
        raise UserError("玩家名单里有重复的名字（比较时不分全半角、忽略不可见字符）：{fromkeys}", fromkeys='、'.join(dict.fromkeys(dup)))
    return names


def _resolve_required(game: Game, require) -> list[str]:
    out: list[str] = []
    barred = never_dealt(game)
    for name in require or ():
        rid = resolve_role(game, name)
        if rid in barred:
            raise UserError("「{role_name}」是游戏中产生的角色，开局不能发（ZH-R1）", role_name=game.role_name(rid))
        if rid in out:
            raise UserError("指定角色「{role_name}」重复了", role_name=game.role_name(rid))
        out.append(rid)
    demons = [r for r in out if game.roles[r]["category"] == "demon"]
    if len(demons) > 1:
        raise UserError("只能有一个恶魔，却指定了{value}", value='、'.join((game.role_name(r) for r in demons)))
    return out


def _draw_roles(game: Game, n: int, req: list[str], rng: random.Random) -> list[str]:
    """Demon, minions, townsfolk, outsiders (in that order), honouring ``req`` and the modifiers."""
    mods = _modifier_ids(game)
    base = composition(game, n)
    by_cat = {c: [r for r in req if game.roles[r]["category"] == c] for c in CATEGORIES}
    need_t, need_o = len(by_cat["townsfolk"]), len(by_cat["outsider"])

    def room(extra_mods: list[str]) -> tuple[int, int]:
        c = composition(game, n, extra_mods)
        return c["townsfolk"], c["outsider"]

    chosen: list[str] = []

    def pick(cat: str, want: int) -> None:
        fixed = by_cat[cat]
        if len(fixed) > want:
            raise UserError("{n} 人局只有 {want} 个{CAT_ZH}，却指定了 {n_fixed} 个：{value}", n=n, want=want, CAT_ZH=_CAT_ZH[cat], n_fixed=len(fixed), value='、'.join((game.role_name(r) for r in fixed)))
        chosen.extend(fixed)
        for _ in range(want - len(fixed)):
            pool = [r for r in dealable(game, cat) if r not in chosen]
            # A random modifier must not squeeze out required townsfolk.
            ok = [r for r in pool if r not in mods or room(chosen + [r])[0] >= need_t]
            if not ok:
                raise UserError("无法满足指定角色：没有可用的{CAT_ZH}", CAT_ZH=_CAT_ZH[cat])
            chosen.append(rng.choice(ok))

    pick("demon", base["demon"])
    pick("minion", base["minion"])
    comp = composition(game, n, chosen)
    if need_o > comp["outsider"]:
        hint = "；可同时指定苏培盛或太上皇（外来者+1）" if not any(r in mods for r in chosen) else ""
        raise UserError("{n} 人局（当前配置）只有 {comp} 个外来者，却指定了 {need_o} 个{hint}", n=n, comp=comp['outsider'], need_o=need_o, hint=hint)
    for cat in ("townsfolk", "outsider"):
        want = comp[cat]
        if len(by_cat[cat]) > want:
            raise UserError("{n} 人局（含{value}）只有 {want} 个{CAT_ZH}，却指定了 {n_by_cat} 个：{value2}", n=n, value='、'.join((game.role_name(r) for r in chosen if r in mods)) or '无修正', want=want, CAT_ZH=_CAT_ZH[cat], n_by_cat=len(by_cat[cat]), value2='、'.join((game.role_name(r) for r in by_cat[cat])))
        if want > len(dealable(game, cat)):
            raise UserError("需要 {want} 个{CAT_ZH}，剧本只有 {n_dealable} 个", want=want, CAT_ZH=_CAT_ZH[cat], n_dealable=len(dealable(game, cat)))
        pick(cat, want)
    return chosen


def _board_roles(game: Game, n: int, board: str, req: list[str]) -> list[str]:
    boards = game.data.get("boards", {})
    if board not in boards:
        raise UserError("未知的板子「{board}」；可用的有：{boards}", board=board, boards='、'.join(boards))
    b = boards[board]
    if int(b["players"]) != n:
        raise UserError("板子「{board}」是 {b} 人局，现在有 {n} 名玩家", board=board, b=b['players'], n=n)
    roles = [resolve_role(game, r) for r in b["roles"]]
    missing = [r for r in req if r not in roles]
    if missing:
        raise UserError("板子「{board}」里没有指定的角色：{value}", board=board, value='、'.join((game.role_name(r) for r in missing)))
    check_board(game, board)
    return roles


def check_board(game: Game, board: str) -> None:
    """A preset board must match ZH-R1 for its player count with its own modifiers."""
    b = game.data["boards"][board]
    roles = list(b["roles"])
    n = int(b["players"])
    bad = [r for r in roles if r not in game.roles or r in never_dealt(game)]
    if bad or len(set(roles)) != len(roles):
        raise UserError("板子「{board}」的角色有误：{value}", board=board, value='、'.join(bad) or '有重复')
    off = composition_mismatch(game, roles, n)
    if off:
        raise UserError("板子「{board}」配置不符合 {off}", board=board, off=off)


def composition_mismatch(game: Game, characters: list[str], n: int | None = None) -> str | None:
    """ZH-R1: "N 人局（ZH-R1）：需要 …，实际 …" when the counts of each kind are off the
    table for the player count (modifiers in play applied); None when they fit."""
    n = len(characters) if n is None else n
    comp = composition(game, n, characters)
    got = {c: sum(1 for r in characters if game.roles.get(r, {}).get("category") == c) for c in CATEGORIES}
    want = {c: comp[c] for c in CATEGORIES}
    if got == want:
        return None
    return (f"{n} 人局（ZH-R1）：需要 " + "、".join(f"{_CAT_ZH[c]}{want[c]}" for c in CATEGORIES)
            + "，实际 " + "、".join(f"{_CAT_ZH[c]}{got[c]}" for c in CATEGORIES))


def _adjacent(seats: list[dict], a: str, b: str) -> bool:
    n = len(seats)
    for i, s in enumerate(seats):
        if s["character"] == a and b in (seats[(i - 1) % n]["character"], seats[(i + 1) % n]["character"]):
            return True
    return False


def setup_warnings(game: Game, seats: list[dict], options: dict | None = None) -> list[tuple[str, str]]:
    """(id, Chinese text) for every ``known_setup_warnings`` entry whose conditions hold."""
    opts = game.options(options)
    in_play = {s["character"] for s in seats}
    seat = {}
    for s in seats:
        seat.setdefault(s["character"], s["seat"])
    names = {rid: r.get("name", rid) for rid, r in game.roles.items()}
    out = []
    for w in game.data.get("known_setup_warnings", []):
        cond = w.get("when", {})
        if not all(r in in_play for r in cond.get("in_play", [])):
            continue
        if any(r in in_play for r in cond.get("not_in_play", [])):
            continue
        if "neighbours" in cond and not _adjacent(seats, *cond["neighbours"]):
            continue
        if any(opts.get(k) != v for k, v in cond.get("option", {}).items()):
            continue
        if len(seats) < int(cond.get("min_players", 0)):
            continue
        try:
            text = w["text"].format(seat=seat, name=names)
        except (KeyError, IndexError, ValueError):
            text = w["text"]
        out.append((w["id"], text))
    return out


def deal(game: Game, players: list[str], seed: int, require=(), board: str | None = None,
         options: dict | None = None) -> Setup:
    """Deal characters and seats for ``players`` from ``seed`` (ZH-R1).

    ``require``: role ids, Chinese names or aliases that must be in play; a
    required 苏培盛/太上皇 changes the category counts. ``board``: a preset from
    ``boards`` (its characters exactly; ``require`` must be among them).
    ``options``: the ledger's option overrides. Never deals 宠妃/女皇; exactly
    one demon; seats beyond 15 are travellers. UserError (Chinese) when the
    player count, a role or the requirement is impossible.
    """
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise UserError("种子必须是整数，现在是「{seed}」", seed=seed)
    names = _check_players(game, players)
    n = len(names)
    opts = game.options(options)
    req = _resolve_required(game, require)
    if any(game.roles[r].get("category") not in CATEGORIES for r in req):
        raise UserError("旅行者不能指定，超过 15 人时自动产生")
    rng = random.Random(seed)
    roles = _board_roles(game, n, board, req) if board is not None else _draw_roles(game, n, req, rng)
    comp = composition(game, n, roles)
    characters = list(roles) + [TRAVELLER] * comp[TRAVELLER]

    order = list(names)
    rng.shuffle(order)
    seats: list[dict] = []
    for attempt in range(200):
        shuffled = list(characters)
        rng.shuffle(shuffled)
        seats = [{"seat": i + 1, "player": p, "character": c} for i, (p, c) in enumerate(zip(order, shuffled))]
        if not (opts.get("avoid_huanbi_next_to_guojunwang") and _adjacent(seats, "huanbi", "guojunwang")):
            break

    bluffs = _draw_bluffs(game, n, characters, rng, opts)
    found = setup_warnings(game, seats, options)
    return Setup(seed=seed, seats=seats, bluffs=bluffs, warnings=[t for _, t in found],
                 warning_ids=[i for i, _ in found], board=board, composition=comp)


def _draw_bluffs(game: Game, n: int, characters: list[str], rng: random.Random, opts: dict) -> list[str]:
    """ZH-R1: with 7+ players the demon learns 3 good characters not in play."""
    st = _setup(game)
    if n < int(st.get("info_at_players", 7)):
        return []
    cats = opts.get("bluffs_from", ["townsfolk", "outsider"])
    pool = sorted(r for c in cats for r in dealable(game, c) if r not in characters)
    return rng.sample(pool, min(int(st.get("bluff_count", 3)), len(pool)))


def header_warnings(game: Game, header: dict) -> list[str]:
    """``check``'s warnings on a ledger header's grimoire: its composition off the ZH-R1 table."""
    chars = [s.get("character") for s in header.get("seats") or [] if isinstance(s, dict)]
    if not chars:
        return []
    try:
        off = composition_mismatch(game, chars)
    except UserError as exc:
        return [f"seats：{exc.problems[0].message}（ZH-R1）"]
    return [f"seats：配置不符合人数表：{off}"] if off else []


# --------------------------------------------------------------------------- a roster's own grimoire


def _given(value) -> bool:
    return value is not None and value != ""


def fixed(game: Game, entries: list[dict], seed: int, require=(), options: dict | None = None) -> Setup:
    """A roster that gives ``role:`` and/or ``seat:`` for its players (ZH-R1), honoured as written.

    Roles for every player: those characters, never re-dealt (the seed only draws the
    bluffs). Seats for every player: each sits there; without seats the roster order is
    the clockwise order. Seats without roles: the characters are dealt from the seed
    as ``deal`` does, onto the seats the players hold. A roster giving roles or seats
    for only some players, a role not in the script or never dealt (宠妃, 女皇), a
    character twice, not exactly one demon, two players on a seat or a seat out of range
    is refused (UserError, Chinese, naming the entry). A composition off the ZH-R1
    table is a warning: the storyteller may mean it.
    """
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise UserError("种子必须是整数，现在是「{seed}」", seed=seed)
    names = _check_players(game, [e.get("name") for e in entries])
    n = len(names)
    where = [f"名单第 {i} 个玩家（{name}）" for i, name in enumerate(names, 1)]
    opts = game.options(options)
    for key, zh in (("role", "身份 role"), ("seat", "座位 seat")):
        marks = [_given(e.get(key)) for e in entries]
        if any(marks) and not all(marks):
            missing = "、".join(nm for nm, m in zip(names, marks) if not m)
            raise UserError("名单里只有部分玩家写了{zh}：没写的有 {missing}。要么全部写出（固定的魔典），要么都不写（由种子发放）", zh=zh, missing=missing)
    order = list(names)
    if _given(entries[0].get("seat")):
        taken: dict[int, str] = {}
        for w, name, e in zip(where, names, entries):
            seat = e.get("seat")
            if isinstance(seat, str) and seat.strip().rstrip("号").isdigit():
                seat = int(seat.strip().rstrip("号"))
            if isinstance(seat, bool) or not isinstance(seat, int) or not 1 <= seat <= n:
                raise UserError("{w}的座位「{get}」不是 1～{n} 号之一", w=w, get=e.get('seat'), n=n)
            if seat in taken:
                raise UserError("{seat} 号座位上有两名玩家：{taken}、{name}", seat=seat, taken=taken[seat], name=name)
            taken[seat] = name
        order = [taken[k] for k in sorted(taken)]
    rng = random.Random(seed)
    if not _given(entries[0].get("role")):  # seats only: deal the characters onto them
        dealt = deal(game, names, seed, require=require, options=options)
        for s, player in zip(dealt.seats, order):
            s["player"] = player
        return dealt
    barred = never_dealt(game)
    role_of: dict[str, str] = {}
    seen: dict[str, str] = {}
    for w, name, e in zip(where, names, entries):
        label = str(e.get("role")).strip()
        if fold_name(label).casefold() in ("旅行者", TRAVELLER):
            role_of[name] = TRAVELLER
            continue
        try:
            rid = resolve_role(game, label)
        except UserError:
            raise UserError("{w}：剧本里没有角色「{label}」", w=w, label=label) from None
        if rid in barred:
            raise UserError("{w}：「{role_name}」是游戏中产生的角色，开局不能发（ZH-R1）", w=w, role_name=game.role_name(rid))
        if rid in seen:
            raise UserError("角色「{role_name}」同时给了 {seen} 和 {name}：每个角色只有一个", role_name=game.role_name(rid), seen=seen[rid], name=name)
        seen[rid] = name
        role_of[name] = rid
    demons = [r for r in role_of.values() if game.roles.get(r, {}).get("category") == "demon"]
    if len(demons) != 1:
        raise UserError("魔典里必须恰好有一个恶魔（ZH-R1），名单里有 {n} 个：{names}" if demons else
                        "魔典里必须恰好有一个恶魔（ZH-R1），名单里有 {n} 个", n=len(demons),
                        names="、".join(game.role_name(r) for r in demons))
    missing = [r for r in _resolve_required(game, require) if r not in role_of.values()]
    if missing:
        raise UserError("名单写定的魔典里没有指定的角色：{value}", value='、'.join((game.role_name(r) for r in missing)))
    characters = [role_of[p] for p in order]
    seats = [{"seat": i, "player": p, "character": c} for i, (p, c) in enumerate(zip(order, characters), 1)]
    bluffs = _draw_bluffs(game, n, characters, rng, opts)
    found = setup_warnings(game, seats, options)
    warnings, ids = [t for _, t in found], [i for i, _ in found]
    off = composition_mismatch(game, characters, n)
    if off:
        warnings.append(f"名单写定的配置不符合人数表：{off}")
        ids.append("composition_off_table")
    return Setup(seed=seed, seats=seats, bluffs=bluffs, warnings=warnings, warning_ids=ids, board=None,
                 composition=composition(game, n, characters))


# --------------------------------------------------------------------------- night order (ZH-R13)


def night_order(game: Game, first_night: bool, n_players: int | None = None, in_play=None) -> list[str]:
    """Step ids in wake order: role ids and the pseudo-steps of ``night_steps``.

    ``first_night``: night 1, else any later night. ``n_players`` drops steps
    with a larger ``min_players`` (minion/demon info below 7). ``in_play``: if
    given, role steps (and pseudo-steps tied to a ``role``) only for those roles.
    Ties keep the YAML order (the demons share one number).
    """
    key = "first_night" if first_night else "other_nights"
    steps: list[tuple[float, int, str]] = []
    idx = 0
    for s in game.data.get("night_steps", []):
        idx += 1
        if s.get(key) is None:
            continue
        if n_players is not None and n_players < int(s.get("min_players", 0)):
            continue
        if in_play is not None and s.get("role") and s["role"] not in in_play:
            continue
        steps.append((s[key], idx, s["id"]))
    for rid, r in game.roles.items():
        idx += 1
        if r.get(key) is None or (in_play is not None and rid not in in_play):
            continue
        steps.append((r[key], idx, rid))
    return [sid for _, _, sid in sorted(steps)]
