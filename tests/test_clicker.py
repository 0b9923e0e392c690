"""Classroom-ready (issue 27): the keys a presentation clicker sends work after any control was used.

Tested as the teacher acts: click a control once (each toggle, select, the speed select, the lesson picker,
the 鄭注 switch …), then press PageDown, → and Space as a clicker does; each key must have its effect (the
stage or the lesson's stop advanced, the step advanced, play toggled) and the control must keep the value
the click gave it (no select changed, no switch flipped, no menu opened)."""
from __future__ import annotations

import pytest
from webtools import OTHER_READING, READY, chromium, chromium_missing_reason, close_shared

pytestmark = [pytest.mark.browser, pytest.mark.slow,
              pytest.mark.skipif(chromium_missing_reason() is not None, reason=str(chromium_missing_reason()))]

KEY = "clicker-key-12"


PLAYER = "window.__xslPlayer"
STATE = f"(() => {{ const s = {PLAYER}.state(); return {{stage: s.stage, t: s.t, playing: s.playing}}; }})()"
LESSONS = f"{PLAYER}.extensions.find((x) => x.pick)"


#: a drop-down open on the page: a Vuetify select's menu, or the player's own listbox (listbox.js)
#: native selects a user can open (Vuetify keeps a hidden one inside its own select, for forms)
NATIVE_SELECTS = "[...document.querySelectorAll('select')].filter((s) => !s.hidden && s.getClientRects().length).length"
OPEN_LIST = ("!!(document.querySelector('.v-overlay--active .v-list') || "
             "document.querySelector('xsl-select[aria-expanded=\"true\"] [role=listbox]:not([hidden])'))")


def press_clicker_keys(page, what: str, value_js: str, *, lesson: bool = False, opened: bool = False) -> None:
    """PageDown, → and Space (twice) after a control was used: each has its effect, the control keeps its value.
    opened: the control's drop-down was clicked open and left open, as a teacher leaves it (issue 42)."""
    page.wait_for_timeout(150)                       # the control's own events are done
    if opened:
        assert page.evaluate(OPEN_LIST), f"{what}: its drop-down is not open"
    value = page.evaluate(value_js)
    before = page.evaluate(STATE)
    stop0 = page.evaluate(f"{LESSONS}.i") if lesson else None
    page.keyboard.press("PageDown")
    if lesson:
        page.wait_for_function(f"{LESSONS}.i === {stop0 + 1}", timeout=5000)
    else:
        page.wait_for_function(f"{PLAYER}.state().stage === {before['stage'] + 1}", timeout=5000)
    page.evaluate(f"{PLAYER}.pause()")
    t1 = page.evaluate(f"{PLAYER}.t")
    page.keyboard.press("ArrowRight")
    t2 = page.evaluate(f"{PLAYER}.t")
    assert t2 > t1, f"after {what}: → did not step ({t1} → {t2})"
    page.keyboard.press("Space")
    assert page.evaluate(f"{PLAYER}.playing") is True, \
        f"after {what}: Space did not play (focus on {page.evaluate('document.activeElement.outerHTML.slice(0, 120)')})"
    page.keyboard.press("Space")
    assert page.evaluate(f"{PLAYER}.playing") is False, f"after {what}: Space did not pause"
    assert page.evaluate(value_js) == value, f"{what} changed under the clicker's keys"
    assert not page.evaluate(OPEN_LIST), f"{what}: a drop-down is open after the keys"


