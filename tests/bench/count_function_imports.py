"""How many imports of modtool's own modules sit inside functions or blocks
(the architecture issue: at module level, and inside a function only for a
heavy optional library). Not a test: a figure to watch.

    python3 tests/bench/count_function_imports.py [modtool]
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path


def main() -> None:
    root = Path(sys.argv[1] if len(sys.argv) > 1 else "modtool")
    total = inner = 0
    per_file: dict[str, int] = {}
    for f in sorted(root.rglob("*.py")):
        tree = ast.parse(f.read_text(encoding="utf-8"))
        top = {id(n) for n in tree.body}
        for node in ast.walk(tree):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                total += 1
                mod = node.module if isinstance(node, ast.ImportFrom) else node.names[0].name
                if id(node) not in top and mod and mod.startswith("modtool"):
                    inner += 1
                    per_file[str(f)] = per_file.get(str(f), 0) + 1
    print(f"import statements {total}; of modtool modules inside functions or blocks {inner}")
    for name, n in sorted(per_file.items(), key=lambda kv: -kv[1])[:10]:
        print(f"  {n:3d} {name}")


if __name__ == "__main__":
    main()
