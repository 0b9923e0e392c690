"""The 記's rules, held at every occurrence in the 經 (not only at the first):

* 記20 立者東面北上 — those who stand below in the court (the 眾賓 without a mat, waiting) face east, the
  senior at the north;
* 記26 射自楹間 — everyone shoots from between the two 楹;
* 記30 凡適堂西皆出入于司馬之南 — every way to or from 堂西 passes south of the 司馬 while he holds his 位;
* 記34 司射在司馬之北 — whenever both stand at their places in the court, the 司射 is north of the 司馬;
* 記37 上射於右 — the 上射 shoots from the right (west) 物;
* 記39 楅…南面坐而奠之南北當洗 — the 楅 is set down by one kneeling facing south, level with the 洗 north–south;
* 記46 耦少退于物 — shooting with the 大夫, his 耦 stands a little back from his 物 once he has shot;
* 記49 主人亦飲于西階上 — a losing 主人 drinks at the top of the 西階;
* 記47 司射釋弓矢視筭與獻釋獲者釋弓矢 — the 司射 has neither bow nor arrow in hand while he watches the
  counting or toasts the 釋獲者 (鄭 唯此二事休武主文);
* 記53 大夫說矢束坐說之 — the 大夫 kneels to untie his arrows;
* 記09 俎由東壁自西階升 — the 俎 go up by the 西階.
"""
from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .context import Ctx, Finding, angle_diff
from .stairs import stairs_used

STILL_S = 8.0      # standing this long at one spot is "holding a 位"
#: forms a pair walks through; a pause inside one is on the way, not at a 位
PAIR_FORMS = ("approach", "retire", "pick_arrows", "forfeit")


def check(ctx: Ctx) -> list[Finding]:
    """The findings of the rules the rite's chapter holds (its words file's ``ji_rules``: chapter 5's all)."""
    out: list[Finding] = []
    for name in ctx.words.ji_rules:
        if name not in RULES:
            raise ValueError(f"ji_rules: {name!r} is no 記 rule of the checker (known: {', '.join(RULES)})")
        out += RULES[name](ctx)
    return out


def _still_runs(ctx: Ctx, aid: str) -> list[tuple[float, float, np.ndarray]]:
    """(t0, t1, xyz 尺) of each time he stands still at one spot for ≥ STILL_S, visible."""
    ts, v = ctx._pos[ctx.index[aid]]
    xyz = v[:, :3] / ctx.chi
    out = []
    i = 0
    while i < len(ts) - 1:
        j = i
        while j + 1 < len(ts) and np.allclose(xyz[j + 1], xyz[i], atol=0.05):
            j += 1
        if ts[j] - ts[i] >= STILL_S and ctx.visible(aid, (ts[i] + ts[j]) / 2):
            out.append((float(ts[i]), float(ts[j]), xyz[i]))
        i = j + 1
    return out


def _in_court(ctx: Ctx, p: np.ndarray) -> bool:
    return bool(p[2] < 0.05 and p[1] < -ctx.hall.steps * ctx.hall.tread - 1 and p[1] > ctx.lay["hall.gate"].xyz_chi[1] + 5)


def _ji20(ctx: Ctx) -> list[Finding]:
    out = []
    for k in range(4, 9):
        aid = f"zhongbin_{k}"
        if aid not in ctx.index:
            continue
        for t0, t1, p in _still_runs(ctx, aid):
            if not _in_court(ctx, p) or p[0] > -ctx.hall.stairs_x:   # 立者: below, west of the 西階
                continue
            hd = ctx.heading(aid, (t0 + t1) / 2)
            sp = ctx.rite.span_at(t0)
            if sp is not None and sp.phrase.endswith("出"):
                continue        # 眾賓皆出: waiting his turn in the file going out, not standing at his 位
            # (the form's step as a whole: its sub-step at t0 may be another pair's, §33 told act by act)
            whole = next((w for w in ctx.whole_steps if sp is not None and (w.section, w.index) == (sp.section, sp.index)), sp)
            if whole is not None and whole.do in PAIR_FORMS and aid in whole.who and whole.end_s > t1 + 0.5:
                continue        # a pause within his pair's form (the way ahead not yet clear), not a 位
            if angle_diff(hd, 90.0) > 35 and ctx.posture(aid, (t0 + t1) / 2) in ("stand", "sit"):
                assert sp is not None     # (every moment looked at is after the first step began)
                out.append(Finding("ji", sp.section, sp.index, sp.phrase, "立者東面 (記20)",
                                   f"{aid}, standing below, facing east", f"heading {hd:.0f}° over {t0:.0f}–{t1:.0f} s",
                                   aid, t0))
                break
    return out


