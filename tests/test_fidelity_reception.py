"""§1–§13 (the reception) against the text, read from the compiled tracks (not from the checker): each test
holds one rule the second reading (audits/fidelity-2026-12-04.md) found broken, wherever it applies in §1–§13."""
from __future__ import annotations

import numpy as np
import pytest

from scene.rite.cache import load_rite
from scene.rite.moments import up_before_kneel


@pytest.fixture(scope="module")
def rite():
    return load_rite("zheng")


@pytest.fixture(scope="module")
def rite_no_dafu():
    return load_rite("zheng,dafu_present=false")


def _chi(R):
    return R.reading.chi_m


def _at(R, aid, t):
    """(x, y, z) in 尺, heading, posture, holding, visible of ``aid`` at t."""
    p = R.pose_at(float(t))
    i = p.actor_ids.index(aid)
    return (p.actor_xyz_m[i] / _chi(R), float(p.heading_deg[i]), p.posture[i], p.holding[i], p.visible[i])


def _spans(R, n, phrase=None, do=None, who=None):
    return [s for s in R.spans if s.section == n and (phrase is None or s.phrase == phrase)
            and (do is None or s.do == do) and (who is None or who in s.who)]


def _place(R, pid):
    return np.array(R.layout.places[pid].xyz_chi, dtype=float)


def _object(R, oid, t):
    p = R.pose_at(float(t))
    i = list(p.object_ids).index(oid)
    return p.object_xyz_m[i] / _chi(R)


def _heading_near(h, want, tol=25.0):
    return abs((h - want + 180.0) % 360.0 - 180.0) <= tol


# -- §10 賓及眾賓皆降復初位 (鄭 初位門內東面; 賈 上文賓厭眾賓皆入門左東面北上)

def test_fu_chu_wei_is_inside_the_gate_facing_east(rite):
    sp = _spans(rite, 10, "賓及眾賓皆降復初位")
    assert sp, "§10 has no 復初位 step"
    t = max(s.end_s for s in sp) + 0.5
    gate_y = _place(rite, "hall.gate")[1]
    for aid in ("bin", *(f"zhongbin_{k}" for k in range(1, 9))):
        (x, y, _), h, *_ = _at(rite, aid, t)
        assert x < 0 and gate_y < y < gate_y + 30, f"{aid} at ({x:.1f}, {y:.1f}) is not 門內 (門 y {gate_y})"
        assert _heading_near(h, 90), f"{aid} faces {h:.0f}, not east"


def test_dafu_stands_south_of_the_bin_at_his_first_place(rite):
    sp = _spans(rite, 10, "大夫降立于賓南", who="dafu")
    t = sp[0].end_s + 0.5
    b, d = _at(rite, "bin", t)[0], _at(rite, "dafu", t)[0]
    assert 1.5 < b[1] - d[1] < 6 and abs(b[0] - d[0]) < 3, f"賓 {b[:2]}, 大夫 {d[:2]}"


# -- the guests are never behind the 侯 (or in its lane) while an arrow flies

def _flights(R):
    out = []
    for oid, o in R.director.objects.items():
        if oid.startswith("arrow."):
            sts = sorted((t, v) for t, k, v in o.events if k == "state")
            for (t, v), nxt in zip(sts, sts[1:] + [(R.duration, "")]):
                if v == "in flight":
                    out.append((t, nxt[0]))
    return out


@pytest.mark.parametrize("which", ["rite", "rite_no_dafu"])
def test_nobody_south_of_the_hou_line_while_an_arrow_flies(which, request):
    R = request.getfixturevalue(which)
    hou_y = _place(R, "target.hou")[1]
    flights = _flights(R)
    assert flights
    bad = []
    for t0, t1 in flights:
        for t in (t0 + 0.05, (t0 + t1) / 2):
            p = R.pose_at(t)
            for i, aid in enumerate(p.actor_ids):
                x, y, z = p.actor_xyz_m[i] / _chi(R)
                if p.visible[i] and z < 0.05 and y < hou_y:
                    bad.append((aid, round(t, 1), round(float(y), 1)))
    assert not bad, f"behind the 侯 line (y {hou_y}) while arrows fly: {bad[:5]}"


