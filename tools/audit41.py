"""Measure the items of the third reading (audits/fidelity-2026-12-07.md) from the compiled tracks.

    PYTHONPATH=. python tools/audit41.py [item ...]

Prints one line per item: the figures the table docs/audit-2026-12-07.md quotes."""
from __future__ import annotations

import math
import sys

from scene.rite.cache import load_rite
from scene.rite.moments import up_before_kneel

R = load_rite("zheng")
D = R.director


def ev(aid, kind, t0, t1):
    return [(round(t, 1), v) for t, k, v in D.actors[aid].events if k == kind and t0 <= t <= t1]


def spans(n, phrase=None, who=None, do=None):
    return [s for s in R.spans if s.section == n and (phrase is None or phrase in s.phrase)
            and (who is None or who in s.who) and (do is None or s.do == do)]


def pos(aid, t):
    p = R.pose_at(float(t))
    i = p.actor_ids.index(aid)
    x, y, z = p.actor_xyz_m[i] / R.reading.chi_m
    return (round(float(x), 1), round(float(y), 1)), round(float(p.heading_deg[i])), p.posture[i], p.holding[i]


def postures(aid, t0, t1):
    """The sit/stand changes (bows and salutes kept) of aid in [t0, t1]."""
    return [(t, v) for t, v in ev(aid, "posture", t0, t1)]


def drink_rise(n, phrase, who):
    """卒爵興坐奠爵: the posture changes from the drink to the set-down after it."""
    d = spans(n, phrase, who, "drink")
    if not d:
        return f"§{n}: no drink step {phrase}"
    s = d[0]
    nxt = [x for x in R.spans if x.start_s >= s.end_s - 1e-6 and who in x.who and x.do == "set_down"][0]
    ps = [v for t, v in ev(who, "posture", s.start_s, nxt.end_s) if v in ("sit", "stand")]
    rises = sum(1 for a, b in zip(ps, ps[1:]) if a == "sit" and b == "stand")
    return f"§{n} {who} {phrase}: t {s.start_s:.1f}–{nxt.end_s:.1f} postures {'→'.join(ps)}; rises between 卒 and 奠: {rises}"


ITEMS = {}


def item(f):
    ITEMS[f.__name__] = f
    return f


def stood_before_kneel(aid, t0, t1):
    """Seconds ``aid`` is up before the first kneel that starts in [t0, t1] (scene.rite.moments.up_before_kneel,
    the measurement tests/test_fidelity_reception.py holds the rite to)."""
    return up_before_kneel(D, aid, t0, t1)


def xing_zuo():
    """Every step whose phrase says …興坐… and which kneels: was its actor on his feet before it?"""
    out = []
    for s in R.spans:
        if "興坐" not in s.phrase or s.do not in ("set_down", "taste", "drink", "sit"):
            continue
        step = D.c.sections[s.section - 1].steps[s.index] if s.index >= 0 else None
        if step is None or not step.kneel:
            continue
        # the 坐 after the 興 in this phrase is acted by this step only when the step's 坐 is that one:
        # the phrase begins with 興 or 卒…興坐 (the 興 after a drink), not with 坐…興 (which ends in 興)
        s.phrase.find("興坐")
        if not (s.phrase.startswith("興") or "卒爵興坐" in s.phrase or "卒觶興坐" in s.phrase):
            continue
        for aid in s.who:
            up = stood_before_kneel(aid, s.start_s, s.end_s)
            out.append((s.section, s.phrase, aid, round(s.start_s, 1), None if up is None else round(up, 2)))
    return out


@item
def X6():
    rows = xing_zuo()
    bad = [r for r in rows if r[4] is None or r[4] < 0.3]
    return [f"{len(rows)} steps 興坐…: {len(bad)} without a standing moment before the 坐"] + [
        f"  §{n} {aid} {ph} t {t}: on his feet {up} s" for n, ph, aid, t, up in bad]


def act_posture(sp, aid):
    """Postures of aid over the act of span sp (sampled at 0.25 s), and how far he moved in it (尺)."""
    a = [x for x in sp.acts if x[0] == aid][0]
    ts = [a[1] + 0.25 * k for k in range(int((a[2] - a[1]) / 0.25))] or [a[1]]
    post = sorted({pos(aid, t)[2] for t in ts})
    p0, p1 = pos(aid, sp.start_s)[0], pos(aid, sp.end_s)[0]
    return post, round(math.dist(p0, p1), 1)


@item
def X5():
    out = []
    for ph, do in (("奠爵于薦西", "set_down"), ("興加于俎坐挩手執爵", "take")):
        sp = spans(5, ph, "bin", do)[0]
        post, moved = act_posture(sp, "bin")
        out.append(f"§5 {ph} ({do}) t {sp.start_s:.1f}–{sp.end_s:.1f}: posture {post}, moved {moved} 尺")
    sp = spans(5, "賓坐左執爵右祭脯醢", "bin", "taste")[0]
    t1 = spans(5, "遂祭酒", "bin")[0].start_s
    ps = [v for t, v in ev("bin", "posture", sp.start_s, t1) if v in ("sit", "stand", "walk")]
    seq = [v for i, v in enumerate(ps) if i == 0 or ps[i - 1] != v]
    out.append(f"§5 祭脯醢 → 祭酒 posture changes: {'→'.join(seq)}")
    return out


