"""The rite-grammar checker: that it catches what the words forbid (a test that can fail), that the errors
the independent reading found (../shared/audits/fidelity-2026-12.md) stay fixed, and that no preset has a
finding left (with or without the 大夫) beyond the deliberate exceptions of assets/grammar.toml."""
from __future__ import annotations

import numpy as np
import pytest
from choreo_edit import mutated as _mutated

from scene.geometry import readings
from scene.rite import choreography as chor
from scene.rite import grammar
from scene.rite.cache import load_rite
from scene.rite.timeline import Rite


@pytest.fixture(scope="module")
def zheng():
    return load_rite("zheng")


@pytest.fixture(scope="module")
def zheng_findings(zheng):
    return grammar.check(zheng, grammar.OLD_RULES)


def _step(c, n, phrase, who):
    s = next(s for s in c.sections if s.n == n)
    return next(st for st in s.steps if st.phrase == phrase and who in st.who)


@pytest.mark.slow          # a mutated rite compiled
def test_it_catches_a_standing_kneel_a_wrong_facing_and_a_stair_too_high():
    """坐 acted standing, 北面 turned south, 盡階不升堂 taken onto the 堂: each is a finding at its step."""
    c = chor.load()
    kneel = _step(c, 5, "主人阼階前西面坐奠爵", "zhuren")
    assert kneel.kneel                                # the data acts the 坐
    edits = {(5, "主人阼階前西面坐奠爵", "zhuren"): {"kneel": False, "rise": False},
             (12, "盡階不升堂受爵", "sheng_1"): {"at": chor.parse_ref("hall.west_steps@北6")}}
    rite = Rite(readings.get("zheng"), _mutated(edits))
    found = grammar.findings(rite, ("posture", "stairs"))
    assert any(f.rule == "posture" and f.section == 5 and f.who == "zhuren" and "坐" in f.word for f in found)
    assert any(f.rule == "stairs" and f.section == 12 and f.who == "sheng_1" and "盡階" in f.word for f in found)


@pytest.mark.slow
def test_the_fidelity_reading_errors_stay_fixed(zheng_findings):
    """坐 kneels (47 steps were standing), nobody in the arrows' way or behind the 侯 (眾賓 4–8 and the
    司馬 were), the pair 並行 / 中等 / 上射在左, nobody over the 中 or the 楅, the spacing, surfaces and
    speed of the audit — none of these rule families has a finding left under the default reading."""
    clean = ("posture", "stairs", "forms")
    left = [f for f in zheng_findings if f.rule in clean]
    assert not left, "\n".join(map(str, left[:10]))
    world = [f for f in zheng_findings if f.rule == "world" and f.word != "(furniture)"]
    assert not world, "\n".join(map(str, world[:10]))


@pytest.mark.slow
@pytest.mark.parametrize("spec", grammar.readings_to_check())
def test_no_findings_on_any_preset(spec, zheng_findings):
    """Every preset, with and without the 大夫: the rules written for their words (OLD_RULES) find nothing that
    assets/grammar.toml does not except (with its reason and reference), and every exception of theirs still
    covers a finding."""
    found = zheng_findings if spec == "zheng" else grammar.check(load_rite(spec), grammar.OLD_RULES)
    assert not found, f"{spec}: {len(found)} finding(s)\n" + "\n".join(f.line() for f in found[:10])


@pytest.mark.parametrize("spec", [s if s == "zheng" else pytest.param(s, marks=pytest.mark.slow)   # another reading
                                  for s in grammar.readings_to_check()])
def test_no_clause_findings_on_any_preset(spec):
    """The clause families (verb, negation, subject, object, sequence, every): nothing left beyond the
    exceptions, and every exception of theirs still covers a finding."""
    found = grammar.check(load_rite(spec), grammar.CLAUSE_RULES)
    assert not found, f"{spec}: {len(found)} finding(s)\n" + "\n".join(f.line() for f in found[:10])


@pytest.mark.slow          # a mutated rite compiled
def test_a_cup_set_down_on_the_mat_is_not_beside_the_jian():
    """§7 主人坐奠觶于薦西: the 觶 lies west of the 賓's 薦 (an object now), beside it; set down from where
    the data had him before (on the 賓's mat, 西南 of its centre) it is a finding that names 薦西."""
    c = chor.load()
    ok = Rite(readings.get("zheng"), c)
    assert not [f for f in grammar.findings(ok, ("things",)) if f.word.startswith("薦")]
    bad = Rite(readings.get("zheng"), _mutated({(7, "主人坐奠觶于薦西", "zhuren"): {
        "at": chor.parse_ref("mat.bin@西南2")}}))
    found = [f for f in grammar.findings(bad, ("things",)) if f.word == "薦西"]
    assert found and found[0].section == 7, found


