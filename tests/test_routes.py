"""The way-finding's sight test (routes.Site._visible, the rite's hot loop) against the textbook clip in
scalars, and against the segment sampled point by point."""
from __future__ import annotations

import numpy as np
import pytest

from scene.rite.routes import Site


def _crosses(p, q, box) -> bool:
    """Does the segment p–q pass through the box's interior (by sampling it densely)?"""
    s = np.linspace(0.0, 1.0, 4001)[:, None]
    pts = p + s * (q - p)
    x0, y0, x1, y1 = box
    inside = (pts[:, 0] > x0 + 1e-7) & (pts[:, 0] < x1 - 1e-7) & (pts[:, 1] > y0 + 1e-7) & (pts[:, 1] < y1 - 1e-7)
    return bool(inside.any())


def _clipped(p, q, box) -> bool:
    """The textbook Liang–Barsky clip of one segment by one box, in scalars: crossed for longer than 1e-6."""
    t0, t1 = 0.0, 1.0
    for k in (0, 1):
        a, d, lo, hi = p[k], q[k] - p[k], box[k], box[k + 2]
        if abs(d) < 1e-12:
            if not lo < a < hi:
                return False
            continue
        r1, r2 = (lo - a) / d, (hi - a) / d
        t0, t1 = max(t0, min(r1, r2)), min(t1, max(r1, r2))
    return t1 - t0 > 1e-6


@pytest.mark.slow
def test_the_sight_test_is_the_plain_one():
    rng = np.random.default_rng(3)
    checked = crossed = 0
    for trial in range(60):
        p = np.round(rng.uniform(-20, 20, (2, 2)) * 2) / 2
        q = np.round(rng.uniform(-20, 20, (15, 2)) * 2) / 2
        if trial % 2:                                         # along an axis: the parallel cases
            q[0, 0] = p[0, 0]
            q[1, 1] = p[0, 1]
        else:                                                 # and none (no segment parallel to an axis)
            q += rng.uniform(0.01, 0.2, q.shape)
        lo = np.round(rng.uniform(-20, 20, (6, 2)) * 2) / 2
        boxes = np.hstack([lo, lo + np.round(rng.uniform(0.5, 8, (6, 2)) * 2) / 2])
        got = Site._visible(p, q, boxes)
        assert got.shape == (2, 15)
        for i in range(2):
            for j in range(15):
                assert got[i, j] == (not any(_clipped(p[i], q[j], b) for b in boxes))
                sample = [_crosses(p[i], q[j], b) for b in boxes]
                # a sampled crossing shorter than a sample step may be missed: only compare clear answers
                if any(sample) or got[i, j]:
                    checked += 1
                    crossed += any(sample)
                    assert got[i, j] == (not any(sample)), (p[i], q[j], boxes)
    assert checked > 1000 and 200 < crossed < checked - 200
    assert Site._visible(np.zeros((1, 2)), np.ones((3, 2)), np.zeros((0, 4))).all()


def test_a_way_remembered_from_another_compile_is_the_way_searched():
    """The searched ways are remembered for the whole process (routes._PLANS), across compiles of the same hall:
    the rite compiled after another one (without the 大夫: most ways asked again, some not) moves everybody
    exactly as the rite compiled with nothing remembered."""
    from scene.geometry import readings
    from scene.rite import routes
    from scene.rite.timeline import Rite
    zheng = readings.get("zheng")
    routes._PLANS.clear()
    alone = Rite(zheng)
    asked = len(routes._PLANS)
    routes._PLANS.clear()
    Rite(zheng.replace(dafu_present=False))
    after = Rite(zheng)
    assert len(routes._PLANS) > asked                     # the other compile's ways are there too
    times = np.linspace(0.0, alone.duration, 997)
    a, b = alone.sample(times), after.sample(times)
    assert a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) for k in a)
