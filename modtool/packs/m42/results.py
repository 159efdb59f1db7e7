"""M42's results the game has advanced past: what the forum has read (G-R2; modtool.core.announced).

Each closed day's vote (the sheriff on day 1, M42-R2; the exile after,
M42-R4), each phase's exits in public words (M42-R6, R7, R13), each closed
day's lurking yellows (M42-R14), each card the director gave (M42-R13) and
the winner (M42-R11). Keys name the result, never a line.
"""

from __future__ import annotations

from modtool.sdk import GameDir
from modtool.packs.m42.replay import replay

_COLORS = {"blue": "蓝牌", "yellow": "黄牌", "red": "红牌"}


def results(gd: GameDir) -> dict[str, tuple[str, object]]:
    st = replay(gd)
    out: dict[str, tuple[str, object]] = {}
    for n, rec in sorted(st.days.items()):
        if rec.closed is None or rec.tally is None:
            continue
        target = rec.tally.result.get("target")
        if n == 1:
            out["day1.sheriff"] = ("第 1 天警长", target or "无人当选")
        else:
            out[f"day{n}.exile"] = (f"第 {n} 天放逐", target or "无人放逐")
        lurk = sorted({c.character for c in st.cards
                       if c.source == "lurking" and not c.withdrawn and c.at == rec.closed})
        out[f"day{n}.lurk"] = (f"第 {n} 天潜水黄牌", lurk)
    phases = {"day": "天", "night": "夜", "dawn": "夜后黎明"}
    settled = {("day", n) for n, r in st.days.items() if r.closed is not None}
    settled |= {("night", n) for n, r in st.nights.items() if r.resolved}
    settled |= {("dawn", n - 1) for n in st.days if n > 1}  # the dawn ends when the next day opens
    exits: dict[tuple[str, int], list[str]] = {}
    for ex in st.exits:
        exits.setdefault((ex.phase, ex.number), []).append(f"{ex.name}（{ex.public_cause}）")
    for phase, n in sorted(settled, key=lambda k: (k[1], ("day", "night", "dawn").index(k[0]))):
        out[f"{phase}{n}.exits"] = (f"第 {n} {phases[phase]}出局", exits.get((phase, n), []))
    # Each resolved night's accepted submissions (the director's replies told them): a late change
    # that turns one into a refusal is told with the rest (M42-R6).
    for n, r in sorted(st.nights.items()):
        if not r.resolved:
            continue
        acts = ([f"杀人 {r.kill}"] if r.kill else []) + ([f"救药 {r.saved}"] if r.saved else []) \
            + ([f"毒药 {r.poisoned}"] if r.poisoned else []) + [f"验人 {c.get('target')}" for c in r.checks]
        out[f"night{n}.acts"] = (f"第 {n} 夜受理的行动", acts)
    # A card is announced once the game advanced past the phase it was given in.
    past = max([r.closed for r in st.days.values() if r.closed is not None]
               + [r.resolved_at for r in st.nights.values() if r.resolved and r.resolved_at is not None]
               + [r.opened for n, r in st.days.items() if n > 1 and r.opened is not None], default=None)
    for c in st.cards:
        if c.source != "director" or past is None or c.at > past:
            continue
        when = c.at.strftime("%Y-%m-%d %H:%M")
        key = f"card.{c.character}.{c.color}.{when}.{c.reason}"
        out[key] = (f"{c.character}的{_COLORS.get(c.color, c.color)}（{when}，{c.reason}）",
                    "已撤销" if c.withdrawn else "有效")
    if st.winner is not None:
        out["winner"] = ("胜者", str(gd.game.data["camps"][st.winner]["name"]))
    return out
