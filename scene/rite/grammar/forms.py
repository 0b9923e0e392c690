"""The standard forms, read from the sentences that first state them and held at every occurrence (the 經
says 如之 / 如初 after):

* approach — §21 上射在左並行當階北面揖及階揖上射先升三等下射從之中等上射升堂少左下射升上射揖並行皆當其物
  北面揖及物揖皆左足履物還視侯中; §20 豫則鉤楹內堂則由楹外;
* retire — §21 南面揖揖如升射上射降三等下射少右從之中等並行上射於左與升射者相左交于階前相揖由司馬之南適堂西;
* shoot — §21 獲者坐而獲;
* collect_arrows — §22 弟子取矢北面坐委于楅;
* pick_arrows — §24 當楅北面揖及楅揖上射東面下射西面上射揖進坐橫弓…取一个 (four times each);
* count — §32 釋獲者東面于中西坐先數右獲 … 興自前適左東面坐;
* forfeit — §33 不勝者進北面坐取豐上之觶興少退立卒觶進坐奠于豐下.
"""
from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..state import StepSpan
from .context import Ctx, Finding, angle_diff
from .stairs import tread_index

WALKING = "walk"


def _salutes(ctx: Ctx, aid: str, t0: float, t1: float) -> list[float]:
    return [t for t, p in ctx.postures(aid, t0, t1) if p == "salute"]


def _kneels(ctx: Ctx, aid: str, t0: float, t1: float) -> list[tuple[float, float]]:
    """(start, end) of each time he kneels (sit) within [t0, t1]."""
    ch = ctx.postures(aid, t0, t1) + [(t1, "end")]
    return [(a, b) for (a, p), (b, _) in zip(ch, ch[1:]) if p == "sit" and b > a]


def _abreast(ctx: Ctx, up: str, low: str, t0: float, t1: float, on_tang: bool) -> tuple[float, float, int]:
    """While both walk on one level: the share of the time they are abreast (along-track gap < 3 尺,
    apart < 7 尺) and the share with the 上射 on the left of the way they go; and the samples."""
    ts = np.arange(t0, t1, 0.2)
    a = np.array([ctx.pos(up, t) for t in ts])
    b = np.array([ctx.pos(low, t) for t in ts])
    both = np.array([ctx.posture(up, t) == WALKING and ctx.posture(low, t) == WALKING for t in ts])
    level = ctx.hall.height - 0.05
    on = (a[:, 2] >= level) & (b[:, 2] >= level) if on_tang else (a[:, 2] < 0.05) & (b[:, 2] < 0.05)
    va = np.gradient(a[:, :2], axis=0) + np.gradient(b[:, :2], axis=0)
    speed = np.hypot(va[:, 0], va[:, 1])
    keep = both & on & (speed > 1e-3)
    if keep.sum() < 3:
        return 1.0, 1.0, int(keep.sum())
    d = (a - b)[keep, :2]
    u = va[keep] / speed[keep, None]
    along = np.abs((d * u).sum(axis=1))
    left = d[:, 0] * -u[:, 1] + d[:, 1] * u[:, 0]      # (up − low) · the left normal of the way
    apart = np.hypot(d[:, 0], d[:, 1])
    return float(((along < 3.0) & (apart < 7.0)).mean()), float((left > 0).mean()), int(keep.sum())


def _keeps_behind(ctx: Ctx, who: str, other: str, t0: float, t1: float) -> tuple[float, int]:
    """耦少退: while both walk on the ground, the share of the time ``who`` is 0.5–4 尺 behind ``other``
    along the way they go (and never more than 7 尺 from him); and the samples."""
    ts = np.arange(t0, t1, 0.2)
    a = np.array([ctx.pos(who, t) for t in ts])
    b = np.array([ctx.pos(other, t) for t in ts])
    both = np.array([ctx.posture(who, t) == WALKING and ctx.posture(other, t) == WALKING for t in ts])
    v = np.gradient(a[:, :2], axis=0) + np.gradient(b[:, :2], axis=0)
    speed = np.hypot(v[:, 0], v[:, 1])
    keep = both & (a[:, 2] < 0.05) & (b[:, 2] < 0.05) & (speed > 1e-3)
    if keep.sum() < 3:
        return 1.0, int(keep.sum())
    d = (b - a)[keep, :2]
    ahead = (d * (v[keep] / speed[keep, None])).sum(axis=1)       # how far the other is ahead of him
    apart = np.hypot(d[:, 0], d[:, 1])
    return float(((ahead >= 0.5) & (ahead <= 4.0) & (apart < 7.0)).mean()), int(keep.sum())


