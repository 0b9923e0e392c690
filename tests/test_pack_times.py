"""The pack's key times (f32): never after the moment they key — a cut at a stage's start must be in force at
the start itself (the director's shot at §44's start, 14234.1167 s, once rounded up 0.5 ms past it and the
presenter's first frame of a lesson stop there showed the shot before)."""
from __future__ import annotations

import numpy as np

from scene.web.pack.buffer import times_f32


def test_key_times_are_rounded_down_and_stay_increasing():
    t = np.array([0.0, 1.0, 14234.11671613097, 14237.065307145473, 18900.3])
    out = times_f32(t)
    assert out.dtype == np.float32
    assert np.all(out.astype(np.float64) <= t)
    assert np.all(np.diff(out) > 0)
    # keys a µs apart collapse in f32: the later one is put a step after (increasing beats rounding down)
    twin = times_f32(np.array([14234.11671613097, 14234.116716131]))
    assert twin[1] > twin[0]
    # as close as an f32 allows: within one f32 step below
    assert np.all(t - out.astype(np.float64) < np.spacing(out.astype(np.float32)).astype(np.float64) * 2 + 1e-9)
    # the f32 a plain cast gives is above the stage's start here: that was the bug
    assert float(np.float32(14234.11671613097)) > 14234.11671613097
