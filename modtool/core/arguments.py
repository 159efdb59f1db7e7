"""A director's command-line arguments, checked before anything is written.

A typo in a command (a colour, a name, an ability, a time) is refused here
with a Chinese message naming the argument and, where one is close, a "did
you mean" hint; the ledger is not touched. What the rules refuse of a well-formed submission
is another matter: that is a fact, recorded and shown as 不受理.
"""

from __future__ import annotations

from datetime import datetime

from modtool.base.i18n import Message, t
from modtool.base.problems import Problem, UserError
from modtool.base.text import closest, fold_name
from modtool.base.times import is_date_only, parse_time, zone_suffix

def refuse(argument: str, message: str | Message, /, **args) -> UserError:
    """The error for a bad ``argument`` (an option such as ``--at`` or a positional's name):
    ``message`` a message id with ``args``, as a Problem's (modtool.base.problems)."""
    return UserError(Problem(Message("参数 {argument}", argument=argument), "{message}（什么也没写）",
                             message=Message(message, **args)))


def hint(text: str, candidates: list[str]) -> str:
    h = closest(fold_name(text), candidates)
    return t("；你是不是想写「{h}」？").format(h=h) if h else ""


def time_arg(text: str, tz, option: str = "--at") -> datetime:
    """A time the director typed, in the game's zone; refused naming ``option`` when it
    does not read or its year is not a four-digit one (0026 for 2026: never a fact).

    A zone may follow the time (``2011-05-05 16:00 CET``, ``… UTC+1``, ``… +01:00``,
    ``… Europe/Berlin``: ``timeutil.zone_suffix``): the time is read there and given
    back in the game's zone, the same instant. A date without a time of day is refused
    with an example, never read as midnight."""
    if is_date_only(str(text)):
        raise refuse(option, "「{text}」只有日期，没有时刻：请写上时刻，例如「2011-05-05 16:00」或「2011-05-05 16:00 CET」", text=text)
    try:
        plain, written_zone, _ = zone_suffix(str(text)) if isinstance(text, str) else (text, None, "")
        when = parse_time(plain, written_zone or tz)
    except ValueError as exc:
        raise refuse(option, str(exc)) from None  # the parser's message names the text and the form it wants
    if written_zone is not None:
        when = when.astimezone(tz)
    if when.year < 1000:
        raise refuse(option, "「{text}」的年份 {year} 不是四位数的年份：多半是打错了，应写成 2026-11-02 21:00 这样", text=text, year=f"{when.year:04d}")
    return when


def number_of(text: str) -> int | None:
    """A seat number as typed: "3", "3号", "３号", "#3"; None for anything else."""
    t = fold_name(text).lstrip("#").removesuffix("号").strip()
    return int(t) if t.isascii() and t.isdigit() else None


def character_arg(roster, label: str, argument: str = "角色") -> str:
    """A character of ``roster`` by name, alias or number (its seat, else its place in the roster): its name."""
    found = roster.lookup(label)
    if len(found) == 1:
        return found[0].name
    if len(found) > 1:
        names = t("、").join(f"「{c.name}」" for c in found)
        raise refuse(argument, "「{label}」同时是{names}的名字或别名，请写全名", label=label, names=names)
    chars = list(roster)
    n = number_of(label)
    if n is not None:
        seated = {c.seat: c for c in chars if c.seat is not None}
        if seated:
            if n in seated:
                return seated[n].name
        elif 1 <= n <= len(chars):
            return chars[n - 1].name
        raise refuse(argument, "没有 {label}（本局是 1～{chars} 号）", label=label, chars=len(chars))
    raise refuse(argument, "「{label}」不是本局角色的名字、别名或号码{label2}", label=label, label2=hint(label, roster.all_labels()))


def choice_arg(text: str, names: dict[str, list[str]], argument: str, what: str) -> str:
    """One of ``names`` (id -> the Chinese names it is also written as) by id or name, any case or width: its id."""
    key = fold_name(text).casefold()
    for ident, words in names.items():
        if key == ident.casefold() or key in (fold_name(w).casefold() for w in words):
            return ident
    shown = t("、").join(f"{words[0]}（{ident}）" if words else ident for ident, words in names.items())
    every = [w for ident, words in names.items() for w in (*words, ident)]
    raise refuse(argument, "没有{what}「{text}」{text2}；可用：{shown}", what=what, text=text, text2=hint(text, every), shown=shown)
