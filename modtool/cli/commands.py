"""The core's commands (new, check, import, tally, chart, announce, act, advance,
status, undo, upgrade, restore) on the typer app every run starts from; each
run adds the commands of its game's pack (``modtool.cli.app``)."""


from __future__ import annotations

import sys
from pathlib import Path
from typing import List, Optional

import typer

from modtool import api
from modtool.api import (all_packs, default_pack, FORMAT_ALIASES, FORMATS, Message, Problem, t, THREADS,
                         UserError)
from modtool.cli.common import show as _show
from modtool.cli.options import Choice, LiveChoice, kinds_help
from modtool.cli.packcommands import print_answer

# Every command below asks modtool.api (the one door) and prints its answer. The
# names imported above are the light ones every run needs (--help included); the
# game itself (``api.open_game`` …) loads on first use, when a command runs.


_PACKS = all_packs()  # every game, each answering the shared commands for itself (modtool.core.registry)

app = typer.Typer(
    rich_markup_mode=None,
    # --install-completion / --show-completion: typer imports its completion
    # code only when one of them (or a shell asking for completions) is used.
    no_args_is_help=True,
    help="modtool：版杀导演的记票、判罚与公告工具。",
)


def _print_version(value: bool) -> None:
    if value:
        typer.echo(f"modtool {api.__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(False, "--version", is_eager=True, callback=_print_version,
                                 help="显示 modtool 的版本并退出"),
) -> None:
    """modtool：版杀导演的记票、判罚与公告工具。"""


def _games_help(tr=str, language: str | None = None) -> str:
    # A game's name in another language than the help's is its id alone: no help mixes two.
    names = [tr(p.name or p.id) if language in (None, p.language) else p.id for p in all_packs().values()]
    listed = tr("、").join(names[:-1]) + tr("或 ") if len(names) > 1 else ""
    return tr("游戏：{games}").format(games=listed + names[-1])


def _kinds_help(tr=str, language: str | None = None) -> str:
    """announce's list of post kinds: the games that speak ``language`` (all when None)."""
    return kinds_help({tr("KIND（{game}）").format(game=p.id): p.kinds for p in all_packs().values()
                       if p.kinds and language in (None, p.language)}, tr("："))


@app.command()
def new(
    game_dir: Path = typer.Argument(..., help="游戏文件夹（会在其中建立 ledger.yaml）"),
    game: str = typer.Option(default_pack().id, "--game", click_type=LiveChoice(lambda: all_packs()), help=_games_help()),
    roster: Optional[Path] = typer.Option(None, "--roster", help="名单文件：YAML 列表（name/account/aliases/role）或每行一个名字"),
    seed: Optional[int] = typer.Option(None, "--seed", help="发身份用的随机种子（记录在账本中，同一种子同一结果）"),
    players: Optional[int] = typer.Option(None, "--players", help="甄嬛：人数（不给名单时，玩家记为 玩家1…N）"),
    require: List[str] = typer.Option([], "--require", help="甄嬛：必须在场的角色（可多次）"),
    board: Optional[str] = typer.Option(None, "--board", help="甄嬛：预设板子名"),
    custom_roles: bool = typer.Option(False, "--custom-roles", help="M42：名单里的身份是自定义配置（不按规则帖的身份配置检查）"),
) -> None:
    """建立新游戏的账本：M42 按种子发身份，甄嬛按人数表发身份、排座位，其他游戏照名单记下、不发身份。

    Examples:

    \b
      modtool new 我的游戏 --game m42 --roster examples/m42/roster.yaml --seed 20261102
      modtool new 甄嬛局 --game zhenhuan --players 10 --seed 7 --require 甄嬛
    """
    print_answer(api.start_game(game_dir, game, roster=roster, seed=seed, players=players, require=tuple(require),
                                board=board, custom_roles=custom_roles))


