"""Triangle primitives and a batch that merges them, in plain numpy (no pyvista).

Everything the scene draws is built from a handful of primitives (box, extruded
outline, frustum, ellipsoid, tube) and accumulated in a :class:`Batch`: one
flat array of points, normals, colours and triangles, with the *part id*
(``hall.west_steps``, ``actor.bin`` …) of every triangle.  A renderer then
makes one polydata per batch instead of hundreds of actors — the one thing
that keeps a software OpenGL renderer fast.

Units are metres; +x east, +y north, +z up (the layout's axes).
"""
from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

Vec = Sequence[float]


@dataclass(frozen=True)
class Mesh:
    """Triangles with per-vertex normals (flat faces duplicate their vertices)."""

    points: np.ndarray   # (N, 3) float
    normals: np.ndarray  # (N, 3) float
    tris: np.ndarray     # (M, 3) int

    def moved(self, rot: np.ndarray | None = None, offset: Vec = (0.0, 0.0, 0.0)) -> Mesh:
        p, n = self.points, self.normals
        if rot is not None:
            p, n = p @ rot.T, n @ rot.T
        return Mesh(p + np.asarray(offset, dtype=float), n, self.tris)

    def scaled(self, s: Vec) -> Mesh:
        s = np.asarray(s, dtype=float)
        n = self.normals / s
        n /= np.linalg.norm(n, axis=1, keepdims=True) + 1e-12
        return Mesh(self.points * s, n, self.tris)


def rot_z(deg: float) -> np.ndarray:
    """Rotation about +z by ``deg`` counter-clockwise (seen from above)."""
    c, s = math.cos(math.radians(deg)), math.sin(math.radians(deg))
    return np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])


def rot_x(deg: float) -> np.ndarray:
    c, s = math.cos(math.radians(deg)), math.sin(math.radians(deg))
    return np.array([[1.0, 0.0, 0.0], [0.0, c, -s], [0.0, s, c]])


def rot_y(deg: float) -> np.ndarray:
    c, s = math.cos(math.radians(deg)), math.sin(math.radians(deg))
    return np.array([[c, 0.0, s], [0.0, 1.0, 0.0], [-s, 0.0, c]])


def heading_rot(heading_deg: float) -> np.ndarray:
    """Local frame (+y forward, +x right) → world, for a compass heading (0 = north, 90 = east)."""
    return rot_z(-heading_deg)


def _cross(a, b) -> np.ndarray:
    return np.array([a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]])


def frame_rot(forward: Vec, up: Vec = (0.0, 0.0, 1.0)) -> np.ndarray:
    """Rotation taking local +y to ``forward`` and local +z towards ``up``."""
    f = np.asarray(forward, dtype=float)
    f = f / (math.sqrt(f @ f) + 1e-12)
    r = _cross(f, up)
    nr = math.sqrt(r @ r)
    if nr < 1e-9:                      # forward is vertical: any right vector will do
        r = _cross(f, (1.0, 0.0, 0.0) if abs(f[0]) < 0.9 else (0.0, 1.0, 0.0))
        nr = math.sqrt(r @ r)
    r = r / nr
    u = _cross(r, f)
    return np.column_stack([r, f, u])


# ---------------------------------------------------------------------------
# primitives

_BOX_FACES = (  # (normal, four corners as signs) — counter-clockwise seen from outside
    ((1, 0, 0), ((1, -1, -1), (1, 1, -1), (1, 1, 1), (1, -1, 1))),
    ((-1, 0, 0), ((-1, 1, -1), (-1, -1, -1), (-1, -1, 1), (-1, 1, 1))),
    ((0, 1, 0), ((1, 1, -1), (-1, 1, -1), (-1, 1, 1), (1, 1, 1))),
    ((0, -1, 0), ((-1, -1, -1), (1, -1, -1), (1, -1, 1), (-1, -1, 1))),
    ((0, 0, 1), ((-1, -1, 1), (1, -1, 1), (1, 1, 1), (-1, 1, 1))),
    ((0, 0, -1), ((-1, 1, -1), (1, 1, -1), (1, -1, -1), (-1, -1, -1))),
)
_BOX_P = np.array([c for _, cs in _BOX_FACES for c in cs], dtype=float) * 0.5
_BOX_N = np.array([n for n, cs in _BOX_FACES for _ in cs], dtype=float)
_BOX_T = np.array([[4 * f, 4 * f + 1, 4 * f + 2] for f in range(6)] +
                  [[4 * f, 4 * f + 2, 4 * f + 3] for f in range(6)], dtype=np.int64)


