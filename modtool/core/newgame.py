"""``modtool new``: a game folder with its ledger.

``create_roster_game`` is what every game gets unless its pack says more
(``GamePack.new_game``): the roster as given (names, accounts, aliases, a
role where the roster writes one), nothing dealt, nothing counted.

``create_game`` deals the roles a roster leaves blank from the game's role
pool (its data file's ``count`` of each role), for a pack whose game deals
so (M42). The deal is a random draw, so it is recorded as a fact together
with its seed (the ledger holds facts, never outcomes): the roster in the
ledger carries each role and ``seed`` says where a dealt one came from. Same
seed, same deal.
"""

from __future__ import annotations

import random
from pathlib import Path

from modtool import ledger
from modtool.core.gamefile import ledger_path, read_roster
from modtool.core.games import Game, load_game
from modtool.base.i18n import t
from modtool.base.problems import Problem, UserError


def read_roster_file(path: Path) -> list:
    """A roster file: YAML list of {name, account, aliases, role}, or one name per line."""
    from ruamel.yaml import YAML
    from ruamel.yaml.error import YAMLError

    try:
        text = Path(path).read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise UserError(Problem(str(path), "读不了名单文件：{name}", name=exc.__class__.__name__)) from None
    try:
        data = YAML(typ="safe").load(text)
    except YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        raise UserError(Problem(str(path), "名单不是有效的 YAML", mark.line + 1 if mark else None)) from None
    if isinstance(data, dict) and "roster" in data:
        data = data["roster"]
    if isinstance(data, str):  # one name per line
        data = [line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#")]
    if not isinstance(data, list):
        raise UserError(Problem(str(path), "名单应是角色列表（每行一个名字，或 YAML 列表）"))
    return data


def deal(game: Game, entries: list, seed: int) -> list:
    """Give every entry without a role one from the game's remaining role pool."""
    pool = [rid for rid, role in game.roles.items() for _ in range(int(role.get("count", 0)))]
    given = [e.get("role") for e in entries if isinstance(e, dict) and e.get("role")]
    if given and len(given) == len(entries):
        return entries
    for rid in given:
        if rid in pool:
            pool.remove(rid)
    missing = [e for e in entries if not (isinstance(e, dict) and e.get("role"))]
    if len(pool) != len(missing):
        raise UserError("{name} 需要 {players} 名玩家，名单有 {entries} 名", name=game.name, players=game.data.get('players'), entries=len(entries))
    random.Random(seed).shuffle(pool)
    out, it = [], iter(pool)
    for e in entries:
        if isinstance(e, dict) and e.get("role"):
            out.append(e)
        else:
            e = dict(e) if isinstance(e, dict) else {"name": e}
            e["role"] = next(it)
            out.append(e)
    return out


def _role_counts(game: Game, counts: dict) -> str:
    """「4 狼人、1 预言家」: ``counts`` by role id, in the game's role order."""
    order = list(game.roles)
    ids = sorted(counts, key=lambda r: (order.index(r) if r in order else len(order), r))
    return "、".join(f"{counts[r]} {game.role_name(r)}" for r in ids if counts[r])


def role_set_problem(game: Game, chars: list, source: str) -> Problem | None:
    """The roster's roles against the game's role set (its data file's ``count`` of each
    role, from the rule post; M42: 4 wolves, seer, witch, scapegoat, hunter, 5 villagers).
    Every role given: they must be that set; some given: none beyond it (the deal fills
    in the rest). None when they fit."""
    from collections import Counter

    want = Counter({rid: int(role.get("count", 0)) for rid, role in game.roles.items() if int(role.get("count", 0))})
    if not want:
        return None
    given = Counter(c["role"] for c in chars if c.get("role"))
    blank = sum(1 for c in chars if not c.get("role"))
    if blank == 0 and given == want:
        return None
    over = {r: n for r, n in given.items() if n > want.get(r, 0)}
    if blank and not over:
        return None
    got = _role_counts(game, given) or t("没有")
    if blank:
        got += t("，另有 {n} 名未写身份").format(n=blank)
    return Problem(source, "{name} 的身份配置是 {want}（规则帖）；名单给出的是 {got}。"
                             "确实要用自定义的身份配置开局，请加 --custom-roles（什么也没写）", name=game.name, want=_role_counts(game, want), got=got)


def header_text(game: Game, header: dict, facts_line: str, option_example: str) -> str:
    """The ledger header as YAML text: one flow line per character or seat, comments for the director."""
    import io

    from ruamel.yaml import YAML
    from ruamel.yaml.comments import CommentedMap, CommentedSeq

    y = YAML()
    y.width = 4096
    y.indent(mapping=2, sequence=4, offset=2)
    for key in ("roster", "seats"):
        if key in header:
            rows = CommentedSeq()
            for entry in header[key]:  # one line per character: easy to read and to fix by hand
                row = CommentedMap(entry)
                row.fa.set_flow_style()
                if "aliases" in row:
                    aliases = CommentedSeq(row["aliases"])
                    aliases.fa.set_flow_style()
                    row["aliases"] = aliases
                rows.append(row)
            header[key] = rows
    if "bluffs" in header:
        bluffs = CommentedSeq(header["bluffs"])
        bluffs.fa.set_flow_style()
        header["bluffs"] = bluffs
    buf = io.StringIO()
    y.dump(header, buf)
    return (
        "# " + t("modtool 账本：{name}").format(name=game.name) + "\n"
        + facts_line
        + "# " + t("可以手工编辑并加注释；modtool 追加事件时不会改动已有内容。") + "\n"
        + buf.getvalue().replace("options: {}\n", "options: {}   # " + t("覆盖 games/ 里的默认选项，{example}").format(example=option_example) + "\n")
    )


def create_roster_game(game_dir: Path, game_id: str, roster_file: Path) -> Path:
    """A ledger holding the roster as given: names, accounts, aliases (and a role
    where the roster writes one); nothing dealt, no role set or size checked."""
    game = load_game(game_id)
    path = ledger_path(game_dir)
    if path.exists():
        raise UserError(Problem(str(path), "账本已存在；不会覆盖"))
    roster, problems = read_roster(read_roster_file(roster_file), game, str(roster_file))
    if problems:
        raise UserError(problems)
    chars = [
        {"name": c.name, "account": c.account, **({"aliases": list(c.aliases)} if c.aliases else {}),
         **({"role": c.role} if c.role else {})}
        for c in roster
    ]
    header = {"game": game_id, "options": {}, "roster": chars}
    text = header_text(game, header, "# " + t("这里只记事实（帖子和导演记下的事）；结果都由重放计算。") + "\n",
                       t("例如 {option}").format(option="timezone: Asia/Shanghai"))
    Path(game_dir).mkdir(parents=True, exist_ok=True)
    ledger.write_new(path, text, [])
    return path


def create_game(game_dir: Path, game_id: str, roster_file: Path, seed: int | None, custom_roles: bool = False) -> Path:
    """``custom_roles``: the director says the roster's roles are a set of their own
    (not the rule post's): every character must have one, and any size works."""
    game = load_game(game_id)
    path = ledger_path(game_dir)
    if path.exists():
        raise UserError(Problem(str(path), "账本已存在；不会覆盖"))
    entries = read_roster_file(roster_file)
    # Normalise roles to ids first, so the deal sees what is already given.
    roster, problems = read_roster(entries, game, str(roster_file))
    if problems:
        raise UserError(problems)
    if seed is None:
        seed = random.SystemRandom().randrange(1, 2**31)
    chars = [
        {"name": c.name, "account": c.account, **({"aliases": list(c.aliases)} if c.aliases else {}),
         **({"role": c.role} if c.role else {})}
        for c in roster
    ]
    players = int(game.data.get("players", len(chars)))
    if custom_roles:  # a custom set is the director's: nothing is dealt from the rule post's pool, any size
        blank = [c["name"] for c in chars if not c.get("role")]
        if blank:
            raise UserError(Problem(str(roster_file), "自定义身份配置（--custom-roles）要在名单里写明每个角色的身份；"
                                                        "没写身份的：{names}（什么也没写）", names="、".join(blank)))
    else:
        if len(chars) != players:
            raise UserError(Problem(str(roster_file), "{name} 需要 {players} 名玩家，名单有 {chars} 名", name=game.name, players=players, chars=len(chars)))
        wrong = role_set_problem(game, chars, str(roster_file))  # the rule post's role set
        if wrong is not None:
            raise UserError(wrong)
    dealt = deal(game, chars, seed)
    header = {"game": game_id, "seed": seed, "options": {}, "roster": dealt}
    text = header_text(game, header, "# 这里只记事实（帖子、提交、导演的决定）；出局、票型、警长都由重放计算。\n",
                        '例如 close_time: "21:00"')
    Path(game_dir).mkdir(parents=True, exist_ok=True)
    ledger.write_new(path, text, [])
    return path
