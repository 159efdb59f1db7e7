"""The command line: a thin layer over the library; errors become messages here.

Exit codes (as pre-commit does): 0 fine, 1 a problem the director can fix,
3 an unexpected failure (a report file is written), 130 Ctrl-C.

The core's commands are in ``modtool.cli.commands``; here each run's command
tree is composed (the core's and its game's pack's, ``modtool.cli.dispatch``)
and run, with every failure turned into a message and an exit code.
"""


from __future__ import annotations

import sys
from typing import List, Optional

import typer

from modtool.cli.commands import _games_help, _kinds_help, app
from modtool.cli.confirm import confirm_option
from modtool.cli.console import utf8_args
from modtool.cli.options import Choice
from modtool.cli.dispatch import Clash, command_name, game_of_command, pack_commands
from modtool.cli.errors import bad_argument as _bad_argument, crashed as _crashed, interrupted as _interrupted
from modtool.cli.errors import usage_message as _usage_message
from modtool.cli.help import command_tree
from modtool.cli.language import begin
from modtool.cli.words import install, restore
from modtool.api import (all_packs, command_run, EXCLUSIVE, Listing, Message, NEW_OPTIONS, Problem, RecordedRefusal,
                         refusals, refuse_pack, session, SHARED, t, told, UserError)

_CORE = list(app.registered_commands)  # the core's commands, every game's
CORE_COMMANDS = frozenset(command_name(info) for info in _CORE)
_ANSWERED_BY_PACKS = ("tally", "chart", "status", "announce", "act", "advance")  # shared, each pack answers or not
_OWN: dict[str, tuple[object, dict]] = {}  # game id -> (pack, its own commands by name)


def _own(pack) -> dict:
    """The pack's own commands by name (``Clash`` when they cannot join)."""
    known = _OWN.get(pack.id)
    if known is None or known[0] is not pack:
        known = _OWN[pack.id] = (pack, pack_commands(pack, CORE_COMMANDS))
    return known[1]


def _joining() -> dict:
    """Every pack whose commands can join; one that clashes is refused here (and told)."""
    for game_id, pack in list(all_packs().items()):
        try:
            _own(pack)
        except Clash as exc:
            refuse_pack(game_id, exc.message, **exc.fields)
        except Exception as exc:  # noqa: BLE001 - a pack's commands() failing (someone else's code): told, no crash
            refuse_pack(game_id, "游戏包「{game}」（{dist}）没有载入：{error}", dist=pack.distribution,
                            error=f"{type(exc).__name__}: {exc}")
    return all_packs()


def add_pack_commands(pack) -> None:
    """Check that ``pack``'s own commands can join (a pack registered after start-up:
    they join every run of its game from then on); a clash is a UserError saying why."""
    try:
        _own(pack)
    except Clash as exc:
        raise UserError(exc.message, args=exc.fields) from None


def _listed(command: str, language: str) -> bool:
    """Is ``command`` for a game that speaks ``language`` (modtool.cli.help)?"""
    packs = all_packs().values()
    speakers = {p.language for p in packs if p.id in _OWN and command in _OWN[p.id][1]}
    if speakers:
        return language in speakers
    if command in _ANSWERED_BY_PACKS:
        return any(p.answers(command) for p in packs if p.language == language)
    return True


# Help computed from the packs, computed again in the language of each run (modtool.cli.help).
_COMPUTED_HELP = {("new", "game"): _games_help, ("announce", None): _kinds_help}


def _merged(language: str | None) -> dict:
    """Every pack's own commands, each name once: a pack of ``language`` first, then in registry order."""
    merged: dict = {}
    for pack in sorted(_joining().values(), key=lambda p: p.language != language):
        for name, info in _own(pack).items():
            merged.setdefault(name, info)
    return merged


