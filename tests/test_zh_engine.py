"""The 甄嬛 engine by replay (RULINGS.md ZH-R3..R10, R12): small boards built inline."""

from __future__ import annotations

from modtool.base.events import Event
from modtool.packs.zhenhuan.engine import replay


def seats(*chars):
    return [{"seat": i + 1, "player": f"P{i + 1}", "character": c} for i, c in enumerate(chars)]


class Ledger:
    def __init__(self, *chars, options=None, seed=7):
        self.seats = seats(*chars)
        self.events: list[Event] = []
        self.options = options or {}
        self.seed = seed

    def add(self, type_, **data):
        self.events.append(Event(type_, data, len(self.events) + 1))
        return self

    def act(self, night, seat, ability, *targets):
        return self.add("night_action", night=night, seat=seat, ability=ability, targets=list(targets))

    def day_act(self, day, seat, ability, *targets, **kw):
        return self.add("day_action", day=day, seat=seat, ability=ability, targets=list(targets), **kw)

    def dawn(self, n):
        return self.add("advance", phase="night", number=n)

    def dusk(self, n):
        return self.add("advance", phase="day", number=n)

    def to_night(self, n):
        """Close every phase up to the start of night n (no executions)."""
        for k in range(1, n):
            self.dawn(k).dusk(k)
        return self

    def answer(self, key, value):
        return self.add("answer", key=key, value=value)

    def grim(self):
        return replay(self.seats, self.events, self.options, self.seed)


def alive(g, n):
    return g.seat(n).alive


def causes(g):
    return {d.seat: d.cause for d in g.deaths}


# ---------------------------------------------------------------- phases, undo


def test_zh_phase_flow_night_day_numbering():
    g = Ledger("jinxi", "huangshang", "huafei", "guojunwang", "yelanyi").grim()
    assert (g.phase, g.number) == ("night", 1)
    L = Ledger("jinxi", "huangshang", "huafei", "guojunwang", "yelanyi").dawn(1)
    assert (L.grim().phase, L.grim().number) == ("day", 1)
    L.dusk(1)
    assert (L.grim().phase, L.grim().number) == ("night", 2)


def test_zh_advance_out_of_order_is_a_problem():
    g = Ledger("jinxi", "huangshang", "huafei", "guojunwang", "yelanyi").dusk(1).grim()
    assert (g.phase, g.number) == ("night", 1)
    assert g.problems and g.problems[0][0] == 1


def test_zh_revert_undoes_an_event():
    L = Ledger("jinxi", "huangshang", "huafei", "guojunwang", "yelanyi", "qifei").to_night(2)
    L.act(2, 2, "kill", 1)
    kill_line = L.events[-1].line
    L.add("revert", line=kill_line).dawn(2)
    assert alive(L.grim(), 1)


# ---------------------------------------------------------------- ZH-R3 impaired


def test_zh_r3_anlingrong_poison_lasts_until_next_night():
    L = Ledger("jinxi", "huangshang", "anlingrong", "guojunwang", "yelanyi").act(1, 3, "poison", 1).dawn(1)
    assert L.grim().impaired(1)  # day 1: still poisoned
    L.dusk(1)
    assert not L.grim().impaired(1)  # cleared when night 2 begins


def test_zh_r3_poison_takes_women_only():
    g = Ledger("jinxi", "huangshang", "anlingrong", "guojunwang", "yelanyi").act(1, 3, "poison", 4).dawn(1).grim()
    assert not g.impaired(4)
    assert g.problems


def test_zh_r3_dunqinwang_drunk_until_next_day():
    L = Ledger("jinxi", "huangshang", "huafei", "dunqinwang", "yelanyi", "guojunwang").dawn(1)
    L.day_act(1, 4, "drunk", 2).dusk(1)
    assert L.grim().impaired(2)  # night 2: drunk
    L.act(2, 2, "kill", 1).dawn(2)
    g = L.grim()
    assert alive(g, 1)  # ZH-R3: an impaired demon's kill has no effect
    assert not g.impaired(2)  # day 2 begins: drunk is over


