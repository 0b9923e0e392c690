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
    for folder in ("pack-zheng", "webfont"):
        assert store.verify(shipped.PREBUILT / folder) is None


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


def test_stale_or_damaged_products_are_not_used(empty_cache, monkeypatch, tmp_path, caplog):
    """Other sources (an edited checkout) or a damaged file: the pack is built, never copied."""
    monkeypatch.setattr(shipped, "source_keys", lambda: {"pack": "not-these", "font": "not-these"})
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


@pytest.mark.slow
def test_a_fresh_build_is_identical_to_what_ships(tmp_path):
    """Built again from the sources (nothing from any cache): the same bytes, pack and font."""
    from scene.geometry import readings
    from scene.rite.timeline import build_rite
    from scene.web.pack import build_pack, dumps, write_font
    r = readings.get("zheng")
    manifest, data = build_pack(r, None, rite=build_rite(r, None))
    assert data == (shipped.PREBUILT / "pack-zheng" / "scene.bin").read_bytes()
    assert dumps(manifest) == (shipped.PREBUILT / "pack-zheng" / "scene.json").read_bytes()
    write_font(tmp_path / "cjk.otf")
    assert (tmp_path / "cjk.otf").read_bytes() == (shipped.PREBUILT / "webfont" / "cjk.otf").read_bytes()
