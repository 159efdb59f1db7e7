"""The core's words in the language of a game's pack.

The core speaks Chinese, the language of the games that came first: its
Chinese text is the message id. A pack in another language (``GamePack.language``,
e.g. "en" for the mafia pack) gets the core's words from the gettext catalogue
``modtool/locale/<language>/LC_MESSAGES/modtool.mo`` (compiled from the
``.po`` beside it; tests/test_i18n.py checks the two agree). A message missing
from the catalogue stays Chinese. No message is chosen by ``if language ==``.

The language words come in is a context variable, not a global "current game":
``speaking(language)`` (or ``speak``) sets it for the code that runs inside it,
and ``t`` reads it. Opening a game speaks its pack's language
(``modtool.core.gamefile.open_game``); before that the command line decides
(``modtool.cli.language``). This module imports nothing of modtool's: it sits
at the bottom of the import graph.

Words to be shown later are values, not text: a ``Message`` (message id and
arguments) is translated only when shown, in the language in force then;
problems are made of them (modtool.base.problems), so nothing that finds a
problem needs a language. ``Listing`` is a list argument, joined by the
separator of the language it is shown in.
"""

from __future__ import annotations

import gettext
import os
from contextlib import contextmanager
from collections.abc import Mapping
from contextvars import ContextVar
from functools import lru_cache
from pathlib import Path

DOMAIN = "modtool"
LOCALE = Path(__file__).resolve().parent.parent / "locale"
LANGUAGES = ("zh", "en")  # the core's languages: Chinese (the message ids) and English

_language: ContextVar[str] = ContextVar("modtool_language", default="zh")
_ENV = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


@lru_cache(maxsize=None)
def catalogue(language: str) -> gettext.NullTranslations:
    return gettext.translation(DOMAIN, LOCALE, languages=[language], fallback=True)


def words_for_language(language: str):
    """``tr(message)``: the core's ``message`` in ``language``."""
    return catalogue(language).gettext


def language() -> str:
    """The language words come in here (see the module's text)."""
    return _language.get()


def speak(language: str) -> None:
    """Words from here on, in this context, come in ``language``."""
    _language.set(language)


@contextmanager
def speaking(language: str):
    """Words inside the ``with`` come in ``language``; the one before comes back after."""
    token = _language.set(language)
    try:
        yield
    finally:
        _language.reset(token)


def locale_language(environ=None) -> str:
    """The user's locale as one of the core's languages: "en" for English and for a
    C or POSIX locale (``LANG=C.UTF-8``, many containers' default, names no
    language; every program's untranslated words are English there), else "zh".
    The first of ``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG`` that is set
    decides; none set is the C locale."""
    env = os.environ if environ is None else environ
    for key in _ENV:
        value = env.get(key, "")
        if value:
            first = value.split(":")[0].split("@")[0]
            name = first.split("_")[0].split(".")[0].lower()
            return "en" if name in ("en", "c", "posix") else "zh"
    return "en"


def t(message: str) -> str:
    """``message`` (the core's Chinese) in the language words come in here."""
    return catalogue(_language.get()).gettext(message)


class Args(Mapping):
    """A message's arguments: an immutable, hashable mapping (name → value)."""

    __slots__ = ("_items",)

    def __init__(self, items=()):
        object.__setattr__(self, "_items", dict(items))

    def __setattr__(self, name, value):
        raise AttributeError("a message's arguments do not change")

    def __reduce__(self):
        return (Args, (self._items,))

    def __getitem__(self, key):
        return self._items[key]

    def __iter__(self):
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __hash__(self) -> int:
        try:
            return hash(frozenset(self._items.items()))
        except TypeError:  # an unhashable value (a list): equal mappings still hash alike
            return hash(tuple(sorted((k, repr(v)) for k, v in self._items.items())))

    def __eq__(self, other) -> bool:
        return self._items == (other._items if isinstance(other, Args) else other)

    def __repr__(self) -> str:
        return f"Args({self._items!r})"


class Message:
    """Words not translated yet: the core's Chinese message id and its arguments.

    ``Message("帖子的 {key} 应是数字", key="pid")`` is rendered only when shown
    (``str()``, ``format()``, ``render()``): ``t(msgid)`` in the language in force
    then (or the ``language`` given), ``.format(**args)``. A message without
    arguments is shown as it is (its braces are not fields). An argument may
    itself be a Message (a separately translated word): it is rendered in the
    same language. ``args=`` takes a mapping, for a field named ``args``.
    """

    __slots__ = ("msgid", "args")

    def __init__(self, msgid: str, /, args: Mapping | None = None, **kwargs):
        if isinstance(msgid, Message):
            kwargs = {**msgid.args, **(args or {}), **kwargs}
            msgid, args = msgid.msgid, None
        object.__setattr__(self, "msgid", msgid)
        object.__setattr__(self, "args", Args({**(args or {}), **kwargs}))

    def __setattr__(self, name, value):
        raise AttributeError("a message does not change")

    def __reduce__(self):
        return (Message, (self.msgid, self.args._items))

    def render(self, language: str | None = None) -> str:
        if language is not None and language != _language.get():
            with speaking(language):
                return self.render()
        text = catalogue(_language.get()).gettext(self.msgid)
        return text.format(**self.args) if self.args else text

    def __str__(self) -> str:
        return self.render()

    def __format__(self, spec: str) -> str:
        return format(self.render(), spec)

    def __eq__(self, other) -> bool:
        return isinstance(other, Message) and (self.msgid, self.args) == (other.msgid, other.args)

    def __hash__(self) -> int:
        return hash((self.msgid, self.args))

    def __repr__(self) -> str:
        return f"Message({self.msgid!r}, {dict(self.args)!r})"

    def to_json(self) -> dict:
        """``{"msgid", "args"}``: arguments as JSON values (a nested message as one of these)."""
        return {"msgid": self.msgid, "args": {k: _plain(v) for k, v in self.args.items()}}

    @classmethod
    def from_json(cls, data: dict) -> "Message":
        if data.get("list"):
            return Listing(Message.from_json(v) if isinstance(v, dict) else v for v in data["args"]["items"])
        return Message(data["msgid"], {k: Message.from_json(v) if isinstance(v, dict) else v
                                       for k, v in data["args"].items()})


class Listing(Message):
    """Items joined by the list separator of the language they are shown in
    ("、" in Chinese, ", " in English): a message argument listing names.
    Empty, it is false (``Listing(names) or Message("没有")``)."""

    __slots__ = ()

    def __init__(self, items=(), /):
        super().__init__("、", items=tuple(items))

    def __reduce__(self):
        return (Listing, (self.args["items"],))

    def __bool__(self) -> bool:
        return bool(self.args["items"])

    def render(self, language: str | None = None) -> str:
        if language is not None and language != _language.get():
            with speaking(language):
                return self.render()
        return t("、").join(map(str, self.args["items"]))

    def __repr__(self) -> str:
        return f"Listing({self.args['items']!r})"

    def to_json(self) -> dict:
        return {**super().to_json(), "list": True}


def _plain(value):
    if isinstance(value, Message):
        return value.to_json()
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return str(value)
