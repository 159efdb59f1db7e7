"""A game pack from another distribution, installed beside modtool, plays a game.

modtool and ``examples/third-party-pack`` (the 举手 game) are built into wheels
and installed, without their dependencies, into one temporary folder that a
subprocess puts first on its path (the dependencies come from this test's
environment). Then the example's ``demo.sh`` runs ``new``, ``import``,
``tally``, ``tally --json``, ``announce``, ``check``, the pack's own
``deadline`` and ``undo`` through the installed ``modtool``: the core found
the pack by its entry point, and no line of the core names it. The pack's own
tests run there too.

Slow (two wheel builds): ``pytest -m slow tests/test_third_party_pack.py``.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "third-party-pack"

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """(site folder holding modtool and modtool-jushou, a ``modtool`` executable, its environment)."""
    tmp = tmp_path_factory.mktemp("third-party")
    site = tmp / "site"
    pip = [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target", str(site)]
    try:
        import hatchling  # noqa: F401  - build here, without fetching a build backend

        pip.append("--no-build-isolation")
    except ImportError:
        pass  # pip fetches hatchling into an isolated build environment
    done = subprocess.run([*pip, str(ROOT), str(EXAMPLE)], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    env = dict(os.environ, PYTHONPATH=str(site), PYTHONDONTWRITEBYTECODE="1", LANG="C.UTF-8")
    env.pop("LANGUAGE", None), env.pop("LC_ALL", None)
    exe = tmp / "modtool"
    exe.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m modtool "$@"\n', encoding="utf-8")
    exe.chmod(0o755)
    return site, exe, env


def test_the_installed_modtool_is_the_wheel_and_finds_every_pack_by_its_entry_point(installed):
    site, exe, env = installed
    where = subprocess.run([sys.executable, "-c", "import modtool, modtool_jushou; print(modtool.__file__); "
                            "from modtool.core.registry import all_packs; "
                            "print(' '.join(f'{g}:{p.distribution}' for g, p in all_packs().items()))"],
                           env=env, cwd=site.parent, capture_output=True, text=True, timeout=120)
    assert where.returncode == 0, where.stderr
    path, packs = where.stdout.splitlines()
    assert Path(path).is_relative_to(site)  # the wheel, not this checkout
    assert packs.split() == ["m42:modtool", "mafia:modtool", "zhenhuan:modtool", "jushou:modtool-jushou"]
    # A Chinese locale lists the Chinese game by its name; C.UTF-8 speaks English and lists it by its id.
    helped = subprocess.run([str(exe), "new", "--help"], env=dict(env, LANG="zh_CN.UTF-8"), cwd=site.parent,
                            capture_output=True, text=True, timeout=120)
    assert helped.returncode == 0 and "jushou（举手）" in helped.stdout, helped.stdout
    helped = subprocess.run([str(exe), "new", "--help"], env=env, cwd=site.parent, capture_output=True, text=True, timeout=120)
    assert helped.returncode == 0 and "jushou" in helped.stdout and "Create a new game" in helped.stdout, helped.stdout


def test_demo_plays_a_short_game_with_the_core_commands_and_the_packs_own(installed, tmp_path):
    site, exe, env = installed
    work = tmp_path / "举手局"
    done = subprocess.run(["sh", str(EXAMPLE / "demo.sh")], env=dict(env, MODTOOL=str(exe), WORK=str(work)),
                          cwd=tmp_path, capture_output=True, text=True, timeout=300)  # not this checkout's modtool
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    steps = {}
    for block in re.split(r"(?m)^\$ modtool ", done.stdout)[1:]:
        command, _, output = block.partition("\n")
        steps.setdefault(" ".join(command.split()[:1] + [a for a in command.split()[2:] if a.startswith("-")]), []).append(output)

    assert steps["new --game --roster"][0].startswith("已建立 ")
    assert "已导入 8 帖" in steps["import --thread --day"][0]
    first, after_deadline, after_undo = steps["tally --day"]
    assert "第 1 天举手：在场 5 人，过半数为 3 手" in first
    assert "  丙：3 手（甲、乙、戊）\n当选：丙（7 楼，2026-11-03 10:20）" in first
    assert "没有叫「小明」的玩家；是不是想写「小丙」？" in first
    data = json.loads(steps["tally --day --json"][0])
    assert data == {
        "game": "jushou", "day": 1, "living": 5, "majority": 3, "deadline": None,
        "hands": [{"name": "丙", "count": 3, "by": ["甲", "乙", "戊"]}],
        "chosen": {"name": "丙", "floor": 7, "time": "2026-11-03 10:20"},
        "invalid": data["invalid"], "not_raised": ["丙", "丁"],
    }
    assert [(i["floor"], i["author"]) for i in data["invalid"]] == [(3, "丁"), (8, "丁")]
    post = steps["announce --day"][0]
    assert post.startswith("[b]第 1 天举手结果[/b]\n在场 5 人，过半数为 3 手。\n")
    assert "[b]当选：丙[/b]（7 楼，2026-11-03 10:20）" in post
    assert "没有发现问题" in steps["check"][0]
    assert "已记下第 1 天的截止时间：2026-11-03 10:15" in steps["deadline --day --at"][0]
    assert "还没有人得到过半数的手" in after_deadline and "之后，不算（JS-R5）" in after_deadline
    assert re.match(r"已撤销第 \d+ 行的截止时间记录", steps["undo"][0])
    assert after_undo == first
    assert "game: jushou" in (work / "ledger.yaml").read_text(encoding="utf-8")


def test_the_packs_own_tests_pass_where_it_is_installed(installed):
    site, exe, env = installed
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-W", "ignore::DeprecationWarning"],
                          cwd=EXAMPLE, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
