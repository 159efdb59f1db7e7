"""What the desk's pages show, asked of ``modtool.api``, and its forms.

Each function takes an opened ``api.Game`` and returns plain data for the
templates: texts exactly as the library returned them (the same the command
line prints), refusals as the library worded them. The forms are made from
the commands' own declarations (``modtool.core.command.Param``), and what a
form sends is turned back into the command's parameters here, checked as the
command line checks them (required, whole numbers, closed choices, least
values) before the library runs the command with its own checks.
"""

from __future__ import annotations

import json
import re

from pathlib import Path

from modtool import api
from modtool.api import (FORMATS, get_pack, Param, Problem, RecordedRefusal, require_chart, REQUIRED, speaking, t, told,
                         UserError)

def _answer(call) -> dict:
    """One library answer for a panel: its text, or the refusal's lines."""
    try:
        return {"text": call().text}
    except UserError as exc:
        return {"error": [str(p) for p in exc.problems]}


def glance(game: api.Game) -> dict:
    """The day at a glance: status, tally (with the majority, where the game counts
    one), the game's own queries, the checks; whether a chart and a grimoire exist."""
    pack = get_pack(game.id)
    with speaking(game.language):
        panels = []
        if pack.answers("status"):
            panels.append({"key": "status", "title": t("局面"), **_answer(game.status)})
        if pack.answers("tally"):
            panels.append({"key": "tally", "title": t("计票"), **_answer(game.tally)})
        for name in pack.views():
            panels.append({"key": name, "title": _view_title(pack, name), **_answer(lambda n=name: game.view(n))})
        problems = [str(p) for p in game.problems()]
        chart, chart_missing = pack.answers("chart"), []
        if chart:
            try:  # the chart extra: without it, the one line saying how to install it, not a broken image
                require_chart()
            except UserError as exc:
                chart, chart_missing = False, [str(p) for p in exc.problems]
        return {"panels": panels, "problems": problems, "chart": chart, "chart_missing": chart_missing,
                "grimoire": "grimoire" in game.commands()}


def _view_title(pack, name: str) -> str:
    """A game's own query as its director reads it: the head of its command's help
    ("每个角色的牌" for M42's ``cards``), else its name."""
    command = next((c for c in pack.commands() if c.name == name), None)
    return name if command is None else _head(command.help, name, pack.name)


def _head(help_: str, name: str, game: str = "") -> str:
    """A command's help, its first clause, in the language spoken: "判罚一张牌" of
    "判罚一张牌，并列出…", "a replacement takes over a slot and its current vote" of
    "Mafia: a replacement …" (the game's name before it left out: ``game``, the
    pack's name; a stop inside brackets is not the end)."""
    line = t(help_).strip().splitlines()[0]
    label = re.match(r"(\w+)[：:]\s*", line)
    if label and game and label.group(1).casefold() in game.casefold():
        line = line[label.end():]
    depth = 0
    for i, ch in enumerate(line):
        depth += ch in "（("
        depth -= ch in "）)" and depth > 0
        if depth == 0 and (ch in "：。；;，" or (ch in ".:" and line[i + 1:i + 2] in ("", " "))):
            line = line[:i]
            break
    return line.strip() or name


def post_options(game: api.Game, sent: dict[str, list[str]]) -> dict:
    """The posts page's choices (``?day=2&night=1&format=md``) as ``announce`` takes them:
    ``values`` for ``posts``, ``fields`` for the page (only the options this game's
    ``announce`` reads: mafia has no night), and ``problems`` for a value refused
    (left out, the post as it stands)."""
    reads = get_pack(game.id).options_read.get("announce")
    fields, values, problems = [], {"fmt": "bbcode"}, []
    with speaking(game.language):
        for name, label in (("day", "第几天"), ("night", "第几夜")):
            if reads is not None and name not in reads:
                continue
            raw = (sent.get(name) or [""])[0].strip()
            fields.append({"name": name, "label": t(label), "value": raw})
            if raw:
                try:
                    values[name] = _value(Param(name, label, int, min=1), raw)
                except UserError as exc:
                    problems += [str(p) for p in exc.problems]
        chosen = (sent.get("format") or ["bbcode"])[0]
        values["fmt"] = chosen if chosen in FORMATS else "bbcode"
    return {"fields": fields, "values": values, "format": values["fmt"], "formats": list(FORMATS), "problems": problems}


