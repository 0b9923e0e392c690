"""Build products shipped with the program: the default reading's pack and the CJK font subset.

A first start used to compile the rite, make the director's track, bake the light and subset the font before
the page could draw (on a slow school laptop half a minute, five times the second start).  Those products
depend only on the program's own sources, so they are made once, by whoever changes the sources, and ship
in ``assets/prebuilt/``:

    assets/prebuilt/KEY.json            {"source_keys": {pack}, "font_key", "pack", "director", "built_with"}
    assets/prebuilt/pack-zheng/         scene.json, scene.bin, MANIFEST.json (sizes and sha256)
    assets/prebuilt/webfont/            cjk.otf, cjk-fallback.otf, MANIFEST.json
    assets/prebuilt/director-zheng/     track.npz: the director's track at full precision (the pack's is
                                        float32) for stills and clips of view ``auto``; keyed by its
                                        sources, no version string (scene.render.track_store)

**The keys** are sha256 hashes of the bytes of what each product is made from, each file named by its path
in the package (:func:`scene.paths.source_name`: ``assets/…``, ``seeds/…``, ``scene/…``), so that a checkout
and an installed wheel compute the same key (issue 44: the wheel's ``scene/seeds/…`` never matched).  The
pack's (:func:`pack_sources`: the seeds, every TOML of ``assets/``, every module of ``scene/``); the font's
(:func:`.font.font_key`: the bytes of the font files and the characters the subset covers — what changes its
output, not the version strings of fontTools or the font packages, which changed the key on every fresh
install).  A start whose sources give a shipped key copies that product into the cache (verified against its
manifest first) instead of building it; any other start — an edited checkout, a user reading, a seed — builds
as before, with one log line.  Python's, numpy's and fontTools' versions are recorded (``built_with``), not
keyed — the director's track's neither: the products are the same arithmetic on any of them, and
``tests/test_shipped.py`` checks on this machine that a fresh build is byte-identical to what ships (the
track's cameras to 1e-9 m); built under numpy 1.26.4, 2.2.6 and 2.4.6, the pack and the track were the same to
the bit (bench/RESULTS.md).

``XIANGSHELI_NO_SHIPPED=1`` ignores them (the benches measure what an edited checkout pays).
Made with ``python -m scene.web.pack.shipped --write`` (``--check`` says whether they are current).
"""
from __future__ import annotations

import argparse
import hashlib
import json
import logging
import shutil
import sys
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from ... import settings
from ...paths import ASSETS, PACKAGE, SEEDS, source_name

log = logging.getLogger("xiangsheli.packs")

PREBUILT = ASSETS / "prebuilt"
KEY_FILE = "KEY.json"
#: the only reading (and seed) that ships built: the default the app opens
READING, SEED = "zheng", None
#: packages whose versions are recorded with the font subset (not keyed: :func:`.font.font_key`)
FONT_PACKAGES = ("opencc-purepy", "pylopdf-fonts-zh-tw", "pylopdf-fonts-zh-cn", "fonttools")


def pack_sources() -> list[Path]:
    """Every file the shipped pack is made from, in a fixed order: the seeds, the TOML of ``assets/`` (the
    rite, the cast, the lessons …) and every module of ``scene/`` (in a wheel, assets/ is inside scene/: its
    files once)."""
    code = [f for f in PACKAGE.rglob("*.py") if not f.is_relative_to(ASSETS) and not f.is_relative_to(SEEDS)]
    return sorted(SEEDS.glob("*.txt")) + sorted(ASSETS.rglob("*.toml")) + sorted(code)


def _versions(names) -> dict[str, str]:
    out = {}
    for name in names:
        try:
            out[name] = version(name)
        except PackageNotFoundError:
            out[name] = "?"
    return out


def _hash(files: list[Path]) -> str:
    h = hashlib.sha256()
    for f in files:
        try:
            h.update(source_name(f).encode() + b"\0" + f.read_bytes() + b"\0")
        except OSError:
            h.update(b"?")
    return h.hexdigest()[:24]


def source_keys() -> dict[str, str]:
    """The hashes the shipped pack is keyed by (a few tens of ms: no conversion): ``pack`` of its sources."""
    return {"pack": _hash(pack_sources())}


def _key_record() -> dict | None:
    try:
        got = json.loads((PREBUILT / KEY_FILE).read_text(encoding="utf-8"))
        return got if isinstance(got, dict) and isinstance(got.get("source_keys"), dict) else None
    except (OSError, ValueError):
        return None


_current: dict[str, bool] = {}


def current(kind: str = "pack") -> dict | None:
    """The key record when the shipped ``kind`` ("pack" or "font") was made from exactly these sources (the
    font: these font files and characters, :func:`.store.font_key`)."""
    if settings.no_shipped():                           # benches and tests: what an edited checkout pays
        return None
    rec = _key_record()
    if rec is None:
        return None
    if kind not in _current:
        if kind == "pack":
            _current["pack"] = rec["source_keys"].get("pack") == source_keys()["pack"]
        else:
            from .store import font_key as key_now
            _current["font"] = rec.get("font_key") == key_now()
        if not _current[kind]:
            log.info("the shipped %s is stale (its sources changed): it will be built", kind)
    return rec if _current.get(kind) else None


