"""The browser app (``python app.py``) in a real headless Chromium: one server for the module,
a fresh page per test. Pixels are looked at, not trusted."""
from __future__ import annotations

import io
import socket
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import webtools
from webtools import (
    OTHER_READING,
    READY,
    RequestRecorder,
    chromium,
    chromium_missing_reason,
    diff_fraction,
    distinct_colours,
    free_port,
    ink,
    screenshot,
)

ROOT = Path(__file__).resolve().parents[1]
pytestmark = [pytest.mark.skipif(chromium_missing_reason() is not None, reason=str(chromium_missing_reason())),
              pytest.mark.browser, pytest.mark.slow]


@pytest.fixture(scope="module")
def browser():
    with chromium() as b:
        yield b


@pytest.fixture
def page(browser):
    ctx = browser.new_context(viewport={"width": 1600, "height": 900}, accept_downloads=True)
    pg = ctx.new_page()
    pg.errors = []
    pg.on("pageerror", lambda e: pg.errors.append(str(e)))
    yield pg
    ctx.close()


def open_app(page, url: str, query: str = ""):
    rec = RequestRecorder(page)
    page.goto(url + query)
    page.wait_for_function(READY, timeout=60000)
    page.wait_for_timeout(300)
    return rec


def st(page, key: str):
    return page.evaluate(f"window.trame.state.get({key!r})")


def view_img(page) -> np.ndarray:
    box = page.locator("#xsl-view").bounding_box()
    return screenshot(page, {"x": box["x"], "y": box["y"], "width": box["width"], "height": box["height"]})


# ---------------------------------------------------------------------------

def test_page_loads_with_a_drawn_scene_and_makes_no_foreign_request(page, app_url):
    rec = open_app(page, app_url)
    img = view_img(page)
    assert img.shape[0] > 400 and img.shape[1] > 600
    assert distinct_colours(img) > 200                # a lit scene, not a cleared canvas
    assert ink(img) > 0.2 * img.shape[0] * img.shape[1]
    assert st(page, "stage_n") == 1 and "戒賓" in page.inner_text("#xsl-stage-title")
    assert len(page.locator("#xsl-nav .xsl-nav-item").all()) == 51
    assert rec.urls and not rec.foreign, rec.foreign
    assert not page.errors, page.errors


def test_chinese_renders_as_glyphs_in_panels_and_labels(page, app_url):
    open_app(page, app_url)
    page.evaluate("document.fonts.ready")
    assert page.evaluate("document.fonts.check('19px XSLCJK', '鄉射之禮')")
    # the same text drawn with the shipped font and with none: boxes (tofu) would look alike
    same = page.evaluate("""() => {
        const draw = (fam) => { const c = document.createElement('canvas'); c.width = 200; c.height = 40;
            const g = c.getContext('2d'); g.font = `28px ${fam}`; g.fillText('堂侯乏', 4, 32); return c.toDataURL(); };
        return draw('XSLCJK') === draw('NoSuchFontAnywhere'); }""")
    assert not same
    label = page.locator(".xsl-label", has_text="西階").first
    label.wait_for(state="visible")
    box = label.bounding_box()
    crop = screenshot(page, {"x": box["x"], "y": box["y"], "width": box["width"], "height": box["height"]})
    assert ink(crop, tol=60) > 20                     # dark strokes on the label's light ground
    assert "鄉射之禮" in page.inner_text("#xsl-jing")


