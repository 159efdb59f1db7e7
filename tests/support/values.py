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
    from modtool.cli.app import main

    try:
        main(args)
    except SystemExit as exc:
        return exc.code or 0
    return 0


def fresh_process() -> None:
    """Forget what this process remembers of ledgers and games, as a new command would."""
    from modtool.core import gamefile
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


def latin1_env(folder, base: dict | None = None) -> dict:
    """An environment for a Latin-1 terminal: the real en_US.ISO-8859-1 locale,
    built into ``folder`` by localedef (LOCPATH) when this machine can, else
    Python's PYTHONIOENCODING=latin-1 (output only)."""
    import os
    import shutil
    import subprocess
    from pathlib import Path

    env = {k: v for k, v in (os.environ if base is None else base).items()
           if not k.startswith(("LC_", "LANG", "PYTHONIOENCODING", "PYTHONUTF8"))}
    target = Path(folder) / "en_US.ISO-8859-1"
    if shutil.which("localedef"):
        Path(folder).mkdir(parents=True, exist_ok=True)
        subprocess.run(["localedef", "-i", "en_US", "-f", "ISO-8859-1", str(target)], capture_output=True, check=False, timeout=60)
    if target.is_dir():
        return dict(env, LOCPATH=str(folder), LANG="en_US.ISO-8859-1", LC_ALL="en_US.ISO-8859-1")
    return dict(env, LANG="C.UTF-8", PYTHONIOENCODING="latin-1")
