"""How a command's failure is told: a usage error in the director's words, a
command-line argument that cannot be stored, Ctrl-C, an unexpected failure
(a report file, never a traceback). ``modtool.cli.app.main`` calls these."""

from __future__ import annotations

import sys
from pathlib import Path

import typer

from modtool.api import appended, t, written


def report_crash(exc: BaseException) -> Path:
    import tempfile
    import traceback

    fd, name = tempfile.mkstemp(prefix="modtool-crash-", suffix=".log")
    with open(fd, "w", encoding="utf-8") as f:
        f.write("".join(traceback.format_exception(exc)))
    return Path(name)


def crashed(exc: BaseException) -> None:
    """An unexpected exception: a report file and exit 3; but one that a
    Ctrl-C caused is the Ctrl-C (exit 130). Python turns a KeyboardInterrupt
    raised inside its own machinery into another exception: in a class body's
    ``__set_name__`` (a dataclass field while a module imports) it becomes a
    RuntimeError, and one raised while a buffer is still exported unwinds into
    a BufferError; the interrupt is then their cause or context."""
    seen, under = set(), exc
    while under is not None and id(under) not in seen:
        if isinstance(under, KeyboardInterrupt):
            interrupted()
        seen.add(id(under))
        under = under.__cause__ or under.__context__
    report = report_crash(exc)
    typer.echo(t("modtool 内部错误（不是你的错）：{name}。详情已写入 {report}").format(name=exc.__class__.__name__, report=report), err=True)
    typer.echo(written_note(), err=True)
    sys.exit(3)


def written_note() -> str:
    """Whether the command wrote before it failed, and what: the director must
    know whether to run it again."""
    if not written():
        return t("账本未改动（这个命令什么也没写）。")
    parts = [t("第 {line} 行起：{types}").format(line=line, types="、".join(map(str, types)))
             for line, types in written()]
    return t("出错之前，本命令已把这些记录写进账本并确认（{parts}）；不要重复运行，先用 modtool status 看一下").format(parts="；".join(parts))


def usage_message(exc) -> str:
    """click's usage errors in the words of the command's language (modtool.base.i18n), not click's."""
    kind = type(exc).__name__
    param = getattr(exc, "param", None)
    name = "/".join(getattr(param, "opts", None) or [getattr(param, "name", None) or ""]) if param else ""
    if kind == "MissingParameter":
        if param is not None and not getattr(param, "opts", [""])[0].startswith("-"):
            name = (param.name or "").upper()
        return t("缺少参数 {name}（用 --help 查看用法）").format(name=name)
    if kind == "NoSuchOption":
        hint = t("；你是不是想用 {names}").format(names=t("、").join(exc.possibilities)) if getattr(exc, "possibilities", None) else ""
        return t("没有这个选项：{option}{hint}（用 --help 查看用法）").format(option=exc.option_name, hint=hint)
    if kind == "BadParameter":
        why = t("应为整数") if "integer" in exc.message else exc.message
        return t("参数 {name} 的值不对：{why}").format(name=name, why=why)
    message = exc.format_message() if hasattr(exc, "format_message") else str(exc)
    if message.startswith(("No such command", "没有命令")):
        import re

        names = re.findall(r"'([^']+)'", message)
        hint = t("；你是不是想用 {names}").format(names=names[1]) if len(names) > 1 else ""
        return t("没有这个命令：{name}{hint}（用 modtool --help 查看全部命令）").format(name=names[0] if names else message, hint=hint)
    return t("命令用法不对：{message}（用 --help 查看用法）").format(message=message)


def bad_argument(args: list[str]) -> str | None:
    """A command-line argument holding bytes that are not UTF-8 (Python keeps
    them as lone surrogates): refused before anything runs, since it could
    not be stored in the ledger and read back."""
    for i, a in enumerate(args, 1):
        if any("\ud800" <= ch <= "\udfff" for ch in a):
            try:
                shown = a.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
            except UnicodeEncodeError:  # not from the command line's bytes: show the code points
                shown = a.encode("utf-8", "backslashreplace").decode("utf-8")
            return t("第 {i} 个参数「{shown}」里有不是 UTF-8 的字节，无法记入账本；请用 UTF-8 输入（什么也没写）").format(i=i, shown=shown)
    return None


def interrupted() -> None:
    typer.echo(t("已中断；本命令在中断前已把记录写进账本。") if appended() else t("已中断，账本未改动。"), err=True)
    sys.exit(130)
