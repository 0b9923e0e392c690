"""Both chapters in the browser (issue 43 item 5): the static site and the app open 鄉飲酒禮 by ?chapter=, play it,
switch chapter from the keyboard, and the side-by-side page plays two parallel sections with their differences —
in a real headless Chromium, as a user acts (keys, the DOM, pixels)."""
from __future__ import annotations

from pathlib import Path

import pytest
import webtools
from webtools import READY, chromium, chromium_missing_reason, diff_fraction, screenshot

ROOT = Path(__file__).resolve().parents[1]
KEY = "chapter-test-key"
pytestmark = [pytest.mark.skipif(chromium_missing_reason() is not None, reason=str(chromium_missing_reason())),
              pytest.mark.browser, pytest.mark.slow]


def _site_page(b, base: str, query: str):
    # (the site's policy refuses eval, which Playwright's waits use: the test's own scripts go past it)
    page = b.new_page(viewport={"width": 1280, "height": 720}, bypass_csp=True)
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.goto(base + query)
    page.wait_for_function("document.body.dataset.ready === '1'", timeout=90000)
    return page


def _tab_to(page, css: str, most: int = 80) -> None:
    """Tab (the keyboard only) until the element ``css`` has the focus."""
    for _ in range(most):
        page.keyboard.press("Tab")
        if page.evaluate(f"document.activeElement && document.activeElement.matches({css!r})"):
            return
    raise AssertionError(f"{css} is not reached with Tab")


def _plays(page, box=None) -> None:
    """Space plays: the time goes on and the picture changes."""
    a = screenshot(page, box)
    t0 = page.evaluate("window.__xslPlayer.state().t")
    page.keyboard.press("Space")
    page.wait_for_timeout(2500)
    page.keyboard.press("Space")
    assert page.evaluate("window.__xslPlayer.state().t") > t0 + 1.0
    assert diff_fraction(a, screenshot(page, box)) > 0.002


def test_the_site_opens_chapter_4_plays_it_and_switches_by_keyboard(site):
    with webtools.static_server(site) as base, chromium() as b:
        page = _site_page(b, base, "?chapter=xiangyinjiu&reading=zheng")
        assert page.title().startswith("鄉飲酒禮")
        assert page.evaluate("document.body.dataset.chapter") == "xiangyinjiu"
        assert page.inner_text("#xsl-section-n") == "§1"
        assert page.inner_text("#xsl-section-title") == "謀賓戒賓"
        assert page.inner_text("#xsl-jing").startswith("鄉飲酒之禮")       # its own 經, not chapter 5's
        hrefs = page.eval_on_selector_all("#xsl-jing a", "(xs) => xs.map((a) => a.getAttribute('href'))")
        assert hrefs and all(h.startswith("review-xiangyinjiu/1.html#p") for h in hrefs)   # 考: its own reports
        assert page.is_hidden("#xsl-message")
        _plays(page)
        # the switch: Tab to 鄉射禮, Enter — chapter 5 at its start, the reading kept, an address to copy
        assert page.inner_text("#xsl-chapter button[aria-pressed=true]") == "鄉飲酒禮"
        _tab_to(page, "#xsl-chapter button[data-chapter=xiangshe]")
        with page.expect_navigation():
            page.keyboard.press("Enter")
        page.wait_for_function("document.body.dataset.ready === '1'", timeout=90000)
        assert "chapter=xiangshe" in page.url and "reading=zheng" in page.url
        assert page.evaluate("document.body.dataset.chapter") == "xiangshe"
        assert page.title().startswith("鄉射禮") and page.inner_text("#xsl-section-n") == "§1"
        # links are read within the chapter: stage 20 of chapter 4
        page.goto(base + "?chapter=xiangyinjiu&stage=20")
        page.wait_for_function("document.body.dataset.ready === '1'", timeout=90000)
        assert page.evaluate("window.__xslPlayer.state().stage") == 20
        assert not page.errors, page.errors


def test_an_unknown_chapter_is_one_line_and_chapter_5_plays_and_simp_names_the_switch(site):
    with webtools.static_server(site) as base, chromium() as b:
        page = _site_page(b, base, "?chapter=nope&lang=simp")
        msg = page.inner_text("#xsl-message")
        assert "chapter=nope (xiangshe, xiangyinjiu)" in msg and "\n" not in msg.strip()
        assert page.evaluate("document.body.dataset.chapter") == "xiangshe"
        assert page.inner_text("#xsl-chapter").split() == ["乡射礼", "乡饮酒礼"]
        # a site without chapters.json plays chapter 5 only, as before
        page2 = b.new_page(viewport={"width": 1280, "height": 720}, bypass_csp=True)
        page2.route("**/chapters.json", lambda r: r.fulfill(status=404, body="no"))
        page2.goto(base + "?chapter=xiangyinjiu")
        page2.wait_for_function("document.body.dataset.ready === '1'", timeout=90000)
        assert page2.evaluate("document.body.dataset.chapter") == "xiangshe"
        assert "chapter=xiangyinjiu (xiangshe)" in page2.inner_text("#xsl-message")
        assert page2.locator("#xsl-chapter button").count() == 0


