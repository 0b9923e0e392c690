"""Without WebGL, a real view (issue 42): the server renders the scene (scene/web/remote.py) and the page shows
its frames as the rite plays; a drag orbits and the wheel zooms.  Chromium launched without WebGL
(webtools.launch_args(webgl=False)), driven by keys and the mouse, read from the picture's pixels."""
from __future__ import annotations

import numpy as np
import pytest
from webtools import CHROMIUM, READY, app_on_free_port, chromium_missing_reason, diff_fraction, launch_args

pytestmark = [pytest.mark.browser, pytest.mark.slow,
              pytest.mark.skipif(chromium_missing_reason() is not None, reason=str(chromium_missing_reason()))]

IMG = "document.querySelector('img.xsl-nogl-still')"


def picture(page) -> np.ndarray:
    from io import BytesIO

    from PIL import Image
    return np.asarray(Image.open(BytesIO(page.locator("img.xsl-nogl-still").screenshot())).convert("RGB"))


def frames(page) -> int:
    return page.evaluate("window.__xslPlayer.stats().frames")


def test_without_webgl_the_rite_moves_and_orbits(tmp_path):
    from playwright.sync_api import sync_playwright
    with app_on_free_port() as port, sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, headless=False, args=launch_args(webgl=False))
        try:
            page = b.new_page(viewport={"width": 1280, "height": 720})
            errors: list[str] = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(f"http://127.0.0.1:{port}/?stage=21")
            page.wait_for_function(READY, timeout=180_000)
            assert page.evaluate("!!document.createElement('canvas').getContext('webgl')") is False
            # the first picture comes, and no error with it (it was "no still: Cannot read properties of null")
            page.wait_for_function(f"{IMG}.naturalWidth > 0 && {IMG}.dataset.t", timeout=120_000)
            status = page.inner_text(".xsl-nogl-status")
            assert "no still" not in status and "no frame" not in status and "Cannot read" not in status, status
            assert "Cannot read" not in (page.evaluate("window.trame.state.get('message')") or "")
            # it plays: the picture moves, frame after frame (not one still per stop)
            page.keyboard.press("Space")
            t0, n0, a = float(page.evaluate(f"{IMG}.dataset.t")), frames(page), picture(page)
            page.wait_for_timeout(8000)
            t1, n1, b_ = float(page.evaluate(f"{IMG}.dataset.t")), frames(page), picture(page)
            page.keyboard.press("Space")
            fps = (n1 - n0) / 8.0
            print(f"remote view while playing: {n1 - n0} frames in 8 s = {fps:.2f} frames/s")
            assert n1 - n0 >= 3, f"{n1 - n0} frames in 8 s of play"
            assert t1 > t0 and diff_fraction(a, b_) > 0.001
            # orbit: a drag across the picture turns the camera (a frame from the new camera comes)
            page.wait_for_timeout(1500)
            before, n = picture(page), frames(page)
            box = page.locator("img.xsl-nogl-still").bounding_box()
            cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
            page.mouse.move(cx, cy)
            page.mouse.down()
            page.mouse.move(cx + 200, cy + 40, steps=8)
            page.mouse.up()
            page.wait_for_function(f"window.__xslPlayer.stats().frames > {n} && window.__xslPlayer.free", timeout=30_000)
            page.wait_for_timeout(2500)
            orbited = picture(page)
            assert diff_fraction(before, orbited) > 0.05, "the drag did not turn the view"
            # zoom: the wheel brings the camera nearer
            cam0 = page.evaluate("window.__xslPlayer.camera()")
            n = frames(page)
            page.mouse.move(cx, cy)
            page.mouse.wheel(0, -600)
            page.wait_for_function(f"window.__xslPlayer.stats().frames > {n}", timeout=30_000)
            page.wait_for_timeout(2500)
            cam1 = page.evaluate("window.__xslPlayer.camera()")
            d = lambda c: float(np.linalg.norm(np.subtract(c["position"], c["focal_point"])))  # noqa: E731
            assert d(cam1) < 0.8 * d(cam0), (cam0, cam1)
            assert diff_fraction(orbited, picture(page)) > 0.05, "the wheel did not zoom"
            page.screenshot(path=str(tmp_path / "remote-view.png"))
            assert not errors, errors
        finally:
            b.close()
