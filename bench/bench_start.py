"""Start time: ``python app.py`` to the first 3D paint in Chromium, cold (an empty cache) and warm.

    python bench/bench_start.py [--runs 2] [--phases]

Each run uses a fresh ``XIANGSHELI_CACHE`` folder: cold (the rite compiled, the pack built, the font subset
made), then warm (a second start on it). The clock runs from the spawn of ``python app.py`` to the page's
``ready`` (trame connected, the player drew its first pose) and two animation frames more. One Chromium
per run, launched before the clock starts (cold loads the page first in it, warm reloads it, as a user
restarting the app would); ``--fresh-browser`` launches a new one for every start (no compiled script kept:
the page alone takes about a second more). Medians over the runs are printed last, with the load average:
on a shared machine other people's work shows in the figures.

``--phases`` first times the parts of a start one after another in this process (wall and CPU seconds),
cold then warm: imports, the OpenGL probe, the rite (compiled or read back), the director's track, the
rest of the pack, the font subset.
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
t = T(); found = store.existing(r); lap("pack: looked for, verified if found", t)
if found is None:                     # as the app: the rite only when the pack must be built
    t = T(); rite = load_rite(r); lap("rite: compiled", t)
    t = T(); track = shots.track(rite); lap("pack: the director's track", t)
    t = T(); store.pack_dir(r); lap("pack: the rest, written, hashed", t)
t = T(); store.font_dir(); lap("font subset: made, or found", t)
for name, w, c in rows:
    print(f"  {name:34s} {w:6.2f} s wall  {c:6.2f} s CPU")
'''


def one(cache: str, browser=None) -> tuple[float, float, str]:
    """(address printed, first 3D paint, the address line) of one start, in ``browser`` (else a new one)."""
    if browser is None:
        with chromium() as b:
            return one(cache, b)
    port = free_port()
    t0 = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "app.py", "--port", str(port)], cwd=ROOT, text=True,
                            env={**os.environ, "XIANGSHELI_CACHE": cache, "PYTHONUNBUFFERED": "1"},
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
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


def phases() -> None:
    cache = tempfile.mkdtemp(prefix="xsl-phases-")
    try:
        for kind in ("cold", "warm"):
            print(f"phases, {kind} (one after another, in one process):", flush=True)
            subprocess.run([sys.executable, "-c", _PHASES], cwd=ROOT, check=True,
                           env={**os.environ, "XIANGSHELI_CACHE": cache, "PYTHONPATH": str(ROOT)})
    finally:
        shutil.rmtree(cache, ignore_errors=True)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=2)
    ap.add_argument("--phases", action="store_true", help="time the parts of a start first")
    ap.add_argument("--fresh-browser", action="store_true", help="a new Chromium for every start")
    a = ap.parse_args(argv)
    print(f"load average at start: {' '.join(f'{x:.1f}' for x in os.getloadavg())} ({os.cpu_count()} cores)")
    if a.phases:
        phases()
    got: dict[str, list[tuple[float, float]]] = {"cold": [], "warm": []}
    for _ in range(a.runs):
        cache = tempfile.mkdtemp(prefix="xsl-start-")
        try:
            with contextlib.ExitStack() as stack:
                shared = None if a.fresh_browser else stack.enter_context(chromium())
                for kind in ("cold", "warm"):
                    t_line, t_paint, line = one(cache, shared)
                    got[kind].append((t_line, t_paint))
                    print(f"{kind}: address printed at {t_line:.1f} s, first 3D paint at {t_paint:.1f} s  ({line})",
                          flush=True)
        finally:
            shutil.rmtree(cache, ignore_errors=True)
    for kind, rows in got.items() if a.runs > 0 else ():
        print(f"{kind} (median of {len(rows)}): address {statistics.median(r[0] for r in rows):.1f} s, "
              f"first 3D paint {statistics.median(r[1] for r in rows):.1f} s")
    print(f"load average at end: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
