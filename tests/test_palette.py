"""The Okabe–Ito role palette (assets/web/palette.js, key O, the 色 button, ?palette=okabe-ito) in real headless
Chromium: the pixels of a role's robe change to the palette's colour under the same light, nothing else in
the picture changes, the address remembers it, and O again restores the cast's colours."""
from __future__ import annotations

import math

import numpy as np
import pytest
import webtools

_why = webtools.chromium_missing_reason()
if _why:
    pytest.skip(f"browser tests need Chromium: {_why}", allow_module_level=True)

VERMILLION = (0xD5, 0x5E, 0x00)      # Okabe–Ito's, for the 主人 (palette.js ROLE_GROUPS)


def _rgb(h: str) -> np.ndarray:
    return np.array([int(h[k:k + 2], 16) for k in (1, 3, 5)], float)


@pytest.mark.slow
@pytest.mark.browser
def test_o_recolours_the_zhuren_with_okabe_ito_vermillion(tmp_path, pack_dir):
    from scene.rite.cache import load_rite
    rite = load_rite()
    pack = pack_dir                       # the session's pack (conftest.py)
    st = next(s for s in rite.stages if s.n == 5)     # on the 堂, nobody within 3 m of him
    t = st.start_s + 1.0
    pose = rite.pose_at(t)
    i = rite.actor_ids.index("zhuren")
    x, y, z = pose.actor_xyz_m[i]
    h = math.radians(pose.heading_deg[i])
    fwd = np.array([math.sin(h), math.cos(h)])
    # a camera 1.8 m in front of him, looking at his chest (nobody stands between)
    x, y, z = float(x), float(y), float(z)
    cam = {"position": [x + 1.8 * float(fwd[0]), y + 1.8 * float(fwd[1]), z + 1.35], "focal_point": [x, y, z + 1.15],
           "view_up": [0, 0, 1], "view_angle": 40.0, "parallel": False, "parallel_scale": 1.0}
    cast = _rgb(next(a.colour for a in rite.choreography.actors.values() if a.id == "zhuren"))
    P = "window.__xslPlayer"
    with webtools.site(pack) as (_, url), webtools.chromium() as b:
        page = b.new_page(viewport={"width": 960, "height": 540})
        errors = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        # adaptive=0: the render scale stays whole — a loaded machine lowering it between two screenshots
        # would change every pixel that these comparisons read
        page.goto(f"{url}player.html?adaptive=0")
        page.wait_for_function("document.body.dataset.ready", timeout=120_000)
        settle = f"() => {P}.nextFrame().then(() => new Promise(requestAnimationFrame)).then(() => {P}.nextFrame())"
        page.evaluate(f"() => {{ {P}.setView('overview'); {P}.setLabels(false); {P}.setTime({t}); }}")
        page.evaluate(settle)
        # the camera held there (free: the stage presets leave it alone)
        page.evaluate(f"(cam) => {{ {P}.applyCamera(cam); {P}.free = true; }}", cam)
        page.evaluate(settle)
        # where his chest is on the screen (the page's own camera)
        sx, sy = page.evaluate(f"""([x, y, z]) => {{ const p = {P}; p.cam.updateMatrixWorld();
            const v = p.cam.position.clone().set(x, y, z).project(p.cam);
            return [Math.round((v.x + 1) / 2 * p._w), Math.round((1 - v.y) / 2 * p._h)]; }}""", [x, y, z + 1.3])
        before = webtools.screenshot(page).astype(float)
        webtools.save_png(before.astype(np.uint8), tmp_path / "palette-off.png")
        page.keyboard.press("o")
        page.evaluate(settle)
        after = webtools.screenshot(page).astype(float)
        webtools.save_png(after.astype(np.uint8), tmp_path / "palette-on.png")
        assert page.evaluate("document.querySelector('.xsl-palette').getAttribute('aria-pressed')") == "true"
        assert page.evaluate("document.querySelector('.xsl-palette-legend').style.display") == ""
        assert "palette=okabe-ito" in page.evaluate("location.search")
        # the robe at his chest: lit cast colour before, the same light on vermillion after
        box = (slice(sy - 3, sy + 4), slice(sx - 3, sx + 4))
        b0, a0 = before[box].reshape(-1, 3).mean(0), after[box].reshape(-1, 3).mean(0)
        gain = b0 / cast                                        # the baked light at that spot, per channel
        want = np.minimum(255, np.array(VERMILLION) * gain)
        assert np.abs(b0 - a0).max() > 25, (b0, a0)             # it changed …
        assert np.abs(a0 - want).max() < 14, (a0, want, b0)     # … to the palette's colour under the same light
        # only people changed: the picture away from him is the same
        changed = np.abs(after - before).max(2) > 24
        ys, xs = np.nonzero(changed)
        assert changed.sum() > 200
        assert changed.mean() < 0.2
        # O again: the cast's colours, and the address forgets it
        page.keyboard.press("o")
        page.evaluate(settle)
        again = webtools.screenshot(page).astype(float)
        assert (np.abs(again - before).max(2) > 24).mean() < 0.001
        assert "palette" not in page.evaluate("location.search")
        # the address opens with it
        page.goto(f"{url}player.html?palette=okabe-ito")
        page.wait_for_function("document.body.dataset.ready", timeout=120_000)
        assert page.evaluate("document.querySelector('.xsl-palette').getAttribute('aria-pressed')") == "true"
        bad = b.new_page(viewport={"width": 960, "height": 540})
        bad.goto(f"{url}player.html?palette=rainbow")
        bad.wait_for_function("document.body.dataset.ready", timeout=120_000)
        assert "palette=rainbow" in bad.evaluate("document.getElementById('xsl-message').textContent")
        assert not errors, errors
