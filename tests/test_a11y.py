"""Accessibility measured (issue 27): axe-core (vendored, tests/vendor/axe-core) injected into the app and
the static site's page, as a teacher opens them: no serious or critical violation."""
from __future__ import annotations

from pathlib import Path

import pytest
import webtools
from webtools import READY, chromium, chromium_missing_reason

AXE = Path(__file__).resolve().parent / "vendor" / "axe-core" / "axe.min.js"
pytestmark = [pytest.mark.browser, pytest.mark.slow,
              pytest.mark.skipif(chromium_missing_reason() is not None, reason=str(chromium_missing_reason()))]


def serious(page) -> list[str]:
    """The serious and critical violations axe-core finds in the page: 'rule (impact): target …'."""
    page.add_script_tag(path=str(AXE))
    res = page.evaluate("axe.run(document, {resultTypes: ['violations']})")
    out = []
    for v in res["violations"]:
        if v["impact"] in ("serious", "critical"):
            targets = [" ".join(map(str, n["target"])) for n in v["nodes"][:4]]
            out.append(f"{v['id']} ({v['impact']}, {len(v['nodes'])}): {v['help']} — {targets}")
    return out


def test_the_app_has_no_serious_or_critical_violation(app_url):
    with chromium() as b:
        # the app's Content-Security-Policy refuses inline scripts (issue 26): the test's own axe-core, which is
        # not part of the page, is injected past it
        page = b.new_page(viewport={"width": 1366, "height": 768}, bypass_csp=True)
        page.goto(app_url + "?stage=21")
        page.wait_for_function(READY, timeout=180000)
        page.wait_for_timeout(500)
        found = serious(page)
        assert not found, "\n".join(found)
        # the inspector open on a person, in 简, a lesson chosen; then classroom mode
        page.evaluate("window.__xslPlayer._emitPick(window.__xslPlayer.actorInfo('bin'))")
        page.click("#tab-text")
        page.click("#xsl-lang-simp")
        webtools.choose(page, ".xsl-lessons xsl-select", "three_rounds_class")
        page.wait_for_timeout(300)
        found = serious(page)
        assert not found, "\n".join(found)
        page.keyboard.press("c")
        page.wait_for_function("window.trame.state.get('classroom') === true")
        page.wait_for_timeout(300)
        found = serious(page)
        assert not found, "\n".join(found)


def test_the_static_page_has_no_serious_or_critical_violation(tmp_path):
    from scene.web.pack.site import write_site
    site = write_site(tmp_path / "site")
    with webtools.static_server(site) as url, chromium() as b:
        # the site's pages carry their policy too (issue 45): the test's axe-core is injected past it
        page = b.new_page(viewport={"width": 1366, "height": 768}, bypass_csp=True)
        page.goto(url + "index.html?stage=21")
        page.wait_for_function("document.body.dataset.ready", timeout=120000)
        found = serious(page)
        assert not found, "\n".join(found)