def _middle_tread(ctx: Ctx, first: str, second: str, t0: float, t1: float) -> bool:
    """中等 (鄭 中猶間也): at some moment both are on the stairs with one empty 等 between them."""
    ts = np.arange(t0, t1, 0.1)
    z1 = np.array([ctx.pos(first, t)[2] for t in ts])
    z2 = np.array([ctx.pos(second, t)[2] for t in ts])
    k1, k2 = tread_index(ctx, z1), tread_index(ctx, z2)
    steps = ctx.hall.steps
    on1 = (k1 > 0) & (k1 < steps + 1)
    on2 = (k2 > 0) & (k2 < steps + 1)
    return bool((on1 & on2 & (np.abs(k1 - k2) == 2) & ((k1 <= steps) | (k2 <= steps))).any())


def approach(ctx: Ctx, span: StepSpan) -> list[Finding]:
    out: list[Finding] = []
    t0, t1 = span.start_s, span.end_s
    who = span.who
    F: Callable[..., None] = lambda word, req, shows, aid="", t=None: out.append(  # noqa: E731
        Finding("forms", span.section, span.index, span.phrase, word, req, shows, aid, t))
    wu = ["tang.wu_left"] if len(who) == 1 else ["tang.wu_right", "tang.wu_left"]
    h = ctx.hall
    step = ctx.step_of(span)
    side = {a: (step.by or ctx.chor.actors[a].stairs) for a in who}
    shared = len(who) == 2 and side[who[0]] == side[who[1]]
    for k, aid in enumerate(who):
        x_st = (-1 if side[aid] == "west" else 1) * h.stairs_x
        w = ctx.at(wu[k])
        sal = [(t, ctx.pos(aid, t), ctx.heading(aid, t + 0.3)) for t in _salutes(ctx, aid, t0, t1)]
        north: Callable[[float], bool] = lambda hd: angle_diff(hd, 0.0) <= 35  # noqa: E731
        want: list[tuple[str, str, Callable[[np.ndarray, float], bool]]] = [
            ("當階北面揖", f"{aid} a 揖 south of the stairs in line with them, facing north",
             lambda p, hd: abs(p[0] - x_st) <= h.stair_width / 2 + 1.5 and p[1] < -h.steps * h.tread - 2.0 and north(hd)),
            ("及階揖", f"{aid} a 揖 at the foot of the stairs",
             lambda p, hd: abs(p[0] - x_st) <= h.stair_width / 2 + 1.5 and -h.steps * h.tread - 2.5 <= p[1] <= -h.steps * h.tread + 0.2),
            ("當其物北面揖", f"{aid} a 揖 in line with his 物 ({w[0]:+.0f}), short of it, facing north",
             lambda p, hd: abs(p[0] - w[0]) <= 2.0 and w[1] - 5 < p[1] < w[1] - 0.3 and north(hd)),
            ("及物揖", f"{aid} a 揖 at his 物", lambda p, hd: float(np.hypot(*(p[:2] - w[:2]))) <= 1.6),
        ]
        if k == 0:
            want.insert(2, ("升堂揖" if not shared else "上射揖", f"{aid} a 揖 on the 堂 at the head of the stairs",
                            lambda p, hd: p[2] >= h.height - 0.05 and p[1] < 6.0 and abs(p[0] - x_st) < 8))
        for word, req, ok in want:
            if not any(ok(p, hd) for _, p, hd in sal):
                F(word, req, f"{len(sal)} 揖, none there", aid, t0)
        end = ctx.pos(aid, t1)
        if float(np.hypot(*(end[:2] - w[:2]))) > 1.0 or angle_diff(ctx.heading(aid, t1), 180.0) > 35:
            F("左足履物還視侯中", f"{aid} on his 物 facing the 侯 (south)",
              f"{float(np.hypot(*(end[:2] - w[:2]))):.1f} 尺 from it, heading {ctx.heading(aid, t1):.0f}°", aid, t1)
        # 豫則鉤楹內 / 堂則由楹外: on the 堂, where he passes the pillar of his side
        ts, xyz = ctx.path(aid, t0, t1)
        on = xyz[:, 2] >= h.height - 0.05
        ying = ctx.at("hall.west_pillar" if x_st < 0 else "hall.east_pillar")
        near = on & (np.abs(xyz[:, 0] - ying[0]) < 1.0)
        if near.any():
            inside = ctx.reading.building == "序"
            ok = (xyz[near, 1] > ying[1]).any() if inside else (xyz[near, 1] < ying[1]).all()
            if not ok:
                F("鉤楹內" if inside else "由楹外", f"{aid} passing {'north' if inside else 'south'} of the 楹",
                  f"y {xyz[near, 1].min():.1f}–{xyz[near, 1].max():.1f} 尺 at the 楹 (y {ying[1]:.0f})", aid, float(ts[near][0]))
    if shared:
        up, low = who
        # 大夫為下射揖進耦少退 (§29; 鄭 耦於庭不並行尊大夫): in the court the 耦 keeps a little behind the 大夫
        dafu = [a for a in who if "大夫" in ctx.chor.actors[a].name]
        ou = [a for a in who if a not in dafu]
        said = span.phrase + (step.as_before[1] if step.as_before else "")     # 如初: §29's words
        lags = "耦少退" in said and len(dafu) == 1
        if lags:
            share, n = _keeps_behind(ctx, ou[0], dafu[0], t0, t1)
            if n >= 3 and share < 0.8:
                F("耦少退", f"{ou[0]} a little (0.5–4 尺) behind {dafu[0]} while they walk in the court",
                  f"behind {share:.0%} of {n * 0.2:.1f} s", ou[0], t0)
        for on_tang, word in ((False, "上射在左並行"), (True, "上射揖並行")):
            abreast, left, n = _abreast(ctx, up, low, t0, t1, on_tang)
            if n >= 3 and abreast < 0.8 and not (lags and not on_tang):
                F(word, f"{up} and {low} abreast while they walk", f"abreast {abreast:.0%} of {n * 0.2:.1f} s", up, t0)
            if n >= 3 and left < 0.8 and not on_tang:
                F("上射在左", f"{up} on the left of {low}", f"on the left {left:.0%} of the time", up, t0)
        # "sets foot on the stairs": his foot lands on 等1 (not the moment he lifts it from the ground)
        ups = [t for t in np.arange(t0, t1, 0.1) if ctx.pos(low, t)[2] > h.tread_top(1) - 0.05]
        if ups:
            k_up = int(tread_index(ctx, ctx.pos(up, ups[0])[2]))
            if k_up < min(3, h.steps):
                F("上射先升三等", f"{up} three 等 up when {low} sets foot on the stairs", f"on 等 {k_up}", up, ups[0])
        if not _middle_tread(ctx, up, low, t0, t1):
            F("下射從之中等", f"{low} one 等 behind {up} with one empty 等 between them (鄭 中猶間也)",
              "never one 等 between them on the stairs", low, t0)
    return out


