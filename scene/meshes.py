"""The one place that builds the scene's meshes from the model.

Two sets, kept apart so that an interactive app can rebuild only what moves:

* :func:`build_static` — from a :class:`~scene.layout.Layout`: the ground and
  court, the hall (堂 platform with its 廉, both stairs with the reading's 等,
  the two 楹, the 序, the back and gable walls, the five-purlin roof with 庪 楣
  棟, 室 and 房 in a 庠), the 門, the range (侯 on its 植 with 綱, 乏, the 侯道
  axis), the two 物 painted on the 堂, and the fixed furniture (洗 水 篚, 磬 on
  its frame, 尊 on the 斯禁, the 篚 on the 堂, the mats), with their shadows.
* :func:`build_dynamic` — from a :class:`~scene.timeline.Pose`: the cast
  (:mod:`scene.figures`), every movable object (爵 觶 旌 楅 中 扑 豐 瑟 俎,
  bows, arrows in flight / stuck in the 侯 / lying short, the 筭 counters), the
  侯's 下个 and 左下綱 as the pose's ``hou_rope`` state has them, and shadows.

Every triangle carries the id of the thing it belongs to (``hall.west_steps``,
``target.centre``, ``actor.bin``, ``object.jue``, ``arrow.bin.3`` …): the
pyvista polydata have a cell array ``part`` indexing ``field_data['part_ids']``.

Geometry is built in numpy (:mod:`scene.shapes`); pyvista is imported only to
wrap the arrays (:func:`to_polydata`).  Static geometry is drawn in 周尺 (the
text's unit) and scaled to metres once; the cast is sized in metres.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import numpy as np

from . import figures
from .layout import Layout, build_layout
from .palette import COLOURS as C, SUN_DIR
from .shapes import (Batch, Mesh, box, box_between, ellipsoid, extrude, flat_polygon, frustum,
                     heading_rot, merge, rgb, rod, rot_x, rot_z, shade, slab, tube)

#: roof modes: the whole roof; the south slope cut away (purlins and rafters left, 庪 楣 棟 readable);
#: both slopes see-through; no roof at all
ROOF_MODES = ("cutaway", "solid", "ghost", "none")

# z above the ground of the flat marks, so they do not fight in the depth buffer (metres)
Z_SHADOW = 0.02
Z_SHADOW_DYN = 0.03
Z_MARK = 0.05


# ---------------------------------------------------------------------------
# the static set

@dataclass
class StaticSet:
    """Static geometry of one reading, in metres, by layer.

    ``main`` everything opaque that never moves; ``roof_south`` / ``roof_north``
    the two tiled slopes (the renderer shows, hides or ghosts them by roof
    mode); ``shadows`` the planar shadows of all of it (of the full roof).
    """

    layout: Layout
    main: Batch
    roof_south: Batch
    roof_north: Batch
    shadows: Batch
    scale: float                            # metres per 尺
    bounds_m: tuple[float, float, float, float] = (0, 0, 0, 0)   # court x0 x1 y0 y1

    def batches(self) -> dict[str, Batch]:
        """Layers, all in 尺 (scale by ``scale``): ``main``, ``shadows``, ``roof_south``, ``roof_north``.

        The renderer shows the slopes by roof mode: ``solid`` both; ``ghost`` both see-through;
        ``cutaway`` hides the slope between the camera and the 堂 (both, seen from above); ``none`` neither."""
        return {"main": self.main, "shadows": self.shadows, "roof_south": self.roof_south,
                "roof_north": self.roof_north}

    def part_ids(self) -> list[str]:
        ids: list[str] = []
        for b in (self.main, self.roof_south, self.roof_north):
            ids += [n for n in b.names if n not in ids]
        return ids


def _yz_to_world(x0: float) -> tuple[np.ndarray, tuple[float, float, float]]:
    """Local (u, v, w) → world (x0 + w, u, v): outlines drawn in the y–z plane, extruded along x."""
    return np.array([[0.0, 0.0, 1.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]), (x0, 0.0, 0.0)


def _xz_to_world(y0: float) -> tuple[np.ndarray, tuple[float, float, float]]:
    """Local (u, v, w) → world (u, y0 + w, v): outlines drawn facing north/south."""
    return np.array([[1.0, 0.0, 0.0], [0.0, 0.0, 1.0], [0.0, 1.0, 0.0]]), (0.0, y0, 0.0)


def _wall_yz(x: float, thick: float, poly: list[tuple[float, float]]) -> Mesh:
    rot, off = _yz_to_world(x)
    return slab(poly, thick, rot, off)


def _box_top(size, centre, side: str, top: str) -> tuple[Mesh, np.ndarray]:
    """A box whose top face has its own colour (floors, treads, tables)."""
    m = box(size, centre)
    col = np.tile(np.array(rgb(side), dtype=np.uint8), (len(m.points), 1))
    col[16:20] = rgb(top)
    return m, col


def _hall(b: Batch, lay: Layout, roof_s: Batch, roof_n: Batch) -> None:
    h = lay.hall
    hx, d, fl = h.platform_x, h.house_depth, h.height
    # 堂: the rammed-earth platform, its floor and the 廉 (edge) stones
    m, col = _box_top((2 * hx, d, fl), (0, d / 2, fl / 2), C["tang_side"], C["tang_floor"])
    b.add("hall.tang", m, col)
    e = 0.7
    for pid, size, centre in (("hall.tang_lian", (2 * hx + 0.2, e, 0.35), (0, e / 2 - 0.1, fl - 0.15)),
                              ("hall.tang.north_edge", (2 * hx + 0.2, e, 0.35), (0, d - e / 2 + 0.1, fl - 0.15)),
                              ("hall.west_lian", (e, d, 0.35), (-hx + e / 2 - 0.1, d / 2, fl - 0.15)),
                              ("hall.east_lian", (e, d, 0.35), (hx - e / 2 + 0.1, d / 2, fl - 0.15))):
        b.add(pid, box(size, centre), C["tang_edge"])
    # the stairs: k = 1 is the lowest 等, furthest from the 堂 (as the routes climb them)
    for side, sx in (("west", -1), ("east", 1)):
        x = sx * h.stairs_x
        for k in range(1, h.steps + 1):
            y0, y1 = -h.tread * (h.steps - k + 1), -h.tread * (h.steps - k)
            z1 = h.tread_top(k)
            m, col = _box_top((h.stair_width, y1 - y0 + 0.02, z1), (x, (y0 + y1) / 2, z1 / 2),
                              shade(C["steps"], 0.88), C["steps"])
            b.add(f"hall.{side}_steps.tread{k}", m, col)
        # the 側 (stringers) either side of the steps
        for s in (-1, 1):
            poly = [(-h.stair_run - 0.3, 0.0), (0.0, 0.0), (0.0, fl + 0.3), (-0.2, fl + 0.3), (-h.stair_run - 0.3, 0.4)]
            b.add(f"hall.{side}_steps.side", _wall_yz(x + s * (h.stair_width / 2 + 0.25), 0.5, poly),
                  C["tang_edge"])
    # the two 楹 (丹楹) under the 楣, on stone bases
    for side, sx in (("west", -1), ("east", 1)):
        x, y = sx * h.ying_x, h.y_mei
        b.add(f"hall.{side}_pillar", frustum(0.62, 0.55, fl, h.z_mei - 0.6, 14).moved(None, (x, y, 0)), C["pillar"])
        b.add(f"hall.{side}_pillar.base", frustum(0.95, 0.85, fl, fl + 0.35, 14).moved(None, (x, y, 0)),
              C["pillar_base"])
    # walls: the 序 (x = ±序間/2), the gable walls at the 堂's ends, the back wall
    prof = [(0.0, fl), (d, fl), (d, h.z_eave - 0.4), (h.y_dong, h.z_dong - 0.6), (0.0, h.z_eave - 0.4)]
    for side, sx in (("west", -1), ("east", 1)):
        b.add(f"hall.{side}_xu", _wall_yz(sx * h.xu_x, 1.0, prof), C["wall"])
        b.add(f"hall.{side}_xu.base", box((1.3, d, 1.0), (sx * h.xu_x, d / 2, fl + 0.5)), C["wall_base"])
        gable = [(4.0, fl), (d, fl), (d, h.z_eave - 0.4), (h.y_dong, h.z_dong - 0.6), (4.0, h.z_eave - 0.4 + 4.0 *
                                                                                     (h.z_dong - h.z_eave) / h.y_dong)]
        b.add(f"hall.{side}_gable_wall", _wall_yz(sx * (hx - 0.6), 1.2, gable), C["wall"])
    b.add("hall.back_wall", box((2 * hx, 1.2, h.z_eave - 0.4 - fl), (0, d - 0.6, (fl + h.z_eave - 0.4) / 2)),
          C["wall"])
    if h.has_shi:
        _shi_fang(b, lay)
    _roof(b, lay, roof_s, roof_n)


def _shi_fang(b: Batch, lay: Layout) -> None:
    """庠: the 室 (west) and 房 (east) behind the 堂, their front wall on the 棟 line with 戶 and 牖."""
    h = lay.hall
    fl, y, top = h.height, h.y_dong, h.z_dong - 0.6
    dx, dw = lay["hall.door"].xyz_chi[0], 3.0          # 戶
    wx, ww = lay["hall.window"].xyz_chi[0], 3.5        # 牖
    fang_door = (h.xu_x + 8) / 2                        # the 房戶 (assumed: mid 房)
    t = 1.0
    cuts = sorted([(wx - ww / 2, wx + ww / 2, "window"), (dx - dw / 2, dx + dw / 2, "door"),
                   (fang_door - dw / 2, fang_door + dw / 2, "door")])
    x = -h.xu_x
    for x0, x1, kind in cuts:
        if x0 > x:
            b.add("hall.shi.front_wall", box_between(fl, top, x, x0, y - t / 2, y + t / 2), C["wall"])
        if kind == "door":
            b.add("hall.door", box_between(fl + 7.5, top, x0, x1, y - t / 2, y + t / 2), C["wall"])
            b.add("hall.door.leaf", box_between(fl, fl + 7.5, x0, x0 + 0.4, y - 1.6, y + t / 2), C["door"])
        else:
            b.add("hall.window", box_between(fl, fl + 3.0, x0, x1, y - t / 2, y + t / 2), C["wall"])
            b.add("hall.window", box_between(fl + 6.5, top, x0, x1, y - t / 2, y + t / 2), C["wall"])
            b.add("hall.window.lattice", box_between(fl + 3.0, fl + 6.5, x0, x1, y - 0.15, y + 0.15), C["window"])
        x = x1
    b.add("hall.shi.front_wall", box_between(fl, top, x, h.xu_x, y - t / 2, y + t / 2), C["wall"])
    b.add("hall.shi.partition", box_between(fl, top, 7.5, 8.5, y, h.house_depth), C["wall"])
    # a low floor-coloured slab marks the rooms' floors under the cut-away roof
    for pid, x0, x1 in (("hall.shi", -h.xu_x, 7.5), ("hall.fang", 8.5, h.xu_x)):
        b.add(pid, box_between(fl, fl + 0.05, x0, x1, y + 0.5, h.house_depth - 1.2), shade(C["tang_floor"], 0.93))


def _roof(b: Batch, lay: Layout, roof_s: Batch, roof_n: Batch) -> None:
    """Five-purlin (五架) roof: 庪 at the 堂廉, 楣, 棟 at the middle, and the same behind."""
    h = lay.hall
    d = h.house_depth
    rx = h.rong_x
    s = (h.z_dong - h.z_eave) / h.y_dong                  # slope (the purlins lie on one line)
    ov = h.overhang
    th = 1.3
    # purlins: front 庪 (hall.eave_purlin), 楣 (hall.front_lintel), 棟 (hall.ridge), back 楣, back 庪
    beams = (("hall.eave_purlin", 0.0, h.z_eave), ("hall.front_lintel", h.y_mei, h.z_mei),
             ("hall.ridge", h.y_dong, h.z_dong), ("hall.back_lintel", d - h.y_mei, h.z_mei),
             ("hall.back_eave_purlin", d, h.z_eave))
    for pid, y, z in beams:
        r = 0.75 if pid != "hall.ridge" else 0.95
        b.add(pid, box((2 * rx + 1.0, 2 * r, 2 * r), (0, y, z - r - 0.05)), C["timber"])
    # tie beams (梁) from front to back over the 楹 and the 序, carrying the purlins
    for x in (-h.ying_x, h.ying_x, -h.xu_x, h.xu_x):
        b.add("hall.beam", box((1.2, d + 0.6, 1.4), (x, d / 2, h.z_mei - 0.8)), C["timber"])
        b.add("hall.beam", box((1.0, 1.0, h.z_dong - h.z_mei), (x, h.y_dong, (h.z_dong + h.z_mei) / 2 - 0.8)),
              C["timber"])
    # rafters (椽) on the south slope: seen when the tiles are cut away
    xs = np.arange(-rx + 1.5, rx, 6.0)
    for x in xs:     # each slope's rafters go with its tiles (a cut-away slope shows the purlins only)
        roof_s.add("hall.rafters", rod((x, -ov, h.z_eave - s * ov + 0.15), (x, h.y_dong, h.z_dong + 0.15), 0.28, 4),
                   C["timber"])
        roof_n.add("hall.rafters", rod((x, d + ov, h.z_eave - s * ov + 0.15), (x, h.y_dong, h.z_dong + 0.15), 0.28, 4),
                   C["timber"])
    # tiled slopes (hall.roof.south / hall.roof.north): slabs on top of the rafters
    def slope(y_lo: float, y_hi: float, z_lo: float, z_hi: float) -> Mesh:
        n = np.array([-(z_hi - z_lo), (y_hi - y_lo)])
        n = n / np.linalg.norm(n) * th
        if n[1] < 0:
            n = -n
        poly = [(y_lo, z_lo + 0.3), (y_hi, z_hi + 0.3), (y_hi + n[0], z_hi + 0.3 + n[1]),
                (y_lo + n[0], z_lo + 0.3 + n[1])]
        rot, off = _yz_to_world(0.0)
        return extrude(poly, -rx, rx).moved(rot, off)
    roof_s.add("hall.roof.south", slope(-ov, h.y_dong, h.z_eave - s * ov, h.z_dong), C["roof"])
    back = slope(-ov, h.y_dong, h.z_eave - s * ov, h.z_dong)
    mirror = np.diag([1.0, -1.0, 1.0])
    pts = back.points @ mirror + (0, d, 0)
    roof_n.add("hall.roof.north", Mesh(pts, back.normals @ mirror, back.tris[:, ::-1]), C["roof"])
    ridge_z = h.z_dong + th + 0.3
    roof_n.add("hall.roof.ridge", box((2 * rx + 2.0, 2.2, 1.8), (0, h.y_dong, ridge_z + 0.4)), C["roof_ridge"])
    # gable boards at the 榮 (屋翼)
    for sx in (-1, 1):
        poly = [(-ov, h.z_eave - s * ov + 0.3), (h.y_dong, h.z_dong + 0.3), (d + ov, h.z_eave - s * ov + 0.3),
                (d + ov, h.z_eave - s * ov + 0.3 + th), (h.y_dong, h.z_dong + 0.3 + th + 0.6),
                (-ov, h.z_eave - s * ov + 0.3 + th)]
        target = roof_n if sx < 0 else roof_n
        m = _wall_yz(sx * rx, 0.6, poly)
        target.add("hall.west_rong" if sx < 0 else "hall.east_rong", m, C["roof_ridge"])


def _court(b: Batch, lay: Layout) -> tuple[float, float, float, float]:
    """The 庭 and its walls (垣), the 門 and the field outside; returns the court's x0 x1 y0 y1 in 尺."""
    r, h = lay.reading, lay.hall
    gate_y = lay["hall.gate"].xyz_chi[1]
    cw = r.court_width_chi / 2
    north = h.house_depth + 12.0
    # the field outside, as a ring round the court (no pixel is drawn twice: fill rate is the
    # software renderer's bottleneck)
    X, Y0, Y1 = 900.0, gate_y - 700.0, north + 700.0
    for ring in ([(-X, Y0), (X, Y0), (X, gate_y), (-X, gate_y)], [(-X, north), (X, north), (X, Y1), (-X, Y1)],
                 [(-X, gate_y), (-cw, gate_y), (-cw, north), (-X, north)], [(cw, gate_y), (X, gate_y), (X, north),
                                                                            (cw, north)]):
        b.add("ground.field", flat_polygon(ring, -0.05), C["field"])
    b.add("hall.court", flat_polygon([(-cw, gate_y), (cw, gate_y), (cw, north), (-cw, north)], 0.0), C["court"])
    # the walls (垣): not in the text; a court needs them to have a 門 (assumed 7 尺 high)
    wt, wh = 2.0, 7.0
    gw = r.gate_width_chi / 2
    runs = [("court.wall.west", (-cw - wt, -cw, gate_y - wt, north + wt)),
            ("court.wall.east", (cw, cw + wt, gate_y - wt, north + wt)),
            ("court.wall.north", (-cw, cw, north, north + wt)),
            ("court.wall.south", (-cw, -gw - 1.2, gate_y - wt, gate_y)),
            ("court.wall.south", (gw + 1.2, cw, gate_y - wt, gate_y))]
    for pid, (x0, x1, y0, y1) in runs:
        b.add(pid, box_between(0.0, wh, x0, x1, y0, y1), C["court_wall"])
        b.add(pid + ".coping", box_between(wh, wh + 0.8, x0 - 0.4, x1 + 0.4, y0 - 0.4, y1 + 0.4), C["coping"])
    # the 門: posts, lintel, a small tiled roof, the leaves standing open into the court
    for sx in (-1, 1):
        b.add("hall.gate", box((1.2, wt + 1.0, 10.0), (sx * (gw + 0.6), gate_y - wt / 2, 5.0)), C["gate"])
        b.add("hall.gate.leaf", box((0.35, gw - 0.4, 9.0), (sx * (gw - 0.2), gate_y + (gw - 0.4) / 2, 4.5)),
              C["door"])
    b.add("hall.gate", box_between(9.6, 10.6, -gw - 2.0, gw + 2.0, gate_y - wt - 0.5, gate_y + 0.5), C["gate"])
    poly = [(-4.0, 10.6), (0.0, 13.0), (4.0, 10.6), (4.0, 11.4), (0.0, 13.8), (-4.0, 11.4)]
    rot, off = _yz_to_world(0.0)
    roof = extrude(poly, -gw - 4.5, gw + 4.5).moved(rot, (0, gate_y - wt / 2, 0))
    b.add("hall.gate.roof", roof, C["roof"])
    return (-cw, cw, gate_y, north)