def test_zh_r3_huanbi_next_to_guojunwang_drunk_all_game():
    g = Ledger("huanbi", "guojunwang", "huangshang", "huafei", "jinxi").grim()
    assert g.impaired(1)
    assert any(s.kind == "drunk" and s.until is None for s in g.seat(1).statuses)
    g2 = Ledger("huanbi", "jinxi", "huangshang", "huafei", "guojunwang").grim()
    assert g2.impaired(1)  # seats wrap: 5 is next to 1
    g3 = Ledger("huanbi", "jinxi", "guojunwang", "huangshang", "huafei").grim()
    assert not g3.impaired(1)


# ---------------------------------------------------------------- ZH-R4 protection


def test_zh_r4_protection_blocks_demon_kill():
    L = Ledger("jinxi", "huangshang", "huafei", "guojunwang", "yelanyi").to_night(2)
    g = L.act(2, 4, "protect", 1).act(2, 2, "kill", 1).dawn(2).grim()
    assert alive(g, 1)


def test_zh_r4_not_same_target_two_nights_running():
    L = Ledger("jinxi", "huangshang", "huafei", "guojunwang", "yelanyi", "qifei").act(1, 4, "protect", 1).to_night(2)
    g = L.act(2, 4, "protect", 1).act(2, 2, "kill", 1).dawn(2).grim()
    assert not alive(g, 1)
    assert any("连续" in msg for _, msg in g.problems)


def test_zh_r4_cannot_protect_self():
    L = Ledger("jinxi", "huangshang", "huafei", "guojunwang", "yelanyi", "qifei").to_night(2)
    g = L.act(2, 4, "protect", 4).act(2, 2, "kill", 4).dawn(2).grim()
    assert not alive(g, 4)


def test_zh_r4_protection_does_not_stop_curse():
    L = Ledger("jinxi", "huangshang", "anlingrong", "guojunwang", "yelanyi", "qifei")
    L.act(1, 3, "curse", 1).dawn(1).dusk(1)
    L.act(2, 4, "protect", 1)
    g = L.grim()
    assert not alive(g, 1) and causes(g)[1] == "curse"  # dies when night 2 begins


def test_zh_r4_protection_blocks_favour():
    g = Ledger("jinxi", "huangshang", "huafei", "guojunwang", "yelanyi").act(1, 4, "protect", 1) \
        .act(1, 2, "favour", 1).dawn(1).grim()
    assert g.seat(1).character == "jinxi"
    assert g.seat(2).has("used")  # spent all the same


# ---------------------------------------------------------------- ZH-R5 甄嬛


def test_zh_r5_zhenhuan_counter_kill():
    L = Ledger("zhenhuan", "huangshang", "huanghou", "jinxi", "guojunwang", "yelanyi").to_night(2)
    g = L.act(2, 2, "kill", 1).dawn(2).grim()
    assert alive(g, 1) and g.seat(1).character == "nvhuang" and g.seat(1).team == "evil"
    assert not alive(g, 2) and causes(g)[2] == "counter"
    assert g.seat(3).character == "huanghou"  # ZH-R7: a 女皇 already exists
    assert g.winner is None


def test_zh_r5_zhenhuan_impaired_just_dies():
    L = Ledger("zhenhuan", "huangshang", "anlingrong", "jinxi", "guojunwang", "yelanyi").to_night(2)
    g = L.act(2, 3, "poison", 1).act(2, 2, "kill", 1).dawn(2).grim()
    assert not alive(g, 1) and alive(g, 2)


def test_zh_r5_zhenhuan_protected_no_counter():
    L = Ledger("zhenhuan", "huangshang", "huafei", "jinxi", "guojunwang", "yelanyi").to_night(2)
    g = L.act(2, 5, "protect", 1).act(2, 2, "kill", 1).dawn(2).grim()
    assert alive(g, 1) and g.seat(1).character == "zhenhuan" and alive(g, 2)


def test_zh_r5_taishanghuang_kills_zhenhuan_she_just_dies():
    L = Ledger("zhenhuan", "taishanghuang", "huafei", "jinxi", "guojunwang", "qifei").to_night(2)
    g = L.act(2, 2, "kill", 1).dawn(2).grim()
    assert not alive(g, 1) and alive(g, 2)


def test_zh_r5_empress_who_was_huanghou_is_countered():
    L = Ledger("zhenhuan", "huangshang", "huanghou", "jinxi", "guojunwang", "yelanyi", "qifei").to_night(2)
    L.act(2, 2, "kill", 2).dawn(2).dusk(2)  # 皇上 self-kill → 皇后 becomes 女皇 (ZH-R7)
    g = L.grim()
    assert g.seat(3).character == "nvhuang"
    g = L.act(3, 3, "kill", 1).dawn(3).grim()
    assert g.seat(1).character == "nvhuang" and not alive(g, 3)