def _ji26_37(ctx: Ctx) -> list[Finding]:
    out = []
    yx = ctx.hall.ying_x
    for sp in ctx.rite.spans:
        if sp.do != "shoot":
            continue
        for k, aid in enumerate(sp.who):
            ps = [t for t, p in ctx.postures(aid, sp.start_s, sp.end_s) if p == "shoot"]
            if not ps:
                continue
            x = ctx.pos(aid, ps[0])[0]
            if abs(x) >= yx:
                out.append(Finding("ji", sp.section, sp.index, sp.phrase, "射自楹間 (記26)",
                                   f"{aid} shooting between the 楹 (|x| < {yx:.0f} 尺)", f"x {x:.1f} 尺", aid, ps[0]))
            if len(sp.who) == 2 and k == 0:
                other = ctx.pos(sp.who[1], ps[0])[0]
                if not x < other:
                    out.append(Finding("ji", sp.section, sp.index, sp.phrase, "上射於右 (記37)",
                                       f"{aid} (上射) on the right (west) 物", f"x {x:.1f} vs the 下射's {other:.1f}",
                                       aid, ps[0]))
    return out


def _sima_at_post(ctx: Ctx, t: float) -> np.ndarray | None:
    """The 司馬's position when he holds his 位 in the court (still, on the ground, visible)."""
    if "xiang" not in ctx.index or not ctx.role("xiang", t).startswith("司馬") or not ctx.visible("xiang", t):
        return None
    p = ctx.pos("xiang", t)
    if not _in_court(ctx, p) or ctx.posture("xiang", t) == "walk":
        return None
    return p


def _ji30(ctx: Ctx) -> list[Finding]:
    """Every walk that ends or starts at 堂西 passes south of the 司馬 where it goes by him.

    Going by him is crossing the north–south line through where he stands: it must be crossed south of
    him.  A way that stays on one side of him (堂西 to the 射位 west of him) does not go by him, and one
    that goes round his south and back up his other side crosses only south of him.  記31 唯賓與大夫降階
    遂西取弓矢 (鄭 尊者宜逸由便): the 賓 and the 大夫 take the short way."""
    out = []
    west = ctx.at("hall.west_of_tang")
    for sp in ctx.rite.spans:
        for aid in sp.who:
            if aid in ("xiang", "bin", "dafu"):
                continue
            a, b = ctx.pos(aid, sp.start_s), ctx.pos(aid, sp.end_s)
            at_west: Callable[[np.ndarray], bool] = lambda p: float(np.hypot(*(p[:2] - west[:2]))) < 14.0 and p[2] < 0.05  # noqa: E731
            if not (at_west(a) ^ at_west(b)):
                continue
            ts, xyz = ctx.path(aid, sp.start_s, sp.end_s, 0.25)
            # a span of a form may hold several ways (§33: 射位 → 堂 → 堂西); the way to 堂西 starts where he
            # last came down from the 堂, the way from it ends where he first goes up
            up = np.nonzero(xyz[:, 2] > 0.05)[0]
            lo, hi = (int(up[-1]), len(ts)) if at_west(b) and len(up) else \
                (0, int(up[0]) + 1) if at_west(a) and len(up) else (0, len(ts))
            for k in range(max(1, lo), hi):
                p, q, t = xyz[k - 1], xyz[k], float(ts[k])
                s = _sima_at_post(ctx, t)
                if s is None or p[2] > 0.05 or q[2] > 0.05 or (p[0] - s[0]) * (q[0] - s[0]) > 0 or p[0] == q[0]:
                    continue
                y = p[1] + (q[1] - p[1]) * (s[0] - p[0]) / (q[0] - p[0])   # where the way crosses his line
                if min(float(np.hypot(s[0] - a[0], y - a[1])), float(np.hypot(s[0] - b[0], y - b[1]))) < 5.0:
                    continue          # where he sets out or arrives (his own 位 may be by the 司馬's)
                if y > s[1] + 0.3:
                    out.append(Finding("ji", sp.section, sp.index, sp.phrase, "出入于司馬之南 (記30)",
                                       f"{aid}'s way to or from 堂西 crossing south of the 司馬 at ({s[0]:.0f}, {s[1]:.0f})",
                                       f"crosses his line at y {y:.1f} 尺, {y - s[1]:.1f} 尺 north of him, at {t:.1f} s",
                                       aid, t))
                    break
    return out


