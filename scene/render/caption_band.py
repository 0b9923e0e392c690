"""The caption band (題記) under a still and the 2D overlays on its view, in raw VTK 2D actors (no pyvista).

The band: the stage's number and title (§ 節), its phase, the 經 phrase being animated and who does it, the
reading and the moment, and a scale bar in 尺 above and metres below (exact in the plan; at the focal point in a
perspective view).  The overlays, drawn on the view itself: the burned-in subtitle (字幕: the phrase and the
seed's sentence), and in a plan (parallel) view the north arrow (北) and the colour key of the cast (人物).
Every piece is re-drawn per still; the props of the last still are removed first.  The 3D scene, its camera
and the window are the :class:`~scene.render.studio.Studio`'s; this module only draws onto its renderers.
"""
from __future__ import annotations

import math

from .labels import text_width
from .palette import COLOURS as C
from .shapes import rgb

# the band's measure (px) is kept under this name too: the studio exported it
text_width_px = text_width


def wrap_text(text: str, size: float, width: float) -> list[str]:
    """``text`` in lines no wider than ``width`` px at ``size`` px, broken between characters as Chinese is set,
    with the 禁則 (:mod:`scene.text.kinsoku`: no line starts with ，。」)."""
    from ..text import kinsoku
    out, cur = [], ""
    for ch in text:
        if text_width(cur + ch, size) > width and cur:
            kept, carried = kinsoku.split(cur, ch)
            out.append(kept)
            cur = carried + ch
        else:
            cur += ch
    if cur:
        out.append(cur)
    return out or [""]


def _nice(x: float) -> float:
    """A round number ≤ x (1, 2, 5 × 10^k)."""
    if x <= 0:
        return 1.0
    k = 10 ** math.floor(math.log10(x))
    for m in (5, 2, 1):
        if m * k <= x:
            return m * k
    return k


def poly2d(renderer, points, polys=(), lines=(), colour=C["ink"], width: float = 1.0):
    """Filled polygons and/or polylines in viewport pixels (origin bottom left), added to ``renderer``."""
    from vtkmodules.vtkCommonCore import vtkPoints
    from vtkmodules.vtkCommonDataModel import vtkCellArray, vtkPolyData
    from vtkmodules.vtkRenderingCore import (
        vtkActor2D,
        vtkCoordinate,
        vtkPolyDataMapper2D,
    )
    pts = vtkPoints()
    for x, y in points:
        pts.InsertNextPoint(float(x), float(y), 0.0)
    pd = vtkPolyData()
    pd.SetPoints(pts)

    def cells(groups) -> vtkCellArray:
        ca = vtkCellArray()
        for g in groups:
            ca.InsertNextCell(len(g))
            for i in g:
                ca.InsertCellPoint(i)
        return ca
    if polys:
        pd.SetPolys(cells(polys))
    if lines:
        pd.SetLines(cells(lines))
    m = vtkPolyDataMapper2D()
    m.SetInputData(pd)
    coord = vtkCoordinate()
    coord.SetCoordinateSystemToViewport()
    m.SetTransformCoordinate(coord)
    a = vtkActor2D()
    a.SetMapper(m)
    a.GetProperty().SetColor(*[v / 255 for v in rgb(colour)])
    a.GetProperty().SetLineWidth(width)
    renderer.AddViewProp(a)
    return a


def text2d(renderer, text, size, x, y, colour=C["ink"], **kw):
    """A text actor (the CJK font; at least 8 px) at viewport pixels (x, y), added to ``renderer``."""
    from .labels import text_actor
    a = text_actor(text, max(8, round(size)), x, y, colour, **kw)
    renderer.AddViewProp(a)
    return a