def test_tangxia_zhongbin_stand_at_their_place_until_the_shooting(rite, rite_no_dafu):
    """鄭 §8 眾賓辯有脯醢 薦於其位: the 眾賓 without mats stand at their own place from their 獻 on."""
    for R in (rite, rite_no_dafu):
        slots = R.layout.places["pos.zhongbin_tangxia"].extra["slots"]
        for t in (_spans(R, 11)[0].start_s, _spans(R, 13)[-1].end_s):
            for k in range(4, 9):
                (x, y, _), h, *_ = _at(R, f"zhongbin_{k}", t)
                sx, sy = slots[k - 4][:2]
                assert np.hypot(x - sx, y - sy) < 1.0, f"zhongbin_{k} at ({x:.1f}, {y:.1f}), t {t:.0f}"


# -- 笙 (記17 三笙一和而成聲, 鄭 凡四人): four, standing while they play, never on the 堂

def test_four_sheng_enter_and_stand_while_they_play(rite):
    sheng = [a for a in rite.actor_ids if a.startswith("sheng_")]
    assert len(sheng) == 4
    plays = [s for s in _spans(rite, 11, do="play") if any(a.startswith("sheng_") for a in s.who)]
    assert plays and all(set(s.who) == set(sheng) for s in plays)
    for s in plays:
        for t in np.arange(s.start_s + 0.2, s.end_s, 1.0):
            for a in sheng:
                assert _at(rite, a, t)[2] == "stand", f"{a} not standing (笙入立于縣中) at {t:.1f}"


def test_sheng_go_no_higher_than_the_last_step(rite):
    """§12 盡階不升堂: receiving and handing back on the top 等, never on the 堂 floor."""
    s12 = _spans(rite, 12)
    floor = rite.layout.hall.height if hasattr(rite.layout, "hall") else 3.0
    for t in np.arange(s12[0].start_s, s12[-1].end_s, 0.25):
        for a in ("sheng_1", "sheng_2", "sheng_3", "sheng_4"):
            z = _at(rite, a, t)[0][2]
            assert z < floor - 0.5, f"{a} at z {z:.1f} (the 堂 is at {floor}) at {t:.1f}"
    acts = [s for s in s12 if s.do in ("receive", "hand") and s.who[0].startswith("sheng_")]
    assert len(acts) == 8          # each of the four receives the 爵 and hands it back
    for s in acts:
        z = _at(rite, s.who[0], s.end_s - 0.3)[0][2]
        assert 1.5 <= z <= 2.5, f"{s.who[0]} {s.do} at z {z:.1f}, not on the top 等"


def test_only_the_lead_sheng_bows(rite):
    """笙一人拜于下 … 眾笙不拜受爵."""
    bows = [s.who[0] for s in _spans(rite, 12, do="bow") if s.who[0].startswith("sheng_")]
    assert bows == ["sheng_1"]


# -- 揖讓: 揖 on the way, 讓 at the stairs (§4 三揖…及階三讓 is the model)

@pytest.mark.parametrize("n, phrase, other", [(10, "主人揖讓以大夫升", "dafu"), (10, "主人揖讓以賓升", "bin")])
def test_yi_rang_from_the_gate(rite, n, phrase, other):
    sp = _spans(rite, n, phrase)
    sal = [s for s in sp if s.do == "salute" and "zhuren" in s.who]
    dec = [s for s in sp if s.do == "decline" and "zhuren" in s.who]
    asc = [s for s in sp if s.do == "ascend" and "zhuren" in s.who]
    assert len(sal) >= 3 and dec and asc
    ys = [_at(rite, "zhuren", s.end_s - 0.1)[0][1] for s in sal]
    assert max(ys) - min(ys) > 100, f"the 揖 are all at one place: y {ys}"
    front = _place(rite, "hall.east_steps_front")
    d = dec[0]
    assert d.end_s <= asc[0].start_s + 0.01
    zx = _at(rite, "zhuren", d.end_s - 0.1)[0]
    assert np.hypot(*(zx[:2] - front[:2])) < 4, "the 讓 is not at the stairs"
    assert any(s.do == "decline" and other in s.who for s in sp)