def posts(game: api.Game, *, fmt: str = "bbcode", day: int | None = None, night: int | None = None) -> list[dict]:
    """Every announce kind, rendered as it stands (or why it cannot be yet); a
    private post that goes to several people also one message each (``parts``:
    M42's role cards, 甄嬛's night messages); a post whose sending is a fact
    (``sent``: M42's witch and hunter notices) is rendered when the director
    sends it (``send``), which records it."""
    pack = get_pack(game.id)
    out = []
    with speaking(game.language):
        for kind, about in pack.kinds.items():
            found = {"kind": kind, "about": t(about), "sent": kind in pack.sent_kinds, "parts": []}
            if not found["sent"]:
                try:
                    view = game.post(kind, fmt, **{k: v for k, v in (("day", day), ("night", night)) if v is not None})
                    found.update(text=view.text, parts=view.to_json().get("parts", []))
                except UserError as exc:
                    found["error"] = [str(p) for p in exc.problems]
            out.append(found)
    return out


def send(game: api.Game, sent: dict) -> dict:
    """Send a post whose sending is a fact (M42's witch or hunter notice): the
    fact recorded (at ``told_at`` as typed, else now) and the post's text, as
    ``modtool announce`` does; refused: nothing written."""
    kind = sent.get("kind")
    if not isinstance(kind, str) or kind not in get_pack(game.id).sent_kinds:
        with speaking(game.language):
            return answer(game, False, "", [], [str(Problem(t("帖子"), "这个帖子不需要记录发出时间：{kind}", kind=str(kind)))])
    told_at = sent.get("told_at")
    before = stamp(game.path)
    try:
        with speaking(game.language):
            force = _flag("--force", sent.get("force"))
            if told_at is not None and not isinstance(told_at, str):
                raise UserError(Problem("--told-at", "这一项应填写文字，不是「{value}」", value=_shown(told_at)))
        said = game.announce(kind, told_at=(told_at or "").strip() or None, force=force)
    except UserError as exc:
        return answer(game, False, "", [], [str(p) for p in exc.problems])
    # Sent before: the command records nothing and says when it went out.
    return answer(game, stamp(game.path) != before, said.text, list(said.notes), [])


def stamp(folder: Path) -> str:
    """What changes whenever the ledger does (size, time, file): the page's poll compares
    it, and a write is said to be written only when it changed."""
    try:
        st = (folder / "ledger.yaml").stat()
    except OSError:
        return "-"
    return f"{st.st_size}-{st.st_mtime_ns}-{st.st_ino}"


def _field(p: Param) -> dict:
    kind = "checkbox" if p.type is bool else "select" if p.choices else "number" if p.type in (int, float) else "text"
    return {"name": p.name, "label": t(p.help), "type": kind, "choices": list(p.choices), "many": p.many,
            "names": p.names, "flag": p.flags[0] if p.flags else p.name.upper(),
            "required": p.default is REQUIRED, "min": p.min,
            "default": "" if p.default in (REQUIRED, None) or p.type is bool or p.many else p.default,
            "checked": p.type is bool and p.default is True}


def _act_params() -> tuple[Param, ...]:
    return (Param("actor", "行动的角色（名字或别名）", names="character"),
            Param("ability", "技能（名字或 id）"),
            Param("targets", "目标（可以写多个，用空格分开）", many=True, default=(), names="character"),
            Param("at", "玩家提交的时间（默认现在）", flags=("--at",), default=None),
            Param("night", "第几夜（默认当前）", int, ("--night",), None, min=1),
            Param("text", "附带的文字（--text）", flags=("--text",), default=None))


def _advance_params() -> tuple[Param, ...]:
    return (Param("at", "结束当前阶段的时间（默认现在）", flags=("--at",), default=None),)


def _undo_params() -> tuple[Param, ...]:
    return (Param("batch", "撤销一整次导入：导入时显示的批次号，或 last（不填：撤销最近一个事件）",
                  flags=("--import",), default=None),)


def _desk_params(command) -> tuple[Param, ...] | None:
    """The parameters a form shows: none names a file (the page writes no path)."""
    params = tuple(p for p in command.params if p.name not in ("game_dir", "force"))
    return None if any(p.type is Path for p in params) else params


def writes(game: api.Game) -> dict[str, tuple[str, tuple[Param, ...]]]:
    """The writes a form may run: {name: (help, params)}: the game's own writing
    commands (card, close, proxy, answer …), ``act`` where the game has it, ``undo``."""
    pack = get_pack(game.id)
    found: dict[str, tuple[str, tuple[Param, ...]]] = {}
    for c in pack.commands():
        params = _desk_params(c) if c.writes else None
        if params is not None:
            found[c.name] = (c.help, params)
    if pack.answers("act"):
        found["act"] = ("记录玩家提交给导演的行动；违反规则的提交也会记下，并说明不受理的原因。", _act_params())
    if pack.answers("advance"):
        found["advance"] = ("结束当前阶段（白天→结算投票；夜晚→结算行动；黎明→开始新的一天），记下随后发生的事。",
                            _advance_params())
    found["corrected"] = ("在论坛上更正了 status 列出的结果之后运行：记下论坛现在读到的就是现在的结果（G-R2），status 不再列出。", ())
    found["undo"] = ("撤销最近一个仍然有效的事件：追加一条 revert，历史不会被改写（再 undo 可以继续往前撤）。", _undo_params())
    return found