def test_every_control_then_the_clickers_keys(app_url):
    with chromium() as b:
        page = b.new_page(viewport={"width": 1366, "height": 768})
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(app_url + "?stage=3")
        page.wait_for_function(READY, timeout=180000)
        S = "window.trame.state.get"
        # the view buttons (a toggle group)
        page.click("#view-hall")
        press_clicker_keys(page, "the 堂上 view button", f"{S}('view')")
        # 標籤 and 尺寸 (checkboxes)
        page.click("#xsl-labels")
        press_clicker_keys(page, "標籤", f"{S}('labels')")
        page.click("#xsl-dims")
        press_clicker_keys(page, "尺寸", f"{S}('dims')")
        # no native select anywhere in the page: an open one takes every key (issue 42)
        assert page.evaluate(NATIVE_SELECTS) == 0
        # 屋頂: its drop-down clicked open and left open, then the keys; then a value chosen, and the keys again
        page.click(".v-select:has(#xsl-roof) .v-field")
        press_clicker_keys(page, "屋頂 (open)", f"{S}('roof')", opened=True)
        page.click(".v-select:has(#xsl-roof) .v-field")
        page.locator(".v-overlay--active .v-list-item", has_text="實").click()
        page.wait_for_function(f"{S}('roof') === 'solid'")
        press_clicker_keys(page, "屋頂", f"{S}('roof')")
        assert page.evaluate(f"{S}('roof')") == "solid"
        # 畫質 left open: a Space must not choose (a choice reloads the page)
        page.click(".v-select:has(#xsl-quality) .v-field")
        press_clicker_keys(page, "畫質 (open)", f"{S}('quality_pick')", opened=True)
        # the speed select (Vuetify): left open; then opened, 2× chosen from its menu
        page.click(".v-select:has(#xsl-speed) .v-field")
        press_clicker_keys(page, "the speed select (open)", f"{S}('speed')", opened=True)
        page.click(".v-select:has(#xsl-speed) .v-field")
        page.locator(".v-overlay--active .v-list-item", has_text="2×").click()
        page.wait_for_function(f"{S}('speed') === 2")
        press_clicker_keys(page, "the speed select", f"{S}('speed')")
        # the right panel's tabs, 繁/简 and the 鄭注 switch
        page.click("#tab-text")
        page.click("#xsl-notes-switch")
        press_clicker_keys(page, "the 鄭注 switch", f"{S}('show_notes')")
        assert page.evaluate(f"{S}('show_notes')") is True
        page.click("#xsl-lang-simp")
        press_clicker_keys(page, "简", f"{S}('lang')")
        page.click("#tab-inspect")
        press_clicker_keys(page, "the 檢視 tab", f"{S}('right_tab')")
        # the transport's buttons
        page.click("#xsl-next-step")
        press_clicker_keys(page, "the next-step button", "1")
        page.click("#xsl-play")
        page.click("#xsl-play")
        press_clicker_keys(page, "the play button", "1")
        # a stage of the list
        page.click("#nav-20")
        page.wait_for_function(f"{PLAYER}.state().stage === 20")
        press_clicker_keys(page, "the stage list", "1")
        # the lesson picker: a lesson chosen, then PageDown goes to its next stop (not to another lesson)
        pick = ".xsl-lessons xsl-select"
        page.click(pick)                              # left open: the keys go to the rite, no lesson is chosen
        press_clicker_keys(page, "the lesson picker (open)", f"document.querySelector('{pick}').value", opened=True)
        page.click(pick)
        page.locator(f"{pick} [role=option]", has_text="三番射").click()
        page.wait_for_function(f"{LESSONS}.i === 0")
        press_clicker_keys(page, "the lesson picker", f"document.querySelector('{pick}').value", lesson=True)
        page.click(pick)                              # open again over a lesson: PageDown goes to its next stop
        press_clicker_keys(page, "the lesson picker (open, a lesson on)", f"document.querySelector('{pick}').value",
                           lesson=True, opened=True)
        page.keyboard.press("PageUp")
        page.wait_for_function(f"{LESSONS}.i === 1")
        page.keyboard.press("PageUp")                 # back to the first stop, the lesson still open
        page.wait_for_function(f"{LESSONS}.i === 0")
        assert page.evaluate(f"{LESSONS}.lesson && {LESSONS}.lesson.name") == "three_rounds_class"
        # classroom mode: F5 enters it (no reload), the keys still work there, Esc leaves it
        page.keyboard.press("F5")
        page.wait_for_function(f"{S}('classroom') === true")
        page.keyboard.press("PageDown")
        page.wait_for_function(f"{LESSONS}.i === 1")
        page.keyboard.press("b")
        assert page.locator(".xsl-blank").is_visible()
        page.keyboard.press("Escape")                 # first the blank screen comes back …
        assert not page.locator(".xsl-blank").is_visible()
        assert page.evaluate(f"{S}('classroom')") is True
        page.keyboard.press("Escape")                 # … then classroom mode is left
        page.wait_for_function(f"{S}('classroom') === false")
        assert not errors, errors


