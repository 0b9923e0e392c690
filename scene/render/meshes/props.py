"""The movable things as meshes: cups and vessels, the 旌, bows, arrows (held, in flight, stuck, lying, on the
楅), the 筭 counters and the 侯's lower rope."""
from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

import numpy as np

from ...geometry.layout import Layout
from ...rite.state import HAND_Z
from ..palette import COLOURS as C
from ..shapes import Batch, Mesh, box, ellipsoid, frustum, heading_rot, merge, rgb, rod, rot_x, rot_y, shade, tube
from . import racks


def rest_z(lay: Layout, pos: np.ndarray, chi: float) -> float:
    """Objects set down rest on the surface below them (the timeline gives the hand height for some)."""
    h = lay.hall
    x, y = pos[0] / chi, pos[1] / chi
    if abs(x) <= h.platform_x and 0 <= y <= h.house_depth:
        return max(float(pos[2]), h.height * chi) if pos[2] < h.height * chi + 0.5 else float(pos[2])
    return float(pos[2]) if pos[2] > 0.3 else 0.0


def rest_heading(lay: Layout | None, oid: str) -> float:
    """How a thing set down lies: the 楅 east–west (§22 東肆; its length is its local x), the 中 facing east
    (§26 東面; its front is its local y)."""
    return {"bi": 0.0, "zhong": 90.0}.get(oid, 0.0)


def thing_size(lay: Layout, oid: str) -> tuple[float, float, float] | None:
    """The measured size (尺) of a thing the text measures, from its layout place."""
    place = {"bi": "court.bi"}.get(oid)
    return lay[place].size_chi if place and place in lay.places else None


def thing(kind: str, oid: str, state: str, heading: float, held: bool, chi: float,
          size: tuple[float, float, float] | None = None) -> tuple[Mesh, Any]:
    """One movable object in its local frame (metres), placed at its point (base or hand); ``size`` (尺) is its
    layout place's where the text measures it (the 楅: 長如笴 博三寸 厚寸有半)."""
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
        return flag(state, held, chi, heading)
    if kind == "rack":        # 楅 (記38): meshes/racks.py
        m, cols = racks.assemble(racks.bi_parts(*(size or (3.0, 0.3, 0.15))))
        return fin(m), cols
    if kind == "counter_holder":   # 鹿中 (記44): meshes/racks.py
        m, cols = racks.assemble(racks.deer_parts())
        return fin(m), cols
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
    if kind == "drum":        # 鼓: a barrel drum on a low wooden stand, its heads facing east and west
        body = frustum(0.75, 0.75, -0.6, 0.6, 14).moved(rot_y(90.0), (0, 0, 1.6))
        heads = merge([frustum(0.8, 0.8, -0.64, -0.6, 14), frustum(0.8, 0.8, 0.6, 0.64, 14)]).moved(rot_y(90.0), (0, 0, 1.6))
        stand = merge([box((0.12, 0.12, 0.9), (sx * 0.5, sy * 0.4, 0.45)) for sx in (-1, 1) for sy in (-1, 1)])
        return fin(merge([body, heads, stand])), C["lacquer_red"]
    if kind == "dishes":      # 薦: 脯 in a 籩 (a bamboo bowl on a stem) and 醢 in a 豆 (a lacquered one), side by side
        bian = merge([frustum(0.35, 0.22, 0.0, 0.08, 10), frustum(0.08, 0.08, 0.08, 0.7, 6),
                      frustum(0.25, 0.45, 0.7, 0.95, 10), box((0.5, 0.12, 0.08), (0, 0, 1.0))])
        dou = merge([frustum(0.35, 0.22, 0.0, 0.08, 10), frustum(0.08, 0.08, 0.08, 0.7, 6),
                     frustum(0.25, 0.45, 0.7, 0.95, 10), ellipsoid((0.35, 0.35, 0.12), (0, 0, 0.97), 8, 4)])
        m = merge([bian.moved(None, (-0.55, 0, 0)), dou.moved(None, (0.55, 0, 0))])
        if held:
            m = m.moved(None, (0, 0, -0.9))
        return fin(m), C["lacquer_black"]
    if kind == "tray":        # 俎 with meat
        m = merge([box((2.2, 1.2, 0.18), (0, 0, 1.2)), *[box((0.18, 0.18, 1.2), (sx * 0.9, sy * 0.45, 0.6))
                                                          for sx in (-1, 1) for sy in (-1, 1)],
                   ellipsoid((0.7, 0.4, 0.2), (0, 0, 1.4), 8, 4)])
        if held:
            m = m.moved(None, (0, 0, -1.2))
        return fin(m), C["wood"]
    return fin(box((0.6, 0.6, 0.6), (0, 0, 0.3))), C["wood"]