def _range(b: Batch, lay: Layout) -> None:
    """侯 (less its 下个, drawn with the pose), 植, 上綱, 乏, the 侯道 axis, the 物."""
    r, h = lay.reading, lay.hall
    hou = lay["target.hou"]
    y = hou.xyz_chi[1]
    t = 0.18
    z0 = lay["target.lower_rope"].xyz_chi[2]
    top = z0 + hou.size_chi[2]
    def strip(pid, colour, dy=0.0):
        p = lay[pid]
        w, _, ht = p.size_chi
        b.add(pid, box((w, t, ht), (p.xyz_chi[0], y + dy, p.xyz_chi[2])), colour)
    strip("target.upper_strip", C["hou_cloth"])
    strip("target.body_upper", C["hou_cloth_dark"])
    strip("target.centre", C["hou_centre"])
    strip("target.body_lower", C["hou_cloth_dark"])
    # the 正 or the beasts on the 中, on the face towards the 堂 (北面: 侯以鄉堂為面)
    face = lay["target.face"]
    cz = face.xyz_chi[2]
    yf = y + t / 2
    if r.target_face == "采侯二正":
        outer = face.size_chi[0]
        inner = face.extra.get("inner_chi", 2.0)
        b.add("target.face", box((outer, 0.06, outer), (0, yf + 0.03, cz)), C["zheng_outer"])
        b.add("target.face.inner", box((inner, 0.06, inner), (0, yf + 0.07, cz)), C["zheng_inner"])
    else:
        zc = lay["target.centre"]
        w = zc.size_chi[0]
        b.add("target.face", box((w, 0.06, w), (0, yf + 0.03, cz)), C["beast_ground"])
        rot, _ = _xz_to_world(0.0)
        for k, poly in enumerate((_DEER, _BOAR)):
            sx = -w * 0.22 if k == 0 else w * 0.22
            pts = [(sx + px * w * 0.4, cz - w * 0.18 + py * w * 0.4) for px, py in poly]
            b.add("target.face.deer" if k == 0 else "target.face.boar",
                  slab(pts, 0.05, rot, (0, yf + 0.1, 0)), C["beast"])
    # 植 and the 上綱 (the upper rope runs along the top of the 上个 to both posts)
    px = lay["target.east_post"].xyz_chi[0]
    ph = lay["target.east_post"].size_chi[2]
    for side, sx in (("west", -1), ("east", 1)):
        b.add(f"target.{side}_post", frustum(0.45, 0.38, 0.0, ph, 10).moved(None, (sx * px, y, 0)), C["post"])
    b.add("target.upper_rope", rod((-px, y, top - 0.2), (px, y, top - 0.2), 0.12, 5), C["rope"])
    # 乏: a folded leather screen (曲屏), open to the south where the 獲者 sits
    fa = lay["range.fa"]
    fx, fy, _ = fa.xyz_chi
    fw, _, fh = fa.size_chi
    centre = [(fx - fw / 4, fy), (fx + fw / 4, fy)]
    wings = [((fx - fw / 4, fy), (fx - fw / 2 - 0.3, fy - fw / 4)), ((fx + fw / 4, fy), (fx + fw / 2 + 0.3, fy - fw / 4))]
    for a, c_ in [tuple(centre)] + wings:
        d = np.subtract(c_, a)
        L = float(np.hypot(*d))
        ang = math.degrees(math.atan2(d[1], d[0]))
        m = box((L, 0.3, fh), (L / 2, 0, fh / 2)).moved(rot_z(ang), (a[0], a[1], 0))
        b.add("range.fa", m, C["fa"])
        b.add("range.fa.frame", box((L + 0.3, 0.4, 0.35), (L / 2, 0, fh)).moved(rot_z(ang), (a[0], a[1], 0)),
              shade(C["fa"], 0.6))
    # the 侯道: a chalk line on the axis from where it is measured to the 侯
    hd = lay["range.houdao"]
    y0, y1 = hd.extra["start_y"], hd.extra["end_y"]
    zline = Z_MARK / r.chi_m
    lo = 0.0 if y0 == 0.0 else y0
    hw = 0.4     # half-width of the chalk line (尺): wide enough to read in a small plan
    b.add("range.houdao", flat_polygon([(-hw, y1), (hw, y1), (hw, min(lo, 0.0)), (-hw, min(lo, 0.0))],
                                       zline), C["houdao"])
    if y0 > 0:   # measured from the 物: the stretch on the 堂 floor, painted too
        b.add("range.houdao.tang", flat_polygon([(-hw, 0.0), (hw, 0.0), (hw, y0), (-hw, y0)],
                                                h.height + 0.04), C["houdao"])
    # 物: the two crosses on the 堂 floor (長如笴, 距隨長武), painted
    for pid in ("tang.wu_right", "tang.wu_left"):
        p = lay[pid]
        x, yy, z = p.xyz_chi
        cross, length = p.size_chi[0], p.size_chi[1]
        w = 0.28
        b.add(pid, box((w, length, 0.05), (x, yy, z + 0.03)), C["wu_mark"])
        b.add(pid, box((cross, w, 0.05), (x, yy, z + 0.03)), C["wu_mark"])