def _foreign(name: str, owners: list[str], game: str):
    """A hidden command ``name`` that refuses: it belongs to other games than ``game``."""
    stub = typer.Typer()

    @stub.command(name, hidden=True, add_help_option=False,
                  context_settings={"ignore_unknown_options": True, "allow_extra_args": True})
    def refuse(args: Optional[List[str]] = typer.Argument(None)) -> None:
        raise UserError("这个命令目前只支持 {games}，这局是 {game}", games=Listing(owners), game=game)

    return stub.registered_commands[0]


def app_for(game: str | None, language: str | None = None):
    """The typer app of one run: the core's commands, and the own commands of
    ``game`` (every pack's, each name once, when None or no pack has it)."""
    packs = _joining()
    pack = packs.get(game) if game else None
    foreign = []
    if pack is None:
        own = _merged(language)
    else:
        own = dict(_own(pack))
        owners: dict[str, list[str]] = {}
        for other in packs.values():
            for name in _own(other):
                if name not in own:
                    owners.setdefault(name, []).append(other.id)
        foreign = [_foreign(name, ids, pack.id) for name, ids in owners.items()]
    run = typer.Typer(rich_markup_mode=None, no_args_is_help=True, help=app.info.help)
    run.registered_callback = app.registered_callback
    run.registered_commands = [*_CORE, *own.values(), *foreign]
    return run


def writing_commands(game: str | None) -> frozenset[str]:
    """Commands that write to the ledger in a run for ``game`` (every game's when None)."""
    packs = all_packs()
    chosen = [packs[game]] if game in packs else packs.values()
    return _CORE_WRITING.union(*({c.name for c in p.commands() if c.writes} for p in chosen))


# Commands that write to the ledger: they hold the game folder's lock
# exclusively from their first read to their last write, so two of them run
# one after the other and never refuse each other (the others hold it shared).
_CORE_WRITING = frozenset({"new", "import", "act", "advance", "announce", "undo", "restore", "corrected"})
app.registered_commands.extend(_merged(None).values())  # the whole list, for docs and tests reading ``app``
WRITING_COMMANDS = writing_commands(None)


# Writing commands that may change a result the forum has read (G-R2): each takes --force.
_NOT_GUARDED = frozenset({"new", "announce", "restore", "corrected"})
_GUARDED = WRITING_COMMANDS - _NOT_GUARDED


def _offer_new_options(tree, game: str | None) -> None:
    """``new --game X --help`` shows only the options X declares (GamePack.new_options)."""
    pack = all_packs().get(game) if game else None
    cmd = getattr(tree, "commands", {}).get("new")
    if pack is None or cmd is None:
        return
    for param in cmd.params:
        if param.name in NEW_OPTIONS and param.name not in pack.new_options:
            param.hidden = True


def _offer_read_options(tree, game: str | None) -> None:
    """A shared command in a run for game X offers the options X reads (GamePack.options_read):
    the others are hidden from its help and refused when given, naming those it takes."""
    pack = all_packs().get(game) if game else None
    for name, reads in (pack.options_read if pack else {}).items():
        cmd = getattr(tree, "commands", {}).get(name)
        if cmd is None:
            continue
        unread = {p.name: p for p in cmd.params if p.param_type_name == "option" and p.name not in reads}
        for p in unread.values():
            p.hidden = True
        taken = [p.opts[0] for p in cmd.params if p.param_type_name == "option" and p.name in reads]

        def run(*args, _callback=cmd.callback, _unread=unread, _taken=taken, _command=name, **kwargs):
            for key, p in _unread.items():
                if kwargs.get(key) not in (None, False, (), []) and kwargs.get(key) != p.default:
                    raise UserError(Problem(Message("命令行 {option}", option=p.opts[0]),
                                            "游戏 {game} 不用这个选项；它的 {command} 可用：{options}（什么也没写）",
                                            game=pack.id, command=_command, options=Listing(_taken)))
            return _callback(*args, **kwargs)

        cmd.callback = run


