"""The static page reads as a catalogue and in 简 (issue 27): the inspector of a person shooting says 射 and
his posture, of the 鹿中 what it is and the 記 passage of its place, of the ground its name; the 简 button turns
the stage list, the 經, the caption line, the labels and the inspector."""
from __future__ import annotations

import pytest
import webtools

pytestmark = [pytest.mark.browser, pytest.mark.slow,
              pytest.mark.skipif(webtools.chromium_missing_reason() is not None,
                                 reason=str(webtools.chromium_missing_reason()))]
P = "window.__xslPlayer"


@pytest.fixture(scope="module")
def page_url(tmp_path_factory):
    from scene.web import pack as webpack
    pack = tmp_path_factory.mktemp("catalogue") / "pack"
    webpack.write_pack(pack)
    webpack.write_font(pack / "font" / "cjk.otf")
    with webtools.site(pack) as (_, url):
        yield url + "player.html"


def settle(page):
    page.evaluate(f"() => {P}.nextFrame().then(() => new Promise(requestAnimationFrame))")


def test_the_inspector_reads_like_a_catalogue_entry_and_simp_turns_everything(page_url):
    from scene.text.script import to_simplified
    with webtools.chromium() as b:
        page = b.new_page(viewport={"width": 1280, "height": 720})
        errors = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(page_url + "?stage=21&view=range")
        page.wait_for_function("document.body.dataset.ready", timeout=120_000)
        # an archer while he shoots: the teacher clicks his label
        who = page.evaluate(f"""(() => {{ const p = {P}; const s = p.steps.find((x) => x.section === 21 && x.do === 'shoot');
            p.setTime(s.start + 1.0); return s.who[0]; }})()""")
        settle(page)
        box = page.evaluate(f"{P}.labelBox('actor', {who!r})")
        assert box and box["shown"], box
        page.mouse.click(box["x"] + box["w"] / 2, box["y"] + box["h"] / 2)
        info = page.inner_text("#xsl-info")
        name = page.evaluate(f"{P}.actorById.get({who!r}).name")
        assert name in info and "射 shoots" in info and "容 posture shown" in info, info
        assert "where he stands: where he stands" not in info
        assert info.count("where he stands:") <= 1, info
        # the 鹿中: what it is and the passage of its place
        page.evaluate(f"{P}._emitPick({P}.objectInfo('zhong'))")
        info = page.inner_text("#xsl-info")
        assert "tally holder" in info and "鹿中髤前足跪鑿背容八筭" in info and "記44" in info, info
        # the ground, by name
        page.evaluate(f"{P}._emitPick({P}.partInfo('ground.field', null))")
        info = page.inner_text("#xsl-info")
        assert "the ground of the court" in info and "ground.field" not in info, info
        page.evaluate(f"{P}._emitPick({P}.actorInfo({who!r}))")
        # 简: the stage list, the 經, the caption line, the labels, the inspector
        page.click("#xsl-lang")
        settle(page)
        title = page.evaluate(f"{P}.stages.find((x) => x.n === 21).title")
        assert page.inner_text("#xsl-stage-list li.current") == f"21　{to_simplified(title)}"
        jing = page.evaluate(f"{P}.pack.texts['21'].jing_s")
        assert page.inner_text("#xsl-jing") == jing
        band = page.evaluate("document.querySelector('.xsl-caption > div').innerText")
        assert band and band == to_simplified(band)
        labels = page.evaluate(f"{P}._labels.filter((L) => L.shown).map((L) => [L.text, L.el.textContent])")
        assert labels and all(shown == to_simplified(text) for text, shown in labels), labels
        assert to_simplified(name) in page.inner_text("#xsl-info h3")
        assert not errors, errors


PROJECT = f"""(() => {{
  const p = {P}, b = p.pack.bounds_m, out = [];
  for (const x of [b[0], b[1]]) for (const y of [b[2], b[3]]) {{
    const v = p._v.clone().set(x, y, 0).project(p.cam);
    out.push([(v.x + 1) / 2 * p._w, (1 - v.y) / 2 * p._h]);
  }}
  const band = document.querySelector('.xsl-caption');
  const r = band && band.style.display !== 'none' ? band.getBoundingClientRect() : null;
  const c = p.container.getBoundingClientRect();
  return {{corners: out, w: p._w, h: p._h, bandTop: r ? r.top - c.top : p._h}};
}})()"""


