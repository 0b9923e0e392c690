"""The court and what stands in it for the whole rite: the 庭 and its walls, the 門, the range (侯 on its 植 with
綱, 乏, the 侯道 axis), the two 物, and the fixed furniture (洗 水 篚, 磬, 尊 on the 斯禁, mats)."""
from __future__ import annotations

import math

import numpy as np

from ...geometry.layout import Layout
from ..palette import COLOURS as C
from ..shapes import (
    Z_MARK,
    Batch,
    Mesh,
    box,
    box_between,
    box_top,
    ellipsoid,
    extrude,
    flat_polygon,
    frustum,
    merge,
    rod,
    rot_z,
    shade,
    slab,
    yz_to_world,
)
from . import hou


def court(b: Batch, lay: Layout) -> tuple[float, float, float, float]:
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
    rot, off = yz_to_world(0.0)
    roof = extrude(poly, -gw - 4.5, gw + 4.5).moved(rot, (0, gate_y - wt / 2, 0))
    b.add("hall.gate.roof", roof, C["roof"])
    return (-cw, cw, gate_y, north)


def shooting_range(b: Batch, lay: Layout) -> None:
    """侯 (less its 下个, drawn with the pose), 植, 上綱, 乏, the 侯道 axis, the 物."""
    r, h = lay.reading, lay.hall
    hou.hou(b, lay)
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


def furniture(b: Batch, lay: Layout) -> None:
    # 洗 on its stand, 水 (a 罍 with its 勺) to the east, the 篚 to the west (南肆: laid N–S)
    x, y, _ = lay["court.xi"].xyz_chi
    m, col = box_top((2.2, 2.2, 0.9), (x, y, 0.45), C["lacquer_black"], C["lacquer_red"])
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
    rot, _ = yz_to_world(0.0)
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
    m, col = box_top((4.0, 1.5, 0.3), (x, y, z + 0.15), C["lacquer_black"], C["lacquer_red"])
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
    m, col = box_top(size, (x, y, z + 0.25), C["basket"], shade(C["basket"], 1.1))
    b.add(pid, m, col)
    b.add(pid + ".lid", box((size[0] + 0.08, size[1] + 0.08, 0.1), (x, y, z + 0.52)), shade(C["basket"], 0.8))