# simple silhouettes (unit box, y up) of the 獸侯's deer and boar (士布侯畫以鹿豕)
_DEER = [(-0.5, 0.0), (-0.42, 0.0), (-0.38, 0.3), (0.25, 0.3), (0.3, 0.0), (0.38, 0.0), (0.36, 0.42), (0.45, 0.7),
         (0.55, 0.72), (0.5, 0.82), (0.42, 0.8), (0.46, 0.98), (0.38, 0.86), (0.33, 0.72), (0.26, 0.55),
         (-0.45, 0.55), (-0.52, 0.45)]
_BOAR = [(-0.5, 0.05), (-0.4, 0.05), (-0.36, 0.22), (0.25, 0.22), (0.3, 0.05), (0.4, 0.05), (0.42, 0.3),
         (0.55, 0.32), (0.55, 0.42), (0.4, 0.55), (0.0, 0.62), (-0.4, 0.55), (-0.55, 0.35)]


def _furniture(b: Batch, lay: Layout) -> None:
    # 洗 on its stand, 水 (a 罍 with its 勺) to the east, the 篚 to the west (南肆: laid N–S)
    x, y, _ = lay["court.xi"].xyz_chi
    m, col = _box_top((2.2, 2.2, 0.9), (x, y, 0.45), C["lacquer_black"], C["lacquer_red"])
    b.add("court.xi.stand", m, col)
    b.add("court.xi", frustum(0.75, 1.35, 0.9, 2.3, 16).moved(None, (x, y, 0)), C["bronze"])
    b.add("court.xi.water", flat_polygon(_circle(1.2, 16, x, y), 2.1), C["water"])
    x, y, _ = lay["court.water"].xyz_chi
    b.add("court.water", _jar(1.0, 3.2, (x, y, 0)), C["bronze_dark"])
    b.add("court.water.ladle", rod((x, y, 3.0), (x + 0.6, y - 0.8, 4.0), 0.07, 4), C["wood"])
    x, y, _ = lay["court.xi_basket"].xyz_chi
    _basket(b, "court.xi_basket", (x, y, 0), along_y=True)
    # 磬 hung on its frame (簨虡), facing west: the frame runs N–S
    x, y, _ = lay["court.qing"].xyz_chi
    L = lay["court.qing"].size_chi[0]
    for s in (-1, 1):
        b.add("court.qing.frame", box((0.5, 0.5, 5.0), (x, y + s * L / 2, 2.5)), C["lacquer_black"])
        b.add("court.qing.frame", box((1.6, 1.0, 0.4), (x, y + s * L / 2, 0.2)), C["lacquer_black"])
    b.add("court.qing.frame", box((0.45, L + 1.4, 0.5), (x, y, 4.9)), C["lacquer_red"])
    rot, _ = _yz_to_world(0.0)
    stone = [(-0.7, 0.0), (0.55, 0.0), (0.62, 0.32), (0.0, 0.62), (-0.25, 0.5), (-0.75, 0.28)]
    n = 4
    for k in range(n):
        yy = y - L / 2 + L * (k + 0.5) / n
        sc = 1.0 - 0.08 * k
        pts = [(px * sc * 1.3, py * sc * 1.3) for px, py in stone]
        b.add("court.qing", slab(pts, 0.18, rot, (x, yy, 2.7)), C["stone"])
        b.add("court.qing.cord", rod((x, yy, 3.5), (x, yy, 4.7), 0.04, 3), C["rope"])
    # 尊: two 壺 on the 斯禁 (禁切地無足), 玄酒 on the west (左), each with its 勺
    zun = lay["tang.zun"]
    x, y, z = zun.xyz_chi
    m, col = _box_top((4.0, 1.5, 0.3), (x, y, z + 0.15), C["lacquer_black"], C["lacquer_red"])
    b.add("tang.zun.jin", m, col)
    for k, (jx, jy, jz) in enumerate(zun.extra.get("jars", [(x - 1, y, z), (x + 1, y, z)])):
        b.add("tang.zun", _jar(0.6, 2.2, (jx, jy, jz + 0.3)), C["bronze"] if k else C["bronze_dark"])
        b.add("tang.zun.ladle", rod((jx, jy, jz + 2.2), (jx + 0.2, jy - 0.6, jz + 3.0), 0.05, 4), C["wood"])
    x, y, z = lay["tang.zun_basket"].xyz_chi
    _basket(b, "tang.zun_basket", (x, y, z), along_y=False)
    # mats (蒲筵緇布純): a rush mat with a black cloth border
    for pid, p in lay.places.items():
        if not pid.startswith("mat.") or p.size_chi is None:
            continue
        if not p.extra.get("present", True):
            continue
        w, dpt, t = p.size_chi
        x, y, z = p.xyz_chi
        layers = 2 if pid == "mat.dafu" else 1     # 大夫再重席
        for k in range(layers):
            zz = z + 0.06 * k
            b.add(pid, box((w, dpt, 0.06), (x, y, zz + 0.03)), C["mat_border"])
            b.add(pid, box((w - 0.5, dpt - 0.5, 0.07), (x, y, zz + 0.04)), C["mat"])


