"""Median time of a full layout (every place, with its derivations) for each preset.

The layout is cached per reading in normal use; here the cache is cleared before
every run so each figure is a cold computation.  Target: ≤ 20 ms.
"""
from __future__ import annotations

import statistics
import time

from scene.geometry import layout
from scene.geometry.readings import PRESETS


def main(repeats: int = 51) -> None:
    print(f"{'preset':10} {'places':>6} {'median ms':>10} {'min ms':>8}")
    for name, reading in PRESETS.items():
        times = []
        for _ in range(repeats):
            layout._build.cache_clear()
            t0 = time.perf_counter()
            lay = layout.build_layout(reading)
            times.append((time.perf_counter() - t0) * 1000)
        print(f"{name:10} {len(lay.places):6d} {statistics.median(times):10.2f} {min(times):8.2f}")


if __name__ == "__main__":
    main()