def _offer_kinds(tree, game: str | None) -> None:
    """``announce`` in a run for game X takes X's post kinds only: a mistyped kind is
    refused naming those (not every game's)."""
    pack = all_packs().get(game) if game else None
    cmd = getattr(tree, "commands", {}).get("announce")
    if pack is None or cmd is None or not pack.kinds:
        return
    for param in cmd.params:
        if param.name == "kind":
            param.type = Choice(tuple(pack.kinds))


def _notice(message: str) -> None:
    typer.echo(t("注意：{notice}").format(notice=message), err=True)


def main(argv: list[str] | None = None) -> None:
    import signal

    at_once = signal.getsignal(signal.SIGINT)
    ours = getattr(at_once, "__module__", "") in ("modtool.__main__", "__main__") and callable(at_once)
    lost = []
    default_hook = sys.unraisablehook

    def unraisable(info) -> None:
        # A Ctrl-C that lands in a __del__ is "ignored" by Python: keep it.
        if info.exc_type is KeyboardInterrupt:
            lost.append(info)
        else:
            default_hook(info)

    try:
        sys.unraisablehook = unraisable
        if ours:  # see modtool/__main__.py: from here on Ctrl-C is a KeyboardInterrupt
            signal.signal(signal.SIGINT, signal.default_int_handler)
        _main(argv)
        if lost:
            _interrupted()
    except KeyboardInterrupt:
        _interrupted()
    finally:
        sys.unraisablehook = default_hook
        if ours:
            signal.signal(signal.SIGINT, at_once)


def _main(argv: list[str] | None) -> None:
    args = utf8_args(sys.argv[1:]) if argv is None else list(argv)

    language = begin(args, shared=_ANSWERED_BY_PACKS)  # the game its command line names, or the locale, until it opens a game
    bad = _bad_argument(args)
    if bad:
        typer.echo(t("错误：{problem}").format(problem=bad), err=True)
        sys.exit(2)
    command = next((a for a in args if not a.startswith("-")), "")
    game = game_of_command(args)  # its verb goes to this game's pack (modtool.cli.dispatch)

    install(language)  # click's own words (Usage, Options, range errors), until restore()

    with command_run(_notice):  # this run's appends counted from zero; a read's notices on stderr
        _run(args, command, game, language)


def _run(args, command, game, language) -> None:
    try:
        writing = writing_commands(game)
        with session(EXCLUSIVE if command in writing else SHARED):
            # prog_name: usage lines and the completion variable (_MODTOOL_COMPLETE)
            # say "modtool" however it was started (script, python -m, tests).
            tree = command_tree(app_for(game, language), language, _listed, _COMPUTED_HELP)

            for refused in refusals():  # an installed pack left out: said on every run, never silent
                _notice(refused)
            _offer_new_options(tree, game)
            _offer_kinds(tree, game)
            _offer_read_options(tree, game)

            confirm_option(tree, writing - _NOT_GUARDED)
            rc = tree.main(args=args, prog_name="modtool", standalone_mode=False)
        if rc == 130:  # click turns Ctrl-C into Abort and, without standalone mode, returns 130
            _interrupted()
    except UserError as exc:
        recorded = isinstance(exc, RecordedRefusal)  # written: exit 0, told as 不受理
        for p in exc.problems:
            typer.echo(told(p, recorded), err=True)
        sys.exit(0 if recorded else 1)
    except (KeyboardInterrupt, typer.Abort):
        _interrupted()
    except SystemExit:
        raise
    except Exception as exc:
        names = {cls.__name__ for cls in type(exc).__mro__}
        if "NoArgsIsHelpError" in names:
            typer.echo(exc.ctx.get_help() if getattr(exc, "ctx", None) else t("用 modtool --help 查看用法"))
            sys.exit(0)
        if "ClickException" in names:  # usage errors (typer vendors click)
            typer.echo(t("错误：{problem}").format(problem=_usage_message(exc)), err=True)
            sys.exit(2)
        _crashed(exc)  # exit 3 with a report file, or 130 when a Ctrl-C lies under it
    finally:
        restore()  # the next command in this process reads the user's own locale