def _circle(r: float, n: int, x: float, y: float) -> list[tuple[float, float]]:
    return [(x + r * math.cos(2 * math.pi * k / n), y + r * math.sin(2 * math.pi * k / n)) for k in range(n)]


def _jar(r: float, height: float, at) -> Mesh:
    """A 壺/罍: foot, swelling body, neck and lip (in 尺)."""
    x, y, z = at
    parts = [frustum(r * 0.55, r * 0.6, 0.0, height * 0.12, 12),
             ellipsoid((r, r, height * 0.36), (0, 0, height * 0.45), 12, 7),
             frustum(r * 0.45, r * 0.55, height * 0.72, height, 12)]
    return merge(parts).moved(None, (x, y, z))


def _basket(b: Batch, pid: str, at, along_y: bool) -> None:
    x, y, z = at
    size = (0.9, 2.4, 0.5) if along_y else (2.4, 0.9, 0.5)
    m, col = _box_top(size, (x, y, z + 0.25), C["basket"], shade(C["basket"], 1.1))
    b.add(pid, m, col)
    b.add(pid + ".lid", box((size[0] + 0.08, size[1] + 0.08, 0.1), (x, y, z + 0.52)), shade(C["basket"], 0.8))


def _floor_of(lay: Layout):
    """The surface (尺) a static part's shadow falls on: the 堂 floor for things on it, else the ground."""
    fl = lay.hall.height
    on_tang = re.compile(r"^(hall\.(west|east)_pillar|mat\.|tang\.)")
    def floor(pid: str, pts: np.ndarray) -> float:
        return fl if on_tang.match(pid) else 0.0
    return floor