@item
def X10():
    out = []
    for n in (26, 27):
        for sp in spans(n, "改實八筭于中", "shihuozhe", "fill"):
            post, _ = act_posture(sp, "shihuozhe")
            rise = [t for t, v in ev("shihuozhe", "posture", sp.start_s - 5, sp.end_s + 10) if v == "stand"]
            out.append(f"§{n} 改實 t {sp.start_s:.1f}–{sp.end_s:.1f}: posture {post}; first stand after the 取 "
                       f"{min(rise) if rise else None}")
    return out


ZUO = ((21, "司射還當上耦西面作上耦射"), (26, "司射作射如初"), (33, "司射作升飲者如作射"),
       (38, "司射猶挾一个以進作上射如初"))


@item
def X8():
    out = []
    for n, ph in ZUO:
        sp = [x for x in spans(n, ph, "sishe", "order")][0]
        a = [x for x in sp.acts if x[0] == "sishe"][0]
        p0, p1 = pos("sishe", sp.start_s - 0.01), pos("sishe", (a[1] + a[2]) / 2)
        up = pos("ou1_up", (a[1] + a[2]) / 2)[0]
        out.append(f"§{n} 作: from {p0[0]} to {p1[0]} (moved {math.dist(p0[0], p1[0]):.1f} 尺), facing h{p1[1]} "
                   f"while he calls; 上射 at {up}")
    return out


@item
def X15():
    arr = spans(29, "由堂西出于司射之西就其耦", "dafu")[0].end_s
    ap = spans(29, "耦少退", "dafu", "approach")[0]
    moves = [t for t, v in ev("dafu", "posture", arr + 0.05, ap.end_s) if v == "walk"]
    sal = [t for t, v in ev("dafu", "posture", arr, ap.end_s) if v == "salute"]
    sal4 = [t for t, v in ev("zhongbin_4", "posture", arr, ap.end_s) if v == "salute"]
    return (f"§29 大夫 at his 耦 t {arr:.1f}, sets off t {min(moves):.1f}; first 揖 t {min(sal):.1f} (大夫), "
            f"{min(sal4):.1f} (耦); 揖 before setting off: {sum(t <= min(moves) for t in sal)}")


def seq_of(aid, t0, t1):
    ps = [v for t, v in ev(aid, "posture", t0, t1) if v in ("sit", "stand", "walk")]
    ps = ["stand" if v == "walk" else v for v in ps]
    return [v for i, v in enumerate(ps) if i == 0 or ps[i - 1] != v]


@item
def X7():
    t0 = spans(6, "祭如賓禮", "zhuren")[0].start_s
    t1 = spans(6, "卒爵", "zhuren", "drink")[0].start_s
    seq = seq_of("zhuren", t0, t1)
    [pos("zhuren", t)[0] for t in (t0 + 0.5, t1 - 0.5)]
    mat = R.layout.places["mat.zhuren"].xyz_chi
    far = max(math.dist(pos("zhuren", t)[0], mat[:2]) for t in [t0 + 0.5 * k for k in range(int((t1 - t0) * 2))]
              if pos("zhuren", t)[2] == "sit")
    return (f"§6 主人祭如賓禮 t {t0:.1f}–{t1:.1f}: rises {sum(1 for a, b in zip(seq, seq[1:]) if a == 'sit')}"
            f" ({'→'.join(seq)}); kneels up to {far:.1f} 尺 from the mat centre (席末 = 2 尺)")


@item
def X11():
    t0 = spans(7, "主人降", "zhuren", "descend")[0].start_s
    t1 = spans(7, "升不拜洗", "zhuren", "ascend")[0].start_s
    xi = R.layout.places["court.xi"].xyz_chi
    near = min(math.dist(pos("bin", t)[0], xi[:2]) for t in [t0 + 0.5 * k for k in range(int((t1 - t0) * 2))])
    says = [(t, v) for t, v in ev("bin", "say", t0, t1) if v]
    return f"§7 t {t0:.1f}–{t1:.1f}: 賓 comes within {near:.1f} 尺 of the 洗; his words: {says}"


@item
def X17():
    d = [s for s in spans(6, "興降盥如主人之禮", "bin", "descend")][0]
    up = spans(6, "賓升實爵", "bin", "ascend")[0]
    bs = [(t, v) for t, v in ev("bin", "say", d.start_s, up.start_s) if v]
    zs = [(t, v) for t, v in ev("zhuren", "say", d.start_s, up.start_s) if v]
    sal = {a: len([t for t, v in ev(a, "posture", d.start_s, up.start_s) if v == "salute"]) for a in ("bin", "zhuren")}
    return (f"§6 賓降盥 t {d.start_s:.1f} → 升 t {up.start_s:.1f}: 賓 says {len(bs)} ({[v for _, v in bs]}), "
            f"主人 says {len(zs)}; salutes/辭 poses {sal}")