def test_every_yi_rang_in_the_reception_has_its_rang(rite):
    for sec in range(1, 14):
        for phrase in {s.phrase for s in _spans(rite, sec) if "揖" in s.phrase and "讓" in s.phrase}:
            sp = _spans(rite, sec, phrase)
            if any(s.do == "salute" for s in sp):
                assert any(s.do == "decline" for s in sp), f"§{sec} {phrase}: a 揖 and no 讓"


# -- §10 主人以爵降; 坐祭卒爵拜

def test_zhuren_goes_down_holding_the_jue(rite):
    sp = _spans(rite, 10, "主人以爵降", do="descend")
    assert sp
    for t in np.arange(sp[0].start_s + 0.2, sp[0].end_s, 0.5):
        assert "爵" in _at(rite, "zhuren", t)[3], f"empty-handed at {t:.1f}"


def test_zuo_ji_zu_jue_bai_kneeling_throughout(rite):
    sp = [s for s in _spans(rite, 10, "坐祭卒爵拜") if "zhuren" in s.who]
    taste = next(s for s in sp if s.do == "taste")
    bow = next(s for s in sp if s.do == "bow")
    drink = next(s for s in sp if s.do == "drink")
    for t in np.arange(taste.start_s + 0.1, bow.end_s, 0.25):
        assert _at(rite, "zhuren", t)[2] in ("sit", "bow"), f"he stands at {t:.1f} (no 興 before 卒爵拜)"
    assert "爵" in _at(rite, "zhuren", drink.start_s + 0.5)[3]


@pytest.mark.parametrize("n, who", [(8, f"zhongbin_{k}") for k in range(1, 9)])
def test_zuo_ji_li_yin(rite, n, who):
    """§8 坐祭立飲: kneel to offer, stand to drink."""
    taste = [s for s in _spans(rite, n, do="taste") if who in s.who]
    drink = [s for s in _spans(rite, n, do="drink") if who in s.who]
    assert taste and drink and taste[0].end_s <= drink[0].start_s + 0.01
    assert _at(rite, who, (taste[0].start_s + taste[0].end_s) / 2)[2] == "sit"
    assert _at(rite, who, (drink[0].start_s + drink[0].end_s) / 2)[2] == "stand"


def test_si_zheng_sets_the_zhi_down_to_bow(rite):
    """§13 興坐奠觶拜執觶興: the 觶 is on the ground while he bows, in his hand after 執觶興."""
    sp = _spans(rite, 13, "興坐奠觶拜執觶興")
    bow = next(s for s in sp if s.do == "bow")
    take = next(s for s in sp if s.do == "take")
    mid = (bow.start_s + bow.end_s) / 2
    assert _at(rite, "xiang", mid)[2] == "bow" and "觶" not in _at(rite, "xiang", mid)[3]
    after = _at(rite, "xiang", take.end_s + 0.1)
    assert "觶" in after[3] and after[2] in ("stand", "walk")      # 興: up, and away to the 洗


# -- 記13 眾賓之長一人辭洗如賓禮; §4 揖眾賓; §12 使人相祭