@lru_cache(maxsize=8)
def _static(reading_key) -> StaticSet:
    lay = build_layout(reading_key)
    main, rs, rn = Batch(), Batch(), Batch()
    bounds = _court(main, lay)
    _hall(main, lay, rs, rn)
    _range(main, lay)
    _furniture(main, lay)
    # shadows: of the whole building (the full roof, whatever the roof mode) on the court or the 堂
    both = Batch()
    both.extend(main)
    both.extend(rs)
    both.extend(rn)
    fl = lay.hall.height
    zs = Z_SHADOW / lay.reading.chi_m
    def colour_of(z):
        return C["shadow_tang"] if z > 0.5 else C["shadow_ground"]
    floor = _floor_of(lay)
    skip = [n for n in both.names if n.startswith(("ground.", "hall.court", "range.houdao", "tang.wu", "hall.tang"))
            or n.endswith(("rafters",))]
    sh = both.shadow(SUN_DIR, colour_of, skip=skip, floor_of=lambda pid, p: floor(pid, p) + (zs if floor(pid, p) == 0 else 0.05))
    # the platform itself casts onto the ground
    plat = Batch()
    hx, d = lay.hall.platform_x, lay.hall.house_depth
    plat.add("hall.tang", box((2 * hx, d, fl), (0, d / 2, fl / 2)), "#000000")
    sh.extend(plat.shadow(SUN_DIR, colour_of, floor_of=lambda pid, p: zs))
    chi = lay.reading.chi_m
    x0, x1, y0, y1 = bounds
    return StaticSet(lay, main, rs, rn, sh, chi, (x0 * chi, x1 * chi, y0 * chi, y1 * chi))


def build_static(reading=None) -> StaticSet:
    """The static scene of a reading (cached: a reading's building never changes)."""
    from . import readings as readings_mod
    return _static(readings_mod.get(reading))


# ---------------------------------------------------------------------------
# the dynamic set

@dataclass
class DynamicSet:
    """What a pose shows: figures and objects (``main``) and their shadows, in metres."""

    main: Batch
    shadows: Batch
    anchors: dict[str, tuple[float, float, float]] = field(default_factory=dict)   # label points, metres


#: the objects' kinds (cast.toml) that are small enough to hide when nobody can see them
_OFFSTAGE_MARGIN_M = 1.0


def _hand_owner(pose, k_obj: int, hands: np.ndarray, visible: np.ndarray) -> int | None:
    """The actor whose hands hold object k (the timeline keeps held things at the hand point)."""
    if not len(hands):
        return None
    d = np.linalg.norm(hands - pose.object_xyz_m[k_obj], axis=1)
    d[~visible] = np.inf
    i = int(np.argmin(d))
    return i if d[i] < 0.12 else None


def hand_points(pose, chi_m: float) -> np.ndarray:
    """Where the timeline puts a held object: 1 尺 in front, 3.5 尺 up (timeline.HAND_Z)."""
    h = np.radians(pose.heading_deg)
    return pose.actor_xyz_m + np.column_stack([np.sin(h), np.cos(h), np.full(len(h), 3.5)]) * chi_m


def build_dynamic(rite, pose, *, velocity: dict[str, np.ndarray] | None = None) -> DynamicSet:
    """Figures and objects of one pose (metres), and their planar shadows."""
    lay = rite.layout
    chi = lay.reading.chi_m
    main = Batch()
    anchors: dict[str, tuple[float, float, float]] = {}
    visible = np.asarray(pose.visible, dtype=bool)
    gate_y = lay["hall.gate"].xyz_chi[1] * chi
    onstage = visible & (pose.actor_xyz_m[:, 1] > gate_y - _OFFSTAGE_MARGIN_M * 3)
    hands = hand_points(pose, chi)
    # which objects are in whose hands (held things are drawn by the object builder, posed by the holder)
    held_by: dict[str, int] = {}
    for k, oid in enumerate(pose.object_ids):
        owner = _hand_owner(pose, k, hands, onstage)
        if owner is not None:
            held_by[oid] = owner
    held_names: dict[int, set[str]] = {}
    for oid, i in held_by.items():
        held_names.setdefault(i, set()).add(_object_word(rite, oid))
    styles = figures.styles(rite.choreography)
    for i, aid in enumerate(pose.actor_ids):
        if not onstage[i]:
            continue
        st = styles[aid]
        extra_props = [w for w in _holding_words(pose.holding[i]) if w not in held_names.get(i, set())]
        fig = figures.figure(st, pose.posture[i], extra_props)
        rot = heading_rot(float(pose.heading_deg[i]))
        pos = pose.actor_xyz_m[i]
        main.add_arrays(f"actor.{aid}", fig.points @ rot.T + pos, fig.normals @ rot.T, fig.tris, fig.rgb)
        anchors[f"actor.{aid}"] = (float(pos[0]), float(pos[1]), float(pos[2] + fig.height + 0.15))
    _objects(main, rite, pose, held_by, velocity, anchors)
    _hou_lower(main, lay, pose)
    # shadows on the surface under each part (the 堂 floor, a tread or the court)
    fl_m = lay.hall.height * chi
    def floor_of(pid: str, pts: np.ndarray) -> float:
        zmin = float(pts[:, 2].min())
        if zmin > fl_m - 0.05 and _on_tang(lay, pts):
            return fl_m + 0.012
        return Z_SHADOW_DYN if zmin < fl_m * 0.5 or not _on_tang(lay, pts) else fl_m + 0.012
    def colour_of(z):
        return C["shadow_tang"] if z > 0.1 else C["shadow_ground"]
    skip = [n for n in main.names if n.startswith("target.")]
    shadows = main.shadow(SUN_DIR, colour_of, skip=skip, floor_of=floor_of)
    return DynamicSet(main, shadows, anchors)