@pytest.mark.parametrize("w,h", [(1280, 720), (1920, 1080), (720, 1280)])
def test_the_plan_fits_the_court_to_the_frame_clear_of_the_captions(page_url, w, h, tmp_path):
    """The plan of the whole court (§21): its four corners inside the view and above the caption band, and the
    court large in the free part of the frame (its longer screen side ≥ 75 % of that side's room: the room kept
    for the caption band is for its longest lines, and this moment's may be shorter)."""
    with webtools.chromium() as b:
        page = b.new_page(viewport={"width": w, "height": h})
        page.goto(page_url + "?stage=21&view=plan")
        page.wait_for_function("document.body.dataset.ready", timeout=120_000)
        page.evaluate(f"{P}.setTime({P}.stages.find((s) => s.n === 21).start + 20)")
        settle(page)
        got = page.evaluate(PROJECT)
        xs = [c[0] for c in got["corners"]]
        ys = [c[1] for c in got["corners"]]
        assert min(xs) >= 0 and max(xs) <= got["w"] and min(ys) >= 0, got
        assert max(ys) <= got["bandTop"], f"the caption band (top {got['bandTop']:.0f}) is over the court: {got}"
        fill = max((max(xs) - min(xs)) / got["w"], (max(ys) - min(ys)) / got["bandTop"])
        webtools.save_png(webtools.screenshot(page), tmp_path / f"xsl-plan-{w}x{h}.png")
        assert fill >= 0.75, f"the court fills {fill:.0%} of the frame: {got}"
        print(f"{w}×{h}: the court fills {fill:.0%}")


def test_the_static_page_without_webgl_says_what_to_try_and_keeps_the_text_and_keys(page_url):
    # a Chromium of its own (other flags): the module's shared one closed first — one sync Playwright at a time
    webtools.close_shared()
    from playwright.sync_api import sync_playwright
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=webtools.CHROMIUM, headless=False, args=webtools.launch_args(webgl=False))
        try:
            page = b.new_page(viewport={"width": 1280, "height": 720})
            errors = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(page_url + "?stage=21")
            page.wait_for_function("document.body.dataset.ready", timeout=60_000)
            note = page.inner_text(".xsl-nogl-message")
            assert "hardware acceleration" in note and "another browser" in note and "printed sheets" in note
            assert page.inner_text("#xsl-section-n") == "§21"
            page.keyboard.press("PageDown")
            page.wait_for_function("document.getElementById('xsl-section-n').textContent === '§22'")
            assert not errors, errors
        finally:
            b.close()


def test_the_static_page_every_control_then_the_clickers_keys(page_url):
    """The static page as the teacher uses it: each control clicked once, then PageDown, → and Space do
    their work and the control keeps its value (keys.js is the page's one key handler here too)."""
    with webtools.chromium() as b:
        page = b.new_page(viewport={"width": 1366, "height": 768})
        errors = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(page_url + "?stage=3")
        page.wait_for_function("document.body.dataset.ready", timeout=120_000)

        def keys(what, value_js, lesson=False):
            page.wait_for_timeout(100)
            value = page.evaluate(value_js)
            lx = f"{P}.extensions.find((x) => x.addStop)"
            before = page.evaluate(f"{lx}.i") if lesson else page.evaluate(f"{P}.state().stage")
            page.keyboard.press("PageDown")
            if lesson:
                page.wait_for_function(f"{lx}.i === {before + 1}", timeout=5000)
            else:
                page.wait_for_function(f"{P}.state().stage === {before + 1}", timeout=5000)
            page.evaluate(f"{P}.pause()")
            t1 = page.evaluate(f"{P}.t")
            page.keyboard.press("ArrowRight")
            assert page.evaluate(f"{P}.t") > t1, f"after {what}: → did not step"
            page.keyboard.press("Space")
            assert page.evaluate(f"{P}.playing") is True, f"after {what}: Space did not play"
            page.keyboard.press("Space")
            assert page.evaluate(f"{P}.playing") is False, f"after {what}: Space did not pause"
            assert page.evaluate(value_js) == value, f"{what} changed under the clicker's keys"

        for sel, value in (("#xsl-speed", "2"), ("#xsl-view", "hall"), ("#xsl-roof", "solid")):
            webtools.choose(page, sel, value)
            keys(sel, f"document.querySelector('{sel}').value")
        for sel in ("#xsl-labels", "#xsl-dims"):
            page.click(sel)
            keys(sel, f"document.querySelector('{sel}').checked")
        for sel in ("#xsl-lang", "#xsl-next-step", "#xsl-stages-toggle", "#xsl-text-toggle"):
            page.click(sel)
            keys(sel, "document.documentElement.lang")
        webtools.choose(page, ".xsl-lessons xsl-select", "three_rounds_class")
        keys("the lesson picker", "document.querySelector('.xsl-lessons xsl-select').value", lesson=True)
        assert not errors, errors
