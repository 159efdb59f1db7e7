"""Posts from jinja2 templates, with player text made harmless.

Built-in templates come from each pack (``templates/<game>/`` for the shipped
ones, modtool.core.registry); a template of the same path in
``GAME_DIR/templates/`` overrides it. Everything renders in jinja's immutable
sandbox with StrictUndefined. Every ``{{ value }}`` passes through
``finalize``: player text cannot open a BBCode tag (``[`` and ``]`` become
full-width ``［`` ``］``, which reads naturally in Chinese) nor Markdown
markup. Text the template builds itself is wrapped in ``Safe``.

A director's own template is untrusted input and is bounded: it may read
only files inside ``GAME_DIR/templates`` (no symlink or ``..`` out of it), it
runs for at most ``TIME_LIMIT`` seconds and writes at most ``OUTPUT_LIMIT``
characters, ``*`` and ``**`` may not build giant values, and any error it
raises is reported with its file and line (exit 1), never as a traceback.
"""

from __future__ import annotations

import os
from pathlib import Path

from modtool.base.i18n import Message, t
from modtool.base.problems import Problem, UserError
from modtool.core.registry import all_packs

FORMATS = {"bbcode": "bbcode", "markdown": "md"}  # format → the templates' file suffix
# Pages modtool writes itself (the 甄嬛 grimoire page): not a post format a director chooses.
SUFFIXES = {**FORMATS, "html": "html"}
FORMAT_ALIASES = {"md": "markdown"}  # other spellings a director may type

TIME_LIMIT = 5.0  # seconds a post may take to render
OUTPUT_LIMIT = 2 * 1024 * 1024  # characters in one post (a forum post is far smaller)
POWER_LIMIT_BITS = 100_000  # size of an integer ``**`` may build


class Safe(str):
    """Text produced by modtool itself (links, tags): not escaped."""


_BB = str.maketrans({"[": "［", "]": "］"})
_MD = str.maketrans({"[": "［", "]": "］", "*": "＊", "_": "＿", "`": "｀", "|": "｜", "<": "＜", ">": "＞", "#": "＃"})


def neutralise(value, fmt: str) -> str:
    if value is None:
        return ""
    if fmt == "html":  # every value escaped; modtool's own markup (Safe) kept
        from markupsafe import Markup, escape

        return Markup(value) if isinstance(value, Safe) else escape(str(value))
    if isinstance(value, Safe):
        return str(value)
    text = str(value)
    return text.translate(_BB if fmt == "bbcode" else _MD)


def list_limit(gd) -> int:
    """The game option ``list_limit`` (any pack): how many rows a post or a
    report lists before summarising the rest."""
    value = gd.options.get("list_limit", 30)
    if type(value) is not int or value < 0:
        raise UserError(Problem(gd.source, "options → list_limit 应是不小于 0 的整数（现在是「{value}」）", value=value))
    return value


def capped(items: list, limit: int) -> tuple[list, int]:
    """(the first ``limit`` items, how many more): a post or a report lists at
    most ``limit`` rows and summarises the rest (「……另有 1,234 帖」)."""
    limit = max(int(limit), 0)
    return list(items[:limit]), max(len(items) - limit, 0)


def more_text(n: int, unit: str = "帖") -> str:
    """The summary line of what ``capped`` left out: 「……另有 1,234 帖」."""
    return t("……另有 {n:,} {unit}").format(n=n, unit=unit)


class _Stop(Exception):
    """A template went beyond a limit or out of its folder: ``message`` in
    Chinese, ``path`` the file to name when no template line is known."""

    def __init__(self, message: str, path: str | None = None):
        super().__init__(message)
        self.message = message
        self.path = path


_CLASSES: dict = {}