def _on_tang(lay: Layout, pts: np.ndarray) -> bool:
    chi = lay.reading.chi_m
    h = lay.hall
    x, y = float(pts[:, 0].mean()), float(pts[:, 1].mean())
    return abs(x) <= h.platform_x * chi and 0 <= y <= h.house_depth * chi


def _holding_words(text: str) -> list[str]:
    """'弓、矢×4' → ['弓', '矢']: the things an actor holds, as the timeline names them."""
    out = []
    for w in text.split("、"):
        w = w.split("×")[0].strip()
        if w:
            out.append(w)
    return out


def _object_word(rite, oid: str) -> str:
    if oid.startswith("bow."):
        return "弓"
    if oid.startswith("arrow."):
        return "矢"
    th = rite.choreography.things.get(oid)
    return th.name if th is not None else oid


def _object_kind(rite, oid: str) -> str:
    if oid.startswith("bow."):
        return "bow"
    if oid.startswith("arrow."):
        return "arrow"
    if oid.startswith("counters."):
        return "counters"
    th = rite.choreography.things.get(oid)
    return th.kind if th is not None else "thing"


def _objects(b: Batch, rite, pose, held_by: dict[str, int], velocity, anchors) -> None:
    lay = rite.layout
    chi = lay.reading.chi_m
    gate_y = lay["hall.gate"].xyz_chi[1] * chi
    stored_rank: dict[tuple[float, float], int] = {}
    for k, oid in enumerate(pose.object_ids):
        pos = pose.object_xyz_m[k]
        if pos[1] < gate_y - _OFFSTAGE_MARGIN_M:      # offstage (outside the 門): not seen
            continue
        state = pose.object_state[k] or ""
        kind = _object_kind(rite, oid)
        owner = held_by.get(oid)
        heading = float(pose.heading_deg[owner]) if owner is not None else 0.0
        posture = pose.posture[owner] if owner is not None else ""
        pid = oid if "." in oid else f"object.{oid}"
        if kind == "arrow":
            _arrow(b, pid, pos, state, owner, heading, posture, velocity.get(oid) if velocity else None, chi,
                   oid, stored_rank)
        elif kind == "bow":
            _bow(b, pid, pos, state, owner, heading, posture, chi, stored_rank)
        elif kind == "counters":
            _counters(b, pid, pos, state, chi, oid.endswith("zhong"))
        elif kind == "rope":
            continue                                   # the 侯's 左下綱: drawn with the 侯 (_hou_lower)
        else:
            mesh, colour = _thing(kind, oid, state, heading if owner is not None else _rest_heading(lay, oid),
                                  owner is not None, chi)
            at = pos.copy()
            if owner is None:
                at[2] = _rest_z(lay, pos, chi)
            b.add(pid, mesh.moved(None, at), colour)
            if oid in ("bi", "zhong", "feng", "jing") and owner is None:
                anchors[pid] = (float(at[0]), float(at[1]), float(at[2] + 0.6))


def _rest_z(lay: Layout, pos: np.ndarray, chi: float) -> float:
    """Objects set down rest on the surface below them (the timeline gives the hand height for some)."""
    h = lay.hall
    x, y = pos[0] / chi, pos[1] / chi
    if abs(x) <= h.platform_x and 0 <= y <= h.house_depth:
        return max(float(pos[2]), h.height * chi) if pos[2] < h.height * chi + 0.5 else float(pos[2])
    return float(pos[2]) if pos[2] > 0.3 else 0.0


def _rest_heading(lay: Layout, oid: str) -> float:
    return {"bi": 90.0, "zhong": 90.0}.get(oid, 0.0)


def _thing(kind: str, oid: str, state: str, heading: float, held: bool, chi: float) -> tuple[Mesh, Any]:
    """One movable object in its local frame (metres), placed at its point (base or hand)."""
    s = chi
    rot = heading_rot(heading)
    def fin(m: Mesh) -> Mesh:
        return m.scaled((s, s, s)).moved(rot)
    if kind == "cup":
        if oid == "jue":      # 爵: three legs, a spout, a bowl
            m = merge([frustum(0.22, 0.3, 0.3, 0.75, 10), *[rod((0.18 * math.cos(a), 0.18 * math.sin(a), 0.0),
                                                                (0.15 * math.cos(a), 0.15 * math.sin(a), 0.32), 0.03, 3)
                                                            for a in (0.5, 2.6, 4.7)],
                       box((0.12, 0.35, 0.06), (0, 0.35, 0.72))])
        else:                 # 觶: a small round-bellied cup on a ring foot
            m = merge([frustum(0.13, 0.12, 0.0, 0.1, 10), ellipsoid((0.2, 0.2, 0.26), (0, 0, 0.32), 10, 6),
                       frustum(0.17, 0.2, 0.5, 0.68, 10)])
        return fin(m), C["bronze"]
    if kind == "flag":        # 旌: a 3-仞 pole, the upper 2 尋 sheathed in 鴻脰, a red tassel
        return _flag(state, held, chi, heading)
    if kind == "rack":        # 楅: 長如笴 (3 尺), dragon heads at both ends, lacquered (髤)
        m = merge([box((3.0, 0.3, 0.15), (0, 0, 0.55)), box((0.25, 0.5, 0.55), (-1.4, 0, 0.28)),
                   box((0.25, 0.5, 0.55), (1.4, 0, 0.28)), ellipsoid((0.25, 0.18, 0.2), (-1.55, 0, 0.85), 8, 5),
                   ellipsoid((0.25, 0.18, 0.2), (1.55, 0, 0.85), 8, 5)])
        return fin(m), C["lacquer_red"]
    if kind == "counter_holder":   # 鹿中: a kneeling deer (前足跪), lacquered, a hole in its back
        m = merge([ellipsoid((0.55, 1.1, 0.5), (0, 0, 0.95), 10, 6), rod((0, 0.8, 1.2), (0, 1.2, 2.0), 0.22, 6),
                   ellipsoid((0.22, 0.42, 0.22), (0, 1.35, 2.05), 8, 5),
                   box((0.5, 0.9, 0.35), (0, 0.7, 0.18)), box((0.5, 0.6, 0.6), (0, -0.8, 0.3)),
                   rod((0.1, 1.45, 2.2), (0.35, 1.3, 2.8), 0.05, 3), rod((-0.1, 1.45, 2.2), (-0.35, 1.3, 2.8), 0.05, 3)])
        return fin(m), "#7e3a22"
    if kind == "rod":         # 扑: 長如笴, leaning or held
        m = rod((0, 0, 0.0), (0, 0.3, 3.0), 0.07, 5) if not held else rod((0, 0, -0.8), (0, 0.6, 2.0), 0.07, 5)
        return fin(m), C["wood"]
    if kind == "stand":       # 豐: like a low 豆 (鄭: 豐形蓋似豆而卑)
        m = merge([frustum(0.6, 0.45, 0.0, 0.15, 12), frustum(0.18, 0.18, 0.15, 1.1, 8),
                   frustum(0.5, 0.8, 1.1, 1.35, 12)])
        return fin(m), C["lacquer_black"]
    if kind == "zither":      # 瑟: a long box with strings, carried or on the lap
        m = merge([box((1.4, 5.5, 0.5), (0, 0, 0)), box((1.2, 5.2, 0.04), (0, 0, 0.27))])
        if held:
            m = m.moved(rot_x(60.0), (0, 0.4, -0.5))
        return fin(m), C["wood"]
    if kind == "tray":        # 俎 with meat
        m = merge([box((2.2, 1.2, 0.18), (0, 0, 1.2)), *[box((0.18, 0.18, 1.2), (sx * 0.9, sy * 0.45, 0.6))
                                                          for sx in (-1, 1) for sy in (-1, 1)],
                   ellipsoid((0.7, 0.4, 0.2), (0, 0, 1.4), 8, 4)])
        if held:
            m = m.moved(None, (0, 0, -1.2))
        return fin(m), C["wood"]
    return fin(box((0.6, 0.6, 0.6), (0, 0, 0.3))), C["wood"]