@pytest.mark.slow          # a mutated rite compiled
def test_as_before_reads_the_earlier_words():
    """§39 釋獲者執餘獲升…如初 names §30's 升自西階盡階不升堂: taking him onto the 堂 is a 盡階 finding; without
    as_before the same track passes (升 alone is satisfied on the 堂) — so the finding comes from the words."""
    onto = chor.parse_ref("hall.west_steps_top")
    bad = Rite(readings.get("zheng"), _mutated({(39, "釋獲者執餘獲升", "shihuozhe"): {"at": onto}}))
    assert any(f.section == 39 and f.word == "盡階不升堂" for f in grammar.findings(bad, ("stairs",)))
    blind = Rite(readings.get("zheng"), _mutated({(39, "釋獲者執餘獲升", "shihuozhe"): {"at": onto, "as_before": None}}))
    assert not any(f.section == 39 for f in grammar.findings(blind, ("stairs",)))


def test_as_before_must_be_earlier_words_of_the_jing(tmp_path):
    """A bad as_before (a later section, words not in the 經) stops the load with one line naming the step."""
    import shutil
    for bad, msg in (('"§45 升自西階"', "not a section before"), ('"§30 升自東階盡階"', "is not in the 經 of §30"),
                     ('"升自西階"', "must be '§N words'")):
        root = tmp_path / msg.replace(" ", "_").replace("'", "")
        shutil.copytree(chor.ASSETS, root)
        f = root / "rite" / "5_round3.toml"
        text = f.read_text(encoding="utf-8")
        f.write_text(text.replace('as_before = "§30 升自西階盡階不升堂"', f"as_before = {bad}"), encoding="utf-8")
        with pytest.raises(chor.ChoreographyError, match=msg) as e:
            chor.load(root)
        assert "§39" in str(e.value) and "\n" not in str(e.value)


@pytest.mark.slow          # a mutated rite compiled
def test_ou_shao_tui_the_pair_of_the_dafu_is_not_abreast_in_the_court():
    """§29 大夫為下射揖進耦少退 (鄭 耦於庭不並行尊大夫): walked abreast like any pair (the data without its
    behind key), the 耦 is never behind the 大夫 and the words 耦少退 make it a finding; as the data has it,
    none — and a pair of the 三耦 (no 大夫, no such words) is not asked to keep behind."""
    ab = Rite(readings.get("zheng"), _mutated({(29, "大夫為下射揖進耦少退", "dafu"): {"behind": None}}))
    found = [f for f in grammar.findings(ab, ("forms",)) if f.word == "耦少退"]
    assert found and found[0].section == 29 and found[0].who == "zhongbin_4", found
    assert "behind 0%" in found[0].shows
    ok = Rite(readings.get("zheng"), chor.load())
    assert not [f for f in grammar.findings(ok, ("forms",)) if f.word == "耦少退"]


def test_the_congzhe_receives_the_guests_zu_outside_the_gate(zheng):
    """§47 司正以俎出授從者: the 賓's 俎 passes into the hands of his attendant outside (south of) the 門
    (鄭 授賓家從來者也), held, not left on the ground; and it leaves with him when the 賓 goes (§49 賓出)."""
    give = next(s for s in zheng.spans if s.section == 47 and s.phrase == "司正以俎出授從者" and s.do == "hand")
    pose = zheng.as_pose_dict(give.end_s + 1.0)
    cz = next(a for a in pose["actors"] if a["id"] == "congzhe")
    zu = next(o for o in pose["objects"] if o["id"] == "zu_bin")
    gate_y = zheng.layout.xyz_m("hall.gate")[1]
    assert cz["visible"] and cz["xyz_m"][1] < gate_y and zu["xyz_m"][1] < gate_y
    assert abs(zu["xyz_m"][0] - cz["xyz_m"][0]) < 0.5 and abs(zu["xyz_m"][1] - cz["xyz_m"][1]) < 0.5
    assert zu["xyz_m"][2] > 0.5                                  # in his hands, not on the ground
    bye = next(s for s in zheng.spans if s.section == 49 and s.who == ("congzhe",))
    assert bye.do == "exit"
    later = zheng.as_pose_dict(bye.end_s + 5.0)
    assert not next(a for a in later["actors"] if a["id"] == "congzhe")["visible"]


