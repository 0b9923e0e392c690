"""The compiled rite, cached on disk: keyed by the reading, the seed and the bytes of everything the
compilation reads (the choreography, the texts and the code of the pure layers), so a cold start does
not pay for the whole rite's compilation again, and any edit of those makes a new entry."""
from __future__ import annotations

import hashlib
import pickle
import sys
from pathlib import Path

import numpy as np

from .. import settings
from ..paths import ASSETS, PACKAGE, SEEDS, cache_dir  # noqa: F401  (cache_dir re-exported)

#: the layers a compiled rite depends on (the cache key hashes every module in them)
PURE_LAYERS = ("text", "geometry", "rite")


def source_files(layers=PURE_LAYERS) -> list[Path]:
    """Every Python module of the given layers of ``scene`` (sorted: the order of a hash)."""
    return sorted(f for layer in layers for f in (PACKAGE / layer).rglob("*.py"))


def rite_key(reading, seed) -> str:
    h = hashlib.sha256()
    h.update(repr((reading, seed, sys.version_info[:2], np.__version__)).encode())
    files = sorted(ASSETS.rglob("*.toml")) + sorted(SEEDS.glob("*.txt")) + source_files() + \
        [PACKAGE / "paths.py"]
    for f in files:
        try:
            h.update(str(f.relative_to(PACKAGE.parent)).encode())
            h.update(f.read_bytes())
        except (OSError, ValueError):
            h.update(b"?")
    return h.hexdigest()[:24]


_rites: dict[tuple, object] = {}


def load_rite(reading=None, seed: int | None = None):
    """The compiled rite under a reading, from the disk cache when its inputs are unchanged."""
    from ..geometry import readings
    from .timeline import build_rite
    r = readings.get(reading)
    key = (r, seed)
    if key in _rites:
        return _rites[key]
    if settings.no_cache():
        rite = build_rite(r, seed)
        _rites[key] = rite
        return rite
    d = cache_dir()
    f = d / f"rite-{r.name}-{rite_key(r, seed)}.pickle"
    rite = None
    if f.exists():
        try:
            with open(f, "rb") as fh:
                rite = pickle.load(fh)
        except Exception:     # a stale or broken cache entry is rebuilt, never trusted
            rite = None
    if rite is None:
        rite = build_rite(r, seed)
        try:
            from ..atomic import replacing
            with replacing(f) as tmp, open(tmp, "wb") as fh:
                pickle.dump(rite, fh, protocol=pickle.HIGHEST_PROTOCOL)
            old = sorted(d.glob(f"rite-{r.name}-*.pickle"), key=lambda p: p.stat().st_mtime)
            for stale in old[:-4]:
                stale.unlink(missing_ok=True)
        except OSError:
            pass
    _rites[key] = rite
    return rite
