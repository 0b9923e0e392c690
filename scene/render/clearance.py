"""Is a camera inside a solid?  The hall and the things the player draws (:class:`.frame_rules.Solid`, the grid
the sight lines are tested against) and the people (upright cylinders of :data:`.frame_rules.BODY_R` up to
their crowns): a camera within :data:`MARGIN` m of any of them draws the inside of a timber or a head (the
player's near plane is 0.3 m; issue 42: the fixed 射者 view stood in the archer's head).  Pure numpy."""
from __future__ import annotations

import numpy as np

from .frame_rules import BODY_R, CROWN_M, Roofed, solid_of

MARGIN = 0.25         # m: the least room a camera keeps from a surface (a little under the near plane)
STEP_S = 1.0          # s: how often a camera is judged against the people while it is on screen


def _ball(margin: float) -> np.ndarray:
    """Points on and in a ball of radius ``margin`` (the centre, 6 axis points, 8 corners, at two radii)."""
    d = [(0.0, 0.0, 0.0)]
    for r in (margin / 2, margin):
        d += [(s * r, 0.0, 0.0) for s in (-1, 1)] + [(0.0, s * r, 0.0) for s in (-1, 1)] + \
             [(0.0, 0.0, s * r) for s in (-1, 1)]
        c = r / np.sqrt(3)
        d += [(a * c, b * c, e * c) for a in (-1, 1) for b in (-1, 1) for e in (-1, 1)]
    return np.array(d)


def in_solid(rite, pos: np.ndarray, margin: float = MARGIN) -> np.ndarray:
    """(C,) True where a camera (C, 3) is within ``margin`` of the hall or a thing (a solid cell)."""
    return in_grid(solid_of(rite), pos, margin)


def in_grid(sol, pos: np.ndarray, margin: float = MARGIN) -> np.ndarray:
    """:func:`in_solid` against a :class:`.frame_rules.Roofed` (each camera against what the player draws from
    where it stands) or a :class:`.frame_rules.Solid` (None: nowhere solid)."""
    pos = np.atleast_2d(np.asarray(pos, float))
    if sol is None or not len(pos):
        return np.zeros(len(pos), bool)
    if isinstance(sol, Roofed):
        out = np.zeros(len(pos), bool)
        south, s_sol, north, n_sol = sol.of(pos)
        for mask, one in ((south, s_sol), (north, n_sol)):
            if mask.any():
                out[mask] = in_grid(one, pos[mask], margin)
        return out
    pts = pos[:, None, :] + _ball(margin)[None]                          # (C, B, 3)
    k = np.floor((pts - sol.lo) / sol.cell).astype(int)
    ok = np.all((k >= 0) & (k < np.array(sol.shape)), axis=2)
    hit = np.zeros(ok.shape, bool)
    hit[ok] = sol.grid[k[ok][:, 0], k[ok][:, 1], k[ok][:, 2]]
    return hit.any(axis=1)


def in_people(pos: np.ndarray, feet: np.ndarray, margin: float = MARGIN) -> np.ndarray:
    """(C,) True where a camera (C, 3) is within ``margin`` of a person standing at ``feet`` (N, 3): inside the
    upright cylinder of :data:`BODY_R` from his feet to his crown (:data:`CROWN_M`, the tallest headwear)."""
    pos = np.atleast_2d(np.asarray(pos, float))
    if not len(feet) or not len(pos):
        return np.zeros(len(pos), bool)
    d = np.hypot(pos[:, None, 0] - feet[None, :, 0], pos[:, None, 1] - feet[None, :, 1])
    z = pos[:, None, 2] - feet[None, :, 2]
    return ((d < BODY_R + margin) & (z > -margin) & (z < CROWN_M + margin)).any(axis=1)


def faults(rite, times: np.ndarray, cams: np.ndarray, what: list[str]) -> list[str]:
    """The cameras ``cams`` (T, 3) at ``times`` (T,) that stand inside a solid or a person on stage, one line each
    (``what``: a name for each)."""
    times = np.asarray(times, float)
    out = []
    bad = in_solid(rite, cams)
    smp = rite.sample(times)
    for k in range(len(times)):
        vis = np.asarray(smp["visible"][k], bool)
        feet = smp["actor_xyz_m"][k][vis]
        if bad[k]:
            out.append(f"{what[k]} t={times[k]:.1f}: camera {np.round(cams[k], 2).tolist()} inside the hall or a thing")
        elif in_people(cams[k][None], feet)[0]:
            ids = [a for a, v in zip(rite.actor_ids, vis) if v]
            j = int(np.argmin(np.hypot(*(feet[:, :2] - cams[k][:2]).T)))
            out.append(f"{what[k]} t={times[k]:.1f}: camera {np.round(cams[k], 2).tolist()} inside {ids[j]}")
    return out


def named_view_faults(rite, views_order=None) -> list[str]:
    """Every named view of every stage (the camera the pack ships for it, made at the stage's representative
    moment) judged at every :data:`STEP_S` of the stage — a named view is fixed while the stage plays."""
    from ..rite.moments import representative_t
    from . import views
    # the named views (the plan looks down from 400 m; 導演 and follow are no fixed camera)
    order = [v for v in (views_order or views.VIEWS) if v not in ("plan", "auto", "follow")]
    times, cams, what = [], [], []
    for st in rite.stages:
        pose = rite.pose_at(representative_t(rite, st))
        ts = np.arange(st.start_s, st.end_s + 1e-9, STEP_S)
        for v in order:
            c = views.camera(v, rite, pose, aspect=16 / 9)
            times += list(ts)
            cams += [c.position] * len(ts)
            what += [f"§{st.n} {v}"] * len(ts)
    return faults(rite, np.array(times), np.array(cams, float).reshape(-1, 3), what)


def track_faults(rite, tr) -> list[str]:
    """The director's camera judged at each of its keys and every :data:`STEP_S` of the rite."""
    ts = np.unique(np.concatenate([tr.t, np.arange(0.0, float(rite.duration), STEP_S)]))
    cams = np.array([tr.at(t)[:3] for t in ts])
    return faults(rite, ts, cams, ["director"] * len(ts))
