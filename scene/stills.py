"""Still export: one off-screen plotter, the scene, labels, a caption band; stills, a contact sheet, clips.

:class:`Studio` owns one off-screen pyvista plotter for a batch.  The static
scene of the reading is added once (merged into a few polydata by layer); per
still only the dynamic polydata, the camera, the labels and the caption change.
The picture is the 3D viewport over a caption band: the stage's number and
title, the 經 phrase being animated, the reading, and a scale bar in 尺 and
metres (exact in the plan; at the focal point in a perspective view).

The compiled rite is cached on disk (:func:`load_rite`), keyed by the bytes of
the choreography, the texts and the code that compiles them, so a cold still
does not pay for the whole rite's compilation again.
"""
from __future__ import annotations

import hashlib
import html
import math
import os
import pickle
import re
import shutil
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Sequence

import numpy as np

from . import glprobe
from .palette import AMBIENT, DIFFUSE, LIGHTS, COLOURS as C
from .shapes import rgb

MAX_SIZE = (7680, 4320)
MIN_SIZE = 16
ROOT = Path(__file__).resolve().parent.parent


class StillError(ValueError):
    """A bad stage, size, view or time (one line)."""


# ---------------------------------------------------------------------------
# inputs

def parse_size(text: str) -> tuple[int, int]:
    """'1920x1080' → (1920, 1080), within 16×16 … 7680×4320."""
    m = re.fullmatch(r"\s*(\d{1,6})\s*[x×X]\s*(\d{1,6})\s*", text or "")
    if not m:
        raise StillError(f"--size {text!r} is not WxH (e.g. 1920x1080)")
    w, h = int(m.group(1)), int(m.group(2))
    if not (MIN_SIZE <= w <= MAX_SIZE[0] and MIN_SIZE <= h <= MAX_SIZE[1]):
        raise StillError(f"--size {text!r} is out of range ({MIN_SIZE}x{MIN_SIZE} to {MAX_SIZE[0]}x{MAX_SIZE[1]})")
    return w, h


def find_stage(rite, key: str | int):
    """A stage by section number ('21', '§21') or id ('sanou_she')."""
    k = str(key).strip().lstrip("§")
    for s in rite.stages:
        if k == str(s.n) or k == s.id:
            return s
    raise StillError(f"unknown stage {str(key)!r} (stages are 1–{len(rite.stages)} or an id such as "
                     f"{rite.stages[min(20, len(rite.stages) - 1)].id})")


def representative_t(rite, stage) -> float:
    """The stage's middle — or, in a shooting stage, the arrow in flight nearest to it."""
    mid = (stage.start_s + stage.end_s) / 2
    ts = np.linspace(stage.start_s, stage.end_s, 240)
    arrows = [k for k, oid in enumerate(rite.object_ids) if oid.startswith("arrow.")]
    if not arrows:
        return mid
    best = None
    for t in ts:
        st = rite._ostate.at(float(t)) if hasattr(rite, "_ostate") else rite.pose_at(float(t)).object_state
        if any("flight" in (st[k] or "") for k in arrows):
            if best is None or abs(t - mid) < abs(best - mid):
                best = float(t)
    if best is None:
        return mid
    # nudge to the middle of that flight so the arrow is well clear of the bow
    return best


# ---------------------------------------------------------------------------
# the compiled rite, cached on disk

_PURE = ("timeline", "choreography", "routes", "shooting", "layout", "hall", "readings", "units", "texts",
         "places")