def _flag(state: str, held: bool, chi: float, heading: float) -> tuple[Mesh, Any]:
    s = chi
    L = 21.0                                    # 杠長三仞 (the reading's 仞; 21 尺 at 7 尺)
    sheath = 16.0                                # 以鴻脰韜上二尋
    st = state or ""
    if "lean" in st or "倚" in st:
        # leant on the 侯中 from the north: foot on the ground, top against the cloth
        axis = np.array([0.0, -0.35, 1.0])
        base = np.array([0.0, 2.0, 0.0])
    elif "laid" in st or "stored" in st:
        axis = np.array([1.0, 0.0, 0.02])
        base = np.array([-L / 2, 0.0, 0.2])
    elif "lower" in st or "偃" in st:
        axis = np.array([0.0, 1.0, 0.25])
        base = np.array([0.0, -3.0, -2.5])
    elif "raise" in st or "舉" in st:
        axis = np.array([0.0, 0.12, 1.0])
        base = np.array([0.0, 0.0, -1.0])
    else:                                        # held upright
        axis = np.array([0.0, 0.05, 1.0])
        base = np.array([0.0, 0.0, -3.3] if held else [0.0, 0.0, 0.0])
    axis = axis / np.linalg.norm(axis)
    p0 = base
    p1 = base + axis * (L - sheath)
    p2 = base + axis * L
    side = np.cross(axis, (1.0, 0.0, 0.0)) if abs(axis[0]) < 0.9 else np.cross(axis, (0.0, 1.0, 0.0))
    side /= np.linalg.norm(side)
    pole = rod(p0, p1, 0.18, 6)
    cover = rod(p1, p2, 0.32, 8)
    tassel = merge([rod(p2, p2 - axis * 2.2 + side * 0.9, 0.14, 4), rod(p2, p2 - axis * 2.4 - side * 0.9, 0.14, 4)])
    rot = heading_rot(heading)
    meshes = [(pole, C["flag_pole"]), (cover, C["feather"]), (tassel, C["flag_red"])]
    out = merge([m.scaled((s, s, s)).moved(rot) for m, _ in meshes])
    cols = np.vstack([np.tile(np.array(rgb(c), np.uint8), (len(m.points), 1)) for m, c in meshes])
    return out, cols


