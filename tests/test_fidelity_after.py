"""§36, §38–§51 as the text has them, read from the compiled tracks (issue 23, the second reading's items):
旅酬 and 無筭爵 go round everyone (辯), 坐奠觶拜 kneeling, the 主人 sees the 賓 off as he goes and the 大夫
after him, the 大夫's 俎 reaches his attendant, 少退, and what anybody holds is true at every moment."""
from __future__ import annotations

import math

import pytest

from scene.rite.cache import load_rite

#: the compiled rites from the disk cache (these tests read them; compiling is test_timeline's)
RITE = load_rite("zheng")
NO_DAFU = load_rite("zheng,dafu_present=false")
ZHONGBIN = tuple(f"zhongbin_{i}" for i in range(1, 9))
SANOU = ("ou1_up", "ou1_low", "ou2_up", "ou2_low", "ou3_up", "ou3_low")
#: 主人之贊者 below (鄭 §48 眾賓之未飲而酬主人之贊者; 執觶者皆與旅)
ZANZHE = ("youshi", "sishe", "shihuozhe", "zhijue", "xiangzhe_1", "xiangzhe_2", "juzhi_1", "juzhi_2")
#: things taken home for good by someone who leaves (鄭 §47 古者與人飲食必歸其盛者; the 工 their 瑟)
CARRIED_HOME = {("zu_bin", "congzhe"), ("zu_dafu", "congzhe_dafu"), ("se_1", "gong_1"), ("se_2", "gong_2")}


def stage(rite, n):
    return next(s for s in rite.stages if s.n == n)


def chi(rite, xyz_m):
    return tuple(float(c) / rite.reading.chi_m for c in xyz_m)


def where(rite, aid, t):
    p = rite.pose_at(t)
    i = p.actor_ids.index(aid)
    return chi(rite, p.actor_xyz_m[i]), float(p.heading_deg[i]), p.posture[i], p.holding[i], p.visible[i]


def receipts(rite, cups, n):
    """(t, actor) each time one of ``cups`` comes into someone's hands in §n, in order."""
    st = stage(rite, n)
    out = []
    for cup in cups:
        for t, kind, v in rite.director.objects[cup].events:
            if kind == "held" and st.start_s <= t <= st.end_s:
                out.append((t, v))
    return sorted(out)


def holds_a_while(rite, aid, cups, n, least=3.0):
    """He has one of the cups in his hands for at least ``least`` seconds in §n (long enough to drink it)."""
    st = stage(rite, n)
    for cup in cups:
        evs = sorted((t, k, v) for t, k, v in rite.director.objects[cup].events if k in ("held", "at", "path"))
        for (t, k, v), nxt in zip(evs, evs[1:] + [(rite.duration, "", None)]):
            if k == "held" and v == aid and st.start_s <= t <= st.end_s and nxt[0] - t >= least:
                return True
    return False


# --------------------------------------------------------------------------- 旅酬 (§45)
@pytest.mark.parametrize("rite", [RITE, NO_DAFU], ids=["zheng", "no_dafu"])
def test_lv_chou_goes_round_all_on_the_tang_and_all_below(rite):
    """辯, 遂酬在下者皆升受酬于西階上: every 眾賓, the 樂正 (記16 與立者齒) and the 三耦 hold the cup long
    enough to drink, the 眾賓 by age; those below receive it up on the 堂 at 西階上."""
    dafu = rite is RITE
    everyone = ("bin", "zhuren") + (("dafu",) if dafu else ()) + ZHONGBIN + ("yuezheng",) + SANOU
    for aid in everyone:
        assert holds_a_while(rite, aid, ("zhi_juzhi",), 45), f"{aid} never drinks in the 旅酬"
    got = receipts(rite, ("zhi_juzhi",), 45)
    first = {}
    for t, aid in got:
        first.setdefault(aid, t)
    assert [first[z] for z in ZHONGBIN] == sorted(first[z] for z in ZHONGBIN), "眾賓 not by age"
    assert max(first[z] for z in ZHONGBIN) < min(first[a] for a in SANOU + ("yuezheng",)), "below before above"
    for aid in SANOU + ("yuezheng",):
        (x, y, z), *_ = where(rite, aid, first[aid])
        assert z > 2.9 and math.dist((x, y), (-21.5, 7.0)) < 4.0, f"{aid} receives at ({x:.1f}, {y:.1f}, {z:.1f})"