class CaptionBand:
    """The caption band of a window of ``size`` px, under the 3D ``view`` renderer, and the view's overlays."""

    @staticmethod
    def height_px(h: int) -> int:
        """The band's height: 15 % of the picture's (at least 24 px)."""
        return max(24, round(h * 0.15))

    def __init__(self, window, view, size: tuple[int, int], reading, rite) -> None:
        from vtkmodules.vtkRenderingCore import vtkRenderer
        h = size[1]
        self.view = view
        self.size = size
        self.reading = reading
        self.rite = rite
        self.band_px = self.height_px(h)
        self.base = h / 1080.0          # sizes are given for a 1080-row picture
        self.band = vtkRenderer()
        self.band.SetViewport(0.0, 0.0, 1.0, self.band_px / h)
        self.band.SetBackground(*[v / 255 for v in rgb(C["paper"])])
        self.band.InteractiveOff()
        window.AddRenderer(self.band)
        self._band_props: list = []
        self._overlay_props: list = []
        self.text = ""                  # the last still's caption, as one line (Still.caption)

    # ------------------------------------------------------------------ overlays on the view
    def overlays(self, subtitle: str, pose, dyn, parallel: bool, vw: int, vh: int) -> list:
        """Draw the view's overlays anew; the boxes (x0, y0, x1, y1) they cover, which labels must avoid."""
        for prop in self._overlay_props:
            self.view.RemoveViewProp(prop)
        self._overlay_props = []
        blocked = []
        if subtitle:
            blocked += self._subtitle(subtitle, vw, vh)
        if parallel:
            blocked += self._north_arrow(vw, vh)
            blocked += self._legend(pose, dyn, vw, vh)
        return blocked

    def _subtitle(self, text: str, vw: int, vh: int) -> list:
        """The caption line as the player shows it: the phrase, and under it the seed's sentence, white on a
        dark band (80 % black: contrast ≥ 7:1 over any picture), the phrase 4.7 % of the view's height."""
        lines = [ln for ln in text.split("\n") if ln.strip()][:2]
        if not lines:
            return []
        big = max(16.0, 0.047 * vh)
        sizes = [big] + [big * 0.62] * (len(lines) - 1)
        fitted = []
        for ln, sz in zip(lines, sizes):          # a long sentence is wrapped to the view's width (two lines at most)
            fitted += [(x, sz) for x in wrap_text(ln, sz, 0.9 * vw)[:2]]
        pad = 0.3 * big
        heights = [sz * 1.3 for _, sz in fitted]
        w = max(text_width(x, sz) for x, sz in fitted) + 2 * pad
        h = sum(heights) + pad
        x0, y0 = (vw - w) / 2, 0.035 * vh
        box = poly2d(self.view, [(x0, y0), (x0 + w, y0), (x0 + w, y0 + h), (x0, y0 + h)], polys=[(0, 1, 2, 3)],
                     colour="#000000")
        box.GetProperty().SetOpacity(0.8)
        self._overlay_props.append(box)
        y = y0 + h - pad * 0.5
        for (x, sz), hh in zip(fitted, heights):
            y -= hh
            self._overlay_props.append(text2d(self.view, x, sz, vw / 2, y + 0.2 * sz, "#ffffff", halign="center"))
        return [(x0, 0, x0 + w, y0 + h)]

    def _north_arrow(self, vw: int, vh: int) -> list:
        """北 over an arrow at the top right of a plan (north is up there)."""
        s = self.base
        cx, cy, r = vw - 60 * s, vh - 95 * s, 26 * s
        pts = [(cx, cy + r), (cx - r * 0.55, cy - r * 0.75), (cx, cy - r * 0.3), (cx + r * 0.55, cy - r * 0.75)]
        self._overlay_props.append(poly2d(self.view, pts, polys=[(0, 1, 2), (0, 2, 3)], colour=C["ink"]))
        self._overlay_props.append(poly2d(self.view, [(cx, cy - r * 1.2), (cx, cy + r * 1.1)], lines=[(0, 1)],
                                          colour=C["ink"], width=max(1.0, 1.5 * s)))
        self._overlay_props.append(text2d(self.view, "北", 26 * s, cx, cy + r + 6 * s, halign="center"))
        return [(cx - 40 * s, cy - 40 * s, cx + 40 * s, vh)]

    def _legend(self, pose, dyn, vw: int, vh: int) -> list:
        """Colour key of the cast on stage (plan view): swatch and name; one line per colour."""
        s = self.base
        chor = self.rite.choreography
        ids = [aid for aid in pose.actor_ids if f"actor.{aid}" in dyn.anchors]
        if not ids:
            return []
        groups: dict[str, list[str]] = {}
        for aid in ids:
            groups.setdefault(chor.actors[aid].colour.lower(), []).append(aid)
        entries = []
        for colour, members in groups.items():
            a = chor.actors[members[0]]
            # one man by his name; a group sharing a colour by its role and its number (眾賓 ×5)
            text = a.name if len(members) == 1 else f"{a.role.split(' ')[0]} ×{len(members)}"
            entries.append((colour, text))
        size = 16 * s
        line = size * 1.55
        x0, y_top = 16 * s, vh - 40 * s
        self._overlay_props.append(text2d(self.view, "人物（顏色）", size * 1.05, x0, y_top + 4 * s, C["ink_soft"]))
        for k, (colour, text) in enumerate(entries):
            y = y_top - (k + 1) * line
            sw = [(x0, y), (x0 + size, y), (x0 + size, y + size), (x0, y + size)]
            self._overlay_props.append(poly2d(self.view, sw, polys=[(0, 1, 2, 3)], colour=colour))
            self._overlay_props.append(poly2d(self.view, sw + [sw[0]], lines=[(0, 1, 2, 3, 4)], colour=C["ink_soft"]))
            self._overlay_props.append(text2d(self.view, text, size, x0 + size * 1.6, y - size * 0.1))
        width = max(text_width(t, size) for _, t in entries) + size * 2.5
        return [(0, y_top - (len(entries) + 1) * line - 6 * s, x0 + width, vh)]

    # ------------------------------------------------------------------ the band
    def draw(self, stage, pose, span, cam, ppm: float, show: bool = True) -> dict:
        """The band for a still (``self.text`` its one-line caption); the scale bar drawn (see
        :meth:`_scale_bar`), or {} when ``show`` is false and the view takes the whole window."""
        from ..rite import choreography as chor_mod
        for prop in self._band_props:
            self.band.RemoveViewProp(prop)
        self._band_props = []
        w, _ = self.size
        bh = self.band_px
        s = self.base
        r = self.reading
        phrase = span.phrase if (span is not None and span.section == stage.n) else stage.incipit + "…"
        who = ""
        if span is not None and span.section == stage.n and span.who:
            names = [self.rite.names.get(a, a) for a in span.who]
            who = "、".join(names)
        phase = chor_mod.PHASES.get(stage.phase, stage.phase)
        rel = pose.t - stage.start_s
        self.text = f"§{stage.n} {stage.title} — {phrase}" + (f"（{who}）" if who else "")
        if not show:
            self.band.SetViewport(0, 0, 1, 1e-4)
            self.view.SetViewport(0.0, 0.0, 1.0, 1.0)
            return {}
        self.view.SetViewport(0.0, bh / self.size[1], 1.0, 1.0)
        self.band.SetViewport(0.0, 0.0, 1.0, bh / self.size[1])
        B, band = self._band_props, self.band
        # the top rule
        B.append(poly2d(band, [(0, bh - 1.5 * s), (w, bh - 1.5 * s)], lines=[(0, 1)], colour=C["rule"],
                        width=max(1.0, 2 * s)))
        x = 22 * s
        t1 = f"§{stage.n}  {stage.title}"
        size1 = 34 * s
        B.append(text2d(band, t1, size1, x, bh - 48 * s, C["ink"]))
        B.append(text2d(band, phase, 16 * s, x + text_width(t1, size1) + 24 * s, bh - 44 * s, C["ink_soft"]))
        bar_w = 0.2 * w
        text_w = w - bar_w - 90 * s - x
        size2 = 23 * s
        line = f"經：{phrase}" + (f"　（{who}）" if who else "")
        lines = wrap_text(line, size2, text_w)[:2]
        for k, ln in enumerate(lines):
            B.append(text2d(band, ln, size2, x, bh - (84 + 30 * k) * s, C["ink"]))
        # what the chapter's text fixes whatever the reading says (鄉飲酒禮: the 庠, a 大夫's 堂), said beside the
        # reading's title, which names chapter 5's building
        from ..geometry.layout import fixed_by_text
        fixed = fixed_by_text(r, self.rite.layout.reading)
        info = (f"讀法 {r.name}：{r.title}{fixed}　·　t = {pose.t:.1f} s（本節 {rel:.1f} s / {stage.end_s - stage.start_s:.0f} s）"
                f"　·　視角 {cam.title}")
        B.append(text2d(band, wrap_text(info, 14 * s, text_w)[0], 14 * s, x, 10 * s, C["ink_soft"]))
        return self._scale_bar(ppm, cam, w - bar_w - 40 * s, bar_w)

    def _scale_bar(self, ppm: float, cam, x0: float, max_w: float) -> dict:
        """A bar in 尺 above, metres below, sharing one scale (exact in the plan): {'px': bar length, 'chi': …,
        'metres': …, 'x0': col, 'y': row, 'height', 'm_px', 'm'} in band pixels."""
        s = self.base
        chi = self.reading.chi_m
        bh = self.band_px
        chi_len = _nice(max_w / (ppm * chi))
        px = chi_len * chi * ppm
        y = bh * 0.48
        hgt = max(3.0, 7 * s)
        B, band = self._band_props, self.band
        n = 5 if chi_len / 5 == int(chi_len / 5) else 4
        pts, polys = [], []
        for k in range(n):          # alternating black/white segments, as on a map
            xa, xb = x0 + px * k / n, x0 + px * (k + 1) / n
            if k % 2 == 0:
                base = len(pts)
                pts += [(xa, y), (xb, y), (xb, y + hgt), (xa, y + hgt)]
                polys.append((base, base + 1, base + 2, base + 3))
        B.append(poly2d(band, pts, polys=polys, colour=C["ink"]))
        outline = [(x0, y), (x0 + px, y), (x0 + px, y + hgt), (x0, y + hgt)]
        B.append(poly2d(band, outline, lines=[(0, 1, 2, 3, 0)], colour=C["ink"], width=max(1.0, 1.2 * s)))
        fs = 14 * s
        for k in range(n + 1):
            v = chi_len * k / n
            B.append(text2d(band, f"{v:g}", fs, x0 + px * k / n, y + hgt + 4 * s, C["ink"], halign="center"))
        B.append(text2d(band, "尺", fs, x0 + px + 10 * s, y + hgt + 4 * s, C["ink"]))
        # metres underneath, ticked at round metres on the same scale
        m_len = _nice(chi_len * chi)
        mpx = m_len * ppm
        ticks = [(x0, y - 2 * s), (x0, y - 9 * s), (x0 + mpx, y - 2 * s), (x0 + mpx, y - 9 * s),
                 (x0, y - 9 * s), (x0 + mpx, y - 9 * s)]
        B.append(poly2d(band, ticks, lines=[(0, 1), (2, 3), (4, 5)], colour=C["ink_soft"], width=max(1.0, 1.2 * s)))
        B.append(text2d(band, "0", fs, x0, y - 12 * s, C["ink_soft"], halign="center", valign="top"))
        B.append(text2d(band, f"{m_len:g} m", fs, x0 + mpx, y - 12 * s, C["ink_soft"], halign="center",
                        valign="top"))
        where = "比例尺" if cam.parallel else "比例尺（焦點處）"
        B.append(text2d(band, f"{where}　1 尺 = {chi * 100:g} cm", fs, x0, bh - 30 * s, C["ink_soft"]))
        return {"px": px, "chi": chi_len, "metres": chi_len * chi, "x0": x0, "y": y, "height": hgt,
                "m_px": mpx, "m": m_len}
