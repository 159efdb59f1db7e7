"""The engine's discipline desk (M42-R13, R14, R16): cards, lurking yellows,
withdrawals, the director's decisions, substitutes and assistants.

A mixin of ``engine.Engine``: it works on the same replay state.
"""

from __future__ import annotations

from datetime import datetime

from modtool.sdk import Problem, ref_of
from modtool.packs.m42 import facts, lurking
from modtool.packs.m42.state import Pending


def lurk_options(gd) -> lurking.LurkOptions:
    """M42-R14's thresholds as the game sets them (``lurk_min_posts``, ``lurk_chain_posts``)."""
    o = gd.options
    return lurking.LurkOptions(min_posts=int(o["lurk_min_posts"]), chain_posts=int(o["lurk_chain_posts"]))


def lurk_voters(tally, ctx) -> set[str]:
    """Who voted on the day for M42-R14 (b): a valid vote standing (an abstention is one),
    and, M42-R14a, whoever the scapegoat barred from voting that day (M42-R8): no (b)
    yellow for them; (a) and (c) still apply."""
    voted = {v["voter"] for v in tally.valid if v.get("changed_to") is None} if tally else set()
    return voted | (ctx.barred if ctx is not None else set())


class DisciplineMixin:
    def lurking(self, n: int, close: datetime) -> None:
        """M42-R14: yellows for lurking, at the close of each discussion day not sped up."""
        from modtool.packs.m42.cards import Card

        st, rec = self.st, self.st.days[n]
        if rec.opened is None:
            return
        in_game = {x for x in rec.alive_at_open if x in st.alive or any(e.name == x and e.at >= close for e in st.exits)}
        voted = lurk_voters(rec.tally, rec.ctx)
        if self.lurk_watch is None:
            self.lurk_watch = lurking.LurkWatch(self.roster, lurk_options(self.gd))
        if facts.has_posts(self.gd, "discussion", n):
            stamps = facts.post_stamps(self.gd, "discussion", n)
            counts = lurking.count_posts(stamps, rec.opened, close, in_game, self.roster)
            st.lurk_days.append(lurking.LurkDay(n, rec.opened, close, rec.ctx.sped_up, in_game, [], voted, counts))
            results = self.lurk_watch.close(st.lurk_days[-1])
        else:
            # Without the day's discussion thread, post counts cannot be judged: only
            # (b) is, and the day breaks any (c) chain (recorded as a day not judged).
            st.lurk_days.append(lurking.LurkDay(n, rec.opened, close, True, set(), [], voted))
            self.lurk_watch.close(st.lurk_days[-1])
            self.note(close, f"第 {n} 天的讨论帖没有导入：发帖数未判定（M42-R14 a、c）", False)
            results = [] if rec.ctx.sped_up else [
                lurking.LurkResult(n, x, "b", 0, (rec.opened, close), (n,), f"第 {n} 天没有有效投票")
                for x in self.holders_in(in_game) if x not in voted]
        waived = {(ev.data.get("day"), ev.data.get("character"), ev.data.get("rule")): ev.data.get("reason", "")
                  for ev in self.gd.of_type("waive")}
        for r in results:
            card = Card(None, r.character, "yellow", f"潜水（M42-R14 {r.rule}）：{r.note}",
                        close, None, None, source="lurking", lurk=(n, r.rule))
            st.cards.append(card)
            if (n, r.character, r.rule) in waived:  # kept in the list, marked, so the director sees it
                card.withdrawn = f"导演免除：{waived[(n, r.character, r.rule)]}"
                self.note(close, f"{r.character}第 {n} 天潜水（{r.rule}）的黄牌已由导演免除", False, card)
                continue
            self.note(close, f"{r.character}因潜水被判黄牌（M42-R14 {r.rule}）", True, card)
            self.red_check(r.character, close, card)

    # -- cards, substitutes (M42-R13, R16) ------------------------------------------

    def card(self, ev) -> None:
        from modtool.packs.m42.cards import COLOR_IDS, Card

        st = self.st
        name = self.character(ev.data.get("character"), ev)
        color = COLOR_IDS.get(str(ev.data.get("color")))
        if name is None:
            return
        if color is None:
            self.problem(ev, "牌的颜色应为 blue、yellow 或 red，而不是「{get}」", get=ev.data.get('color'))
            return
        at = facts.event_time(self.gd, ev)
        card = Card(self.next_card_number(), name, color, str(ev.data.get("reason", "")), at, ev.data.get("floor"), ev.line,
                    event=ref_of(ev))
        st.cards.append(card)
        self.note(at, f"{name}被判{ {'blue': '蓝牌', 'yellow': '黄牌', 'red': '红牌'}[color] }：{card.reason}", True, card)
        self.red_check(name, at, card)

    def next_card_number(self) -> int:
        """Director's cards are numbered in ledger order, so `withdraw N` always names the same card;
        computed lurking yellows have no number (they are waived with `waive`)."""
        return 1 + sum(1 for c in self.st.cards if c.number is not None)

    def red_check(self, name: str, at: datetime, card=None) -> None:
        """A red (given, or 3 yellows) puts a character still in out: after the day's vote if by day.

        M42-R13: characters who are out can still be carded, and a red card still
        asks the director whether the camp loses: a red that ``card`` (the card just
        given) made stand for a character already out adds that question."""
        from modtool.packs.m42.cards import standing

        st = self.st
        mine = [c for c in st.cards if c.character == name]
        red = standing(mine).red
        if red == 0 or st.over:
            return
        if name not in st.alive:
            fresh = card is not None and red > standing([c for c in mine if c is not card]).red
            if fresh and not any(p.kind == "camp_loss" and p.who == name for p in st.pending):
                st.pending.append(Pending("camp_loss", name, at, None))
                self.note(at, f"{name}已出局，仍被判红牌：请导演决定其阵营是否判负（M42-R13）", False)
            return
        if name in st.red_queue:
            return
        if st.phase == "day":
            st.red_queue.append(name)
        else:
            self.exit(name, "redcard", st.phase, at)

    def withdraw(self, ev) -> None:
        st = self.st
        n = ev.data.get("card")
        of = ev.data.get("of")  # the card's id: its number shifts when an earlier card is undone
        card = next((c for c in st.cards if (c.event == of if of is not None else c.number == n)), None)
        if card is None or card.withdrawn:
            self.problem(ev, "没有第 {n} 张牌可以撤销（modtool cards 列出编号；潜水黄牌用 modtool waive 免除）", n=n)
            return
        card.withdrawn = str(ev.data.get("reason", "导演撤销"))
        if card.character in st.red_queue:
            from modtool.packs.m42.cards import standing

            if standing([c for c in st.cards if c.character == card.character]).red == 0:
                st.red_queue.remove(card.character)
        elif card.character not in st.alive and any(e.name == card.character and e.cause == "redcard" for e in st.exits):
            st.warnings.append(Problem(self.gd.source, "{character}已经红牌罚下；撤销这张牌不会让其回到场上", ev.line, character=card.character))

    def decision(self, ev) -> None:
        """The director's answer to a question the rules leave open (M42-R13: does the camp lose?)."""
        st = self.st
        name = self.character(ev.data.get("character"), ev)
        p = next((p for p in st.pending if p.kind == "camp_loss" and p.who == name), None)
        if p is None:
            self.problem(ev, "现在没有关于{name}的待决定事项", name=name)
            return
        st.pending.remove(p)
        at = facts.event_time(self.gd, ev)
        if ev.data.get("loses"):
            camp = self.camp(name)
            if camp and camp not in st.lost:
                st.lost.append(camp)
                self.note(at, f"导演判定{name}的红牌使其阵营判负", False)
            self.win_check(at)

    def substitute(self, ev) -> None:
        """M42-R16: once per character; the account stays, the person changes."""
        st = self.st
        name = self.character(ev.data.get("character"), ev)
        if name is None:
            return
        if name in st.substituted:
            self.refuse(ev, "不受理：{name}已经更换过一次替补（M42-R16）；无法继续时只能红牌罚下", name=name)
            return
        st.substituted[name] = {"player": ev.data.get("player"), "at": ev.data.get("at")}
        self.note(facts.event_time(self.gd, ev), f"{name}更换替补：{ev.data.get('player')}", False)

    def leave(self, ev) -> None:
        """M42-R16: a character who cannot continue and has no substitute gets a red card."""
        from modtool.packs.m42.cards import Card

        st = self.st
        name = self.character(ev.data.get("character"), ev)
        if name is None:
            return
        at = facts.event_time(self.gd, ev)
        card = Card(self.next_card_number(), name, "red", "无法继续游戏且无替补（M42-R16）", at, None, ev.line, event=ref_of(ev))
        st.cards.append(card)
        self.red_check(name, at, card)

    def assistant(self, ev) -> None:
        """M42-R16: an assistant only for a player with at most 3 earlier games."""
        games = ev.data.get("games")
        if not isinstance(games, int) or games > 3:
            self.refuse(ev, "不受理：场外助理只允许累计三场或以下的玩家申请（该玩家 {games} 场，M42-R16）", games=games)


