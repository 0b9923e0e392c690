"""Start time: ``python app.py`` to the first 3D paint in Chromium, cold (an empty cache) and warm.

    python bench/bench_start.py [--runs 2] [--phases]

Each run uses a fresh ``XIANGSHELI_CACHE`` folder: cold (the rite compiled, the pack built, the font subset
made), then warm (a second start on it). The clock runs from the spawn of ``python app.py`` to the page's
``ready`` (trame connected, the player drew its first pose) and two animation frames more. One Chromium
per run, launched before the clock starts (cold loads the page first in it, warm reloads it, as a user
restarting the app would); ``--fresh-browser`` launches a new one for every start (no compiled script kept:
the page alone takes about a second more). Medians over the runs are printed last, with the load average:
on a shared machine other people's work shows in the figures.

``--phases`` first times the parts of a start one after another in this process (wall and CPU seconds, and
each one's share of the whole), cold then warm: imports, the OpenGL probe, the pack (the shipped one copied
when it is current — :mod:`scene.web.pack.shipped` — else the rite compiled, the director's track, the rest
of the pack), the font subset.  ``--no-shipped`` hides the shipped build products (what an edited checkout
pays).

The figures that travel from machine to machine are the ratios: cold ÷ warm, and each phase's share.  The
reference loop (``bench/reference.py``) is timed in the same run and printed first.
"""
from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from webtools import READY, chromium, free_port  # noqa: E402

sys.path.insert(0, str(ROOT / "bench"))
import reference  # noqa: E402

_PHASES = r'''
import os, sys, time
T = lambda: (time.perf_counter(), time.process_time())
rows = []
def lap(name, t):
    w, c = T(); rows.append((name, w - t[0], c - t[1]))
t = T(); import trame.app; from scene.web import app; lap("import trame and the app", t)
from scene.render import glprobe
t = T(); glprobe.configure(); glprobe.ensure(); lap("OpenGL probe (child process)", t)
from scene.geometry import readings
from scene.rite.cache import load_rite
from scene.web.pack import store
from scene.render import shots
r = readings.get("zheng")
t = T(); found = store.existing(r); lap("pack: found, or the shipped one copied", t)
if found is None:                     # as the app: the rite only when the pack must be built
    t = T(); rite = load_rite(r); lap("rite: compiled", t)
    t = T(); track = shots.track(rite); lap("pack: the director's track", t)
    t = T(); store.pack_dir(r); lap("pack: the rest, written, hashed", t)
t = T(); store.font_dir(); lap("font subset: made, or found", t)
total = sum(w for _, w, _ in rows) or 1.0
for name, w, c in rows:
    print(f"  {name:38s} {w:6.2f} s wall  {c:6.2f} s CPU  {100 * w / total:5.1f} %")
print(f"  {'all':38s} {total:6.2f} s wall")
'''


def _env(cache: str, shipped: bool) -> dict:
    env = {**os.environ, "XIANGSHELI_CACHE": cache, "PYTHONUNBUFFERED": "1", "PYTHONPATH": str(ROOT)}
    if not shipped:
        env["XIANGSHELI_NO_SHIPPED"] = "1"
    return env


def one(cache: str, browser=None, shipped: bool = True) -> tuple[float, float, str]:
    """(address printed, first 3D paint, the address line) of one start, in ``browser`` (else a new one)."""
    if browser is None:
        with chromium() as b:
            return one(cache, b, shipped)
    port = free_port()
    t0 = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "app.py", "--port", str(port)], cwd=ROOT, text=True,
                            env=_env(cache, shipped), stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        line = ""
        while "open http://" not in line:
            line = proc.stdout.readline()
            if not line:
                raise RuntimeError("the app did not start")
        t_line = time.perf_counter() - t0
        built: list[float] = []

        def drain() -> None:            # never a full pipe; and when the build was done ("scene ready")
            for out in proc.stdout:
                if "scene ready" in out and not built:
                    built.append(time.perf_counter() - t0)
        threading.Thread(target=drain, daemon=True).start()
        page = browser.new_page()
        page.goto(f"http://127.0.0.1:{port}/")
        page.wait_for_function(READY, timeout=120000, polling=20)
        page.evaluate("new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
        t_paint = time.perf_counter() - t0
        page.close()
        time.sleep(0.05)
        return t_line, t_paint, line.strip() if not built or "scene ready" in line else \
            f"scene built at {built[0]:.1f} s; {line.strip()}"
    finally:
        proc.terminate()
        proc.wait(10)


def phases(shipped: bool = True) -> None:
    cache = tempfile.mkdtemp(prefix="xsl-phases-")
    try:
        for kind in ("cold", "warm"):
            print(f"phases, {kind} (one after another, in one process):", flush=True)
            subprocess.run([sys.executable, "-c", _PHASES], cwd=ROOT, check=True, env=_env(cache, shipped))
    finally:
        shutil.rmtree(cache, ignore_errors=True)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=2)
    ap.add_argument("--phases", action="store_true", help="time the parts of a start first")
    ap.add_argument("--fresh-browser", action="store_true", help="a new Chromium for every start")
    ap.add_argument("--no-shipped", action="store_true",
                    help="hide the shipped build products (assets/prebuilt/): what an edited checkout pays")
    a = ap.parse_args(argv)
    print(reference.line(), flush=True)
    shipped = not a.no_shipped
    print(f"shipped build products: {'used when current' if shipped else 'hidden (--no-shipped)'}")
    if a.phases:
        phases(shipped)
    got: dict[str, list[tuple[float, float]]] = {"cold": [], "warm": []}
    for _ in range(a.runs):
        cache = tempfile.mkdtemp(prefix="xsl-start-")
        try:
            with contextlib.ExitStack() as stack:
                shared = None if a.fresh_browser else stack.enter_context(chromium())
                for kind in ("cold", "warm"):
                    t_line, t_paint, line = one(cache, shared, shipped)
                    got[kind].append((t_line, t_paint))
                    print(f"{kind}: address printed at {t_line:.1f} s, first 3D paint at {t_paint:.1f} s  ({line})",
                          flush=True)
        finally:
            shutil.rmtree(cache, ignore_errors=True)
    med = {}
    for kind, rows in got.items() if a.runs > 0 else ():
        med[kind] = statistics.median(r[1] for r in rows)
        print(f"{kind} (median of {len(rows)}): address {statistics.median(r[0] for r in rows):.1f} s, "
              f"first 3D paint {med[kind]:.1f} s")
    if med.get("warm"):
        print(f"cold ÷ warm first paint: {med['cold'] / med['warm']:.2f} (goal ≤ 2)")
    print(f"load average at end: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