@pytest.mark.parametrize("rite", [RITE, NO_DAFU], ids=["zheng", "no_dafu"])
def test_lv_chou_toaster_kneels_sets_the_cup_down_and_bows(rite):
    """如賓酬主人之禮 = 賓坐奠觶拜執觶興: in §45 nobody bows with the 觶 in his hands, and every toaster's bow
    (the 主人's to the 大夫 too) is made kneeling."""
    st = stage(rite, 45)
    toasters = {aid for _, aid in receipts(rite, ("zhi_juzhi",), 45)} - {"dizi_2"}
    for aid in toasters | {"bin"}:
        evs = sorted((t, v) for t, k, v in rite.director.actors[aid].events
                     if k == "posture" and st.start_s <= t <= st.end_s)
        bows = [(t, evs[i - 1][1] if i else "stand") for i, (t, v) in enumerate(evs) if v == "bow"]
        for t, _before in bows:
            held = where(rite, aid, t + 0.3)[3]
            assert "觶" not in held, f"{aid} bows at {t:.1f} holding {held}"
        if aid in ("bin", "zhuren") or aid in ZHONGBIN[:-1]:
            assert any(before == "sit" for _, before in bows), f"{aid} never bows kneeling in §45"


# --------------------------------------------------------------------------- 二人舉觶 (§46)
def test_ju_zhi_sit_set_down_bow_take_rise_both_times():
    """皆坐奠觶拜執觶興 / 興坐奠觶拜執觶興: each bearer bows twice kneeling with his 觶 on the ground."""
    st = stage(RITE, 46)
    for aid in ("juzhi_1", "juzhi_2"):
        evs = sorted((t, v) for t, k, v in RITE.director.actors[aid].events
                     if k == "posture" and st.start_s <= t <= st.end_s)
        kneeling = 0
        for i, (t, v) in enumerate(evs):
            if v != "bow":
                continue
            held = where(RITE, aid, t + 0.3)[3]
            assert "觶" not in held, f"{aid} bows at {t:.1f} holding {held}"
            kneeling += i > 0 and evs[i - 1][1] == "sit"
        assert kneeling >= 2, f"{aid}: {kneeling} kneeling bows"


# --------------------------------------------------------------------------- 無筭爵 (§48)
@pytest.mark.parametrize("rite", [RITE, NO_DAFU], ids=["zheng", "no_dafu"])
def test_wu_suan_jue_every_guest_and_everyone_below_drinks(rite):
    """辯 … 卒受者興以旅在下者于西階上 … 辯旅皆不拜, 執觶者皆與旅: the cups reach every 眾賓 on the 堂, every
    主人之贊者 and every one of the 賓黨 below; those below receive at 西階上."""
    cups = ("zhi_2", "zhi_3")
    for aid in ("zhuren",) + ZHONGBIN + ZANZHE + ("yuezheng",) + SANOU:
        assert holds_a_while(rite, aid, cups, 48, least=2.5), f"{aid} never drinks in the 無筭爵"
    got = receipts(rite, cups, 48)
    for aid in SANOU + ("yuezheng", "youshi", "xiangzhe_1"):
        t = max(t for t, a in got if a == aid)
        (x, y, z), *_ = where(rite, aid, t)
        assert z > 2.9 and x < -15, f"{aid} receives at ({x:.1f}, {y:.1f}, {z:.1f}), not at 西階上"


