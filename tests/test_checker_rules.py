"""The checker's rules added to kill the survivors of the mutation run (docs/checker.md): each is shown to fail
on the error it is for — a seeded error of the mutation harness, in one section's view — and to name it.
(``python -m scene check`` says 0 findings on every preset: tests/test_grammar.py holds that.)"""
from __future__ import annotations

import numpy as np

from scene.rite import grammar
from scene.rite.grammar import mutate
from scene.rite.grammar.coverage import _ctx_of
from scene.rite.grammar.mutants import POSTURE_OF
from scene.rite.grammar.predicates import _counts, _lost


def _new_findings(rite, op, n, want):
    """The findings a mutant of ``op`` in §n (the first that ``want`` picks and that changes the tracks) adds
    to the section's own, and the mutant."""
    ctx = _ctx_of(rite)
    view = mutate.windowed(rite, n)
    m = next(m for m in mutate.mutants_of(ctx, [n], (op,)) if want(m) and mutate.changes(view, m))
    base = {f.key() for f in grammar.check(view)}
    return [f for f in grammar.check(mutate.mutated(view, [m])) if f.key() not in base], m


def test_a_thing_set_down_lies_within_his_reach(rite):
    """坐奠爵于薦西 done 10 尺 from where the 爵 lands: the things rule measures from where he is."""
    found, m = _new_findings(rite, "place-off", 5, lambda m: "奠爵于薦西" in m.clause)
    assert any(f.rule == "things" and "setting it down" in f.requires and f.who == m.aid for f in found), found


def test_a_thing_handed_over_passes_between_two_men_within_reach(rite):
    """賓進受爵于席前 (§5) done 10 尺 from the 主人 who hands him the 爵."""
    found, m = _new_findings(rite, "place-off", 5, lambda m: "受爵于席前" in m.clause)
    assert any(f.rule == "things" and "handing it to" in f.requires for f in found), found


def test_nobody_leaves_the_scene_but_by_the_gate(rite):
    """作賓出 not walked (§49): he goes out of sight in the middle of the court."""
    found, m = _new_findings(rite, "no-move", 49, lambda m: m.word == "出")
    assert any(f.rule == "world" and f.word == "(門)" and f.who == m.aid for f in found), found


def test_one_who_does_not_come_in_has_not_entered(rite):
    """眾賓皆入門左 (§4): a 眾賓 still outside the gate as his step ends has not come in."""
    found, m = _new_findings(rite, "no-move", 4, lambda m: m.word == "入" and m.aid.startswith("zhongbin"))
    assert any(f.word == "入" and f.who == m.aid for f in found), found


def test_a_member_left_out_of_a_group_s_tan_is_noticed(rite):
    """三耦皆袒決 (§19) with one archer who does not bare his arm: the dress predicate (袒) fails for him."""
    found, m = _new_findings(rite, "member-out", 19, lambda m: "袒決" in m.clause)
    assert any(f.word == "袒" and f.who == m.aid for f in found), found


def test_standing_by_a_man_is_measured_from_that_man(rite):
    """反位立于司射之南 (§21) 10 尺 off: the place by the 司射 (his track) is not where the 司馬 stands."""
    found, m = _new_findings(rite, "place-off", 21, lambda m: m.clause == "立于司射之南")
    assert any(f.rule == "places" and "司射" in f.word for f in found), found


def test_the_wrong_actor_is_never_one_doing_the_same_act(rite):
    """主人再拜, 大夫答拜: the man who bows beside him at the same moment is no wrong actor (swapping the two
    changes nothing one could see); every wrong-actor of §10 has a bystander in another posture."""
    ctx = _ctx_of(rite)
    muts = mutate.mutants_of(ctx, [10], ("wrong-actor",))
    assert muts
    for m in muts:
        word = next(c for k, c in enumerate(m.clause) if c in POSTURE_OF and m.clause[k - 1:k] != "不")
        theirs = {p for _, p in ctx.postures(m.other, m.t0, m.t1)}
        assert POSTURE_OF[word] not in theirs, (m.label(), theirs)
        assert POSTURE_OF[word] in {p for _, p in ctx.postures(m.aid, m.t0, m.t1)}, m.label()


def test_what_leaves_the_hands_is_counted_thing_by_thing():
    assert _counts("弓、矢×4") == {"弓": 1, "矢": 4}
    assert _lost(["弓、矢×4", "弓、矢×3"])            # an arrow handed on
    assert _lost(["", "俎 (賓)", ""])                  # taken, then handed over
    assert not _lost(["", "俎 (賓)"])                  # only taken: nothing left his hands
    assert not _lost(["弓", "弓、矢"])


