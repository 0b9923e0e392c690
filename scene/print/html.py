"""The HTML edition of the printed matter: the same pages as inline SVG, one printed page each (CSS
``@page`` at the pages' size), the CJK fonts beside them in ``font/`` (the subsets the PDF embeds), so any
browser prints the sheet the PDF is — nothing is fetched from outside."""
from __future__ import annotations

import os
import shutil
from html import escape
from pathlib import Path

from .canvas import Page, svg
from .fonts import page_chars, print_fonts

CSS = """@font-face {{ font-family: "xsl-sans"; src: url("{font}/sans.otf"); }}
@font-face {{ font-family: "xsl-serif"; src: url("{font}/serif.otf"); }}
{fallback}
@page {{ size: {w:g}mm {h:g}mm; margin: 0; }}
html, body {{ margin: 0; padding: 0; background: #888; }}
section.page {{ width: {w:g}mm; height: {h:g}mm; margin: 8mm auto; background: white; overflow: hidden;
  page-break-after: always; break-after: page; }}
section.page svg {{ display: block; }}
text.sans {{ font-family: "xsl-sans", "xsl-fallback", sans-serif; }}
text.serif {{ font-family: "xsl-serif", "xsl-fallback", serif; }}
@media print {{ html, body {{ background: white; }} section.page {{ margin: 0; }} }}
"""


def write_fonts(folder: Path, fonts: dict[str, str | None]) -> None:
    """The font subsets into ``folder`` (once: a file already there with the same size is kept) — through the
    one safe writer: ``folder`` or a font in it that is a symbolic link is refused, never written through."""
    from ..atomic import check_folder, check_target, replacing
    check_folder(folder)
    for fam in ("sans", "serif", "fallback"):
        src = fonts.get(fam)
        if not src:
            continue
        dst = check_target(folder / f"{fam}.otf")
        if not dst.exists() or dst.stat().st_size != os.stat(src).st_size:
            with replacing(dst) as tmp:
                shutil.copyfile(src, tmp)


def write_html(pages: list[Page], out: Path | str, title: str, fonts: dict[str, str | None] | None = None,
               font_dir: str = "font") -> Path:
    """The pages as one HTML file; the fonts go to ``font_dir`` beside it."""
    out = Path(out)
    fonts = fonts or print_fonts(page_chars(pages))
    write_fonts(out.parent / font_dir, fonts)
    fb = (f'@font-face {{ font-family: "xsl-fallback"; src: url("{font_dir}/fallback.otf"); }}'
          if fonts.get("fallback") else "")
    w, h = (pages[0].w, pages[0].h) if pages else (210, 297)
    body = "\n".join(f'<section class="page">{svg(p, f"p{i}")}</section>' for i, p in enumerate(pages))
    doc = (f'<!doctype html>\n<html lang="zh-Hant"><head><meta charset="utf-8"><title>{escape(title)}</title>\n'
           f'<style>{CSS.format(font=font_dir, fallback=fb, w=w, h=h)}</style></head>\n<body>\n{body}\n</body></html>\n')
    from ..atomic import write_text
    write_text(out, doc)
    return out
