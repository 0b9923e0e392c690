"""Physical plausibility of a compiled rite, sampled at a fixed rate.

Four rules, each checked for every visible actor at every sample:
*apart* — no two people closer than 0.4 m unless one hands the other something;
*surface* — everyone stands on the ground, a 等 of the stairs or the 堂 floor, at its height;
*speed* — nobody moves faster than a brisk walk;
*solid* — nobody inside a column, a 序 wall, the 侯 or the 乏.
Violations are merged into time intervals and named by the step being played,
so a data author can find and fix them.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np

from .routes import Site
from .timeline import Rite

MIN_APART_M = 0.4
MAX_SPEED_M_S = 2.0


@dataclass(frozen=True)
class Violation:
    rule: str
    who: tuple[str, ...]
    start_s: float
    end_s: float
    worst: float
    where: str

    def __str__(self) -> str:
        return (f"{self.rule:7} {'+'.join(self.who):28} {self.start_s:8.1f}–{self.end_s:8.1f} s "
                f"worst {self.worst:.3f}  {self.where}")


def _intervals(mask: np.ndarray, times: np.ndarray, values: np.ndarray) -> Iterator[tuple[float, float, np.ndarray]]:
    """Runs of True in mask → (t0, t1, worst value)."""
    if not mask.any():
        return
    idx = np.flatnonzero(mask)
    breaks = np.flatnonzero(np.diff(idx) > 1)
    starts = np.concatenate([[idx[0]], idx[breaks + 1]])
    ends = np.concatenate([idx[breaks], [idx[-1]]])
    for s, e in zip(starts, ends):
        yield float(times[s]), float(times[e]), values[s:e + 1]


def sampled(rite: Rite, hz: float = 10.0) -> dict[str, np.ndarray]:
    """The people of the whole rite at ``hz`` (what :func:`audit` reads; the grammar's body rules share it)."""
    # (a mutation run's view of a few sections: scene.rite.grammar.mutate.windowed)
    t0, t1 = getattr(rite, "window", None) or (0.0, rite.duration)
    times = np.arange(t0, t1, 1.0 / hz)
    data = rite.sample(times, objects=False)
    data["times"] = times
    return data


#: samples a block of the broad phase of *apart*: a pair whose boxes over a block are ≥ MIN_APART_M apart is
#: not looked at closer in it (most pairs of the 40 are far apart most of the rite: 143 M distances become ~2 M)
_BLOCK = 64


def _near_pairs(xyz: np.ndarray, vis: np.ndarray) -> Iterator[tuple[int, int, np.ndarray]]:
    """(i, j, samples) of every pair that can come within MIN_APART_M: the samples of the blocks where the
    two bounding boxes (of their visible samples) come that close."""
    T, n, _ = xyz.shape
    full = T // _BLOCK * _BLOCK
    p = xyz.transpose(1, 2, 0)          # (n, 3, T): the sampler's own layout, each one's samples in a row
    seen = np.ascontiguousarray(vis.T)[:, None, :]

    def box(reduce: Callable[..., np.ndarray], init: float) -> np.ndarray:
        """Each one's box over a block, of the samples where he is seen (none: lo = inf, hi = -inf, never
        near), as (blocks, n, 3) — reduced in place under the mask: no copy of the whole rite's samples (a
        first call pays hundreds of MB of fresh pages for each)."""
        out = reduce(p[:, :, :full].reshape(n, 3, -1, _BLOCK), axis=3, initial=init,
                     where=seen[:, :, :full].reshape(n, 1, -1, _BLOCK))
        if full < T:                    # the last, shorter block
            tail = reduce(p[:, :, full:], axis=2, initial=init, where=seen[:, :, full:])
            out = np.concatenate([out, tail[:, :, None]], axis=2)
        boxes: np.ndarray = out.transpose(2, 0, 1)
        return boxes
    lo, hi = box(np.min, np.inf), box(np.max, -np.inf)
    for i in range(n - 1):
        gap = np.maximum(np.maximum(lo[:, i + 1:] - hi[:, i:i + 1], lo[:, i:i + 1] - hi[:, i + 1:]), 0.0)
        near = np.einsum("bjc,bjc->bj", gap, gap) < MIN_APART_M ** 2          # (nb, n-i-1); inf: never near
        for k in np.flatnonzero(near.any(axis=0)):
            b = np.flatnonzero(near[:, k])
            idx = (b[:, None] * _BLOCK + np.arange(_BLOCK)).ravel()
            yield i, i + 1 + int(k), idx[idx < T]


def audit(rite: Rite, hz: float = 10.0, rules: tuple[str, ...] = ("apart", "surface", "speed", "solid"),
          data: dict[str, np.ndarray] | None = None) -> list[Violation]:
    """The rules' violations, merged into intervals.  ``data``: :func:`sampled` at the same ``hz``, when the
    caller has it already."""
    if data is None:
        data = sampled(rite, hz)
    times = data["times"]
    xyz = np.asarray(data["actor_xyz_m"], dtype=float)
    vis = data["visible"]
    ids = rite.actor_ids
    chi = rite.reading.chi_m
    site = Site(rite.layout)
    out: list[Violation] = []

    def where(t: float) -> str:
        span = rite.span_at(t)
        return f"§{rite.stage_at(t).n} {span.phrase if span else ''}"

    if "apart" in rules:
        handed: dict[tuple[int, int], list[tuple[float, float]]] = {}
        index = {a: i for i, a in enumerate(ids)}
        for t0, t1, a, b in rite.handovers:
            ia, ib = index[a], index[b]
            handed.setdefault((min(ia, ib), max(ia, ib)), []).append((t0, t1))
        for i, j, idx in _near_pairs(xyz, vis):
            # judged at the broad phase's samples only; the whole rite's arrays are made for a pair that fails
            # (the same distances and runs: far from each other elsewhere, the pair is never bad there)
            diff = xyz[idx, j, :] - xyz[idx, i, :]
            near = np.sqrt(diff[:, 0] * diff[:, 0] + diff[:, 1] * diff[:, 1] + diff[:, 2] * diff[:, 2])
            bad_near = (near < MIN_APART_M) & vis[idx, i] & vis[idx, j]
            for t0, t1 in handed.get((i, j), ()):
                bad_near &= ~((times[idx] >= t0) & (times[idx] <= t1))
            if not bad_near.any():
                continue
            d = np.full(len(times), np.inf)
            d[idx] = near
            bad = np.zeros(len(times), dtype=bool)
            bad[idx] = bad_near
            for t0, t1, vals in _intervals(bad, times, d):
                out.append(Violation("apart", (ids[i], ids[j]), t0, t1, float(vals.min()), where(t0)))
    if "surface" in rules or "solid" in rules:
        for i, aid in enumerate(ids):
            p = xyz[:, i, :] / chi
            v = vis[:, i]
            if "surface" in rules:
                surf = site.surface_z_many(p[:, 0], p[:, 1])
                near_stairs = np.zeros(len(p), dtype=bool)
                for box in site.stairs.values():
                    near_stairs |= ((p[:, 0] >= box.x0) & (p[:, 0] <= box.x1) & (p[:, 1] >= box.y0 - 1.5)
                                    & (p[:, 1] <= box.y1 + 0.5))
                # between two treads a walker is interpolated across the riser: allow one riser there
                tol = np.where(near_stairs, site.h.height / site.h.steps + 0.05, 0.05)
                err = np.abs(p[:, 2] - surf)
                for t0, t1, vals in _intervals((err > tol) & v, times, err):
                    out.append(Violation("surface", (aid,), t0, t1, float(vals.max()), where(t0)))
            if "solid" in rules:
                solid = site.solid_many(p[:, 0], p[:, 1], p[:, 2])
                for t0, t1, _vals in _intervals(solid & v, times, np.ones(len(times))):
                    out.append(Violation("solid", (aid,), t0, t1, 1.0, where(t0)))
    if "speed" in rules:
        both = vis[1:] & vis[:-1]
        for i, aid in enumerate(ids):
            # one person at a time, along his own samples (the sampler's layout keeps each one's times
            # together): the norm's sum of squares in its order, without the whole rite's (T, n, 3) differences
            dx, dy, dz = (np.diff(xyz[:, i, c]) for c in range(3))
            step = np.sqrt((dx * dx + dy * dy) + dz * dz) * hz
            bad = (step > MAX_SPEED_M_S) & both[:, i]
            for t0, t1, vals in _intervals(bad, times[1:], step):
                out.append(Violation("speed", (aid,), t0, t1, float(vals.max()), where(t0)))
    return sorted(out, key=lambda v: v.start_s)