def box(size: Vec, centre: Vec = (0.0, 0.0, 0.0)) -> Mesh:
    """An axis-aligned box, flat-shaded (size = E–W, N–S, up)."""
    return Mesh(_BOX_P * np.asarray(size, dtype=float) + np.asarray(centre, dtype=float), _BOX_N.copy(), _BOX_T)


def box_between(z0: float, z1: float, x0: float, x1: float, y0: float, y1: float) -> Mesh:
    return box((x1 - x0, y1 - y0, z1 - z0), ((x0 + x1) / 2, (y0 + y1) / 2, (z0 + z1) / 2))


def _ear_clip(poly: np.ndarray) -> list[tuple[int, int, int]]:
    """Triangulate a simple polygon (counter-clockwise, no holes)."""
    idx = list(range(len(poly)))
    out: list[tuple[int, int, int]] = []

    def cross(a, b, c):
        return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])

    guard = 0
    while len(idx) > 3 and guard < 10000:
        guard += 1
        n = len(idx)
        for k in range(n):
            i0, i1, i2 = idx[(k - 1) % n], idx[k], idx[(k + 1) % n]
            a, b, c = poly[i0], poly[i1], poly[i2]
            if cross(a, b, c) <= 1e-12:
                continue
            inside = False
            for j in idx:
                if j in (i0, i1, i2):
                    continue
                p = poly[j]
                if cross(a, b, p) >= 0 and cross(b, c, p) >= 0 and cross(c, a, p) >= 0:
                    inside = True
                    break
            if not inside:
                out.append((i0, i1, i2))
                idx.pop(k)
                break
        else:  # degenerate: fall back to a fan
            break
    for k in range(1, len(idx) - 1):
        out.append((idx[0], idx[k], idx[k + 1]))
    return out


def _ccw(poly: np.ndarray) -> np.ndarray:
    area = 0.5 * np.sum(poly[:, 0] * np.roll(poly[:, 1], -1) - np.roll(poly[:, 0], -1) * poly[:, 1])
    return poly if area > 0 else poly[::-1]


def flat_polygon(poly2d: Iterable[Vec], z: float = 0.0) -> Mesh:
    """A horizontal polygon at height z facing up."""
    poly = _ccw(np.asarray(list(poly2d), dtype=float))
    pts = np.column_stack([poly, np.full(len(poly), z)])
    nrm = np.tile((0.0, 0.0, 1.0), (len(poly), 1))
    return Mesh(pts, nrm, np.array(_ear_clip(poly), dtype=np.int64).reshape(-1, 3))


def extrude(poly2d: Iterable[Vec], z0: float, z1: float, caps: bool = True) -> Mesh:
    """A vertical prism on a polygon in the xy plane, from z0 to z1 (flat-shaded sides)."""
    poly = _ccw(np.asarray(list(poly2d), dtype=float))
    n = len(poly)
    pts, nrm, tris = [], [], []
    for i in range(n):
        a, b = poly[i], poly[(i + 1) % n]
        d = b - a
        ln = math.hypot(*d)
        if ln < 1e-12:
            continue
        nn = (d[1] / ln, -d[0] / ln, 0.0)
        base = len(pts)
        pts += [(a[0], a[1], z0), (b[0], b[1], z0), (b[0], b[1], z1), (a[0], a[1], z1)]
        nrm += [nn] * 4
        tris += [(base, base + 1, base + 2), (base, base + 2, base + 3)]
    side = Mesh(np.array(pts, dtype=float), np.array(nrm, dtype=float), np.array(tris, dtype=np.int64))
    if not caps:
        return side
    top = flat_polygon(poly, z1)
    bot = flat_polygon(poly, z0)
    bot = Mesh(bot.points, -bot.normals, bot.tris[:, ::-1])
    return merge([side, top, bot])


def slab(poly2d: Iterable[Vec], thickness: float, rot: np.ndarray, offset: Vec) -> Mesh:
    """An outline drawn in a local plane (x, y), given depth along local z, then placed."""
    return extrude(poly2d, -thickness / 2, thickness / 2).moved(rot, offset)