def test_keyboard_changes_stage_step_and_picture(page, app_url):
    open_app(page, app_url)
    before = view_img(page)
    page.keyboard.press("PageDown")
    page.wait_for_function("window.trame.state.get('stage_n') === 2")
    assert "陳設" in page.inner_text("#xsl-stage-title")
    for n in (3, 4, 5):                               # by §5 (主人獻賓) the guest is in and the cast has moved
        page.keyboard.press("PageDown")
        page.wait_for_function(f"window.trame.state.get('stage_n') === {n}")
    # the director's camera eases into the stage's shot (and on a slow machine the adaptive scale settles):
    # within a few seconds the picture is still, and stays so
    after, again = view_img(page), None
    for _ in range(20):
        page.wait_for_timeout(300)
        again = view_img(page)
        if diff_fraction(after, again) < 0.0005:
            break
        after = again
    assert diff_fraction(after, again) < 0.0005               # a still picture does not change by itself
    assert diff_fraction(before, after) > 0.003               # the small figures of a whole-court view moved
    t0 = st(page, "t")
    page.keyboard.press("ArrowRight")
    page.wait_for_function(f"window.trame.state.get('t') > {t0}")
    page.keyboard.press("PageUp")                     # mid-stage: back to the start of this stage (§5) …
    start5 = page.evaluate("window.__xslPlayer.pack.stages.find(s => s.n === 5).start")
    page.wait_for_function(f"Math.abs(window.trame.state.get('t') - {start5}) < 0.06")
    assert st(page, "stage_n") == 5
    page.keyboard.press("PageUp")                     # … at its start: the previous stage
    page.wait_for_function("window.trame.state.get('stage_n') === 4")
    page.keyboard.press("4")                          # the fourth named view: plan
    page.wait_for_function("window.trame.state.get('view') === 'plan'")


def test_opens_on_the_directors_camera_and_stage_jumps_keep_it(page, app_url):
    """The app opens on the director's establishing shot (view=auto in the address), the 主人 framed large;
    PageDown keeps the director's camera; a named view chosen is kept through stage jumps."""
    open_app(page, app_url)
    P = "window.__xslPlayer"
    D = f"{P}.extensions.find((x) => x.track !== undefined && x.enable)"
    page.wait_for_function("location.search.includes('view=auto')")
    assert st(page, "view") == "auto" and page.evaluate(f"{D}.on")

    def on_track():
        page.evaluate(f"() => {P}.nextFrame().then(() => new Promise(requestAnimationFrame))")
        cam, want = page.evaluate(f"() => [{P}.camera(), {D}.at({P}.t)]")
        return np.allclose(cam["position"], want["position"], atol=0.02)
    assert on_track()
    # the 主人 in the opening shot: inside the picture and at least 6 % of its height
    z = page.evaluate(f"""() => {{ const p = {P}, A = p.actorById.get('zhuren'); const o = new Float32Array(4);
        A.track.at(p.t, o); p.cam.updateMatrixWorld();
        const f = p.cam.position.clone().set(o[0], o[1], o[2]).project(p.cam);
        const h = p.cam.position.clone().set(o[0], o[1], o[2] + 1.6).project(p.cam);
        return [f.x, f.y, h.x, h.y]; }}""")
    assert all(abs(c) <= 1 for c in z) and (z[3] - z[1]) / 2 >= 0.06, z
    for n in (2, 3):
        page.keyboard.press("PageDown")
        page.wait_for_function(f"window.trame.state.get('stage_n') === {n}")
        assert st(page, "view") == "auto" and on_track()
    page.keyboard.press("4")                          # plan: chosen by the user, kept through a stage jump
    page.wait_for_function("window.trame.state.get('view') === 'plan'")
    page.keyboard.press("PageDown")
    page.wait_for_function("window.trame.state.get('stage_n') === 4")
    page.wait_for_timeout(300)
    assert st(page, "view") == "plan" and not page.evaluate(f"{D}.on")
    assert not page.errors, page.errors


def test_text_panel_highlights_the_phrase_and_switches_script(page, app_url):
    open_app(page, app_url, "?stage=21&t=30")
    hit = page.inner_text("#xsl-hit")
    assert hit and hit in page.inner_text("#xsl-jing")
    assert hit == st(page, "step_phrase")
    trad = page.inner_text("#xsl-jing")
    page.click("#xsl-lang-simp")
    page.wait_for_function("window.trame.state.get('lang') === 'simp'")
    simp = page.inner_text("#xsl-jing")
    assert simp != trad and len(simp) == len(trad)
    page.click("#xsl-notes-switch")
    assert page.locator("#xsl-notes .xsl-note").count() > 0