def test_keys_zero_and_quality_are_understood(app_url):
    with chromium() as b:
        page = b.new_page(viewport={"width": 1280, "height": 720})
        page.goto(app_url + "?keys=0&quality=fast&stage=5")
        page.wait_for_function(READY, timeout=180000)
        assert not page.evaluate("window.trame.state.get('message')"), page.evaluate("window.trame.state.get('message')")
        assert page.evaluate(f"{PLAYER}.quality().requested") == "fast"
        page.keyboard.press("b")                      # single keys off: b does not blank
        assert not page.locator(".xsl-blank").is_visible()
        page.keyboard.press("PageDown")               # the clicker's PageDown still works
        page.wait_for_function(f"{PLAYER}.state().stage === 6")
        page.keyboard.press("Shift+K")
        page.keyboard.press("b")
        assert page.locator(".xsl-blank").is_visible()
        page.goto(app_url + "?quality=ultra")
        page.wait_for_function(READY, timeout=180000)
        assert "quality=ultra" in page.evaluate("window.trame.state.get('message')")


def test_a_link_and_an_export_under_another_reading_are_of_the_stage_shown(app_url):
    """?stage=21&t=0&reading=… opens §21 under that reading (loading the reading rewrote the address before the
    stage was read); the moment an export asks the still exporter for, at each stage's start under it, is in
    that stage of the exactly compiled rite (the pack's starts are rounded to the ms: under xiang §21 came out
    as §20; under the reading here 27 of the 51 starts round down, so the old rounding fails here too)."""
    from urllib.parse import quote

    from scene.rite.cache import load_rite
    rite = load_rite(OTHER_READING)      # compiled once: the app's pack worker then reads it from the cache
    with chromium() as b:
        page = b.new_page(viewport={"width": 1280, "height": 720})
        page.goto(app_url + f"?stage=21&t=0&reading={quote(OTHER_READING)}")
        page.wait_for_function(READY, timeout=180000)
        page.wait_for_function(f"window.trame.state.get('reading_q') === '{OTHER_READING}'", timeout=120000)
        assert page.evaluate(f"{PLAYER}.state().stage") == 21
        assert not page.evaluate("window.trame.state.get('message')")
        starts = page.evaluate(f"{PLAYER}.stages.map((s) => [s.n, window.xsl.exportTime(s.start)])")
    wrong = [(n, t, rite.stage_at(float(f"{t:.3f}")).n) for n, t in starts if rite.stage_at(float(f"{t:.3f}")).n != n]
    assert not wrong, wrong
    assert len(starts) == len(rite.stages)


