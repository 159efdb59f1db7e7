"""Game definitions: each pack's data file (``games/<id>.yaml`` for the shipped
packs) loaded as plain data.

The shipped files live inside the package (``modtool/_data/games`` in a wheel);
in a source checkout they are read from the top-level ``games/`` folder.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from modtool.base.paths import data_dir  # noqa: F401 - the packs' way to their shipped files
from modtool.core.registry import all_packs, get_pack


@dataclass(frozen=True)
class Game:
    id: str
    data: dict

    @property
    def name(self) -> str:
        return self.data.get("name", self.id)

    @property
    def roles(self) -> dict:
        return self.data.get("roles", {})

    def role_name(self, role_id: str | None) -> str:
        if role_id is None:
            return "未知"
        return self.roles.get(role_id, {}).get("name", role_id)

    def camp_of(self, role_id: str | None) -> str | None:
        return self.roles.get(role_id, {}).get("camp") if role_id else None

    def options(self, overrides: dict | None = None) -> dict:
        merged = dict(self.data.get("options", {}))
        merged.update(overrides or {})
        return merged


def available() -> list[str]:
    return sorted(all_packs())


def load_game(game_id: str) -> Game:
    """The definition of ``game_id``, read from its pack's data file (modtool.core.registry)."""
    from ruamel.yaml import YAML

    path = get_pack(game_id).data_file()
    data = YAML(typ="safe").load(Path(path).read_text(encoding="utf-8"))
    return Game(game_id, data)
