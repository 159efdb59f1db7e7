"""The golden cases (tests/support/golden.py): every command, over every example game.

Written out here, not read from the command tree, so that a command a
refactor loses leaves its stored file without a case (tests/test_golden.py
checks that every stored file has one) instead of quietly dropping its test.
"""

from __future__ import annotations

from datetime import datetime

from tests.support.golden import CST, Case, Script, unique

# --- help ---------------------------------------------------------------------------------

CORE_COMMANDS = ("new", "check", "import", "tally", "chart", "announce", "act", "advance", "status",
                 "corrected", "undo", "upgrade", "restore", "serve")
OWN_COMMANDS = {
    "m42": ("card", "withdraw", "cards", "decide", "substitute", "assistant", "schedule", "flags", "lurking",
            "waive", "speedup", "close", "open", "proxy"),
    "zhenhuan": ("night", "grimoire", "info", "answer", "nominate", "vote"),
    "mafia": ("replace", "death", "start-day", "deadline", "alias", "host", "timezone", "standing", "lynch"),
}
# A command of another game, asked for in this game's folder: refused, naming its games.
FOREIGN = {"m42": ("deadline", "grimoire"), "zhenhuan": ("card", "replace"), "mafia": ("card", "night")}
EXAMPLE_OF = {"m42": "examples/m42", "zhenhuan": "examples/zhenhuan", "mafia": "examples/mafia"}
LANGUAGES = {"en": (("LANGUAGE", "en"),), "zh": ()}  # the suite's locale is Chinese (tests/conftest.py)


def help_cases() -> list[Case]:
    cases: list[Case] = []
    for lang, env in LANGUAGES.items():
        where = f"help/{lang}"
        cases += [Case(where, ("--help",), env), Case(where, (), env), Case(where, ("--version",), env)]
        cases += [Case(where, (command, "--help"), env) for command in CORE_COMMANDS]
        cases += [Case(where, ("new", "--game", game, "--help"), env) for game in OWN_COMMANDS]
        cases.append(Case(where, ("no-such-command",), env))
    # A pack's own command speaks its game's language in every locale (modtool.cli.language):
    # asked for in an English one, the Chinese games' commands answer in Chinese.
    cases += [Case("help/en", (command, "--help"), LANGUAGES["en"])
              for own in OWN_COMMANDS.values() for command in own]
    # In a game's folder: the list of commands; a shared command's help as that game offers it
    # (mafia's in English, with only the options it reads; the others' are the Chinese ones above,
    # but for ``new``); another game's command, refused naming its games.
    for game, folder in EXAMPLE_OF.items():
        where = f"help/{game}"
        cases.append(Case(where, ("--help", folder)))
        shared = CORE_COMMANDS if game == "mafia" else ("new",)
        cases += [Case(where, (command, folder, "--help")) for command in shared]
        cases += [Case(where, (command, folder, "--help")) for command in FOREIGN[game]]
        cases += [Case(where, (command, folder)) for command in FOREIGN[game]]
    return unique(cases)


# --- reading commands, per game -----------------------------------------------------------


def both(where: str, *argv) -> list[Case]:
    """The command as text and with ``--json``."""
    argv = tuple(str(a) for a in argv)
    return [Case(where, argv), Case(where, (*argv, "--json"))]


M42_DAY_POSTS = ("vote", "day-start", "cards", "speed", "schedule")
M42_NIGHT_POSTS = ("seer", "wolves", "witch")
M42_OTHER_POSTS = ("succession", "end", "roles", "card-notice", "hunter", "sheriff")
M42_NOW_POSTS = ("hunter", "sheriff")  # for a death still waiting for them: none in a game at rest (see SCRIPTS)