def flag(state: str, held: bool, chi: float, heading: float) -> tuple[Mesh, Any]:
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
    # the 杠's upper two 尋 in the 鴻脰 sheath; the 翿 of white and red feathers mixed (記: 無物，則以白羽與朱羽
    # 糅) — 士 have no 物 — as bands down the sheath and streamers from its top
    bands = 8
    cover_w = merge([rod(p1 + axis * sheath * k / bands, p1 + axis * sheath * (k + 1) / bands, 0.32, 8)
                     for k in range(0, bands, 2)])
    cover_r = merge([rod(p1 + axis * sheath * k / bands, p1 + axis * sheath * (k + 1) / bands, 0.34, 8)
                     for k in range(1, bands, 2)])
    other = np.cross(axis, side)
    streams = [(p2 - axis * 0.2 + (side * math.cos(a) + other * math.sin(a)) * 0.3,
                p2 - axis * 3.2 + (side * math.cos(a) + other * math.sin(a)) * 1.1) for a in np.linspace(0, 2 * math.pi, 6,
                                                                                                  endpoint=False)]
    white = merge([rod(a, b_, 0.12, 4) for a, b_ in streams[0::2]])
    red = merge([rod(a, b_, 0.12, 4) for a, b_ in streams[1::2]])
    rot = heading_rot(heading)
    meshes = [(pole, C["flag_pole"]), (cover_w, C["feather"]), (cover_r, C["flag_red"]), (white, C["feather"]),
              (red, C["flag_red"])]
    out = merge([m.scaled((s, s, s)).moved(rot) for m, _ in meshes])
    cols = np.vstack([np.tile(np.array(rgb(c), np.uint8), (len(m.points), 1)) for m, c in meshes])
    return out, cols