def test_without_webgl_the_class_runs_on_the_servers_stills(app_url, tmp_path):
    """Chromium with WebGL off (--disable-webgl --disable-3d-apis, as a blocklisted school GPU): one clear
    message with what to try, no raw 'Error creating WebGL context'; the still of the moment in place of the
    canvas, drawn again for the next stage when the teacher presses PageDown."""
    # a Chromium of its own (other flags): the module's shared one closed first — one sync Playwright at a time
    close_shared()
    from playwright.sync_api import sync_playwright
    from webtools import CHROMIUM, launch_args
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, headless=False, args=launch_args(webgl=False))
        try:
            page = b.new_page(viewport={"width": 1280, "height": 720})
            errors: list[str] = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(app_url + "?stage=21")
            page.wait_for_function(READY, timeout=180000)
            assert page.evaluate("!!document.createElement('canvas').getContext('webgl')") is False
            note = page.inner_text(".xsl-nogl-message")
            for words in ("WebGL", "hardware acceleration", "another browser", "printed sheets"):
                assert words in note, note
            assert "Error creating WebGL context" not in (page.evaluate("window.trame.state.get('message')") or "")
            still = "document.querySelector('img.xsl-nogl-still')"
            st = page.evaluate(f"{PLAYER}.stages.filter((s) => s.n === 21 || s.n === 22).map((s) => [s.start, s.end])")
            # (the remote view may draw the moment before the link's first: the picture of §21 comes next)
            page.wait_for_function(f"{still}.naturalWidth > 0 && Number({still}.dataset.t) >= {st[0][0]}", timeout=120000)
            size = page.evaluate(f"[{still}.naturalWidth, {still}.naturalHeight]")
            t21 = float(page.evaluate(f"{still}.dataset.t"))
            assert size == [1280, 720] and st[0][0] <= t21 < st[0][1], (size, t21, st)
            page.keyboard.press("PageDown")
            page.wait_for_function("window.trame.state.get('stage_n') === 22")
            page.wait_for_function(f"Number({still}.dataset.t) >= {st[1][0]}", timeout=120000)
            t22 = float(page.evaluate(f"{still}.dataset.t"))
            assert st[1][0] <= t22 < st[1][1]
            assert page.locator("img.xsl-nogl-still").is_visible()
            page.screenshot(path=str(tmp_path / "xsl-nogl.png"))
            assert not errors, errors
        finally:
            b.close()


def test_the_sites_drop_downs_left_open_then_the_clickers_keys(pack_dir):
    """The static page (player.html): no native select; each drop-down (speed, view, roof, 畫質, the lesson
    picker) clicked open and left open, then PageDown, → and Space reach the rite and the list closes with its
    value unchanged (issue 42: an open native drop-down took the keys, and a later Space chose an option)."""
    import webtools
    with webtools.site(pack_dir) as (_, url), chromium() as b:
        page = b.new_page(viewport={"width": 1280, "height": 720})
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(url + "player.html?stage=3")
        page.wait_for_function("document.body.dataset.ready === '1'", timeout=120000)
        assert page.evaluate(NATIVE_SELECTS) == 0
        for sel in ("#xsl-speed", "#xsl-view", "#xsl-roof", "#xsl-quality", ".xsl-lessons xsl-select"):
            page.click(sel)
            assert page.get_attribute(sel, "aria-expanded") == "true"
            assert page.locator(f"{sel} [role=listbox]").is_visible()
            press_clicker_keys(page, f"{sel} (open)", f"document.querySelector('{sel}').value", opened=True)
            assert page.get_attribute(sel, "aria-expanded") == "false"
        # the listbox still works by pointer and by keyboard: 屋頂 實 chosen with a click, 2× with ↓ and Enter
        page.click("#xsl-roof")
        page.locator("#xsl-roof [role=option]", has_text="屋頂 實").click()
        assert page.evaluate(f"{PLAYER}.state().roof") == "solid"
        press_clicker_keys(page, "屋頂", "document.querySelector('#xsl-roof').value")
        page.wait_for_timeout(900)
        page.focus("#xsl-speed")                      # a keyboard user (Tab) on the speed list
        page.keyboard.press("ArrowDown")              # opens it on the current 1×
        assert page.get_attribute("#xsl-speed", "aria-expanded") == "true"
        page.keyboard.press("ArrowDown")
        assert page.get_attribute("#xsl-speed", "aria-activedescendant") == "xsl-speed-opt-2"
        page.keyboard.press("Enter")
        assert page.evaluate(f"{PLAYER}.state().speed") == 2
        assert not errors, errors
