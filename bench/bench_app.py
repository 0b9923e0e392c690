"""Benchmark of the browser app (``python app.py``) in headless Chromium, one run; prints figures.

* start → first 3D paint: from launching ``python app.py`` to the first frame the player draws in a tab
  opened as soon as the server prints its URL (the scene pack cached, as on any run after the first);
* stage jump: PageDown keydown → the animation frame that shows the new stage (median of 10);
* playback: frames per second over 5 s at 8× in §21 (三耦射: every archer and officer moving), the
  3D view 1280×720 (classroom mode in a 1280×720 window, so the view is exactly that size);
* server memory (RSS) with one tab and with ten tabs open.

Run: ``python bench/bench_app.py``. Goals (issue 5): jump ≤ 150 ms, ≥ 30 fps.
"""
from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from webtools import READY, chromium, free_port, rss_mb, start_app  # noqa: E402


def main() -> None:
    port = free_port()
    url = f"http://127.0.0.1:{port}/"
    print(f"load average before: {os.getloadavg()[0]:.2f} (2 cores)")
    with chromium() as browser:
        t0 = time.perf_counter()
        proc = start_app(port)
        try:
            t_server = time.perf_counter() - t0
            ctx = browser.new_context(viewport={"width": 1280, "height": 720})
            page = ctx.new_page()
            page.goto(url + "?classroom=1&stage=21")
            page.wait_for_function("window.__xslPlayer && window.__xslPlayer.stats().frames > 0", timeout=120000,
                                   polling=10)
            t_paint = time.perf_counter() - t0
            page.wait_for_function(READY, timeout=120000)
            print(f"start → server ready: {t_server:.2f} s; start → first 3D paint: {t_paint:.2f} s")

            # stage jumps: keydown → the frame after the new stage's pose is drawn
            page.evaluate("""() => { window.__jumps = []; window.addEventListener('keydown', (e) => {
                if (e.key !== 'PageDown') return; const t0 = performance.now();
                requestAnimationFrame(() => requestAnimationFrame(() => window.__jumps.push(performance.now() - t0))); }, true); }""")
            page.evaluate("window.__xslPlayer.gotoStage(14)")
            for _ in range(10):
                page.keyboard.press("PageDown")
                page.wait_for_timeout(250)
            jumps = page.evaluate("window.__jumps")
            print(f"stage jump (keydown → new picture on screen): median {statistics.median(jumps):.0f} ms, "
                  f"max {max(jumps):.0f} ms over {len(jumps)} jumps (goal ≤ 150 ms)")

            box = page.locator("#xsl-view").bounding_box()
            page.evaluate("window.__xslPlayer.gotoStage(21); window.__xslPlayer.setSpeed(8); window.__xslPlayer.play()")
            page.wait_for_timeout(500)
            f0 = page.evaluate("window.__xslPlayer.stats().frames")
            page.wait_for_timeout(5000)
            f1 = page.evaluate("window.__xslPlayer.stats().frames")
            page.evaluate("window.__xslPlayer.pause()")
            print(f"playback at 8× in §21, view {box['width']:.0f}×{box['height']:.0f}: "
                  f"{(f1 - f0) / 5.0:.1f} fps over 5 s (goal ≥ 30); load {os.getloadavg()[0]:.2f}")

            one = rss_mb(proc.pid)
            pages = []
            for _ in range(9):
                p = ctx.new_page()
                p.goto(url)
                pages.append(p)
            for p in pages:
                p.wait_for_function(READY, timeout=180000)
            time.sleep(1.0)
            ten = rss_mb(proc.pid)
            print(f"server memory: {one:.0f} MB with 1 tab, {ten:.0f} MB with 10 tabs "
                  f"({(ten - one) / 9:.1f} MB per extra tab)")
            ctx.close()
        finally:
            proc.terminate()
            proc.wait(10)


if __name__ == "__main__":
    main()
