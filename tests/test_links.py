"""Every link opens exactly the moment it names, in the app and on the static site, with the same meaning
(docs/classroom.md): ``stage=N`` the section's start; ``t=S`` with a stage S seconds into it, alone S seconds
into the rite; ``view``; ``reading``; ``lang=simp``; ``lesson=NAME`` its first stop's moment, held (issue 42).

One test per parameter and page; each loads the link as a teacher would (a fresh tab) and reads what the page
shows: the player's public state(), the caption's text, the page's words."""
from __future__ import annotations

import pytest
import webtools
from webtools import OTHER_READING, READY, chromium, chromium_missing_reason, machines

pytestmark = [pytest.mark.browser, pytest.mark.slow,
              pytest.mark.skipif(chromium_missing_reason() is not None, reason=str(chromium_missing_reason()))]

KEY = "links-test-key"
LESSON = "three_rounds_class"
STATE = "window.__xslPlayer.state()"
CAPTION = "(document.querySelector('.xsl-lesson-caption') || {}).innerText || ''"
LESSONS = "window.__xslPlayer.extensions.find((x) => x.pick)"


@pytest.fixture(scope="module")
def browser():
    with chromium() as b:
        yield b


@pytest.fixture(scope="module")
def first_stop(rite):
    from scene.web.lessons import load_lesson
    return load_lesson(webtools.ROOT / "assets" / "lessons" / f"{LESSON}.toml", rite)["stops"][0]


def stage_of(rite, n):
    return next(s for s in rite.stages if s.n == n)


def open_link(browser, base: str, query: str, *, app: bool):
    page = browser.new_page(viewport={"width": 1280, "height": 720})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(base + query)
    page.wait_for_function(READY if app else "document.body.dataset.ready === '1'", timeout=180_000)
    page.wait_for_timeout(300)
    page.errors = errors
    return page


def message(page, app: bool) -> str:
    if app:
        return page.evaluate("window.trame.state.get('message') || ''")
    return page.evaluate("document.getElementById('xsl-message').hidden ? '' : "
                         "document.getElementById('xsl-message').textContent")


PAGES = [pytest.param(True, id="app"), pytest.param(False, id="site")]


def base(request, app: bool) -> str:
    return request.getfixturevalue("app_url" if app else "site_url")


@pytest.mark.parametrize("app", PAGES)
def test_stage(request, browser, rite, app):
    page = open_link(browser, base(request, app), "?stage=21", app=app)
    s = page.evaluate(STATE)
    assert s["stage"] == 21 and abs(s["t"] - stage_of(rite, 21).start_s) < 0.01, s
    assert not message(page, app) and not page.errors
    page.close()


@pytest.mark.parametrize("app", PAGES)
def test_t_with_a_stage_is_seconds_into_it_and_alone_into_the_rite(request, browser, rite, app):
    st = stage_of(rite, 21)
    page = open_link(browser, base(request, app), "?stage=21&t=280", app=app)
    s = page.evaluate(STATE)
    assert s["stage"] == 21 and abs(s["t"] - (st.start_s + 280)) < 0.01, (s, st.start_s)
    assert not s["playing"] and not message(page, app)
    page.close()
    page = open_link(browser, base(request, app), "?t=1500", app=app)
    s = page.evaluate(STATE)
    want = next(x.n for x in rite.stages if x.start_s <= 1500 < x.end_s)
    assert abs(s["t"] - 1500) < 0.01 and s["stage"] == want, s
    page.close()
    # a t past the stage's end is refused with a message, not read from the rite's start
    page = open_link(browser, base(request, app), f"?stage=21&t={st.end_s - st.start_s + 5:.0f}", app=app)
    assert "t=" in message(page, app)
    page.close()


@pytest.mark.parametrize("app", PAGES)
def test_view(request, browser, app):
    page = open_link(browser, base(request, app), "?stage=14&view=hall", app=app)
    s = page.evaluate(STATE)
    assert s["view"] == "hall" and s["stage"] == 14, s
    page.close()


@pytest.mark.parametrize("app", PAGES)
def test_reading(request, browser, app):
    if app:
        page = open_link(browser, base(request, app), f"?stage=21&t=10&reading={OTHER_READING}", app=app)
        page.wait_for_function("window.trame.state.get('busy') === ''", timeout=180_000)
        assert page.evaluate("window.trame.state.get('reading_q')") == OTHER_READING
        s = page.evaluate(STATE)
        assert s["stage"] == 21 and not message(page, app), (s, message(page, app))
        page.close()
        return
    # the site has one reading: it is named and accepted; another is refused in words
    page = open_link(browser, base(request, app), "?stage=21&reading=zheng", app=app)
    assert not message(page, app) and page.evaluate(STATE)["stage"] == 21
    page.close()
    page = open_link(browser, base(request, app), "?stage=21&reading=xiang", app=app)
    assert "reading=xiang" in message(page, app)
    page.close()


@pytest.mark.parametrize("app", PAGES)
def test_lang(request, browser, rite, app):
    from scene.text.script import to_simplified
    st = stage_of(rite, 2)                                # 陳設: 简 陈设
    simp = to_simplified(st.title)
    assert simp != st.title
    page = open_link(browser, base(request, app), "?stage=2&lang=simp", app=app)
    if app:
        assert page.evaluate("window.trame.state.get('lang')") == "simp"
        assert page.evaluate("window.trame.state.get('stage_title')") == simp
    else:
        assert page.inner_text("#xsl-section-title") == simp
    assert not message(page, app), message(page, app)
    page.close()


