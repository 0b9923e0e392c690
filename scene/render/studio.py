"""The off-screen studio: one VTK render window (vtkmodules, no pyvista) for a batch, the static scene added
once, per still the dynamic polydata, the camera, the labels and the caption band (stage, phrase, reading, a scale
bar in 尺 and m), which :mod:`.caption_band` draws with the view's 2D overlays (subtitle, north arrow, legend)."""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

import numpy as np

from .. import settings
from ..rite.cache import load_rite
from . import glprobe
from .annotate import actor_labels, object_labels, place_labels
from .caption_band import CaptionBand, text_width_px, wrap_text  # noqa: F401  (text_width_px, wrap_text re-exported)
from .palette import AMBIENT, DIFFUSE, LIGHTS
from .palette import COLOURS as C
from .shapes import rgb

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


class Studio:
    """One off-screen VTK render window for a reading and a size; renders stills of any moment and view.  It holds
    the 3D scene (lights, static and dynamic actors, the roof, the camera); its :class:`CaptionBand` the 2D rest."""

    def __init__(self, reading=None, size: tuple[int, int] = (1920, 1080), *, roof: str = "cutaway",
                 antialias: bool = True, seed: int | None = None, rite=None) -> None:
        glprobe.configure()
        glprobe.start()
        from ..geometry import readings
        from . import meshes
        self.reading = readings.get(reading)
        self.rite = rite if rite is not None else load_rite(self.reading, seed)
        self.lay = self.rite.layout
        self.static = meshes.static_of(self.rite)     # the hall of the rite's own chapter
        self.size = size
        self.roof = roof
        glprobe.ensure()
        import vtkmodules.vtkRenderingFreeType  # noqa: F401  (text)
        import vtkmodules.vtkRenderingOpenGL2  # noqa: F401  (the OpenGL backend)
        from vtkmodules.vtkRenderingCore import vtkRenderer, vtkRenderWindow
        w, h = size
        self.band_px = CaptionBand.height_px(h)
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
        self.caption_band = CaptionBand(rw, self.ren, size, self.reading, self.rite)
        from .labels import LabelLayer
        self.labels = LabelLayer(self.ren, 19.0 * self.base)

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
        from . import meshes, views
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
        blocked = self.caption_band.overlays(subtitle, pose, dyn, cam.parallel, vw, vh)
        if labels:
            lbs = actor_labels(rite, pose, dyn, focus, small=cam.name in ("overview", "range", "plan")) + place_labels(self.lay, cam.name) + object_labels(rite, dyn)
            self.labels.place(lbs, blocked)
        else:
            self.labels.clear()
        bar = self.caption_band.draw(stage, pose, span, cam, ppm, show=caption)
        img = self.grab()
        return Still(img, stage, pose.t, cam.name, cam, ppm, bar, list(self.labels.placed), self.caption_band.text)

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

    def close(self) -> None:
        self.window.Finalize()
