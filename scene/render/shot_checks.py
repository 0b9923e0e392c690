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
from .last_answers import LastAnswers

FOCUS_M = 30.0        # people acting together further apart than this are framed (and judged) apart


def _cross(a: np.ndarray, b) -> np.ndarray:
    """``np.cross`` of two 3-vectors, the same products and differences, without its per-call cost."""
    (a0, a1, a2), (b0, b1, b2) = np.asarray(a, float).tolist(), np.asarray(b, float).tolist()
    return np.array([a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0])


_last_basis = LastAnswers(1)          # (pos, foc) bytes → basis: a held shot is asked about again and again


def _basis(pos, foc):
    """(fwd, right, up) of a camera (read-only: the last one is handed out again, not a copy)."""
    key = np.asarray(pos, float).tobytes() + np.asarray(foc, float).tobytes()
    kept = _last_basis.get(key)
    if kept is not None:
        return kept
    fwd = np.asarray(foc, float) - pos
    fwd /= np.linalg.norm(fwd)
    right = _cross(fwd, (0.0, 0.0, 1.0))
    right /= max(np.linalg.norm(right), 1e-9)
    return _last_basis.put(key, (fwd, right, _cross(right, fwd)))


def project(v: np.ndarray, pts: np.ndarray, aspect: float = ASPECT) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Points through a track camera: (u, v) in [-1, 1] across the frame, and the depth."""
    pos, foc = v[:3], v[3:6]
    fwd, right, up = _basis(pos, foc)
    rel = np.asarray(pts, float) - pos
    depth = rel @ fwd
    tv = math.tan(math.radians(v[6]) / 2)
    dd = np.maximum(depth, 1e-6)
    return (rel @ right) / (dd * tv * aspect), (rel @ up) / (dd * tv), depth


def _up(v: np.ndarray, pts: np.ndarray) -> np.ndarray:
    """:func:`project`'s v alone (the same operations)."""
    pos, foc = v[:3], v[3:6]
    fwd, _, up = _basis(pos, foc)
    rel = np.asarray(pts, float) - pos
    return (rel @ up) / (np.maximum(rel @ fwd, 1e-6) * math.tan(math.radians(v[6]) / 2))


def figure_heights(v: np.ndarray, feet: np.ndarray) -> np.ndarray:
    """How tall (fraction of the frame height) a standing figure at each foot point is drawn."""
    return np.abs(_up(v, feet + (0.0, 0.0, FIGURE_M)) - _up(v, feet)) / 2


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
        # (the 侯 they shoot at is not in their frame: the director cuts to it as each arrow lands, and frames
        # the archers — and the 工 playing for them, §39 — as large as two people must be drawn, issue 42)
        group = sorted({idx[a] for j in under_way for a in spans[j].who if a in idx and vis[idx[a]]} | set(ids))
        if spread_m(xyz[group]) <= FOCUS_M and len(group) > len(ids):
            n, width = len(group), xyz[group]
        else:
            n, width = len(ids), feet
        need = min_height(n, spread_m(width))
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
    """:func:`judge`'s verdict: in frame, unoccluded and tall (its tests, not a copy of them: the director and
    the audit judge alike)."""
    inside, seen, tall, _, _ = judge(world, v, c)
    return inside and seen and tall


