"""The CJK font subset the web edition ships: every character the sources can show, from Noto Sans TC
(and SC for the rest), as OTF and WOFF2."""
from __future__ import annotations

import gzip
from pathlib import Path


def font_sources() -> list[Path]:
    """The files whose characters the font covers: seeds/*.txt, assets/**/*.toml, assets/web/*.js|html|css and
    scene/**/*.py — the same set in a checkout and a wheel (the checkout's app.py, a launcher that shows
    nothing, is not among them: a wheel has none, and the font it asked for would differ)."""
    from ...paths import ASSETS, PACKAGE, SEEDS
    files = sorted(SEEDS.glob("*.txt")) + sorted(ASSETS.rglob("*.toml"))
    for ext in ("js", "html", "css"):
        files += sorted((ASSETS / "web").glob(f"*.{ext}"))
    # a wheel's scene/ holds assets/ and seeds/: their files are listed above, not again
    return files + sorted(f for f in PACKAGE.rglob("*.py") if not f.is_relative_to(ASSETS) and not f.is_relative_to(SEEDS))


def font_files() -> list[Path]:
    """The font files the subset is cut from: Noto Sans TC, and Noto Sans SC for what TC lacks."""
    from ...fonts import fallback_font_path, font_path
    return [Path(p) for p in (font_path(), fallback_font_path()) if p]


def font_key(chars: str | None = None) -> str:
    """What the subset is made from, as bytes: the hash of the font files and the characters (``chars``,
    default :func:`font_chars`).  Not the fontTools version: the subsetter's output for the same font and
    characters is what tests/test_shipped.py compares to what ships, and a version bump that kept it is no
    reason to subset again on every machine."""
    import hashlib
    h = hashlib.sha256()
    for f in font_files():
        h.update(f.name.encode() + b"\0" + hashlib.sha256(f.read_bytes()).digest())
    h.update((font_chars() if chars is None else chars).encode())
    return h.hexdigest()[:12]


def font_chars(extra: str = "") -> str:
    """Every character the web edition can show: the :func:`font_sources` (seeds as written, and converted
    to either script), plus ``extra``; sorted."""
    files = font_sources()
    from ... import text as texts
    chars = set(extra)
    for f in files:
        if f.is_file():
            try:
                text = f.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                continue
            chars.update(text)
            if f.suffix == ".toml" and f.parent.name == "lessons":
                chars.update(texts.to_simplified(text))          # a lesson's captions are shown in 简 too
            if f.parent.name == "seeds":
                # the pack shows the 經 and notes in both scripts, converted by OpenCC phrase by phrase
                chars.update(texts.to_simplified(text))
                chars.update(texts.to_traditional(text))
    chars.update(chr(c) for c in range(0x20, 0x7F))        # ASCII, always
    return "".join(sorted(ch for ch in chars if ch.isprintable() or ch == "\u3000"))


def _subset(src: str, codepoints: set[int], out: Path, flavor: str | None = None, *, layout: bool = True) -> None:
    """A subset of the font ``src`` with ``codepoints``, written atomically to ``out``; ``layout=False`` drops the
    layout tables (a page of plain text, such as a review page, needs no shaping and loads a third faster)."""
    from fontTools import subset
    opts = subset.Options()
    opts.layout_features = ["*"] if layout else []
    if not layout:
        opts.drop_tables += ["GSUB", "GPOS", "GDEF"]
    opts.name_IDs = ["*"]
    opts.notdef_outline = True
    opts.hinting = False
    opts.desubroutinize = False
    opts.flavor = flavor
    font = subset.load_font(src, opts, lazy=True)
    try:
        sub = subset.Subsetter(opts)
        sub.populate(unicodes=sorted(codepoints))
        sub.subset(font)
        from ...atomic import replacing
        with replacing(out) as tmp:
            subset.save_font(font, str(tmp), opts)
    finally:
        font.close()


def write_font(out_path, extra: str = "") -> list[Path]:
    """A subset of the CJK font (Noto Sans TC) covering :func:`font_chars`, at ``out_path``; the
    characters the TC font lacks (髤 旜 …) go into a second subset of the fallback (Noto Sans SC),
    ``<stem>-fallback<suffix>`` beside it (CSS: list both in one ``font-family``).  OpenType (.otf),
    or WOFF2 when ``brotli`` is importable and ``out_path`` ends in .woff2.  Returns the files written."""
    out = Path(out_path)
    flavor = None
    if out.suffix.lower() == ".woff2":
        try:
            import brotli  # noqa: F401
            flavor = "woff2"
        except ImportError:
            out = out.with_suffix(".otf")
    out.parent.mkdir(parents=True, exist_ok=True)
    from ... import progress
    with progress.phase("the CJK font subset"):
        return _write_font(out, flavor, extra)


def _write_font(out: Path, flavor: str | None, extra: str) -> list[Path]:
    from ...fonts import cmap as _cmap
    from ...fonts import fallback_font_path, font_path
    want = {ord(ch) for ch in font_chars(extra)}
    main = font_path()
    have = _cmap(main)
    _subset(main, want & have, out, flavor)
    written = [out]
    missing = want - have
    fb = fallback_font_path()
    fb_out = out.with_name(f"{out.stem}-fallback{out.suffix}")
    if fb and missing and (missing & _cmap(fb)):
        _subset(fb, missing & _cmap(fb), fb_out, flavor)
        written.append(fb_out)
    else:
        fb_out.unlink(missing_ok=True)
    return written


def sizes(folder) -> dict[str, tuple[int, int]]:
    """Raw and gzip sizes of the files of a pack folder."""
    out = {}
    for f in sorted(Path(folder).iterdir()):
        if f.is_file():
            raw = f.read_bytes()
            out[f.name] = (len(raw), len(gzip.compress(raw, 6)))
    return out