@pytest.mark.parametrize("app", PAGES)
def test_lesson_opens_its_first_stop_held(request, browser, rite, first_stop, app):
    page = open_link(browser, base(request, app), f"?lesson={LESSON}", app=app)
    s = page.evaluate(STATE)
    want_stage = next(x.n for x in rite.stages if x.start_s <= first_stop["t"] < x.end_s)
    assert abs(s["t"] - first_stop["t"]) < 0.01 and s["stage"] == want_stage, (s, first_stop)
    assert first_stop["caption"] in page.evaluate(CAPTION)
    page.wait_for_timeout(1000)
    assert abs(page.evaluate(STATE)["t"] - first_stop["t"]) < 0.01, "the link played on"
    # Space plays the stop's span (and stops at its end), as PageDown's stops do
    page.keyboard.press("Space")
    page.wait_for_function(f"{STATE}.t > {first_stop['t'] + 0.5}", timeout=15_000)
    assert not message(page, app) and not page.errors
    page.close()


def test_lesson_link_on_presenter_and_followers(app_url, browser, rite, first_stop):
    with machines(browser, 2, viewport={"width": 1280, "height": 720}) as (pres, fol):
        pres.goto(app_url + f"?lesson={LESSON}&present=1&key={KEY}")
        pres.wait_for_function(READY, timeout=180_000)
        fol.goto(app_url + "?follow=1")
        fol.wait_for_function(READY, timeout=180_000)
        fol.wait_for_function(f"Math.abs({STATE}.t - {first_stop['t']}) < 0.05", timeout=15_000)
        fol.wait_for_function(f"{CAPTION}.includes({first_stop['caption']!r})", timeout=15_000)
        want_stage = next(x.n for x in rite.stages if x.start_s <= first_stop["t"] < x.end_s)
        for pg in (pres, fol):
            s = pg.evaluate(STATE)
            assert s["stage"] == want_stage and not s["playing"] and abs(s["t"] - first_stop["t"]) < 0.05, s


CH4 = "xiangyinjiu"
CH4_LESSON = "yinjiu_class"


@pytest.fixture(scope="module")
def ch4_first_stop():
    """Chapter 4's rite and the first stop of its class (issue 43)."""
    from scene.rite.cache import load_rite
    from scene.web.lessons import load_lesson
    rite4 = load_rite("zheng", chapter=CH4)
    path = webtools.ROOT / "assets" / "chapters" / CH4 / "lessons" / f"{CH4_LESSON}.toml"
    return rite4, load_lesson(path, rite4)["stops"][0]


@pytest.mark.parametrize("app", PAGES)
def test_a_lesson_link_of_chapter_4_opens_its_first_stop_held(request, browser, ch4_first_stop, app, tmp_path):
    """``?chapter=xiangyinjiu&lesson=yinjiu_class`` — in the app, and on the static site (``python -m scene site``,
    both chapters): chapter 4 plays, its class is in the lesson menu, and the link holds its first stop (§3 迎賓拜
    至, the 主人 at the gate); Space plays the stop."""
    import contextlib
    rite4, first = ch4_first_stop
    query = f"?chapter={CH4}&lesson={CH4_LESSON}"
    with contextlib.ExitStack() as stack:
        if app:
            page = open_link(browser, request.getfixturevalue("app_url"), query, app=True)
            page.wait_for_function(f"window.trame.state.get('chapter_id') === {CH4!r}", timeout=120_000)
            page.wait_for_function(f"{CAPTION}.includes({first['caption']!r})", timeout=120_000)
        else:
            base = stack.enter_context(webtools.static_server(request.getfixturevalue("site")))
            # (the site's policy refuses eval, which Playwright's waits use: the test's own scripts go past it)
            page = browser.new_page(viewport={"width": 1280, "height": 720}, bypass_csp=True)
            page.errors = []
            page.on("pageerror", lambda e: page.errors.append(str(e)))
            page.goto(base + query)
            page.wait_for_function("document.body.dataset.ready === '1'", timeout=180_000)
            assert page.evaluate("document.body.dataset.chapter") == CH4
        names = page.evaluate(f"{LESSONS}.list.filter((L) => L.builtin).map((L) => L.name)")
        assert names == [CH4_LESSON], names                       # chapter 4's class, not chapter 5's lessons
        s = page.evaluate(STATE)
        want_stage = next(x.n for x in rite4.stages if x.start_s <= first["t"] < x.end_s)
        assert want_stage == 3 and s["stage"] == 3 and abs(s["t"] - first["t"]) < 0.01, (s, first)
        assert first["caption"] in page.evaluate(CAPTION)
        webtools.save_png(webtools.screenshot(page), tmp_path / f"lesson-{CH4}-{'app' if app else 'site'}.png")
        page.wait_for_timeout(1000)
        assert abs(page.evaluate(STATE)["t"] - first["t"]) < 0.01, "the link played on"
        page.keyboard.press("Space")
        page.wait_for_function(f"{STATE}.t > {first['t'] + 0.5}", timeout=15_000)
        assert not message(page, app) and not page.errors
        page.close()