def test_wu_suan_jue_the_two_lv_below_go_at_once_zanzhe_first():
    """辯卒受者興以旅在下者于西階上 (鄭: 眾賓之末飲而酬主人之贊者, 大夫之末飲而酬賓黨, 亦錯焉 … 其末若皆眾賓則先酬
    主人之贊者; 賈 此亦若堂上交錯也): with the 大夫 both cups go on below, at once and crosswise — their toasts
    interleave in time, not one 旅 after the other — and, both cups ending with a 眾賓 on the 堂 (one 大夫: 賈
    大夫或少或無則眾賓為末飲), the 主人之贊者 are toasted before the 賓黨."""
    below = set(ZANZHE) | {"yuezheng", "huozhe", "dizi_1", "dizi_2"} | set(SANOU)
    sec = [sp for sp in RITE.spans if sp.section == 48]
    t0 = max(sp.end_s for sp in sec if sp.phrase == "而錯皆不拜")                # the cups on the 堂 have gone round
    t1 = max(sp.end_s for sp in sec if sp.do == "relay")                         # … and those below
    got = [(t, cup, a) for cup in ("zhi_2", "zhi_3") for t, a in receipts(RITE, (cup,), 48)
           if a in below and t0 <= t <= t1]
    got.sort()
    assert {a for _, _, a in got} == below
    span = {cup: (min(t for t, c, _ in got if c == cup), max(t for t, c, _ in got if c == cup)) for cup in ("zhi_2", "zhi_3")}
    (a0, a1), (b0, b1) = span["zhi_2"], span["zhi_3"]
    overlap = min(a1, b1) - max(a0, b0)
    assert overlap > 0.6 * min(a1 - a0, b1 - b0), f"the two 旅 below do not go at once: {span}"
    changes = sum(c0 != c1 for (_, c0, _), (_, c1, _) in zip(got, got[1:]))
    assert changes >= len(got) // 2, f"the cups do not interleave: {[c for _, c, _ in got]}"
    last_zan = max(t for t, _, a in got if a in ZANZHE)
    first_bin = min(t for t, _, a in got if a not in ZANZHE)
    assert last_zan < first_bin, "先酬主人之贊者: a 賓黨 man is toasted before the last 主人之贊者"
    assert got[0][2] == ZANZHE[0], f"長受酬: the first to receive below is {got[0][2]}"


def test_wu_suan_jue_no_bows_and_seated_on_the_tang():
    """皆不拜 and 迭飲於坐: nobody bows in §48 after the cups start going round; the 眾賓 drink seated."""
    st = stage(RITE, 48)
    start = min(t for t, a in receipts(RITE, ("zhi_2",), 48) if a == "zhuren")
    for aid, a in RITE.director.actors.items():
        bows = [t for t, k, v in a.events if k == "posture" and v == "bow" and start <= t <= st.end_s]
        assert not bows, f"{aid} bows at {bows[0]:.1f} in the 無筭爵"
    for z in ZHONGBIN[:-2]:
        t = min(t for t, a in receipts(RITE, ("zhi_2", "zhi_3"), 48) if a == z)
        assert where(RITE, z, t + 1.0)[2] == "sit", f"{z} does not drink seated"


# --------------------------------------------------------------------------- 請坐燕因徹俎 (§47)
def test_dafu_zu_reaches_his_attendant_and_the_dizi_comes_back():
    st = stage(RITE, 47)
    got = [(t, v) for t, k, v in RITE.director.objects["zu_dafu"].events if k == "held"]
    assert ("congzhe_dafu" in {v for _, v in got}), "the 大夫's 從者 never receives the 俎"
    _, _, _, held, vis = where(RITE, "dizi_2", st.end_s)
    assert vis and "俎" not in held


def test_zhongbin_stand_south_of_the_dafu_a_little_back():
    """眾賓皆降立于大夫之南少退北上: south of the 大夫, west of his line, the eldest north."""
    t = stage(RITE, 47).end_s
    (dx, dy, _), *_ = where(RITE, "dafu", t)
    ys = []
    for z in ZHONGBIN:
        (x, y, _), *_ = where(RITE, z, t)
        assert y < dy and dx - 2.0 < x <= dx - 0.5, f"{z} at ({x:.1f}, {y:.1f}); 大夫 ({dx:.1f}, {dy:.1f})"
        ys.append(y)
    assert ys == sorted(ys, reverse=True)


# --------------------------------------------------------------------------- 送賓 (§49), 拜辱 (§50)
def _bows(rite, aid, n, kind="bow"):
    st = stage(rite, n)
    return [t for t, k, v in rite.director.actors[aid].events if k == "posture" and v == kind
            and st.start_s <= t <= st.end_s]