def m42_cases(game: str, days: int, nights: int, floor: tuple[int, int], at: tuple[int, str],
              character: str, md: bool = True) -> list[Case]:
    """Every reading command of an M42 game with ``days`` days and ``nights`` nights;
    ``floor``/``at``: a day and a floor or time to tally up to; ``character``: one for ``roles``;
    ``md``: each post also in Markdown (m42-full's and m42-discipline's are in their expected/,
    checked by their own tests)."""
    d = f"examples/{game}"
    cases = both(game, "status", d) + both(game, "check", d) + both(game, "tally", d)
    for day in range(1, days + 1):
        cases += both(game, "tally", d, "--day", day)
    cases += both(game, "tally", d, "--day", floor[0], "--floor", floor[1])
    cases += both(game, "tally", d, "--day", at[0], "--at", at[1])
    cases.append(Case(game, ("tally", d, "--day", str(days + 1))))  # a day the ledger does not have
    for kind in M42_DAY_POSTS:
        cases += [Case(game, ("announce", d, kind, "--day", str(day))) for day in range(1, days + 1)]
        cases += [Case(game, ("announce", d, kind, "--day", str(days), "--format", "md"))] if md else []
    for kind in M42_NIGHT_POSTS:
        cases += [Case(game, ("announce", d, kind, "--night", str(n))) for n in range(1, nights + 1)]
        cases += [Case(game, ("announce", d, kind, "--night", str(nights), "--format", "md"))] if md else []
    for kind in M42_OTHER_POSTS:
        cases.append(Case(game, ("announce", d, kind)))
        if md and kind not in M42_NOW_POSTS:
            cases.append(Case(game, ("announce", d, kind, "--format", "md")))
    cases += [Case(game, ("announce", d, "roles", "--character", character)),
              Case(game, ("announce", d, "card-notice", "--card", "1")),
              Case(game, ("announce", d, "vote", "--day", str(days), "--image")),
              Case(game, ("announce", d, "vote", "--day", str(days), "--image-url", "https://example.org/vote.png")),
              Case(game, ("announce", d, "vote", "--day", str(days), "--title", "{game} 第{day}天 {purpose}")),
              Case(game, ("announce", d, "no-such-kind"))]
    cases += both(game, "cards", d) + both(game, "lurking", d) + both(game, "flags", d) + both(game, "schedule", d)
    for day in range(1, days + 1):
        cases += [Case(game, ("schedule", d, "--day", str(day))), Case(game, ("flags", d, "--day", str(day)))]
    cases += both(game, "schedule", d, "--day", 1)[1:] + both(game, "flags", d, "--day", 1)[1:]
    return cases


def zhenhuan_cases() -> list[Case]:
    game, d = "zhenhuan", "examples/zhenhuan"
    cases = both(game, "status", d) + both(game, "check", d)
    cases.append(Case(game, ("tally", d, "--day", "1")))  # 甄嬛 has no tally: refused, naming the games that do
    day_posts, night_posts = ("nominations", "execution"), ("dawn", "private", "notes")
    for day in range(1, 5):
        cases += [Case(game, ("announce", d, kind, "--day", str(day))) for kind in day_posts]
    for night in range(1, 5):
        cases += [Case(game, ("announce", d, kind, "--night", str(night))) for kind in night_posts]
    cases += [Case(game, ("announce", d, kind, "--day", "4", "--format", "md")) for kind in day_posts]
    cases += [Case(game, ("announce", d, kind, "--night", "4", "--format", "md")) for kind in night_posts]
    cases += [Case(game, ("announce", d, "end")), Case(game, ("announce", d, "end", "--format", "md")),
              Case(game, ("announce", d, "private", "--night", "1", "--seat", "3")),
              Case(game, ("announce", d, "vote", "--day", "1"))]  # another game's kind
    cases += both(game, "night", d)
    cases += [Case(game, ("grimoire", d, "-o", "grimoire.html"), outputs=("grimoire.html",)),
              Case(game, ("grimoire", d, "--public", "-o", "grimoire.html"), outputs=("grimoire.html",))]
    return cases


