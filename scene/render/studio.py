"""The off-screen studio: one VTK render window (vtkmodules, no pyvista) for a batch, the static scene added
once, per still the dynamic polydata, the camera, the labels and the caption band (stage, phrase, reading, a scale bar in 尺 and m)."""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

import numpy as np

from . import glprobe
from .. import settings
from .palette import AMBIENT, DIFFUSE, LIGHTS, COLOURS as C
from .shapes import rgb
from .annotate import actor_labels, object_labels, place_labels
from ..rite.cache import load_rite

MAX_SIZE = (7680, 4320)
MIN_SIZE = 16


class StillError(ValueError):
    """A bad stage, size, view or time (one line)."""


def parse_size(text: str) -> tuple[int, int]:
    """'1920x1080' → (1920, 1080), within 16×16 … 7680×4320."""
    m = re.fullmatch(r"\s*(\d{1,6})\s*[x×X]\s*(\d{1,6})\s*", text or "")
    if not m:
        raise StillError(f"--size {text!r} is not WxH (e.g. 1920x1080)")
    w, h = int(m.group(1)), int(m.group(2))
    if not (MIN_SIZE <= w <= MAX_SIZE[0] and MIN_SIZE <= h <= MAX_SIZE[1]):
        raise StillError(f"--size {text!r} is out of range ({MIN_SIZE}x{MIN_SIZE} to {MAX_SIZE[0]}x{MAX_SIZE[1]})")
    return w, h


@dataclass
class Still:
    """One rendered picture and what it shows."""

    image: np.ndarray
    stage: object
    t: float
    view: str
    camera: object
    px_per_m: float
    scale_bar: dict = field(default_factory=dict)     # {'px': bar length, 'chi': …, 'metres': …, 'y': row, 'x0': col}
    labels: list = field(default_factory=list)         # (text, box) placed
    caption: str = ""


def _nice(x: float) -> float:
    """A round number ≤ x (1, 2, 5 × 10^k)."""
    if x <= 0:
        return 1.0
    k = 10 ** math.floor(math.log10(x))
    for m in (5, 2, 1):
        if m * k <= x:
            return m * k
    return k