def _cache_dir() -> Path:
    base = os.environ.get("XIANGSHELI_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "xiangsheli-scene")
    return Path(base)


def _rite_key(reading, seed) -> str:
    from . import choreography
    h = hashlib.sha256()
    h.update(repr((reading, seed, sys.version_info[:2], np.__version__)).encode())
    files = sorted(Path(choreography.ASSETS).rglob("*.toml")) + sorted((ROOT / "seeds").glob("*.txt")) + \
        [Path(__file__).with_name(f"{m}.py") for m in _PURE]
    for f in files:
        try:
            h.update(f.name.encode())
            h.update(f.read_bytes())
        except OSError:
            h.update(b"?")
    return h.hexdigest()[:24]


_rites: dict[tuple, object] = {}


def load_rite(reading=None, seed: int | None = None):
    """The compiled rite under a reading, from the disk cache when its inputs are unchanged."""
    from . import readings
    from .timeline import build_rite
    r = readings.get(reading)
    key = (r, seed)
    if key in _rites:
        return _rites[key]
    if os.environ.get("XIANGSHELI_NO_CACHE"):
        rite = build_rite(r, seed)
        _rites[key] = rite
        return rite
    d = _cache_dir()
    f = d / f"rite-{r.name}-{_rite_key(r, seed)}.pickle"
    rite = None
    if f.exists():
        try:
            with open(f, "rb") as fh:
                rite = pickle.load(fh)
        except Exception:     # a stale or broken cache entry is rebuilt, never trusted
            rite = None
    if rite is None:
        rite = build_rite(r, seed)
        try:
            d.mkdir(parents=True, exist_ok=True)
            tmp = f.with_suffix(f".tmp{os.getpid()}")
            with open(tmp, "wb") as fh:
                pickle.dump(rite, fh, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(tmp, f)
            old = sorted(d.glob(f"rite-{r.name}-*.pickle"), key=lambda p: p.stat().st_mtime)
            for stale in old[:-4]:
                stale.unlink(missing_ok=True)
        except OSError:
            pass
    _rites[key] = rite
    return rite


# ---------------------------------------------------------------------------
# labels of places, per view

#: place id → (label, anchor height above the place in 尺 or None for its own z, priority, views or None = all)
PLACE_LABELS: tuple[tuple[str, str | None, float, float, tuple[str, ...] | None], ...] = (
    ("hall.tang", "堂", 2.0, 40, None),
    ("hall.west_steps", None, 1.0, 38, None),
    ("hall.east_steps", None, 1.0, 38, None),
    ("hall.west_pillar", None, 10.0, 36, None),
    ("hall.east_pillar", None, 10.0, 36, None),
    ("hall.west_xu", None, 9.0, 22, ("hall", "plan", "guest", "follow", "overview")),
    ("hall.east_xu", None, 9.0, 22, ("hall", "plan", "guest", "follow", "overview")),
    ("hall.ridge", None, 1.5, 30, ("hall", "overview", "range", "follow", "target")),
    ("hall.front_lintel", None, 1.0, 28, ("hall", "overview", "range", "follow", "target")),
    ("hall.eave_purlin", None, 0.5, 28, ("hall", "overview", "range", "follow", "target")),
    ("hall.shi", "室", 2.0, 26, None),
    ("hall.fang", "房", 2.0, 26, None),
    ("target.hou", "侯", 11.0, 40, None),
    ("target.centre", "中", 0.0, 12, ("archer", "target")),
    ("range.fa", None, 6.0, 34, None),
    ("range.houdao", "侯道", 0.5, 30, None),
    ("court.xi", None, 3.0, 30, None),
    ("court.qing", "磬", 6.0, 26, None),
    ("tang.zun", "尊", 3.5, 24, None),
    ("mat.bin", "賓席", 0.5, 22, ("hall", "plan", "guest", "follow")),
    ("mat.zhuren", "主人席", 0.5, 20, ("hall", "plan", "follow")),
    ("tang.wu_right", "右物", 0.3, 20, ("hall", "plan", "archer", "follow")),
    ("tang.wu_left", "左物", 0.3, 20, ("hall", "plan", "archer", "follow")),
    ("hall.gate", "門", 12.0, 30, None),
    ("hall.court", "庭", 0.5, 10, ("overview", "plan")),
)


def _place_labels(lay, view: str) -> list:
    from .labels import Label
    chi = lay.reading.chi_m
    base = view.split(":")[0]
    out = []
    for pid, text, dz, prio, views in PLACE_LABELS:
        if pid not in lay or (views is not None and base not in views):
            continue
        p = lay[pid]
        x, y, z = p.xyz_chi
        if pid == "hall.tang":
            y, z = lay.hall.house_depth * 0.78, lay.hall.height
        elif pid in ("hall.west_steps", "hall.east_steps"):
            y, z = -lay.hall.stair_run - 1.0, 0.0
        elif pid in ("hall.ridge", "hall.front_lintel", "hall.eave_purlin"):
            x = lay.hall.rong_x * 0.86
        elif pid in ("hall.west_xu", "hall.east_xu"):
            y, z = 2.0, lay.hall.height
        elif pid == "target.hou":
            z = 0.0
        elif pid == "range.houdao":
            y = y * 0.62
        elif pid == "hall.court":
            y = lay["range.fa"].xyz_chi[1] * 0.55
        elif pid == "hall.gate":
            z = 0.0
        out.append(Label(text or p.name, (x * chi, y * chi, (z + dz) * chi), prio, None, "place", 0.92))
    return out


def _actor_labels(rite, pose, dyn, focus: Sequence[str], small: bool = False) -> list:
    """One label per actor — the acting ones first; people of one role standing together
    (a file of 眾賓, the 三耦 waiting at 堂西, the 工) share one label 'role ×n'."""
    from .labels import Label
    chor = rite.choreography
    out = []
    loose: dict[str, list[int]] = {}
    for i, aid in enumerate(pose.actor_ids):
        key = f"actor.{aid}"
        if key not in dyn.anchors:
            continue
        a = chor.actors[aid]
        name = a.name
        role = pose.role[i]
        first = a.role.split(" ")[0]
        say = pose.say[i]
        if aid not in focus and not say and role == first and _groupable(first, name):
            loose.setdefault(first, []).append(i)
            continue
        text = f"{role}（{name}）" if role and role != first and role not in name else name
        if say:
            text += f"：「{say[:10]}{'…' if len(say) > 10 else ''}」"
        prio = 100 + (60 if aid in focus else 0) + (10 if say else 0)
        out.append(Label(text, dyn.anchors[key], prio, a.colour, "actor", 1.0 if aid in focus or not small else 0.9))
    for role, idx in loose.items():
        for group in _clusters([np.asarray(dyn.anchors[f"actor.{pose.actor_ids[i]}"]) for i in idx], 2.6):
            members = [idx[k] for k in group]
            aid = pose.actor_ids[members[0]]
            a = chor.actors[aid]
            if len(members) == 1:
                text = a.name
                anchor = dyn.anchors[f"actor.{aid}"]
            else:
                text = f"{role} ×{len(members)}"
                pts = np.array([dyn.anchors[f"actor.{pose.actor_ids[i]}"] for i in members])
                anchor = (float(pts[:, 0].mean()), float(pts[:, 1].mean()), float(pts[:, 2].max()))
            out.append(Label(text, anchor, 95, a.colour, "actor", 0.9 if small else 1.0))
    return out


def _groupable(role: str, name: str) -> bool:
    """Roles of which there are several (眾賓, 三耦, 工, 弟子 …): not the 主人, the 賓, the 司射."""
    return role != name and not name.startswith(role + "（")


def _clusters(points: list[np.ndarray], gap: float) -> list[list[int]]:
    """Single-linkage groups of points closer than ``gap`` (metres)."""
    n = len(points)
    parent = list(range(n))
    def find(i):
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i
    for i in range(n):
        for j in range(i + 1, n):
            if np.linalg.norm(points[i][:2] - points[j][:2]) < gap:
                parent[find(i)] = find(j)
    groups: dict[int, list[int]] = {}
    for i in range(n):
        groups.setdefault(find(i), []).append(i)
    return list(groups.values())


def _object_labels(rite, dyn) -> list:
    from .labels import Label
    names = {"object.bi": "楅", "object.zhong": "中", "object.feng": "豐", "object.jing": "旌"}
    return [Label(names[k], v, 25, None, "object", 0.85) for k, v in dyn.anchors.items() if k in names]


# ---------------------------------------------------------------------------
# the studio

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
        from . import meshes, readings
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
        rw.AddRenderer(self.ren)
        self._lights()
        self._static_actors(roof)
        self.dyn_actor = self._actor(None)
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
        return int(os.environ.get("XIANGSHELI_MSAA", 4)) if size[0] * size[1] <= 3840 * 2160 else 0

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
        self.ren.AddActor(a)
        return a

    def _static_actors(self, roof: str) -> None:
        from .meshes import ROOF_MODES, to_vtk
        if roof not in ROOF_MODES:
            raise StillError(f"--roof {roof!r} is not one of {', '.join(ROOF_MODES)}")
        self.static_actors = {}
        for name, batch in self.static.batches().items():
            poly = to_vtk(batch, self.static.scale)
            ghost = name.startswith("roof") and roof == "ghost"
            self.static_actors[name] = self._actor(poly, opacity=0.28 if ghost else 1.0)

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
               stage=None, camera=None) -> Still:
        """One still at time t from a named view, or from ``camera`` (a :class:`views.Camera`: the app's)."""
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
        if cam.parallel:
            blocked += self._north_arrow(vw, vh)
            blocked += self._legend(pose, dyn, vw, vh)
        if labels:
            lbs = _actor_labels(rite, pose, dyn, focus, small=cam.name in ("overview", "range", "plan")) + _place_labels(self.lay, cam.name) + _object_labels(rite, dyn)
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
        width = max(_width(t, size) for _, t in entries) + size * 2.5
        return [(0, y_top - (len(entries) + 1) * line - 6 * s, x0 + width, vh)]

    def _caption(self, stage, pose, span, cam, ppm: float, show: bool = True) -> dict:
        from . import choreography as chor_mod
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
        B.append(self._text(phase, 16 * s, x + _width(t1, size1) + 24 * s, bh - 44 * s, C["ink_soft"],
                            renderer=self.band))
        bar_w = 0.2 * w
        text_w = w - bar_w - 90 * s - x
        size2 = 23 * s
        line = f"經：{phrase}" + (f"　（{who}）" if who else "")
        lines = _wrap(line, size2, text_w)[:2]
        for k, ln in enumerate(lines):
            B.append(self._text(ln, size2, x, bh - (84 + 30 * k) * s, C["ink"], renderer=self.band))
        info = (f"讀法 {r.name}：{r.title}　·　t = {pose.t:.1f} s（本節 {rel:.1f} s / {stage.end_s - stage.start_s:.0f} s）"
                f"　·　視角 {cam.title}")
        B.append(self._text(_wrap(info, 14 * s, text_w)[0], 14 * s, x, 10 * s, C["ink_soft"], renderer=self.band))
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


def _width(text: str, size: float) -> float:
    from .labels import text_width
    return text_width(text, size)


def _wrap(text: str, size: float, width: float) -> list[str]:
    from .labels import text_width
    out, cur = [], ""
    for ch in text:
        if text_width(cur + ch, size) > width and cur:
            out.append(cur)
            cur = ch
        else:
            cur += ch
    if cur:
        out.append(cur)
    return out or [""]


# ---------------------------------------------------------------------------
# files

def save_png(img: np.ndarray, path: str | Path) -> None:
    from PIL import Image
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    Image.fromarray(img).save(path, format="PNG", compress_level=1)   # speed over a few % of size


def export_still(out: str | Path, stage: str | int | None = None, t: float | None = None, view: str = "overview",
                 size: tuple[int, int] = (1920, 1080), reading=None, labels: bool = True,
                 caption: bool = True, roof: str = "cutaway", camera=None) -> Still:
    """``python -m scene still``: one stage (or an absolute time) to a PNG (from ``camera`` if given)."""
    from . import views
    views.parse(view)
    glprobe.configure()
    glprobe.start()
    rite = load_rite(reading)
    st, tt = _stage_and_time(rite, stage, t)
    studio = Studio(reading, size, roof=roof, rite=rite)
    try:
        still = studio.render(tt, view, labels=labels, caption=caption, stage=st, camera=camera)
    finally:
        studio.close()
    save_png(still.image, out)
    return still


def _stage_and_time(rite, stage, t):
    if stage is None:
        if t is None:
            raise StillError("give --stage, or --t (seconds from the start of the rite)")
        if not 0 <= t <= rite.duration:
            raise StillError(f"--t {t:g} is outside the rite (0 to {rite.duration:.1f} s)")
        return rite.stage_at(t), t
    st = find_stage(rite, stage)
    if t is None:
        return st, representative_t(rite, st)
    length = st.end_s - st.start_s
    if not 0 <= t <= length:
        raise StillError(f"--t {t:g} is outside §{st.n} (0 to {length:.1f} s from its start)")
    return st, st.start_s + t


def file_name(stage, view: str | None = None) -> str:
    title = re.sub(r"[\\/:*?\"<>|\s]+", "_", stage.title)
    return f"{stage.n:02d}_{title}" + (f".{view.replace(':', '-')}" if view else "") + ".png"


def export_stills(out_dir: str | Path, views_: Sequence[str] = ("overview",), size: tuple[int, int] = (1920, 1080),
                  reading=None, stages: Iterable | None = None, labels: bool = True, caption: bool = True,
                  roof: str = "cutaway", progress=None) -> list[tuple[object, str, Path, Still]]:
    """``python -m scene stills``: every stage in every view, one plotter, and ``index.html``."""
    from . import views
    for v in views_:
        views.parse(v)
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    studio = Studio(reading, size, roof=roof)
    rite = studio.rite
    chosen = list(rite.stages) if stages is None else [find_stage(rite, s) for s in stages]
    done = []
    try:
        for st in chosen:
            t = representative_t(rite, st)
            for v in views_:
                still = studio.render(t, v, labels=labels, caption=caption, stage=st)
                f = out_dir / file_name(st, v if len(views_) > 1 else None)
                save_png(still.image, f)
                done.append((st, v, f, still))
                if progress:
                    progress(st, v, f)
    finally:
        studio.close()
    write_index(out_dir, done, rite, views_)
    return done


def write_index(out_dir: Path, done, rite, views_: Sequence[str]) -> Path:
    """A printable contact sheet: one row per stage, its stills side by side, captions under them."""
    from . import choreography as chor_mod
    from .views import VIEWS, parse
    r = rite.reading
    rows = []
    by_stage: dict[int, list] = {}
    for st, v, f, still in done:
        by_stage.setdefault(st.n, []).append((v, f, still))
    last_phase = None
    for st in rite.stages:
        if st.n not in by_stage:
            continue
        if st.phase != last_phase:
            rows.append(f'<h2>{html.escape(chor_mod.PHASES.get(st.phase, st.phase))}</h2>')
            last_phase = st.phase
        cells = []
        for v, f, still in by_stage[st.n]:
            cells.append(f'<figure><a href="{html.escape(f.name)}"><img src="{html.escape(f.name)}" '
                         f'alt="§{st.n} {html.escape(st.title)}" loading="lazy"></a>'
                         f'<figcaption>{html.escape(VIEWS[parse(v)[0]])}</figcaption></figure>')
        cap = html.escape(by_stage[st.n][0][2].caption)
        t = by_stage[st.n][0][2].t
        rows.append(f'<section class="stage"><h3>§{st.n}　{html.escape(st.title)}</h3>'
                    f'<div class="row n{len(cells)}">{"".join(cells)}</div>'
                    f'<p class="cap">{cap}<span class="t">t = {t:.0f} s</span></p></section>')
    # the sheet carries its own CJK font, so its captions are glyphs on any machine (OFL)
    from .labels import font_path
    font = Path(font_path())
    font_name = font.name
    shutil.copyfile(font, out_dir / font_name)
    doc = f"""<!doctype html>
<html lang="zh-Hant"><head><meta charset="utf-8">
<title>鄉射禮 — 五十一節 contact sheet ({html.escape(r.name)})</title>
<style>
@font-face {{ font-family: "Noto Sans TC"; src: url("{font_name}") format("opentype"); }}
body {{ font-family: "Noto Sans TC", "Noto Sans CJK TC", "PingFang TC", "Microsoft JhengHei", sans-serif;
       margin: 1.5em; color: #1e1b18; background: #fbf8f0; }}
h1 {{ font-size: 1.5em; margin: 0 0 .2em; }}
h2 {{ font-size: 1.15em; border-bottom: 2px solid #8c7b66; margin: 1.4em 0 .6em; break-after: avoid; }}
.meta {{ color: #5b5147; font-size: .9em; }}
.stage {{ break-inside: avoid; margin-bottom: 1.2em; }}
.stage h3 {{ margin: .2em 0; font-size: 1.05em; }}
.row {{ display: grid; gap: .5em; grid-template-columns: repeat(2, 1fr); }}
.row.n1 {{ grid-template-columns: 1fr 1fr; }}
figure {{ margin: 0; }}
figure img {{ width: 100%; height: auto; border: 1px solid #c8bca6; display: block; }}
figcaption {{ font-size: .8em; color: #5b5147; }}
.cap {{ font-size: .88em; margin: .25em 0 0; }}
.t {{ color: #8c7b66; margin-left: 1em; }}
@media print {{ body {{ margin: 0; background: white; }} .row {{ gap: .3em; }}
  @page {{ size: A4 landscape; margin: 10mm; }} }}
</style></head><body>
<h1>鄉射禮 — 五十一節</h1>
<p class="meta">讀法 {html.escape(r.name)}：{html.escape(r.title)} · 周尺 = {r.chi_m * 100:g} cm ·
views: {html.escape(", ".join(VIEWS[parse(v)[0]] + " " + v for v in views_))} ·
每節一圖，取其中段（射時取矢在空中者）。</p>
{"".join(rows)}
</body></html>
"""
    f = out_dir / "index.html"
    f.write_text(doc, encoding="utf-8")
    return f


def export_clip(out: str | Path, stage, view: str = "overview", size: tuple[int, int] = (960, 540),
                reading=None, fps: float = 10.0, speed: float | None = None, labels: bool = True,
                caption: bool = True, max_seconds: float = 30.0, roof: str = "cutaway") -> int:
    """``python -m scene clip``: a stage as an MP4 (imageio-ffmpeg) or a GIF; returns the frame count.

    ``speed`` is rite-seconds per clip-second; by default a stage is sped up to last at most
    ``max_seconds``."""
    import imageio.v2 as imageio
    from . import views
    views.parse(view)
    out = Path(out)
    if out.suffix.lower() not in (".mp4", ".gif"):
        raise StillError(f"--out {str(out)!r} must end in .mp4 or .gif")
    if out.suffix.lower() == ".mp4" and (size[0] % 2 or size[1] % 2):
        raise StillError(f"--size {size[0]}x{size[1]}: an MP4 needs even width and height")
    glprobe.configure()
    glprobe.start()
    rite = load_rite(reading)
    st = find_stage(rite, stage)
    length = max(st.end_s - st.start_s, 0.1)
    if speed is None:
        speed = max(1.0, length / max_seconds)
    n = max(2, int(length / speed * fps))
    studio = Studio(reading, size, rite=rite, roof=roof)
    out.parent.mkdir(parents=True, exist_ok=True)
    try:
        if out.suffix.lower() == ".mp4":
            writer = imageio.get_writer(str(out), fps=fps, codec="libx264", quality=7, macro_block_size=1,
                                        ffmpeg_log_level="error")
        else:
            writer = imageio.get_writer(str(out), mode="I", duration=1000.0 / fps, loop=0)
        with writer:
            for k in range(n):
                t = st.start_s + length * k / (n - 1)
                writer.append_data(studio.render(t, view, labels=labels, caption=caption, stage=st).image)
    finally:
        studio.close()
    return n