# ---------------------------------------------------------------- ZH-R6 demons


def test_zh_r6_no_kill_on_first_night():
    g = Ledger("jinxi", "huangshang", "huafei", "guojunwang", "yelanyi").act(1, 2, "kill", 1).dawn(1).grim()
    assert alive(g, 1)


def test_zh_r6_demon_kills_other_nights():
    L = Ledger("jinxi", "huangshang", "huafei", "guojunwang", "yelanyi").to_night(2)
    g = L.act(2, 2, "kill", 1).dawn(2).grim()
    assert not alive(g, 1) and causes(g)[1] == "demon"


def test_zh_r6_huangshang_self_kill_no_other_effect():
    L = Ledger("jinxi", "huangshang", "huafei", "guojunwang", "yelanyi").to_night(2)
    g = L.act(2, 2, "kill", 2).dawn(2).grim()
    assert not alive(g, 2) and g.winner == "good"


def test_zh_r6_taishanghuang_self_kill_successor_is_a_question():
    L = Ledger("jinxi", "taishanghuang", "huafei", "guojunwang", "yelanyi", "qifei").to_night(2)
    L.act(2, 2, "kill", 2).dawn(2)
    g = L.grim()
    assert g.winner is None  # a new demon may arise at once (ZH-R12)
    assert any(q.key == "night2/successor" for q in g.questions)
    g = L.answer("night2/successor", 4).grim()
    assert g.seat(4).character == "huangshang" and g.seat(4).team == "evil" and g.winner is None


def test_zh_r6_favour_woman_becomes_chongfei_once():
    L = Ledger("jinxi", "huangshang", "huafei", "guojunwang", "yelanyi", "qifei").act(1, 2, "favour", 1).to_night(2)
    L.act(2, 2, "favour", 5)
    g = L.grim()
    assert g.seat(1).character == "chongfei" and g.seat(1).team == "evil" and g.seat(1).original == "jinxi"
    g = L.dawn(2).grim()
    assert g.seat(5).character == "yelanyi"  # once per game


def test_zh_r6_favour_refuses_men():
    g = Ledger("jinxi", "huangshang", "huafei", "guojunwang", "yelanyi").act(1, 2, "favour", 4).dawn(1).grim()
    assert g.seat(4).character == "guojunwang" and g.problems


# ---------------------------------------------------------------- ZH-R7 皇后


def test_zh_r7_huanghou_becomes_nvhuang_when_huangshang_dies():
    L = Ledger("jinxi", "huangshang", "huanghou", "guojunwang", "yelanyi", "qifei").to_night(2)
    g = L.act(2, 2, "kill", 2).dawn(2).grim()
    assert g.seat(3).character == "nvhuang" and g.empress_ever and g.winner is None


def test_zh_r7_fewer_than_five_alive_good_wins():
    L = Ledger("jinxi", "huangshang", "huanghou", "guojunwang", "yelanyi").to_night(2)
    g = L.act(2, 2, "kill", 2).dawn(2).grim()  # 4 alive after the death
    assert g.seat(3).character == "huanghou" and g.winner == "good"


def test_zh_r7_impaired_huanghou_does_not_transform():
    L = Ledger("jinxi", "huangshang", "huanghou", "anlingrong", "yelanyi", "qifei", "guojunwang").to_night(2)
    g = L.act(2, 4, "poison", 3).act(2, 2, "kill", 2).dawn(2).grim()
    assert g.seat(3).character == "huanghou" and g.winner == "good"


# ---------------------------------------------------------------- ZH-R8 三阿哥


def test_zh_r8_sanage_no_ranzhi_on_first_night():
    g = Ledger("chongfei", "sanage", "huangshang", "huafei", "guojunwang").act(1, 2, "ranzhi", 1).dawn(1).grim()
    assert 1 not in g.ranzhi