def stored_offset(stored_rank: dict, pos: np.ndarray, step: float) -> float:
    key = (round(float(pos[0]), 2), round(float(pos[1]), 2))
    k = stored_rank.get(key, 0)
    stored_rank[key] = k + 1
    return (k // 2) * step * (1 if k % 2 == 0 else -1) if k else 0.0


def bow(b: Batch, pid: str, pos, state: str, owner, heading: float, posture: str, chi: float, stored_rank) -> None:
    """A bow (6 尺), curved; drawn (in the 'shoot' posture), held at the side, or leaning where stored."""
    pos = np.asarray(pos, dtype=float)
    if owner is not None:
        drawn = posture == "shoot"
        wood, string = _bow_turned(drawn, float(heading), chi)
        base = pos - (hand_local(chi) @ heading_rot(heading).T) if drawn else pos + (0.0, 0.0, -0.15)
        b.add(pid, wood.moved(None, base), C["bow"])
        b.add(pid + ".string", string.moved(None, base), C["string"])
        return
    # stored: leaning, spread along the wall or edge so a row of bows reads as a row
    off = stored_offset(stored_rank, pos, 0.18)
    b.add(pid, _bow_stored(off, float(pos[2]), chi).moved(None, (pos[0], pos[1], 0.0)), C["bow"])


@lru_cache(maxsize=512)
def _bow_turned(drawn: bool, heading: float, chi: float) -> tuple[Mesh, Mesh]:
    """A held bow's wood and string turned to the holder's heading, about his hand point (drawn) or his feet:
    remembered, since a man holds one heading for many frames (the remote view draws frame after frame and the
    bows were a third of a frame's Python; a tube turned about the vertical is the turned tube)."""
    L = 6.0 * chi
    t = np.linspace(-1, 1, 9)
    rot = heading_rot(heading)
    if drawn:
        # drawn: the grip in the straight left arm's fist, the tips bent back towards the archer, the string
        # pulled to the right hand at the jaw (the figure's 射 posture, figures.BOW_HAND / STRING_HAND)
        grip, nock = drawn_bow(chi)
        h = L / 2 * 0.9                               # a drawn bow's tips come nearer: 0.9 of half its length
        pts = np.column_stack([np.full_like(t, grip[0]), grip[1] - DRAW_BEND * t ** 2, grip[2] + t * h])
        return tube(pts @ rot.T, 0.022, 5), tube(np.asarray([pts[-1], nock, pts[0]]) @ rot.T, 0.006, 3)
    # 執弓: upright in the left hand, at the side
    pts = np.column_stack([-0.32 + 0.0 * t, 0.12 + 0.12 * (1 - t ** 2), t * L / 2 * 0.95])
    string = np.array([pts[0], pts[-1]])
    string[:, 1] = 0.12
    return tube(pts @ rot.T, 0.02, 5), tube(string @ rot.T, 0.006, 3)


@lru_cache(maxsize=256)
def _bow_stored(off: float, z0: float, chi: float) -> Mesh:
    """A stored bow leaning (its foot at the origin's x, y; ``off`` along the row): one mesh per row slot."""
    L = 6.0 * chi
    t = np.linspace(-1, 1, 9)
    pts = np.column_stack([off + 0.0 * t, -0.25 + 0.1 * (1 - t ** 2) + 0.25 * (t + 1) / 2, z0 + (t + 1) / 2 * L * 0.9])
    return tube(pts, 0.02, 5)


def hand_local(chi: float) -> np.ndarray:
    """Where the timeline puts what a standing man holds, in his frame (metres): 1 尺 before him, HAND_Z up."""
    return np.array([0.0, 1.0 * chi, HAND_Z * chi])


DRAW_BEND = 0.2         # m: how far a drawn bow's tips come back towards the archer (ours; a drawn bow reads by it)


def drawn_bow(chi: float) -> tuple[np.ndarray, np.ndarray]:
    """The grip and the nock of a drawn bow in the archer's frame (metres): the grip in the left fist, the nock
    at the right hand — where the 射 figure puts its hands."""
    from ..figures import BOW_HAND, STRING_HAND
    return np.array(BOW_HAND) + (0.0, 0.03, 0.0), np.array(STRING_HAND) + (0.0, 0.02, 0.0)


def arrow(b: Batch, pid: str, pos, state: str, owner, heading: float, posture: str, vel, chi: float,
           oid: str, stored_rank) -> None:
    """An arrow (矢, 3 尺): in flight along its velocity, stuck in the 侯, lying short, on the 楅, in hand."""
    L = 3.0 * chi
    st = state or ""
    n = int(oid.rsplit(".", 1)[-1]) if oid.rsplit(".", 1)[-1].isdigit() else 1
    flight = "flight" in st and vel is not None and np.linalg.norm(vel) > 1e-6
    if flight:
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
        if posture == "shoot":
            # on the string (the caller passes 'shoot' for the next arrow only, nocked_arrow): the nock at the drawing hand, past the grip by what is left of its 3 尺
            grip, nock = drawn_bow(chi)
            along = (grip - nock) / np.linalg.norm(grip - nock)
            d = rot @ along
            tip = pos - rot @ hand_local(chi) + rot @ (nock + along * L)
        else:   # 挾: held along the bow hand; the rest tucked in the belt (搢)
            d = rot @ np.array([0.05 * (n - 2.5), 0.25, 1.0])
            tip = pos + rot @ np.array([0.25 + 0.03 * n, 0.0, 0.2])
    else:                                              # stored with the bows: lying at the foot
        off = stored_offset(stored_rank, pos, 0.05)
        d = np.array([0.0, -1.0, 0.0])
        tip = np.array([pos[0] + off + 0.1, pos[1] - 0.05, pos[2] + 0.03])
    d = np.asarray(d, dtype=float)
    d /= np.linalg.norm(d)
    tail = tip - d * L
    b.add(pid, rod(tip, tail, 0.009, 4), C["arrow"])
    vanes = fletching(tail, d, flight) if flight else _vanes(float(d[0]), float(d[1]), float(d[2])).moved(None, tail)
    b.add(pid + ".fletch", vanes, C["fletch"])


@lru_cache(maxsize=1024)
def _vanes(dx: float, dy: float, dz: float) -> Mesh:
    """The vanes of an arrow not in flight, at the origin: its direction stays put frame after frame."""
    return fletching(np.zeros(3), np.array([dx, dy, dz]))


def nocked_arrow(oid: str, holder, held_by) -> bool:
    """Whether arrow ``oid`` is the one on the string of its holder (who draws): the lowest-numbered of his
    arrows he still holds — the others are 挾 or 搢 until their turn. ``held_by(other_oid)``: its holder."""
    head, _, n = oid.rpartition(".")
    if not n.isdigit():
        return True
    return not any(held_by(f"{head}.{m}") == holder for m in range(1, int(n)))


def _min_rot_x(d: np.ndarray) -> np.ndarray:
    """+x turned by the shortest rotation taking +y to d (how the player turns an arrow along its velocity)."""
    a = np.array([0.0, 1.0, 0.0])
    v, c = np.cross(a, d), float(a @ d)
    if c < -0.999999:
        return np.array([-1.0, 0.0, 0.0])
    k = np.array([[0, -v[2], v[1]], [v[2], 0, -v[0]], [-v[1], v[0], 0]])
    return (np.eye(3) + k + k @ k / (1 + c)) @ np.array([1.0, 0.0, 0.0])


def fletching(tail: np.ndarray, d: np.ndarray, flight: bool = False) -> Mesh:
    """Three feather vanes (羽) at 120° round the shaft behind the nock end, each a two-sided tapered quad:
    a shaft with feathers reads as an arrow where a plain stick does not.  Their roll follows how the pack's
    variant is turned: about the vertical (held, set down) or by the shortest turn from +y (in flight)."""
    d = np.asarray(d, float)
    if flight:
        u = _min_rot_x(d)
    else:
        # about the vertical only (so a variant turned with its holder matches); straight up: any side
        u = np.cross(d, (0.0, 0.0, 1.0) if abs(d[2]) < 0.9999 else (1.0, 0.0, 0.0))
    u /= np.linalg.norm(u)
    v = np.cross(d, u)
    a0, a1 = tail + d * 0.02, tail + d * 0.17
    ang = 2 * math.pi * np.arange(3) / 3
    out = np.cos(ang)[:, None] * u + np.sin(ang)[:, None] * v          # the vanes' directions (3, 3)
    side = np.cos(ang)[:, None] * v - np.sin(ang)[:, None] * u         # d × out
    quad = np.stack([a0 + out * 0.008, a1 + out * 0.008, a1 + out * 0.016, a0 + out * 0.036], axis=1)   # (3, 4, 3)
    pts = np.concatenate([quad, quad], axis=0).reshape(-1, 3)          # each vane twice: two sides
    nrm = np.repeat(np.concatenate([side, -side]), 4, axis=0)
    base = 4 * np.arange(6)[:, None, None]
    one = np.array([[0, 1, 2], [0, 2, 3]])
    tris = np.concatenate([(one + base[:3]).reshape(-1, 3), (one[:, ::-1] + base[3:]).reshape(-1, 3)])
    return Mesh(pts, nrm, tris.astype(np.int64))


def counters(b: Batch, pid: str, pos, state: str, chi: float, upright: bool) -> None:
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
        # standing in the 鹿中's hollow, the 中 lying as it rests (facing east)
        at = racks.hollow_world(pos, heading_rot(rest_heading(None, "zhong")), chi)
        b.add(pid, merge(parts).moved(None, at), C["counter"])
        return
    if pid.endswith((".right", ".left")):
        parts = _counted(n, L)
    else:
        for k in range(min(n, 80)):
            row, col = divmod(k, 10)
            x = (col - 4.5) * 0.025
            parts.append(rod((x, -L / 2, 0.012 + 0.018 * row), (x, L / 2, 0.012 + 0.018 * row), 0.009, 3))
    b.add(pid, merge(parts).moved(None, (pos[0], pos[1], 0.0)), C["counter"])


def _counted(n: int, L: float) -> list[Mesh]:
    """The 右獲 / 左獲 as §32 lays them for one counting from the west, facing east: 二筭為純 … 十純則縮而委之，
    每委異之 (each twenty in a bundle running east–west — 鄭 於數者東西為從 — the bundles apart), 有餘純則橫於下
    (the pairs left over north–south, on the near, west side: 鄭 自近為下), 一筭為奇，奇則又縮諸純下 (the odd one
    east–west, nearer still).  Drawn so from the first 筭 laid (the piles are not shown as heaps)."""
    pure, odd = divmod(min(n, 80), 2)
    bundles, rest = divmod(pure, 10)
    out: list[Mesh] = []
    z = lambda layer: 0.012 + 0.018 * layer   # noqa: E731
    for k in range(bundles):                          # 十純則縮而委之，每委異之
        yc = (k - (bundles - 1) / 2) * 0.24
        for j in range(20):
            layer, col = divmod(j, 10)
            y = yc + (col - 4.5) * 0.016
            out.append(rod((0.0, y, z(layer)), (L, y, z(layer)), 0.008, 3))
    for j in range(2 * rest):                         # 有餘純則橫於下
        x = -0.03 - 0.014 * j
        out.append(rod((x, -L / 2, z(0)), (x, L / 2, z(0)), 0.008, 3))
    if odd:                                           # 奇則又縮諸純下
        x0 = -0.03 - 0.014 * 2 * rest - 0.04
        out.append(rod((x0 - L, 0.0, z(0)), (x0, 0.0, z(0)), 0.008, 3))
    return out


def hou_lower(b: Batch, lay: Layout, pose) -> None:
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