def font_key() -> str | None:
    """The shipped font subset's key when it is this machine's (its font files and characters), else None."""
    rec = current("font")
    key = rec.get("font_key") if rec else None
    return key if isinstance(key, str) else None


def _copy_into(src: Path, tmp: Path) -> None:
    from .store import MANIFEST, verify
    bad = verify(src)
    if bad is not None:
        raise OSError(f"shipped {src.name} is damaged ({bad})")
    for f in src.iterdir():
        if f.is_file() and f.name != MANIFEST:
            shutil.copyfile(f, tmp / f.name)


def pack_for(r, seed) -> Path | None:
    """The shipped pack folder when it is this reading's and current, else None."""
    from ...geometry import readings
    if seed != SEED or current("pack") is None:
        return None
    if readings.to_query(r) != readings.to_query(readings.get(READING)):
        return None
    d = PREBUILT / f"pack-{READING}"
    return d if d.is_dir() else None


def fill_pack(r, seed, tmp: Path) -> bool:
    """Copy the shipped pack into ``tmp`` (a store build folder) when it serves; False: build it."""
    src = pack_for(r, seed)
    if src is None:
        return False
    try:
        _copy_into(src, tmp)
    except OSError as exc:
        log.warning("%s: building instead", exc)
        return False
    return True


def fill_font(key: str, tmp: Path) -> bool:
    """Copy the shipped font subset into ``tmp`` when its key is ``key``; False: subset the font."""
    if font_key() != key or not (PREBUILT / "webfont").is_dir():
        return False
    try:
        _copy_into(PREBUILT / "webfont", tmp)
    except OSError as exc:
        log.warning("%s: subsetting instead", exc)
        return False
    return True


def write(out: Path = PREBUILT) -> dict:
    """Build the products from the sources as they are now (nothing read from the cache) into ``out``."""
    import numpy as np

    from ...geometry import readings
    from ...render import shots, track_store
    from ...rite.timeline import build_rite
    from . import build_pack, dumps, write_font
    from .font import font_chars
    from .font import font_key as content_font_key
    from .store import write_manifest
    r = readings.get(READING)
    keys = source_keys()
    tmp = out.with_name(out.name + ".tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    (tmp / f"pack-{READING}").mkdir(parents=True)
    (tmp / "webfont").mkdir()
    rite = build_rite(r, SEED)
    tr = shots.track(rite)                  # built (a rite compiled here has no cache key); the pack uses it too
    manifest, data = build_pack(r, SEED, rite=rite)
    (tmp / f"pack-{READING}" / "scene.bin").write_bytes(data)
    (tmp / f"pack-{READING}" / "scene.json").write_bytes(dumps(manifest))
    write_manifest(tmp / f"pack-{READING}")
    write_font(tmp / "webfont" / "cjk.otf")
    write_manifest(tmp / "webfont")
    rec = {"source_keys": keys,
           "font_key": content_font_key(font_chars()),
           "pack": {"reading": READING, "seed": SEED, "bytes": len(data) + len(dumps(manifest))},
           "director": track_store.write_shipped(tmp, r.name, tr, track_store.key_for(r, SEED)),
           "built_with": {"python": ".".join(map(str, sys.version_info[:3])), "numpy": np.__version__,
                          **_versions(FONT_PACKAGES)}}
    (tmp / KEY_FILE).write_text(json.dumps(rec, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    if source_keys() != keys:
        shutil.rmtree(tmp, ignore_errors=True)
        raise RuntimeError("the sources changed while the products were built: run it again")
    shutil.rmtree(out, ignore_errors=True)
    tmp.rename(out)
    _current.clear()
    return rec


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m scene.web.pack.shipped",
                                 description="the build products shipped in assets/prebuilt/")
    g = ap.add_mutually_exclusive_group(required=True)
    g.add_argument("--write", action="store_true", help="build them from the sources as they are now")
    g.add_argument("--check", action="store_true", help="exit 1 when they are not current")
    a = ap.parse_args(argv)
    if a.write:
        rec = write()
        print(f"assets/prebuilt/: source keys {rec['source_keys']}, pack {rec['pack']['bytes']:,} bytes, "
              f"font key {rec['font_key']}")
        return 0
    rec = _key_record()
    if rec is None:
        print("assets/prebuilt/: missing (python -m scene.web.pack.shipped --write)")
        return 1
    from .store import font_key as key_now
    now = {**source_keys(), "font": key_now()}
    was = {**rec["source_keys"], "font": rec.get("font_key")}
    stale = [k for k, v in now.items() if was.get(k) != v]
    if stale:
        print(f"assets/prebuilt/: the {' and the '.join(stale)} {'are' if len(stale) > 1 else 'is'} stale "
              f"(the sources changed): python -m scene.web.pack.shipped --write")
        return 1
    print(f"assets/prebuilt/: current ({now})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
