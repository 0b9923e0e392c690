"""The static web edition (``python -m scene site``) from a plain static server, in Chromium."""
from __future__ import annotations

import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from webtools import RequestRecorder, chromium, chromium_missing_reason, distinct_colours, free_port, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    out = tmp_path_factory.mktemp("site")
    r = subprocess.run([sys.executable, "-m", "scene", "site", "--out", str(out)], cwd=ROOT, capture_output=True,
                       text=True, timeout=600)
    assert r.returncode == 0, r.stdout + r.stderr
    return out


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
    port = free_port()
    srv = subprocess.Popen([sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1",
                            "--directory", str(site)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}/"
    try:
        for _ in range(100):
            try:
                urllib.request.urlopen(base, timeout=1)
                break
            except OSError:
                time.sleep(0.1)
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
    finally:
        srv.terminate()
        srv.wait(10)


@pytest.mark.skipif(chromium_missing_reason() is not None, reason=str(chromium_missing_reason()))
def test_site_refuses_a_pack_from_another_origin(site):
    """?pack= naming another origin: the site's own pack plays and the page says the link was ignored."""
    port = free_port()
    srv = subprocess.Popen([sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1",
                            "--directory", str(site)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}/"
    try:
        for _ in range(100):
            try:
                urllib.request.urlopen(base, timeout=1)
                break
            except OSError:
                time.sleep(0.1)
        with chromium() as b:
            page = b.new_page(viewport={"width": 1280, "height": 720})
            rec = RequestRecorder(page)
            page.goto(base + "?pack=http://evil.example/pack/")
            page.wait_for_function("window.__xslPlayer && window.__xslPlayer.stats().frames > 0", timeout=60000)
            from urllib.parse import urlparse
            assert not any(urlparse(u).hostname == "evil.example" for u in rec.urls), rec.urls
            assert "not a file of this site" in page.inner_text("body")
    finally:
        srv.terminate()
