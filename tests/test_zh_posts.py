"""甄嬛 posts and storyteller views (modtool.packs.zhenhuan.views, templates/zhenhuan/).

Secrets stay secret: public posts (dawn, nominations, execution) get no
character, team or night target of a living seat; the end post reveals all.
A small game is played event by event and every public post is rendered at
every step in both formats. No CLI: the ledger is written inline.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from ruamel.yaml import YAML

from modtool.core.gamefile import open_game
from modtool.base.problems import UserError
from modtool.core.render import render
from modtool.packs.zhenhuan import views
from modtool.packs.zhenhuan.game import replay

GAME_YAML = Path(__file__).resolve().parent.parent / "games" / "zhenhuan.yaml"
NAMES = {rid: r["name"] for rid, r in YAML(typ="safe").load(GAME_YAML.read_text(encoding="utf-8"))["roles"].items()}
FORMATS = ("bbcode", "markdown")

# 10 players (ZH-R1: 7 townsfolk, 2 minions, 1 demon); seat 10's name tries to open a BBCode tag.
SEATS = [("阿一", "huangshang"), ("阿二", "anlingrong"), ("阿三", "huafei"), ("阿四", "jinxi"), ("阿五", "jingfei"),
         ("阿六", "sanage"), ("阿七", "wentaiyi"), ("阿八", "guojunwang"), ("阿九", "yelanyi"), ("[b]十[/b]", "zhenhuan")]
BLUFFS = ["yurao", "huanbi", "taihou"]


def act(night, seat, ability, *targets):
    return {"type": "night_action", "night": night, "seat": seat, "ability": ability, "targets": list(targets)}


def adv(phase, n):
    return {"type": "advance", "phase": phase, "number": n}


def nom(day, a, b):
    return {"type": "nominate", "day": day, "nominator": a, "nominee": b}


def vote(day, v, b):
    return {"type": "vote", "day": day, "voter": v, "nominee": b}


def info(night, seat, given):
    return {"type": "info", "night": night, "seat": seat, "given": given}


# The game, step by step: night 1 (poison, checks), day 1 (3 executed, an invalid vote),
# night 2 (demon kills 5, 三阿哥 染指 7, 叶澜依 revives 3), day 2 (demon executed with a ghost vote).
GAME = [
    act(1, 2, "poison", 4),  # 安陵容 poisons 瑾汐 (ZH-R3: her info may be false)
    act(1, 4, "check", 1, 2),
    act(1, 7, "check", 4),
    info(1, 7, "是"),
    adv("night", 1),
    nom(1, 4, 3),
    vote(1, 4, 3), vote(1, 5, 3), vote(1, 6, 3), vote(1, 7, 3), vote(1, 8, 3),
    vote(1, 9, 1),  # 1 was not nominated: invalid
    adv("day", 1),
    act(2, 1, "kill", 5),
    act(2, 6, "ranzhi", 7),  # 温太医 is a physician: 染指 fails (ZH-R2/R8)
    act(2, 8, "protect", 10),
    act(2, 9, "revive", 3),
    info(2, 5, "1号、2号"),
    adv("night", 2),
    nom(2, 10, 1),
    vote(2, 10, 1), vote(2, 4, 1), vote(2, 5, 1), vote(2, 6, 1), vote(2, 7, 1),  # 5 is dead: ghost vote
    adv("day", 2),
]


def write(tmp_path: Path, events, seats=SEATS, bluffs=BLUFFS, name="game") -> Path:
    game = tmp_path / name
    game.mkdir(exist_ok=True)
    lines = ["game: zhenhuan", "seed: 7", "seats:"]
    for i, (player, ch) in enumerate(seats, start=1):
        lines.append(f"  - {{seat: {i}, player: {json.dumps(player, ensure_ascii=False)}, character: {ch}}}")
    lines.append(f"bluffs: {json.dumps(bluffs)}")
    lines.append("options: {}")
    lines.append("events:" + ("" if events else " []"))
    lines += ["  - " + json.dumps(ev, ensure_ascii=False) for ev in events]
    (game / "ledger.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return game


def load(path):
    gd = open_game(path)
    board, _ = replay(gd)
    return gd, board


def post(gd, board, kind, fmt="bbcode", **kw):
    return render("zhenhuan", kind, fmt, views.post_context(gd, board, kind, **kw), gd.path)


def upto(tmp_path, n):
    return load(write(tmp_path, GAME[:n], name=f"g{n}"))


def leaks(gd, board, text: str) -> list[str]:
    """Character names of living seats (current and dealt) and team words found in a public post."""
    body = text.replace(gd.game.name, "")  # 血染甄嬛传 contains 甄嬛
    names = {NAMES[s.character] for s in board.alive()} | {NAMES[s.original] for s in board.alive()}
    return sorted(n for n in names | {"阵营", "善良", "邪恶"} if n in body)


# -- principle 6: public posts never leak -------------------------------------------------------------


def test_public_posts_leak_nothing_at_any_step(tmp_path):
    rendered = 0
    for n in range(len(GAME) + 1):
        gd, board = upto(tmp_path, n)
        if board.winner:
            break
        for kind, kw in [("dawn", {"night": k}) for k in (1, 2)] + [("nominations", {"day": k}) for k in (1, 2)] + \
                        [("execution", {"day": k}) for k in (1, 2)] + [(k, {}) for k in ("dawn", "nominations")]:
            for fmt in FORMATS:
                try:
                    text = post(gd, board, kind, fmt, **kw)
                except UserError:
                    continue
                rendered += 1
                assert not leaks(gd, board, text), (n, kind, kw, fmt, text)
                assert "[b]十[/b]" not in text  # player text is neutralised
    assert rendered > 20


def test_public_contexts_hold_no_characters(tmp_path):
    gd, board = upto(tmp_path, GAME.index(adv("day", 2)))
    ctxs = [views.dawn(gd, board, 1), views.dawn(gd, board, 2), views.nominations(gd, board, 1),
            views.nominations(gd, board, 2), views.execution(gd, board, 1)]
    blob = json.dumps(ctxs, ensure_ascii=False)
    for rid in NAMES:
        assert f'"{rid}"' not in blob
    keys: set[str] = set()

    def walk(x):
        if isinstance(x, dict):
            keys.update(x)
            for v in x.values():
                walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)

    walk(ctxs)
    assert not keys & {"character", "original", "team", "targets", "cause", "reminders", "statuses"}


def test_end_only_when_over(tmp_path):
    gd, board = upto(tmp_path, GAME.index(adv("day", 2)))
    with pytest.raises(UserError):
        views.end(gd, board)


# -- dawn ------------------------------------------------------------------------------------------------


def test_dawn_quiet_night(tmp_path):
    gd, board = upto(tmp_path, GAME.index(adv("night", 1)) + 1)
    assert views.dawn(gd, board)["events"] == []
    assert "平安夜" in post(gd, board, "dawn", night=1)


def test_dawn_deaths_then_revival_without_causes(tmp_path):
    gd, board = upto(tmp_path, GAME.index(adv("night", 2)) + 1)
    ctx = views.dawn(gd, board, 2)
    assert [(e["kind"], e["seat"]) for e in ctx["events"]] == [("death", 5), ("revival", 3)]
    for fmt in FORMATS:
        text = post(gd, board, "dawn", fmt, night=2)
        assert text.index("5号（阿五）死亡") < text.index("3号（阿三）复活")
        assert "恶魔" not in text and "杀" not in text and "叶澜依" not in text


def test_dawn_of_an_open_night_is_refused(tmp_path):
    gd, board = upto(tmp_path, 4)
    with pytest.raises(UserError, match="还没有结束"):
        views.dawn(gd, board, 1)


# -- nominations -------------------------------------------------------------------------------------------


def test_nominations_votes_threshold_invalid_result(tmp_path):
    gd, board = upto(tmp_path, GAME.index(adv("day", 1)) + 1)
    ctx = views.nominations(gd, board, 1)
    (n,) = ctx["nominations"]
    assert (n["nominator"], n["nominee"], n["votes"], n["threshold"], n["reaches"]) == (4, 3, 5, 5, True)
    assert [v["seat"] for v in n["voters"]] == [4, 5, 6, 7, 8]
    assert ctx["invalid"][0]["kind"] == "投票" and "没有被有效提名" in ctx["invalid"][0]["reason"]
    text = post(gd, board, "nominations", day=1)
    assert "4号（阿四）提名 3号（阿三）" in text and "需要 5 票" in text
    assert "结果[/b]：3号（阿三）得 5 票（需 5 票），被处决" in text
    md = post(gd, board, "nominations", "markdown", day=1)
    assert "**结果**：3号（阿三）得 5 票（需 5 票），被处决" in md


def test_zh_r11_long_invalid_list_is_capped_and_summarised(tmp_path):
    day1 = GAME[: GAME.index(adv("day", 1))]
    extra = [vote(1, v, 1) for v in (10, 2, 1)]  # 1 was not nominated: three more invalid votes
    game = write(tmp_path, day1 + extra + [adv("day", 1)])
    ledger = game / "ledger.yaml"
    ledger.write_text(ledger.read_text(encoding="utf-8").replace("options: {}", "options: {list_limit: 2}"), encoding="utf-8")
    gd, board = load(game)
    text = post(gd, board, "nominations", day=1)
    listed = text[text.index("[b]无效的提名与投票[/b]"):text.index("[b]结果[/b]")]
    assert listed.count("没有被有效提名") == 2 and "……另有 2 条" in listed
    md = post(gd, board, "nominations", "markdown", day=1)
    assert "- ……另有 2 条" in md
    ledger.write_text(ledger.read_text(encoding="utf-8").replace("list_limit: 2", "list_limit: 0"), encoding="utf-8")
    gd, board = load(game)
    assert "[b]无效的提名与投票[/b]\n……另有 4 条\n" in post(gd, board, "nominations", day=1)


def test_nominations_ghost_vote_marked(tmp_path):
    gd, board = upto(tmp_path, len(GAME))
    n = views.nominations(gd, board, 2)["nominations"][0]
    assert [v["seat"] for v in n["voters"] if v["ghost"]] == [5]
    assert n["threshold"] == 5  # 9 alive after the revival (ZH-R11: half, rounded up)
    assert "5号（阿五）（亡魂票）" in post(gd, board, "nominations", day=2)
    assert "［b］十［/b］" in post(gd, board, "nominations", day=2)


def test_nominations_while_the_day_is_open_are_provisional(tmp_path):
    gd, board = upto(tmp_path, GAME.index(adv("day", 1)))
    ctx = views.nominations(gd, board)
    assert ctx["day"] == 1 and not ctx["closed"]
    assert "白天尚未结束" in ctx["result"] and "被处决" not in ctx["result"].replace("将被处决", "")
    with pytest.raises(UserError, match="还没有结束"):
        views.execution(gd, board, 1)


# -- execution ---------------------------------------------------------------------------------------------


def test_execution_by_vote(tmp_path):
    gd, board = upto(tmp_path, GAME.index(adv("day", 1)) + 1)
    ctx = views.execution(gd, board, 1)
    assert ctx["executed"]["seat"] == 3 and not ctx["over"]
    text = post(gd, board, "execution", day=1)
    assert "3号（阿三）得 5 票（需 5 票），被处决" in text and "天黑请闭眼" in text


def test_execution_ends_the_game(tmp_path):
    gd, board = upto(tmp_path, len(GAME))
    ctx = views.execution(gd, board, 2)
    assert ctx["over"] and ctx["winner"] == "善良阵营"
    assert "游戏结束：善良阵营胜利" in post(gd, board, "execution", "markdown", day=2)


def test_execution_nobody_tie(tmp_path):
    evs = [adv("night", 1), nom(1, 4, 3), nom(1, 5, 2)] + [vote(1, v, 3) for v in (1, 4, 6, 7, 8)] + \
          [vote(1, v, 2) for v in (2, 5, 9, 10, 3)] + [adv("day", 1)]
    gd, board = load(write(tmp_path, evs))
    text = post(gd, board, "execution", day=1)
    assert "平票" in text and "无人被处决" in text
    assert not leaks(gd, board, text)


def test_execution_nobody_short_of_votes(tmp_path):
    evs = [adv("night", 1), nom(1, 4, 3), vote(1, 4, 3), vote(1, 5, 3), adv("day", 1)]
    gd, board = load(write(tmp_path, evs))
    ctx = views.execution(gd, board, 1)
    assert ctx["executed"] is None and "没有被提名者达到处决所需票数" in ctx["result"]


def test_execution_longyue_ending_reveals_no_one_else(tmp_path):
    seats = [("甲", "zhenhuan"), ("乙", "guojunwang"), ("丙", "jingfei"), ("丁", "longyue"), ("戊", "huafei"),
             ("己", "huangshang")]
    evs = [adv("night", 1), nom(1, 1, 4)] + [vote(1, v, 4) for v in (1, 2, 3, 4)] + [adv("day", 1)]
    gd, board = load(write(tmp_path, evs, seats=seats, bluffs=[]))
    assert board.winner == "evil"
    ctx = views.execution(gd, board, 1)
    assert ctx["executed_team_lost"] and ctx["losing_team"] == "善良阵营" and ctx["winner"] == "邪恶阵营"
    for fmt in FORMATS:
        text = post(gd, board, "execution", fmt, day=1).replace(gd.game.name, "")
        assert "胧月" in text
        for s in board.alive():
            assert NAMES[s.character] not in text


# -- end -------------------------------------------------------------------------------------------------


def test_end_reveals_the_grimoire_and_timeline(tmp_path):
    gd, board = upto(tmp_path, len(GAME))
    ctx = views.end(gd, board)
    assert ctx["winner"] == "善良阵营"
    by_seat = {c["seat"]: c for c in ctx["cast"]}
    assert by_seat[1]["character"] == "皇上" and by_seat[1]["team"] == "邪恶阵营"
    assert by_seat[1]["fate"] == "第 2 天被处决"
    assert by_seat[3]["fate"] == "第 1 天被处决 → 第 2 夜后被叶澜依复活 → 存活"
    assert by_seat[5]["fate"] == "第 2 夜被恶魔杀死"
    assert [(m["phase"], m["text"]) for m in ctx["timeline"]][:2] == [("第 1 天", "3号（阿三）被处决"),
                                                                       ("第 2 夜", "5号（阿五）死亡")]
    for fmt in FORMATS:
        text = post(gd, board, "end", fmt)
        for _, ch in SEATS:
            assert NAMES[ch] in text
        assert "善良阵营获胜" in text and "玉娆" in text


def test_end_shows_the_original_character(tmp_path):
    # 皇上's 雨露均沾 on night 1 makes 敬妃 a 宠妃 (ZH-R6); executing 皇上 ends the game.
    seats = [("甲", "zhenhuan"), ("乙", "guojunwang"), ("丙", "jingfei"), ("丁", "jinxi"), ("戊", "huafei"),
             ("己", "huangshang")]
    evs = [act(1, 6, "favour", 3), adv("night", 1), nom(1, 1, 6)] + [vote(1, v, 6) for v in (1, 2, 4)] + \
          [adv("day", 1)]
    gd, board = load(write(tmp_path, evs, seats=seats, bluffs=[]))
    c3 = views.end(gd, board)["cast"][2]
    assert (c3["character"], c3["original"], c3["team"]) == ("宠妃", "敬妃", "邪恶阵营")
    priv = views.private(gd, board, 1, 3)["messages"][0]["lines"]
    assert {"label": "你的角色变为", "text": "宠妃（邪恶阵营）", "unrecorded": False} in priv


# -- private ---------------------------------------------------------------------------------------------


def test_private_night_one(tmp_path):
    gd, board = upto(tmp_path, 4)
    ctx = views.private(gd, board, 1)
    msgs = {m["seat"]: m["lines"] for m in ctx["messages"]}
    assert len(msgs) == 10
    demon = {i["label"]: i["text"] for i in msgs[1]}
    assert demon["你的角色"] == "皇上（邪恶阵营）"
    assert demon["邪恶阵营信息"] == "你的爪牙：2号、3号；不在场的善良角色：玉娆、浣碧、太后"
    assert {i["label"]: i["text"] for i in msgs[2]}["邪恶阵营信息"] == "恶魔：1号；其他爪牙：3号"
    jinxi = msgs[4][-1]
    assert jinxi["unrecorded"] and jinxi["text"] == "1号、2号中有恶魔"
    assert msgs[7][-1] == {"label": "4号是否中毒或醉酒", "text": "是", "unrecorded": False}
    text = post(gd, board, "private", night=1, seat=4)
    assert "1号、2号中有恶魔（说书人尚未记录给出的信息）" in text and "2号" in text and "阿一" not in text


def test_private_uses_the_storytellers_false_info_answer(tmp_path):
    evs = GAME[:4] + [{"type": "answer", "key": "night1/false_info/seat4", "value": "错误：否"}]
    gd, board = load(write(tmp_path, evs))
    line = views.private(gd, board, 1, 4)["messages"][0]["lines"][-1]
    assert line["text"] == "否" and not line["unrecorded"]


def test_private_night_two_sanage_and_dying_jingfei(tmp_path):
    gd, board = upto(tmp_path, GAME.index(adv("night", 2)))
    msgs = {m["seat"]: m["lines"] for m in views.private(gd, board, 2)["messages"]}
    assert msgs[6] == [{"label": "你得知", "text": "染指7号：失败", "unrecorded": True}]
    assert msgs[5] == [{"label": "你今夜死亡，当前存活的邪恶阵营玩家", "text": "1号、2号", "unrecorded": False}]
    assert 3 not in msgs  # dead at dusk, nothing learned
    assert "今夜你没有得到信息" in post(gd, board, "private", "markdown", night=2, seat=8)


# -- the storyteller's notes, status, night sheet ---------------------------------------------------------------


def test_notes_of_a_night(tmp_path):
    gd, board = upto(tmp_path, len(GAME))
    ctx = views.notes(gd, board, 2)
    assert ctx["closed"]
    assert [(a["seat"], a["ability"], a["targets"]) for a in ctx["actions"]] == [
        (1, "kill", "5号"), (6, "ranzhi", "7号"), (8, "protect", "10号"), (9, "revive", "3号")]
    assert ctx["deaths"] == [{"seat": 5, "player": "阿五", "cause": "被恶魔杀死"}]
    for fmt in FORMATS:
        text = post(gd, board, "notes", fmt, night=2)
        assert "染指7号：失败" in text and "1号、2号" in text and "3号（阿三）被叶澜依复活" in text


def test_notes_list_questions_and_answers(tmp_path):
    evs = GAME[:4] + [{"type": "answer", "key": "night1/false_info/seat4", "value": "真实：是"}]
    gd, board = load(write(tmp_path, evs))
    ctx = views.notes(gd, board, 1)
    assert ctx["answers"] == [{"key": "night1/false_info/seat4", "value": "真实：是"}]
    gd, board = upto(tmp_path, 4)
    assert [q["key"] for q in views.notes(gd, board, 1)["questions"]] == ["night1/false_info/seat4"]


def test_status_shows_grimoire_reminders_and_questions(tmp_path):
    gd, board = upto(tmp_path, 4)
    j = views.status_json(gd, board)
    assert j["seats"][3]["reminders"] == ["今夜：中毒（到第 2 夜开始）"]
    assert j["seats"][0]["character_name"] == "皇上" and j["bluff_names"] == ["玉娆", "浣碧", "太后"]
    assert j["questions"][0]["key"] == "night1/false_info/seat4"
    text = views.status_text(gd, board)
    assert "4号 阿四：瑾汐姑姑　善良　存活　今夜：中毒（到第 2 夜开始）" in text
    assert f"modtool answer {gd.path} night1/false_info/seat4" in text
    assert "下一步" in text and "modtool advance" in text


def test_status_tonight_and_standing_reminders(tmp_path):
    gd, board = upto(tmp_path, GAME.index(adv("night", 2)))
    j = views.status_json(gd, board)
    assert j["tonight"] == ["5号（阿五）被恶魔杀死", "3号（阿三）天亮时被叶澜依复活"]
    assert j["seats"][8]["reminders"] == ["今夜：技能已用"]
    assert j["seats"][4]["alive"]  # the kill is not resolved before dawn


def test_status_after_the_end(tmp_path):
    gd, board = upto(tmp_path, len(GAME))
    j = views.status_json(gd, board)
    assert j["winner_name"] == "善良阵营" and j["phase_label"] == "游戏结束"
    assert any("亡魂票已用" in line for line in views.status_text(gd, board).splitlines() if "5号" in line)
    assert any("announce" in s and "end" in s for s in j["next"])


def test_night_sheet(tmp_path):
    gd, board = upto(tmp_path, 3)
    j = views.night_json(gd, board)
    jinxi = next(s for s in j["steps"] if s["character"] == "jinxi")
    assert jinxi["may_be_false"] and jinxi["truth_text"] == "1号、2号中有恶魔"
    assert jinxi["decoy_text"] == "1号、2号中没有恶魔"
    text = views.night_text(gd, board)
    assert "（可能给假信息）建议的假信息：1号、2号中没有恶魔" in text
    assert f"modtool act {gd.path} 座位 技能 目标" in text and f"modtool info {gd.path} 座位" in text
    assert text.index("瑾汐姑姑") < text.index("温太医") < text.index("敬妃")
    gd, board = upto(tmp_path, GAME.index(adv("night", 1)) + 1)
    assert views.night_json(gd, board)["steps"] == [] and "不是夜晚" in views.night_text(gd, board)


def test_unknown_kind(tmp_path):
    gd, board = upto(tmp_path, 0)
    with pytest.raises(UserError):
        views.post_context(gd, board, "nope")
