"""Option types shared by the commands: closed sets of values and the help
that lists them. Light on purpose (imported whenever modtool starts)."""

from __future__ import annotations

import click

from modtool.api import t


class Choice(click.Choice):
    """A closed set of values: help and shell completion list them, and a
    wrong value is refused in Chinese naming every accepted one. ``aliases``
    are other spellings, accepted and turned into the value they stand for
    (``md`` → ``markdown``)."""

    def __init__(self, choices, aliases: dict[str, str] | None = None):
        self.aliases = dict(aliases or {})
        super().__init__([*choices, *self.aliases])

    def convert(self, value, param, ctx):
        value = self.aliases.get(value, value)
        if value in self.choices:
            return value
        self.fail(t("应为 {value} 之一，而不是「{value2}」").format(value=t('、').join(self.choices), value2=value), param, ctx)


def kinds_help(games: dict[str, dict[str, str]], colon: str = "：") -> str:
    """One line per kind, grouped by game, kept as written by click (``\\b``)."""
    blocks = []
    for game, kinds in games.items():
        blocks.append("\b\n" + f"{game}{colon.rstrip()}\n" + "\n".join(f"  {k}{colon}{what}" for k, what in kinds.items()))
    return "\n\n".join(blocks)


class LiveChoice(Choice):
    """A Choice whose values are asked for each time (``values()``): the games
    and post kinds of the packs known when the command runs, a pack
    registered after start-up included."""

    def __init__(self, values):
        self._values = values
        super().__init__(())

    @property
    def choices(self):
        return tuple(self._values())

    @choices.setter
    def choices(self, _ignored) -> None:
        pass
