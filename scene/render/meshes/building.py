"""The building from the hall's plan and section: the 堂 platform with its 廉, both stairs with the reading's 等,
the two 楹, the 序, back and gable walls, 室 and 房 in a 庠, the five-purlin roof with 庪 楣 棟."""
from __future__ import annotations

import numpy as np

from ...geometry.layout import Layout
from ..palette import COLOURS as C
from ..shapes import Batch, Mesh, box, box_between, box_top, extrude, frustum, merge, rod, shade, wall_yz, yz_to_world

#: the spacing (尺) of the rows of round tiles down the roof's slopes
TILE_ROW_CHI = 1.4


def hall(b: Batch, lay: Layout, roof_s: Batch, roof_n: Batch) -> None:
    h = lay.hall
    hx, d, fl = h.platform_x, h.house_depth, h.height
    # 堂: the rammed-earth platform, its floor and the 廉 (edge) stones
    m, col = box_top((2 * hx, d, fl), (0, d / 2, fl / 2), C["tang_side"], C["tang_floor"])
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
            m, col = box_top((h.stair_width, y1 - y0 + 0.02, z1), (x, (y0 + y1) / 2, z1 / 2),
                              shade(C["steps"], 0.88), C["steps"])
            b.add(f"hall.{side}_steps.tread{k}", m, col)
        # the 側 (stringers) either side of the steps
        for s in (-1, 1):
            poly = [(-h.stair_run - 0.3, 0.0), (0.0, 0.0), (0.0, fl + 0.3), (-0.2, fl + 0.3), (-h.stair_run - 0.3, 0.4)]
            b.add(f"hall.{side}_steps.side", wall_yz(x + s * (h.stair_width / 2 + 0.25), 0.5, poly),
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
        b.add(f"hall.{side}_xu", wall_yz(sx * h.xu_x, 1.0, prof), C["wall"])
        b.add(f"hall.{side}_xu.base", box((1.3, d, 1.0), (sx * h.xu_x, d / 2, fl + 0.5)), C["wall_base"])
        gable = [(4.0, fl), (d, fl), (d, h.z_eave - 0.4), (h.y_dong, h.z_dong - 0.6), (4.0, h.z_eave - 0.4 + 4.0 *
                                                                                     (h.z_dong - h.z_eave) / h.y_dong)]
        b.add(f"hall.{side}_gable_wall", wall_yz(sx * (hx - 0.6), 1.2, gable), C["wall"])
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
        # between the two 楣 only: at that height the beam's ends would pierce the slopes further out
        b.add("hall.beam", box((1.2, d - 2 * h.y_mei + 1.6, 1.4), (x, d / 2, h.z_mei - 0.8)), C["timber"])
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
        rot, off = yz_to_world(0.0)
        return extrude(poly, -rx, rx).moved(rot, off)
    roof_s.add("hall.roof.south", slope(-ov, h.y_dong, h.z_eave - s * ov, h.z_dong), C["roof"])
    back = slope(-ov, h.y_dong, h.z_eave - s * ov, h.z_dong)
    mirror = np.diag([1.0, -1.0, 1.0])
    pts = back.points @ mirror + (0, d, 0)
    roof_n.add("hall.roof.north", Mesh(pts, back.normals @ mirror, back.tris[:, ::-1]), C["roof"])
    # the rows of round cover tiles (筒瓦) down each slope, half sunk in the tiled surface: the ridges that
    # make a slab read as a tiled roof (assumed: a row every 1.4 尺, as the tiles of excavated 周 halls)
    nrm = np.array([-(h.z_dong - h.z_eave), h.y_dong], float)
    nrm = nrm / np.linalg.norm(nrm) * th
    if nrm[1] < 0:
        nrm = -nrm
    y0, z0 = -ov + nrm[0], h.z_eave - s * ov + 0.3 + nrm[1]
    y1, z1 = h.y_dong - 0.8 + nrm[0], h.z_dong - 0.8 * s + 0.3 + nrm[1]
    rows = np.arange(-rx + 0.7, rx, TILE_ROW_CHI)
    south = merge([rod((x, y0, z0), (x, y1, z1), 0.34, 5) for x in rows])
    roof_s.add("hall.roof.tiles", south, C["roof_tile"])
    roof_n.add("hall.roof.tiles", Mesh(south.points @ mirror + (0, d, 0), south.normals @ mirror, south.tris[:, ::-1]),
               C["roof_tile"])
    # the eaves' end tiles (瓦當): a row of discs along each eave, where the rows end
    for sign, target in ((1, roof_s), (-1, roof_n)):
        ends = merge([rod((x, y0 + 0.05, z0), (x, y0 - 0.25, z0 - 0.25 * s), 0.42, 6) for x in rows])
        if sign < 0:
            ends = Mesh(ends.points @ mirror + (0, d, 0), ends.normals @ mirror, ends.tris[:, ::-1])
        target.add("hall.roof.eave_tiles", ends, C["roof_ridge"])
    ridge_z = h.z_dong + th + 0.3
    roof_n.add("hall.roof.ridge", box((2 * rx + 2.0, 2.2, 1.8), (0, h.y_dong, ridge_z + 0.4)), C["roof_ridge"])
    # gable boards at the 榮 (屋翼)
    for sx in (-1, 1):
        poly = [(-ov, h.z_eave - s * ov + 0.3), (h.y_dong, h.z_dong + 0.3), (d + ov, h.z_eave - s * ov + 0.3),
                (d + ov, h.z_eave - s * ov + 0.3 + th), (h.y_dong, h.z_dong + 0.3 + th + 0.6),
                (-ov, h.z_eave - s * ov + 0.3 + th)]
        target = roof_n if sx < 0 else roof_n
        m = wall_yz(sx * rx, 0.6, poly)
        target.add("hall.west_rong" if sx < 0 else "hall.east_rong", m, C["roof_ridge"])