def _classes():
    """The jinja2 subclasses, built on first use (jinja2 is imported lazily)."""
    if _CLASSES:
        return _CLASSES["loader"], _CLASSES["env"]
    import operator
    import posixpath

    import jinja2
    from jinja2.sandbox import ImmutableSandboxedEnvironment

    class ConfinedLoader(jinja2.FileSystemLoader):
        """A director's templates: every file read must really lie inside the
        folder (its realpath), so a symlink to /etc/passwd or ../ledger.yaml
        is refused, as is a name with ``..`` or an absolute one."""

        def __init__(self, root: str):
            super().__init__(root)
            self.root = root
            self.real_root = os.path.realpath(root)

        def get_source(self, environment, template):
            norm = template.replace("\\", "/")
            if norm.startswith("/") or os.path.isabs(template) or ".." in norm.split("/"):
                raise _Stop(t("模板路径「{template}」指向模板文件夹 {root} 之外，不会读取它").format(template=template, root=self.root))
            try:
                pieces = jinja2.loaders.split_template_path(template)
            except jinja2.TemplateNotFound:
                raise _Stop(t("模板路径「{template}」指向模板文件夹 {root} 之外，不会读取它").format(template=template, root=self.root)) from None
            filename = posixpath.join(self.root, *pieces)
            if os.path.lexists(filename):
                real = os.path.realpath(filename)
                if os.path.commonpath([real, self.real_root]) != self.real_root:
                    raise _Stop(t("模板文件是指向模板文件夹之外（{real}）的链接，不会读取它").format(real=real), filename)
            return super().get_source(environment, template)

    class BoundedEnvironment(ImmutableSandboxedEnvironment):
        """The sandbox, with ``*`` and ``**`` unable to build giant values
        (they run in C, where no time limit can stop them)."""

        intercepted_binops = frozenset({"*", "**"})

        def call_binop(self, context, op, left, right):
            if op == "*":
                for seq, n in ((left, right), (right, left)):
                    if isinstance(seq, (str, list, tuple)) and isinstance(n, int) and len(seq) * n > OUTPUT_LIMIT:
                        raise _Stop(t("模板里的重复（*）会生成超过 {OUTPUT_LIMIT} 的内容，已停止").format(OUTPUT_LIMIT=_mb(OUTPUT_LIMIT)))
                return operator.mul(left, right)
            if (
                isinstance(left, int) and isinstance(right, int) and right > 0
                and abs(left) > 1 and right * abs(left).bit_length() > POWER_LIMIT_BITS
            ):
                raise _Stop(t("模板里的乘方（**）结果太大，已停止"))
            return super().call_binop(context, op, left, right)

    _CLASSES["loader"], _CLASSES["env"] = ConfinedLoader, BoundedEnvironment
    return ConfinedLoader, BoundedEnvironment


def _mb(n: int) -> str:
    return f"{n / (1024 * 1024):g} MB"


def _pack_templates():
    """Every pack's templates, each under its game id (``m42/vote.bbcode.j2``)."""
    import jinja2

    return jinja2.PrefixLoader({gid: jinja2.FileSystemLoader(str(p.templates_dir()))
                                for gid, p in all_packs().items() if p.templates_dir() is not None}, delimiter="/")


def environment(fmt: str, game_dir: Path | None = None):
    import jinja2

    confined, bounded = _classes()
    loaders = []
    if game_dir is not None and (Path(game_dir) / "templates").is_dir():
        loaders.append(confined(str(Path(game_dir) / "templates")))
    loaders.append(_pack_templates())
    env = bounded(
        loader=jinja2.ChoiceLoader(loaders),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        autoescape=False,
        finalize=lambda v: neutralise(v, fmt),
    )
    env.globals["safe"] = Safe
    return env


def render_page(game_id: str, kind: str, context: dict, game_dir: Path | None = None) -> str:
    """A page modtool writes as HTML (``templates/<game>/<kind>.html.j2``): every value escaped."""
    return _render(game_id, kind, "html", context, game_dir)


def render(game_id: str, kind: str, fmt: str, context: dict, game_dir: Path | None = None) -> str:
    if fmt not in FORMATS:
        raise UserError("未知的格式「{fmt}」；可用：{value}", fmt=fmt, value=t('、').join(FORMATS))
    return _render(game_id, kind, fmt, context, game_dir)


def render_each(game_id: str, kind: str, fmt: str, context: dict, key: str, to, game_dir: Path | None = None) -> list[dict]:
    """A private post that goes to several people (M42's role cards, 甄嬛's night
    messages), one message each: ``[{"to", "text"}]``, the same template rendered
    once for each item of ``context[key]`` with that item alone in the list, so a
    director's own template splits the same way; ``to(item)`` names the recipient."""
    return [{"to": to(item), "text": render(game_id, kind, fmt, {**context, key: [item]}, game_dir)}
            for item in context[key]]


