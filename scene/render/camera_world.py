"""Where the director's camera may stand in the building and what it can see through (:mod:`.shots`): inside
the court walls, or under the eaves of the 堂 between the 序, or in front of the 門 while the people are out
there; never looking through a 楹, a 序, the court's wall (only through its 門) or the 門's open leaves."""
from __future__ import annotations

import numpy as np

from .frame_rules import Occluders, within


class World:
    """The bounds a camera must keep and the 楹 it must not look through."""

    def __init__(self, rite) -> None:
        lay = rite.layout
        chi = lay.reading.chi_m
        h = lay.hall
        self.cw = lay.reading.court_width_chi / 2 * chi
        self.gate_y = lay["hall.gate"].xyz_chi[1] * chi
        self.ridge = h.z_dong * chi
        self.floor = lay.xyz_m("hall.tang")[2]
        self.eave = self.floor + h.z_eave * chi
        self.xu = h.xu_x * chi
        self.hall_y = h.house_depth * chi
        pil = [lay.xyz_m(p) for p in ("hall.west_pillar", "hall.east_pillar") if p in lay]
        self.pillars = np.array([(p[0], p[1]) for p in pil]) if pil else np.zeros((0, 2))
        self.pillar_top = self.floor + (lay["hall.west_pillar"].size_chi[2] * chi if pil else 0.0)
        self.pillar_r = (lay["hall.west_pillar"].size_chi[0] / 2 * chi if pil else 0.0) + 0.25
        # the court's south wall and its 門 (scene.render.meshes.grounds: 7 尺 high with its coping, the
        # opening 門 wide under a lintel at 9.6 尺): a camera outside the 門 sees the court only through it
        self.gate_half = lay.reading.gate_width_chi / 2 * chi - 0.1
        self.wall_top = 7.8 * chi
        self.lintel = 9.6 * chi
        # the 門's two leaves standing open into the court (grounds: 9 尺 high, as deep as half the opening less
        # 0.4 尺, at its sides): a man passing through is hidden from a camera looking in at a slant
        gw = lay.reading.gate_width_chi / 2
        self.leaves = [(sx * (gw - 0.2) * chi, self.gate_y, self.gate_y + (gw - 0.4) * chi) for sx in (-1.0, 1.0)]
        self.leaf_top = 9.0 * chi
        # the 侯 (read only where arrows fly: a hall without a range, 鄉飲酒禮's 庠, has none and no flight)
        has_hou = "target.hou" in lay
        self.hou = np.array(lay.xyz_m("target.hou")) if has_hou else None
        self.hou_top = lay["target.east_post"].size_chi[2] * chi if has_hou else 0.0
        self.hou_half = (lay["target.hou"].size_chi[0] / 2 * chi if lay["target.hou"].size_chi else 4.6) if has_hou else 0.0
        self.occluders = Occluders(rite)

    def allows(self, pos: np.ndarray) -> bool:
        x, y, z = pos
        if y <= self.gate_y - 1.0:                   # in front of the gate (only while people are out there)
            return y >= self.gate_y - 40.0 and abs(x) <= self.cw + 10.0 and 0.5 <= z <= self.ridge
        if y <= -0.3:                                # in the court
            return abs(x) <= self.cw - 0.4 and y >= self.gate_y + 0.4 and 0.5 <= z <= self.ridge
        # on the 堂: under the eaves, between the 序, in front of the north wall
        return abs(x) <= self.xu - 0.4 and y <= self.hall_y - 0.6 and self.floor + 0.5 <= z <= self.eave - 0.2

    def hidden(self, pos: np.ndarray, pts: np.ndarray) -> bool:
        """A 楹 or a 序 between the camera and any of the points (the points at half a figure's height)."""
        return bool(_hidden_all(self, np.asarray(pos, float)[None], np.asarray(pts, float))[0])


def _allowed(world: World, pos: np.ndarray, outside: bool = False, hall_ok: bool = True) -> np.ndarray:
    """Cameras inside the court or under the eaves of the 堂 (``outside``: or in front of the gate, when
    the people are out there)."""
    x, y, z = pos.T
    court = (y <= -0.3) & (np.abs(x) <= world.cw - 0.4) & (y >= world.gate_y + 0.4) & (z >= 0.5) & (z <= world.ridge)
    hall = hall_ok & (y > -0.3) & (np.abs(x) <= world.xu - 0.4) & (y <= world.hall_y - 0.6) & \
        (z >= world.floor + 0.5) & (z <= world.eave - 0.2)
    if outside:
        gate = (y <= world.gate_y - 1.0) & (y >= world.gate_y - 40.0) & (np.abs(x) <= world.cw + 10.0) & \
            (z >= 0.5) & (z <= world.ridge)
        return court | hall | gate
    return court | hall


