"""The architecture (issues 17, 27): no import circles, and arrows that point down
the named layers only (LAYERS: base, ledger and forum, core, sdk, packs, api,
the front ends). The import graph is read
from the source (module-level imports and imports inside functions alike)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent / "modtool"

def _graph() -> dict[str, set[str]]:
    files = {}
    for f in ROOT.rglob("*.py"):
        parts = list(f.relative_to(ROOT.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        files[".".join(parts)] = f
    graph = {}
    for name, f in files.items():
        is_pkg = f.name == "__init__.py"
        found = set()
        for node in ast.walk(ast.parse(f.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found.update(a.name for a in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = name if is_pkg else name.rpartition(".")[0]
                for _ in range(max(node.level - 1, 0)):
                    base = base.rpartition(".")[0]
                mod = (f"{base}.{node.module}" if node.module else base) if node.level else (node.module or "")
                found.add(mod)
                found.update(f"{mod}.{a.name}" for a in node.names)
            elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                  and node.func.id in ("_load", "import_module")
                  and node.args and isinstance(node.args[0], ast.Constant)):  # a deliberate lazy load
                target = node.args[0].value
                found.add(target if target.startswith("modtool.") else f"{name.rpartition('.')[0]}.{target}")
        graph[name] = {m for m in found if m in files and m != name}
    return graph


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


# The floor (issue 27): the layers from the bottom up, each a list of the
# packages in it. A module may import its own package and any package of a
# lower layer; two packages of one layer never import each other (the ledger
# and the forum readers know nothing of each other; no pack imports another).
# The one exception, named: the command line starts the desk.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("modtool", "modtool.base"),  # words, problems, text, times, paths, the event record; __version__
    ("modtool.ledger", "modtool.forum"),  # the store; the readers of saved posts
    ("modtool.core",),  # replay, guards, registry, rendering of posts: speaks no game
    ("modtool.sdk",),  # what a pack author imports (over the core)
    ("modtool.packs.m42", "modtool.packs.zhenhuan", "modtool.packs.mafia"),  # the games
    ("modtool.api",),  # the door: open a game, ask, record (the packs reached through the registry)
    ("modtool.cli", "modtool.desk", "modtool.__main__", "modtool.sdk.testing"),  # the front ends (and the
    # pack tests' runner, which drives the command line)
)
SIDEWAYS = {("modtool.cli", "modtool.desk"), ("modtool.__main__", "modtool.cli"), ("modtool.sdk.testing", "modtool.cli")}


def _package(module: str) -> str:
    """The package of LAYERS ``module`` belongs to (the longest that holds it), or "?"."""
    best = "?"
    for layer in LAYERS:
        for pkg in layer:
            if (module == pkg or module.startswith(pkg + ".")) and (best == "?" or len(pkg) > len(best)):
                best = pkg
    return best


def _height(pkg: str) -> int:
    return next(i for i, layer in enumerate(LAYERS) if pkg in layer)


def _wrong_arrows(graph: dict[str, set[str]]) -> list[str]:
    wrong = []
    for module, imported in graph.items():
        here = _package(module)
        for other in imported:
            there = _package(other)
            if here == there or (here, there) in SIDEWAYS or _height(there) < _height(here):
                continue
            wrong.append(f"{module} -> {other}")
    return sorted(wrong)


def test_there_is_no_import_circle():
    assert _circles(_graph()) == []


def test_a_circle_would_be_seen():
    assert _circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_every_module_sits_in_a_layer():
    assert [m for m in _graph() if _package(m) == "?"] == []


def test_every_arrow_points_down_the_layers():
    assert _wrong_arrows(_graph()) == []


def test_an_arrow_up_or_sideways_would_be_seen():
    graph = {"modtool.base.text": {"modtool.core.registry"}, "modtool.ledger.x": {"modtool.forum.y"},
             "modtool.packs.m42.a": {"modtool.packs.mafia.b"}, "modtool.core.a": {"modtool.base.text"},
             "modtool.cli.app": {"modtool.desk.server"}, "modtool.desk.server": {"modtool.cli.app"}}
    assert _wrong_arrows(graph) == ["modtool.base.text -> modtool.core.registry",
                                    "modtool.desk.server -> modtool.cli.app",
                                    "modtool.ledger.x -> modtool.forum.y",
                                    "modtool.packs.m42.a -> modtool.packs.mafia.b"]


def test_the_package_level_graph_has_no_cycle():
    packages: dict[str, set[str]] = {}
    for module, imported in _graph().items():
        packages.setdefault(_package(module), set()).update(_package(o) for o in imported)
    for pkg, imported in packages.items():
        imported.discard(pkg)
    assert _circles(packages) == []


def test_the_core_imports_no_pack_by_name():
    """The core finds packs through the registry (entry points), never by an import."""
    graph = _graph()
    assert [f"{m} -> {o}" for m, imp in graph.items() if _package(m) in ("modtool.core", "modtool.ledger", "modtool.forum", "modtool.base")
            for o in imp if o.startswith("modtool.packs")] == []


# --- modtool.sdk: the one import of a pack author (issue 27, point 3) -----------------

EXAMPLE_PACK = ROOT.parent / "examples" / "third-party-pack"


def _modtool_imports(files, own: str) -> list[str]:
    """Every import of a modtool module in ``files`` (module level and inside
    functions, ``_load("modtool.…")`` included) that is not ``modtool.sdk`` (or
    ``modtool.sdk.testing``, for tests) nor of the package ``own``."""
    wrong = []
    for f in files:
        for node in ast.walk(ast.parse(f.read_text(encoding="utf-8"))):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module] if node.module != "modtool" else [f"modtool.{a.name}" for a in node.names]
            elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                  and node.func.id in ("_load", "import_module") and node.args and isinstance(node.args[0], ast.Constant)):
                names = [node.args[0].value]
            for name in names:
                if (name == "modtool" or name.startswith("modtool.")) and name not in ("modtool.sdk", "modtool.sdk.testing") \
                        and not name.startswith(own + ".") and name != own:
                    wrong.append(f"{f}:{node.lineno}: {name}")
    return wrong


def test_the_example_third_party_pack_imports_only_the_sdk_tests_included():
    files = sorted(EXAMPLE_PACK.rglob("*.py"))
    assert len(files) > 5
    assert _modtool_imports(files, "modtool_jushou") == []


def test_the_builtin_packs_import_only_the_sdk_outside_their_own_package():
    wrong = []
    for pack in sorted(p for p in (ROOT / "packs").iterdir() if p.is_dir() and (p / "pack.py").is_file()):
        wrong += _modtool_imports(sorted(pack.rglob("*.py")), f"modtool.packs.{pack.name}")
    assert wrong == []


def test_an_import_past_the_sdk_would_be_seen(tmp_path):
    (tmp_path / "a.py").write_text("from modtool.sdk import Problem\nfrom modtool.core.pack import GamePack\n"
                                   "def f():\n    from modtool import ledger\n", encoding="utf-8")
    got = [w.split(": ", 1)[1] for w in _modtool_imports([tmp_path / "a.py"], "mine")]
    assert got == ["modtool.core.pack", "modtool.ledger"]


def test_every_sdk_name_is_there():
    import modtool.sdk as sdk

    assert [n for n in sdk.__all__ if getattr(sdk, n, None) is None] == []



# --- one door: the front ends ask modtool.api (issue 27, point 1) ----------------------

def _past_the_door(files, own: str, also: tuple[str, ...] = ()) -> list[str]:
    """The imports in ``files`` of a modtool module other than ``modtool.api``,
    ``modtool.sdk``, the package ``own`` and the packages ``also``."""
    allowed = ("modtool.api", *also)
    return [w for w in _modtool_imports(files, own)
            if not any(w.endswith(f": {a}") or f": {a}." in w for a in allowed)]


def test_the_command_line_and_the_desk_import_only_the_api_the_sdk_and_their_own_package():
    cli = _past_the_door(sorted((ROOT / "cli").rglob("*.py")), "modtool.cli", also=("modtool.desk",))  # cli starts the desk
    desk = _past_the_door(sorted((ROOT / "desk").rglob("*.py")), "modtool.desk")
    assert cli + desk == []


def test_an_import_past_the_door_would_be_seen(tmp_path):
    (tmp_path / "a.py").write_text("from modtool import api\nfrom modtool.api import t\nimport modtool.desk.server\n"
                                   "def f():\n    from modtool.core.registry import all_packs\n", encoding="utf-8")
    assert [w.split(": ", 1)[1] for w in _past_the_door([tmp_path / "a.py"], "modtool.desk")] == \
        ["modtool.core.registry"]
    assert [w.split(": ", 1)[1] for w in _past_the_door([tmp_path / "a.py"], "modtool.cli")] == \
        ["modtool.desk.server", "modtool.core.registry"]