def test_a_taken_thing_never_in_hand_is_missing_from_then_on(rite):
    """no-hold takes the thing away for as long as he would have held it (not only until his next change)."""
    ctx = _ctx_of(rite)
    view = mutate.windowed(rite, 28)
    m = next(m for m in mutate.mutants_of(ctx, [28], ("no-hold",)) if m.clause == "遂執弓" and m.aid == "zhuren")
    r = mutate.mutated(view, [m])
    k = r.actor_ids.index(m.aid)
    ts, vs = r._holding.tracks[k]
    after = [v for t, v in zip(ts, vs) if m.t0 <= t <= m.t1 + 20]
    assert after and not any("弓" in v for v in after), after
    ts0, vs0 = view._holding.tracks[k]
    assert any("弓" in v for t, v in zip(ts0, vs0) if m.t0 <= t <= m.t1 + 20)
    assert np.all(np.diff(ts) >= 0)


# ---- this round's rules (the sections under 90 %: §18, §19, §32, §36, §38, §42)
def test_the_side_of_a_place_is_read_past_a_foot_of_stairs():
    """阼階下之東南 names two sides (east and south), 西階之東北面 one (之東, then the facing 北面)."""
    from scene.rite.grammar.where import _sides
    assert _sides("下之東南") == "東南"
    assert _sides("之東北面") == "東"
    assert _sides("前西面") == "" and _sides("東上") == "" and _sides("北括") == ""


def test_the_gong_misplaced_west_of_their_row_is_on_the_wrong_side(rite):
    """降自西階阼階下之東南… (§18): a 工 seated 10 尺 toward the middle is west of the 阼階, not south-east."""
    found, m = _new_findings(rite, "place-off", 18, lambda m: m.aid.startswith("gong"))
    assert any(f.rule == "places" and "wrong side" in f.shows and f.who == m.aid for f in found), found


def test_each_bow_handed_in_turn_must_leave_his_hands(rite):
    """遂有司左執弣右執弦而授弓 (§19): a 有司 who keeps the first bow while he hands the next is found."""
    found, m = _new_findings(rite, "keep-hold", 19, lambda m: m.word == "授")
    assert any(f.word == "授" and f.who == m.aid for f in found), found


def test_a_drinker_without_a_cup_has_not_drunk(rite):
    """飲如初 (§42): a loser who never has the 觶 in hand."""
    found, m = _new_findings(rite, "no-hold", 42, lambda m: m.word == "飲")
    assert any(f.word == "飲" and "cup" in f.requires and f.who == m.aid for f in found), found


def test_each_with_his_partner_names_the_archers(rite):
    """各以其耦進反于射位 (§36): the 耦 resolves to the 三耦 and 眾賓 (clauses.toml), so one who stays put is found."""
    found, m = _new_findings(rite, "no-move", 36, lambda m: "耦進反于射位" in m.clause and m.word == "進")
    assert any(f.section == 36 and f.who == m.aid for f in found), found


def test_between_the_stairs_is_a_place(rite):
    """司射遂適階間堂下北面 (§38) 10 尺 off: 階間 is a place of the layout (hall.between_steps)."""
    found, m = _new_findings(rite, "place-off", 38, lambda m: "適階間堂下" in m.clause)
    assert any(f.rule == "places" and f.who == m.aid for f in found), found


def test_no_mutant_for_a_commanded_place_nor_one_the_data_owns(rite):
    """命弟子贊工遷樂于下 (§18): 于下 is the 樂's; 拜辱于門外 (§50): the 賓's 門, off the model (evidence
    where = assumed) — neither is a place the clause's actor can miss."""
    ctx = _ctx_of(rite)
    labels = [m.label() for m in mutate.mutants_of(ctx, [18, 50], ("place-off",))]
    assert not any("遷樂于下" in x or "拜辱于門外" in x for x in labels), labels
    assert any("樂正適西方" in x and "位(西方)" in x for x in labels), labels


# ---------------------------------------------------------------- rules fixed for chapter 4 (issue 43): each holds
# in any chapter; the test shows the error it still finds and the reading it no longer misreads

def _four():
    from scene.rite.cache import load_rite
    return load_rite("zheng", chapter="xiangyinjiu")


def _span_of(rite, n, phrase, aid, rest=None):
    from scene.rite.grammar.predicates import Span
    sps = [sp for sp in rite.spans if sp.section == n and sp.phrase == phrase and aid in sp.who]
    return Span(aid, sps[:1], rest=rest)


