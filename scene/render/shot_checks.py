"""A shot held against one step of the rite (issue 27): the projection of a track camera, and the tests a
step's people must pass through it at the step's middle — in the free part of the frame, unoccluded, tall
enough, with what they act on in sight.  The director (:mod:`.shots`) chooses its shots by these tests and
its audit (:mod:`.shot_audit`) judges the track by them: one code, so the two cannot drift apart.
Pure numpy."""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .frame_rules import (
    ASPECT,
    CROWN_M,
    EDGE,
    FIGURE_M,
    HALF_W_M,
    SAFE_BOTTOM,
    SAFE_SIDE,
    SAFE_TOP,
    mark_points,
    marks_of,
    min_height,
    sight_core,
    sight_points,
)

FOCUS_M = 30.0        # people acting together further apart than this are framed (and judged) apart


def _cross(a: np.ndarray, b) -> np.ndarray:
    """``np.cross`` of two 3-vectors, the same products and differences, without its per-call cost."""
    (a0, a1, a2), (b0, b1, b2) = np.asarray(a, float).tolist(), np.asarray(b, float).tolist()
    return np.array([a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0])


_last_basis: list = [None, None]      # (pos, foc) bytes → basis: a held shot is asked about again and again


def _basis(pos, foc):
    key = np.asarray(pos, float).tobytes() + np.asarray(foc, float).tobytes()
    if _last_basis[0] == key:
        return tuple(x.copy() for x in _last_basis[1])
    fwd = np.asarray(foc, float) - pos
    fwd /= np.linalg.norm(fwd)
    right = _cross(fwd, (0.0, 0.0, 1.0))
    right /= max(np.linalg.norm(right), 1e-9)
    out = fwd, right, _cross(right, fwd)
    _last_basis[:] = key, tuple(x.copy() for x in out)
    return out


def project(v: np.ndarray, pts: np.ndarray, aspect: float = ASPECT) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Points through a track camera: (u, v) in [-1, 1] across the frame, and the depth."""
    pos, foc = v[:3], v[3:6]
    fwd, right, up = _basis(pos, foc)
    rel = np.asarray(pts, float) - pos
    depth = rel @ fwd
    tv = math.tan(math.radians(v[6]) / 2)
    dd = np.maximum(depth, 1e-6)
    return (rel @ right) / (dd * tv * aspect), (rel @ up) / (dd * tv), depth


def figure_heights(v: np.ndarray, feet: np.ndarray) -> np.ndarray:
    """How tall (fraction of the frame height) a standing figure at each foot point is drawn."""
    heads = feet + (0.0, 0.0, FIGURE_M)
    _, va, _ = project(v, feet)
    _, vb, _ = project(v, heads)
    return np.abs(vb - va) / 2


def spread_m(feet: np.ndarray) -> float:
    if len(feet) < 2:
        return 0.0
    d = feet[:, None, :2] - feet[None, :, :2]
    return float(np.sqrt((d * d).sum(-1)).max())


def whole_figures(v: np.ndarray, feet: np.ndarray, crown: np.ndarray) -> bool:
    """The whole figures standing at ``feet`` — their crowns (``crown`` m up) with the 冠, their sleeves either
    side — inside the frame's edge (the frame judges a figure that touches it cut)."""
    pts = np.vstack([feet, feet + crown[:, None] * (0.0, 0.0, 1.0)])
    u, w, depth = project(v, pts)
    tv = math.tan(math.radians(v[6]) / 2)
    half = HALF_W_M / (np.maximum(depth, 1e-6) * tv * ASPECT)
    return bool(np.all(depth > 0.3) and np.all(np.abs(u) + half <= EDGE) and np.all(np.abs(w) <= EDGE))


def in_safe_area(v: np.ndarray, pts: np.ndarray) -> bool:
    """All the points in front of the camera, inside the part of the frame the page leaves free."""
    u, w, depth = project(v, pts)
    return bool(np.all(depth > 0.3) and np.all(np.abs(u) <= SAFE_SIDE) and np.all(w <= SAFE_TOP)
                and np.all(w >= SAFE_BOTTOM))