def retire(ctx: Ctx, span: StepSpan) -> list[Finding]:
    out: list[Finding] = []
    t0, t1 = span.start_s, span.end_s
    F: Callable[..., None] = lambda word, req, shows, aid="", t=None: out.append(  # noqa: E731
        Finding("forms", span.section, span.index, span.phrase, word, req, shows, aid, t))
    for aid in span.who:
        sal = _salutes(ctx, aid, t0, t1)
        if not sal or angle_diff(ctx.heading(aid, sal[0] + 0.3), 180.0) > 35:
            F("南面揖", f"{aid} a 揖 facing south before he goes down", "none" if not sal else
              f"heading {ctx.heading(aid, sal[0] + 0.3):.0f}°", aid, t0)
    step = ctx.step_of(span)
    sides = {a: (step.by or ctx.chor.actors[a].stairs) for a in span.who}
    if len(span.who) == 2 and len(set(sides.values())) == 1:
        up, low = span.who
        downs = [t for t in np.arange(t0, t1, 0.1) if ctx.pos(low, t)[2] < ctx.hall.height - 0.05]
        first = [t for t in np.arange(t0, t1, 0.1) if ctx.pos(up, t)[2] < ctx.hall.height - 0.05]
        if downs and first and downs[0] < first[0]:
            F("上射降", f"{up} down first", f"{low} leaves the 堂 first", up, downs[0])
        if not _middle_tread(ctx, up, low, t0, t1):
            F("下射少右從之中等", f"{low} one 等 behind {up} with one empty 等 between them",
              "never one 等 between them on the stairs", low, t0)
        abreast, left, n = _abreast(ctx, up, low, t0, t1, False)
        if n >= 3 and abreast < 0.8:
            F("並行", f"{up} and {low} abreast on the ground", f"abreast {abreast:.0%} of {n * 0.2:.1f} s", up, t0)
        if n >= 3 and left < 0.8:
            F("上射於左", f"{up} on the left of {low}", f"on the left {left:.0%} of the time", up, t0)
    return out