def test_reading_switch_moves_the_fa_and_leaves_a_ghost(page, app_url):
    open_app(page, app_url, "?stage=21")
    fa = "window.__xslPlayer.pack.places.find(p => p.id === 'range.fa').xyz_m"
    before = page.evaluate(fa)
    img0 = view_img(page)
    page.click("#tab-reading")
    page.click("#rf-fa_west_from", force=True)
    page.locator(".v-overlay .v-list-item", has_text="左个").click()
    page.wait_for_function(f"window.trame.state.get('reading_q') === '{OTHER_READING}'", timeout=120000)
    after = page.evaluate(fa)
    assert after[0] < before[0] - 1.0                  # 西五步 from the 左个, not from the 侯道: further west
    assert abs(after[1] - before[1]) < 1e-6
    assert st(page, "ghost") is True
    page.wait_for_timeout(300)
    assert diff_fraction(img0, view_img(page)) > 0.002
    assert "fa_west_from" in page.url


def test_a_page_standing_still_draws_nothing_and_animates_nothing(page, app_url):
    """A class paused on a moment: the page draws no frame, re-places no caption band and runs no animation (a
    school laptop without a GPU pays every frame on its CPU: a page standing still once redrew 60 times a
    second — the director applying its camera again, the caption bands placed again — and kept 1.4 cores of
    Chromium busy); a PageDown draws again."""
    open_app(page, app_url, "?stage=21")
    page.wait_for_timeout(500)
    still = page.evaluate("""() => new Promise((done) => {
      const P = window.__xslPlayer, f0 = P._frameCount;
      let writes = 0;
      const seen = new MutationObserver((m) => { writes += m.length; });
      for (const el of document.querySelectorAll('.xsl-caption, .xsl-lesson-caption')) {
        seen.observe(el, { attributes: true, attributeFilter: ['style'] });
      }
      setTimeout(() => { seen.disconnect(); done({ frames: P._frameCount - f0, writes,
        bands: document.querySelectorAll('.xsl-caption').length,
        running: document.getAnimations().filter((a) => a.playState === 'running').length }); }, 2000);
    })""")
    assert still == {"frames": 0, "writes": 0, "bands": 1, "running": 0}, still
    f0 = page.evaluate("window.__xslPlayer._frameCount")
    page.keyboard.press("PageDown")
    page.wait_for_function(f"window.__xslPlayer._frameCount > {f0} && window.__xslPlayer.state().stage === 22")


def test_deep_link_restores_stage_time_and_view(page, app_url):
    open_app(page, app_url, "?stage=21&t=12.5&view=plan")
    assert st(page, "stage_n") == 21 and st(page, "view") == "plan"
    start = page.evaluate("window.__xslPlayer.pack.stages.find(s => s.n === 21).start")
    assert abs(st(page, "t") - (start + 12.5)) < 0.11
    assert "三耦射" in page.inner_text("#xsl-stage-title")
    assert not page.locator("#xsl-message").count()
    url = page.evaluate("window.xsl.copyLink()")
    assert "stage=21" in url and "view=plan" in url


def test_bad_parameters_show_a_message_and_the_default_state(page, app_url):
    open_app(page, app_url, "?stage=999&view=sideways&t=abc&colour=red&reading=nosuch")
    msg = page.inner_text("#xsl-message")
    for part in ("stage=999", "view=sideways", "t=abc", "'colour'", "nosuch"):
        assert part in msg, msg
    assert st(page, "stage_n") == 1 and st(page, "view") == "auto"        # the default: the director's camera
    assert distinct_colours(view_img(page)) > 200


