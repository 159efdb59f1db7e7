"""The architecture (issue 17): no import circles, and arrows that point down
only: cli → packs → core (forum/ and ledger/ are core). The import graph is read
from the source (module-level imports and imports inside functions alike)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent / "modtool"

# Where a pack reaches up into the command line: nowhere. Its own commands are
# data (modtool.core.command) and its answers are values the CLI prints.
PACK_TO_CLI: set[str] = set()


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


def _layer(module: str) -> str:
    parts = module.split(".")
    if len(parts) == 1:
        return "top"  # modtool/__init__.py
    return {"cli": "cli", "packs": "packs", "core": "core", "forum": "core", "ledger": "core",
            "api": "api", "desk": "desk", "__main__": "main"}.get(parts[1], "?")


def test_there_is_no_import_circle():
    assert _circles(_graph()) == []


def test_a_circle_would_be_seen():
    assert _circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_every_module_sits_in_a_layer():
    assert [m for m in _graph() if _layer(m) == "?"] == []


def test_arrows_point_down_cli_packs_core():
    allowed = {"main": {"cli", "core", "top"}, "cli": {"cli", "desk", "api", "core", "top"}, "api": {"core", "top"},
               "desk": {"desk", "api", "core", "top"},  # the web desk: a user of the library, as the CLI is
               "packs": {"packs", "core", "top"}, "core": {"core", "top"}, "top": set()}
    wrong = []
    for module, imported in _graph().items():
        for other in imported:
            if _layer(other) not in allowed[_layer(module)] and not (
                    module in PACK_TO_CLI and _layer(other) == "cli"):
                wrong.append(f"{module} -> {other}")
    assert wrong == []


def test_the_core_imports_no_pack_by_name():
    """The core finds packs through the registry (entry points), never by an import."""
    graph = _graph()
    assert [f"{m} -> {o}" for m, imp in graph.items() if _layer(m) == "core"
            for o in imp if o.startswith("modtool.packs")] == []
