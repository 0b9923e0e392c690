"""Start time: ``python app.py`` to the first 3D paint in Chromium, cold (an empty cache) and warm.

    python bench/bench_start.py [--runs 1]

Cold uses a fresh ``XIANGSHELI_CACHE`` folder (the rite compiled, the pack built, the font subset made);
warm starts again on it. The clock runs from the spawn of ``python app.py`` to the page's ``ready`` (trame
connected, the player drew its first pose); the app's own "scene ready in" figure is printed beside it.
"""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from webtools import READY, chromium, free_port  # noqa: E402


def one(cache: str, browser) -> tuple[float, float, str]:
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
        page = browser.new_page()
        page.goto(f"http://127.0.0.1:{port}/")
        page.wait_for_function(READY, timeout=120000)
        page.evaluate("new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
        t_paint = time.perf_counter() - t0
        page.close()
        return t_line, t_paint, line.strip()
    finally:
        proc.terminate()
        proc.wait(10)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=1)
    a = ap.parse_args(argv)
    with chromium() as b:
        for _ in range(a.runs):
            cache = tempfile.mkdtemp(prefix="xsl-start-")
            try:
                for kind in ("cold", "warm"):
                    t_line, t_paint, line = one(cache, b)
                    print(f"{kind}: address printed at {t_line:.1f} s, first 3D paint at {t_paint:.1f} s  ({line})")
            finally:
                shutil.rmtree(cache, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
