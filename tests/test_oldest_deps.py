"""modtool works with the oldest versions of its dependencies that
pyproject.toml allows (tests/oldest-deps.txt), and with those and the newest
click allowed: installed into a fresh venv, the CLI gives the same output as
in the development environment (the newest of everything).

Needs a package index (or pip's cache); skipped, saying so, only when pip
cannot reach one. About 30 s, most of it pip.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import venv
from pathlib import Path

import pytest

# The slow tier (`pytest -m slow`; .ci/run runs it after the default run).
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent
CONSTRAINTS = ROOT / "tests" / "oldest-deps.txt"

# What pip says when it cannot get to an index (offline, no DNS, proxy refused).
_NO_INDEX = re.compile(
    r"NewConnectionError|Failed to establish a new connection|Temporary failure in name resolution"
    r"|Name or service not known|Network is unreachable|ConnectTimeoutError|ProxyError|Read timed out"
    r"|Could not fetch URL|Connection refused|Connection reset",
)

COMMANDS = [  # installed with the chart extra (the last command needs it)
    (["--help"], 0),
    (["tally", "GAME", "--day", "2"], 0),
    (["check", "GAME"], 0),
    (["tally", "GAME", "--nosuch"], 2),  # a usage error
    # matplotlib and fontTools at their oldest; the English game needs no CJK
    # font on the machine, and one font file (FONT: DejaVu Sans, as this
    # process's matplotlib ships it) gives both runs the same "font:" line.
    (["chart", "MAFIA", "--day", "1", "-o", "chart.svg", "--font", "FONT"], 0),
]


def oldest() -> dict[str, str]:
    pins = {}
    for line in CONSTRAINTS.read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            name, version = line.split("==")
            pins[name.lower()] = version
    return pins


def _bin(env: Path, name: str) -> Path:
    return env / ("Scripts" if os.name == "nt" else "bin") / name


def run(cmd, cwd: Path, **kw) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, encoding="utf-8", **kw)


# Each set: the oldest of everything, and the oldest with the newest click
# allowed (typer 0.12 ran with an old click and crashed with a current one).
SETS = ["oldest", "newest click"]


@pytest.fixture(scope="module", params=SETS)
def old_env(request, tmp_path_factory) -> tuple[Path, str]:
    which = request.param
    folder = tmp_path_factory.mktemp("oldest")
    constraints = folder / "constraints.txt"
    pins = oldest()
    if which == "newest click":
        del pins["click"]
    constraints.write_text("".join(f"{n}=={v}\n" for n, v in pins.items()), encoding="utf-8")
    env = folder / "venv"
    try:  # this pip installs into the new venv (pip 22.3+): no pip of its own to set up, ~15 s saved
        from pip import __version__ as pip_version

        own_pip = tuple(map(int, pip_version.split(".")[:2])) < (22, 3)
    except ImportError:
        own_pip = True
    venv.EnvBuilder(with_pip=own_pip).create(env)
    py = _bin(env, "python")
    pip = [str(py), "-m", "pip"] if own_pip else [sys.executable, "-m", "pip", "--python", str(py)]
    proc = run(
        [*pip, "install", "--disable-pip-version-check", "--retries", "1", "--timeout", "20",
         "-c", str(constraints), f"{ROOT}[chart]"],
        cwd=folder, timeout=300,
    )
    if proc.returncode != 0:
        out = proc.stdout + proc.stderr
        if _NO_INDEX.search(out):
            pytest.skip("pip cannot reach a package index to install the oldest allowed dependencies: "
                        + _NO_INDEX.search(out).group())
        pytest.fail(f"pip could not install modtool with tests/oldest-deps.txt ({which}):\n" + out[-3000:])
    return env, which


def pyproject_requirements() -> dict:
    import tomllib

    from packaging.requirements import Requirement

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    deps = project["dependencies"] + project["optional-dependencies"]["chart"]
    return {r.name.lower(): r for r in map(Requirement, deps)}


def test_constraints_match_pyproject():
    """Each pin is the lower bound pyproject.toml states: ">=0.13" pins
    0.13.x, ">=2023.0" any 2023 release (the oldest there is). A bound raised
    without its pin, or the reverse, fails here."""
    from packaging.version import Version

    reqs = pyproject_requirements()
    for name, version in oldest().items():
        spec = reqs[name].specifier
        assert spec.contains(version), (name, version, str(spec))
        (low,) = [Version(s.version).release for s in spec if s.operator == ">="]
        while len(low) > 1 and low[-1] == 0:
            low = low[:-1]
        assert Version(version).release[: len(low)] == low, (name, version, str(spec))


def test_installed_versions(old_env):
    env, which = old_env
    code = "import importlib.metadata as m, sys; [print(n, m.version(n)) for n in sys.argv[1:]]"
    got = run([str(_bin(env, "python")), "-c", code, *oldest()], cwd=env).stdout.split()
    got = {k.lower(): v for k, v in zip(got[::2], got[1::2])}
    want = oldest()
    if which == "newest click":
        assert pyproject_requirements()["click"].specifier.contains(got["click"])
        assert got.pop("click") != want.pop("click")
    assert got == want


@pytest.mark.parametrize("args, rc", COMMANDS, ids=lambda x: " ".join(x) if isinstance(x, list) else str(x))
def test_cli_with_oldest_deps(old_env, tmp_path, args, rc):
    env_dir, _ = old_env
    game = tmp_path / "m42"
    shutil.copytree(ROOT / "examples" / "m42", game, ignore=shutil.ignore_patterns(".modtool", ".ledger.lock"))
    mafia = tmp_path / "mafia"
    shutil.copytree(ROOT / "examples" / "mafia", mafia, ignore=shutil.ignore_patterns(".modtool", ".ledger.lock"))
    places = {"GAME": game, "MAFIA": mafia}
    if "FONT" in args:
        import matplotlib

        places["FONT"] = Path(matplotlib.get_data_path()) / "fonts" / "ttf" / "DejaVuSans.ttf"
    argv = [str(places.get(a, a)) for a in args]
    env = {**os.environ, "PYTHONIOENCODING": "utf-8", "COLUMNS": "200", "NO_COLOR": "1", "TERM": "dumb"}
    env.pop("PYTHONPATH", None)
    old = run([str(_bin(env_dir, "modtool")), *argv], cwd=tmp_path, env=env, timeout=60)
    script = tmp_path / "modtool"  # named so that click shows the same program name
    script.write_text("from modtool.cli.app import main\nmain()\n", encoding="utf-8")
    new = run([sys.executable, str(script), *argv], cwd=tmp_path, env={**env, "PYTHONPATH": str(ROOT)}, timeout=60)
    assert "Traceback" not in old.stdout + old.stderr and "内部错误" not in old.stdout + old.stderr, old.stderr
    assert (old.returncode, old.stdout, old.stderr) == (rc, new.stdout, new.stderr)
    if rc == 2:
        assert old.stderr.startswith("错误：")