def _hidden_all(world: World, pos: np.ndarray, pts: np.ndarray) -> np.ndarray:
    """``_World.hidden`` for many camera positions (C, 3) at once (on (C, P) planes, one per axis)."""
    return _hidden_each(world, pos, pts).any(axis=1)


def _hidden_each(world: World, pos: np.ndarray, pts: np.ndarray) -> np.ndarray:
    """(C, P): which of the points each camera cannot see for a 楹, a 序, the court's wall or the 門's leaves.

    A thing that lies beyond the box holding every camera and point (by a margin far over the rounding of a
    sight line's parameter) cannot be in the way of any of them: it is not tested."""
    out = np.zeros((len(pos), len(pts)), dtype=bool)
    if not len(pos) or not len(pts):
        return out
    ends = np.concatenate([pos, pts])
    (x_lo, y_lo, z_lo), (x_hi, y_hi, _) = ends.min(0).tolist(), ends.max(0).tolist()
    m = _MARGIN

    def apart(x0: float, x1: float, y0: float, y1: float, z1: float) -> bool:
        """The thing spanning [x0, x1] × [y0, y1], up to z1, lies beyond the box."""
        return x1 < x_lo - m or x0 > x_hi + m or y1 < y_lo - m or y0 > y_hi + m or z1 < z_lo - m
    cx, cy, cz = (pos[:, k:k + 1] for k in range(3))                    # (C, 1)
    d0, d1, dz = (pts[None, :, k] - pos[:, k:k + 1] for k in range(3))  # (C, P): camera → point
    r = world.pillar_r
    dd = None
    with np.errstate(divide="ignore", invalid="ignore"):
        for px, py in world.pillars.tolist():
            if apart(px - r, px + r, py - r, py + r, world.pillar_top):
                continue
            if dd is None:
                dd = np.maximum(d0 * d0 + d1 * d1, 1e-9)
            s = (d0 * (px - cx) + d1 * (py - cy)) / dd
            z = cz + s * dz
            out |= (s > 0.02) & (s < 0.98) & within(cx + s * d0 - px, cy + s * d1 - py, r) & (z < world.pillar_top)
        # the court's south wall: a sight line across it (camera and point on either side) must pass the 門
        gy = world.gate_y - 0.23
        if y_lo < gy + m and y_hi > gy - m:
            dy = pts[None, :, 1] - pos[:, None, 1]
            s = (gy - pos[:, None, 1]) / dy
            x = pos[:, None, 0] + s * (pts[None, :, 0] - pos[:, None, 0])
            z = pos[:, None, 2] + s * (pts[None, :, 2] - pos[:, None, 2])
            through = (s > 0.0) & (s < 1.0)
            out |= through & (((np.abs(x) > world.gate_half) & (z < world.wall_top)) |
                              ((np.abs(x) <= world.gate_half) & (z > world.lintel)))
        # the 門's leaves (x = ±, from the wall into the court): no looking past them at a slant
        for lx, y0, y1 in world.leaves:
            if apart(lx, lx, y0, y1, world.leaf_top):
                continue
            s = (lx - cx) / d0
            y = cy + s * d1
            z = cz + s * dz
            out |= (s > 0.0) & (s < 1.0) & (y > y0) & (y < y1) & (z < world.leaf_top)
        # the 序 (the side walls of the 堂, x = ±xu, from the front to the back): no looking through them
        for wx in (-world.xu, world.xu):
            if apart(wx, wx, 0.2, world.hall_y, world.eave + 1.0):
                continue
            s = (wx - cx) / d0
            y = cy + s * d1
            z = cz + s * dz
            out |= (s > 0.0) & (s < 1.0) & (y > 0.2) & (y < world.hall_y) & (z < world.eave + 1.0)
    return out


#: m: the margin past the box of the cameras and points beyond which a thing is not tested (a sight line's
#: points are inside the box to ~1e-14 m)
_MARGIN = 1e-6