@item
def X20():
    sp = spans(6, "主人降", "zhuren", "descend")[0]
    p = pos("zhuren", sp.end_s + 0.5)
    return f"§6 主人降: stands at {p[0]} h{p[1]}; 東序 x {R.layout.places['pos.bin_below'].xyz_chi[0] * -1:.0f}"


CANDIDATES = ("ou1_up", "ou1_low", "ou2_up", "ou2_low", "ou3_up", "ou3_low", "dizi_2")


@item
def X4():
    out = []
    for n, ph in ((33, "降袒執弓反位"), (42, "設豐實觶如初")):
        sp = [x for x in R.spans if x.section == n and x.phrase == ph and x.do in ("descend", "walk")
              and x.who[0] in CANDIDATES]
        last = sp[-1]
        aid = last.who[0]
        p = pos(aid, last.end_s + 0.5)
        dress = [v for t, k, v in D.actors[aid].events if k == "dress" and t <= last.end_s + 0.5][-1:]
        shoot = R.layout.places["pos.shooters"].extra["slots"]
        d = min(math.dist(p[0], s_[:2]) for s_ in shoot)
        out.append(f"§{n} 勝者之弟子 = {aid}: after 降…反位 at {p[0]} holding {p[3]!r}, dress {dress}, "
                   f"{d:.1f} 尺 from the nearest 射位")
    return out


def standing(aid, t0, t1, step=0.5):
    return sum(1 for k in range(int((t1 - t0) / step)) if pos(aid, t0 + k * step)[2] in ("stand", "walk"))


@item
def W4():
    t0 = spans(11, "工不興告于樂正曰正歌備", "gong_1")[0].start_s
    t1 = [s for s in spans(12, None, "gong_1") if s.do == "taste"][0].end_s
    return f"§11–§12 gong_1 t {t0:.1f}–{t1:.1f}: {standing('gong_1', t0, t1)} standing samples (0.5 s)"


@item
def W10():
    out = []
    for aid in ("bin", "dafu"):
        sp = spans(48, "賓與大夫不興取奠觶", aid, "take")[0]
        post, _ = act_posture(sp, aid)
        out.append(f"§48 {aid} 不興取奠觶 t {sp.start_s:.1f}–{sp.end_s:.1f}: posture {post}")
    return out


@item
def W16():
    st = [x for x in R.stages if x.n == 44][0]
    p = R.pose_at(st.end_s)
    ids = list(p.object_ids)
    out = []
    for o in ("jian_huozhe", "zu_huozhe", "jian_shihuozhe", "zu_shihuozhe"):
        xy = p.object_xyz_m[ids.index(o)] / R.reading.chi_m
        out.append(f"end of §44 (t {st.end_s:.1f}): {o} at ({xy[0]:.1f}, {xy[1]:.1f})")
    return out


@item
def X14():
    out = []
    for k in (1, 2, 3):
        rec = [x for x in spans(8, None, f"zhongbin_{k}", "receive")][0]
        [x for x in spans(8, None, "youshi", "set_down") if f"jian_zhongbin_{k}" in str(x.things) or
              any(f"jian_zhongbin_{k}" == o for o in ())]
        evs = [t for t, kk, v in D.objects[f"jian_zhongbin_{k}"].events if kk == "at" and t > 0]
        nxt = [x for x in spans(8, None, f"zhongbin_{k + 1}", "receive")][0] if k < 3 else None
        out.append(f"長 {k}: receives the 爵 t {rec.start_s:.1f}; his 薦 laid t {evs[0]:.1f}"
                   + (f"; 長 {k + 1} receives t {nxt.start_s:.1f}" if nxt else ""))
    return out


@item
def X18():
    """§33 一耦進揖如升射: the salutes each pair makes on its way from setting off to the 升 (§21: 當階北面揖, 及階揖)."""
    out = []
    for sp in spans(33, "揖如升射"):
        up = [x for x in spans(33, "及階勝者先升") + spans(33, "特升飲") if x.start_s >= sp.start_s - 1e-6]
        t1 = min((x.start_s for x in up), default=sp.end_s)
        counts = {a: sum(1 for _, v in ev(a, "posture", sp.start_s - 30.0, t1) if v == "salute") for a in sp.who}
        out.append(f"§33 t {sp.start_s:.1f}: " + ", ".join(f"{a} {n}" for a, n in counts.items()))
    return out


if __name__ == "__main__":
    for name in sys.argv[1:] or ITEMS:
        res = ITEMS[name]()
        for line in ([res] if isinstance(res, str) else res):
            print(f"{name}: {line}")