def test_eldest_zhongbin_declines_the_washing(rite):
    dec = [s for s in _spans(rite, 8, do="decline") if "zhongbin_1" in s.who]
    assert len(dec) == 1
    (x, y, _), h, *_ = _at(rite, "zhongbin_1", dec[0].end_s - 0.2)
    xi = _place(rite, "court.xi")
    assert np.hypot(x - xi[0], y - xi[1]) < 12 and _heading_near(h, 45), (x, y, h)
    # the 主人 sets the 爵 down in the 篚 to answer him (如賓禮: 主人坐奠爵于篚興對)
    sd = [s for s in _spans(rite, 8, do="set_down") if "zhuren" in s.who and s.start_s >= dec[0].start_s]
    assert sd and sd[0].start_s - dec[0].end_s < 5


def test_zhongbin_are_there_to_be_saluted(rite):
    sp = _spans(rite, 4, "揖眾賓")
    t = (sp[0].start_s + sp[0].end_s) / 2
    gate_y = _place(rite, "hall.gate")[1]
    zb = [f"zhongbin_{k}" for k in range(1, 9)]
    assert all(_at(rite, a, t)[4] for a in zb), "the 眾賓 are not there (§3 賓及眾賓遂從之)"
    assert all(_at(rite, a, t)[0][1] < gate_y for a in zb), "the 眾賓 should wait outside the 門"


def test_xiangzhe_help_the_gong_offer(rite):
    """§12 使人相祭, 鄭 人，相者."""
    sp = _spans(rite, 12, "使人相祭")
    assert any("xiangzhe_1" in s.who or "xiangzhe_2" in s.who for s in sp)
    s = next(s for s in sp if s.do == "wait")
    t = s.end_s - 0.2
    g = _at(rite, "gong_1", t)[0]
    helper = min(np.hypot(*(_at(rite, a, t)[0][:2] - g[:2])) for a in ("xiangzhe_1", "xiangzhe_2"))
    assert helper < 4.0
    assert np.hypot(*(_at(rite, "youshi", t)[0][:2] - g[:2])) > helper


# -- the things: 薦 (辯有脯醢, 記21), 幂 (記03)

def test_every_gong_and_sheng_has_his_jian(rite):
    end = _spans(rite, 12)[-1].end_s
    for who in ("gong_1", "gong_2", "gong_3", "gong_4", "sheng_1", "sheng_2", "sheng_3", "sheng_4"):
        oid = "jian_" + who
        pos = _object(rite, oid, end)
        me = _at(rite, who, end)[0]
        assert np.hypot(*(pos[:2] - me[:2])) < 4.0, f"{oid} at {pos[:2]}, {who} at {me[:2]}"
        assert not any(oid in h for h in rite.pose_at(end).holding)


def test_si_zheng_jian_lies_south_of_his_zhi(rite):
    """記21 司正既舉觶而薦諸其位, 鄭 薦於觶南 (賈 觶南位北)."""
    end = _spans(rite, 13)[-1].end_s
    j = _object(rite, "jian_sizheng", end)
    zhi = _place(rite, "court.zhi_marker")
    me = _place(rite, "pos.sizheng")
    assert me[1] < j[1] < zhi[1] and abs(j[0] - zhi[0]) < 1.5, (j, zhi, me)


def test_the_zun_cover_comes_off_when_the_bin_has_come(rite):
    zun = _place(rite, "tang.zun")
    assert np.hypot(*(_object(rite, "mi", 0.0)[:2] - zun[:2])) < 0.5
    came = _spans(rite, 4, "及門", who="bin")[0].end_s
    assert np.hypot(*(_object(rite, "mi", came - 1)[:2] - zun[:2])) < 0.5, "off before the 賓 came"
    after = _spans(rite, 4)[-1].end_s
    assert np.hypot(*(_object(rite, "mi", after)[:2] - zun[:2])) > 1.0, "still on the 尊 after the 賓 came"


