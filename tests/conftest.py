"""What the tests share in one pytest session: the compiled rite, the scene pack, one Chromium.

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
def shared_chromium():
    """One Chromium for the session's browser tests (``webtools.chromium()`` hands it out), or a skip."""
    import webtools
    why = webtools.chromium_missing_reason()
    if why:
        pytest.skip(why)
    return webtools.shared_browser()


def pytest_configure(config):
    import webtools
    webtools.SHARE = True


def pytest_sessionfinish(session, exitstatus):
    import webtools
    webtools.close_shared()
