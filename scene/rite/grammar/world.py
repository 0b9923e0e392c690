"""The physical world: nobody in the 侯道 lane or behind the 侯 while an arrow is in the air; the small
furniture on the ground (中 and its 筭, 楅, 鼓, 洗, 篚, 磬) is an obstacle for walkers; people have a body (a
shoulder does not pass through a 楹); and the audit's spacing, surface, speed and solid rules."""
from __future__ import annotations

import numpy as np

from ..audit import audit
from .context import Ctx, Finding

BODY_CHI = 1.0          # 尺: half a person's shoulder width (0.23 m under the 鄭 周尺)
LANE_MARGIN_CHI = 4.0   # 尺 either side of the 侯 that the lane takes in
#: things on the ground a walker goes round: layout places and movable objects
REACH_CHI = 0.3         # 尺: a walker's body front from its centre line — he may come up to a thing, not over it
GROUND_OBJECTS = ("zhong", "bi", "gu", "zhi_sizheng", "counters.zhong", "counters.spare", "counters.right", "counters.left")


def _flights(ctx: Ctx) -> list[tuple[float, float, str]]:
    out = []
    for oid, o in ctx.rite.director.objects.items():
        if not oid.startswith("arrow."):
            continue
        sts = sorted((t, v) for t, k, v in o.events if k == "state")
        for (t, v), nxt in zip(sts, sts[1:] + [(ctx.rite.duration, "")]):
            if v == "in flight" and ctx.window[0] <= t < ctx.window[1]:
                out.append((t, nxt[0], oid))
    return out


def check(ctx: Ctx) -> list[Finding]:
    return _lane(ctx) + _furniture(ctx) + _pillars(ctx) + _by_the_gate(ctx) + _audit(ctx)


#: 尺: one comes into sight and goes out of it at the 門 — within this of it (the court's way in and out)
GATE_CHI = 12.0


def _by_the_gate(ctx: Ctx) -> list[Finding]:
    """Nobody appears or vanishes in the middle of the court: one comes onto the scene and leaves it through
    the 門 (入門, 出 … 降自西階出): his first moment in sight, and his last, are at the gate."""
    gate = ctx.place_of("門")
    if gate is None:
        return []
    out = []
    a, b = ctx.window
    for aid, k in ctx.index.items():
        ts, vs = ctx._visible[k]
        for i in range(1, len(ts)):
            t = float(ts[i])
            if bool(vs[i]) == bool(vs[i - 1]) or not a <= t <= b:
                continue
            p = ctx.pos(aid, t + (0.05 if vs[i] else -0.05))
            d = float(np.hypot(p[0] - gate[0], p[1] - gate[1]))
            if d > GATE_CHI:
                sp = ctx.rite.span_at(t)
                out.append(Finding("world", sp.section if sp else 0, sp.index if sp else None,
                                   sp.phrase if sp else "", "(門)",
                                   f"{aid} {'coming into' if vs[i] else 'leaving'} sight at the 門 "
                                   f"(within {GATE_CHI:.0f} 尺)", f"{d:.1f} 尺 from it at {t:.1f} s", aid, t))
    return out


def _lane(ctx: Ctx) -> list[Finding]:
    """The arrow's way: a wedge in plan from the shooter (LANE_MARGIN either side) widening to the 侯's
    half width plus the margin at the 侯, and on beyond it (a miss flies on); anyone on the ground in it
    while an arrow flies is a finding."""
    if "target.hou" not in ctx.lay:           # a hall without a range (鄉飲酒禮): no arrow flies
        return []
    hou = ctx.lay["target.hou"]
    assert hou.size_chi is not None           # (the 侯 has its measured size)
    hou_half = hou.size_chi[0] / 2
    hx, hy = hou.xyz_chi[0], hou.xyz_chi[1]
    out, seen = [], set()
    for t0, t1, oid in _flights(ctx):
        shooter = oid.split(".")[1]
        sx, sy = ctx.pos(shooter, t0)[:2]
        dx, dy = hx - sx, hy - sy
        length = float(np.hypot(dx, dy))
        if length < 1e-6:
            continue
        ux, uy = dx / length, dy / length
        ts = np.arange(t0, t1, 0.25)
        first = []                            # (sample, order, actor): where each comes into the way first
        for k, aid in enumerate(ctx.rite.actor_ids):
            if aid == shooter or aid in seen or not len(ts):
                continue
            x, y, z = ctx.pos_at(aid, ts).T
            along = ((x - sx) * ux + (y - sy) * uy) / length
            across = np.abs((x - sx) * uy - (y - sy) * ux)
            bad = ctx.visible_at(aid, ts) & (z < 0.05) & (along > 0) & (across < LANE_MARGIN_CHI + hou_half * along)
            if bad.any():
                first.append((int(np.argmax(bad)), k, aid, x, y, along, across))
        for i, _k, aid, x, y, along, across in sorted(first, key=lambda f: (f[0], f[1])):
            seen.add(aid)
            t = ts[i]
            sp = ctx.rite.span_at(t)
            assert sp is not None     # (every moment looked at is after the first step began)
            where = "behind the 侯" if along[i] > 1 else "in the 侯道 lane"
            out.append(Finding("world", sp.section, sp.index, sp.phrase, "(the arrow's way)",
                               f"{aid} out of the arrow's way ({across[i]:.0f} 尺 off the line; needs "
                               f"{LANE_MARGIN_CHI + hou_half * along[i]:.0f}) while {oid} flies",
                               f"{where} at ({x[i]:.1f}, {y[i]:.1f}) 尺, {t:.1f} s", aid, float(t)))
        if len(seen) > 40:
            break
    return out