def test_going_down_to_wash_is_at_the_wash_in_his_part_of_the_section():
    """降洗…坐奠爵于階前辭…適洗…盥洗 (ch. 4 §4): 降洗 is the purpose of the descent; he is at the 洗 later in his
    part of the section — but one who never comes to the 洗 in it has not washed."""
    from scene.rite.grammar.predicates import verb_test
    four = _four()
    ctx = _ctx_of(four)
    text = ctx.text(4)
    i = text.index("降洗") + 1
    sp = _span_of(four, 4, "降洗", "zhuren").spans[0]
    his = [s for s in four.spans if s.section == 4 and "zhuren" in s.who]
    whole = _span_of(four, 4, "降洗", "zhuren", rest=(sp.start_s, max(s.end_s for s in his), his[0].start_s))
    assert verb_test(ctx, "洗", text, i, whole)[0]
    stays = _span_of(four, 4, "降洗", "zhuren", rest=(sp.start_s, sp.end_s, his[0].start_s))
    ok, detail = verb_test(ctx, "洗", text, i, stays)
    assert not ok and "nearest the 洗" in detail


def test_handing_over_is_done_when_the_other_receives_it_later():
    """實觶東南面授主人主人阼階上拜賓少退主人受觶 (ch. 4 §17): his step that cites 授 only brings the 觶; it leaves
    his hands at the 主人's 受 — but a 觶 still in his hands at the end of his part has not been handed over."""
    from scene.rite.grammar.predicates import verb_test
    four = _four()
    ctx = _ctx_of(four)
    text = ctx.text(17)
    i = text.index("授主人")
    sp = _span_of(four, 17, "東南面授主人", "bin").spans[0]
    his = [s for s in four.spans if s.section == 17 and "bin" in s.who]
    whole = _span_of(four, 17, "東南面授主人", "bin", rest=(sp.start_s, max(s.end_s for s in his), his[0].start_s))
    assert verb_test(ctx, "授", text, i, whole)[0]
    before = _span_of(four, 17, "東南面授主人", "bin", rest=(sp.start_s, sp.end_s, his[0].start_s))
    assert not verb_test(ctx, "授", text, i, before)[0]


def test_first_orders_the_group_before_the_others_not_its_members(rite):
    """工四人二瑟瑟先 (ch. 4 §11): the two with the 瑟 go first, neither before the other; 耦先降 (ch. 5 §29) still
    finds the 大夫's 耦 going down after the 大夫."""
    from dataclasses import replace

    from scene.rite.grammar import order
    four = _four()
    assert not [f for f in order.check(_ctx_of(four)) if f.word == "先"]
    ctx = _ctx_of(rite)
    spans = ctx.spans_by_section[29]
    mine = next(sp for sp in spans if "耦先降" in sp.phrase and sp.who == ("zhongbin_4",))
    assert order._first(ctx, spans, mine, ctx.text(29)) == []
    early = [replace(o, acts=tuple((a, t0 - 100.0, t1 - 100.0) for a, t0, t1 in o.acts))
             if o.phrase == mine.phrase and o.who == ("dafu",) else o for o in spans]
    found = order._first(ctx, early, mine, ctx.text(29))
    assert found and found[0].word == "先", found


def test_an_implicit_subject_before_jie_is_whom_it_gathers():
    """賓介席末答拜皆坐祭 (ch. 4 §20, grammar.toml [[subject]] 二人 at 皆坐祭): the 皆 gathers the 二人 who kneel, not
    the 賓 and 介 named before — and a 二人 left out of 皆進 is found."""
    from scene.rite.grammar import phrase as ph
    from scene.rite.grammar.group import _gathered
    from scene.text import passage
    text = passage(20, chapter="xiangyinjiu").text
    from scene.chapter import resolve
    names = ph.names_in(20, resolve("xiangyinjiu"))
    i = text.index("皆坐祭")
    assert [nm.word for nm in _gathered(names, text, i)] == ["二人"]
    real = tuple(nm for nm in names if nm.end > nm.start)
    assert [nm.word for nm in _gathered(real, text, i)] == ["賓", "介"]      # without the data: the misreading


def test_a_basket_set_out_is_the_layout_s_not_carried():
    """設篚于禁南 (ch. 4 §2): the 篚 is set in place like the 洗 and the 尊; 設 / 薦 of what is served still asks it
    to pass through his hands."""
    from scene.rite.grammar.predicates import verb_test
    four = _four()
    ctx = _ctx_of(four)
    text = ctx.text(2)
    sp = _span_of(four, 2, "設篚于禁南東肆", "zanzhe_1")
    assert verb_test(ctx, "設", text, text.index("設篚"), sp) is None
