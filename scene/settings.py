"""The environment variables the program reads, in one place: each read when asked (so a test or a
long-running server that changes one sees the change), each with its default and what a bad value means.

=============================  =======================================================================
``XIANGSHELI_CACHE``           the cache folder (else the platform's user cache folder, :func:`cache_dir`)
``XIANGSHELI_NO_CACHE``        any non-empty value: build the rite, the bake and the sun map afresh
``XIANGSHELI_NO_SHIPPED``      any non-empty value: ignore the products shipped in ``assets/prebuilt/``
``XIANGSHELI_PACK_BUDGET_MB``  the disk the scene packs may take together (MB, default 300)
``XIANGSHELI_MSAA``            the stills' multisampling (samples, default 4)
``XIANGSHELI_SKIP_GLPROBE``    any non-empty value: trust OpenGL without probing it in a child process
``XIANGSHELI_PROGRESS``        ``1``: draw the commands' progress even off a terminal; ``0``: never (scene/progress.py)
=============================  =======================================================================
"""
from __future__ import annotations

import math
import os
from pathlib import Path

PACK_BUDGET_MB = 300.0
MSAA = 4


def cache_dir() -> Path:
    """The cache folder: ``XIANGSHELI_CACHE``, else the platform's user cache folder for ``xiangsheli-scene``
    (platformdirs: ``$XDG_CACHE_HOME/xiangsheli-scene`` or ``~/.cache/xiangsheli-scene`` on Linux, as before;
    ``~/Library/Caches/xiangsheli-scene`` on macOS; ``%LOCALAPPDATA%\\xiangsheli-scene\\Cache`` on Windows —
    where a user's tools look for, and clean, caches)."""
    base = os.environ.get("XIANGSHELI_CACHE")
    if base:
        return Path(base)
    from platformdirs import user_cache_dir
    return Path(user_cache_dir("xiangsheli-scene", appauthor=False))


def no_cache() -> bool:
    """``XIANGSHELI_NO_CACHE``: build everything afresh, read and write no cache file."""
    return bool(os.environ.get("XIANGSHELI_NO_CACHE"))


def no_shipped() -> bool:
    """``XIANGSHELI_NO_SHIPPED``: build what ships prebuilt (the default pack, the font, the director's track)
    as an edited checkout would — the benches and the first-start tests measure that."""
    return bool(os.environ.get("XIANGSHELI_NO_SHIPPED"))


def skip_glprobe() -> bool:
    """``XIANGSHELI_SKIP_GLPROBE``: the caller vouches for OpenGL (the probe's child process is not run)."""
    return bool(os.environ.get("XIANGSHELI_SKIP_GLPROBE"))


def pack_budget_bytes() -> int:
    """``XIANGSHELI_PACK_BUDGET_MB`` in bytes; a value that is not a positive finite number is the default."""
    try:
        mb = float(os.environ.get("XIANGSHELI_PACK_BUDGET_MB", PACK_BUDGET_MB))
    except ValueError:
        mb = PACK_BUDGET_MB
    if not (math.isfinite(mb) and mb >= 0):
        mb = PACK_BUDGET_MB
    return int(mb * 1e6)


def msaa_samples() -> int:
    """``XIANGSHELI_MSAA``: the stills' multisample count (0 turns it off); a bad value is the default."""
    try:
        n = int(os.environ.get("XIANGSHELI_MSAA", MSAA))
    except ValueError:
        return MSAA
    return n if 0 <= n <= 64 else MSAA
