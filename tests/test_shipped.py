"""The shipped build products (scene/web/pack/shipped.py, assets/prebuilt/): current, identical to a fresh
build, used by a first start instead of compiling, and ignored when stale or damaged."""
from __future__ import annotations

import shutil

import pytest

from scene.web.pack import shipped, store


@pytest.fixture
def empty_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("XIANGSHELI_CACHE", str(tmp_path / "cache"))
    monkeypatch.delenv("XIANGSHELI_NO_SHIPPED", raising=False)
    shipped._current.clear()
    yield tmp_path / "cache"
    shipped._current.clear()


def test_the_shipped_products_are_current():
    """Made from exactly these sources (else: python -m scene.web.pack.shipped --write)."""
    rec = shipped._key_record()
    assert rec is not None, "assets/prebuilt/KEY.json is missing: python -m scene.web.pack.shipped --write"
    assert rec["source_keys"] == shipped.source_keys(), \
        "assets/prebuilt/ is stale (the sources changed): python -m scene.web.pack.shipped --write"
    assert rec["font_key"] == store.font_key(), \
        "the shipped font is stale (its characters or the font files changed): python -m scene.web.pack.shipped --write"
    for folder in ("pack-zheng", "webfont"):
        assert store.verify(shipped.PREBUILT / folder) is None
    from scene.geometry import readings
    from scene.render import track_store
    assert rec["director"]["key"] == track_store.key_for(readings.get("zheng"), None), \
        "the shipped director's track is stale: python -m scene.web.pack.shipped --write"


def test_the_tracks_shipped_key_names_what_it_is_made_from_not_numpys_version(monkeypatch):
    """Another numpy or Python (a fresh install resolves the newest) keeps the shipped track's key — built under
    numpy 1.26.4, 2.2.6 and 2.4.6 the track was the same to the bit (bench/RESULTS.md), and
    test_a_fresh_build_is_identical_to_what_ships holds it to 1e-9 m — while the disk cache's key, a pickle's,
    changes; another reading changes both."""
    from scene.geometry import readings
    from scene.render import track_store
    from scene.rite import cache
    r = readings.get("zheng")
    shipped_key, cached_key = track_store.key_for(r, None), cache.rite_key(r, None)
    monkeypatch.setattr(cache.np, "__version__", "9.9.9")
    monkeypatch.setattr(cache.sys, "version_info", (3, 99, 0))
    assert track_store.key_for(r, None) == shipped_key
    assert cache.rite_key(r, None) != cached_key
    other = readings.get("zheng,bu_chi=6")
    assert track_store.key_for(other, None) != shipped_key and cache.rite_key(other, None) != cache.rite_key(r, None)


def test_a_first_start_copies_them_and_compiles_nothing(empty_cache, monkeypatch):
    """An empty cache: the pack and the font come from assets/prebuilt/, the rite is never compiled."""
    import scene.rite.timeline as timeline
    import scene.web.pack as webpack

    def forbidden(*a, **k):
        raise AssertionError("a first start with current shipped products must not build")
    monkeypatch.setattr(timeline, "build_rite", forbidden)
    monkeypatch.setattr(webpack, "build_pack", forbidden)
    monkeypatch.setattr(webpack, "write_font", forbidden)
    d = store.existing("zheng")
    assert d is not None and d.parent == empty_cache / "packs"
    assert (d / "scene.bin").read_bytes() == (shipped.PREBUILT / "pack-zheng" / "scene.bin").read_bytes()
    fonts = store.existing_font()
    assert fonts is not None
    assert fonts[1][0].read_bytes() == (shipped.PREBUILT / "webfont" / "cjk.otf").read_bytes()


