"""A fast start (issue 11, item 7) changes nothing the app serves: the pack a first start builds (the rite
compiled in a worker, the director's track in another forked from it) is the pack, byte for byte (with the
track's worker sent the rite pickled, where there is no fork: test_shipped); the font subset's key remembered beside the cache is
the key; a warm start makes no worker process; a start that fails on its arguments leaves no GL probe; a
GL probe that passed is remembered while nothing it depends on changes, one that failed never is.
(The times themselves are measured by bench/bench_start.py, not here.)"""
from __future__ import annotations

import concurrent.futures
import json
import multiprocessing
import os
from pathlib import Path

import pytest

from scene.web.pack import store


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """A fresh cache, and the shipped build products out of the way: these tests are of a start that builds
    (an edited checkout, another reading); tests/test_shipped.py tests the start that copies them."""
    from scene.web.pack import shipped
    monkeypatch.setenv("XIANGSHELI_CACHE", str(tmp_path))
    monkeypatch.setenv("XIANGSHELI_NO_SHIPPED", "1")
    monkeypatch.setattr(shipped, "_current", {})
    monkeypatch.setattr(store, "_handed", set())
    monkeypatch.setattr(store, "_verified", set())
    return tmp_path


def test_the_font_key_is_the_hash_of_its_files_and_characters_and_is_remembered(cache, monkeypatch, tmp_path):
    from scene.web.pack import font
    extra = tmp_path / "extra.toml"
    extra.write_text('name = "鄉射"\n', encoding="utf-8")
    sources = font.font_sources()
    monkeypatch.setattr(font, "font_sources", lambda: [*sources, extra])
    real = font.font_chars
    calls = []

    def chars(extra_chars=""):
        calls.append(1)
        return real(extra_chars)
    monkeypatch.setattr(font, "font_chars", chars)
    key = store.font_key()
    assert key == font.font_key(real()) and len(calls) == 1      # the font files' bytes and the characters
    assert store.font_key() == key and len(calls) == 1           # unchanged sources: none is read
    extra.write_text('name = "鄉射禮"\n', encoding="utf-8")      # a source changes (size and mtime)
    assert store.font_key() == key and len(calls) == 2           # read again; 禮 is in the seeds already
    (cache / "webfont-key.json").write_text("{not json", encoding="utf-8")
    assert store.font_key() == key and len(calls) == 3           # a damaged memo is recomputed


def test_a_warm_start_makes_no_worker_process(cache, monkeypatch, tmp_path):
    from scene.web import app
    from scene.web import pack as webpack

    def build(reading=None, seed=None, **kw):
        return {"format": webpack.FORMAT, "key": "k"}, bytes(64)

    def write_font(out, extra=""):
        out.write_bytes(b"font")
        return [out]
    monkeypatch.setattr(webpack, "build_pack", build)
    monkeypatch.setattr(webpack, "write_font", write_font)
    store.pack_dir("zheng")
    store.font_dir()

    class NoPool:
        def __init__(self, *a, **k):
            raise AssertionError("a warm start made worker processes")
    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", NoPool)
    s = app.Service(tmp_path / "out", store.normalise("zheng"), "key1")
    assert s.ready and s.default_url.startswith("xslpack/pack-zheng-") and s.font_urls == ["xslfont/cjk.otf"]


@pytest.fixture(scope="module")
def one_process_pack():
    """The reference: the pack built in one process from a rite compiled there, with no cache — the shipped
    pack, which test_shipped builds so and finds byte-identical (when the sources are newer than it, it is
    stale and both tests fail)."""
    from scene.web.pack import shipped
    assert shipped.current("pack") is not None, "the shipped pack is stale: python -m scene.web.pack.shipped --write"
    folder = shipped.PREBUILT / "pack-zheng"
    return (folder / "scene.json").read_bytes(), (folder / "scene.bin").read_bytes()


@pytest.mark.slow
@pytest.mark.skipif("fork" not in multiprocessing.get_all_start_methods(), reason="a forked worker")
def test_the_first_start_s_pack_worker_forks_the_director_with_the_rite_and_keeps_nothing(cache, monkeypatch):
    """workers.build_pack: the director's worker is forked once the rite is compiled and reads it from its
    memory (not pickled over), and nothing keeps the rite once the worker has it.  (That the folder it writes
    holds the very pack built in one process: the first start's test below, which builds it so.)"""
    import numpy as np

    from scene.render import shots
    from scene.web import workers
    made = []

    def build_track(r):                          # in the forked worker (it inherits this): a track of its own
        made.append(r)
        return shots.Track(np.array([0.0, 7.0]), np.zeros((2, 7)), np.array([False, True]))
    monkeypatch.setattr(shots, "build_track", build_track)
    # as a first start's process: no track in memory (this one may have the default rite's from another test)
    monkeypatch.setattr(shots, "_TRACKS", shots.weakref.WeakKeyDictionary())
    folder = Path(workers.build_pack("zheng"))
    m = json.loads((folder / "scene.json").read_text(encoding="utf-8"))
    assert m["director"]["t"]["n"] == 2 and made == []        # made in the worker, not here
    assert workers._FORKED == {}                 # nothing kept once the worker has it


