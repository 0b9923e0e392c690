"""The remote view's frame rate (issue 42: without WebGL the class sees the rite move), at 1280×720.

1. The server alone: ``scene.web.remote.render_frame`` — the stills' Studio posing the figures at t, rendering
   (llvmpipe, no MSAA) and encoding a JPEG — for §21 playing at 8× (t advancing 1/3 s of rite a frame), from
   the director's camera and from a fixed (orbited) camera; frames/s and the split of a frame's time.
2. (--browser) Through the page: the app started, Chromium without WebGL (tests/webtools.launch_args
   (webgl=False)) at 1280×720 on ``?stage=21``, Space, the frames the page shows in 20 s of play.

    PYTHONPATH=. python bench/bench_remote.py [--browser]

The load average is printed beside the figures: on a shared machine they scale with it.
"""
from __future__ import annotations

import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))


def server_side(n: int = 20) -> None:
    import cProfile
    import pstats

    from scene.rite.cache import load_rite
    from scene.web.remote import render_frame
    rite = load_rite("zheng")
    st = next(s for s in rite.stages if s.n == 21)
    t = st.start_s + 280.0
    a = time.perf_counter()
    first = render_frame("zheng", t, "auto", None, True, "cutaway")
    print(f"first frame (the Studio built): {time.perf_counter() - a:.2f} s; a frame is {len(first['jpeg']) * 3 // 4 // 1024} kB")
    for label, cam in (("director's camera", None), ("a fixed camera", first["camera"])):
        ts = []
        prof = cProfile.Profile()
        prof.enable()
        for k in range(n):
            a = time.perf_counter()
            render_frame("zheng", t + k / 3.0, "auto", cam, True, "cutaway")
            ts.append(time.perf_counter() - a)
        prof.disable()
        s = sum(ts)
        stats = pstats.Stats(prof)
        part = {name: sum(v[3] for k, v in stats.stats.items() if k[2] == name or f"'{name}'" in k[2])
                for name in ("build_dynamic", "camera", "Render", "save")}
        print(f"server, {label}: {n} frames in {s:.1f} s = {n / s:.2f} frames/s "
              f"(median {sorted(ts)[n // 2] * 1000:.0f} ms; per frame: figures and things "
              f"{part['build_dynamic'] / n * 1000:.0f} ms, the camera {part['camera'] / n * 1000:.0f} ms, VTK render {part['Render'] / n * 1000:.0f} ms, "
              f"JPEG {part['save'] / n * 1000:.0f} ms)")


def things_remembered(n: int = 20) -> None:
    """The figures and things of a frame built with the meshes of held and stored things remembered (as the
    remote view does) and with those caches emptied before each frame (as before session 4),
    interleaved in one run so that the machine's load falls on both alike."""
    from scene.render import meshes
    from scene.render.meshes import props
    from scene.rite.cache import load_rite
    rite = load_rite("zheng")
    st = next(s for s in rite.stages if s.n == 21)
    t = st.start_s + 280.0
    caches = (props._bow_turned, props._bow_stored, props._vanes)   # (dynamic._thing was remembered before)
    meshes.build_dynamic(rite, rite.pose_at(t))
    kept, emptied = [], []
    for k in range(n):
        pose = rite.pose_at(t + k / 3.0)
        a = time.perf_counter()
        meshes.build_dynamic(rite, pose)
        kept.append(time.perf_counter() - a)
        for c in caches:
            c.cache_clear()
        a = time.perf_counter()
        meshes.build_dynamic(rite, pose)
        emptied.append(time.perf_counter() - a)
    k_ms, e_ms = sorted(kept)[n // 2] * 1000, sorted(emptied)[n // 2] * 1000
    print(f"figures and things (§21 at 8x, median of {n}): remembered {k_ms:.0f} ms, rebuilt {e_ms:.0f} ms "
          f"(ratio {e_ms / k_ms:.2f})")


def through_the_page(seconds: float = 20.0) -> None:
    from playwright.sync_api import sync_playwright
    from webtools import CHROMIUM, READY, app_on_free_port, launch_args
    with app_on_free_port() as port, sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, headless=False, args=launch_args(webgl=False))
        try:
            page = b.new_page(viewport={"width": 1280, "height": 720})
            page.goto(f"http://127.0.0.1:{port}/?stage=21&t=280")
            page.wait_for_function(READY, timeout=240_000)
            page.wait_for_function("document.querySelector('img.xsl-nogl-still').naturalWidth > 0", timeout=240_000)
            page.keyboard.press("Space")
            page.wait_for_timeout(3000)              # the first frames of play
            n0 = page.evaluate("window.__xslPlayer.stats().frames")
            page.wait_for_timeout(int(seconds * 1000))
            n1 = page.evaluate("window.__xslPlayer.stats().frames")
            print(f"page (Chromium without WebGL, 1280x720, §21 playing at 1x): {n1 - n0} frames in {seconds:.0f} s "
                  f"= {(n1 - n0) / seconds:.2f} frames/s")
        finally:
            b.close()


def main() -> None:
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    things_remembered()
    server_side()
    if "--browser" in sys.argv:
        through_the_page()
    print(f"load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
