"""Small helpers the tests share."""

from __future__ import annotations


def has_surrogate(v) -> bool:
    """A lone surrogate anywhere in ``v`` (strings, keys, lists, objects' fields)."""
    if isinstance(v, str):
        return any("\ud800" <= c <= "\udfff" for c in v)
    if isinstance(v, dict):
        return any(has_surrogate(k) or has_surrogate(x) for k, x in v.items())
    if isinstance(v, (list, tuple)):
        return any(has_surrogate(x) for x in v)
    if hasattr(v, "__dict__"):
        return has_surrogate(vars(v))
    return False


def run_main(args: list[str]) -> int:
    """``modtool ARGS…`` in this process; its exit code."""
    from modtool.cli import main

    try:
        main(args)
    except SystemExit as exc:
        return exc.code or 0
    return 0
