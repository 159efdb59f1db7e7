"""血染甄嬛传 setup: games/zhenhuan.yaml and modtool.packs.zhenhuan.setup (ZH-R1, R2, R3, R13)."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from modtool.core.games import load_game
from modtool.base.problems import UserError
from modtool.packs.zhenhuan.setup import (
    CATEGORIES,
    check_board,
    composition,
    deal,
    night_order,
    resolve_role,
)

SEED_TEXT = Path("/work/shared/seeds/000_885905f2b4922ad5.txt")

# ZH-R1, [townsfolk, outsider, minion, demon].
TABLE = {5: (3, 0, 1, 1), 6: (3, 1, 1, 1), 7: (5, 0, 1, 1), 8: (5, 1, 1, 1), 9: (5, 2, 1, 1),
         10: (7, 0, 2, 1), 11: (7, 1, 2, 1), 12: (7, 2, 2, 1), 13: (9, 0, 3, 1), 14: (9, 1, 3, 1),
         15: (9, 2, 3, 1)}

# Every character of the script text: id -> (Chinese name, category, team).
CHARACTERS = {
    "zhenhuan": ("甄嬛", "townsfolk", "good"), "jinxi": ("瑾汐姑姑", "townsfolk", "good"),
    "guojunwang": ("果郡王", "townsfolk", "good"), "wentaiyi": ("温太医", "townsfolk", "good"),
    "qiguiren": ("祺贵人", "townsfolk", "good"), "yurao": ("玉娆", "townsfolk", "good"),
    "huanbi": ("浣碧", "townsfolk", "good"), "jingfei": ("敬妃", "townsfolk", "good"),
    "sanage": ("三阿哥", "townsfolk", "good"), "niangengyao": ("年羹尧", "townsfolk", "good"),
    "chunyuan": ("纯元皇后", "townsfolk", "good"), "taihou": ("太后", "townsfolk", "good"),
    "yelanyi": ("叶澜依", "townsfolk", "good"),
    "qifei": ("齐妃", "outsider", "good"), "dunqinwang": ("敦亲王", "outsider", "good"),
    "longyue": ("胧月", "outsider", "good"), "sundaying": ("孙答应", "outsider", "good"),
    "kuangtu": ("狂徒", "outsider", "good"),
    "supeisheng": ("苏培盛", "minion", "evil"), "anlingrong": ("安陵容", "minion", "evil"),
    "huafei": ("华妃", "minion", "evil"), "huanghou": ("皇后", "minion", "evil"),
    "chongfei": ("宠妃", "minion", "evil"),
    "huangshang": ("皇上", "demon", "evil"), "taishanghuang": ("太上皇", "demon", "evil"),
    "nvhuang": ("女皇", "demon", "evil"),
}


@pytest.fixture(scope="module")
def game():
    return load_game("zhenhuan")


def players(n: int) -> list[str]:
    return [f"玩家{i:02d}" for i in range(1, n + 1)]


def counts(game, setup) -> dict[str, int]:
    c = Counter(game.roles[ch]["category"] if ch in game.roles else ch for ch in setup.characters())
    return {k: c.get(k, 0) for k in (*CATEGORIES, "traveller")}


# --------------------------------------------------------------------------- the YAML


def test_every_character_of_the_text_is_in_the_yaml(game):
    assert game.data["id"] == "zhenhuan" and game.name == "血染甄嬛传"
    assert game.data["kind"] == "clocktower"
    assert game.data["players"] == {"min": 5, "max": 20}
    assert game.data["camps"]["good"]["name"] == "善良阵营"
    assert game.data["camps"]["evil"]["name"] == "邪恶阵营"
    assert set(game.roles) == set(CHARACTERS)
    for rid, (name, category, team) in CHARACTERS.items():
        role = game.roles[rid]
        assert (role["name"], role["category"], role["team"]) == (name, category, team), rid
        assert role["camp"] == role["team"], rid  # Game.camp_of reads `camp`
        assert role["text"].strip(), rid
        assert set(role["once_per_game"]) <= set(role["abilities"]), rid
    assert game.roles["chongfei"]["created"] and game.roles["nvhuang"]["created"]
    assert {"槿汐", "槿汐姑姑", "瑾汐"} <= set(game.roles["jinxi"]["aliases"])
    assert resolve_role(game, "槿汐") == "jinxi"
    assert resolve_role(game, "温实初") == "wentaiyi"
    assert resolve_role(game, "皇后") == "huanghou"
    assert game.data["vote_labels"]["nominate_target"][0] == "提名对象"
    assert game.data["vote_labels"]["nominate_reason"][0] == "提名理由"
    assert game.data["vote_labels"]["vote_target"][0] == "投票对象"


def test_abilities_are_the_engine_ids(game):
    expected = {
        "zhenhuan": ["counter_kill"], "jinxi": ["check_pair"], "guojunwang": ["protect"],
        "wentaiyi": ["check_impaired"], "qiguiren": ["accuse"], "yurao": ["learn_good"],
        "huanbi": ["learn_distance"], "jingfei": ["count_women", "dying_evil_info"], "sanage": ["ranzhi"],
        "niangengyao": ["take"], "chunyuan": ["nominated_execute"], "taihou": ["force_execute"],
        "yelanyi": ["revive"], "qifei": ["silence"], "dunqinwang": ["drunk"],
        "longyue": ["team_loses_on_execution"], "sundaying": ["follow_madman", "drunk_all"],
        "kuangtu": ["storyteller_death"], "supeisheng": ["setup_outsider_plus"],
        "anlingrong": ["poison", "curse"], "huafei": ["yizhanghong"], "huanghou": ["become_empress"],
        "chongfei": ["pin"], "huangshang": ["kill", "favour"],
        "taishanghuang": ["kill", "abdicate", "setup_outsider_plus"], "nvhuang": ["kill"],
    }
    assert {rid: r["abilities"] for rid, r in game.roles.items()} == expected
    once = {rid for rid, r in game.roles.items() if r["once_per_game"]}
    assert once == {"niangengyao", "chunyuan", "taihou", "yelanyi", "huangshang"}
    assert game.roles["huangshang"]["once_per_game"] == ["favour"]  # 雨露均沾 only, not the kill


@pytest.mark.skipif(not SEED_TEXT.is_file(), reason="script text not available")
def test_texts_are_the_script_verbatim(game):
    script = SEED_TEXT.read_text(encoding="utf-8")
    lines = set(script.splitlines())
    for rid, role in game.roles.items():
        header = f"{role['name']}：{role['title']}"
        assert header in lines or "*" + header in lines, rid
        for line in role["text"].split("\n"):
            assert line in lines, (rid, line)
    # every character heading of the text is a role
    section = script[script.index("¶ 村民"):script.index("¶ 行动顺序")]
    heads = re.findall(r"^\*?([^：\s\-¶]{1,6})：", section, flags=re.M)
    names = {r["name"] for r in game.roles.values()}
    assert {h for h in heads if h not in ("被动", "染指失败", "染指成功", "染指失败并处死", "注")} <= names


def test_boards_match_the_table(game):
    assert {"新手7人", "标准10人", "混乱12人"} <= set(game.data["boards"])
    for name in game.data["boards"]:
        check_board(game, name)  # raises on a mismatch


# --------------------------------------------------------------------------- ZH-R1


def test_zh_r1_setup_table_every_count(game):
    for n in range(5, 21):
        t, o, m, d = TABLE[min(n, 15)]
        want = {"townsfolk": t, "outsider": o, "minion": m, "demon": d, "traveller": max(0, n - 15)}
        assert composition(game, n, []) == want, n
        setup = deal(game, players(n), seed=1000 + n)
        got = counts(game, setup)
        mods = [c for c in setup.characters() if c in ("supeisheng", "taishanghuang")]
        assert got == composition(game, n, mods), n
        assert got["demon"] == 1 and got["traveller"] == max(0, n - 15)
        assert [s["seat"] for s in setup.seats] == list(range(1, n + 1))
        assert sorted(s["player"] for s in setup.seats) == sorted(players(n))
    for n in (4, 21, 0):
        with pytest.raises(UserError, match="玩家"):
            composition(game, n, [])
    with pytest.raises(UserError, match="玩家太少"):
        deal(game, players(4), seed=1)
    with pytest.raises(UserError, match="玩家太多"):
        deal(game, players(21), seed=1)
    with pytest.raises(UserError, match="重复"):
        deal(game, ["甲", "乙", "丙", "丁", "甲"], seed=1)


def test_zh_r1_supeisheng_and_taishanghuang_stack(game):
    assert composition(game, 10, ["supeisheng"]) == {"townsfolk": 6, "outsider": 1, "minion": 2, "demon": 1,
                                                     "traveller": 0}
    assert composition(game, 10, ["supeisheng", "taishanghuang"]) == {
        "townsfolk": 5, "outsider": 2, "minion": 2, "demon": 1, "traveller": 0}
    assert composition(game, 5, ["supeisheng", "taishanghuang", "zhenhuan"])["townsfolk"] == 1
    for n in (5, 7, 10, 12, 15, 18):
        for seed in range(5):
            s = deal(game, players(n), seed, require=["苏培盛", "taishanghuang"])
            assert {"supeisheng", "taishanghuang"} <= set(s.characters())
            t, o, m, d = TABLE[min(n, 15)]
            got = counts(game, s)
            assert (got["townsfolk"], got["outsider"], got["minion"], got["demon"]) == (t - 2, o + 2, m, d)
    s = deal(game, players(8), 3, require=["supeisheng"])
    assert counts(game, s)["outsider"] == 2


def test_zh_r1_require_and_impossible_requirements(game):
    s = deal(game, players(10), 5, require=["甄嬛", "槿汐", "huanbi", "皇上"])
    assert {"zhenhuan", "jinxi", "huanbi", "huangshang"} <= set(s.characters())
    # seven required townsfolk at 10: a random 苏培盛/太上皇 must not squeeze one out
    seven = ["zhenhuan", "jinxi", "guojunwang", "wentaiyi", "qiguiren", "yurao", "huanbi"]
    for seed in range(30):
        s = deal(game, players(10), seed, require=seven)
        assert set(seven) <= set(s.characters())
        assert not {"supeisheng", "taishanghuang"} & set(s.characters())
    with pytest.raises(UserError, match="恶魔"):
        deal(game, players(10), 1, require=["皇上", "太上皇"])
    with pytest.raises(UserError, match="未知的角色"):
        deal(game, players(10), 1, require=["沈眉庄"])
    with pytest.raises(UserError, match="村民"):
        deal(game, players(7), 1, require=seven[:6])
    with pytest.raises(UserError, match="外来者"):
        deal(game, players(7), 1, require=["qifei"])  # 7 players: no outsider without a modifier
    assert "qifei" in deal(game, players(7), 1, require=["qifei", "supeisheng"]).characters()
    with pytest.raises(UserError, match="爪牙"):
        deal(game, players(7), 1, require=["huafei", "anlingrong"])
    with pytest.raises(UserError, match="重复"):
        deal(game, players(7), 1, require=["甄嬛", "zhenhuan"])


def test_zh_r1_never_deal_created_characters(game):
    for n in range(5, 21):
        for seed in range(8):
            chars = deal(game, players(n), seed).characters()
            assert "chongfei" not in chars and "nvhuang" not in chars
            assert sum(1 for c in chars if game.roles.get(c, {}).get("category") == "demon") == 1
            assert len(set(c for c in chars if c != "traveller")) == len([c for c in chars if c != "traveller"])
    for name in ("宠妃", "nvhuang", "女皇"):
        with pytest.raises(UserError, match="开局不能发"):
            deal(game, players(10), 1, require=[name])
    assert game.data["setup"]["never_dealt"] == ["chongfei", "nvhuang"]


def test_zh_r1_bluffs_only_at_seven_plus(game):
    assert game.data["setup"]["info_at_players"] == 7
    for n in range(5, 21):
        for seed in range(4):
            s = deal(game, players(n), seed)
            if n < 7:
                assert s.bluffs == []
                continue
            assert len(s.bluffs) == 3 and len(set(s.bluffs)) == 3
            for b in s.bluffs:
                assert game.roles[b]["team"] == "good" and b not in s.characters()
                assert not game.roles[b].get("created")


def test_zh_r1_same_seed_same_deal(game):
    a = deal(game, players(12), 20240501, require=["浣碧"])
    b = deal(game, players(12), 20240501, require=["浣碧"])
    assert a.to_header() == b.to_header() and a.warnings == b.warnings
    others = {tuple(s["character"] for s in deal(game, players(12), seed).seats) for seed in range(10)}
    assert len(others) > 1
    seatings = {tuple(s["player"] for s in deal(game, players(12), seed).seats) for seed in range(10)}
    assert len(seatings) > 1  # players are shuffled into seats from the seed too
    with pytest.raises(UserError, match="种子"):
        deal(game, players(7), "abc")


def test_to_header_is_the_ledger_header(game):
    s = deal(game, players(8), 9)
    h = s.to_header()
    assert set(h) == {"seed", "seats", "bluffs"} and h["seed"] == 9
    assert all(set(x) == {"seat", "player", "character"} for x in h["seats"])
    hb = deal(game, players(10), 9, board="标准10人").to_header()
    assert hb["board"] == "标准10人"
    assert sorted(x["character"] for x in hb["seats"]) == sorted(game.data["boards"]["标准10人"]["roles"])


def test_boards_deal_and_errors(game):
    with pytest.raises(UserError, match="未知的板子"):
        deal(game, players(10), 1, board="不存在")
    with pytest.raises(UserError, match="10 人局"):
        deal(game, players(9), 1, board="标准10人")
    with pytest.raises(UserError, match="没有指定的角色"):
        deal(game, players(10), 1, board="标准10人", require=["taihou"])
    s = deal(game, players(12), 4, board="太上皇12人")
    assert counts(game, s) == composition(game, 12, ["supeisheng", "taishanghuang"])


# --------------------------------------------------------------------------- warnings (ZH-R3, script)


def _adjacent(setup, a, b):
    sa, sb = setup.seat_of(a), setup.seat_of(b)
    n = len(setup.seats)
    return sa is not None and sb is not None and (sa - sb) % n in (1, n - 1)


def test_zh_r3_warning_huanbi_next_to_guojunwang(game):
    seen = set()
    for seed in range(60):
        s = deal(game, players(10), seed, board="标准10人")
        adj = _adjacent(s, "huanbi", "guojunwang")
        seen.add(adj)
        assert ("huanbi_next_to_guojunwang" in s.warning_ids) == adj
        if adj:
            text = s.warnings[s.warning_ids.index("huanbi_next_to_guojunwang")]
            assert "浣碧" in text and "果郡王" in text and "醉酒" in text
            assert f"{s.seat_of('huanbi')}号" in text
    assert seen == {True, False}
    for seed in range(60):  # the option reseats instead
        s = deal(game, players(10), seed, board="标准10人", options={"avoid_huanbi_next_to_guojunwang": True})
        assert not _adjacent(s, "huanbi", "guojunwang")


def test_warning_supeisheng_with_jinxi(game):
    assert game.options()["supeisheng_turns_jinxi_evil"] is False
    s = deal(game, players(10), 3, require=["苏培盛", "瑾汐姑姑"])
    assert "supeisheng_with_jinxi" in s.warning_ids
    assert "supeisheng_turns_jinxi_evil" not in s.warning_ids
    text = s.warnings[s.warning_ids.index("supeisheng_with_jinxi")]
    assert "苏培盛" in text and "瑾汐姑姑" in text
    s = deal(game, players(10), 3, require=["苏培盛", "瑾汐姑姑"], options={"supeisheng_turns_jinxi_evil": True})
    assert "supeisheng_turns_jinxi_evil" in s.warning_ids and "supeisheng_with_jinxi" not in s.warning_ids
    s = deal(game, players(10), 3, require=["瑾汐姑姑", "华妃", "安陵容"])
    assert not {"supeisheng_with_jinxi", "supeisheng_turns_jinxi_evil"} & set(s.warning_ids)


def test_other_warnings_and_travellers(game):
    s = deal(game, players(9), 2, require=["孙答应", "太上皇", "甄嬛", "皇后"])
    assert {"zhenhuan_with_taishanghuang", "huanghou_without_huangshang"} <= set(s.warning_ids)
    with_madman = "kuangtu" in s.characters()
    assert ("sundaying_with_kuangtu" in s.warning_ids) == with_madman
    assert ("sundaying_without_kuangtu" in s.warning_ids) == (not with_madman)
    s = deal(game, players(9), 2, require=["孙答应", "狂徒"])
    assert "sundaying_with_kuangtu" in s.warning_ids and "sundaying_without_kuangtu" not in s.warning_ids
    s = deal(game, players(17), 2)
    assert "travellers" in s.warning_ids and s.characters().count("traveller") == 2


# --------------------------------------------------------------------------- ZH-R2


def test_zh_r2_gender_tags(game):
    genders = {rid: r["gender"] for rid, r in game.roles.items()}
    assert set(genders.values()) <= {"female", "male", "eunuch", "physician"}
    assert genders["supeisheng"] == "eunuch" and genders["wentaiyi"] == "physician"
    assert [r for r, g in genders.items() if g == "eunuch"] == ["supeisheng"]
    assert [r for r, g in genders.items() if g == "physician"] == ["wentaiyi"]
    men = {r for r, g in genders.items() if g == "male"}
    assert men == {"guojunwang", "sanage", "niangengyao", "dunqinwang", "kuangtu", "huangshang", "taishanghuang"}
    for r in ("zhenhuan", "jinxi", "huanbi", "taihou", "qifei", "longyue", "anlingrong", "huafei", "huanghou",
              "chongfei", "nvhuang", "chunyuan", "yelanyi", "sundaying", "qiguiren", "yurao", "jingfei"):
        assert genders[r] == "female", r
    women = game.data["women"]
    assert women["favour"] == ["female"] and women["poison"] == ["female"]
    assert set(women["count_women"]) == {"female", "eunuch", "physician"}
    fails = game.data["ranzhi_fails_on"]
    assert fails["genders"] == ["male"] and set(fails["characters"]) == {"taihou", "qifei", "longyue"}
    assert fails["female_minions"] is True
    assert set(game.data["ranzhi_kills_sanage_on"]) == {"nvhuang", "zhenhuan"}


# --------------------------------------------------------------------------- ZH-R13


def test_zh_r13_order_numbers_follow_the_ruling(game):
    first = night_order(game, True, 7)
    assert first == ["dusk", "minion_info", "demon_info", "anlingrong", "guojunwang", "huafei", "huangshang",
                     "jinxi", "wentaiyi", "yurao", "huanbi", "jingfei", "dawn"]
    assert "minion_info" not in night_order(game, True, 6)  # ZH-R1: no info at 5-6
    other = night_order(game, False, 10)
    assert other == ["dusk", "clear_poison", "curse_deaths", "accuse_wrong", "sundaying",  # night-start effects
                     "chongfei", "anlingrong", "guojunwang", "huafei", "sanage",
                     "huangshang", "taishanghuang", "nvhuang",  # the demon
                     "niangengyao", "jingfei", "yurao", "qiguiren", "yelanyi", "jinxi", "wentaiyi", "dawn"]
    # every demon shares one step
    assert len({game.roles[d]["other_nights"] for d in ("huangshang", "taishanghuang", "nvhuang")}) == 1
    # no demon kill on the first night: only 皇上 wakes (雨露均沾)
    assert game.roles["taishanghuang"]["first_night"] is None and game.roles["nvhuang"]["first_night"] is None
    assert game.options()["first_night_demon_kills"] is False
    steps = {s["id"]: s for s in game.data["night_steps"]}
    assert {"dusk", "minion_info", "demon_info", "dawn"} <= set(steps)
    # in_play filters role steps
    assert night_order(game, False, 10, in_play={"zhenhuan", "huangshang"}) == ["dusk", "huangshang", "dawn"]
    # roles that never wake
    for rid in ("zhenhuan", "chunyuan", "taihou", "qifei", "dunqinwang", "longyue", "kuangtu", "supeisheng",
                "huanghou"):
        assert game.roles[rid]["first_night"] is None and game.roles[rid]["other_nights"] is None, rid