@app.command()
def check(
    game_dir: Path = typer.Argument(..., help="游戏文件夹"),
    as_json: bool = typer.Option(False, "--json", help="以 JSON 输出"),
) -> None:
    """检查手工编辑过的账本，列出每个问题及其行号。

    Examples:

    \b
      modtool check examples/m42
      modtool check examples/zhenhuan --json
    """
    view, problems = api.check_folder(game_dir)
    print_answer(view, as_json)
    if problems:
        raise UserError(problems)


@app.command("import")
def import_(
    game_dir: Path = typer.Argument(..., help="游戏文件夹"),
    files: List[Path] = typer.Argument(..., help="论坛存档，格式须是这局游戏读取的（导入别的格式会被拒绝，并列出可用的格式）"),
    thread: str = typer.Option(..., "--thread", click_type=Choice(THREADS),
                               help="vote（投票帖）、discussion（讨论帖）或 process（进程帖）"),
    day: int = typer.Option(..., "--day", min=1, help="这些帖子属于第几天"),
    dry_run: bool = typer.Option(False, "--dry-run", help="只报告，不写入账本"),
) -> None:
    """把保存的论坛帖子导入账本；同一帖子导入两次不会重复。

    Examples:

    \b
      modtool import examples/m42 examples/m42/dumps/day2-vote-page1.json examples/m42/dumps/day2-vote-page2.html --thread vote --day 2
      modtool import examples/m42-discipline examples/m42-discipline/dumps/day3-discussion.txt --thread discussion --day 3 --dry-run
    """
    bar = None  # click's progress bar, on stderr, shown only at a terminal (never in a log)

    def progress(done: int, total: int) -> None:
        nonlocal bar
        if total < 5000:  # only a long import is worth a progress bar
            return
        if bar is None:
            import click

            bar = click.progressbar(length=total, label=t("读取帖子"), file=sys.stderr, show_pos=True, width=24)
            bar.__enter__()
        bar.update(done - bar.pos)
        if done >= total:
            bar.__exit__(None, None, None)

    print_answer(api.open_game(game_dir).import_posts(files, thread=thread, day=day, dry_run=dry_run, progress=progress))


@app.command()
def tally(
    game_dir: Path = typer.Argument(..., help="游戏文件夹"),
    day: Optional[int] = typer.Option(None, "--day", min=1, help="第几天（默认当前）"),
    floor: Optional[int] = typer.Option(None, "--floor", "--upto-post", help="只算到这一楼为止（mafia：--upto-post N，含 N）"),
    at: Optional[str] = typer.Option(None, "--at", help="只算到这个时间为止，例如 \"2026-11-04 18:00\""),
    close: Optional[str] = typer.Option(None, "--close", help="这一天的关门时间（账本里没有时）"),
    as_json: bool = typer.Option(False, "--json", help="以 JSON 输出"),
) -> None:
    """统计一天的投票：有效票、改票、无效帖及原因、未投票者、结果。

    Examples:

    \b
      modtool tally examples/m42 --day 2
      modtool tally examples/m42 --day 2 --at "2026-11-05 18:00"
      modtool tally examples/m42 --day 2 --floor 15 --json
    """
    view = api.open_game(game_dir).tally(day, floor=floor, at=at, close=close)
    _show(as_json, view.to_json(), view.text)