@dataclass(frozen=True)
class Check:
    """One step at its middle: who it names (on stage), where they and everyone else stand, how tall they
    must be drawn, and the marks (the tally, the 豐) that must be in sight."""
    span: object
    t: float
    ids: tuple[int, ...]
    feet: np.ndarray
    others: np.ndarray
    need: float
    wide: bool            # further apart than the court is wide: no frame shows them all big
    marks: np.ndarray
    crown: np.ndarray     # (N,) how high each named person's figure reaches (with his headwear), m


def checks(rite, world) -> list[Check]:
    """A check for every step that names someone on stage, at the step's middle."""
    from .figures import figure, styles
    idx = {a: i for i, a in enumerate(rite.actor_ids)}
    # how high each figure reaches standing, as the player draws him (his headwear: the 大夫's tall 冠)
    hats = styles(rite.choreography)
    tops = {st.hat: figure(st, "stand").height for st in hats.values()}
    crown = np.array([tops[hats[a].hat] + 0.02 if a in hats else CROWN_M for a in rite.actor_ids])
    spans = [sp for sp in rite.spans if sp.end_s - sp.start_s >= 1e-3]
    mids = np.array([(sp.start_s + sp.end_s) / 2 for sp in spans])
    starts, ends = np.array([sp.start_s for sp in spans]), np.array([sp.end_s for sp in spans])
    smp = rite.sample(mids) if len(mids) else None
    out = []
    for k, sp in enumerate(spans):
        xyz, vis = smp["actor_xyz_m"][k], np.asarray(smp["visible"][k], bool)
        ids = [idx[a] for a in sp.who if a in idx and vis[idx[a]]]
        if not ids:
            continue
        feet = xyz[ids]
        others = xyz[np.flatnonzero(vis)]          # everyone on stage (a man does not hide himself)
        # how large they can be drawn depends on everyone acting with them (賓序西主人序東皆釋弓: the 賓's
        # step and the 主人's, one frame), as the director frames them (FOCUS_M)
        under_way = np.flatnonzero((starts <= mids[k]) & (ends >= mids[k]))
        # what they act on: the 侯 — also for a step under way while others shoot (§39 乃奏騶虞 以射: the music
        # plays for the shooting; one frame shows the 工, the archers and the 侯 they shoot at)
        target = world.hou[None] if sp.do == "shoot" or any(spans[j].do == "shoot" for j in under_way) else None
        group = sorted({idx[a] for j in under_way for a in spans[j].who if a in idx and vis[idx[a]]} | set(ids))
        if spread_m(xyz[group]) <= FOCUS_M and len(group) > len(ids):
            n, width = len(group), xyz[group]
        else:
            n, width = len(ids), feet
        need = min_height(n, spread_m(width if target is None else np.vstack([width, target])))
        out.append(Check(sp, float(mids[k]), tuple(ids), feet, others, need, spread_m(feet) > 2 * world.cw,
                         mark_points(rite.layout, marks_of(sp)), crown[ids]))
    return out


def check_at(rite, c: Check, t: float) -> Check:
    """The check ``c`` held at another moment ``t`` of its step (where a clicker's PageDown lands: the step's
    start): its people where they stand then, those of them on stage."""
    import dataclasses
    smp = rite.sample(np.array([float(t)]))
    xyz, vis = smp["actor_xyz_m"][0], np.asarray(smp["visible"][0], bool)
    keep = [k for k, i in enumerate(c.ids) if vis[i]]
    ids = tuple(c.ids[k] for k in keep)
    return dataclasses.replace(c, t=float(t), ids=ids, feet=xyz[list(ids)], others=xyz[np.flatnonzero(vis)],
                               crown=c.crown[keep])