def test_the_directors_track_is_read_from_what_ships_and_built_when_it_cannot_be(tmp_path, monkeypatch, caplog):
    """The default rite from the cache: its track is the shipped one (float64, as built), nothing made; a
    damaged file (one line), ``XIANGSHELI_NO_SHIPPED`` or a rite of other sources: built."""
    import copy

    import numpy as np

    from scene.render import shots, track_store
    from scene.rite.cache import load_rite
    rite = load_rite("zheng")
    monkeypatch.setenv("XIANGSHELI_CACHE", str(tmp_path / "cache"))     # what is built lands here
    monkeypatch.delenv("XIANGSHELI_NO_SHIPPED", raising=False)
    made = []

    def build_track(r):
        made.append(r)
        return shots.Track(np.array([0.0, len(made)]), np.zeros((2, 7)), np.array([False, True]))
    monkeypatch.setattr(shots, "build_track", build_track)

    def fresh(r):                                   # what a new process starts with: no track in memory
        monkeypatch.setattr(shots, "_TRACKS", shots.weakref.WeakKeyDictionary())
        return shots.track(r)
    tr = fresh(rite)
    with np.load(track_store.folder("zheng") / track_store.TRACK_FILE) as z:
        assert np.array_equal(tr.t, z["t"]) and np.array_equal(tr.v, z["v"]) and np.array_equal(tr.ease, z["ease"])
    assert not made and tr.v.dtype == np.float64 and len(tr.t) > 1000
    other = copy.copy(rite)
    other.cache_key = other.content_key = "0" * 24                      # a rite of other sources
    assert fresh(other).t[1] == 1 and len(made) == 1
    monkeypatch.setenv("XIANGSHELI_NO_SHIPPED", "1")
    assert fresh(rite).t[1] == 2 and len(made) == 2
    monkeypatch.delenv("XIANGSHELI_NO_SHIPPED")
    bad = tmp_path / "prebuilt"
    shutil.copytree(shipped.PREBUILT, bad)
    f = bad / "director-zheng" / track_store.TRACK_FILE
    blob = bytearray(f.read_bytes())
    blob[-100] ^= 0xFF
    f.write_bytes(bytes(blob))
    monkeypatch.setattr(track_store, "PREBUILT", bad)
    (tmp_path / "cache").mkdir(exist_ok=True)
    for old in (tmp_path / "cache").glob("director-*.pickle"):
        old.unlink()                                                    # not read from the cache either
    with caplog.at_level("WARNING", logger="xiangsheli.cache"):
        assert fresh(rite).t[1] == 3 and len(made) == 3
    assert "damaged" in caplog.text and len(caplog.records) == 1


def test_stale_or_damaged_products_are_not_used(empty_cache, monkeypatch, tmp_path, caplog):
    """Other sources (an edited checkout) or a damaged file: the pack is built, never copied."""
    monkeypatch.setattr(shipped, "source_keys", lambda: {"pack": "not-these"})
    monkeypatch.setattr(store, "font_key", lambda: "not-these")
    assert store.existing("zheng") is None
    assert shipped.font_key() is None
    shipped._current.clear()
    monkeypatch.undo()
    monkeypatch.setenv("XIANGSHELI_CACHE", str(empty_cache))
    bad = tmp_path / "prebuilt"
    shutil.copytree(shipped.PREBUILT, bad)
    blob = bytearray((bad / "pack-zheng" / "scene.bin").read_bytes())
    blob[1000] ^= 0xFF
    (bad / "pack-zheng" / "scene.bin").write_bytes(bytes(blob))
    monkeypatch.setattr(shipped, "PREBUILT", bad)
    got = tmp_path / "built"
    got.mkdir()
    with caplog.at_level("WARNING", logger="xiangsheli.packs"):
        assert shipped.fill_pack(store.normalise("zheng"), None, got) is False
    assert "damaged" in caplog.text and not any(got.iterdir())
    assert shipped.pack_for(store.normalise("xiang"), None) is None       # another reading: never shipped


