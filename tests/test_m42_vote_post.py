"""The M42 vote post a forum reader wants, and the director's tally text (M42-R3, R5).

A 票型 line per target first (count, then who voted for it; the sheriff's
double vote shown as ×2), a count column that adds up (a superseded vote
shows 0), only posts that try to vote listed as 无效票, long lists capped and
summarised, and a title the director can set."""

from __future__ import annotations

import re
from pathlib import Path

from tests.conftest import write_game
from tests.support.values import run_main

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "m42"


def cli(capsys, *args) -> tuple[int, str]:
    code = run_main([str(a) for a in args])
    out = capsys.readouterr()
    assert code == 0, out.err
    return code, out.out


def test_m42_r3_vote_post_opens_with_each_target_its_count_and_voters(capsys):
    _, out = cli(capsys, "announce", EXAMPLE, "vote", "--day", "2")
    lines = out.split("\n")
    first = lines.index("[b]票型[/b]")
    assert lines[first + 1] == "金人凤 8 票：涂山红红×2、涂山雅雅、东方月初、王权富贵、东方秦兰、白月初、涂山容容"
    assert lines[first + 2] == "涂山红红 4 票：金人凤、李去浊、王权霸业、石宽"
    assert first < out.index("[table") and "票数统计" not in out
    _, md = cli(capsys, "announce", EXAMPLE, "vote", "--day", "2", "--format", "markdown")
    assert "- 金人凤 8 票：涂山红红×2、涂山雅雅、东方月初、王权富贵、东方秦兰、白月初、涂山容容\n" in md
    assert md.index("**票型**") < md.index("| 楼层 |")


def test_m42_r5_superseded_vote_shows_0_so_the_count_column_adds_up(capsys):
    _, out = cli(capsys, "announce", EXAMPLE, "vote", "--day", "2")
    rows = re.findall(r"^\[tr\]\[td\](?!\[b\])(.*)\[/tr\]$", out, re.M)
    cells = [re.findall(r"\[td\](.*?)\[/td\]", "[td]" + r) for r in rows]
    by_floor = {re.sub(r"\[/?url[^\]]*\]", "", c[0]): c for c in cells}
    assert by_floor["10#"][4] == "0" and "已改投 涂山红红" in by_floor["10#"][5]
    assert sum(int(c[4]) for c in cells) == 8 + 4
    _, text = cli(capsys, "tally", EXAMPLE, "--day", "2")
    assert re.search(r"10楼 .*石宽 → 东方淮竹  ×0　→ 改投 涂山红红", text)


def _busy_day(tmp_path: Path, header: str = "game: m42\nseed: 1\n") -> Path:
    """Day 1's vote thread: one vote, chatter, many malformed tries, many unknown accounts."""
    ev = ['- {type: close, day: 1, at: "2026-11-03 21:00"}',
          '- {type: post, thread: vote, day: 1, floor: 2, author: 月初不是白, time: "2026-11-03 10:00", '
          'body: "投票对象：涂山红红\\n投票理由：她跳得好"}']
    floor = 3
    for _ in range(40):  # chatter by a character
        ev.append(f'- {{type: post, thread: vote, day: 1, floor: {floor}, author: 石头宽宽, time: "2026-11-03 11:00", body: "顶"}}')
        floor += 1
    for _ in range(12):  # tries to vote, each missing its reason
        ev.append(f'- {{type: post, thread: vote, day: 1, floor: {floor}, author: 雅雅女王, time: "2026-11-03 12:00", body: "投票对象：石宽"}}')
        floor += 1
    for i in range(30):  # accounts not in the roster
        ev.append(f'- {{type: post, thread: vote, day: 1, floor: {floor}, author: 路人{i:02d}, time: "2026-11-03 13:00", body: "围观"}}')
        floor += 1
    return write_game(tmp_path, "\n".join(ev), header=header)


