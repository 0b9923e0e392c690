"""Motion words of plain steps: 少退 / 少南 / 少北 / 少東 / 少西 (a small move that way), 由X之南 / 出于X之南 …
(the way passes on that side of X), 鉤楹 / 由楹內 / 由楹外 (round the pillar on that side), 相左 (passing
with each other on the left), 交于階前 (where they cross), 適X / 至X / 就X (he ends at X), 反位 / 復位 (back to
the 位 he held).
"""
from __future__ import annotations

import re

import numpy as np

from ..state import StepSpan
from .context import Ctx, Finding
from .words import SIDES

#: how near the end of a step "at X" is, by the kind of X (尺)
NEAR = {"堂西": 14.0, "侯": 14.0, "乏": 8.0, "門": 12.0, "西階": 8.0, "阼階": 8.0, "西階上": 5.0, "阼階上": 5.0}
NEAR_DEFAULT = 7.0
_SMALL_MOVE = re.compile(r"少(退|南|北|東|西)")
_PASS = re.compile(r"(?:由|出于|出於)([^由出于於之]{1,5}?)之(南|北|東|西)")
_GO = re.compile(r"(?:適|至|就)(堂西|洗|楅|中|豐|乏|侯|西階上|阼階上|西階|阼階|門|物|西楹|東楹)")
PASS_NEAR = 6.0       # 尺: the part of the way "by X" is where it comes this close to X


def check(ctx: Ctx) -> list[Finding]:
    out = []
    for span in ctx.rite.spans:
        if span.do in ("approach", "retire", "shoot", "pick_arrows", "collect_arrows", "count", "forfeit"):
            continue
        text = ctx.text(span.section)
        for aid in span.who:
            segs = ctx.segments_of(span, aid)
            if not segs:
                continue
            words = "".join(s.text for s in segs)
            t0, t1 = span.start_s, span.end_s
            a, b = ctx.pos(aid, t0), ctx.pos(aid, t1)
            d = b[:2] - a[:2]
            for m in _SMALL_MOVE.finditer(words):
                out += _small(span, aid, m.group(0), d, ctx.heading(aid, t0), t0)
            for m in _PASS.finditer(words):
                out += _passes(ctx, span, aid, m.group(1), m.group(2), m.group(0))
            if "鉤楹" in words or "由楹內" in words or "由楹外" in words:
                out += _pillar(ctx, span, aid, "由楹外" if "由楹外" in words else ("鉤楹" if "鉤楹" in words else "由楹內"))
            goes = list(_GO.finditer(words))        # the last 適X / 至X / 就X of his words
            gone = goes[-1] if goes else None
            if gone is not None and span.do in ("walk", "enter", "ascend", "descend", "take", "set_down"):
                out += _arrives(ctx, span, aid, gone.group(1), gone.group(0))
            if ("反位" in words or "復位" in words) and span.do in ("walk", "turn", "stand", "wait"):
                # (a 反位 by turning back where he stands, 司射還當上耦…反位: he ends at a 位 too)
                out += _back(ctx, span, aid, "反位" if "反位" in words else "復位")
        del text
    return out


def _small(span: StepSpan, aid: str, word: str, d: np.ndarray, heading: float, t: float) -> list[Finding]:
    dist = float(np.hypot(*d))
    way = word[1]
    if way == "退":
        h = np.radians(heading)
        ahead = float(d[0] * np.sin(h) + d[1] * np.cos(h))
        ok = 0.4 <= dist <= 8.0 and ahead <= 0.3 * dist
        req = "a small step back (0.4–8 尺, not forward)"
    else:
        ux, uy = SIDES[way]
        comp = float(d[0] * ux + d[1] * uy)
        ok = 0.4 <= comp and dist <= 10.0
        req = f"a small move to the {way} (0.4–10 尺)"
    if ok:
        return []
    return [Finding("motion", span.section, span.index, span.phrase, word, f"{aid}: {req}",
                    f"moved ({d[0]:+.1f}, {d[1]:+.1f}) 尺", aid, t)]


def _whom(ctx: Ctx, name: str, aid: str, span: StepSpan, t: float) -> np.ndarray | None:
    """Where X is: a person the name means (the nearest visible one), or a place word."""
    if name in ("其位",):
        return ctx.pos(aid, span.start_s)
    if name in ctx.words.places:
        ps = [ctx.at(p) for p in ctx.words.places[name] if p in ctx.lay]
        return ps[0] if ps else None
    for key in ("西階", "阼階"):
        if name.endswith(key) and key in ctx.words.places:
            return ctx.place(ctx.words.places[key][0])
    cands = [o for o in ctx.rite.actor_ids if o != aid and ctx.visible(o, t) and ctx.means(name, o, span.section, t)]
    if not cands:
        return None
    me = ctx.pos(aid, t)
    return min((ctx.pos(o, t) for o in cands), key=lambda p: float(np.hypot(*(p[:2] - me[:2]))))


