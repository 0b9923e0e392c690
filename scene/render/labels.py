"""Chinese labels: the CJK font, text properties, and labels placed without overlap.

VTK's built-in fonts (Arial, Courier, Times) have no CJK glyphs and draw
*nothing* for Chinese — silently.  Every text here therefore uses a font file:
**Noto Sans TC** from the PyPI package ``pylopdf-fonts-zh-tw`` (SIL OFL), because
the labels and the 經 are in traditional characters and the TC font draws them
in their traditional forms.  It lacks a few rare forms the 記 uses (髤 旜); a
text with a character the TC font does not have falls back, as a whole, to
Noto Sans SC (``pylopdf-fonts-zh-cn``), which has them.

Labels are 2D text actors placed at the projection of a 3D anchor, greedily
by priority, each moved to the first of a few positions where it overlaps
nothing already placed (and dropped if none is free), with a leader line back
to its anchor when it had to move.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..fonts import FontError, fallback_font_path, font_for, font_path  # noqa: F401  (re-exported)
from ..fonts import cmap as _cmap  # noqa: F401  (re-exported: the print fonts and the review pages ask here)
from .palette import COLOURS as C
from .shapes import rgb


def _vtk_text():
    from vtkmodules import vtkRenderingFreeType  # noqa: F401  (registers the FreeType text renderer)
    from vtkmodules.vtkRenderingCore import vtkTextActor, vtkTextProperty  # noqa: F401
    return vtkTextActor


def style_text(tp, size: int, colour: str = C["ink"], *, text: str = "", font: str | None = "cjk",
               background: str | None = None, bg_opacity: float = 0.85, frame: str | None = None,
               frame_width: int = 1, halign: str = "left", valign: str = "bottom", bold: bool = False) -> None:
    """Set a vtkTextProperty: the CJK font file (``font=None`` keeps VTK's default, for the tests)."""
    from vtkmodules.vtkCommonCore import VTK_FONT_FILE
    if font == "cjk":
        tp.SetFontFamily(VTK_FONT_FILE)
        tp.SetFontFile(font_for(text))
    elif font is not None:
        tp.SetFontFamily(VTK_FONT_FILE)
        tp.SetFontFile(font)
    tp.SetFontSize(int(size))
    tp.SetColor(*[v / 255 for v in rgb(colour)])
    tp.SetBold(bold)
    tp.SetShadow(False)
    if background is not None:
        tp.SetBackgroundColor(*[v / 255 for v in rgb(background)])
        tp.SetBackgroundOpacity(bg_opacity)
    else:
        tp.SetBackgroundOpacity(0.0)
    if frame is not None:
        tp.SetFrame(True)
        tp.SetFrameColor(*[v / 255 for v in rgb(frame)])
        tp.SetFrameWidth(frame_width)
    else:
        tp.SetFrame(False)
    {"left": tp.SetJustificationToLeft, "center": tp.SetJustificationToCentered,
     "right": tp.SetJustificationToRight}[halign]()
    {"bottom": tp.SetVerticalJustificationToBottom, "center": tp.SetVerticalJustificationToCentered,
     "top": tp.SetVerticalJustificationToTop}[valign]()


def text_actor(text: str, size: int, x: float, y: float, colour: str = C["ink"], **kw):
    """A 2D text actor at viewport pixel (x, y)."""
    cls = _vtk_text()
    a = cls()
    a.SetInput(text)
    style_text(a.GetTextProperty(), size, colour, text=text, **kw)
    a.GetPositionCoordinate().SetCoordinateSystemToViewport()
    a.SetPosition(x, y)
    return a


def text_width(text: str, size: float) -> float:
    """Estimated width in pixels (CJK glyphs are one em; Latin about half)."""
    w = 0.0
    for ch in text:
        o = ord(ch)
        w += 1.0 if o >= 0x2E80 or 0xFF00 <= o <= 0xFFEF else (0.3 if ch in " .,:;'|il()[]" else 0.56)
    return w * size


@dataclass(frozen=True)
class Label:
    """A label to place: text, a 3D anchor (metres), a priority (higher first), a frame colour."""

    text: str
    anchor: tuple[float, float, float]
    priority: float = 0.0
    frame: str | None = None
    kind: str = "place"          # "actor" | "place" | "object"
    size_scale: float = 1.0


def project(points: np.ndarray, renderer) -> np.ndarray:
    """World points → viewport pixels (x, y) and depth (NDC z); NaN where behind the camera."""
    cam = renderer.GetActiveCamera()
    w, h = renderer.GetSize()
    aspect = w / max(h, 1)
    M = cam.GetCompositeProjectionTransformMatrix(aspect, -1.0, 1.0)
    A = np.array([[M.GetElement(i, j) for j in range(4)] for i in range(4)])
    P = np.column_stack([np.asarray(points, dtype=float), np.ones(len(points))]) @ A.T
    out = np.full((len(points), 3), np.nan)
    ok = P[:, 3] > 1e-9
    ndc = P[ok, :3] / P[ok, 3:4]
    out[ok, 0] = (ndc[:, 0] + 1) / 2 * w
    out[ok, 1] = (ndc[:, 1] + 1) / 2 * h
    out[ok, 2] = ndc[:, 2]
    return out


class LabelLayer:
    """A pool of text actors on one renderer, re-used from still to still."""

    def __init__(self, renderer, base_px: float) -> None:
        self.renderer = renderer
        self.base_px = base_px
        self.pool: list = []
        self.used = 0
        from vtkmodules.vtkCommonCore import vtkPoints
        from vtkmodules.vtkCommonDataModel import vtkCellArray, vtkPolyData
        from vtkmodules.vtkRenderingCore import vtkActor2D, vtkCoordinate, vtkPolyDataMapper2D
        self._pts, self._lines = vtkPoints(), vtkCellArray()
        self._poly = vtkPolyData()
        self._poly.SetPoints(self._pts)
        self._poly.SetLines(self._lines)
        mapper = vtkPolyDataMapper2D()
        mapper.SetInputData(self._poly)
        coord = vtkCoordinate()
        coord.SetCoordinateSystemToViewport()
        mapper.SetTransformCoordinate(coord)
        self.leaders = vtkActor2D()
        self.leaders.SetMapper(mapper)
        self.leaders.GetProperty().SetColor(*[v / 255 for v in rgb(C["ink_soft"])])
        self.leaders.GetProperty().SetLineWidth(max(1.0, base_px / 14))
        renderer.AddViewProp(self.leaders)
        self.placed: list[tuple[str, tuple[float, float, float, float]]] = []

    def _actor(self):
        if self.used < len(self.pool):
            a = self.pool[self.used]
        else:
            cls = _vtk_text()
            a = cls()
            a.GetPositionCoordinate().SetCoordinateSystemToViewport()
            self.renderer.AddViewProp(a)
            self.pool.append(a)
        self.used += 1
        a.SetVisibility(True)
        return a

    def clear(self) -> None:
        for a in self.pool:
            a.SetVisibility(False)
        self.used = 0
        self._pts.Reset()
        self._lines.Reset()
        self._poly.Modified()
        self.placed = []

    def place(self, labels: list[Label], blocked: list[tuple[float, float, float, float]] = ()) -> None:
        """Place labels by priority; ``blocked`` are boxes (x0, y0, x1, y1) to keep clear."""
        self.clear()
        if not labels:
            return
        w, h = self.renderer.GetSize()
        anchors = project(np.array([lb.anchor for lb in labels]), self.renderer)
        order = sorted(range(len(labels)), key=lambda i: -labels[i].priority)
        boxes: list[tuple[float, float, float, float]] = list(blocked)
        pad = max(2.0, self.base_px * 0.25)
        for i in order:
            lb = labels[i]
            ax, ay, az = anchors[i]
            if not np.isfinite(ax) or not (0 <= ax <= w and 0 <= ay <= h) or not (-1 <= az <= 1):
                continue
            size = max(11.0, self.base_px * lb.size_scale)      # legible in a thumbnail too
            tw = text_width(lb.text, size) + 2 * pad
            th = size * 1.25 + 2 * pad
            gap = size * 0.35
            cands = [(0, gap), (0, gap + th * 1.05), (tw * 0.6, gap), (-tw * 0.6, gap), (0, -gap - th),
                     (tw * 0.6, gap + th * 1.05), (-tw * 0.6, gap + th * 1.05), (0, gap + th * 2.1)]
            for dx, dy in cands:
                cx = ax + dx
                x0, y0 = cx - tw / 2, ay + dy
                bx = (x0, y0, x0 + tw, y0 + th)
                if bx[0] < 2 or bx[2] > w - 2 or bx[1] < 2 or bx[3] > h - 2:
                    continue
                if any(not (bx[2] <= o[0] or bx[0] >= o[2] or bx[3] <= o[1] or bx[1] >= o[3]) for o in boxes):
                    continue
                boxes.append(bx)
                a = self._actor()
                a.SetInput(lb.text)
                frame = lb.frame
                style_text(a.GetTextProperty(), size, C["ink"], text=lb.text, background="#fbf8f0",
                           bg_opacity=0.86, frame=frame or C["rule"], frame_width=max(1, int(round(size / 9))),
                           halign="center", valign="bottom")
                a.SetPosition(cx, y0 + pad)
                self.placed.append((lb.text, bx))
                if dx or dy > gap + 1:
                    k0 = self._pts.InsertNextPoint(ax, ay, 0)
                    tx = min(max(ax, bx[0]), bx[2])
                    ty = bx[1] if dy > 0 else bx[3]
                    k1 = self._pts.InsertNextPoint(tx, ty, 0)
                    self._lines.InsertNextCell(2)
                    self._lines.InsertCellPoint(k0)
                    self._lines.InsertCellPoint(k1)
                break
        self._pts.Modified()
        self._lines.Modified()
        self._poly.Modified()


def label_image(text: str, *, px: int = 48, font: str | None = "cjk", size: tuple[int, int] = (480, 120)):
    """Render one label alone, black on white; returns (image, box) — for tests of glyph coverage.

    ``font=None`` uses VTK's default font, which draws nothing for Chinese: the failure this guards.
    Needs pyvista (the extra ``[pyvista]``, part of ``[test]``).
    """
    from ..extras import need
    pv = need("pyvista", "pyvista", "label_image")
    p = pv.Plotter(off_screen=True, window_size=size)
    try:
        p.set_background("white")
        a = text_actor(text, px, 10, 10, "#000000", font=font)
        p.add_actor(a)
        img = p.screenshot(return_img=True)
    finally:
        p.close()
    box = (10, size[1] - 10 - int(px * 1.4), 10 + int(text_width(text, px)) + 4, size[1] - 10)   # x0, row0, x1, row1
    return img, box