def mafia_cases() -> list[Case]:
    game, d = "mafia", "examples/mafia"
    cases = both(game, "status", d) + both(game, "check", d) + both(game, "tally", d)
    cases += both(game, "tally", d, "--day", 1) + both(game, "tally", d, "--day", 1, "--upto-post", 5)
    cases += both(game, "tally", d, "--day", 1, "--at", "2011-05-02 16:40")
    cases.append(Case(game, ("tally", d, "--day", "2")))  # a day not started
    cases += [Case(game, ("announce", d, "vote")), Case(game, ("announce", d, "vote", "--day", "1")),
              Case(game, ("announce", d, "vote", "--day", "1", "--upto-post", "5")),
              Case(game, ("announce", d, "vote", "--day", "1", "--format", "md")),
              Case(game, ("announce", d, "vote", "--day", "1", "--image")),
              Case(game, ("announce", d, "end")),  # another game's kind
              Case(game, ("tally", d, "--day", "1", "--close", "2011-05-03 00:00"))]  # an option mafia does not read
    return cases


def mafia_1145_cases() -> list[Case]:
    """Game 1145 as examples/mafia-1145/build.sh builds it (five days, two hosts, replacements)."""
    game, d = "mafia-1145", "examples/mafia-1145"
    cases = both(game, "status", d) + both(game, "check", d)
    for day in range(1, 6):
        cases += both(game, "tally", d, "--day", day) + [Case(game, ("announce", d, "vote", "--day", str(day)))]
    cases += both(game, "tally", d, "--day", 1, "--upto-post", 284)
    cases += [Case(game, ("announce", d, "vote", "--day", "2", "--format", "md")),
              Case(game, ("announce", d, "vote", "--day", "1", "--upto-post", "150"))]
    return cases


READING = {
    "m42": unique(m42_cases("m42", 2, 1, (2, 15), (2, "2026-11-05 18:00"), "涂山红红")),
    "m42-discipline": unique(m42_cases("m42-discipline", 5, 4, (3, 10), (4, "2026-11-10 12:00"), "毛毛", md=False)),
    "m42-full": unique(m42_cases("m42-full", 5, 4, (3, 9), (1, "2026-11-17 12:00"), "翠玉鸣鸾", md=False)),
    "zhenhuan": unique(zhenhuan_cases()),
    "mafia": unique(mafia_cases()),
    "mafia-1145": unique(mafia_1145_cases()),
}


# --- writing commands, on a fresh copy ------------------------------------------------------


def _cst(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=CST)


M42 = "examples/m42"
M42_FULL = "examples/m42-full"
ZH = "examples/zhenhuan"
MAFIA = "examples/mafia"