def test_host_bows_the_guest_off_as_he_goes_then_the_dafu():
    """鄭 拜送賓于門東西面; 記59 鄭 主人送賓還入門揖大夫乃出送拜之."""
    gate_y = RITE.layout["hall.gate"].xyz_chi[1]
    bows = _bows(RITE, "zhuren", 49)
    assert len(bows) >= 2
    t = bows[0]
    (x, y, _), h, *_ = where(RITE, "zhuren", t + 0.5)
    (bx, by, _), _, _, _, bvis = where(RITE, "bin", t + 0.5)
    assert bvis and by < gate_y, "the 賓 is gone (or still inside) when the 主人 bows"
    assert y < gate_y and x > 0 and abs(((h - 270 + 180) % 360) - 180) < 30
    salutes = [s for s in _bows(RITE, "zhuren", 49, "salute") if bows[0] < s < bows[-1]]
    assert salutes, "no 揖 to the 大夫 inside"
    (sx, sy, _), *_ = where(RITE, "zhuren", salutes[0] + 0.5)
    assert sy > gate_y and where(RITE, "dafu", salutes[0] + 0.5)[4]
    (x2, y2, _), *_ = where(RITE, "zhuren", bows[-1] + 0.5)
    (_, dy, _), _, _, _, dvis = where(RITE, "dafu", bows[-1] + 0.5)
    assert y2 < gate_y and dvis and dy < gate_y, "the second 再拜 is not to the 大夫 outside"


def test_host_bows_outside_when_he_returns_the_visit():
    """§50 如賓服遂從之拜辱于門外: the 主人's 再拜 is seen, outside."""
    gate_y = RITE.layout["hall.gate"].xyz_chi[1]
    bows = _bows(RITE, "zhuren", 50)
    assert bows
    (_, y, _), _, _, _, vis = where(RITE, "zhuren", bows[0] + 0.5)
    assert vis and y < gate_y


def test_xi_sizheng_guests_come_and_are_offered():
    """§51 既獻眾賓: the day's 眾賓 are there and each is offered the 爵."""
    st = stage(RITE, 51)
    got = {v for t, k, v in RITE.director.objects["jue_2"].events if k == "held" and st.start_s <= t <= st.end_s}
    present = [z for z in ZHONGBIN if where(RITE, z, st.end_s - 1)[4]]
    assert present and set(present) <= got


# --------------------------------------------------------------------------- what anybody holds
def holding_findings(rite):
    """(t, text): a thing held by someone hidden (but for what those who leave take home, and what one carries in
    before he is first seen), an arrow or bow 'in hand' while it lies somewhere, the 旌 '倚旌于侯中' away from
    the 侯."""
    d = rite.director
    out = []
    vis = {a: sorted((t, v) for t, k, v in st.events if k == "visible") for a, st in d.actors.items()}
    first_seen = {a: next((t for t, v in e if v), math.inf) for a, e in vis.items()}
    hou = rite.layout["target.centre"].xyz_chi
    for oid, o in d.objects.items():
        place = sorted(((t, k, v) for t, k, v in o.events if k in ("at", "held", "path")), key=lambda e: e[0])
        states = sorted(((t, v) for t, k, v in o.events if k == "state"), key=lambda e: e[0])
        for i, (t, k, v) in enumerate(place):
            if k != "held":
                continue
            t_end = place[i + 1][0] if i + 1 < len(place) else rite.duration
            hidden = [tt for tt, vv in vis[v] if t - 1e-6 <= tt < t_end and vv is False]
            if (oid, v) in CARRIED_HOME or t_end <= first_seen[v] + 1e-6:
                continue
            if hidden:
                out.append((hidden[0], f"{oid} held by {v}, hidden from {hidden[0]:.1f} to {t_end:.1f}"))
        for t in sorted({t for t, _, _ in place} | {t for t, _ in states}):
            s = next((v for tt, v in reversed(states) if tt <= t + 1e-9), "")
            p = next(((k, v) for tt, k, v in reversed(place) if tt <= t + 1e-9), None)
            if p is None:
                continue
            k, v = p
            lying = v if k == "at" else (v[1][-1] if k == "path" else None)
            if s == "in hand" and lying is not None:
                out.append((t, f"{oid} 'in hand' but lying at {tuple(round(c, 1) for c in lying)}"))
            if "倚旌于侯中" in s and (lying is None or math.dist(lying[:2], hou[:2]) > 15):
                out.append((t, f"{oid} {s!r} away from the 侯"))
    return sorted(out)