@pytest.mark.slow          # a mutated rite compiled
def test_a_kneel_in_a_phrase_whose_subject_is_carried_over_is_still_checked():
    """§6 …祭如賓禮不告旨自席前適阼階上北面坐卒爵: the subject carried over from 祭如賓禮 reads as the 賓, yet the
    data has the 主人 drink: acted standing, the checker finds it (it did not, until the phrase's own
    unnamed parts were read as his)."""
    bad = Rite(readings.get("zheng"), _mutated({(6, "自席前適阼階上北面坐卒爵", "zhuren"): {"kneel": False}}))
    found = [f for f in grammar.findings(bad, ("posture",)) if f.section == 6]
    assert any(f.who == "zhuren" and f.word == "坐卒" for f in found), found


def test_the_counters_move_at_the_acts_that_move_them(zheng):
    """§27 又取中之八筭 / 改實八筭于中 and §32 兼斂筭 / 實八筭于中 / 委其餘于中西: each pile's count changes during
    the step whose words move it (not before, as a pair's end once did), and all 80 筭 (記62 箭籌八十) are
    always there once laid out."""
    d = zheng.director
    changes = {oid: [(t, int(v)) for t, k, v in d.objects[oid].events if k == "state"]
               for oid in d.objects if oid.startswith("counters.")}
    for n, phrase, pile in ((27, "又取中之八筭", "counters.hand"), (27, "改實八筭于中", "counters.zhong"),
                            (32, "兼斂筭實八筭于中", "counters.hand"), (32, "實八筭于中", "counters.zhong"),
                            (32, "委其餘于中西", "counters.spare")):
        spans = [sp for sp in zheng.spans if sp.section == n and sp.phrase == phrase]
        assert spans
        for sp in spans:
            assert any(sp.start_s - 0.05 <= t <= sp.end_s + 0.05 for t, _ in changes[pile]), (n, phrase, sp.index)
    ts = np.arange(0.0, zheng.duration, 5.0)
    laid = [t for t in ts if sum(int(v) for k, v in zip(zheng.object_ids, zheng.pose_at(t).object_state)
                                 if k.startswith("counters.") and v.isdigit()) > 0]
    totals = {sum(int(v) for k, v in zip(zheng.object_ids, zheng.pose_at(t).object_state)
                  if k.startswith("counters.") and v.isdigit()) for t in laid[::10]}
    assert totals == {80}


@pytest.mark.slow
def test_the_counting_goes_a_little_south_then_north_facing_east():
    """§32 先數右獲 (鄭 為其少南就右獲) … 興自前適左東面坐 (鄭 就左獲少北於故東面鄉之): the left pile counted
    north of his first place, the right south of it, facing east both times; mutated to count in one spot,
    the checker finds it."""
    from scene.rite.forms import count as C
    saved = C.SOUTH, C.NORTH
    try:
        C.SOUTH, C.NORTH = 0.0, 0.0
        flat = Rite(readings.get("zheng"), chor.load())
        found = [f for f in grammar.findings(flat, ("forms",)) if f.section in (32, 41)]
    finally:
        C.SOUTH, C.NORTH = saved
    assert any("少北" in f.word for f in found), found


@pytest.mark.parametrize("section, phrase", [(21, "司馬出于下射之南還其後降自西階"), (22, "司馬出于左物之南還其後降自西階")])
def test_the_sima_goes_round_behind_the_archers_not_back_between_them(zheng, section, phrase):
    """出于下射之南，還其後 (鄭 圍下射者): south of the 下射, round behind him — and on behind the 上射 to the 西階,
    not back between the two 物 across the line they shoot along (our reading; the audit saw him cut between)."""
    from scene.rite.grammar.context import Ctx
    ctx = Ctx(zheng)
    sp = next(s for s in zheng.spans if s.section == section and s.phrase == phrase)
    ts, xyz = ctx.path("xiang", sp.start_s, sp.end_s, 0.1)
    left, right = ctx.place("tang.wu_left"), ctx.place("tang.wu_right")
    behind = [i for i, p in enumerate(xyz) if p[1] > left[1] + 2 and abs(p[0] - left[0]) < 1.0]
    assert behind, "never behind the 左物"
    after = xyz[behind[0]:]
    between = [p for p in after if abs(p[0]) < abs(left[0]) - 1.0 and p[1] < left[1] + 1.0 and p[2] > 1.0]
    assert not between, f"back between the 物 at {between[0]}"
    assert any(abs(p[0] - right[0]) < 1.0 and p[1] > right[1] + 2 for p in after), "not behind the 右物"