def forms(game: api.Game) -> list[dict]:
    with speaking(game.language):
        name_of_game = get_pack(game.id).name
        return [{"name": name, "title": _head(help_, name, name_of_game), "help": t(help_).strip().splitlines()[0],
                 "fields": [_field(p) for p in params]}
                for name, (help_, params) in writes(game).items()]


def _flag(label: str, raw) -> bool:
    """A box's value as the page sends it: true or false (left out: false); "false"
    is not taken for true."""
    if raw is None or isinstance(raw, bool):
        return bool(raw)
    raise UserError(Problem(label, "这一项应是勾选与否（true 或 false），不是「{value}」", value=_shown(raw)))


def _shown(raw) -> str:
    return json.dumps(raw, ensure_ascii=False)


def _value(p: Param, raw):
    """One sent value as the command's parameter (``UserError`` as the command line refuses it)."""
    label = t(p.help)
    if p.type is bool:
        return _flag(label, raw)
    if raw is not None and (isinstance(raw, bool) or not isinstance(raw, (str, int, float))):
        raise UserError(Problem(label, "这一项应填写文字，不是「{value}」", value=_shown(raw)))
    text = "" if raw is None else str(raw).strip()
    if not text:
        if p.default is REQUIRED:
            raise UserError(Problem(label, "请填写这一项"))
        return p.default
    if p.many:
        return text.split()
    if p.type in (int, float):
        try:
            value = p.type(text)
        except ValueError:
            raise UserError(Problem(label, "「{value}」不是数字", value=text)) from None
        if p.min is not None and value < p.min:
            raise UserError(Problem(label, "至少是 {min}（现在是 {value}）", min=p.min, value=value))
        return value
    if p.choices and text not in p.choices:
        raise UserError(Problem(label, "「{value}」不在可选的值中：{choices}", value=text, choices=", ".join(p.choices)))
    return text


def run_write(game: api.Game, name: str, sent: dict) -> dict:
    """Run the write ``name`` with the values a form sent, through the library:
    ``{"ok", "written", "text", "notes", "problems"}`` (``written``: the ledger
    changed). Refused: ``ok`` False,
    ``written`` False and the ledger untouched; a player's submission the rules
    refuse (G-R1) is written and told as not accepted."""
    found = writes(game).get(name)
    if found is None:
        return {"ok": False, "written": False, "text": "", "notes": [],
                "problems": [t("这一局没有这个命令；它有：{commands}").format(commands=", ".join(writes(game)))]}
    before = stamp(game.path)
    try:
        with speaking(game.language):
            force = _flag("--force", sent.get("force"))
            params = {p.name: _value(p, sent.get(p.name)) for p in found[1]}
        if name == "act":
            said = game.act(params.pop("actor"), params.pop("ability"), params.pop("targets") or (), force=force, **params)
        elif name == "undo":
            said = game.undo(params["batch"], force=force)
        elif name == "advance":
            said = game.advance(at=params["at"], force=force)
        elif name == "corrected":
            said = game.corrected()
        else:
            said = game.command(name, force=force, **params)
    except RecordedRefusal as exc:
        return answer(game, True, "", [], _shown_problems(game, exc), refused=True)
    except UserError as exc:
        return answer(game, False, "", [], _shown_problems(game, exc))
    # ``written`` as the ledger says: a command may answer without writing (a fact already there).
    return answer(game, stamp(game.path) != before, said.text, list(getattr(said, "notes", ())), [])


def _shown_problems(game: api.Game, exc: UserError) -> list[str]:
    """A refusal's problems in the game's language: the library's are bound to it already,
    the form's own checks (a field left empty) are rendered here, not in the server's locale."""
    return [str(p.in_language(game.language)) if isinstance(p, Problem) else str(p) for p in exc.problems]


def answer(game, written: bool, text: str, notes: list[str], problems: list[str], refused: bool = False) -> dict:
    """What a write tells the page: ``{"ok", "written", "text", "notes", "problems"}``,
    the problems told as the command line tells them (错误 / 不受理), in the game's language."""
    with speaking(game.language):
        shown = [told(p, refused) for p in problems]
    return {"ok": not problems or refused, "written": written, "text": text, "notes": notes, "problems": shown}
