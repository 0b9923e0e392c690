"""What the tests share in one pytest session: the compiled rite, the scene pack, Chromium (``webtools.chromium()``
hands out one browser to a run of browser tests instead of launching one per test).

Markers (registered in pyproject.toml): ``browser`` (drives Chromium), ``gl`` (renders through VTK/OpenGL),
``slow`` (a server, a subprocess build, a wheel, a browser).  The fast loop is ``pytest -m "not slow"``.
"""
from __future__ import annotations

import os

import pytest

# the scripting API's plotters never open a window under test
os.environ.setdefault("PYVISTA_OFF_SCREEN", "true")


@pytest.fixture(scope="session")
def rite():
    """The default reading's compiled rite (鄭玄), once per session (from the disk cache when it is fresh).
    Shared: a test must not change it."""
    from scene.rite.cache import load_rite
    return load_rite("zheng")


@pytest.fixture(scope="session")
def pack_dir(tmp_path_factory):
    """The scene pack of the default reading with its font subset, written once per session (the player's
    files read it).  Shared: a test that changes a pack writes its own."""
    from scene.web import pack as webpack
    d = tmp_path_factory.mktemp("pack")
    webpack.write_pack(d)
    webpack.write_font(d / "font" / "cjk.otf")
    return d


@pytest.fixture(scope="session")
def site(tmp_path_factory):
    """The static site (``python -m scene site``: both chapters, their packs and fonts, the review pages), built
    once per session by the command a user runs.  Shared: a test that changes a site writes its own."""
    import subprocess
    import sys
    from pathlib import Path
    out = tmp_path_factory.mktemp("site")
    r = subprocess.run([sys.executable, "-m", "scene", "site", "--out", str(out)],
                       cwd=Path(__file__).resolve().parents[1], capture_output=True, text=True, timeout=900)
    assert r.returncode == 0, r.stdout + r.stderr
    return out


@pytest.fixture(scope="module", autouse=True)
def _chromium_shared_within_a_module():
    """One Chromium for the browser tests of a module (module fixtures such as a page hold it), closed when the
    module ends."""
    yield
    import webtools
    webtools.close_shared()


@pytest.fixture(autouse=True)
def _no_chromium_open_in_other_tests(request):
    """Closed before any test that is not a browser test: Playwright's sync API keeps its event loop running in
    the main thread while it is open, and an ``asyncio.run`` there fails ("cannot be called from a running
    event loop")."""
    if request.node.get_closest_marker("browser") is None:
        import webtools
        webtools.close_shared()


def pytest_configure(config):
    import webtools
    webtools.SESSION = True


def pytest_collection_modifyitems(config, items):
    # a test that times this machine is slow too: the fast loop (-m "not slow") never measures a machine busy
    # with the others' tests (issue 44: test_review's 2 s report ran there); tests/run.sh runs them alone
    for item in items:
        if item.get_closest_marker("timing") is not None and item.get_closest_marker("slow") is None:
            item.add_marker(pytest.mark.slow)


def pytest_sessionfinish(session, exitstatus):
    import webtools
    webtools.close_shared()


@pytest.fixture(scope="module")
def served(pack_dir):
    """The player's files and the session's pack on a static server for a module: the base address."""
    import webtools
    with webtools.site(pack_dir) as (_root, url):
        yield url


@pytest.fixture(scope="module")
def browser():
    """A Chromium for a module's pages (the shared one: closed at the module's end)."""
    import webtools
    with webtools.chromium() as b:
        yield b


@pytest.fixture(scope="module")
def app_url(request):
    """The app on a free port for a module, with the module's presenter key ``KEY`` when it has one (a fresh one
    otherwise): its address ('http://127.0.0.1:PORT/')."""
    import webtools
    key = getattr(request.module, "KEY", None)
    with webtools.app_on_free_port(*(("--presenter-key", key) if key else ())) as port:
        yield f"http://127.0.0.1:{port}/"


@pytest.fixture(scope="module")
def site_url(served):
    """The player's page on the module's static site (:func:`served`)."""
    return served + "player.html"
