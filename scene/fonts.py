"""The fonts, in one place: where the CJK fonts are (the PyPI packages ``pylopdf-fonts-zh-tw`` for Noto Sans TC
and Noto Serif TC, ``pylopdf-fonts-zh-cn`` for Noto Sans SC, the fallback for the few forms the TC fonts lack),
which characters each has, and which to draw a text with.  The stills' labels (:mod:`scene.render.labels`),
the printed matter (:mod:`scene.print.fonts`) and the web font subset (:mod:`scene.web.pack.font`) ask here."""
from __future__ import annotations

import json
import os
from functools import lru_cache
from pathlib import Path

from .atomic import write_bytes
from .settings import cache_dir


class FontError(RuntimeError):
    """The CJK font package is missing."""


@lru_cache(maxsize=1)
def font_path() -> str:
    """Noto Sans TC (traditional forms), shipped by ``pylopdf-fonts-zh-tw``."""
    try:
        import pylopdf_fonts_zh_tw as tw
    except ImportError:
        raise FontError("the CJK font is missing: pip install pylopdf-fonts-zh-tw") from None
    return str(tw.sans_path())


@lru_cache(maxsize=1)
def fallback_font_path() -> str | None:
    """Noto Sans SC, for the few characters the TC font lacks."""
    try:
        import pylopdf_fonts_zh_cn as cn
    except ImportError:
        return None
    return str(cn.sans_path())


@lru_cache(maxsize=2)
def cmap(path: str) -> frozenset[int]:
    """The code points a font file has (read once with fontTools, then kept in the disk cache as JSON: a
    list of numbers, which nobody can plant code in — a wrong or damaged entry is read again from the font)."""
    st = os.stat(path)
    cache = cache_dir() / f"cmap-{Path(path).stem}-{st.st_size}-{int(st.st_mtime)}.json"
    try:
        got = json.loads(cache.read_text(encoding="ascii"))
        if isinstance(got, list) and all(isinstance(c, int) and 0 <= c <= 0x10FFFF for c in got):
            return frozenset(got)
    except (OSError, ValueError):
        pass
    from fontTools.ttLib import TTFont
    f = TTFont(path, lazy=True)
    try:
        cps = frozenset(f.getBestCmap())
    finally:
        f.close()
    try:
        write_bytes(cache, json.dumps(sorted(cps), separators=(",", ":")).encode("ascii"))
    except OSError:
        pass
    return cps


def font_for(text: str) -> str:
    """The font file that has every character of ``text`` (TC first, then SC)."""
    main = font_path()
    if all(ord(ch) < 0x2E80 for ch in text):
        return main
    if all(ord(ch) in cmap(main) for ch in text if not ch.isspace()):
        return main
    fb = fallback_font_path()
    if fb and all(ord(ch) in cmap(fb) for ch in text if not ch.isspace()):
        return fb
    return main


@lru_cache(maxsize=1)
def serif_path() -> str:
    """Noto Serif TC (the 經 in print), from ``pylopdf-fonts-zh-tw``; the sans where the serif is not shipped."""
    try:
        import pylopdf_fonts_zh_tw as tw
        return str(tw.serif_path())
    except (ImportError, AttributeError):
        return font_path()