def _passes(ctx: Ctx, span: StepSpan, aid: str, name: str, side: str, word: str) -> list[Finding]:
    ts, xyz = ctx.path(aid, span.start_s, span.end_s)
    out = []
    for t, p in zip(ts, xyz):
        x = _whom(ctx, name, aid, span, t)
        if x is None:
            return []
        off = p[:2] - x[:2]
        if float(np.hypot(*off)) > PASS_NEAR:
            continue
        ux, uy = SIDES[side]
        if float(off[0] * ux + off[1] * uy) < -0.2:
            out.append(Finding("motion", span.section, span.index, span.phrase, word,
                               f"{aid}'s way on the {side} side of {name} where it passes him/it",
                               f"at ({p[0]:.1f}, {p[1]:.1f}) 尺 he is {off[0]:+.1f}, {off[1]:+.1f} 尺 from it", aid, float(t)))
            break
    return out


def _pillar(ctx: Ctx, span: StepSpan, aid: str, word: str) -> list[Finding]:
    ts, xyz = ctx.path(aid, span.start_s, span.end_s)
    for pid in ("hall.west_pillar", "hall.east_pillar"):
        y = ctx.at(pid)
        near = (np.abs(xyz[:, 0] - y[0]) < 1.0) & (xyz[:, 2] > ctx.hall.height - 0.1)
        if not near.any():
            continue
        inside = word != "由楹外"
        ok = (xyz[near, 1] > y[1]).any() if inside else (xyz[near, 1] < y[1]).all()
        if not ok:
            return [Finding("motion", span.section, span.index, span.phrase, word,
                            f"{aid} passing {'north (inside)' if inside else 'south (outside)'} of the {pid[5:]}",
                            f"y {xyz[near, 1].min():.1f}–{xyz[near, 1].max():.1f} 尺 at the pillar (y {y[1]:.0f})",
                            aid, float(ts[near][0]))]
    return []


def _arrives(ctx: Ctx, span: StepSpan, aid: str, place: str, word: str) -> list[Finding]:
    ps = [ctx.at(p) for p in ctx.words.places.get(place, ()) if p in ctx.lay]
    if not ps:
        return []
    end = ctx.pos(aid, span.end_s)
    d = min(float(np.hypot(*(p[:2] - end[:2]))) for p in ps)
    r = NEAR.get(place, NEAR_DEFAULT)
    if d <= r:
        return []
    return [Finding("motion", span.section, span.index, span.phrase, word, f"{aid} at the {place} (within {r:.0f} 尺)",
                    f"{d:.1f} 尺 from it at {span.end_s:.1f} s", aid, span.end_s)]


def _back(ctx: Ctx, span: StepSpan, aid: str, word: str) -> list[Finding]:
    """反位 / 復位: back at his 位 — where he has stood longest, still, in the ten minutes before the step
    (at least 10 s; a few steps away from it do not make a new 位)."""
    ts, v = ctx._pos[ctx.index[aid]]
    xyz = v[:, :3] / ctx.chi
    t_end = span.start_s
    lo = int(np.searchsorted(ts, t_end - 600.0))
    hi = int(np.searchsorted(ts, t_end, side="right"))
    spots: list[tuple[np.ndarray, float]] = []
    for i in range(max(lo, 1), hi):
        dt = min(ts[i], t_end) - max(ts[i - 1], t_end - 600.0)
        if dt <= 0 or not np.allclose(xyz[i], xyz[i - 1], atol=0.05) or not ctx.visible(aid, float(ts[i])):
            continue
        for k, (p, tot) in enumerate(spots):
            if float(np.hypot(*(p[:2] - xyz[i][:2]))) < 1.5 and abs(p[2] - xyz[i][2]) < 0.5:
                spots[k] = (p, tot + dt)
                break
        else:
            spots.append((xyz[i], dt))
    spots = [s for s in spots if s[1] >= 10.0]
    # 進…反位: back where he stood before he came forward (大夫進坐說矢束興反位), however briefly
    # 降揖 … 反位: where the text has him come down and salute in this section (the foot of his stairs)
    for sp in ctx.spans_by_section.get(span.section, []):
        if sp.start_s < span.start_s and aid in sp.who and "進" in sp.phrase and span.start_s - sp.start_s < 120:
            spots.append((ctx.pos(aid, sp.start_s), 0.0))
        if sp.end_s <= span.start_s and aid in sp.who and sp.do == "salute" and "降" in sp.phrase:
            spots.append((ctx.pos(aid, sp.end_s), 0.0))
    if not spots:
        return []
    end = ctx.pos(aid, span.end_s)
    d = min(float(np.hypot(*(end[:2] - p[:2]))) for p, _ in spots)
    if d <= 1.5:
        return []
    held = max(spots, key=lambda s: s[1])[0]
    return [Finding("motion", span.section, span.index, span.phrase, word,
                    f"{aid} back at a 位 he held (longest: ({held[0]:.1f}, {held[1]:.1f}) 尺)",
                    f"ends {d:.1f} 尺 from the nearest, at ({end[0]:.1f}, {end[1]:.1f})", aid, span.end_s)]
