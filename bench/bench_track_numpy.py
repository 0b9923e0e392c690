"""The director's track and the default pack built under this interpreter's numpy, against what ships in
``assets/prebuilt/`` (issue 44: why the shipped track's key holds no numpy version).

Run it with another numpy, nothing cached or shipped read:

    python -m venv --system-site-packages /tmp/vnp && /tmp/vnp/bin/pip install numpy==1.26.4
    PYTHONPATH=. /tmp/vnp/bin/python bench/bench_track_numpy.py

It prints whether the track's times and cuts are identical, how far its cameras are (max |diff|, how many of
its numbers differ) and whether the pack's bytes are (scene.json but its ``key``, which hashes the sources).
Its answers are in bench/RESULTS.md.  Compare against the commit the shipped products were written at.
"""
from __future__ import annotations

import json
import os
import sys
import time

os.environ["XIANGSHELI_NO_CACHE"] = "1"
os.environ["XIANGSHELI_NO_SHIPPED"] = "1"


def main() -> int:
    import numpy as np

    from scene.geometry import readings
    from scene.render import shots, track_store
    from scene.rite.timeline import build_rite
    from scene.web.pack import build_pack, shipped
    t0 = time.perf_counter()
    r = readings.get("zheng")
    rite = build_rite(r, None)
    tr = shots.build_track(rite)
    with np.load(track_store.folder("zheng") / track_store.TRACK_FILE) as z:
        t, v, ease = z["t"], z["v"], z["ease"]
    print("numpy", np.__version__, "python", sys.version.split()[0])
    print("t identical:", np.array_equal(tr.t, t), "ease identical:", np.array_equal(tr.ease, ease), "keys", len(t))
    d = np.abs(tr.v - v)
    print(f"v: max |diff| {d.max():.3g}, numbers differing {int((d > 0).sum())} of {d.size}")
    manifest, data = build_pack(r, None, rite=rite, director=lambda rr: (lambda: tr))
    ship = json.loads((shipped.PREBUILT / "pack-zheng" / "scene.json").read_bytes())
    print("pack scene.bin identical:", data == (shipped.PREBUILT / "pack-zheng" / "scene.bin").read_bytes(),
          "scene.json identical but its key:",
          {k: x for k, x in manifest.items() if k != "key"} == {k: x for k, x in ship.items() if k != "key"})
    print(f"{time.perf_counter() - t0:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
