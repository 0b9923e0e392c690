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

from collections.abc import Iterator
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


def audit(rite: Rite, hz: float = 10.0, rules: tuple[str, ...] = ("apart", "surface", "speed", "solid")) -> list[Violation]:
    times = np.arange(0.0, rite.duration, 1.0 / hz)
    data = rite.sample(times)
    xyz = data["actor_xyz_m"].astype(float)
    vis = data["visible"]
    ids = rite.actor_ids
    chi = rite.reading.chi_m
    site = Site(rite.layout)
    out: list[Violation] = []

    def where(t: float) -> str:
        span = rite.span_at(t)
        return f"§{rite.stage_at(t).n} {span.phrase if span else ''}"

    if "apart" in rules:
        exempt = np.zeros((len(times), len(ids), len(ids)), dtype=bool)
        index = {a: i for i, a in enumerate(ids)}
        for t0, t1, a, b in rite.handovers:
            m = (times >= t0) & (times <= t1)
            exempt[m, index[a], index[b]] = exempt[m, index[b], index[a]] = True
        for i in range(len(ids)):
            d = np.linalg.norm(xyz[:, i + 1:, :] - xyz[:, i:i + 1, :], axis=2)
            both = vis[:, i:i + 1] & vis[:, i + 1:]
            bad = (d < MIN_APART_M) & both & ~exempt[:, i, i + 1:]
            for k in np.flatnonzero(bad.any(axis=0)):
                j = i + 1 + k
                for t0, t1, vals in _intervals(bad[:, k], times, d[:, k]):
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
        step = np.linalg.norm(np.diff(xyz, axis=0), axis=2) * hz
        both = vis[1:] & vis[:-1]
        for i, aid in enumerate(ids):
            bad = (step[:, i] > MAX_SPEED_M_S) & both[:, i]
            for t0, t1, vals in _intervals(bad, times[1:], step[:, i]):
                out.append(Violation("speed", (aid,), t0, t1, float(vals.max()), where(t0)))
    return sorted(out, key=lambda v: v.start_s)