def test_classroom_mode_hides_controls_and_keeps_the_keys(page, app_url):
    open_app(page, app_url, "?classroom=1&stage=21")
    for sel in ("#xsl-timeline", "#xsl-nav", "#xsl-panels", "#xsl-tools"):
        assert page.locator(sel).count() == 0, sel
    cap = page.locator("#xsl-class-phrase")
    assert float(cap.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")) >= 32
    title_px = page.locator(".xsl-class-title").evaluate("e => parseFloat(getComputedStyle(e).fontSize)")
    assert title_px >= 32
    # the view fills the window above the class band, which is reserved (no acting person under it)
    box, band = page.locator("#xsl-view").bounding_box(), page.locator("#xsl-class-caption").bounding_box()
    assert box["width"] >= 1595 and abs(box["y"] + box["height"] - band["y"]) <= 1, (box, band)
    assert box["y"] <= 1 and box["height"] + band["height"] >= 899 and band["height"] <= 0.2 * 900, (box, band)
    p0 = page.inner_text("#xsl-class-phrase")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    page.wait_for_timeout(200)
    assert page.inner_text("#xsl-class-phrase") != p0 or st(page, "t") > 0
    page.keyboard.press("l")
    page.wait_for_function("window.trame.state.get('labels') === false")
    page.keyboard.press("Escape")
    page.wait_for_selector("#xsl-timeline")


def test_export_png_downloads_the_asked_size(page, app_url):
    from PIL import Image
    open_app(page, app_url, "?stage=21&view=hall")
    page.click("#xsl-export-menu")
    with page.expect_download(timeout=120000) as dl:
        page.click("#xsl-export-1080p")
    img = Image.open(io.BytesIO(Path(dl.value.path()).read_bytes()))
    assert img.size == (1920, 1080)
    arr = np.asarray(img.convert("RGB"))
    assert distinct_colours(arr[:900]) > 500


def test_two_tabs_do_not_disturb_each_other(browser, app_url):
    ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    a, b = ctx.new_page(), ctx.new_page()
    open_app(a, app_url)
    open_app(b, app_url)
    a.keyboard.press("PageDown")
    a.keyboard.press("PageDown")
    a.wait_for_function("window.trame.state.get('stage_n') === 3")
    a.evaluate(f"window.xsl.loadReading('{OTHER_READING}')")       # (webtools: built once in the suite)
    a.wait_for_function(f"window.trame.state.get('reading_q') === '{OTHER_READING}'", timeout=120000)
    b.wait_for_timeout(500)
    assert st(b, "stage_n") == 1 and st(b, "reading_q") == "zheng"
    assert b.evaluate("window.__xslPlayer.pack.reading.name") == "zheng"
    ctx.close()


def test_busy_port_is_one_line():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        r = subprocess.run([sys.executable, "app.py", "--port", str(port)], cwd=ROOT, capture_output=True,
                           text=True, timeout=120)
    assert r.returncode == 2
    err = r.stderr.strip()
    assert len(err.splitlines()) == 1 and str(port) in err and "Traceback" not in r.stderr


def test_bad_reading_at_start_is_one_line():
    r = subprocess.run([sys.executable, "app.py", "--port", str(free_port()), "--reading", "zheng,bu_chi=7"],
                       cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert r.returncode == 2
    assert len(r.stderr.strip().splitlines()) == 1 and "bu_chi" in r.stderr


def test_inspector_shows_provenance_of_a_place_and_a_person(page, app_url):
    open_app(page, app_url, "?stage=5&view=hall")
    page.locator(".xsl-label", has_text="西階").first.click()
    page.wait_for_function("window.trame.state.get('inspect') !== null")
    assert st(page, "right_tab") == "inspect"
    title = page.inner_text("#xsl-inspect-title")
    rows = page.inner_text("#xsl-inspect")
    # a catalogue entry (issue 27): the name, not the id; the text that places it, its arithmetic, where in 尺
    assert "西階" in title and "hall.west_steps" not in title
    assert "經 the text" in rows and "算 arithmetic" in rows and "位 where" in rows and "尺" in rows
    place = page.evaluate("window.__xslPlayer.pack.places.find(p => p.id === 'hall.west_steps')")
    assert place["derivation"][:20] in rows
    # a person: the 主人's label → his role, position now, and the sentence he is acting
    page.locator(".xsl-label", has_text="主人").first.click()
    page.wait_for_function("(window.trame.state.get('inspect') || {}).title.includes('主人')")
    rows = page.inner_text("#xsl-inspect")
    assert "職 role" in rows or "今 now" in rows
    assert "今 now" in rows and "容 posture shown" in rows and "面 faces" in rows


def test_the_inspector_prints_the_sheet_of_the_selected_role(page, app_url):
    """Select the 主人 in the view → 'print the sheet of this role' → his booklet as a PDF download."""
    from pypdf import PdfReader
    open_app(page, app_url, "?stage=5&view=hall")
    page.locator(".xsl-label", has_text="主人").first.click()
    page.wait_for_function("((window.trame.state.get('inspect') || {}).actor) === 'zhuren'")
    with page.expect_download(timeout=120000) as dl:
        page.click("#xsl-print-sheet")
    pdf = PdfReader(dl.value.path())
    from scene.rite.cache import load_rite
    rite = load_rite()
    named = {sp.section for sp in rite.spans if "zhuren" in sp.who}
    assert len(pdf.pages) >= len(named) + 1          # the cover and at least every stage he is named in
    assert dl.value.suggested_filename.startswith("xiangsheli-sheet-zhuren")
    # a place has no sheet: the button is not offered
    page.locator(".xsl-label", has_text="西階").first.click()
    page.wait_for_function("(window.trame.state.get('inspect') || {}).title.includes('西階')")
    assert page.locator("#xsl-print-sheet").count() == 0


def test_quality_select_in_the_toolbar_switches_the_tier_at_the_same_moment(page, app_url):
    """The app's 畫質 select (per browser, localStorage): the line under the toolbar names the tier in use, why
    and the WebGL renderer (llvmpipe: fast); choosing 高 reloads the app at the same stage and time in the high
    tier; 自動 returns to the fast path."""
    open_app(page, app_url, "?stage=21&t=30&view=hall")
    page.evaluate("localStorage.removeItem('xsl-quality')")
    assert page.is_visible("#xsl-quality") and page.evaluate("window.trame.state.get('quality_pick')") == "auto"
    page.wait_for_function("document.getElementById('xsl-quality-info').textContent.length > 0")
    assert not page.is_visible("#xsl-quality-info")          # on demand only (issue 42): ⓘ shows it
    page.click("#xsl-quality-why")
    line = page.inner_text("#xsl-quality-info")
    assert line.startswith("in use: fast") and "software GL" in line and "llvmpipe" in line.lower(), line
    with page.expect_navigation(timeout=60000):
        webtools.choose_vuetify(page, "#xsl-quality", "高 high")
    page.wait_for_function(READY, timeout=60000)
    page.wait_for_function("window.__xslPlayer && window.__xslPlayer.quality().tier === 'high'", timeout=60000)
    assert page.evaluate("localStorage.getItem('xsl-quality')") == "high"
    assert page.evaluate("window.__xslPlayer.renderer.getContext().getContextAttributes().antialias") is True
    page.wait_for_function("document.getElementById('xsl-quality-info').textContent.startsWith('in use: high')")
    assert "forced high" in page.inner_text("#xsl-quality-info")
    stage, into = page.evaluate("(() => { const p = window.__xslPlayer, s = p.state();"
                                " return [s.stage, s.t - p.pack.stages.find((x) => x.n === s.stage).start]; })()")
    assert stage == 21 and abs(into - 30.0) < 1.0, (stage, into, page.url)
    with page.expect_navigation(timeout=60000):
        webtools.choose_vuetify(page, "#xsl-quality", "自動 auto")
    page.wait_for_function(READY, timeout=60000)
    page.wait_for_function("window.__xslPlayer && window.__xslPlayer.quality().tier === 'fast'", timeout=60000)
    page.evaluate("localStorage.removeItem('xsl-quality')")
    assert not page.errors, page.errors