def test_zh_r8_sanage_success_returns_chongfei():
    L = Ledger("jinxi", "sanage", "huangshang", "huafei", "guojunwang", "qifei").act(1, 3, "favour", 1).to_night(2)
    g = L.act(2, 2, "ranzhi", 1).dawn(2).grim()
    assert g.seat(1).character == "jinxi" and g.seat(1).team == "good"
    assert g.ranzhi[2][2] == (1, "成功")


def test_zh_r8_sanage_fails_on_men():
    L = Ledger("guojunwang", "sanage", "huangshang", "huafei", "jinxi").to_night(2)
    g = L.act(2, 2, "ranzhi", 1).dawn(2).grim()
    assert g.ranzhi[2][2] == (1, "失败") and alive(g, 2)


def test_zh_r8_sanage_fails_on_female_minion():
    L = Ledger("huafei", "sanage", "huangshang", "jinxi", "guojunwang").to_night(2)
    assert L.act(2, 2, "ranzhi", 1).dawn(2).grim().ranzhi[2][2] == (1, "失败")


def test_zh_r8_sanage_nearest_living_neighbour_only():
    L = Ledger("jinxi", "sanage", "huangshang", "huafei", "guojunwang", "qifei").to_night(2)
    g = L.act(2, 2, "ranzhi", 4).dawn(2).grim()
    assert 2 not in g.ranzhi.get(2, {}) and g.problems


def test_zh_r8_sanage_dies_choosing_zhenhuan():
    L = Ledger("zhenhuan", "sanage", "huangshang", "huafei", "guojunwang", "qifei").to_night(2)
    g = L.act(2, 2, "ranzhi", 1).dawn(2).grim()
    assert not alive(g, 2) and causes(g)[2] == "sanage"


def test_zh_r8_sanage_caught_same_target_as_favour():
    L = Ledger("jinxi", "sanage", "huangshang", "huafei", "guojunwang", "qifei").to_night(2)
    g = L.act(2, 2, "ranzhi", 1).act(2, 3, "favour", 1).dawn(2).grim()
    assert not alive(g, 2) and causes(g)[2] == "sanage_caught"
    assert g.seat(1).character == "chongfei"


def test_zh_r8_sanage_impaired_no_effect_no_death():
    L = Ledger("zhenhuan", "sanage", "huangshang", "huafei", "dunqinwang", "qifei").dawn(1)
    L.day_act(1, 5, "drunk", 2).dusk(1)
    g = L.act(2, 2, "ranzhi", 1).dawn(2).grim()
    assert alive(g, 2) and g.ranzhi[2][2] == (1, None)


# ---------------------------------------------------------------- ZH-R9 deaths that follow deaths


def test_zh_r9_niangengyao_takes_one_when_killed_at_night():
    L = Ledger("niangengyao", "huangshang", "huafei", "guojunwang", "yelanyi", "qifei").to_night(2)
    g = L.act(2, 2, "kill", 1).act(2, 1, "take", 3).dawn(2).grim()
    assert not alive(g, 3) and causes(g)[3] == "nian_take"


def test_zh_r9_niangengyao_take_not_stopped_by_protection():
    L = Ledger("niangengyao", "huangshang", "huafei", "guojunwang", "yelanyi", "qifei").to_night(2)
    g = L.act(2, 4, "protect", 3).act(2, 2, "kill", 1).act(2, 1, "take", 3).dawn(2).grim()
    assert not alive(g, 3)


def test_zh_r9_niangengyao_take_is_a_question_without_a_choice():
    L = Ledger("niangengyao", "huangshang", "huafei", "guojunwang", "yelanyi", "qifei").to_night(2)
    L.act(2, 2, "kill", 1).dawn(2)
    g = L.grim()
    assert any(q.key == "night2/take/seat1" for q in g.questions)
    assert len(g.alive()) == 5
    g = L.answer("night2/take/seat1", "2号").grim()
    assert not alive(g, 2) and g.winner == "good"


def test_zh_r9_niangengyao_pinned_no_take():
    L = Ledger("niangengyao", "chongfei", "huangshang", "huafei", "guojunwang", "qifei").to_night(2)
    g = L.act(2, 2, "pin", 1).act(2, 3, "kill", 1).act(2, 1, "take", 4).dawn(2).grim()
    assert not alive(g, 1) and alive(g, 4)


