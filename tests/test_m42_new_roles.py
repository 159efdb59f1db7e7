"""`modtool new` checks an M42 roster's roles against the rule post's role set
(001_01b500e78d1ce664.txt: 「本场版杀为13人局，身份配置为：4狼人，1预言家，1女巫，1替罪羊，
1猎人，5村民」; no other size), unless the director says the set is custom."""

from __future__ import annotations

import pytest

from tests.test_cli import EXAMPLE, run

ROSTER = (EXAMPLE / "roster.yaml").read_text(encoding="utf-8")


def roster(tmp_path, text, name="roster.yaml"):
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def without_roles(text, keep=()):
    out = []
    for line in text.splitlines():
        if ", role: " in line and not any(f"role: {k}" in line for k in keep):
            line = line.split(", role: ")[0] + "}"
        out.append(line)
    return "\n".join(out) + "\n"


FIVE_WOLVES = ROSTER.replace("{name: 涂山苏苏, account: 苏苏今天也很努力, aliases: [苏苏], role: 村民}",
                             "{name: 涂山苏苏, account: 苏苏今天也很努力, aliases: [苏苏], role: 狼人}")


def test_m42_rule_post_role_set_is_accepted_given_or_dealt(tmp_path, capsys):
    for i, text in enumerate([ROSTER, without_roles(ROSTER), without_roles(ROSTER, keep=("狼人",))]):
        code, out, err = run(capsys, "new", tmp_path / f"g{i}", "--roster", roster(tmp_path, text), "--seed", 5)
        assert code == 0, err


@pytest.mark.parametrize("text, given", [
    (FIVE_WOLVES, "5 狼人、1 预言家、1 女巫、1 替罪羊、1 猎人、4 村民"),
    (without_roles(FIVE_WOLVES, keep=("狼人",)), "5 狼人，另有 8 名未写身份"),
    (ROSTER.replace("role: 替罪羊", "role: 村民"), "4 狼人、1 预言家、1 女巫、1 猎人、6 村民"),
])
def test_m42_another_role_set_is_refused_naming_the_counts_and_writes_nothing(tmp_path, capsys, text, given):
    g = tmp_path / "g"
    code, out, err = run(capsys, "new", g, "--roster", roster(tmp_path, text), "--seed", 5)
    assert code == 1 and not g.exists()
    assert "4 狼人、1 预言家、1 女巫、1 替罪羊、1 猎人、5 村民" in err and given in err
    assert "--custom-roles" in err and "什么也没写" in err and "Traceback" not in err


def test_m42_custom_roles_flag_takes_the_directors_own_set_of_any_size(tmp_path, capsys):
    code, out, err = run(capsys, "new", tmp_path / "g", "--roster", roster(tmp_path, FIVE_WOLVES), "--custom-roles")
    assert code == 0, err
    assert "role: werewolf" in (tmp_path / "g" / "ledger.yaml").read_text(encoding="utf-8")
    small = "\n".join(ROSTER.splitlines()[2:9]) + "\n"  # 7 characters, each with a role
    code, out, err = run(capsys, "new", tmp_path / "h", "--roster", roster(tmp_path, small, "small.yaml"), "--custom-roles")
    assert code == 0, err
    code, out, err = run(capsys, "check", tmp_path / "h")
    assert code == 0, err


def test_m42_custom_roles_needs_every_role_written(tmp_path, capsys):
    g = tmp_path / "g"
    code, out, err = run(capsys, "new", g, "--roster", roster(tmp_path, without_roles(FIVE_WOLVES, keep=("狼人",))),
                         "--custom-roles")
    assert code == 1 and not g.exists() and "涂山红红" in err and "--custom-roles" in err


def test_custom_roles_is_refused_where_there_is_no_role_set_to_check(tmp_path, capsys):
    code, out, err = run(capsys, "new", tmp_path / "z", "--game", "zhenhuan", "--players", 7, "--seed", 1, "--custom-roles")
    # 甄嬛 deals by the table (ZH-R1) and does not declare --custom-roles: refused, naming what it takes
    assert code == 1 and not (tmp_path / "z").exists() and "--custom-roles" in err and "--require" in err