def shoot(ctx: Ctx, span: StepSpan) -> list[Finding]:
    """獲者坐而獲: every call (獲) he makes, he makes kneeling."""
    out = []
    ts, vs = ctx.rite._say.tracks[ctx.index["huozhe"]]
    for t, v in zip(ts, vs):
        if span.start_s <= t <= span.end_s and v == "獲":
            if ctx.posture("huozhe", float(t) + 0.1) != "sit":
                out.append(Finding("forms", span.section, span.index, span.phrase, "獲者坐而獲",
                                   "the 獲者 kneeling (sit) when he calls", f"{ctx.posture('huozhe', float(t) + 0.1)}",
                                   "huozhe", float(t)))
    return out


def collect_arrows(ctx: Ctx, span: StepSpan) -> list[Finding]:
    out = []
    bi = ctx.at("court.bi")
    for aid in span.who:
        ks = _kneels(ctx, aid, span.start_s, span.end_s)
        good = [k for k in ks if angle_diff(ctx.heading(aid, k[0] + 0.2), 0) <= 35
                and ctx.pos(aid, k[0] + 0.2)[1] < bi[1] and abs(ctx.pos(aid, k[0] + 0.2)[1] - bi[1]) < 5]
        if not good:
            out.append(Finding("forms", span.section, span.index, span.phrase, "北面坐委于楅",
                               f"{aid} kneeling south of the 楅 facing north as he lays the arrows on it",
                               f"{len(ks)} kneel(s), none so", aid, span.start_s))
    return out


def pick_arrows(ctx: Ctx, span: StepSpan) -> list[Finding]:
    out = []
    bi = ctx.at("court.bi")
    for k, aid in enumerate(span.who):
        want = 90.0 if (k == 0 and len(span.who) == 2) else 270.0 if len(span.who) == 2 else None
        ks = _kneels(ctx, aid, span.start_s, span.end_s)
        if len(ks) < 4:
            out.append(Finding("forms", span.section, span.index, span.phrase, "進坐…取一个",
                               f"{aid} kneeling for each of his four arrows", f"{len(ks)} kneel(s)", aid, span.start_s))
        for a, _b in ks:
            if want is not None and angle_diff(ctx.heading(aid, a + 0.2), want) > 35:
                out.append(Finding("forms", span.section, span.index, span.phrase,
                                   "上射東面" if want == 90 else "下射西面", f"{aid} heading {want:.0f}°",
                                   f"{ctx.heading(aid, a + 0.2):.0f}° at {a:.1f} s", aid, a))
                break
        sal = _salutes(ctx, aid, span.start_s, span.end_s)
        # 當楅北面揖: before his first arrow, a 揖 south of the 楅 facing north — but not the 賓 and the 主人, who
        # come from the 階前 each by his own stairs (鄭 §37 主人西面賓東面相揖…不北面揖由便也)
        by_ease = len(span.who) == 2 and len({ctx.chor.actors[a].stairs for a in span.who}) == 2
        north = [t for t in sal if (not ks or t < ks[0][0]) and ctx.pos(aid, t)[1] < bi[1] - 1.0
                 and angle_diff(ctx.heading(aid, t + 0.3), 0) <= 35]
        if not by_ease and not north:
            out.append(Finding("forms", span.section, span.index, span.phrase, "當楅北面揖",
                               f"{aid} a 揖 south of the 楅 facing north", "none so", aid, span.start_s))
        if by_ease and north:
            out.append(Finding("forms", span.section, span.index, span.phrase, "不北面揖由便也",
                               f"{aid} no 北面揖 at the 楅 (鄭 §37)", f"a 揖 facing north at {north[0]:.1f} s", aid, north[0]))
        # 皆少進當楅南，皆左還北面搢三挾一个，揖: after his last arrow, a 揖 south of the 楅 facing north again
        if "矢不挾" in ctx.text(span.section):      # §43: 矢不挾，兼諸弦弣以退 — none tucked in the belt
            objs = ctx.rite.director.objects
            events = [e for n in range(1, 5) if f"arrow.{aid}.{n}" in objs for e in objs[f"arrow.{aid}.{n}"].events]
            tucked = [t for t, k, v in events if k == "state" and span.start_s <= t <= span.end_s and "搢" in str(v)]
            if tucked:
                out.append(Finding("forms", span.section, span.index, span.phrase, "矢不挾",
                                   f"{aid} holding his arrows with the bow (兼諸弦弣), none tucked or held apart",
                                   f"搢 at {tucked[0]:.1f} s", aid, tucked[0]))
        late = [t for t in sal if ks and t > ks[-1][1]]
        if ks and "矢不挾" not in ctx.text(span.section) and not any(ctx.pos(aid, t)[1] < bi[1] - 1.0 and abs(ctx.pos(aid, t)[0] - bi[0]) < 3.0
                          and angle_diff(ctx.heading(aid, t + 0.3), 0) <= 35 for t in late):
            out.append(Finding("forms", span.section, span.index, span.phrase, "當楅南北面搢三挾一个揖",
                               f"{aid} after the fourth arrow: south of the 楅, facing north, a 揖",
                               f"{len(late)} 揖 after it, none there", aid, ks[-1][1]))
    return out


