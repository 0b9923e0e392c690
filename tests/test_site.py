"""The static web edition (``python -m scene site``) from a plain static server, in Chromium."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import webtools
from webtools import RequestRecorder, chromium, chromium_missing_reason, distinct_colours, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    out = tmp_path_factory.mktemp("site")
    r = subprocess.run([sys.executable, "-m", "scene", "site", "--out", str(out)], cwd=ROOT, capture_output=True,
                       text=True, timeout=600)
    assert r.returncode == 0, r.stdout + r.stderr
    return out


def served(site: Path):
    """The site folder from a plain static server (Python's http.server) on a free port: the base address."""
    return webtools.static_server(site)


def test_site_is_self_contained(site):
    names = {p.relative_to(site).as_posix() for p in site.rglob("*") if p.is_file()}
    assert {"index.html", "player.js", "player-page.js", "player.css", "vendor/three.module.js",
            "vendor/three.core.js", "vendor/three.LICENSE", "pack/scene.json", "pack/scene.bin",
            "pack/font/cjk.otf"} <= names
    assert not any(n.startswith(("app.", "xsl")) for n in names)      # nothing of the app's server side
    for f in ("index.html", "player.js", "player-page.js"):
        text = (site / f).read_text(encoding="utf-8")
        assert "http://" not in text.replace("http://www.w3.org", "") and "https://" not in text, f


def test_bad_site_arguments_are_one_line(tmp_path):
    r = subprocess.run([sys.executable, "-m", "scene", "site", "--out", str(tmp_path / "s"), "--reading", "nope"],
                       cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1 and "nope" in r.stderr


@pytest.mark.skipif(chromium_missing_reason() is not None, reason=str(chromium_missing_reason()))
def test_site_plays_from_a_plain_static_server(site):
    with served(site) as base:
        with chromium() as b:
            page = b.new_page(viewport={"width": 1280, "height": 720})
            rec = RequestRecorder(page)
            failed = []
            page.on("response", lambda r: r.status >= 400 and failed.append(f"{r.status} {r.url}"))
            page.goto(base + "?stage=21")
            page.wait_for_function("window.__xslPlayer && window.__xslPlayer.stats().frames > 0", timeout=60000)
            assert page.evaluate("window.__xslPlayer.state().stage") == 21
            t0 = page.evaluate("window.__xslPlayer.state().t")
            page.keyboard.press("Space")
            page.wait_for_timeout(1500)
            page.keyboard.press("Space")
            assert page.evaluate("window.__xslPlayer.state().t") > t0 + 0.5
            assert page.evaluate("document.fonts.check('16px XSLCJK', '三耦射')") or \
                page.evaluate("[...document.fonts].some(f => f.status === 'loaded')")
            img = screenshot(page)
            assert distinct_colours(img) > 200
            assert "三耦射" in page.inner_text("body")
            page.keyboard.press("PageDown")
            page.wait_for_function("window.__xslPlayer.state().stage === 22")
            assert rec.urls and all(u.startswith(base) for u in rec.urls if not u.startswith("data:")), \
                [u for u in rec.urls if not u.startswith(base)]
            assert not failed, failed


@pytest.mark.skipif(chromium_missing_reason() is not None, reason=str(chromium_missing_reason()))
def test_site_refuses_a_pack_from_another_origin(site):
    """?pack= naming another origin: the site's own pack plays and the page says the link was ignored."""
    with served(site) as base:
        with chromium() as b:
            page = b.new_page(viewport={"width": 1280, "height": 720})
            rec = RequestRecorder(page)
            page.goto(base + "?pack=http://evil.example/pack/")
            page.wait_for_function("window.__xslPlayer && window.__xslPlayer.stats().frames > 0", timeout=60000)
            from urllib.parse import urlparse
            assert not any(urlparse(u).hostname == "evil.example" for u in rec.urls), rec.urls
            assert "not a file of this site" in page.inner_text("body")


@pytest.mark.skipif(chromium_missing_reason() is not None, reason=str(chromium_missing_reason()))
def test_site_has_the_apps_notes_languages_and_classroom(site):
    """Parity with the app (issue 27): the 注 button shows the section's 鄭注 and the seed's notes from the
    pack, follows the stage and 繁/简, is remembered after a reload; C enters classroom mode, Esc leaves."""
    texts = json.loads((site / "pack" / "scene.json").read_text(encoding="utf-8"))["texts"]
    with served(site) as base, chromium() as b:
        page = b.new_page(viewport={"width": 1280, "height": 720})
        page.goto(base + "?stage=21")
        page.wait_for_function("window.__xslPlayer && window.__xslPlayer.stats().frames > 0", timeout=60000)
        assert page.is_hidden("#xsl-notes")
        page.click("#xsl-notes-toggle")
        assert page.get_attribute("#xsl-notes-toggle", "aria-pressed") == "true"
        shown = page.inner_text("#xsl-notes")
        for g in texts["21"]["notes"]:
            assert g["text"] in shown and g["anchor"] in shown, g
        for s in texts["21"]["seed"]:
            assert s["text"] in shown
        page.keyboard.press("PageDown")                 # the clicker's key still reaches the rite
        page.wait_for_function("window.__xslPlayer.state().stage === 22")
        page.wait_for_function("(t) => document.getElementById('xsl-notes').innerText.includes(t)",
                               arg=texts["22"]["notes"][0]["text"])
        assert texts["21"]["notes"][0]["text"] not in page.inner_text("#xsl-notes")
        page.click("#xsl-lang")                          # 简: the notes in simplified characters
        page.wait_for_function("(t) => document.getElementById('xsl-notes').innerText.includes(t)",
                               arg=texts["22"]["notes"][0]["text_s"])
        assert "郑注" in page.inner_text("#xsl-notes")
        page.reload()
        page.wait_for_function("window.__xslPlayer && window.__xslPlayer.stats().frames > 0", timeout=60000)
        assert page.is_visible("#xsl-notes"), "the notes' switch is remembered in this browser"
        page.keyboard.press("c")
        assert page.evaluate("document.body.classList.contains('xsl-classroom')")
        page.keyboard.press("PageDown")
        page.wait_for_function("window.__xslPlayer.state().stage === 22")
        page.keyboard.press("Escape")
        assert not page.evaluate("document.body.classList.contains('xsl-classroom')")