def frustum(r0: float, r1: float, z0: float, z1: float, n: int = 12, sx: float = 1.0, sy: float = 1.0,
            caps: bool = True, y_shift: float = 0.0) -> Mesh:
    """A (possibly elliptical) truncated cone about +z; smooth sides."""
    a = np.linspace(0, 2 * math.pi, n, endpoint=False)
    c, s = np.cos(a), np.sin(a)
    ring0 = np.column_stack([r0 * sx * c, r0 * sy * s, np.full(n, z0)])
    ring1 = np.column_stack([r1 * sx * c, r1 * sy * s + y_shift, np.full(n, z1)])
    slope = (r0 - r1) / max(z1 - z0, 1e-9)
    nr = np.column_stack([c / sx, s / sy, np.full(n, slope)])
    nr /= np.linalg.norm(nr, axis=1, keepdims=True)
    pts = np.vstack([ring0, ring1])
    nrm = np.vstack([nr, nr])
    i = np.arange(n)
    j = (i + 1) % n
    tris = np.vstack([np.column_stack([i, j, n + j]), np.column_stack([i, n + j, n + i])])
    m = Mesh(pts, nrm, tris)
    if not caps:
        return m
    parts = [m]
    for ring, _z, up in ((ring0, z0, -1.0), (ring1, z1, 1.0)):
        if (r0 if up < 0 else r1) <= 1e-9:
            continue
        centre = ring.mean(axis=0)
        p = np.vstack([centre, ring])
        nn = np.tile((0.0, 0.0, up), (n + 1, 1))
        t = np.column_stack([np.zeros(n, dtype=np.int64), 1 + i, 1 + j])
        parts.append(Mesh(p, nn, t if up > 0 else t[:, ::-1]))
    return merge(parts)


def cylinder(r: float, z0: float, z1: float, n: int = 12) -> Mesh:
    return frustum(r, r, z0, z1, n)


def ellipsoid(radii: Vec, centre: Vec = (0.0, 0.0, 0.0), nu: int = 12, nv: int = 7) -> Mesh:
    """A smooth ellipsoid (a sphere when the radii are equal)."""
    rx, ry, rz = radii
    u = np.linspace(0, 2 * math.pi, nu, endpoint=False)
    v = np.linspace(0, math.pi, nv + 1)
    uu, vv = np.meshgrid(u, v[1:-1])
    x, y, z = np.cos(uu) * np.sin(vv), np.sin(uu) * np.sin(vv), np.cos(vv)
    unit = np.column_stack([x.ravel(), y.ravel(), z.ravel()])
    unit = np.vstack([(0, 0, 1), unit, (0, 0, -1)])
    pts = unit * (rx, ry, rz) + np.asarray(centre, dtype=float)
    nrm = unit / (rx, ry, rz)
    nrm /= np.linalg.norm(nrm, axis=1, keepdims=True)
    rows = nv - 1
    tris = []
    for k in range(nu):
        k1 = (k + 1) % nu
        tris.append((0, 1 + k, 1 + k1))
        for r in range(rows - 1):
            a, b = 1 + r * nu + k, 1 + r * nu + k1
            c, d = 1 + (r + 1) * nu + k, 1 + (r + 1) * nu + k1
            tris += [(a, c, d), (a, d, b)]
        last = len(unit) - 1
        tris.append((1 + (rows - 1) * nu + k, last, 1 + (rows - 1) * nu + k1))
    return Mesh(pts, nrm, np.array(tris, dtype=np.int64))


def tube(path: Iterable[Vec], r: float, n: int = 6) -> Mesh:
    """A round tube along a polyline (ropes, bows, arrows, poles)."""
    P = np.asarray(list(path), dtype=float)
    m = len(P)
    if m < 2:
        return Mesh(np.zeros((0, 3)), np.zeros((0, 3)), np.zeros((0, 3), dtype=np.int64))
    tang = np.gradient(P, axis=0)
    tang /= np.linalg.norm(tang, axis=1, keepdims=True) + 1e-12
    ref = np.array((0.0, 0.0, 1.0)) if abs(tang[0][2]) < 0.9 else np.array((1.0, 0.0, 0.0))
    a = np.linspace(0, 2 * math.pi, n, endpoint=False)
    pts, nrm = [], []
    for k in range(m):
        side = np.cross(tang[k], ref)
        if np.linalg.norm(side) < 1e-9:
            side = np.cross(tang[k], (0.0, 1.0, 0.0))
        side /= np.linalg.norm(side)
        up = np.cross(side, tang[k])
        ring = np.outer(np.cos(a), side) + np.outer(np.sin(a), up)
        pts.append(P[k] + r * ring)
        nrm.append(ring)
        ref = up
    pts_a, nrm_a = np.vstack(pts), np.vstack(nrm)
    i = np.arange(n)
    j = (i + 1) % n
    tris = []
    for k in range(m - 1):
        b0, b1 = k * n, (k + 1) * n
        tris.append(np.column_stack([b0 + i, b1 + j, b0 + j]))
        tris.append(np.column_stack([b0 + i, b1 + i, b1 + j]))
    return Mesh(pts_a, nrm_a, np.vstack(tris))