@app.command()
def chart(
    game_dir: Path = typer.Argument(..., help="游戏文件夹"),
    out: Path = typer.Option(..., "-o", "--output", help="图片文件：.png（贴到论坛）或 .svg"),
    day: Optional[int] = typer.Option(None, "--day", min=1, help="第几天（默认当前）"),
    floor: Optional[int] = typer.Option(None, "--floor", "--upto-post", help="只算到这一楼为止（mafia：--upto-post N，含 N）"),
    at: Optional[str] = typer.Option(None, "--at", help="只算到这个时间为止，例如 \"2026-11-04 18:00\""),
    close: Optional[str] = typer.Option(None, "--close", help="这一天的关门时间（账本里没有时）"),
    font: Optional[Path] = typer.Option(None, "--font", help="画图用的字体文件（默认在本机字体里找一个包含所有字的；也可设环境变量 MODTOOL_FONT）"),
) -> None:
    """把一天的投票画成图：谁投了谁（警长的 2 票、弃权、未投票都画出），以及这一天每个人票数的变化（改票、改票截止、关门）。

    与 tally 和 announce vote 用同一次重放，图和帖子的数字一致；同一账本、同一字体，图片逐字节相同。
    贴到论坛：先上传图片，再用 announce vote --image-url 把地址放进投票公告。

    Examples:

    \b
      modtool chart examples/m42 --day 2 -o day2.png
      modtool chart examples/m42 --day 2 --at "2026-11-05 18:00" -o day2-18h.svg
    """
    face = api.open_game(game_dir).draw_chart(out, day=day, floor=floor, at=at, close=close, font=font)
    typer.echo(t("已生成 {path}（字体：{font}）").format(path=out, font=face))


@app.command(epilog=_kinds_help())
def announce(
    game_dir: Path = typer.Argument(..., help="游戏文件夹"),
    kind: str = typer.Argument(..., click_type=LiveChoice(lambda: dict.fromkeys(k for p in all_packs().values() for k in p.kinds)),
                               metavar="KIND", help="帖子的种类（见下面的列表）"),
    day: Optional[int] = typer.Option(None, "--day", min=1, help="第几天（默认当前）"),
    night: Optional[int] = typer.Option(None, "--night", min=1, help="第几夜（默认当前）"),
    fmt_: str = typer.Option("bbcode", "--format", click_type=Choice(FORMATS, FORMAT_ALIASES),
                             help="bbcode（论坛代码）或 markdown（md）"),
    close: Optional[str] = typer.Option(None, "--close", help="这一天的关门时间（账本里没有时）"),
    floor: Optional[int] = typer.Option(None, "--upto-post", "--floor", help="mafia vote：按到这一帖为止（含）的票生成公告"),
    card_no: Optional[int] = typer.Option(None, "--card", help="card-notice：牌的编号（默认最近一张）"),
    seat: Optional[int] = typer.Option(None, "--seat", help="甄嬛 private：只看这个座位的私信"),
    character: Optional[str] = typer.Option(None, "--character", help="M42 roles：只出这个角色的身份通知（名字或别名），一次发一人"),
    told_at: Optional[str] = typer.Option(None, "--told-at", help="M42 witch/hunter：通知发出的时间（默认现在，须在当前阶段内）；记入账本，时限从此算起"),
    title: Optional[str] = typer.Option(None, "--title", help="M42 vote：帖子标题（可用 {game} {day} {purpose}；默认用选项 vote_post_title）"),
    image: bool = typer.Option(False, "--image", help="vote：在标题下放一行 [img]，留给你填上传后的票型图地址（图用 modtool chart 生成）"),
    image_url: Optional[str] = typer.Option(None, "--image-url", help="vote：票型图上传后的地址，放进 [img] 行"),
) -> None:
    """生成可直接粘贴的公告帖或私信。GAME_DIR/templates/ 中的同名模板优先。

    公开帖只拿到公开的信息（场上角色、出局顺序、遗言、票型），不会泄露身份或夜晚目标。
    M42 的 witch 和 hunter 通知会把发出的时间记入账本（M42-R15：女巫、猎人的半小时从得知时算起）。

    Examples:

    \b
      modtool announce examples/m42 vote --day 2
      modtool announce examples/m42 vote --day 2 --image-url https://example.org/day2.png
      modtool announce examples/mafia vote --day 1 --upto-post 5
      modtool announce examples/m42 roles --character 涂山红红 --format md
      modtool announce examples/m42-full witch --night 1 --told-at "2026-11-17 21:35"
      modtool announce examples/zhenhuan private --night 1 --seat 3
    """
    game = api.open_game(game_dir)
    if (image or image_url) and kind != "vote":
        raise UserError(Problem(Message("命令行 --image"), "--image 和 --image-url 只用于 vote 帖（现在是「{kind}」）", kind=kind))
    options = {**({"floor": floor} if floor is not None else {}), "day": day, "night": night, "close": close, "card": card_no, "seat": seat, "character": character,
               "title": title, "image": image_url or (t("上传票型图后把图片地址填在这里") if image else None)}
    print_answer(game.announce(kind, fmt_, told_at=told_at, **options))