def judge(world, v: np.ndarray, c: Check) -> tuple[bool, bool, bool, float, str]:
    """(in frame, unoccluded, tall, height, why) of a camera ``v`` for the check ``c``."""
    feet = c.feet
    inside = in_safe_area(v, np.vstack([feet, feet + (0.0, 0.0, FIGURE_M)])) and whole_figures(v, feet, c.crown)
    sight = sight_points(feet)
    hidden = world.hidden(v[:3], sight_core(sight)) or bool(world.occluders.blocked(v[None, :3], sight, c.others)[0])
    h = float(figure_heights(v, feet).min())
    tall = h >= c.need or c.wide
    why = [] if inside else ["outside the free part of the frame"]
    if hidden:
        why.append("hidden")
    if not tall:
        why.append(f"figure {h:.3f} of the frame < {c.need:.3f}")
    if len(c.marks) and not (in_safe_area(v, c.marks)
                             and not world.occluders.hits(v[None, :3], c.marks, c.others).any()):
        inside = False
        why.append("the tally or the 豐 not in sight")
    return inside, not hidden, tall, h, "; ".join(why) or "ok"


def passes(world, v: np.ndarray, c: Check) -> bool:
    inside, seen, tall, _, _ = judge(world, v, c)
    return inside and seen and tall


def passes_many(world, pos: np.ndarray, foc: np.ndarray, ang: np.ndarray, c: Check) -> np.ndarray:
    """:func:`passes` for many cameras at once ((C, 3) positions and focal points, (C,) view angles): the
    same projections (as :func:`project`), on (C, P) planes."""
    from .camera_world import _hidden_all
    fwd = foc - pos
    fwd /= np.linalg.norm(fwd, axis=1, keepdims=True)
    right = np.cross(fwd, (0.0, 0.0, 1.0))
    right /= np.maximum(np.linalg.norm(right, axis=1, keepdims=True), 1e-9)
    up = np.cross(right, fwd)
    tv = np.tan(np.radians(ang) / 2)[:, None]

    def proj(pts):
        rel = pts[None, :, :] - pos[:, None, :]
        depth = np.einsum("cpk,ck->cp", rel, fwd)
        dd = np.maximum(depth, 1e-6)
        return (np.einsum("cpk,ck->cp", rel, right) / (dd * tv * ASPECT), np.einsum("cpk,ck->cp", rel, up) / (dd * tv),
                depth)

    def safe(pts):
        u, w, d = proj(pts)
        return np.all((d > 0.3) & (np.abs(u) <= SAFE_SIDE) & (w <= SAFE_TOP) & (w >= SAFE_BOTTOM), axis=1)
    n = len(c.feet)
    u, w, d = proj(np.vstack([c.feet, c.feet + (0.0, 0.0, FIGURE_M)]))
    ok = np.all((d > 0.3) & (np.abs(u) <= SAFE_SIDE) & (w <= SAFE_TOP) & (w >= SAFE_BOTTOM), axis=1)
    # the whole figures inside the frame's edge (as :func:`whole_figures`)
    uc, wc, dc = proj(np.vstack([c.feet, c.feet + c.crown[:, None] * (0.0, 0.0, 1.0)]))
    half = HALF_W_M / (np.maximum(dc, 1e-6) * tv * ASPECT)
    ok &= np.all((dc > 0.3) & (np.abs(uc) + half <= EDGE) & (np.abs(wc) <= EDGE), axis=1)
    if not c.wide:
        ok &= (np.abs(w[:, n:] - w[:, :n]) / 2).min(1) >= c.need
    if len(c.marks):
        ok &= safe(c.marks)
    live = np.flatnonzero(ok)
    if len(live):
        sight = sight_points(c.feet)
        clear = ~_hidden_all(world, pos[live], sight_core(sight)) & ~world.occluders.blocked(pos[live], sight, c.others)
        if len(c.marks):
            clear &= ~world.occluders.hits(pos[live], c.marks, c.others).any(axis=1)
        ok[live] = clear
    return ok