def _render(game_id: str, kind: str, fmt: str, context: dict, game_dir: Path | None) -> str:
    import jinja2

    name = f"{game_id}/{kind}.{SUFFIXES[fmt]}.j2"
    env = environment(fmt, game_dir)
    template = None
    try:
        template = env.get_template(name)
        return _bounded_render(template, context)
    except UserError:
        raise
    except jinja2.TemplateSyntaxError as exc:
        where = exc.filename or (template.filename if template is not None else name)
        raise UserError(Problem(where, "模板有语法错误：{message}", exc.lineno, message=exc.message)) from None
    except jinja2.TemplateNotFound as exc:
        if template is None and exc.name == name:
            raise UserError("没有「{kind}」帖子的 {fmt} 模板（{name}）", kind=kind, fmt=fmt, name=name) from None
        raise UserError(_problem(exc, template, name, Message("引用的模板「{name}」不存在", name=exc.name))) from None
    except jinja2.UndefinedError as exc:
        raise UserError(_problem(exc, template, name, Message("模板用了不存在的变量：{message}", message=exc.message))) from None
    except jinja2.exceptions.SecurityError as exc:
        raise UserError(_problem(exc, template, name, Message("模板做了沙箱不允许的事：{exc}", exc=exc))) from None
    except _Stop as exc:
        raise UserError(_problem(exc, template, name, exc.message, exc.path)) from None
    except Exception as exc:
        where = _template_frame(exc)
        if where is None or not _is_directors(where[0], game_dir):
            raise  # a bug of modtool or of a built-in template: exit 3 with a report
        raise UserError(_problem(exc, template, name, Message("模板运行出错：{name}: {exc}", name=type(exc).__name__, exc=exc))) from None


def _bounded_render(template, context: dict) -> str:
    """``template.render(**context)`` within TIME_LIMIT and OUTPUT_LIMIT.

    In the main thread a SIGALRM timer interrupts even a loop that writes
    nothing (the previous handler and timer are restored); elsewhere only the
    clock check between output chunks applies."""
    import signal
    import threading
    import time

    limit_msg = t("模板运行超过 {TIME_LIMIT:g} 秒，已停止：可能有过大的循环").format(TIME_LIMIT=TIME_LIMIT)
    start = time.monotonic()
    deadline = start + TIME_LIMIT
    timer = hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()
    if timer:
        def on_alarm(signum, frame):
            raise _Stop(limit_msg)

        old_handler = signal.signal(signal.SIGALRM, on_alarm)
        old_timer = signal.setitimer(signal.ITIMER_REAL, TIME_LIMIT)
    try:
        parts: list[str] = []
        size = 0
        clock = time.monotonic
        for chunk in template.generate(**context):
            parts.append(chunk)
            size += len(chunk)
            if size > OUTPUT_LIMIT:
                raise _Stop(t("模板生成的帖子超过 {OUTPUT_LIMIT}，已停止：可能有过大的循环").format(OUTPUT_LIMIT=_mb(OUTPUT_LIMIT)))
            if clock() > deadline:
                raise _Stop(limit_msg)
        return "".join(parts)
    finally:
        if timer:
            try:
                signal.setitimer(signal.ITIMER_REAL, 0)
            finally:  # even if the alarm struck just now
                signal.signal(signal.SIGALRM, old_handler)
                if old_timer[0] > 0:  # someone else's timer was running: let it go on
                    left = old_timer[0] - (time.monotonic() - start)
                    signal.setitimer(signal.ITIMER_REAL, max(left, 1e-6), old_timer[1])


def _template_frame(exc: BaseException) -> tuple[str, int] | None:
    """(file, line) of the innermost template frame in ``exc``'s traceback.

    jinja rewrites a traceback so that each template frame carries the
    template's file name and line."""
    found = None
    tb = exc.__traceback__
    while tb is not None:
        frame = tb.tb_frame
        if "__jinja_exception__" in frame.f_globals or frame.f_code.co_filename.endswith(".j2"):
            found = (frame.f_code.co_filename, tb.tb_lineno)
        tb = tb.tb_next
    return found


def _is_directors(filename: str, game_dir: Path | None) -> bool:
    if game_dir is None:
        return False
    root = os.path.realpath(Path(game_dir) / "templates")
    real = os.path.realpath(filename)
    return os.path.commonpath([real, root]) == root


def _problem(exc: BaseException, template, name: str, message: str | Message, path: str | None = None) -> Problem:
    """``message`` at the template line where ``exc`` arose, else at ``path``
    or the template's file."""
    where = _template_frame(exc)
    if where is not None:
        return Problem(where[0], message, where[1])
    return Problem(path or (template.filename if template is not None else None) or name, message)