@pytest.mark.parametrize("rite", [RITE, NO_DAFU], ids=["zheng", "no_dafu"])
def test_holdings_true_from_section_36_to_the_end(rite):
    """No held thing in the hands of someone hidden, no arrow or bow 'in hand' while it lies, no 旌 leaning on
    the 侯 away from it — at any moment from §36 on (the sections this rule was fixed in)."""
    t36 = stage(rite, 36).start_s
    found = [f for t, f in holding_findings(rite) if t >= t36 - 1e-6]
    assert not found, found[:8]


def test_the_shooting_gear_is_laid_by_and_hands_end_empty():
    """射器 laid by at 堂西 after §43 (the 有司 serves the 羞 and takes the 俎 with empty hands); the 司射's
    一个 goes down with his bow (§44); nobody still on the scene at the end holds anything."""
    t44 = stage(RITE, 44).start_s
    held = where(RITE, "youshi", t44)[3]
    assert "矢" not in held and "弓" not in held, held
    assert "矢" not in where(RITE, "sishe", stage(RITE, 45).start_s)[3]
    p = RITE.pose_at(RITE.duration - 0.01)
    stuck = [(a, h) for a, h, v in zip(p.actor_ids, p.holding, p.visible) if v and h]
    assert not stuck, stuck
    lying = [o for o in RITE.object_ids if o.startswith(("arrow.", "bow."))]
    states = dict(zip(RITE.object_ids, p.object_state))
    assert not [o for o in lying if states[o] == "in hand"]
    assert "倚旌于侯中" not in states["jing"]


def test_the_scan_can_fail():
    """The scan finds a stale holding when there is one (the rule is not vacuous)."""
    import copy
    import types
    rite = copy.copy(RITE)
    # (the director's tracks are its parts', to read: a stand-in with the two the scan reads)
    d = types.SimpleNamespace(objects=dict(RITE.director.objects), actors=dict(RITE.director.actors))
    o = copy.deepcopy(d.objects["zu_dafu"])
    t = stage(RITE, 49).end_s
    o.events.append((t, "held", "dizi_2"))          # as before: the 弟子 gone with the 大夫's 俎
    d.objects["zu_dafu"] = o
    a = copy.deepcopy(d.actors["dizi_2"])
    a.events.append((t + 1.0, "visible", False))
    d.actors["dizi_2"] = a
    rite.director = d
    assert any("zu_dafu held by dizi_2" in f for _, f in holding_findings(rite))


# -- W10 (audits/fidelity-2026-12-04.md, 12-07) §48 賓與大夫不興取奠觶: taken seated

def test_bin_and_dafu_take_the_zhi_without_rising():
    """The 賓; the 大夫 still rises: see the note on his step (the posture rule reads 不興 as 興 for him)."""
    rite = RITE
    for aid in ("bin",):
        sp = [s for s in rite.spans if s.section == 48 and s.phrase == "賓與大夫不興取奠觶" and aid in s.who][0]
        _, a0, a1 = [a for a in sp.acts if a[0] == aid][0]
        for k in range(int((a1 - a0) / 0.25)):
            t = a0 + 0.25 * k
            p = rite.pose_at(float(t))
            post = p.posture[p.actor_ids.index(aid)]
            assert post == "sit", f"§48 不興取奠觶: {aid} {post} at t {t:.1f}"


# -- W16 (audits/fidelity-2026-12-04.md, 12-07) 鄭 §44 獲者釋獲者亦退其薦俎: the 獲者's 薦俎 leave the 乏 for 堂西

def test_huozhe_withdraws_his_jian_and_zu_in_section_44():
    rite = RITE
    st = stage(rite, 44)
    p = rite.pose_at(st.end_s)
    ids = list(p.object_ids)
    fa = rite.layout.places["range.huozhe_offering_moved"].xyz_chi
    for oid in ("jian_huozhe", "zu_huozhe"):
        x, y, _ = chi(rite, p.object_xyz_m[ids.index(oid)])
        assert math.hypot(x - fa[0], y - fa[1]) > 50 and y > -30, f"{oid} still at ({x:.1f}, {y:.1f}) after §44"
