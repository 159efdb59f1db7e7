"""Where game packs come from: the entry points of the group ``modtool.games``.

Every pack, the ones modtool ships included, is declared the same way, in its
distribution's ``pyproject.toml``::

    [project.entry-points."modtool.games"]
    jushou = "modtool_jushou.pack:PACK"

(as pytest and datasette register their built-in plugins through the same
entry points as third-party ones). ``own_entries`` are modtool's own
distribution's; ``installed_entries`` every other distribution's on
``sys.path``.

Read without ``importlib.metadata``: it costs modtool's start-up about 20 ms
(far more on a cold cache), where a look at the small ``entry_points.txt`` of
each distribution costs well under one. Its rules are kept: the first
distribution of a name on ``sys.path`` is the one that counts.

A source checkout (modtool run from the repository, by ``PYTHONPATH`` or an
editable install) reads modtool's own entry points from the checkout's
``pyproject.toml``: an editable install's metadata says what pyproject said
when it was installed, and the checkout is the truth.
"""

from __future__ import annotations

import os
import re
import sys
from dataclasses import dataclass
from pathlib import Path

GROUP = "modtool.games"
OWN = "modtool"  # modtool's own distribution: its packs win over an installed one of the same id

_PKG = Path(__file__).resolve().parent.parent  # the modtool package
_HEADER = re.compile(r"""^\[\s*project\s*\.\s*entry-points\s*\.\s*(?:"([^"]*)"|'([^']*)'|([\w.-]+))\s*\]\s*$""")
_PAIR = re.compile(r"""^\s*(?:"([^"]+)"|'([^']+)'|([\w.-]+))\s*=\s*(?:"([^"]*)"|'([^']*)')\s*(?:#.*)?$""")


@dataclass(frozen=True)
class PackEntry:
    """One entry point: the game id, ``module:attribute``, and the distribution declaring it."""

    name: str
    value: str
    dist: str

    def load(self):
        """The object the entry point names (``module:a.b``), imported."""
        import importlib

        module, _, attrs = self.value.partition(":")
        obj = importlib.import_module(module.strip())
        for attr in filter(None, attrs.strip().split(".")):
            obj = getattr(obj, attr)
        return obj


def normal(name: str) -> str:
    """A distribution name as packaging compares them (``Modtool_Jushou`` = ``modtool-jushou``)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def group_of_ini(text: str, group: str = GROUP) -> list[tuple[str, str]]:
    """(name, value) of ``group`` in an ``entry_points.txt``."""
    found, inside = [], False
    for line in text.splitlines():
        line = line.strip()
        if not line or line[0] in "#;":
            continue
        if line.startswith("["):
            inside = line[1:].split("]", 1)[0].strip() == group
        elif inside and "=" in line:
            name, _, value = line.partition("=")
            found.append((name.strip(), value.strip()))
    return found


def group_of_pyproject(text: str, group: str = GROUP) -> list[tuple[str, str]]:
    """(name, value) of ``[project.entry-points."<group>"]`` in a ``pyproject.toml``
    (the plain ``key = "value"`` lines that table holds)."""
    found, inside = [], False
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("["):
            m = _HEADER.match(stripped)
            inside = bool(m) and next(g for g in m.groups() if g is not None) == group
        elif inside:
            m = _PAIR.match(stripped)
            if m:
                g = m.groups()
                found.append((next(x for x in g[:3] if x is not None), next(x for x in g[3:] if x is not None)))
    return found


def _distributions():
    """(normalised name, metadata folder) of every distribution on sys.path, the first of each name."""
    seen: set[str] = set()
    for entry in sys.path:
        folder = entry or "."
        try:
            names = sorted(os.listdir(folder))
        except OSError:
            continue  # a zip file or a folder gone
        for name in names:
            if name.endswith(".dist-info"):
                dist = normal(name[: -len(".dist-info")].split("-")[0])
            elif name.endswith(".egg-info"):
                dist = normal(name[: -len(".egg-info")].split("-")[0])
            else:
                continue
            if dist not in seen:
                seen.add(dist)
                yield dist, os.path.join(folder, name)


def _entries_of(meta: str) -> list[tuple[str, str]]:
    try:
        with open(os.path.join(meta, "entry_points.txt"), encoding="utf-8") as f:
            text = f.read()
    except (OSError, UnicodeDecodeError):
        return []
    return group_of_ini(text) if GROUP in text else []


def _checkout_pyproject() -> Path | None:
    """modtool's ``pyproject.toml`` when modtool runs from a source checkout."""
    path = _PKG.parent / "pyproject.toml"
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    return path if re.search(r'(?m)^name\s*=\s*"modtool"\s*$', text) else None


def own_entries() -> list[PackEntry]:
    """The packs modtool's own distribution declares."""
    pyproject = _checkout_pyproject()
    if pyproject is not None:
        pairs = group_of_pyproject(pyproject.read_text(encoding="utf-8"))
    else:
        pairs = next((_entries_of(meta) for dist, meta in _distributions() if dist == OWN), None)
        if pairs is None:  # installed where no metadata folder lies on sys.path (a zip): ask importlib
            from importlib.metadata import PackageNotFoundError, distribution

            try:
                pairs = [(ep.name, ep.value) for ep in distribution(OWN).entry_points if ep.group == GROUP]
            except PackageNotFoundError:
                pairs = []
    return [PackEntry(name, value, OWN) for name, value in pairs]


def installed_entries() -> list[PackEntry]:
    """The packs other installed distributions declare, in sys.path order."""
    return [PackEntry(name, value, dist) for dist, meta in _distributions() if dist != OWN
            for name, value in _entries_of(meta)]