def test_every_zhongbin_has_his_jian(rite):
    """§8 每一人獻則薦諸其席 (賈 席前) … 眾賓辯有脯醢 (鄭 薦於其位)."""
    end = _spans(rite, 8)[-1].end_s
    for k in range(1, 9):
        pos = _object(rite, f"jian_zhongbin_{k}", end)
        ref = _place(rite, f"mat.zhongbin_{k}") if k <= 3 else _at(rite, f"zhongbin_{k}", end)[0]
        assert np.hypot(*(pos[:2] - ref[:2])) < 4.0, f"jian_zhongbin_{k} at {pos[:2]}, its place {ref[:2]}"


def _visible(R, aid, t):
    v = True
    for tt, kind, val in R.director.actors[aid].events:
        if kind == "visible" and tt <= t + 1e-6:
            v = bool(val)
    return v


def test_se_is_carried_in_not_held_by_the_hidden(rite, rite_no_dafu):
    """§11 工四人二瑟瑟先相者皆左何瑟…右手相入 … 工坐相者坐授瑟乃降: nobody off the scene holds a 瑟 (nor anything
    else) when it comes into his hands; each 相者 takes his 瑟 up 門外 as he comes in, has it in hand as he
    passes the 門 and goes up, and hands it kneeling to his seated 工 on the 堂, who holds it after."""
    for R in (rite, rite_no_dafu):
        d = R.director
        taken_hidden = [(oid, v, round(t, 1)) for oid, o in d.objects.items() for t, k, v in o.events
                        if k == "held" and v is not None and not _visible(R, v, t + 1e-3)]
        assert not taken_hidden, taken_hidden[:6]
        gate_y = _place(R, "hall.gate")[1]
        hand = {sp.who[0]: sp for sp in _spans(R, 11, "相者坐授瑟", "hand")}
        assert set(hand) == {"xiangzhe_1", "xiangzhe_2"}
        for oid, xz, gong in (("se_1", "xiangzhe_1", "gong_1"), ("se_2", "xiangzhe_2", "gong_2")):
            held = [(t, v) for t, k, v in d.objects[oid].events if k == "held"]
            assert held[0][1] == xz, held[:2]
            t_take = held[0][0]
            pos, _, _, holding, vis = _at(R, xz, t_take + 0.1)
            assert vis and pos[1] < gate_y, (oid, pos)                  # taken up 門外, by one who is seen
            # he passes the 門 with it in hand, and is on the 堂 with it
            ts = np.arange(t_take + 0.1, hand[xz].start_s, 0.5)
            ys = [_at(R, xz, t)[0][1] for t in ts]
            assert min(ys) < gate_y < max(ys)
            assert all("瑟" in _at(R, xz, t)[3] for t in ts)
            # 工坐, 相者坐授瑟: both kneeling as it passes; then the 工 has it and the 相者 goes down
            t_hand = next(t for t, v in held if v == gong)
            assert hand[xz].start_s <= t_hand <= hand[xz].end_s + 1e-6
            assert _at(R, xz, t_hand - 0.3)[2] == "sit" and _at(R, gong, t_hand - 0.3)[2] == "sit"
            assert _at(R, gong, t_hand - 0.3)[0][2] > 2.5                 # on the 堂
            assert "瑟" in _at(R, gong, t_hand + 0.5)[3] and "瑟" not in _at(R, xz, t_hand + 0.5)[3]


# -- X6 (audits/fidelity-2026-12-07.md) 卒爵興坐奠爵: the 興 between two kneelings is acted, in every section

def test_xing_between_zu_jue_and_zuo_dian_is_acted(rite):
    seen = []
    for s in rite.spans:
        if s.index < 0 or s.do not in ("set_down", "taste", "drink", "sit"):
            continue
        if not (s.phrase.startswith("興坐") or "卒爵興坐" in s.phrase or "卒觶興坐" in s.phrase):
            continue
        if not rite.director.c.sections[s.section - 1].steps[s.index].kneel:
            continue
        for aid in s.who:
            up = up_before_kneel(rite.director, aid, s.start_s, s.end_s)
            seen.append((s.section, aid))
            assert up is not None and up >= 0.5, (
                f"§{s.section} {aid} {s.phrase} t {s.start_s:.1f}: on his feet {up} s before the 坐 (興 dropped)")
    assert {5, 6, 7, 9} <= {n for n, _ in seen}, seen


