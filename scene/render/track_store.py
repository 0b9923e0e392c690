"""Where the director's track (:mod:`.shots`) of a compiled rite comes from, cheapest first:

1. **shipped** — the default reading's track, made by ``python -m scene.web.pack.shipped --write`` into
   ``assets/prebuilt/director-<reading>/track.npz`` (float64, as built; no pickle) and recorded in
   ``assets/prebuilt/KEY.json`` under a key that hashes everything the track is made from (the rite's reading
   and seed, the TOML of ``assets/``, the seeds, the modules of ``text/geometry/rite/render``), so a rite whose
   key is the recorded one has this track; the file's sha256 is checked before it is read.  A first
   ``still --view auto`` or a first start's still then waits for no director (~9 s here; on a slow school laptop
   a minute).

   **No version string is in that key** (issue 44: numpy's was, so every numpy release that a fresh install
   resolved would have built the track again).  What another numpy may change is the last bit of a float, and
   no key could promise more: the same numpy on another CPU gave 2e-15 m in 22 of the file's numbers.
   ``tests/test_shipped.py`` holds a fresh build to what ships — its times and cuts to the bit, its cameras to
   1e-9 m — and built under numpy 1.26.4, 2.2.6 and 2.4.6 here the track was the same to the bit, and the pack
   byte for byte (bench/RESULTS.md).  The disk cache (step 2) is a pickle, which another numpy or Python may
   not read (numpy 2's name ``numpy._core``): its key keeps both versions (``rite.cache_key``; the shipped key
   is built on ``rite.content_key``).
2. **the disk cache** — a signed pickle beside the rite (:func:`scene.rite.cache.entry`);
3. **built** (:func:`.shots.build_track`) and written to the cache.

A rite not from the cache (a test's, a changed choreography: no ``cache_key``) is never looked up.
``XIANGSHELI_NO_SHIPPED`` skips step 1, ``XIANGSHELI_NO_CACHE`` steps 1 and 2."""
from __future__ import annotations

import hashlib
import io
import json
import logging
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import numpy as np

from .. import settings
from ..paths import ASSETS

log = logging.getLogger("xiangsheli.cache")

PREBUILT = ASSETS / "prebuilt"
TRACK_FILE = "track.npz"
T = TypeVar("T")


def _key(compiled: str, reading, versions: bool = True) -> str:
    """A track's key: its rite's compiled key, then the hash of the code that made it (the render layer)."""
    from ..rite import cache
    return f"{compiled}{cache.rite_key(reading, None, (*cache.PURE_LAYERS, 'render'), versions)}"


def track_key(rite) -> str | None:
    """The key a rite's track is filed by in the disk cache (a pickle: Python's and numpy's versions in it), or
    None for a rite not from the cache."""
    compiled = getattr(rite, "cache_key", None)
    return None if compiled is None else _key(compiled, rite.reading)


def shipped_key(rite) -> str | None:
    """The key a rite's track ships under (what it is made from, no version string), or None for a rite not
    from the cache."""
    content = getattr(rite, "content_key", None)
    if content is None or getattr(rite, "cache_key", None) is None:
        return None
    return _key(content, rite.reading, versions=False)


def key_for(reading, seed: int | None) -> str:
    """:func:`shipped_key` of the rite ``load_rite(reading, seed)`` would give (for the shipped record)."""
    from ..rite import cache
    return _key(cache.rite_key(reading, seed, versions=False), reading, versions=False)


def folder(reading_name: str) -> Path:
    return PREBUILT / f"director-{reading_name}"


def write_shipped(out: Path, reading_name: str, tr, key: str) -> dict:
    """Write ``tr`` as ``director-<reading>/track.npz`` under ``out``; the record for KEY.json."""
    d = out / f"director-{reading_name}"
    d.mkdir(parents=True, exist_ok=True)
    with open(d / TRACK_FILE, "wb") as fh:
        np.savez(fh, t=np.asarray(tr.t, np.float64), v=np.asarray(tr.v, np.float64), ease=np.asarray(tr.ease, bool))
    return {"reading": reading_name, "key": key, "keys": int(len(tr.t)),
            "sha256": hashlib.sha256((d / TRACK_FILE).read_bytes()).hexdigest()}


def _shipped(rite, key: str, make: Callable[..., T]) -> T | None:
    """The shipped track when it was made under ``key`` and is intact, else None (a damaged one: one line)."""
    if settings.no_shipped():
        return None
    try:
        rec = json.loads((PREBUILT / "KEY.json").read_text(encoding="utf-8")).get("director")
    except (OSError, ValueError, AttributeError):
        return None
    if not isinstance(rec, dict) or rec.get("key") != key:            # the key holds the reading
        return None
    f = folder(rite.reading.name) / TRACK_FILE
    try:
        blob = f.read_bytes()
        if hashlib.sha256(blob).hexdigest() != rec.get("sha256"):
            raise ValueError("its sha256 is not the recorded one")
        with np.load(io.BytesIO(blob), allow_pickle=False) as z:      # the bytes hashed, not the file again
            t, v, ease = (np.array(z[k]) for k in ("t", "v", "ease"))
        n = len(t)
        if t.shape != (n,) or v.shape != (n, 7) or ease.shape != (n,) or not n \
                or not (np.isfinite(t).all() and np.isfinite(v).all()):
            raise ValueError("its arrays are not a track")
    except (OSError, ValueError, KeyError) as exc:
        log.warning("the shipped director's track %s is damaged (%s): building it", f.name, exc)
        return None
    return make(t.astype(np.float64), v.astype(np.float64), ease.astype(bool))


def load(rite, build: Callable[[], T], kind: type[T]) -> T:
    """The track of ``rite``: shipped, cached or built (``build()``); ``kind`` is its type (``kind(t, v,
    ease)`` makes one of arrays; the cache entry's check)."""
    from .. import progress

    def built() -> T:
        with progress.phase(f"the director's track ({rite.reading.name})"):
            return build()
    key = None if settings.no_cache() else track_key(rite)
    if key is None:
        return built()
    content = shipped_key(rite)
    got = None if content is None else _shipped(rite, content, kind)
    if got is not None:
        return got
    from ..rite import cache
    return cache.entry(f"director-{rite.reading.name}", key, built, kind, "a director's track")