SCRIPTS = unique([
    # Day 2 of examples/m42 is open until 21:00; the clock reads 20:00.
    Script("writes", "m42-card-cards-undo", "m42", (
        ("card", M42, "石宽", "yellow", "--reason", "情绪发言", "--floor", "12"),
        ("card", M42, "石宽", "yellow", "--reason", "情绪发言", "--floor", "12"),  # the same again: refused
        ("card", M42, "涂山雅雅", "blue", "--reason", "投票帖格式不对", "--at", "2026-11-05 20:10"),
        ("cards", M42),
        ("announce", M42, "card-notice"),
        ("withdraw", M42, "1", "--reason", "判错了"),
        ("undo", M42),
        ("cards", M42, "--json"),
    ), _cst("2026-11-05 20:00")),
    # The director's other facts, as their help shows them (some refused: nothing written, told why).
    Script("writes", "m42-facts", "m42", (
        ("proxy", M42, "东方秦兰", "白月初", "--day", "2", "--at", "2026-11-05 15:00"),
        ("proxy", M42, "涂山雅雅", "石宽", "--day", "2", "--kind", "change", "--at", "2026-11-05 16:10",
         "--note", "私信改票"),
        ("close", M42, "--day", "2", "--at", "2026-11-05 22:00", "--note", "论坛维护，延后一小时"),
        ("open", M42, "--day", "1", "--at", "2026-11-02 10:00"),
        ("substitute", M42, "石宽", "--player", "新来的小石"),
        ("assistant", M42, "白月初", "--helper", "老玩家阿白", "--games", "2"),
        ("assistant", M42, "涂山雅雅", "--helper", "红红的红", "--games", "5"),
        ("waive", M42, "东方淮竹", "--day", "2", "--rule", "b", "--reason", "已私信请假"),
        ("speedup", M42, "--day", "2"),
        ("decide", M42, "石宽", "--camp-stays"),
        ("tally", M42, "--day", "2"),
        ("schedule", M42),
        ("corrected", M42),
        ("upgrade", M42),
        ("restore", M42),
        ("status", M42),
    ), _cst("2026-11-05 20:00")),
    Script("writes", "m42-typo-refused", "m42", (
        ("card", M42, "石款", "yellow", "--reason", "情绪发言"),
        ("act", M42, "涂山红红", "check", "石宽"),  # a night's ability by day
        ("card", M42, "石宽", "purple", "--reason", "x"),
    ), _cst("2026-11-05 20:00")),
    Script("writes", "m42-import-dry-run", "m42", (
        ("import", M42, "examples/m42/dumps/day2-vote-page1.json", "examples/m42/dumps/day2-vote-page2.html",
         "--thread", "vote", "--day", "2", "--dry-run"),
        ("import", M42, "examples/m42/edited/day1-vote.txt", "--thread", "vote", "--day", "1", "--dry-run"),
        ("import", M42, "examples/m42/dumps/day1-vote.txt", "--thread", "vote", "--day", "1"),  # already in
    ), _cst("2026-11-05 20:00")),
    # Day 2 closed; night 2 kills the hunter and the sheriff: their notices, their last acts, day 3.
    Script("writes", "m42-day2-to-day3", "m42", (
        ("advance", M42, "--at", "2026-11-05 21:00"),
        ("status", M42),
        ("act", M42, "狼人", "kill", "王权富贵", "--at", "2026-11-05 21:30"),
        ("act", M42, "涂山红红", "check", "石宽", "--at", "2026-11-05 21:40"),
        ("announce", M42, "wolves"),
        ("announce", M42, "seer"),
        ("announce", M42, "witch", "--told-at", "2026-11-05 21:45"),
        ("act", M42, "涂山容容", "poison", "涂山红红", "--at", "2026-11-05 22:00"),
        ("advance", M42, "--at", "2026-11-05 22:40"),
        ("announce", M42, "wolves"),
        ("announce", M42, "hunter", "--told-at", "2026-11-05 22:45"),
        ("announce", M42, "sheriff"),
        ("act", M42, "王权富贵", "shoot", "石宽", "--at", "2026-11-05 22:50"),
        ("act", M42, "涂山红红", "successor", "白月初", "--at", "2026-11-05 22:55"),
        ("act", M42, "涂山红红", "last_words", "--text", "我是预言家，石宽是狼", "--at", "2026-11-05 23:00"),
        ("status", M42),
        ("advance", M42, "--at", "2026-11-06 10:00"),
        ("announce", M42, "day-start", "--day", "3"),
        ("announce", M42, "succession"),
        ("status", M42),
        ("undo", M42),
        ("tally", M42, "--day", "3"),
    ), _cst("2026-11-05 21:50")),
    Script("writes", "m42-full-notices", "m42-full", (
        ("announce", M42_FULL, "witch", "--night", "1", "--told-at", "2026-11-17 21:35"),
        ("announce", M42_FULL, "hunter", "--told-at", "2026-11-22 22:35"),
        ("status", M42_FULL),
    ), _cst("2026-11-17 21:35")),
    # The last six events undone: the game is back in its fourth night, whose deaths the forum has read.
    Script("writes", "zhenhuan-undo-into-night-4", "zhenhuan", (
        *((("undo", ZH),) * 6),
        ("status", ZH),
        ("night", ZH),
        ("act", ZH, "10", "kill", "9"),
        ("advance", ZH),  # changes the announced night 4 deaths: refused without --force (G-R2)
        ("advance", ZH, "--force"),
        ("nominate", ZH, "6", "2"),
        ("vote", ZH, "5", "2"),  # a dead player's vote already spent: recorded, refused (ZH-R11)
        ("announce", ZH, "nominations", "--day", "4"),
        ("advance", ZH, "--force"),
    )),
    Script("writes", "zhenhuan-new", "zhenhuan", (
        ("new", "examples/zh-new", "--game", "zhenhuan", "--roster", "examples/zhenhuan/roster.txt", "--seed", "24",
         "--require", "皇上", "--require", "安陵容", "--require", "华妃", "--require", "甄嬛"),
        ("new", "examples/zh-new", "--game", "zhenhuan", "--roster", "examples/zhenhuan/roster.txt"),  # exists
        ("status", "examples/zh-new"),
        ("night", "examples/zh-new"),
        ("act", "examples/zh-new", "1", "poison", "8"),  # seat 1 has no poison: recorded, refused
        ("act", "examples/zh-new", "10", "poison", "1"),
        ("answer", "examples/zh-new", "night1/yurao_bind", "7号"),
        ("answer", "examples/zh-new", "night1/false_info/seat4", "真实"),
        ("info", "examples/zh-new", "1", "7号：甄嬛"),
        ("night", "examples/zh-new", "--json"),
    ), ledgers=("zh-new",)),
    Script("writes", "m42-new-import-undo", "m42", (
        ("new", "examples/m42-new", "--game", "m42", "--roster", "examples/m42/roster.yaml", "--seed", "7"),
        ("import", "examples/m42-new", "examples/m42/dumps/day1-vote.txt", "--thread", "vote", "--day", "1",
         "--dry-run"),
        ("import", "examples/m42-new", "examples/m42/dumps/day1-vote.txt", "--thread", "vote", "--day", "1"),
        ("import", "examples/m42-new", "examples/m42/edited/day1-vote.txt", "--thread", "vote", "--day", "1"),
        ("tally", "examples/m42-new", "--day", "1"),
        ("undo", "examples/m42-new", "--import", "last"),
        ("status", "examples/m42-new"),
    ), ledgers=("m42-new",)),
    Script("writes", "mafia-new-import", "mafia", (
        ("new", "examples/mafia-new", "--game", "mafia", "--roster", "examples/mafia/roster.yaml"),
        ("death", "examples/mafia-new", "Klazam", "--post", "2", "--how", "killed Night 0"),
        ("start-day", "examples/mafia-new", "--day", "1", "--post", "3"),
        ("import", "examples/mafia-new", "examples/mafia/day1-posts.jsonl", "--thread", "vote", "--day", "1",
         "--dry-run"),
        ("import", "examples/mafia-new", "examples/mafia/day1-posts.jsonl", "--thread", "vote", "--day", "1"),
        ("tally", "examples/mafia-new", "--day", "1"),
        ("alias", "examples/mafia-new", "RotN", "RangeroftheNorth"),
        ("announce", "examples/mafia-new", "vote", "--day", "1"),
    ), ledgers=("mafia-new",)),
    Script("writes", "mafia-facts", "mafia", (
        ("import", MAFIA, "examples/mafia/day1-posts.jsonl", "--thread", "vote", "--day", "1", "--dry-run"),
        ("import", MAFIA, "examples/mafia/day1-posts.jsonl", "--thread", "vote", "--day", "1"),
        ("deadline", MAFIA, "--day", "1", "--at", "2011-05-05 17:00"),
        ("replace", MAFIA, "AMP", "Meransiel", "--post", "7"),
        ("alias", MAFIA, "peab", "Peabody"),
        ("death", MAFIA, "Pine", "--post", "7", "--how", "modkilled"),
        ("tally", MAFIA, "--day", "1"),
        ("undo", MAFIA),
        ("host", MAFIA, "Fenhl"),
        ("timezone", MAFIA, "Europe/Berlin"),
        ("timezone", MAFIA, "Mars/Olympus"),
        ("standing", MAFIA, "--day", "1", "Valern: Trendall", "Pine: Peabody", "--dry-run"),
        ("lynch", MAFIA, "Peabody", "--day", "1", "--post", "7", "--how", "Vanilla Townie"),
        ("status", MAFIA),
    )),
])