def test_zh_r9_niangengyao_drunk_chosen_but_nobody_dies():
    L = Ledger("niangengyao", "huangshang", "huafei", "dunqinwang", "yelanyi", "qifei").dawn(1)
    L.day_act(1, 4, "drunk", 1).dusk(1)
    g = L.act(2, 2, "kill", 1).act(2, 1, "take", 3).dawn(2).grim()
    assert alive(g, 3) and g.seat(1).has("used")


def test_zh_r9_niangengyao_again_after_revival():
    L = Ledger("niangengyao", "huangshang", "huafei", "guojunwang", "yelanyi", "qifei", "jinxi", "wentaiyi")
    L.to_night(2).act(2, 2, "kill", 1).act(2, 1, "take", 6).dawn(2).dusk(2)
    L.act(3, 5, "revive", 1).dawn(3).dusk(3)
    g = L.grim()
    assert alive(g, 1) and not g.seat(1).has("used")
    g = L.act(4, 2, "kill", 1).act(4, 1, "take", 7).dawn(4).grim()
    assert not alive(g, 7)


def test_zh_r9_jingfei_dying_at_night_learns_living_evil():
    L = Ledger("jingfei", "huangshang", "huafei", "guojunwang", "yelanyi", "qifei").to_night(2)
    g = L.act(2, 2, "kill", 1).dawn(2).grim()
    assert g.learned[(2, 1)] == [2, 3]


def test_zh_r9_yurao_dies_when_demon_kills_her_character():
    L = Ledger("yurao", "huangshang", "huafei", "guojunwang", "jinxi", "qifei").answer("night1/yurao_bind", 5)
    g = L.to_night(2).act(2, 2, "kill", 5).dawn(2).grim()
    assert not alive(g, 1) and causes(g)[1] == "yurao"


def test_zh_r9_yurao_not_linked_to_other_deaths():
    L = Ledger("yurao", "huangshang", "anlingrong", "guojunwang", "jinxi", "qifei").answer("night1/yurao_bind", 5)
    g = L.act(1, 3, "curse", 5).to_night(2).grim()
    assert not alive(g, 5) and alive(g, 1)


def test_zh_r9_yurao_impaired_survives():
    L = Ledger("yurao", "huangshang", "anlingrong", "guojunwang", "jinxi", "qifei").answer("night1/yurao_bind", 5)
    g = L.to_night(2).act(2, 3, "poison", 1).act(2, 2, "kill", 5).dawn(2).grim()
    assert not alive(g, 5) and alive(g, 1)


def test_zh_r9_yurao_binding_is_a_question():
    g = Ledger("yurao", "huangshang", "huafei", "guojunwang", "jinxi").dawn(1).grim()
    assert any(q.key == "night1/yurao_bind" for q in g.questions) and g.bound is None


def test_zh_r9_sundaying_dies_after_kuangtu_then_all_drunk():
    L = Ledger("sundaying", "huangshang", "huafei", "kuangtu", "jinxi", "guojunwang").dawn(1)
    L.answer("day1/kuangtu", "是").dusk(1)
    g = L.grim()
    assert not alive(g, 4) and not alive(g, 1) and causes(g)[1] == "sun"
    assert all(s.has("drunk") for s in g.seats)
    L.act(2, 2, "kill", 5).dawn(2)
    assert alive(L.grim(), 5)  # the demon is drunk too
    L.dusk(2)
    assert not L.grim().impaired(5)  # until the next dusk


def test_zh_r9_sundaying_impaired_checked_next_night():
    L = Ledger("sundaying", "huangshang", "huafei", "kuangtu", "dunqinwang", "guojunwang").dawn(1)
    L.answer("day1/kuangtu", True).day_act(1, 5, "drunk", 1).dusk(1)
    assert alive(L.grim(), 1)
    L.dawn(2).dusk(2)
    assert not alive(L.grim(), 1)


def test_zh_kuangtu_death_is_always_a_question():
    g = Ledger("kuangtu", "huangshang", "huafei", "guojunwang", "jinxi").grim()
    assert any(q.key == "night1/kuangtu" for q in g.questions) and alive(g, 1)


# ---------------------------------------------------------------- ZH-R10 day and night abilities


def test_zh_r10_qiguiren_right_accusation_victim_is_a_question():
    L = Ledger("qiguiren", "huangshang", "huafei", "guojunwang", "jinxi", "yelanyi").dawn(1)
    L.day_act(1, 1, "accuse", 3, guess="huafei").dusk(1)
    g = L.grim()
    assert any(q.key == "night2/qi_victim" for q in g.questions)
    g = L.answer("night2/qi_victim", 4).dawn(2).grim()
    assert not alive(g, 4) and causes(g)[4] == "qi_accused" and alive(g, 1)