@pytest.mark.slow          # a mutated rite compiled
def test_sui_after_a_kneeling_act_is_done_kneeling():
    """主人坐祭遂飲卒觶興 (§7): the 遂 joins the drinking to the kneeling 祭, and 興 comes only after 卒觶 — so he
    drinks kneeling; drunk standing (the data without its kneel), the checker names 坐祭…遂…卒."""
    bad = Rite(readings.get("zheng"), _mutated({(7, "主人坐祭遂飲卒觶", "zhuren"): {"kneel": False, "rise": False}}))
    found = [f for f in grammar.findings(bad, ("posture",)) if f.section == 7 and f.who == "zhuren"]
    assert any(f.word == "坐祭…遂…卒" for f in found), found


@pytest.mark.slow
def test_ji46_the_dafus_ou_stands_back_from_his_wu_once_he_has_shot():
    """記46 大夫與士射…耦少退于物 (鄭 既發則然): in §29 and §39 the 耦 ends the shooting a little behind his 物;
    kept on it (the form's step back set to 0) the checker finds it in both rounds."""
    from scene.rite.forms import shoot as S
    saved = S.OU_BACK
    try:
        S.OU_BACK = 0.0
        flat = Rite(readings.get("zheng"), chor.load())
        found = [f for f in grammar.findings(flat, ("ji",)) if f.word.startswith("耦少退于物")]
    finally:
        S.OU_BACK = saved
    assert {f.section for f in found} == {29, 39}, found


@pytest.mark.slow          # a mutated rite compiled
def test_a_thing_taken_up_is_within_reach():
    """§46 舉觶者皆洗觶: the second 舉觶者 takes his 觶 from the 篚 by the 洗; standing where the data once had
    him (4 尺 north-east of the 洗, 6 尺 from the 篚) the 觶 flies into his hands — a finding."""
    far = Rite(readings.get("zheng"), _mutated({(46, "舉觶者皆洗觶", "juzhi_2"): {
        "at": chor.parse_ref("court.xi@東北4")}}))
    found = [f for f in grammar.findings(far, ("things",)) if f.word == "zhi_3"]
    assert found and found[0].section == 46 and found[0].who == "juzhi_2", found


@pytest.mark.slow          # the rite compiled twice (as it is, and without the set-down steps)
def test_a_bow_with_the_cup_in_hand_is_found():
    """拜 is made with empty hands (坐奠爵拜 … 執爵興): the §10 卒爵拜 of the 主人 and of the 大夫 set the 爵
    down and take it up again; without those steps the posture rule finds the bow holding the 爵."""
    base = grammar.findings(Rite(readings.get("zheng"), chor.load()), ("posture",))
    assert not [f for f in base if f.word.startswith("奠")]
    import dataclasses
    c = chor.load()
    s10 = next(s for s in c.sections if s.n == 10)
    keep = tuple(st for st in s10.steps
                 if not (st.phrase in ("坐祭卒爵拜", "西階上卒爵拜") and st.do in ("set_down", "take")
                         and not st.note.startswith("still")))
    assert len(s10.steps) - len(keep) == 4
    c = dataclasses.replace(c, sections=tuple(dataclasses.replace(s, steps=keep) if s.n == 10 else s
                                              for s in c.sections))
    found = grammar.findings(Rite(readings.get("zheng"), c), ("posture",))
    cups = [f for f in found if f.word == "奠爵拜" and f.section == 10]
    assert {f.who for f in cups} == {"zhuren", "dafu"}, [f.line() for f in found]


def test_the_checks_interpolation_is_numpys_to_the_bit(zheng):
    """context.interp_row (the checks' hot loop) gives np.interp's very numbers on every person's track: at
    its keys, between them, before and after it, and where a key time repeats (a turn on the spot)."""
    from scene.rite.grammar.context import Ctx, interp_row
    ctx = Ctx(zheng)
    rng = np.random.default_rng(7)
    repeats = 0
    for ts, v in ctx._pos:
        repeats += int(np.sum(np.diff(ts) == 0))
        xs = np.concatenate([ts, rng.uniform(ts[0] - 5, ts[-1] + 5, 60), [ts[0] - 1, ts[-1] + 1]])
        for x in xs:
            want = np.array([np.interp(x, ts, v[:, c]) for c in range(v.shape[1])])
            assert np.array_equal(interp_row(x, ts, v), want), (x, interp_row(x, ts, v), want)
    assert repeats > 0                                   # the repeated key times were met
    assert np.isnan(interp_row(float("nan"), ts, v)).all()