# -- X5 §5 賓坐…祭脯醢奠爵于薦西興取肺坐絕祭…興加于俎坐挩手執爵: 奠爵 and 執爵 kneeling, two rises between

def test_bin_sets_the_jue_down_and_takes_it_up_kneeling(rite):
    for ph, do in (("奠爵于薦西", "set_down"), ("興加于俎坐挩手執爵", "take")):
        sp = _spans(rite, 5, ph, do=do, who="bin")[0]
        _, a0, a1 = [a for a in sp.acts if a[0] == "bin"][0]
        p0 = _at(rite, "bin", sp.start_s)[0]
        for t in np.arange(a0, a1, 0.25):
            (x, y, _), _, post, _, _ = _at(rite, "bin", t)
            assert post == "sit", f"§5 {ph}: bin {post} at t {t:.1f}"
            assert np.hypot(x - p0[0], y - p0[1]) < 0.5, f"§5 {ph}: bin moves from his seat"
    jian = _object(rite, "jian_bin", sp.end_s)
    jue = _object(rite, "jue", _spans(rite, 5, "奠爵于薦西", who="bin")[0].end_s + 0.5)
    assert jue[0] < jian[0] - 1 and abs(jue[1] - jian[1]) < 1.5, f"爵 {jue[:2]} is not 薦西 (薦 {jian[:2]})"
    t0 = _spans(rite, 5, "賓坐左執爵右祭脯醢", who="bin")[0].start_s
    t1 = _spans(rite, 5, "遂祭酒", who="bin")[0].start_s
    ps = [v for t, k, v in rite.director.actors["bin"].events if k == "posture" and t0 <= t <= t1
          and v in ("sit", "stand", "walk")]
    seq = [v for i, v in enumerate(ps) if i == 0 or ps[i - 1] != v]
    assert seq == ["sit", "stand", "sit", "stand", "sit"], f"坐…奠爵 興…坐 興…坐: {seq}"


def _seq(R, aid, t0, t1):
    ps = [("stand" if v == "walk" else v) for t, k, v in R.director.actors[aid].events
          if k == "posture" and t0 <= t <= t1 and v in ("sit", "stand", "walk")]
    return [v for i, v in enumerate(ps) if i == 0 or ps[i - 1] != v]


# -- X7 §6 主人…祭如賓禮 (鄭 祭薦俎及酒亦嚌啐): the 賓's 祭 of §5 with its three rises and the move to the 席末

def test_zhuren_ji_ru_bin_li_rises_and_goes_to_the_end_of_his_mat(rite):
    sp = _spans(rite, 6, "祭如賓禮", who="zhuren")
    t0 = sp[0].start_s
    t1 = _spans(rite, 6, "自席前適阼階上北面坐卒爵", do="drink")[0].start_s
    seq = _seq(rite, "zhuren", t0 + 0.01, t1)
    assert seq[:7] == ["sit", "stand", "sit", "stand", "sit", "stand", "sit"], f"§6 祭如賓禮: {seq}"
    mat = _place(rite, "mat.zhuren")
    ends = [np.hypot(*(_at(rite, "zhuren", t)[0] - mat)[:2]) for t in np.arange(t0, t1, 0.5)
            if _at(rite, "zhuren", t)[2] == "sit"]
    assert max(ends) >= 1.5, "§6: he never kneels at the 席末 for the 啐酒"


# -- X11 §7 主人降洗賓降辭如獻禮 (賈 至此辭洗): the 賓 comes forward to the 洗 and declines the washing