def _stored_offset(stored_rank: dict, pos: np.ndarray, step: float) -> float:
    key = (round(float(pos[0]), 2), round(float(pos[1]), 2))
    k = stored_rank.get(key, 0)
    stored_rank[key] = k + 1
    return (k // 2) * step * (1 if k % 2 == 0 else -1) if k else 0.0


def _bow(b: Batch, pid: str, pos, state: str, owner, heading: float, posture: str, chi: float, stored_rank) -> None:
    """A bow (6 尺), curved; drawn (in the 'shoot' posture), held at the side, or leaning where stored."""
    L = 6.0 * chi
    t = np.linspace(-1, 1, 9)
    if owner is not None and posture == "shoot":
        # held out at arm's length, string drawn to the face: belly towards the archer
        pts = np.column_stack([np.zeros_like(t), 0.62 - 0.22 * (1 - t ** 2) + 0.0, 1.35 + t * L / 2 * 0.95])
        string = [(0, 0.62, 1.35 + L / 2 * 0.95), (0.05, 0.05, 1.42), (0, 0.62, 1.35 - L / 2 * 0.95)]
        rot = heading_rot(heading)
        base = pos - (hand_local(chi) @ rot.T)
        b.add(pid, tube(pts @ rot.T + base, 0.022, 5), C["bow"])
        b.add(pid + ".string", tube(np.asarray(string) @ rot.T + base, 0.006, 3), C["string"])
        return
    if owner is not None:
        # 執弓: upright in the left hand, at the side
        pts = np.column_stack([-0.32 + 0.0 * t, 0.12 + 0.12 * (1 - t ** 2), t * L / 2 * 0.95])
        rot = heading_rot(heading)
        b.add(pid, tube(pts @ rot.T + pos + (0, 0, -0.15), 0.02, 5), C["bow"])
        string = np.array([pts[0], pts[-1]])
        string[:, 1] = 0.12
        b.add(pid + ".string", tube(string @ rot.T + pos + (0, 0, -0.15), 0.006, 3), C["string"])
        return
    # stored: leaning, spread along the wall or edge so a row of bows reads as a row
    off = _stored_offset(stored_rank, pos, 0.18)
    z0 = float(pos[2])
    pts = np.column_stack([off + 0.0 * t, -0.25 + 0.1 * (1 - t ** 2) + 0.25 * (t + 1) / 2, z0 + (t + 1) / 2 * L * 0.9])
    b.add(pid, tube(pts + (pos[0], pos[1], 0), 0.02, 5), C["bow"])


def hand_local(chi: float) -> np.ndarray:
    return np.array([0.0, 1.0 * chi, 3.5 * chi])


def _arrow(b: Batch, pid: str, pos, state: str, owner, heading: float, posture: str, vel, chi: float,
           oid: str, stored_rank) -> None:
    """An arrow (矢, 3 尺): in flight along its velocity, stuck in the 侯, lying short, on the 楅, in hand."""
    L = 3.0 * chi
    st = state or ""
    n = int(oid.rsplit(".", 1)[-1]) if oid.rsplit(".", 1)[-1].isdigit() else 1
    if "flight" in st and vel is not None and np.linalg.norm(vel) > 1e-6:
        d = vel / np.linalg.norm(vel)
        tip = pos
    elif "侯" in st and "stuck" in st:
        d = np.array([0.0, -1.0, -0.12])
        tip = pos + np.array([0.0, -0.06, 0.0])
    elif st.startswith("miss") or "ground" in st:
        d = np.array([0.15 * ((n % 3) - 1), -1.0, -0.35])
        tip = np.array([pos[0], pos[1], 0.05])
    elif "楅" in st:
        d = np.array([0.0, -1.0, 0.0])                 # 北括: the nock to the north
        tip = pos + np.array([0.0, -L / 2, 0.0])
    elif owner is not None:
        rot = heading_rot(heading)
        if posture == "shoot" and n == 1:
            d = rot @ np.array([0.0, 1.0, 0.0])
            tip = pos - rot @ hand_local(chi) + rot @ np.array([0.0, 0.7, 1.38])
        else:   # 挾: held along the bow hand; the rest tucked in the belt (搢)
            d = rot @ np.array([0.05 * (n - 2.5), 0.25, 1.0])
            tip = pos + rot @ np.array([0.25 + 0.03 * n, 0.0, 0.2])
    else:                                              # stored with the bows: lying at the foot
        off = _stored_offset(stored_rank, pos, 0.05)
        d = np.array([0.0, -1.0, 0.0])
        tip = np.array([pos[0] + off + 0.1, pos[1] - 0.05, pos[2] + 0.03])
    d = np.asarray(d, dtype=float)
    d /= np.linalg.norm(d)
    tail = tip - d * L
    b.add(pid, rod(tip, tail, 0.009, 4), C["arrow"])
    b.add(pid + ".fletch", rod(tail + d * 0.02, tail + d * 0.16, 0.022, 3), C["fletch"])


def _counters(b: Batch, pid: str, pos, state: str, chi: float, upright: bool) -> None:
    """筭 (長尺有握): a pile of bamboo counters, as many as the state says (in the 中: upright)."""
    try:
        n = int(state)
    except ValueError:
        n = 0
    if n <= 0:
        return
    L = 1.4 * chi
    parts = []
    if upright:
        for k in range(min(n, 8)):
            a = 2 * math.pi * k / 8
            x, y = 0.05 * math.cos(a), 0.05 * math.sin(a)
            parts.append(rod((x, y, 0.0), (x * 1.5, y * 1.5, L), 0.008, 3))
        b.add(pid, merge(parts).moved(None, (pos[0], pos[1] + 0.1, 0.42)), C["counter"])
        return
    for k in range(min(n, 80)):
        row, col = divmod(k, 10)
        x = (col - 4.5) * 0.025
        parts.append(rod((x, -L / 2, 0.012 + 0.018 * row), (x, L / 2, 0.012 + 0.018 * row), 0.009, 3))
    b.add(pid, merge(parts).moved(None, (pos[0], pos[1], 0.0)), C["counter"])


def _hou_lower(b: Batch, lay: Layout, pose) -> None:
    """下个 and the 下綱: the 左下綱 (west half) rolled (不繫, 中掩束之), tied (繫) or untied (說)."""
    chi = lay.reading.chi_m
    state = ""
    if "hou_rope" in pose.object_ids:
        state = pose.object_state[pose.object_ids.index("hou_rope")] or ""
    p = lay["target.lower_strip"]
    w, _, ht = p.size_chi
    x, y, zc = p.xyz_chi
    z0 = lay["target.lower_rope"].xyz_chi[2]
    px = lay["target.east_post"].xyz_chi[0]
    parts: list[tuple[str, Mesh, str]] = []
    if state.startswith("rolled"):
        parts.append(("target.lower_strip", box((w / 2, 0.18, ht), (w / 4, y, zc)), C["hou_cloth"]))
        roll = rod((-0.6, y, zc - 0.2), (2.4, y, zc - 0.2), 1.05, 10)
        parts.append(("target.lower_strip.rolled", roll, shade(C["hou_cloth"], 0.93)))
        parts.append(("target.lower_rope", rod((0.0, y, z0), (px, y, z0), 0.12, 5), C["rope"]))
    else:
        parts.append(("target.lower_strip", box((w, 0.18, ht), (x, y, zc)), C["hou_cloth"]))
        parts.append(("target.lower_rope", rod((0.0, y, z0), (px, y, z0), 0.12, 5), C["rope"]))
        if state.startswith("untied"):     # 說 … 釋之: loose, trailing to the ground
            sag = [(-w / 2, y, z0), (-w / 2 - 2.0, y + 0.5, z0 * 0.4), (-w / 2 - 4.5, y + 0.8, 0.1)]
            parts.append(("target.left_lower_rope", tube(sag, 0.12, 5), C["rope"]))
        else:
            parts.append(("target.left_lower_rope", rod((-px, y, z0), (0.0, y, z0), 0.12, 5), C["rope"]))
    for pid, m, col in parts:
        b.add(pid, m.scaled((chi, chi, chi)), col)


# ---------------------------------------------------------------------------
# pyvista

def to_vtk(batch: Batch, scale: float = 1.0):
    """One vtkPolyData for a batch: point normals, point colours ``rgb``, cell ``part`` ids and the
    ids themselves in the field data ``part_ids`` (built straight from the arrays: no per-cell Python)."""
    from vtkmodules.util.numpy_support import numpy_to_vtk, numpy_to_vtkIdTypeArray
    from vtkmodules.vtkCommonCore import vtkPoints, vtkStringArray
    from vtkmodules.vtkCommonDataModel import vtkCellArray, vtkPolyData
    a = batch.arrays()
    poly = vtkPolyData()
    if not len(a["tris"]):
        return poly
    pts = vtkPoints()
    pts.SetData(numpy_to_vtk(np.ascontiguousarray(a["points"] * np.float32(scale), dtype=np.float32), deep=True))
    poly.SetPoints(pts)
    n = len(a["tris"])
    offsets = numpy_to_vtkIdTypeArray(np.arange(0, 3 * n + 1, 3, dtype=np.int64), deep=True)
    conn = numpy_to_vtkIdTypeArray(np.ascontiguousarray(a["tris"].ravel(), dtype=np.int64), deep=True)
    cells = vtkCellArray()
    cells.SetData(offsets, conn)
    poly.SetPolys(cells)
    nrm = numpy_to_vtk(np.ascontiguousarray(a["normals"], dtype=np.float32), deep=True)
    nrm.SetName("Normals")
    poly.GetPointData().SetNormals(nrm)
    col = numpy_to_vtk(np.ascontiguousarray(a["rgb"], dtype=np.uint8), deep=True)
    col.SetName("rgb")
    poly.GetPointData().AddArray(col)
    part = numpy_to_vtk(np.ascontiguousarray(a["part"], dtype=np.int32), deep=True)
    part.SetName("part")
    poly.GetCellData().AddArray(part)
    names = vtkStringArray()
    names.SetName("part_ids")
    for nm in batch.names:
        names.InsertNextValue(nm)
    poly.GetFieldData().AddArray(names)
    return poly


def to_polydata(batch: Batch, scale: float = 1.0):
    """The same as a pyvista PolyData (for the app and for inspection)."""
    import pyvista as pv
    return pv.wrap(to_vtk(batch, scale))
