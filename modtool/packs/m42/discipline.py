"""The director's discipline desk: schedule, flags and the daily card list (M42-R13..R17)."""

from __future__ import annotations

from datetime import timedelta

from modtool.sdk import fmt, GameDir, Problem, UserError
from modtool.packs.m42 import facts
from modtool.packs.m42.engine import Engine, State, fmt_short, phase_label
from modtool.packs.m42.flags import FlagOptions, find_flags, last_words_flags

WEEKDAYS = "一二三四五六日"


def schedule_json(gd: GameDir, st: State, day: int | None = None) -> dict:
    day = day or st.number
    rec = st.days.get(day)
    if rec is None:
        raise UserError(Problem(gd.source, "第 {day} 天还没有开始（当前：{phase_label}）", day=day, phase_label=phase_label(st)))
    eng = Engine(gd)
    eng.st = st
    sch = eng.schedule(day)
    if sch is None:
        raise UserError(Problem(gd.source, "不知道第 1 天何时开始：用 modtool open {folder_arg} --day 1 --at \"2026-11-02 10:00\" 记下，或先导入第 1 天的帖子", folder_arg=gd.folder_arg))
    explicit = facts.close_of(gd, day)
    close = rec.closed or explicit or sch.closes
    out = sch.to_json()
    out.update(
        close=fmt(close),
        close_source="close 事件" if explicit else ("按规则计算（M42-R15）"),
        natural_days_label=[f"{d:%m-%d}（周{WEEKDAYS[d.weekday()]}）" for d in sch.natural_days],
        night_deadline=fmt(close + timedelta(hours=1)),
        last_words_due="下一个讨论日开始前",
        pending=[{"who": p.who, "what": p.label, "due": fmt(p.due) if p.due else "下一个讨论日开始前"} for p in st.pending],
        auto_speedup_suggested=len(rec.alive_at_open) <= int(gd.options["auto_speedup_at_living"]) and not sch.sped_up,
    )
    return out


def schedule_text(gd: GameDir, st: State, day: int | None = None) -> str:
    j = schedule_json(gd, st, day)
    lines = [
        f"第 {j['day']} 天讨论日",
        f"  开始：{j['opens'][:16]}",
        f"  自然日：{'、'.join(j['natural_days_label'])}" + ("（逢周末延长一天）" if j["weekend_extended"] else ""),
        f"  加速/延时申请截止：{j['cutoff'][:16]}（每个自然日的关门前三小时）",
        f"  改票、代投截止：{j['freeze'][:16]}（关门前一小时）",
        f"  关门：{j['close'][:16]}（{j['close_source']}）" + ("　本日执行加速" if j["sped_up"] else "")
        + (f"　延时 {j['delayed']} 次" if j["delayed"] else ""),
        f"  狼人、预言家行动时限：{j['night_deadline'][:16]}；女巫：得知被指杀者后半小时；猎人：得知可以开枪后半小时（都从导演发出通知时算起）",
        f"  遗言：{j['last_words_due']}",
    ]
    for d in j["decisions"]:
        if not d["count"]:
            continue
        kind = "加速" if d["kind"] == "speedup" else "延时"
        lines.append(f"  {d['natural_day']} {kind}申请 {d['count']}/{d['living']}（需要 {d['needed']}）："
                     + ("成功" if d["success"] else "未成功"))
    for r in j["requests"]:
        if not r["counted"]:
            lines.append(f"  未计入：{r.get('floor')}楼 {r.get('character') or r.get('account')}：{r['why']}")
    for p in j["pending"]:
        lines.append(f"  待办：{p['who']}的{p['what']}，时限 {p['due'][:16] if p['due'][0].isdigit() else p['due']}")
    if j["auto_speedup_suggested"]:
        lines.append(f"  场上只剩 {len(st.days[j['day']].alive_at_open)} 人：导演可以宣布加速（modtool speedup）")
    return "\n".join(lines) + "\n"


def all_flags(gd: GameDir, st: State, day: int | None = None) -> list[dict]:
    """M42-R17 flags on every saved post (and last words), for the director; never cards."""
    o = gd.options
    opts = FlagOptions(red_distance=float(o["red_distance"]), big_size=int(o["big_size"]))
    out_at = {e.name: e.at for e in st.exits}
    rows = []
    for ev in gd.of_type("post"):
        if day is not None and ev.data.get("day") != day:
            continue
        post = facts.post_of(ev, gd)
        ch = gd.roster.by_account(post.author)
        dead = ch is not None and ch.name in out_at and post.time > out_at[ch.name]
        for f in find_flags(post, thread=ev.data["thread"], author_out=dead, options=opts):
            rows.append({"day": ev.data["day"], "thread": ev.data["thread"], "floor": f.floor, "author": f.author,
                         "character": ch.name if ch else None, "kind": f.kind, "note": f.note, "line": ev.line})
    for name, words in st.last_words.items():
        for w in words:
            notes = last_words_flags(w["text"])
            if notes:  # one row per last-words post, naming every tag in it
                rows.append({"day": None, "thread": "last_words", "floor": None, "author": name, "character": name,
                             "kind": "bbcode_in_last_words", "note": "；".join(notes), "line": w["line"]})
    return rows


FLAG_NAMES = {"red_font": "红色字体", "big_font": "放大字体", "zombie": "诈尸", "bbcode_in_last_words": "遗言含论坛代码",
              "edited_vote": "投票帖被编辑"}
THREAD_NAMES = {"discussion": "讨论帖", "vote": "投票帖", "process": "进程帖", "last_words": "遗言"}


def flags_text(rows: list[dict]) -> str:
    if not rows:
        return "没有需要留意的帖子。\n"
    lines = ["以下只是提醒，是否判罚由导演决定（M42-R17）："]
    for r in rows:
        where = f"第 {r['day']} 天{THREAD_NAMES[r['thread']]} {r['floor']}楼" if r["floor"] is not None else THREAD_NAMES[r["thread"]]
        who = r["author"] + (f"（{r['character']}）" if r["character"] and r["character"] != r["author"] else "")
        lines.append(f"  [{FLAG_NAMES[r['kind']]}] {where} {who}：{r['note']}")
    return "\n".join(lines) + "\n"
