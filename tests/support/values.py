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


def fresh_process() -> None:
    """Forget what this process remembers of ledgers and games, as a new command would."""
    from modtool import gamefile
    from modtool.ledger import _store

    _store._memo.clear()
    gamefile._opened.clear()


def run_cli(capsys, *args) -> tuple[int, str, str]:
    """``modtool ARGS…`` in this process as a fresh command: (exit code, stdout, stderr)."""
    fresh_process()
    capsys.readouterr()
    code = run_main([str(a) for a in args])
    out = capsys.readouterr()
    return code, out.out, out.err
