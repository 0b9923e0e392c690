"""Timeline figures: compile time, one pose_at, and sampling the whole rite at 30 fps.

Targets (issue 3): whole-rite sampling at 30 fps ≤ 1 s in total; one pose_at ≤ 0.5 ms.
"""
from __future__ import annotations

import statistics
import time

import numpy as np

from scene.geometry.readings import DEFAULT
from scene.rite.timeline import Rite


def main() -> None:
    t0 = time.perf_counter()
    rite = Rite(DEFAULT)
    compile_s = time.perf_counter() - t0
    n_actors, n_objects = len(rite.actor_ids), len(rite.object_ids)
    print(f"rite: {rite.duration:.0f} s long, {len(rite.spans)} steps, {n_actors} actors, {n_objects} objects")
    print(f"compile (choreography → tracks): {compile_s:.2f} s")

    rng = np.random.default_rng(0)
    ts = rng.uniform(0, rite.duration, 2000)
    per = []
    for t in ts:
        a = time.perf_counter()
        rite.pose_at(t)
        per.append(time.perf_counter() - a)
    print(f"pose_at: median {statistics.median(per) * 1e3:.3f} ms, p95 {np.percentile(per, 95) * 1e3:.3f} ms "
          f"(all {n_actors} actors + {n_objects} objects; target ≤ 0.5 ms)")

    times = np.arange(0.0, rite.duration, 1 / 30)
    best = []
    for _ in range(3):
        a = time.perf_counter()
        for chunk in np.array_split(times, max(1, len(times) // 20000)):
            rite.sample(chunk)
        best.append(time.perf_counter() - a)
    print(f"sample whole rite at 30 fps: {len(times)} frames in {min(best):.2f} s "
          f"(best of 3; target ≤ 1 s)")


if __name__ == "__main__":
    main()