def test_the_keys_name_files_as_a_wheel_does(tmp_path, monkeypatch):
    """A wheel holds assets/ and seeds/ inside scene/; a checkout beside it: either way a file is named
    assets/…, seeds/… or scene/… in a key (issue 44: the wheel's scene/seeds/… never matched the checkout's)."""
    from scene import paths
    wheel = tmp_path / "site-packages" / "scene"
    monkeypatch.setattr(paths, "PACKAGE", wheel)
    monkeypatch.setattr(paths, "ASSETS", wheel / "assets")
    monkeypatch.setattr(paths, "SEEDS", wheel / "seeds")
    assert paths.source_name(wheel / "assets" / "rite" / "a.toml") == "assets/rite/a.toml"
    assert paths.source_name(wheel / "seeds" / "jing.txt") == "seeds/jing.txt"
    assert paths.source_name(wheel / "web" / "app.py") == "scene/web/app.py"
    checkout = tmp_path / "clone"
    monkeypatch.setattr(paths, "PACKAGE", checkout / "scene")
    monkeypatch.setattr(paths, "ASSETS", checkout / "assets")
    monkeypatch.setattr(paths, "SEEDS", checkout / "seeds")
    assert paths.source_name(checkout / "assets" / "rite" / "a.toml") == "assets/rite/a.toml"
    assert paths.source_name(checkout / "seeds" / "jing.txt") == "seeds/jing.txt"
    assert paths.source_name(checkout / "scene" / "web" / "app.py") == "scene/web/app.py"


def test_the_font_key_is_the_font_and_the_characters_not_a_version(monkeypatch):
    """What changes the subset changes its key (another character, other font bytes); fontTools' version,
    which a fresh install resolves anew, does not."""
    import importlib.metadata

    from scene.web.pack import font
    chars = font.font_chars()
    key = font.font_key(chars)
    assert font.font_key(chars + "\u4e00\u9fa5") != key
    real = importlib.metadata.version
    monkeypatch.setattr(importlib.metadata, "version", lambda name: "99.0" if name.lower() == "fonttools" else real(name))
    assert font.font_key(chars) == key
    files = font.font_files()
    monkeypatch.setattr(font, "font_files", lambda: files[:1])
    assert font.font_key(chars) != key


@pytest.mark.slow
def test_a_fresh_build_is_identical_to_what_ships(tmp_path):
    """Built again from the sources (nothing from any cache), the director's track in a worker process the
    rite is pickled to (as where there is no fork: the first start forks it, test_start): the same bytes, pack
    and font, and the same director's track — its times and cuts to the last bit, its cameras to 1e-9 m (numpy's
    vector kernels may differ in the last bit between CPUs: the file written on another machine differed from
    this one's build by 2e-15 m in 22 of its 25 732 numbers, and not at all in the pack's float32).  The worker
    is forked from a process that may have built other readings' tracks before (as an app's does): the track
    must not depend on them (test_shots)."""
    import concurrent.futures
    import multiprocessing

    import numpy as np

    from scene.geometry import readings
    from scene.render import track_store
    from scene.rite.timeline import build_rite
    from scene.web import workers
    from scene.web.pack import build_pack, dumps, write_font
    r = readings.get("zheng")
    rite = build_rite(r, None)                # a rite compiled here: its track is never looked up, only built
    ctx = multiprocessing.get_context("fork") if "fork" in multiprocessing.get_all_start_methods() else None
    asked = []
    with concurrent.futures.ProcessPoolExecutor(1, mp_context=ctx) as ex:
        def director(rr):
            asked.append(ex.submit(workers.director_track, rr))       # the rite sent over, pickled
            return asked[-1].result
        manifest, data = build_pack(r, None, rite=rite, director=director)
        tr = asked[0].result()
    assert len(asked) == 1
    with np.load(track_store.folder("zheng") / track_store.TRACK_FILE) as z:
        assert np.array_equal(tr.t, z["t"]) and np.array_equal(tr.ease, z["ease"])
        assert tr.v.dtype == z["v"].dtype and np.allclose(tr.v, z["v"], rtol=0.0, atol=1e-9)
    assert data == (shipped.PREBUILT / "pack-zheng" / "scene.bin").read_bytes()
    assert dumps(manifest) == (shipped.PREBUILT / "pack-zheng" / "scene.json").read_bytes()
    write_font(tmp_path / "cjk.otf")
    assert (tmp_path / "cjk.otf").read_bytes() == (shipped.PREBUILT / "webfont" / "cjk.otf").read_bytes()