def _ji34(ctx: Ctx) -> list[Finding]:
    out: list[Finding] = []
    if "sishe" not in ctx.index or "xiang" not in ctx.index:
        return out
    reported = set()
    for t0, t1, p in _still_runs(ctx, "sishe"):
        if not _in_court(ctx, p):
            continue
        for t in np.arange(t0, t1, 2.0):
            s = _sima_at_post(ctx, float(t))
            if s is None or float(np.hypot(*(s[:2] - p[:2]))) > 15:
                continue
            if p[1] <= s[1]:
                sp = ctx.rite.span_at(float(t))
                assert sp is not None     # (every moment looked at is after the first step began)
                if (sp.section, sp.index) not in reported:
                    reported.add((sp.section, sp.index))
                    out.append(Finding("ji", sp.section, sp.index, sp.phrase, "司射在司馬之北 (記34)",
                                       "the 司射 north of the 司馬", f"司射 y {p[1]:.1f}, 司馬 y {s[1]:.1f} 尺 at {t:.0f} s",
                                       "sishe", float(t)))
                break
    return out


def _ji39(ctx: Ctx) -> list[Finding]:
    out = []
    xi_y = ctx.at("court.xi")[1]
    for sp in ctx.rite.spans:
        st = ctx.step_of(sp)
        if st.obj != "bi" or sp.do != "set_down" or "設楅" not in sp.phrase:
            continue            # 記39 is how the 楅 is set up (設楅), not how it is put away (退楅)
        for aid, t0, t1 in sp.acts:
            hd = ctx.heading(aid, (t0 + t1) / 2)
            if ctx.posture(aid, (t0 + t1) / 2) != "sit" or angle_diff(hd, 180) > 35:
                out.append(Finding("ji", sp.section, sp.index, sp.phrase, "南面坐而奠之 (記39)",
                                   f"{aid} kneeling facing south to set down the 楅",
                                   f"{ctx.posture(aid, (t0 + t1) / 2)}, heading {hd:.0f}°", aid, t0))
        bi = [e for e in ctx.rite.director.objects["bi"].events if e[1] == "at" and sp.start_s <= e[0] <= sp.end_s + 1]
        for e in bi:
            if abs(e[2][1] - xi_y) > 1.0:
                out.append(Finding("ji", sp.section, sp.index, sp.phrase, "南北當洗 (記39)",
                                   f"the 楅 level with the 洗 (y {xi_y:.0f} 尺)", f"y {e[2][1]:.1f} 尺", "", e[0]))
    return out


def _ji49(ctx: Ctx) -> list[Finding]:
    """A losing 主人 (賓, 大夫) drinks at the top of the 西階."""
    out = []
    top = ctx.at("hall.west_steps_top")
    for sp in ctx.whole_steps:
        if sp.do != "forfeit":
            continue
        res = ctx.rite.results.get(ctx.step_of(sp).round or 0)   # (there is no round 0)
        for aid in ("zhuren", "bin", "dafu"):
            if res is None or aid not in res.losers or aid not in sp.who:
                continue
            # he drinks it off just before he gives it back (卒觶, 授執爵者): where he is as his holding ends
            evs = sorted((e for e in ctx.rite.director.objects["zhi_fa"].events if e[1] in ("at", "held", "path")),
                         key=lambda e: e[0])
            ends = [evs[k + 1][0] for k, e in enumerate(evs[:-1])
                    if e[1] == "held" and e[2] == aid and sp.start_s <= e[0] <= sp.end_s]
            for t in ends[-1:]:
                t = t - 0.5
                p = ctx.pos(aid, t)
                if float(np.hypot(*(p[:2] - top[:2]))) > 5.0 or p[2] < ctx.hall.height - 0.1:
                    out.append(Finding("ji", sp.section, sp.index, sp.phrase, "飲于西階上 (記49)",
                                       f"{aid} drinking at the top of the 西階", f"at ({p[0]:.1f}, {p[1]:.1f}, {p[2]:.1f})",
                                       aid, t))
    return out


