"""The fonts of the printed matter (字體): Noto Sans TC for labels and tables, Noto Serif TC for the 經
(both from ``pylopdf-fonts-zh-tw``, SIL OFL), Noto Sans SC for the few forms the TC fonts lack; and the
advance width of every character, so text is wrapped and centred the same in the PDF and in the SVG."""
from __future__ import annotations

from functools import lru_cache

from ..text import kinsoku

#: the font families a page uses → file (the PDF embeds a subset of each; the HTML names them in CSS)
SANS, SERIF = "sans", "serif"


@lru_cache(maxsize=1)
def font_files() -> dict[str, str]:
    """family → font file; ``fallback`` is the SC font (None if it is not installed)."""
    from ..fonts import fallback_font_path, font_path, serif_path
    return {SANS: font_path(), SERIF: serif_path(), "fallback": fallback_font_path()}


@lru_cache(maxsize=4)
def _advances(path: str) -> tuple[dict[int, float], float]:
    """code point → advance in em, and the default for a character the font lacks (1 em)."""
    from fontTools.ttLib import TTFont
    f = TTFont(path, lazy=True)
    try:
        upem = f["head"].unitsPerEm
        hmtx = f["hmtx"]
        return {cp: hmtx[g][0] / upem for cp, g in f.getBestCmap().items()}, 1.0
    finally:
        f.close()


def text_width(s: str, size_mm: float, family: str = SANS) -> float:
    """Width in mm of ``s`` set at ``size_mm`` (the em) in ``family``."""
    adv, default = _advances(font_files()[family])
    return size_mm * sum(adv.get(ord(c), default) for c in s)


def wrap(s: str, width_mm: float, size_mm: float, family: str = SANS) -> list[str]:
    """``s`` broken into lines no wider than ``width_mm``: anywhere between CJK characters (as Chinese is
    set, but never before closing punctuation nor after an opening bracket: :mod:`scene.text.kinsoku`), at
    spaces between Latin words."""
    adv, default = _advances(font_files()[family])
    lines, line, w = [], "", 0.0
    for ch in s:
        cw = size_mm * adv.get(ord(ch), default)
        if ch == "\n" or (w + cw > width_mm and line):
            cut = line.rfind(" ")
            if ch != "\n" and ord(ch) < 0x2E80 and not ch.isspace() and cut > 0 and all(ord(c) < 0x2E80 for c in line[cut:]):
                lines.append(line[:cut])
                line = line[cut + 1:]
            elif ch == "\n":
                lines.append(line)
                line = ""
            else:                            # 禁則: no line starts with ，。」 nor ends with 「（
                kept, line = kinsoku.split(line, ch)
                lines.append(kept)
            w = text_width(line, size_mm, family)
            if ch == "\n" or (ch == " " and not line):
                continue
        line += ch
        w += cw
    if line:
        lines.append(line)
    return lines or [""]


def page_chars(pages) -> set[str]:
    """Every character the pages set."""
    chars: set[str] = set()
    for p in pages:
        for op in p.ops:
            if op[0] == "text":
                chars.update(op[3])
    return chars


def print_fonts(chars: set[str] | str = "") -> dict[str, str | None]:
    """Subsets of the fonts covering every character the sources can show (the web edition's set) and
    ``chars``, made once and kept in the cache folder: fpdf2 then reads and subsets a font of a few
    thousand glyphs, not one of twenty thousand (a booklet in under a second instead of four).  The
    characters the TC fonts lack go to a subset of the SC font (``fallback``, None if none are needed)."""
    import hashlib
    import os

    from ..fonts import cmap as _cmap
    from ..rite.cache import cache_dir
    from ..web.pack.font import _subset, font_chars
    files = font_files()
    want = {ord(c) for c in font_chars() + "".join(chars) if c.isprintable()}
    h = hashlib.sha256(repr(sorted(want)).encode())
    for f in files.values():
        if f:
            st = os.stat(f)
            h.update(f"{f}:{st.st_size}:{int(st.st_mtime)}".encode())
    folder = cache_dir() / f"print-fonts-{h.hexdigest()[:16]}"
    out: dict[str, str | None] = {}
    have = _cmap(files[SANS])
    for fam in (SANS, SERIF):
        path = folder / f"{fam}.otf"
        if not path.exists():
            folder.mkdir(parents=True, exist_ok=True)
            _subset(files[fam], want & _cmap(files[fam]), path, None)
        out[fam] = str(path)
    missing = want - have
    fb = files.get("fallback")
    out["fallback"] = None
    if fb and missing & _cmap(fb):
        path = folder / "fallback.otf"
        if not path.exists():
            _subset(fb, missing & _cmap(fb), path, None)
        out["fallback"] = str(path)
    return out