def test_bin_declines_the_washing_in_section_7(rite):
    t0 = _spans(rite, 7, "主人降", do="descend")[0].start_s
    t1 = _spans(rite, 7, "升不拜洗", do="ascend")[0].start_s
    xi = _place(rite, "court.xi")
    says = [t for t, k, v in rite.director.actors["bin"].events if k == "say" and v and t0 <= t <= t1]
    assert len(says) >= 2, "§7: the 賓 only answers the 辭降; he does not 辭洗"
    near = min(np.hypot(*(_at(rite, "bin", t)[0] - xi)[:2]) for t in says)
    assert near < 15, f"§7 辭洗: the 賓 speaks no nearer than {near:.0f} 尺 to the 洗 (進, as §5)"


# -- X17 §6 賓…興降盥如主人之禮 (§5 主人辭降賓對…壹揖壹讓升): 辭降, 對, 揖 and 讓 at the stairs

def test_bin_goes_down_to_wash_his_hands_as_the_zhuren_did(rite):
    d = [s for s in _spans(rite, 6, "興降盥如主人之禮", do="descend", who="bin")][0]
    up = _spans(rite, 6, "賓升實爵", do="ascend", who="bin")[0]
    for aid, n_say, n_sal in (("bin", 2, 2), ("zhuren", 2, 2)):
        ev = rite.director.actors[aid].events
        says = [t for t, k, v in ev if k == "say" and v and d.start_s <= t <= up.start_s]
        sal = [t for t, k, v in ev if k == "posture" and v == "salute" and d.start_s <= t <= up.start_s]
        assert len(says) >= n_say and len(sal) >= n_sal, f"§6 降盥: {aid} says {len(says)}, salutes {len(sal)}"


# -- X20 §6 主人降 (鄭 降立阼階東西面當東序)

def test_zhuren_below_stands_level_with_the_east_xu(rite):
    sp = _spans(rite, 6, "主人降", do="descend", who="zhuren")[0]
    (x, y, _), h, *_ = _at(rite, "zhuren", sp.end_s + 0.5)
    xu = -_place(rite, "pos.bin_below")[0]          # the 賓位 is 當西序: the 東序 is its mirror
    assert abs(x - xu) < 1 and _heading_near(h, 270), f"§6 主人降: at ({x:.1f}, {y:.1f}) h{h:.0f}, not 當東序 西面"


# -- W4 (audits/fidelity-2026-12-04.md, 12-07) 工不興: the 工 speaks, bows and receives the 爵 seated (§11, §12)

def test_gong_does_not_rise_to_speak_or_to_receive(rite):
    t0 = _spans(rite, 11, "工不興告于樂正曰正歌備", who="gong_1")[0].start_s
    t1 = [s for s in _spans(rite, 12, who="gong_1") if s.do == "taste"][0].end_s
    up = [t for t in np.arange(t0, t1, 0.5) if _at(rite, "gong_1", t)[2] in ("stand", "walk")]
    assert not up, f"工不興: gong_1 on his feet {len(up)} samples from t {up[0]:.1f}"


# -- X14 §8 每一人獻則薦諸其席: each 長's 薦 is laid after his 獻, before the next 長 is given the 爵

def test_each_elder_is_given_his_jian_before_the_next_is_toasted(rite):
    for k in (1, 2, 3):
        rec = _spans(rite, 8, do="receive", who=f"zhongbin_{k}")[0].start_s
        laid = [t for t, kind, v in rite.director.objects[f"jian_zhongbin_{k}"].events if kind == "at" and t > 0][0]
        assert laid > rec, f"長 {k}: 薦 laid at t {laid:.1f} before his 獻 (t {rec:.1f})"
        if k < 3:
            nxt = _spans(rite, 8, do="receive", who=f"zhongbin_{k + 1}")[0].start_s
            assert laid < nxt, f"長 {k}: 薦 laid at t {laid:.1f}, after 長 {k + 1} is given the 爵 (t {nxt:.1f})"