def test_zh_r10_qiguiren_wrong_accusation_dies_next_night():
    L = Ledger("qiguiren", "huangshang", "huafei", "guojunwang", "jinxi", "yelanyi").dawn(1)
    L.day_act(1, 1, "accuse", 3, guess="jinxi").dusk(1)
    g = L.grim()
    assert not alive(g, 1) and causes(g)[1] == "qi_wrong" and g.deaths[0].phase == "night"


def test_zh_r10_yelanyi_revives_dead_at_dawn():
    L = Ledger("jinxi", "huangshang", "huafei", "guojunwang", "yelanyi", "qifei").to_night(2)
    L.act(2, 2, "kill", 1).dawn(2).dusk(2)
    g = L.act(3, 5, "revive", 1).dawn(3).grim()
    assert alive(g, 1) and g.seat(5).has("used")


def test_zh_r10_yelanyi_living_target_spends_it():
    L = Ledger("jinxi", "huangshang", "huafei", "guojunwang", "yelanyi", "qifei").to_night(2)
    L.act(2, 5, "revive", 3).act(2, 2, "kill", 1).dawn(2).dusk(2).act(3, 5, "revive", 1).dawn(3)
    g = L.grim()
    assert not alive(g, 1)


def test_zh_r10_yelanyi_dead_demon_spends_it():
    L = Ledger("jinxi", "huangshang", "huanghou", "guojunwang", "yelanyi", "qifei").to_night(2)
    L.act(2, 2, "kill", 2).dawn(2).dusk(2)
    g = L.act(3, 5, "revive", 2).dawn(3).grim()
    assert not alive(g, 2) and g.seat(5).has("used")


def test_zh_r10_huafei_yizhanghong_marks_for_next_day():
    g = Ledger("jinxi", "huangshang", "huafei", "guojunwang", "yelanyi").act(1, 3, "yizhanghong", 1).dawn(1).grim()
    assert g.seat(1).has("yizhanghong")


def test_zh_r10_chongfei_pin_blocks_ability():
    L = Ledger("jinxi", "huangshang", "huafei", "guojunwang", "yelanyi", "qifei").act(1, 2, "favour", 1).to_night(2)
    g = L.act(2, 1, "pin", 4).act(2, 4, "protect", 5).act(2, 2, "kill", 5).dawn(2).grim()
    assert not alive(g, 5)


# ---------------------------------------------------------------- ZH-R12 winning


def test_zh_r12_evil_wins_two_alive_with_demon():
    L = Ledger("jinxi", "huangshang", "guojunwang", "yelanyi", "qifei").to_night(2)
    L.act(2, 2, "kill", 1).dawn(2).dusk(2).act(3, 2, "kill", 3).dawn(3).dusk(3).act(4, 2, "kill", 4).dawn(4)
    g = L.grim()
    assert g.winner == "evil" and g.phase == "over"


def test_zh_r12_good_wins_demon_executed():
    L = Ledger("jinxi", "huangshang", "huafei", "guojunwang", "yelanyi").dawn(1)
    L.add("nominate", day=1, nominator=1, nominee=2)
    for v in (1, 3, 4, 5):
        L.add("vote", day=1, voter=v, nominee=2)
    g = L.dusk(1).grim()
    assert not alive(g, 2) and g.winner == "good"


def test_zh_r12_longyue_executed_her_team_loses():
    L = Ledger("longyue", "huangshang", "huafei", "guojunwang", "yelanyi").dawn(1)
    L.add("nominate", day=1, nominator=4, nominee=1)
    for v in (2, 3, 4):
        L.add("vote", day=1, voter=v, nominee=1)
    g = L.dusk(1).grim()
    assert g.winner == "evil"


def test_zh_r12_events_after_the_end_are_problems():
    L = Ledger("jinxi", "huangshang", "huafei", "guojunwang", "yelanyi").to_night(2)
    g = L.act(2, 2, "kill", 2).dawn(2).dusk(2).grim()
    assert g.winner == "good" and any(line == len(L.events) for line, _ in g.problems)