@app.command()
def act(
    game_dir: Path = typer.Argument(..., help="游戏文件夹"),
    actor: str = typer.Argument(..., help="行动的角色（狼人的杀人可写「狼人」）"),
    ability: str = typer.Argument(..., help="M42：杀人、救药、毒药、验人、开枪、继任、投降、禁票、遗言（或 kill、save、poison、check、shoot、successor、surrender、bar、last_words）；甄嬛：技能的中文名或 id"),
    targets: List[str] = typer.Argument(None, help="目标角色（bar 可写多个）"),
    at: Optional[str] = typer.Option(None, "--at", help="玩家提交的时间（默认现在）"),
    night: Optional[int] = typer.Option(None, "--night", help="第几夜（默认当前）"),
    text: Optional[str] = typer.Option(None, "--text", help="遗言内容（last_words）"),
) -> None:
    """记录玩家提交给导演的行动；违反规则的提交也会记下，并说明不受理的原因。

    Examples:

    \b
      modtool act examples/m42-full 狼人 kill 涂山苏苏 --at "2026-11-03 21:35"
      modtool act examples/m42-full 涂山苏苏 last_words --text "我是村民……" --at "2026-11-04 08:30"
      modtool act examples/zhenhuan 7 kill 5
    """
    print_answer(api.open_game(game_dir).act(actor, ability, targets or [], at=at, night=night, text=text))


@app.command()
def advance(
    game_dir: Path = typer.Argument(..., help="游戏文件夹"),
    at: Optional[str] = typer.Option(None, "--at", help="结束当前阶段的时间（默认现在）"),
) -> None:
    """结束当前阶段（白天→结算投票；夜晚→结算行动；黎明→开始新的一天），记下随后发生的事。

    Examples:

    \b
      modtool advance examples/m42-full --at "2026-11-03 21:00"
      modtool advance examples/zhenhuan
    """
    print_answer(api.open_game(game_dir).advance(at=at))


@app.command()
def status(
    game_dir: Path = typer.Argument(..., help="游戏文件夹"),
    as_json: bool = typer.Option(False, "--json", help="以 JSON 输出"),
) -> None:
    """当前阶段、场上与出局的角色、警长、药剂、待办事项与时限、下一步该做什么。

    Examples:

    \b
      modtool status examples/m42
      modtool status examples/zhenhuan --json
      modtool status examples/mafia
    """
    view = api.open_game(game_dir).status()  # G-R2: with what the forum must correct
    _show(as_json, view.to_json(), view.text)


@app.command()
def corrected(
    game_dir: Path = typer.Argument(..., help="游戏文件夹"),
) -> None:
    """在论坛上更正了 status 列出的结果之后运行：记下论坛现在读到的就是现在的结果（G-R2），status 不再列出。

    Examples:

    \b
      modtool corrected examples/m42
      modtool corrected examples/m42-full
    """
    print_answer(api.open_game(game_dir).corrected(shown_as=str(game_dir)))


@app.command()
def undo(
    game_dir: Path = typer.Argument(..., help="游戏文件夹"),
    batch: Optional[str] = typer.Option(
        None, "--import", metavar="BATCH|last",
        help="撤销一整次导入：导入时显示的批次号，或 last（最近一次仍然有效的导入）"),
) -> None:
    """撤销最近一个仍然有效的事件：追加一条 revert，历史不会被改写（再 undo 可以继续往前撤）。

    加 --import 时一步撤销一整次导入（导入了哪些帖子由导入时记下的批次决定），
    撤销后可以把正确的存档重新导入。

    Examples:

    \b
      modtool undo examples/m42
      modtool undo examples/zhenhuan
      modtool undo examples/m42 --import last
      modtool undo examples/m42 --import 3
    """
    print_answer(api.open_game(game_dir).undo(batch))


