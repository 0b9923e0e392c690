"""What each frame of the player draws, in real headless Chromium on llvmpipe: the adaptive render scale
(assets/web/adaptive.js) — fewer pixels when frames come more slowly than the budget, said on the 畫質 line,
undone with room to spare, kept with ?adaptive=0 — and the labels over the heads of kneeling and bowing men."""
from __future__ import annotations

import pytest
import webtools

from scene.web.pack import shipped

_why = webtools.chromium_missing_reason()
if _why:
    pytest.skip(f"browser tests need Chromium: {_why}", allow_module_level=True)

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.timing]   # the adaptive ladder reads frame times


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """The default pack (the shipped one when current, else built) and the shipped font (the glyphs these
    tests read are there whatever the page's scripts say), served."""
    d = tmp_path_factory.mktemp("pack")
    if shipped.current("pack") is not None:
        for f in (shipped.PREBUILT / "pack-zheng").iterdir():
            (d / f.name).symlink_to(f)
    else:
        from scene.web.pack import write_pack
        write_pack(d)
    (d / "font").symlink_to(shipped.PREBUILT / "webfont")
    with webtools.site(d) as (_root, url), webtools.chromium() as browser:
        yield browser, url


def _open(browser, url, query):
    page = browser.new_page(viewport={"width": 1280, "height": 720})
    page.goto(f"{url}player.html{query}")
    page.wait_for_function("document.body.dataset.ready", timeout=90_000)
    return page


def _buffer_width(page) -> int:
    return page.evaluate("window.__xslPlayer.renderer.domElement.width")


def test_slow_frames_lower_the_render_scale_and_the_line_says_so(served):
    """A budget no machine meets (1 ms a frame): playing steps down the whole ladder — fewer pixels drawn in
    the same CSS box, then the contact shadows off — and the 畫質 line names what it did."""
    browser, url = served
    page = _open(browser, url, "?stage=21&adaptive_budget=1")
    try:
        full = _buffer_width(page)
        css = page.evaluate("window.__xslPlayer.renderer.domElement.clientWidth")
        assert full == css == 1280
        page.evaluate("(() => { const p = window.__xslPlayer; p.setSpeed(8); p.play(); })()")
        page.wait_for_function("window.__xslPlayer.adaptive.level >= 5", timeout=60_000, polling=100)
        a = page.evaluate("(() => { const p = window.__xslPlayer; return {level: p.adaptive.level,"
                          " contact: p.contact ? p.contact.mesh.visible : null,"
                          " css: p.renderer.domElement.clientWidth}; })()")
        assert _buffer_width(page) == 640                     # 50 % of 1280: a quarter of the pixels
        assert a["css"] == 1280                               # the picture keeps its size on the page
        assert a["contact"] in (False, None)
        line = page.evaluate("document.getElementById('xsl-quality-info').textContent")
        assert "adaptive: render scale 50 %" in line and "contact shadows off" in line, line
    finally:
        page.close()


def test_room_to_spare_raises_it_again_and_adaptive_0_keeps_the_full_picture(served):
    """Down at 1 ms, then a budget every frame meets (1 s): three good windows in a row take a step back up.
    With ?adaptive=0 the same impossible budget changes nothing."""
    browser, url = served
    page = _open(browser, url, "?stage=21&adaptive_budget=1")
    try:
        page.evaluate("(() => { const p = window.__xslPlayer; p.setSpeed(8); p.play(); })()")
        page.wait_for_function("window.__xslPlayer.adaptive.level >= 2", timeout=60_000, polling=100)
        low = page.evaluate("window.__xslPlayer.adaptive.level")
        # a frame every ≤ 22 ms is room to spare: pretend the machine became fast by feeding the controller
        # 16.7-ms intervals (the real ones on a loaded CI machine may be anything)
        page.evaluate("""(() => { const a = window.__xslPlayer.adaptive; a.budget = 1000; a.enabled = true;
            let t = performance.now(); a.lastDraw = 0;
            for (let i = 0; i < 20 * 3 + 1; i++) { a.onDrawn(t); t += 16.7; } })()""")
        assert page.evaluate("window.__xslPlayer.adaptive.level") == low - 1
    finally:
        page.close()
    off = _open(browser, url, "?stage=21&adaptive=0&adaptive_budget=1")
    try:
        off.evaluate("(() => { const p = window.__xslPlayer; p.setSpeed(8); p.play(); })()")
        off.wait_for_timeout(3000)
        assert off.evaluate("window.__xslPlayer.adaptive.level") == 0
        assert _buffer_width(off) == 1280
        assert "adaptive off" in off.evaluate("document.getElementById('xsl-quality-info').textContent")
    finally:
        off.close()


def test_a_kneeling_or_bowing_mans_label_stays_over_his_head(served):
    """§4 賓答再拜: while the 主人 and the 賓 bow their labels come down with them — the label's foot is within
    a few pixels of the top of the figure drawn, not at a standing man's height above it."""
    browser, url = served
    page = _open(browser, url, "?stage=4&view=auto")
    try:
        got = page.evaluate("""(() => {
          const p = window.__xslPlayer, THREE_V = p._v.constructor;
          const bin = p.actorById.get('bin');
          // the first moment of §4 at which the 賓 is drawn bowing
          const st = p.stages.find((s) => s.n === 4);
          let t = null;
          for (let x = st.start; x < st.end; x += 0.25) { if (bin.posture.at(x) === 'bow' && bin.visible.at(x)) { t = x; break; } }
          if (t === null) return null;
          p.setTime(t); p._applyPose(); p._updateLabels();
          const mesh = bin.cur; mesh.geometry.computeBoundingBox();
          const top = mesh.geometry.boundingBox.max.z, stand = bin.label_z;
          return {t, posture: bin.postureNow, anchor_dz: bin.label.anchor.z - bin.xyzh[2], top, stand};
        })()""")
        assert got is not None, "the 賓 never bows in §4"
        assert got["posture"] == "bow"
        assert abs(got["anchor_dz"] - (got["top"] + 0.15)) < 0.01, got      # over the bowed figure
        assert got["anchor_dz"] < got["stand"] - 0.5, got                   # not at standing height
    finally:
        page.close()