@lru_cache(maxsize=16)
def _unit_rod(n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A unit open cylinder along +y (radius 1, length 1) with its normals and triangles."""
    a = np.linspace(0, 2 * math.pi, n, endpoint=False)
    ring = np.column_stack([np.cos(a), np.zeros(n), np.sin(a)])
    pts = np.vstack([ring, ring + (0.0, 1.0, 0.0)])
    i = np.arange(n)
    j = (i + 1) % n
    tris = np.vstack([np.column_stack([i, n + j, j]), np.column_stack([i, n + i, n + j])])
    return pts, np.vstack([ring, ring]), tris


def rod(p0: Vec, p1: Vec, r: float, n: int = 6) -> Mesh:
    """A straight round rod from p0 to p1 (one transform of a cached unit cylinder)."""
    p0 = np.asarray(p0, dtype=float)
    d = np.asarray(p1, dtype=float) - p0
    L = float(np.linalg.norm(d))
    pts, nrm, tris = _unit_rod(n)
    if L < 1e-12:
        return Mesh(np.zeros((0, 3)), np.zeros((0, 3)), np.zeros((0, 3), dtype=np.int64))
    R = frame_rot(d)
    return Mesh((pts * (r, L, r)) @ R.T + p0, nrm @ R.T, tris)


def merge(meshes: Sequence[Mesh]) -> Mesh:
    meshes = [m for m in meshes if len(m.tris)]
    if not meshes:
        return Mesh(np.zeros((0, 3)), np.zeros((0, 3)), np.zeros((0, 3), dtype=np.int64))
    offs = np.cumsum([0] + [len(m.points) for m in meshes[:-1]])
    return Mesh(np.vstack([m.points for m in meshes]), np.vstack([m.normals for m in meshes]),
                np.vstack([m.tris + o for m, o in zip(meshes, offs)]))


# ---------------------------------------------------------------------------
# colours and batches

def rgb(colour: str | Vec) -> tuple[int, int, int]:
    """'#8c1c13' or (r, g, b) floats 0–1 or ints 0–255 → (r, g, b) ints."""
    if isinstance(colour, str):
        c = colour.lstrip("#")
        return int(c[0:2], 16), int(c[2:4], 16), int(c[4:6], 16)
    vals = tuple(colour)
    if all(isinstance(v, float) and v <= 1.0 for v in vals):
        return tuple(int(round(v * 255)) for v in vals)  # type: ignore[return-value]
    return tuple(int(v) for v in vals)  # type: ignore[return-value]


def shade(colour: str | Vec, k: float) -> tuple[int, int, int]:
    """Darker (k < 1) or lighter towards white (k > 1) version of a colour."""
    r = np.array(rgb(colour), dtype=float)
    out = r * k if k <= 1 else r + (255 - r) * (k - 1)
    return tuple(int(v) for v in np.clip(out, 0, 255))  # type: ignore[return-value]


class Batch:
    """Triangles of many parts, each part named by its id and coloured per vertex."""

    def __init__(self) -> None:
        self._pts: list[np.ndarray] = []
        self._nrm: list[np.ndarray] = []
        self._tri: list[np.ndarray] = []
        self._rgb: list[np.ndarray] = []
        self._part: list[np.ndarray] = []
        self._base: list[int] = []
        self.names: list[str] = []
        self._index: dict[str, int] = {}
        self._n = 0

    def part_index(self, pid: str) -> int:
        k = self._index.get(pid)
        if k is None:
            k = self._index[pid] = len(self.names)
            self.names.append(pid)
        return k

    def add(self, pid: str, mesh: Mesh, colour: str | Vec | np.ndarray) -> None:
        if not len(mesh.tris):
            return
        n = len(mesh.points)
        col = np.asarray(colour, dtype=np.uint8) if isinstance(colour, np.ndarray) else \
            np.tile(np.array(rgb(colour), dtype=np.uint8), (n, 1))
        self.add_arrays(pid, mesh.points, mesh.normals, mesh.tris, col)

    def add_arrays(self, pid: str, pts: np.ndarray, nrm: np.ndarray, tris: np.ndarray, col: np.ndarray) -> None:
        if not len(tris):
            return
        self._pts.append(np.asarray(pts, dtype=np.float32))
        self._nrm.append(np.asarray(nrm, dtype=np.float32))
        self._tri.append(np.asarray(tris, dtype=np.int64) + self._n)
        self._rgb.append(np.asarray(col, dtype=np.uint8))
        self._part.append(np.full(len(tris), self.part_index(pid), dtype=np.int32))
        self._base.append(self._n)
        self._n += len(pts)

    def chunks(self):
        """(part id, points, normals, local triangles, colours) of every added piece."""
        for k in range(len(self._pts)):
            yield (self.names[int(self._part[k][0])], self._pts[k], self._nrm[k],
                   self._tri[k] - self._base[k], self._rgb[k])

    def extend(self, other: Batch) -> None:
        for pid, p, n, t, c in other.chunks():
            self.add_arrays(pid, p, n, t, c)

    def __len__(self) -> int:
        return sum(len(t) for t in self._tri)

    @property
    def n_points(self) -> int:
        return self._n

    def arrays(self) -> dict[str, np.ndarray]:
        if not self._tri:
            return {"points": np.zeros((0, 3), np.float32), "normals": np.zeros((0, 3), np.float32),
                    "tris": np.zeros((0, 3), np.int64), "rgb": np.zeros((0, 3), np.uint8),
                    "part": np.zeros(0, np.int32)}
        return {"points": np.vstack(self._pts), "normals": np.vstack(self._nrm), "tris": np.vstack(self._tri),
                "rgb": np.vstack(self._rgb), "part": np.concatenate(self._part)}

    def shadow(self, sun_dir: Vec, colour_of_z, skip: Iterable[str] = (), floor_of=None) -> Batch:
        """Planar shadows of every part on the surface below it (projected along ``sun_dir``).

        ``floor_of(pid, points)`` gives the z of the surface each part's shadow falls on;
        ``colour_of_z(z)`` the colour of the shadow there.  Cheap and exact for a flat
        court and a flat 堂, which is all the rite stands on.
        """
        d = np.asarray(sun_dir, dtype=float)
        d = d / np.linalg.norm(d)
        skip = set(skip)
        out = Batch()
        for pid, p, _, tri, _ in self.chunks():
            if pid in skip:
                continue
            p = p.astype(float)
            z0 = floor_of(pid, p) if floor_of else 0.0
            if p[:, 2].max() <= z0 + 0.02:
                continue
            tz = (p[:, 2] - z0) / -d[2]
            q = p + d * tz[:, None]
            q[:, 2] = z0
            # every projected triangle must face up, or two-sided lighting darkens the flipped ones
            a, b_, c = q[tri[:, 0]], q[tri[:, 1]], q[tri[:, 2]]
            area = (b_[:, 0] - a[:, 0]) * (c[:, 1] - a[:, 1]) - (b_[:, 1] - a[:, 1]) * (c[:, 0] - a[:, 0])
            keep = np.abs(area) > 1e-9
            tri = np.where((area < 0)[:, None], tri[:, ::-1], tri)[keep]
            nrm = np.tile((0.0, 0.0, 1.0), (len(q), 1))
            col = np.tile(np.array(rgb(colour_of_z(z0)), dtype=np.uint8), (len(q), 1))
            out.add_arrays(pid + ".shadow", q, nrm, tri, col)
        return out


# ---------------------------------------------------------------------------
# local frames, walls and boxes with a top of their own; heights of flat marks

# z above the ground of the flat marks, so they do not fight in the depth buffer (metres)
Z_SHADOW = 0.02


Z_SHADOW_DYN = 0.03


Z_MARK = 0.05


def yz_to_world(x0: float) -> tuple[np.ndarray, tuple[float, float, float]]:
    """Local (u, v, w) → world (x0 + w, u, v): outlines drawn in the y–z plane, extruded along x."""
    return np.array([[0.0, 0.0, 1.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]), (x0, 0.0, 0.0)


def xz_to_world(y0: float) -> tuple[np.ndarray, tuple[float, float, float]]:
    """Local (u, v, w) → world (u, y0 + w, v): outlines drawn facing north/south."""
    return np.array([[1.0, 0.0, 0.0], [0.0, 0.0, 1.0], [0.0, 1.0, 0.0]]), (0.0, y0, 0.0)


def wall_yz(x: float, thick: float, poly: list[tuple[float, float]]) -> Mesh:
    rot, off = yz_to_world(x)
    return slab(poly, thick, rot, off)


def box_top(size, centre, side: str, top: str) -> tuple[Mesh, np.ndarray]:
    """A box whose top face has its own colour (floors, treads, tables)."""
    m = box(size, centre)
    col = np.tile(np.array(rgb(side), dtype=np.uint8), (len(m.points), 1))
    col[16:20] = rgb(top)
    return m, col