def test_the_directors_track_is_cached_beside_its_rite_and_remade_when_the_code_changes(cache, monkeypatch, capfd):
    """A still, a clip or ``camera`` of view ``auto`` in a new process reads the track the last one made
    (its making is most of a pack's build); an edit of the render layer's code, or a planted entry, makes
    it again; a rite not from the cache (a changed choreography) is never looked up."""
    import copy

    import numpy as np

    from scene.render import shots
    from scene.rite import cache as rc
    from scene.rite.cache import load_rite
    rite = load_rite("zheng")
    made = []

    def build_track(r):
        made.append(r)
        return shots.Track(np.array([0.0, len(made)]), np.zeros((2, 7)), np.array([False, True]))
    monkeypatch.setattr(shots, "build_track", build_track)

    def new_process():                               # what another process starts with: no track in memory
        monkeypatch.setattr(shots, "_TRACKS", shots.weakref.WeakKeyDictionary())
        return shots.track(rite)
    first = new_process()
    assert len(made) == 1 and len(list(cache.glob("director-zheng-*.pickle"))) == 1
    again = new_process()
    assert len(made) == 1 and np.array_equal(again.t, first.t)           # read, not made
    code = rc.source_files
    extra = cache / "edited.py"
    extra.write_text("# an edit of the render layer\n", encoding="utf-8")
    monkeypatch.setattr(rc, "source_files", lambda layers=rc.PURE_LAYERS:
                        code(layers) + ([extra] if "render" in layers else []))
    assert load_rite("zheng") is rite and new_process().t[1] == 2 and len(made) == 2
    f = max(cache.glob("director-zheng-*.pickle"), key=lambda p: p.stat().st_mtime)
    f.write_bytes(f.read_bytes()[:-1] + b"!")                          # altered: rebuilt, never unpickled
    capfd.readouterr()
    assert new_process().t[1] == 3 and len(made) == 3
    err = capfd.readouterr().err
    assert "its signature is wrong; rebuilding it" in err and len(err.strip().splitlines()) == 1
    own = copy.copy(rite)
    own.cache_key = None                                                # as a rite compiled by a test
    assert shots.track(own).t[1] == 4 and shots.track(own).t[1] == 4
    assert len(list(cache.glob("director-zheng-*.pickle"))) == 2         # the edited code's, the first's


def _niceness_here_and_below():
    from scene.web import workers
    ctx = multiprocessing.get_context("fork")
    with concurrent.futures.ProcessPoolExecutor(1, mp_context=ctx, initializer=workers.die_with_parent) as ex:
        return os.nice(0), ex.submit(os.nice, 0).result()


def test_a_first_start_s_workers_yield_to_the_server_and_not_further_below():
    """The build workers run at BUILD_NICE (the server, its GL probe and the page first); the director's
    worker, made by the pack's worker, at the same level, not lower (it is the build's longest part)."""
    from scene.web import workers
    ctx = multiprocessing.get_context("fork")
    base = os.nice(0)
    with concurrent.futures.ProcessPoolExecutor(1, mp_context=ctx, initializer=workers.die_with_parent) as ex:
        worker, below = ex.submit(_niceness_here_and_below).result()
    want = max(base, workers.BUILD_NICE)
    assert (worker, below) == (want, want) and os.nice(0) == base


def test_a_start_that_fails_on_its_arguments_leaves_no_gl_probe(cache, monkeypatch):
    from scene.render import glprobe
    monkeypatch.setattr(glprobe, "_ok", None)
    monkeypatch.setattr(glprobe, "_started", None)
    glprobe.configure()
    glprobe.start()
    proc = glprobe._started.proc
    from scene.web import app
    assert app.main(["--port", "99999"]) == 2
    assert proc.poll() is not None and glprobe._started is None


def test_a_probe_that_passed_is_remembered_and_one_that_failed_never(cache, monkeypatch):
    from scene.render import glprobe
    monkeypatch.setattr(glprobe, "_ok", None)
    monkeypatch.setattr(glprobe, "_started", None)
    monkeypatch.setattr(glprobe, "_PROBE", "print('vtkEGLRenderWindow')")      # a probe that passes, fast
    glprobe.configure()
    assert glprobe.ensure() == "vtkEGLRenderWindow" and len(list(cache.glob("glprobe-ok-*"))) == 1
    monkeypatch.setattr(glprobe, "_ok", None)
    glprobe.start()                                        # the same machine: nothing to start
    assert glprobe._started is None and glprobe.ensure() == "remembered"
    monkeypatch.setattr(glprobe, "_ok", None)
    monkeypatch.setenv("MESA_LOADER_DRIVER_OVERRIDE", "zink")   # what the driver depends on changed: probe again
    glprobe.start()
    assert glprobe._started is not None and glprobe.ensure() == "vtkEGLRenderWindow"
    for f in cache.glob("glprobe-ok-*"):
        f.unlink()
    monkeypatch.setattr(glprobe, "_ok", None)
    monkeypatch.setattr(glprobe, "_PROBE", "import sys; sys.exit(3)")           # a probe that fails
    with pytest.raises(glprobe.GLUnavailable):
        glprobe.ensure()
    assert not list(cache.glob("glprobe-ok-*"))
    monkeypatch.setattr(glprobe, "_ok", None)
    with pytest.raises(glprobe.GLUnavailable):             # and is asked again, not remembered
        glprobe.ensure()