def _ji46(ctx: Ctx) -> list[Finding]:
    """記46 大夫與士射…耦少退于物 (鄭 既發則然): when the 大夫 shoots with his 耦, the 耦 stands a little back
    (north) of his 物 once he has shot — at the pair's last arrow he is 0.5–3 尺 behind it."""
    out = []
    for sp in ctx.rite.spans:
        if sp.do != "shoot" or "dafu" not in sp.who or len(sp.who) != 2:
            continue
        ou = next(a for a in sp.who if a != "dafu")
        wu = ctx.at("tang.wu_right" if sp.who.index(ou) == 0 else "tang.wu_left")
        t = sp.end_s - 0.5
        back = float(ctx.pos(ou, t)[1] - wu[1])
        if not 0.5 <= back <= 3.0:
            out.append(Finding("ji", sp.section, sp.index, sp.phrase, "耦少退于物 (記46)",
                               f"{ou}, the 大夫's 耦, a little back (north) of his 物 once he has shot",
                               f"{back:+.1f} 尺 from it at {t:.1f} s", ou, t))
    return out


def _ji53(ctx: Ctx) -> list[Finding]:
    out = []
    for sp in ctx.rite.spans:
        if "dafu" in sp.who and sp.do == "untie" and "矢束" in sp.phrase:
            a = sp.act_of("dafu")
            if a and ctx.posture("dafu", (a[0] + a[1]) / 2) != "sit":
                out.append(Finding("ji", sp.section, sp.index, sp.phrase, "坐說之 (記53)", "the 大夫 kneeling",
                                   ctx.posture("dafu", (a[0] + a[1]) / 2), "dafu", a[0]))
    return out


def _ji09(ctx: Ctx) -> list[Finding]:
    out = []
    for oid in ("zu_bin", "zu_zhuren", "zu_dafu"):
        o = ctx.rite.director.objects.get(oid)
        if o is None:
            continue
        holds = sorted((e for e in o.events if e[1] in ("held", "at")), key=lambda e: e[0])
        for (ta, ka, va), (tb, _kb, _vb) in zip(holds, holds[1:]):
            if ka != "held":
                continue
            up_a, up_b = ctx.pos(va, ta)[2], ctx.pos(va, tb)[2]
            if up_b > up_a + ctx.hall.height / 2:
                used = stairs_used(ctx, va, ta, tb)
                if used and used != {"west"}:
                    sp = ctx.rite.span_at(ta)
                    assert sp is not None     # (every moment looked at is after the first step began)
                    out.append(Finding("ji", sp.section, sp.index, sp.phrase, "自西階升 (記09)",
                                       f"the {oid} carried up by the 西階", f"by the {'/'.join(sorted(used))}", va, ta))
    return out


#: the 司射's two acts done unarmed (記47), by the words of the step that acts them
JI47_ACTS = ("視筭", "獻釋獲者")


def _ji47(ctx: Ctx) -> list[Finding]:
    """記47 司射釋弓矢視筭與獻釋獲者釋弓矢: at every step of his that acts 視筭 or 獻釋獲者 (its own words or
    the earlier ones its 如初 repeats) the 司射 holds no 弓 and no 矢 — not even the one arrow he 挾."""
    out = []
    for sp in ctx.rite.spans:
        act = sp.act_of("sishe")
        if act is None:
            continue
        step = ctx.step_of(sp)
        words = sp.phrase + (step.as_before[1] if step.as_before else "")
        word = next((w for w in JI47_ACTS if w in words), None)
        if word is None:
            continue
        t = act[1] - 0.05 if act[1] > act[0] else act[1]
        held = ctx.holding("sishe", t)
        if "弓" in held or "矢" in held:
            out.append(Finding("ji", sp.section, sp.index, sp.phrase, f"釋弓矢{word} (記47)",
                               "the 司射 without bow or arrow in hand", f"holding {held} at {t:.1f} s", "sishe", t))
    return out


#: the rules by the 記 items they hold (a chapter's words file names those of its own 記: ``ji_rules``)
RULES: dict[str, Callable[[Ctx], list[Finding]]] = {
    "記20": _ji20, "記26": _ji26_37, "記30": _ji30, "記34": _ji34, "記39": _ji39, "記46": _ji46, "記49": _ji49,
    "記53": _ji53, "記09": _ji09, "記47": _ji47,
}