def bases(pos: np.ndarray, foc: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The frames (fwd, right, up; each (C, 3)) of cameras at ``pos`` looking at ``foc`` (C, 3), as
    :func:`project` makes one: ``np.cross`` and ``np.linalg.norm`` written out (the same products,
    differences and sums, in the same order), without their per-call cost on a few cameras."""
    fwd = foc - pos
    fwd /= _norms(fwd)[:, None]
    right = _crosses(fwd, (0.0, 0.0, 1.0))
    right /= np.maximum(_norms(right), 1e-9)[:, None]
    return fwd, right, _crosses(right, fwd)


def _norms(v: np.ndarray) -> np.ndarray:
    """``np.linalg.norm(v, axis=1)`` of (C, 3) vectors (its sum: x² + y², then z²)."""
    x, y, z = v[:, 0], v[:, 1], v[:, 2]
    return np.sqrt((x * x + y * y) + z * z)


def _crosses(a: np.ndarray, b) -> np.ndarray:
    """``np.cross`` of (C, 3) vectors with (C, 3) or (3,) ones."""
    a0, a1, a2 = a[:, 0], a[:, 1], a[:, 2]
    b0, b1, b2 = (b[:, k] for k in range(3)) if isinstance(b, np.ndarray) and b.ndim == 2 else b
    return np.column_stack([a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0])


def heights_many(pos: np.ndarray, foc: np.ndarray, ang: np.ndarray, feet: np.ndarray) -> np.ndarray:
    """The smallest of :func:`figure_heights` for many cameras at once ((C, 3) positions and focal points, (C,)
    view angles) — the director's candidates: on (N, C) planes, the feet down, the cameras across (sums in
    einsum's order, as :func:`passes_many`)."""
    fwd, _right, up = bases(pos, foc)
    tv = np.tan(np.radians(ang) / 2)
    out = []
    for dz in (0.0, FIGURE_M):
        top = feet + (0.0, 0.0, dz)
        rel = [top[:, k:k + 1] - pos[:, k] for k in range(3)]           # (N, C)
        out.append(project_on(rel, up.T) / (np.maximum(project_on(rel, fwd.T), 1e-6) * tv))
    return (np.abs(out[1] - out[0]) / 2).min(0)


def project_on(rel: list, axis) -> np.ndarray:
    """The projection of ``rel`` (x, y, z planes) on ``axis`` (x, y, z), summed in einsum's order (x's and z's
    products, then y's)."""
    out = rel[0] * axis[0]
    out += rel[2] * axis[2]
    out += rel[1] * axis[1]
    return out


def passes_many(world, pos: np.ndarray, foc: np.ndarray, ang: np.ndarray, c: Check) -> np.ndarray:
    """:func:`passes` for many cameras at once ((C, 3) positions and focal points, (C,) view angles): the
    same projections (as :func:`project`), on (C, P) planes (sums in einsum's order: x's and z's products,
    then y's) — of the feet, the heads, the crowns and the marks at once (each point's projection is its
    own: the same alone or with others)."""
    from .camera_world import _hidden_all
    fwd, right, up = _bases(pos, foc)
    tv = np.tan(np.radians(ang) / 2)[:, None]
    n = len(c.feet)
    pts = np.vstack([c.feet, c.feet + (0.0, 0.0, FIGURE_M), c.feet + c.crown[:, None] * (0.0, 0.0, 1.0), c.marks])
    rel = [pts[None, :, k] - pos[:, k:k + 1] for k in range(3)]         # (C, P)
    d = project_on(rel, fwd.T[:, :, None])
    dd = np.maximum(d, 1e-6) * tv
    wide = dd * ASPECT
    u, w = project_on(rel, right.T[:, :, None]) / wide, project_on(rel, up.T[:, :, None]) / dd

    def safe(sl):
        dk, uk, wk = d[:, sl], u[:, sl], w[:, sl]
        return ((dk > 0.3) & (np.abs(uk) <= SAFE_SIDE) & (wk <= SAFE_TOP) & (wk >= SAFE_BOTTOM)).all(axis=1)

    def edge(sl):
        # the whole figures inside the frame's edge (as :func:`whole_figures`)
        dk, uk, wk = d[:, sl], u[:, sl], w[:, sl]
        return ((dk > 0.3) & (np.abs(uk) + HALF_W_M / wide[:, sl] <= EDGE) & (np.abs(wk) <= EDGE)).all(axis=1)
    ok = safe(slice(0, 2 * n)) & edge(slice(0, n)) & edge(slice(2 * n, 3 * n))
    if not c.wide:
        ok &= (np.abs(w[:, n:2 * n] - w[:, :n]) / 2).min(1) >= c.need
    if len(c.marks):
        ok &= safe(slice(3 * n, None))
    live = ok.nonzero()[0]
    if len(live):
        sight = sight_points(c.feet)
        clear = ~_hidden_all(world, pos[live], sight_core(sight)) & ~world.occluders.blocked(pos[live], sight, c.others)
        if len(c.marks):
            clear &= ~world.occluders.hits(pos[live], c.marks, c.others).any(axis=1)
        ok[live] = clear
    return ok


_last_bases = LastAnswers(1)          # the cameras' bytes → their frames: a window asks every check of the same ones


def _bases(pos: np.ndarray, foc: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`bases`, the last ones handed out again (read-only)."""
    key = pos.tobytes() + foc.tobytes()
    kept = _last_bases.get(key)
    return kept if kept is not None else _last_bases.put(key, bases(pos, foc))