def test_m42_r5_only_posts_that_try_to_vote_are_listed_and_long_lists_are_capped(tmp_path, capsys):
    game = _busy_day(tmp_path, header="game: m42\nseed: 1\noptions:\n  list_limit: 5\n")
    _, post = cli(capsys, "announce", game, "vote", "--day", "1")
    assert "不是投票帖" not in post and "顶" not in post
    invalid = post[post.index("[b]无效票[/b]"):post.index("[b]结果[/b]")]
    assert invalid.count("雅雅女王：格式错误：缺少「投票理由」") == 5
    assert "……另有 7 帖" in invalid
    _, text = cli(capsys, "tally", game, "--day", "1")
    assert "不是投票帖" not in text
    assert "闲聊（没有投票格式，不算投票）：40 帖" in text
    assert text.count("缺少「投票理由」") == 5 and "……另有 7 帖（完整列表：--json）" in text
    unknown = next(line for line in text.split("\n") if line.startswith("不在名单上的账号"))
    assert unknown.count("路人") == 5 and unknown.endswith("……另有 25 个账号、25 帖")
    assert "路人00（55楼）" in unknown


def test_m42_r5_list_limit_defaults_keep_a_50k_post_day_short(tmp_path, capsys):
    game = _busy_day(tmp_path)
    _, text = cli(capsys, "tally", game, "--day", "1")
    assert max(len(line) for line in text.split("\n")) < 1000
    assert text.count("缺少「投票理由」") == 12  # under the default limit everything is listed


def test_vote_post_title_from_the_ledger_option_and_from_the_flag(tmp_path, capsys):
    game = _busy_day(tmp_path, header="game: m42\nseed: 1\noptions:\n  vote_post_title: \"{game} 第{day}天{purpose}·票型公示\"\n")
    _, post = cli(capsys, "announce", game, "vote", "--day", "1")
    assert post.split("\n")[0] == "[b]M42『狐妖小红娘』 第1天警长竞选·票型公示[/b]"
    _, post = cli(capsys, "announce", game, "vote", "--day", "1", "--title", "警长竞选结果［第一天］")
    assert post.split("\n")[0] == "[b]警长竞选结果［第一天］[/b]"
    _, md = cli(capsys, "announce", game, "vote", "--day", "1", "--format", "markdown", "--title", "今日[b]票型[/b]")
    assert md.split("\n")[0] == "**今日［b］票型［/b］**"  # the title cannot break the post


def test_vote_post_title_defaults_as_before(capsys):
    _, post = cli(capsys, "announce", EXAMPLE, "vote", "--day", "2")
    assert post.split("\n")[0] == "[b]M42『狐妖小红娘』 第 2 天投票结果（放逐投票）[/b]"


def test_title_flag_on_another_post_kind_is_refused(capsys):
    code = run_main(["announce", str(EXAMPLE), "day-start", "--day", "2", "--title", "x"])
    err = capsys.readouterr().err
    assert code == 1 and "--title" in err and "vote" in err


def test_m42_r2_tied_targets_list_the_elected_sheriff_first(tmp_path, capsys):
    # 1 vote each: 石宽 reached 1 at floor 2, 涂山红红 at floor 3, so 石宽 is elected (M42-R2)
    # and listed first, although the roster lists 涂山红红 before 石宽.
    ev = ['- {type: close, day: 1, at: "2026-11-03 21:00"}',
          '- {type: post, thread: vote, day: 1, floor: 2, author: 月初不是白, time: "2026-11-03 10:00", body: "投票对象：石宽\\n投票理由：a"}',
          '- {type: post, thread: vote, day: 1, floor: 3, author: 雅雅女王, time: "2026-11-03 11:00", body: "投票对象：涂山红红\\n投票理由：b"}']
    game = write_game(tmp_path, "\n".join(ev))
    _, post = cli(capsys, "announce", game, "vote", "--day", "1")
    assert "[b]票型[/b]\n石宽 1 票：白月初\n涂山红红 1 票：涂山雅雅\n" in post
    assert "石宽最早，当选警长" in post