def test_the_side_by_side_plays_two_parallel_sections_with_their_differences(site):
    with webtools.static_server(site) as base, chromium() as b:
        page = b.new_page(viewport={"width": 1280, "height": 720}, bypass_csp=True)
        page.goto(base + "?beside=xiangyinjiu:5")                        # the player's link goes to beside.html
        page.wait_for_function("document.body.dataset.ready === '1'", timeout=120000)
        assert page.url.split("?")[0].endswith("beside.html")
        assert page.inner_text("#xsl-beside-a-title") == "鄉飲酒禮 §5 賓酢主人"
        assert page.inner_text("#xsl-beside-b-title") == "鄉射禮 §6 賓酢主人"
        items = page.locator("#xsl-beside-diff-list li").all_inner_texts()
        assert len(items) >= 5 and any("以虛爵降" in x for x in items), items
        halves = [page.locator(f"#xsl-beside-{s}").bounding_box() for s in "ab"]
        before = [screenshot(page, h) for h in halves]
        starts = page.evaluate("window.__xslPlayers.map((p) => p.state().t)")
        page.keyboard.press("Space")
        page.wait_for_timeout(3000)
        st = page.evaluate("window.__xslPlayers.map((p) => p.state())")
        assert [s["stage"] for s in st] == [5, 6] and all(s["playing"] for s in st)
        assert all(s["t"] > t0 + 1.0 for s, t0 in zip(st, starts))
        after = [screenshot(page, h) for h in halves]
        assert all(diff_fraction(x, y) > 0.002 for x, y in zip(before, after))     # two moving pictures
        page.keyboard.press("Space")
        assert not any(page.evaluate("window.__xslPlayers.map((p) => p.state().playing)"))


def _export(page):
    """The 1080p PNG export of the tab's moment, as pixels."""
    import numpy as np
    from PIL import Image
    with page.expect_download(timeout=180000) as dl:
        page.evaluate("window.xsl.exportPng('1080p')")
    return np.asarray(Image.open(dl.value.path()).convert("RGB"))


def test_the_app_opens_chapter_4_switches_by_keyboard_and_followers_follow(app_url):
    with chromium() as b:
        ctx = b.new_context(viewport={"width": 1600, "height": 900}, accept_downloads=True)
        page = ctx.new_page()
        page.goto(app_url + "?chapter=xiangyinjiu")
        page.wait_for_function(READY, timeout=120000)
        page.wait_for_function("window.trame.state.get('chapter_id') === 'xiangyinjiu'", timeout=120000)
        st = lambda k: page.evaluate(f"window.trame.state.get({k!r})")  # noqa: E731
        assert page.inner_text(".xsl-title").startswith("鄉飲酒禮") and st("stage_n") == 1
        tx = st("text")
        assert (tx["pre"] + tx["hit"] + tx["post"]).startswith("鄉飲酒之禮")     # its own 經, not chapter 5's
        assert page.is_hidden("#view-range")                              # chapter 4 has no range
        box = page.locator("#xsl-view").bounding_box()
        _plays(page, box)
        page.evaluate("window.xsl.gotoStage(1)")
        four = _export(page)
        _tab_to(page, "#xsl-chapter-xiangshe")
        page.keyboard.press("Enter")
        page.wait_for_function("window.trame.state.get('chapter_id') === 'xiangshe'", timeout=60000)
        assert page.inner_text(".xsl-title").startswith("鄉射禮") and st("stage_n") == 1
        five = _export(page)                      # the PNG export is the tab's chapter's: another hall
        assert four.shape == five.shape == (1080, 1920, 3) and diff_fraction(four, five) > 0.05
        # an unknown chapter: one line, chapter 5
        bad = ctx.new_page()
        bad.goto(app_url + "?chapter=nope")
        bad.wait_for_function(READY, timeout=120000)
        bad.wait_for_function("window.trame.state.get('message')", timeout=90000)
        assert "chapter=nope" in bad.evaluate("window.trame.state.get('message')")
        assert bad.evaluate("window.trame.state.get('chapter_id')") == "xiangshe"
        # the classroom: the presenter's chapter reaches a follower
        pres, fol = ctx.new_page(), ctx.new_page()
        pres.goto(app_url + f"?present=1&key={KEY}")
        fol.goto(app_url + "?follow=1")
        for p in (pres, fol):
            p.wait_for_function(READY, timeout=120000)
        pres.evaluate("window.xsl.setChapter('xiangyinjiu')")
        pres.wait_for_function("window.trame.state.get('chapter_id') === 'xiangyinjiu'", timeout=60000)
        pres.keyboard.press("PageDown")
        fol.wait_for_function("window.trame.state.get('chapter_id') === 'xiangyinjiu'", timeout=60000)
        fol.wait_for_function("window.trame.state.get('stage_n') === 2", timeout=90000)
        ctx.close()