@pytest.mark.slow
@pytest.mark.browser
def test_a_first_start_whose_build_is_done_before_the_server_is_up_gives_the_page_its_pack(tmp_path, monkeypatch):
    """The pack already in the cache (an edited checkout's, made by a ``python -m scene`` command) and only the
    font to subset: the server's layout waits for the font, and by then the build is done — before the server
    is up.  The page's state was made while the build ran (no pack yet), so the pack must still be sent to it
    (it once was not: the page said 'a first start' for ever, while the app printed 'scene ready')."""
    import shutil

    from webtools import READY, chromium, chromium_missing_reason, free_port, start_app
    if chromium_missing_reason():
        pytest.skip(chromium_missing_reason())
    served = store.pack_dir("zheng")                  # the session cache's: the pack an edited checkout builds
    cache = tmp_path / "cache"
    (cache / "packs").mkdir(parents=True)
    shutil.copytree(served, cache / "packs" / served.name, ignore=shutil.ignore_patterns(f"{store.PIN}*"))
    monkeypatch.setenv("XIANGSHELI_CACHE", str(cache))
    monkeypatch.setenv("XIANGSHELI_NO_SHIPPED", "1")    # the font is subset (seconds), the pack is found
    port = free_port()
    proc = start_app(port)
    try:
        with chromium() as b:
            page = b.new_page()
            page.goto(f"http://127.0.0.1:{port}/")
            page.wait_for_function(READY, timeout=60000)
            assert page.locator("#xsl-building").count() == 0
            assert page.evaluate("window.__xslPlayer.pack.director.title") == "導演"
    finally:
        proc.terminate()
        proc.wait(10)


@pytest.mark.slow
@pytest.mark.browser
def test_a_first_start_answers_the_page_while_the_scene_is_built(tmp_path, one_process_pack):
    """Cold, the address comes first; the page loads and says what it waits for (no spinner), then draws
    the pack with the director's camera as soon as the server has it — the very pack built in one process
    (its build workers: the rite compiled in one, the director's track in another forked from it)."""
    import subprocess
    import sys
    import threading

    from webtools import READY, chromium, chromium_missing_reason, free_port
    if chromium_missing_reason():
        pytest.skip(chromium_missing_reason())
    port = free_port()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    proc = subprocess.Popen([sys.executable, "app.py", "--port", str(port)], cwd=root, text=True,
                            env={**os.environ, "XIANGSHELI_CACHE": str(tmp_path / "cache"), "PYTHONUNBUFFERED": "1",
                                 "XIANGSHELI_NO_SHIPPED": "1"},
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    lines = []
    try:
        line = proc.stdout.readline()
        lines.append(line)
        assert "building the scene" in line and "open http://" in line, line
        threading.Thread(target=lambda: lines.extend(proc.stdout), daemon=True).start()
        with chromium() as b:
            page = b.new_page()
            for _ in range(100):
                try:
                    page.goto(f"http://127.0.0.1:{port}/")
                    break
                except Exception:
                    page.wait_for_timeout(100)
            page.wait_for_selector("#xsl-building", timeout=30000)
            assert "first start" in page.inner_text("#xsl-building")
            assert page.evaluate("!window.trame.state.get('xsl_default_pack')")
            # the panels' font is there already (the address waits for the subset, not for the pack)
            page.evaluate("document.fonts.load('16px XSLCJK', '鄉射禮')")
            assert page.evaluate("document.fonts.check('16px XSLCJK', '鄉射禮')")
            page.wait_for_function(READY, timeout=240000, polling=50)
            assert page.locator("#xsl-building").count() == 0
            m = page.evaluate("window.__xslPlayer.pack.director && window.__xslPlayer.pack.director.title")
            assert m == "導演"
        assert any("scene ready in" in x for x in lines)
    finally:
        proc.terminate()
        proc.wait(10)
    built = list((tmp_path / "cache" / "packs").glob("pack-zheng-*"))
    assert len(built) == 1, built
    assert ((built[0] / "scene.json").read_bytes(), (built[0] / "scene.bin").read_bytes()) == one_process_pack