class Studio:
    """One off-screen plotter for a reading and a size; renders stills of any moment and view."""

    def __init__(self, reading=None, size: tuple[int, int] = (1920, 1080), *, roof: str = "cutaway",
                 antialias: bool = True, seed: int | None = None, rite=None) -> None:
        glprobe.configure()
        glprobe.start()
        from . import meshes
        from ..geometry import readings
        self.reading = readings.get(reading)
        self.rite = rite if rite is not None else load_rite(self.reading, seed)
        self.lay = self.rite.layout
        self.static = meshes.build_static(self.reading)
        self.size = size
        self.roof = roof
        glprobe.ensure()
        import vtkmodules.vtkRenderingFreeType  # noqa: F401  (text)
        import vtkmodules.vtkRenderingOpenGL2  # noqa: F401  (the OpenGL backend)
        from vtkmodules.vtkRenderingCore import vtkRenderer, vtkRenderWindow
        w, h = size
        self.band_px = max(24, int(round(h * 0.15)))
        self.base = h / 1080.0
        rw = vtkRenderWindow()
        rw.SetOffScreenRendering(1)
        # MSAA: the one anti-aliasing that works off-screen here (FXAA draws nothing under EGL);
        # above 4K the pixels are small enough without it, and the samples would not fit in memory
        rw.SetMultiSamples(self.msaa_samples(size) if antialias else 0)
        rw.SetSize(w, h)
        self.window = rw
        self.ren = vtkRenderer()
        self.ren.SetViewport(0.0, self.band_px / h, 1.0, 1.0)
        self.ren.GradientBackgroundOn()
        self.ren.SetBackground(*[v / 255 for v in rgb(C["sky_bottom"])])
        self.ren.SetBackground2(*[v / 255 for v in rgb(C["sky_top"])])
        self.ren.AutomaticLightCreationOff()
        # see-through things (the contact discs, a ghost roof) are blended in one pass: order-independent
        # translucency costs a set of extra buffers per frame on a software GL, and black discs or one grey
        # roof look the same in any order
        self.ren.SetUseOIT(False)
        rw.AddRenderer(self.ren)
        self._lights()
        self._static_actors(roof)
        self.dyn_actor = self._actor(None)
        self.contact_actor = self._contact_actor()
        self.band = vtkRenderer()
        self.band.SetViewport(0.0, 0.0, 1.0, self.band_px / h)
        self.band.SetBackground(*[v / 255 for v in rgb(C["paper"])])
        self.band.InteractiveOff()
        rw.AddRenderer(self.band)
        from .labels import LabelLayer
        self.labels = LabelLayer(self.ren, 19.0 * self.base)
        self._band_props: list = []
        self._overlay_props: list = []

    @staticmethod
    def msaa_samples(size: tuple[int, int]) -> int:
        return settings.msaa_samples() if size[0] * size[1] <= 3840 * 2160 else 0

    # ------------------------------------------------------------------ setup
    def _lights(self) -> None:
        from vtkmodules.vtkRenderingCore import vtkLight
        for direction, colour, k in LIGHTS:
            direction = np.asarray(direction, dtype=float)
            lt = vtkLight()
            lt.SetLightTypeToSceneLight()
            lt.SetPositional(False)
            lt.SetPosition(*(direction * 100.0))
            lt.SetFocalPoint(0.0, 0.0, 0.0)
            lt.SetColor(*colour)
            lt.SetIntensity(k)
            self.ren.AddLight(lt)

    def _actor(self, poly, lit: bool = True, opacity: float = 1.0):
        from vtkmodules.vtkRenderingCore import vtkActor, vtkPolyDataMapper
        mapper = vtkPolyDataMapper()
        if poly is not None:
            mapper.SetInputData(poly)
        mapper.SetScalarModeToUsePointFieldData()
        mapper.SelectColorArray("rgb")
        mapper.SetColorModeToDirectScalars()
        mapper.ScalarVisibilityOn()
        a = vtkActor()
        a.SetMapper(mapper)
        pr = a.GetProperty()
        pr.SetAmbient(AMBIENT if lit else 1.0)
        pr.SetDiffuse(DIFFUSE if lit else 0.0)
        pr.SetSpecular(0.04)
        pr.SetSpecularPower(12)
        pr.SetOpacity(opacity)
        pr.SetInterpolationToGouraud()
        if not lit:
            pr.LightingOff()          # colours are final (baked): a simpler shader, no normals needed
        self.ren.AddActor(a)
        return a

    def _contact_actor(self):
        """The contact shadows: unlit black discs whose alpha fades to the rim (blended, no depth writes)."""
        a = self._actor(None, lit=False)
        a.GetMapper().SelectColorArray("rgba")
        a.GetProperty().SetOpacity(0.999)       # translucent pass: after the opaque scene, blended over it
        a.SetForceTranslucent(True)
        return a

    @staticmethod
    def _contact_poly(items):
        from vtkmodules.util.numpy_support import numpy_to_vtk, numpy_to_vtkIdTypeArray
        from vtkmodules.vtkCommonCore import vtkPoints
        from vtkmodules.vtkCommonDataModel import vtkCellArray, vtkPolyData
        from .meshes import contact
        mesh, rgba = contact.disc_mesh(items)
        poly = vtkPolyData()
        if not len(mesh.tris):
            return poly
        pts = vtkPoints()
        pts.SetData(numpy_to_vtk(np.ascontiguousarray(mesh.points, dtype=np.float32), deep=True))
        poly.SetPoints(pts)
        n = len(mesh.tris)
        cells = vtkCellArray()
        cells.SetData(numpy_to_vtkIdTypeArray(np.arange(0, 3 * n + 1, 3, dtype=np.int64), deep=True),
                      numpy_to_vtkIdTypeArray(np.ascontiguousarray(mesh.tris.ravel(), dtype=np.int64), deep=True))
        poly.SetPolys(cells)
        col = numpy_to_vtk(np.ascontiguousarray(rgba), deep=True)
        col.SetName("rgba")
        poly.GetPointData().AddArray(col)
        return poly

    def _static_actors(self, roof: str) -> None:
        from .meshes import ROOF_MODES, to_vtk
        if roof not in ROOF_MODES:
            raise StillError(f"--roof {roof!r} is not one of {', '.join(ROOF_MODES)}")
        self.static_actors = {}
        # the baked layers: occlusion and the sun's shadows are in their colours (as the pack has them), so
        # they are drawn unlit
        for name, batch in self.static.baked().items():
            poly = to_vtk(batch, self.static.scale, normals=False)
            ghost = name.startswith("roof") and roof == "ghost"
            self.static_actors[name] = self._actor(poly, lit=False, opacity=0.28 if ghost else 1.0)

    def _roof_for(self, cam) -> None:
        """Cut away the slope that stands between the camera and the 堂 (both, from overhead)."""
        north, south = self.static_actors["roof_north"], self.static_actors["roof_south"]
        if self.roof in ("solid", "ghost"):
            north.SetVisibility(True)
            south.SetVisibility(True)
        elif self.roof == "none":
            north.SetVisibility(False)
            south.SetVisibility(False)
        else:
            h = self.lay.hall
            ridge_y = h.y_dong * self.reading.chi_m
            overhead = cam.parallel or (cam.position[2] - cam.focal_point[2]) > 0.9 * math.dist(cam.position, cam.focal_point)
            north.SetVisibility(bool(not overhead and cam.position[1] < ridge_y))
            south.SetVisibility(bool(not overhead and cam.position[1] >= ridge_y))

    # ------------------------------------------------------------------ one still
    def _viewport_size(self) -> tuple[int, int]:
        w, h = self.size
        return w, h - self.band_px

    def render(self, t: float, view: str = "overview", *, labels: bool = True, caption: bool = True,
               stage=None, camera=None, subtitle: str = "") -> Still:
        """One still at time t from a named view, or from ``camera`` (a :class:`views.Camera`: the app's);
        ``subtitle`` (lines: the phrase, then the seed's sentence) is burned in at the foot of the view."""
        from . import meshes
        from . import views
        from .meshes import to_vtk
        rite = self.rite
        pose = rite.pose_at(t)
        stage = stage or rite.stage_at(pose.t)
        vel = self._velocities(pose)
        dyn = meshes.build_dynamic(rite, pose, velocity=vel)
        both = dyn.main
        both.extend(dyn.shadows)
        self.dyn_actor.GetMapper().SetInputData(to_vtk(both))
        self.contact_actor.GetMapper().SetInputData(self._contact_poly(meshes.contact.discs(rite, pose, dyn.anchors)))
        span = rite.span_at(pose.t)
        focus = tuple(span.who) if span is not None and span.section == stage.n else ()
        vw, vh = self._viewport_size()
        cam = camera if camera is not None else views.camera(view, rite, pose, vw / vh, focus)
        views.apply(cam, self.ren)
        self._roof_for(cam)
        ppm = cam.px_per_m(vh)
        for prop in self._overlay_props:
            self.ren.RemoveViewProp(prop)
        self._overlay_props = []
        blocked = []
        if subtitle:
            blocked += self._subtitle(subtitle, vw, vh)
        if cam.parallel:
            blocked += self._north_arrow(vw, vh)
            blocked += self._legend(pose, dyn, vw, vh)
        if labels:
            lbs = actor_labels(rite, pose, dyn, focus, small=cam.name in ("overview", "range", "plan")) + place_labels(self.lay, cam.name) + object_labels(rite, dyn)
            self.labels.place(lbs, blocked)
        else:
            self.labels.clear()
        bar = self._caption(stage, pose, span, cam, ppm, show=caption)
        img = self.grab()
        return Still(img, stage, pose.t, cam.name, cam, ppm, bar, list(self.labels.placed), self._caption_text)

    def grab(self) -> np.ndarray:
        """Render the window and read it back as an (h, w, 3) uint8 array, top row first."""
        from vtkmodules.util.numpy_support import vtk_to_numpy
        from vtkmodules.vtkRenderingCore import vtkWindowToImageFilter
        rw = self.window
        rw.Render()
        f = vtkWindowToImageFilter()
        f.SetInput(rw)
        f.SetInputBufferTypeToRGB()
        f.ReadFrontBufferOff()
        f.ShouldRerenderOff()
        f.Update()
        w, h = self.size
        return vtk_to_numpy(f.GetOutput().GetPointData().GetScalars()).reshape(h, w, 3)[::-1].copy()

    def _velocities(self, pose) -> dict[str, np.ndarray] | None:
        flying = [k for k, oid in enumerate(pose.object_ids)
                  if oid.startswith("arrow.") and "flight" in (pose.object_state[k] or "")]
        if not flying:
            return None
        s = self.rite.sample(np.array([max(0.0, pose.t - 0.02), pose.t]))
        v = s["object_xyz_m"][1] - s["object_xyz_m"][0]
        return {pose.object_ids[k]: v[k].astype(float) for k in flying}

    # ------------------------------------------------------------------ overlays
    def _poly2d(self, points, polys=(), lines=(), colour=C["ink"], renderer=None, width: float = 1.0):
        from vtkmodules.vtkCommonCore import vtkPoints
        from vtkmodules.vtkCommonDataModel import vtkCellArray, vtkPolyData
        from vtkmodules.vtkRenderingCore import vtkActor2D, vtkCoordinate, vtkPolyDataMapper2D
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
        (renderer or self.ren).AddViewProp(a)
        return a

    def _text(self, text, size, x, y, colour=C["ink"], renderer=None, **kw):
        from .labels import text_actor
        a = text_actor(text, max(8, int(round(size))), x, y, colour, **kw)
        (renderer or self.ren).AddViewProp(a)
        return a

    def _subtitle(self, text: str, vw: int, vh: int) -> list:
        """The caption line as the player shows it: the phrase, and under it the seed's sentence, white on a
        dark band (80 % black: contrast ≥ 7:1 over any picture), the phrase 4.7 % of the view's height."""
        from .labels import text_width
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
        box = self._poly2d([(x0, y0), (x0 + w, y0), (x0 + w, y0 + h), (x0, y0 + h)], polys=[(0, 1, 2, 3)],
                           colour="#000000")
        box.GetProperty().SetOpacity(0.8)
        self._overlay_props.append(box)
        y = y0 + h - pad * 0.5
        for (x, sz), hh in zip(fitted, heights):
            y -= hh
            self._overlay_props.append(self._text(x, sz, vw / 2, y + 0.2 * sz, "#ffffff", halign="center"))
        return [(x0, 0, x0 + w, y0 + h)]

    def _north_arrow(self, vw: int, vh: int) -> list:
        s = self.base
        cx, cy, r = vw - 60 * s, vh - 95 * s, 26 * s
        pts = [(cx, cy + r), (cx - r * 0.55, cy - r * 0.75), (cx, cy - r * 0.3), (cx + r * 0.55, cy - r * 0.75)]
        self._overlay_props.append(self._poly2d(pts, polys=[(0, 1, 2), (0, 2, 3)], colour=C["ink"]))
        self._overlay_props.append(self._poly2d([(cx, cy - r * 1.2), (cx, cy + r * 1.1)], lines=[(0, 1)],
                                                colour=C["ink"], width=max(1.0, 1.5 * s)))
        self._overlay_props.append(self._text("北", 26 * s, cx, cy + r + 6 * s, halign="center"))
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
            if len(members) == 1:
                text = a.name
            else:
                role = a.role.split(" ")[0]
                text = f"{role} ×{len(members)}"
            mark = a.mark.split("(")[0].strip() if len(members) == 1 else ""
            entries.append((colour, text))
            del mark
        size = 16 * s
        line = size * 1.55
        x0, y_top = 16 * s, vh - 40 * s
        self._overlay_props.append(self._text("人物（顏色）", size * 1.05, x0, y_top + 4 * s, C["ink_soft"]))
        for k, (colour, text) in enumerate(entries):
            y = y_top - (k + 1) * line
            sw = [(x0, y), (x0 + size, y), (x0 + size, y + size), (x0, y + size)]
            self._overlay_props.append(self._poly2d(sw, polys=[(0, 1, 2, 3)], colour=colour))
            self._overlay_props.append(self._poly2d(sw + [sw[0]], lines=[(0, 1, 2, 3, 4)], colour=C["ink_soft"]))
            self._overlay_props.append(self._text(text, size, x0 + size * 1.6, y - size * 0.1))
        width = max(text_width_px(t, size) for _, t in entries) + size * 2.5
        return [(0, y_top - (len(entries) + 1) * line - 6 * s, x0 + width, vh)]

    def _caption(self, stage, pose, span, cam, ppm: float, show: bool = True) -> dict:
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
        self._caption_text = f"§{stage.n} {stage.title} — {phrase}" + (f"（{who}）" if who else "")
        if not show:
            self.band.SetViewport(0, 0, 1, 1e-4)
            self.ren.SetViewport(0.0, 0.0, 1.0, 1.0)
            return {}
        self.ren.SetViewport(0.0, bh / self.size[1], 1.0, 1.0)
        self.band.SetViewport(0.0, 0.0, 1.0, bh / self.size[1])
        B = self._band_props
        # the top rule
        B.append(self._poly2d([(0, bh - 1.5 * s), (w, bh - 1.5 * s)], lines=[(0, 1)], colour=C["rule"],
                              renderer=self.band, width=max(1.0, 2 * s)))
        x = 22 * s
        t1 = f"§{stage.n}  {stage.title}"
        size1 = 34 * s
        B.append(self._text(t1, size1, x, bh - 48 * s, C["ink"], renderer=self.band))
        B.append(self._text(phase, 16 * s, x + text_width_px(t1, size1) + 24 * s, bh - 44 * s, C["ink_soft"],
                            renderer=self.band))
        bar_w = 0.2 * w
        text_w = w - bar_w - 90 * s - x
        size2 = 23 * s
        line = f"經：{phrase}" + (f"　（{who}）" if who else "")
        lines = wrap_text(line, size2, text_w)[:2]
        for k, ln in enumerate(lines):
            B.append(self._text(ln, size2, x, bh - (84 + 30 * k) * s, C["ink"], renderer=self.band))
        info = (f"讀法 {r.name}：{r.title}　·　t = {pose.t:.1f} s（本節 {rel:.1f} s / {stage.end_s - stage.start_s:.0f} s）"
                f"　·　視角 {cam.title}")
        B.append(self._text(wrap_text(info, 14 * s, text_w)[0], 14 * s, x, 10 * s, C["ink_soft"], renderer=self.band))
        return self._scale_bar(ppm, cam, w - bar_w - 40 * s, bar_w)

    def _scale_bar(self, ppm: float, cam, x0: float, max_w: float) -> dict:
        """A bar in 尺 above, metres below, sharing one scale (exact in the plan)."""
        s = self.base
        chi = self.reading.chi_m
        bh = self.band_px
        chi_len = _nice(max_w / (ppm * chi))
        px = chi_len * chi * ppm
        y = bh * 0.48
        hgt = max(3.0, 7 * s)
        B = self._band_props
        n = 5 if chi_len / 5 == int(chi_len / 5) else 4
        pts, polys = [], []
        for k in range(n):          # alternating black/white segments, as on a map
            xa, xb = x0 + px * k / n, x0 + px * (k + 1) / n
            if k % 2 == 0:
                base = len(pts)
                pts += [(xa, y), (xb, y), (xb, y + hgt), (xa, y + hgt)]
                polys.append((base, base + 1, base + 2, base + 3))
        B.append(self._poly2d(pts, polys=polys, colour=C["ink"], renderer=self.band))
        outline = [(x0, y), (x0 + px, y), (x0 + px, y + hgt), (x0, y + hgt)]
        B.append(self._poly2d(outline, lines=[(0, 1, 2, 3, 0)], colour=C["ink"], renderer=self.band,
                              width=max(1.0, 1.2 * s)))
        fs = 14 * s
        for k in range(n + 1):
            v = chi_len * k / n
            B.append(self._text(f"{v:g}", fs, x0 + px * k / n, y + hgt + 4 * s, C["ink"], renderer=self.band,
                                halign="center"))
        B.append(self._text("尺", fs, x0 + px + 10 * s, y + hgt + 4 * s, C["ink"], renderer=self.band))
        # metres underneath, ticked at round metres on the same scale
        m_len = _nice(chi_len * chi)
        mpx = m_len * ppm
        ticks = [(x0, y - 2 * s), (x0, y - 9 * s), (x0 + mpx, y - 2 * s), (x0 + mpx, y - 9 * s),
                 (x0, y - 9 * s), (x0 + mpx, y - 9 * s)]
        B.append(self._poly2d(ticks, lines=[(0, 1), (2, 3), (4, 5)], colour=C["ink_soft"], renderer=self.band,
                              width=max(1.0, 1.2 * s)))
        B.append(self._text("0", fs, x0, y - 12 * s, C["ink_soft"], renderer=self.band, halign="center",
                            valign="top"))
        B.append(self._text(f"{m_len:g} m", fs, x0 + mpx, y - 12 * s, C["ink_soft"], renderer=self.band,
                            halign="center", valign="top"))
        where = "比例尺" if cam.parallel else "比例尺（焦點處）"
        B.append(self._text(f"{where}　1 尺 = {chi * 100:g} cm", fs, x0, bh - 30 * s, C["ink_soft"],
                            renderer=self.band))
        return {"px": px, "chi": chi_len, "metres": chi_len * chi, "x0": x0, "y": y, "height": hgt,
                "m_px": mpx, "m": m_len}

    def close(self) -> None:
        self.window.Finalize()


def text_width_px(text: str, size: float) -> float:
    from .labels import text_width
    return text_width(text, size)


def wrap_text(text: str, size: float, width: float) -> list[str]:
    """``text`` in lines no wider than ``width`` px, broken between characters as Chinese is set, with the
    禁則 (:mod:`scene.text.kinsoku`: no line starts with ，。」)."""
    from ..text import kinsoku
    from .labels import text_width
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
