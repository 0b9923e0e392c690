"""Pages of vector drawing (頁): a :class:`Page` records lines, polygons, circles and text in millimetres
(origin top-left, y down), and the same record is written as PDF (:func:`write_pdf`, through fpdf2, which
embeds a subset of each CJK font) or as inline SVG (:func:`svg`, for the HTML edition).

One record, two writers: the plan a performer holds on paper and the one he opens in a browser are the same
drawing.  Colours are greys (0 black … 1 white): the sheets print in black and white.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from html import escape
from pathlib import Path

from .fonts import SANS, text_width

A4_PORTRAIT = (210.0, 297.0)
A4_LANDSCAPE = (297.0, 210.0)
PT_MM = 25.4 / 72


@dataclass(frozen=True)
class Pen:
    """How a shape is stroked and filled: grey levels, width in mm, dash (on, off) in mm."""

    gray: float = 0.0
    width: float = 0.2
    fill: float | None = None
    dash: tuple[float, float] | None = None
    stroke: bool = True


@dataclass
class Page:
    """One page: its size in mm and the drawing ops in order."""

    w: float
    h: float
    ops: list[tuple] = field(default_factory=list)

    def line(self, x1, y1, x2, y2, pen: Pen = Pen()) -> None:
        self.ops.append(("poly", ((x1, y1), (x2, y2)), False, pen))

    def polyline(self, pts, pen: Pen = Pen(), closed: bool = False) -> None:
        pts = tuple((float(x), float(y)) for x, y in pts)
        if len(pts) >= 2:
            self.ops.append(("poly", pts, closed, pen))

    def rect(self, x, y, w, h, pen: Pen = Pen()) -> None:
        self.polyline(((x, y), (x + w, y), (x + w, y + h), (x, y + h)), pen, closed=True)

    def circle(self, cx, cy, r, pen: Pen = Pen()) -> None:
        self.ops.append(("circle", float(cx), float(cy), float(r), pen))

    def text(self, x, y, s: str, size: float, align: str = "l", gray: float = 0.0, family: str = SANS,
             angle: float = 0.0) -> None:
        """``s`` with its baseline at y; ``size`` is the em in mm; align l / c / r about x; ``angle`` in
        degrees counter-clockwise about (x, y)."""
        if s:
            self.ops.append(("text", float(x), float(y), s, float(size), align, gray, family, float(angle)))

    def arrow(self, x, y, heading_deg: float, length: float, pen: Pen = Pen()) -> None:
        """An arrow from (x, y) pointing to a compass heading (0 = north = up the page)."""
        h = math.radians(heading_deg)
        dx, dy = math.sin(h), -math.cos(h)
        tx, ty = x + dx * length, y + dy * length
        self.line(x, y, tx, ty, pen)
        s = max(length * 0.38, 0.8)
        for side in (-1, 1):
            a = h + math.pi + side * 0.45
            self.line(tx, ty, tx + math.sin(a) * s, ty - math.cos(a) * s, pen)

    def clip(self, x, y, w, h) -> None:
        self.ops.append(("clip", x, y, w, h))

    def unclip(self) -> None:
        self.ops.append(("unclip",))


# ---------------------------------------------------------------------------- PDF

def _anchor_x(x: float, s: str, size: float, align: str, family: str) -> float:
    if align == "l":
        return x
    w = text_width(s, size, family)
    return x - (w / 2 if align == "c" else w)


def write_pdf(pages: list[Page], out: Path | str, title: str = "", author: str = "",
              fonts: dict[str, str | None] | None = None) -> Path:
    """The pages as one PDF (fonts embedded as subsets), written atomically to ``out``; ``fonts``: the
    font files (default :func:`~.fonts.print_fonts` for the pages' characters)."""
    from fpdf import FPDF

    from .fonts import page_chars, print_fonts
    if not pages:
        raise ValueError("nothing to print")
    pdf = FPDF(unit="mm", format=(pages[0].w, pages[0].h))
    pdf.set_auto_page_break(False)
    pdf.set_margins(0, 0, 0)
    pdf.set_creator("xiangsheli-scene (python -m scene)")
    if title:
        pdf.set_title(title)
    if author:
        pdf.set_author(author)
    files = fonts or print_fonts(page_chars(pages))
    for fam in (SANS, "serif"):
        pdf.add_font(fam, fname=files[fam])
    if files.get("fallback"):
        pdf.add_font("fallback", fname=files["fallback"])
        pdf.set_fallback_fonts(["fallback"], exact_match=False)
    for page in pages:
        pdf.add_page(format=(page.w, page.h))
        _replay(pdf, page)
    out = Path(out)
    from ..atomic import replacing
    with replacing(out, mkdir=False) as tmp:
        pdf.output(str(tmp))
    return out


def _set_pen(pdf, pen: Pen) -> str:
    g = round(pen.gray * 255)
    pdf.set_draw_color(g, g, g)
    pdf.set_line_width(pen.width)
    if pen.dash:
        pdf.set_dash_pattern(dash=pen.dash[0], gap=pen.dash[1])
    else:
        pdf.set_dash_pattern()
    if pen.fill is not None:
        f = round(pen.fill * 255)
        pdf.set_fill_color(f, f, f)
        return "DF" if pen.stroke else "F"
    return "D"


def _replay(pdf, page: Page) -> None:
    clips = []
    for op in page.ops:
        kind = op[0]
        if kind == "poly":
            _, pts, closed, pen = op
            style = _set_pen(pdf, pen)
            if closed:
                pdf.polygon(pts, style=style)
            else:
                pdf.polyline(pts)
        elif kind == "circle":
            _, cx, cy, r, pen = op
            style = _set_pen(pdf, pen)
            pdf.circle(x=cx, y=cy, radius=r, style=style)
        elif kind == "text":
            _, x, y, s, size, align, gray, family, angle = op
            pdf.set_font(family, size=size / PT_MM)
            g = round(gray * 255)
            pdf.set_text_color(g, g, g)
            if angle:
                with pdf.rotation(angle, x, y):
                    pdf.text(_anchor_x(x, s, size, align, family), y, s)
            else:
                pdf.text(_anchor_x(x, s, size, align, family), y, s)
        elif kind == "clip":
            cm = pdf.rect_clip(*op[1:])
            cm.__enter__()
            clips.append(cm)
        elif kind == "unclip" and clips:
            clips.pop().__exit__(None, None, None)
    while clips:
        clips.pop().__exit__(None, None, None)


# ---------------------------------------------------------------------------- SVG

def _g(v: float) -> str:
    c = round(v * 255)
    return f"rgb({c},{c},{c})"


def _style(pen: Pen) -> str:
    s = f'stroke="{_g(pen.gray)}" stroke-width="{pen.width:.3f}"' if pen.stroke else 'stroke="none"'
    s += f' fill="{_g(pen.fill)}"' if pen.fill is not None else ' fill="none"'
    if pen.dash:
        s += f' stroke-dasharray="{pen.dash[0]:g} {pen.dash[1]:g}"'
    return s


def svg(page: Page, ident: str = "p") -> str:
    """The page as one ``<svg>`` element, sized in mm (CSS font families ``xsl-sans`` / ``xsl-serif``)."""
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {page.w:g} {page.h:g}" '
           f'width="{page.w:g}mm" height="{page.h:g}mm">']
    depth, nclip = 0, 0
    for op in page.ops:
        kind = op[0]
        if kind == "poly":
            _, pts, closed, pen = op
            d = " ".join(f"{x:.2f},{y:.2f}" for x, y in pts)
            out.append(f'<{"polygon" if closed else "polyline"} points="{d}" {_style(pen)}/>')
        elif kind == "circle":
            _, cx, cy, r, pen = op
            out.append(f'<circle cx="{cx:.2f}" cy="{cy:.2f}" r="{r:.2f}" {_style(pen)}/>')
        elif kind == "text":
            _, x, y, s, size, align, gray, family, angle = op
            anchor = {"l": "start", "c": "middle", "r": "end"}[align]
            rot = f' transform="rotate({-angle:g} {x:.2f} {y:.2f})"' if angle else ""
            out.append(f'<text x="{x:.2f}" y="{y:.2f}" font-size="{size:.2f}" text-anchor="{anchor}" '
                       f'class="{family}" fill="{_g(gray)}"{rot}>{escape(s)}</text>')
        elif kind == "clip":
            nclip += 1
            cid = f"{ident}c{nclip}"
            _, x, y, w, h = op
            out.append(f'<clipPath id="{cid}"><rect x="{x:.2f}" y="{y:.2f}" width="{w:.2f}" height="{h:.2f}"/>'
                       f'</clipPath><g clip-path="url(#{cid})">')
            depth += 1
        elif kind == "unclip" and depth:
            out.append("</g>")
            depth -= 1
    out += ["</g>"] * depth + ["</svg>"]
    return "\n".join(out)