@app.command()
def upgrade(
    game_dir: Path = typer.Argument(..., help="游戏文件夹"),
) -> None:
    """把旧账本里按行号撤销的记录（revert 的 line: N）改为按事件编号撤销（of: 编号）。

    旧版 modtool 写的 revert 指向行号：在它上面加一行注释就会指错。升级只改写这些引用，
    其余内容（注释、排版、其他事件）一字不动；之后随便加注释、空行都不影响结果。

    Examples:

    \b
      modtool upgrade examples/m42
      modtool upgrade examples/zhenhuan
    """
    done = api.upgrade_folder(game_dir)
    if not done:
        typer.echo(t("账本已是最新写法：没有按行号撤销的记录"))
        return
    for one in done:
        typer.echo(t("第 {line} 行：revert 的 line: {n} → of: {ref}").format(line=one.line, n=one.was, ref=one.now))
    typer.echo(t("已升级 {n} 条撤销记录（其余内容未改动）").format(n=len(done)))


@app.command()
def restore(
    game_dir: Path = typer.Argument(..., help="游戏文件夹"),
    forget: bool = typer.Option(False, "--forget", help="不恢复：确认这些记录是你有意删除的"),
) -> None:
    """把 modtool 写入并确认过、后来从账本里消失的记录追加回账本末尾（例如编辑器用旧内容覆盖了账本）。

    每个命令读账本时都会检查；少了记录时会提示用这个命令。

    Examples:

    \b
      modtool restore examples/m42
      modtool restore examples/m42 --forget
    """
    for line in api.restore_folder(game_dir, forget):
        typer.echo(line)


# --- the packs' own commands (modtool.cli.dispatch) ------------------------------


@app.command()
def serve(
    game_dir: Path = typer.Argument(..., help="游戏文件夹（或放着几个游戏文件夹的文件夹）"),
    port: int = typer.Option(8420, "--port", min=0, max=65535, help="端口（0：任选一个空闲的）"),
    host: str = typer.Option("127.0.0.1", "--host", help="监听的地址（默认只有本机能访问）"),
    allow_remote: bool = typer.Option(False, "--allow-remote", help="允许 --host 不是本机地址（别人也能打开这个页面并写账本）"),
) -> None:
    """在本机打开一个网页工作台：今天的局面、计票、票型图、粘贴预览导入、用表单记录事实、可复制的公告帖。

    网页和命令行可以同时使用，任一边的改动一两秒内出现在网页上。Ctrl-C 停止。

    Examples:

    \b
      modtool serve examples/m42
      modtool serve examples/zhenhuan --port 8421
    """
    from modtool.desk.server import Desk, is_loopback, make_server, serve as serve_until_interrupted
    if not is_loopback(host) and not allow_remote:
        raise UserError(Problem("--host", "「{host}」不是本机地址：网页会向网络开放，要这样做请同时给出 --allow-remote", host=host))
    with api.unheld():  # each request takes the folder's lock for its own call only: commands run meanwhile
        desk = Desk(game_dir, host, port)
        try:
            server = make_server(desk)
        except OSError as exc:
            raise UserError(Problem("--port", "无法监听 {host}:{port}：{why}", host=host, port=port, why=exc.strerror or exc)) from None
        if not is_loopback(host):
            typer.echo(t("警告：网页对网络开放（{host}）：能连到这台机器的人都能打开它").format(host=host), err=True)
        shown = f"[{host}]" if ":" in host else host
        typer.echo(t("网页工作台：http://{host}:{port}/（Ctrl-C 停止）").format(host=shown, port=desk.port), err=True)
        serve_until_interrupted(desk, server)  # Ctrl-C: a write under way ends and is answered first
