"""The director's windows (:mod:`.shots`): the rite cut at every step's start and end into pieces of what to frame
— who acts, whether they shoot, the marks a class must see, each step's people apart — long pieces in an odd
number of windows; the drink shot; and the rows rule: people in rows or a block hide each other from a low camera.
Pure numpy."""
from __future__ import annotations

import math

import numpy as np

from .camera_world import World as _World
from .frame_rules import marks_of, sight_core, sight_points
from .shot_checks import FOCUS_M, spread_m

WINDOW_S = 8.0


def _windows(s0: float, s1: float) -> list[tuple[float, float]]:
    n = max(1, math.ceil((s1 - s0) / WINDOW_S))
    if n % 2 == 0:
        n += 1
    w = (s1 - s0) / n
    return [(s0 + k * w, s0 + (k + 1) * w) for k in range(n)]


def _unique_rows(a: np.ndarray) -> np.ndarray:
    """``np.unique(a, axis=0)`` of points (N, 3) — sorted by x, then y, then z, each once — by a lexsort (the
    records np.unique makes of the rows cost ~0.1 ms a call).  Without a -0.0 or a NaN among them, the rows
    that compare equal are the same bits: which of them is kept cannot matter; with one, np.unique itself."""
    if len(a) < 2 or np.isnan(a).any() or (np.signbit(a) & (a == 0)).any():
        return np.unique(a, axis=0)
    a = a[np.lexsort(a.T[::-1])]
    return a[np.concatenate([[True], (a[1:] != a[:-1]).any(axis=1)])]


def _segments(rite) -> list[tuple[float, float, tuple[str, ...], bool, tuple[str, ...], tuple]]:
    """The rite cut at every step's start and end: (t0, t1, everyone named by the steps under way, shooting,
    the marks a class must see: :data:`MARKS`, the people of each step under way apart: :func:`build_track`'s
    rows),
    long pieces in an odd number of windows (a step's middle is never at the start of an ease).

    When the steps under way are far apart (the 主人 going down to the 洗 while the 眾賓 stand at the 門),
    one frame would draw everybody tiny: the piece frames the step that began last — the act the caption
    names — instead (:data:`FOCUS_M`)."""
    spans = [s for s in rite.spans if s.end_s - s.start_s > 1e-3]
    cuts = sorted({round(x, 4) for s in spans for x in (s.start_s, s.end_s)})
    starts = np.array([s.start_s for s in spans])
    ends = np.array([s.end_s for s in spans])
    pieces = [(t0, t1) for t0, t1 in zip(cuts, cuts[1:])]
    mids = np.array([(a + b) / 2 for a, b in pieces])
    where = rite.sample(mids)["actor_xyz_m"] if len(mids) else None
    idx = {a: i for i, a in enumerate(rite.actor_ids)}

    def spread(k: int, who) -> float:
        return spread_m(where[k][[idx[a] for a in who if a in idx]])
    out: list = []
    drinks: list = []
    for k, (t0, t1) in enumerate(pieces):
        m = mids[k]
        on = [spans[i] for i in np.flatnonzero((starts <= m) & (ends >= m))]
        if not on:
            continue
        who = tuple(dict.fromkeys(a for s in on for a in s.who))
        groups = tuple(dict.fromkeys(tuple(s.who) for s in sorted(on, key=lambda s: (s.start_s, s.index)) if s.who))
        if len(on) > 1:
            last = max(on, key=lambda s: s.start_s)
            own = spread(k, last.who)
            if spread(k, who) > max(FOCUS_M, 2 * own + 6.0):
                who = tuple(dict.fromkeys(last.who))
                groups = (who,)
        shooting = any(s.do == "shoot" for s in on)
        marks = tuple(dict.fromkeys(m for s in on for m in marks_of(s)))
        drink = [s for s in on if "tang.feng" in marks_of(s) and len(s.who) > 2]
        for w0, w1 in ([(t0, t1)] if shooting else _windows(t0, t1)):
            out.append((w0, w1, who, shooting, marks, groups))
            if drink:
                drinks.append((len(out) - 1, tuple(a for s in drink for a in s.who)))
    return _drinkers(rite, out, drinks, idx)


DRINK_R = 3.0         # m from the 豐: the one drinking (he takes the 觶 from it, drinks beside it, sets it back)


def _drinkers(rite, out: list, drinks: list, idx: dict) -> list:
    """The drink shot: a window of a step that names many people and the 豐 (飲不勝者: the losers of every
    pair, one pair after another) frames the ones at the 豐 — who the step names within :data:`DRINK_R` m of
    it at the window's start, middle or end — and the 豐; no one there: the whole step, as before."""
    lay = rite.layout
    if not drinks or "tang.feng" not in lay:
        return out
    feng = np.array(lay.xyz_m("tang.feng"))[:2]
    ts = np.array([[out[k][0], (out[k][0] + out[k][1]) / 2, out[k][1]] for k, _ in drinks]).ravel()
    smp = rite.sample(ts)
    xyz, vis = smp["actor_xyz_m"].reshape(len(drinks), 3, -1, 3), smp["visible"].reshape(len(drinks), 3, -1)
    for j, (k, named) in enumerate(drinks):
        near = {a for a in named if a in idx and any(
            vis[j, q, idx[a]] and np.hypot(*(xyz[j, q, idx[a], :2] - feng)) <= DRINK_R for q in range(3))}
        if near:
            w0, w1, who, shooting, marks, _groups = out[k]
            who = tuple(a for a in who if a in near or a not in named)
            out[k] = (w0, w1, who, shooting, marks, (who,))
    return out


ROW_N = 3             # people: a row (or a block) of at least this many,
ROW_GAP_M = 1.0       # each within this of the next (the 工 kneel 0.7 m apart, the 笙 stand 0.7 m apart)


def _is_row(at: np.ndarray) -> bool:
    """People standing (or kneeling) at ``at`` (N, 3) as a row or a block: at least :data:`ROW_N` of them,
    each within :data:`ROW_GAP_M` of another — from a camera at a man's height each hides the next."""
    if len(at) < ROW_N:
        return False
    d = np.hypot(*(at[:, None, :2] - at[None, :, :2]).transpose(2, 0, 1))
    np.fill_diagonal(d, np.inf)
    return bool((d.min(axis=1) <= ROW_GAP_M).all())


def _seen_all(world: _World, v: np.ndarray, feet: np.ndarray, others: np.ndarray) -> bool:
    """Every person at ``feet`` seen from the camera ``v`` past the building and everyone on stage (the
    director's sight test: :meth:`frame_rules.Occluders.blocked`)."""
    sight = sight_points(feet)
    return not world.hidden(v[:3], sight_core(sight)) and not world.occluders.blocked(v[None, :3], sight, others)[0]