def count(ctx: Ctx, span: StepSpan) -> list[Finding]:
    out = []
    aid = span.who[0]
    zhong = ctx.at("court.zhong")
    ks = _kneels(ctx, aid, span.start_s, span.end_s)
    good = [k for k in ks if angle_diff(ctx.heading(aid, k[0] + 0.2), 90) <= 35 and ctx.pos(aid, k[0] + 0.2)[0] < zhong[0]]
    if len(good) < 2:
        out.append(Finding("forms", span.section, span.index, span.phrase, "東面于中西坐…適左東面坐",
                           f"{aid} kneeling west of the 中 facing east, for the right and for the left",
                           f"{len(good)} such kneel(s) of {len(ks)}", aid, span.start_s))
        return out
    # 鄭: 為其少南就右獲 … 起由中東就左獲少北於故 — the left pile is counted north of where the right was
    y_right, y_left = ctx.pos(aid, good[0][0] + 0.2)[1], ctx.pos(aid, good[-1][0] + 0.2)[1]
    if y_left - y_right < 1.0:
        out.append(Finding("forms", span.section, span.index, span.phrase, "適左 (鄭 少北於故)",
                           f"{aid} counting the left pile north of where he counted the right (≥ 1 尺)",
                           f"{y_left - y_right:+.1f} 尺", aid, good[-1][0]))
    return out


def forfeit(ctx: Ctx, span: StepSpan) -> list[Finding]:
    out = []
    feng = ctx.at("tang.feng")
    res = ctx.rite.results.get(ctx.step_of(span).round or 0)   # (there is no round 0)
    losers = set(res.losers) if res is not None else set()
    for aid in span.who:
        if aid not in losers or aid in ("bin", "zhuren", "dafu"):
            continue
        ks = [k for k in _kneels(ctx, aid, span.start_s, span.end_s)
              if float(np.hypot(*(ctx.pos(aid, k[0] + 0.2)[:2] - feng[:2]))) < 4.0]
        north = [k for k in ks if angle_diff(ctx.heading(aid, k[0] + 0.2), 0) <= 35 and ctx.pos(aid, k[0] + 0.2)[1] < feng[1]]
        if len(north) < 2:
            out.append(Finding("forms", span.section, span.index, span.phrase, "進北面坐取豐上之觶…進坐奠于豐下",
                               f"{aid} kneeling south of the 豐 facing north to take the 觶 and to set it down",
                               f"{len(north)} such kneel(s)", aid, span.start_s))
    return out


FORMS = {"approach": approach, "retire": retire, "shoot": shoot, "collect_arrows": collect_arrows,
         "pick_arrows": pick_arrows, "count": count, "forfeit": forfeit}


def check(ctx: Ctx) -> list[Finding]:
    out = []
    for span in ctx.whole_steps:          # a form's routine as a whole, not act by act
        f = FORMS.get(span.do)
        if f is not None:
            out += f(ctx, span)
    return out