def _furniture(ctx: Ctx) -> list[Finding]:
    """A walker's body does not pass over small furniture standing on the ground (he may walk up to it:
    the first and last 2 尺 of each walk are his coming to or leaving the thing he acts on)."""
    out = []
    ts = np.arange(*ctx.window, 0.25)
    ground = [oid for oid in GROUND_OBJECTS if oid in ctx.rite.object_ids]
    s = ctx.rite.sample(ts, objects=ground)
    xyz = s["actor_xyz_m"] / ctx.chi
    vis = s["visible"]
    from ..routes import FURNITURE_HALF
    from ..ways import Ways
    things = []          # (name, centre per sample, half sizes): the body may not reach over the thing
    for pid, half in FURNITURE_HALF.items():
        things.append((pid, np.tile(np.array(ctx.lay[pid].xyz_chi[:2]), (len(ts), 1)), half))
    for g, oid in enumerate(ground):
        pos = s["object_xyz_m"][:, g, :2] / ctx.chi
        lifted = s["object_xyz_m"][:, g, 2] / ctx.chi > 0.5       # carried: not lying on the ground
        pos = np.where(lifted[:, None], np.inf, pos)
        if oid.startswith("counters."):      # an empty pile is nothing to walk round
            pos = np.where((ctx.counters_at(oid, ts) > 0)[:, None], pos, np.inf)
        things.append((oid, pos, Ways.GROUND_THINGS[oid]))
    postures = {aid: ctx.postures_at(aid, ts[::4]) for aid in ctx.rite.actor_ids}
    for k, aid in enumerate(ctx.rite.actor_ids):
        walking = np.repeat(postures[aid] == "walk", 4)[:len(ts)]
        walking &= _away_from_ends(xyz[:, k, :2], walking, 2.0)
        # the gaps only where he walks on the ground in sight (a small part of the rite): the same samples
        # judged, the same first one and count
        at = np.flatnonzero(walking & (xyz[:, k, 2] < 0.05) & vis[:, k])
        if not len(at):
            continue
        x, y = xyz[at, k, 0], xyz[at, k, 1]
        for name, pos, (hx, hy) in things:
            gaps = np.hypot(np.maximum(np.abs(x - pos[at, 0]) - hx, 0), np.maximum(np.abs(y - pos[at, 1]) - hy, 0))
            near = gaps < REACH_CHI
            if near.any():
                j = int(np.argmax(near))
                t = float(ts[at[j]])
                sp = ctx.rite.span_at(t)
                assert sp is not None     # (every moment looked at is after the first step began)
                out.append(Finding("world", sp.section, sp.index, sp.phrase, "(furniture)",
                                   f"{aid} walking round the {name} (≥ {REACH_CHI} 尺 from its edge)",
                                   f"{gaps[j]:.1f} 尺 at {t:.1f} s ({int(near.sum())} samples)", aid, t))
    return out


def _away_from_ends(xy: np.ndarray, walking: np.ndarray, d: float) -> np.ndarray:
    """True where a walking sample is more than d from where that walk began and where it ends."""
    out = np.zeros(len(walking), dtype=bool)
    edges = np.flatnonzero(np.diff(np.r_[0, walking.astype(int), 0]))
    for a, b in zip(edges[::2], edges[1::2]):
        seg = xy[a:b]
        far = (np.hypot(*(seg - xy[max(a - 1, 0)]).T) > d) & (np.hypot(*(seg - xy[min(b, len(xy) - 1)]).T) > d)
        out[a:b] = far
    return out


def _pillars(ctx: Ctx) -> list[Finding]:
    out = []
    s = ctx.people_10hz                     # every 0.1 s
    ts = s["times"]
    xyz = s["actor_xyz_m"] / ctx.chi
    for pid in ("hall.west_pillar", "hall.east_pillar"):
        p = ctx.lay[pid]
        assert p.size_chi is not None         # (a pillar has its measured size)
        r = p.size_chi[0] / 2 + BODY_CHI * 0.9
        for k, aid in enumerate(ctx.rite.actor_ids):
            d = np.hypot(xyz[:, k, 0] - p.xyz_chi[0], xyz[:, k, 1] - p.xyz_chi[1])
            bad = (d < r) & (xyz[:, k, 2] > ctx.hall.height - 0.1) & s["visible"][:, k]
            if bad.any():
                i = int(np.argmax(bad))
                sp = ctx.rite.span_at(float(ts[i]))
                assert sp is not None     # (every moment looked at is after the first step began)
                out.append(Finding("world", sp.section, sp.index, sp.phrase, "(a body)",
                                   f"{aid}'s shoulder clear of the {pid[5:]} (centre ≥ {r:.2f} 尺 from its axis)",
                                   f"{d[i]:.2f} 尺 at {ts[i]:.1f} s", aid, float(ts[i])))
    return out


def _audit(ctx: Ctx) -> list[Finding]:
    out = []
    for v in audit(ctx.rite, hz=10.0, data=ctx.people_10hz):
        sp = ctx.rite.span_at(v.start_s)
        out.append(Finding("world", sp.section if sp else 0, sp.index if sp else None, sp.phrase if sp else "",
                           f"({v.rule})", {"apart": "0.4 m between people", "surface": "feet on a floor",
                                           "speed": "a walking pace", "solid": "nobody inside a solid"}[v.rule],
                           f"worst {v.worst:.3f} over {v.start_s:.1f}–{v.end_s:.1f} s", "+".join(v.who), v.start_s))
    return out
