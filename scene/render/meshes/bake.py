"""Light baked into the static set (issue 15): per-vertex sky occlusion and the sun's shadow, in numpy.

The static layers are subdivided (large faces split so that corners and the feet of walls have vertices
to darken), then every vertex is tested against *depth maps* of the static occluders — one per sky direction
(ambient occlusion as the share of the sky a vertex sees, weighted by its normal) and one along the sun (its
shadow, softened by a 3×3 filter).  The maps are rasterised here in numpy: the occluders are a few thousand
triangles, so a map costs a few tens of milliseconds.  The result is display colours (the stills' light rig
with the sun and the sky occluded) that the pack ships and the stills draw unlit, so both show the same.

The court's ground keeps the exact planar shadows of :mod:`.static` (a separate layer, sharp at any
distance), coloured here as the ground lit without the sun; the shadows that would fall on the 堂 floor are
left to the depth map (which also puts the floor under the roof in shade).  The bake is cached on disk
(keyed by the geometry and this module's parameters): it costs seconds cold, nothing warm.
"""
from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import math
import os
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from ... import settings
from ...atomic import replacing
from ..palette import AMBIENT, DIFFUSE, LIGHTS, SUN_DIR
from ..palette import COLOURS as C
from ..shapes import rgb

#: how finely faces are split (尺), by part (first matching prefix), else by layer: the player redraws the
#: static layers whenever the camera moves, so every split is paid for in frame time on a software GL.
#: Not split: the field outside the walls (nothing stands on it), the tiles and rafters (long thin rods).
EDGE_BY_PART = (("ground.", np.inf), ("hall.roof.tiles", np.inf), ("hall.roof.eave_tiles", np.inf),
                ("hall.rafters", np.inf), ("court.", 7.0), ("hall.court", 6.0))
EDGE_GROUND, EDGE_SHADOW, EDGE_ROOF, EDGE_BUILDING = 6.0, 10.0, 8.0, 2.5
#: sky directions sampled (above 6° elevation) and the depth maps' pixel (尺)
SKY_SAMPLES, SKY_PX, SUN_PX = 40, 0.6, 0.3
#: how dark full occlusion of the sky gets (bounce light never leaves a corner black); the near occlusion
#: (what stands within NEAR_R 尺, the roof left out: the corners of a room under it) and its weight
AO_FLOOR, NEAR_R, NEAR_WEIGHT, NEAR_SAMPLES = 0.6, 5.0, 0.6, 24
#: the pixel (尺) of the sun's map the moving things' shadows are tested against (cached on disk)
SUN_MAP_PX = 0.4
#: painted marks, lit evenly (no occlusion, no sun shadow)
PAINTED = ("range.houdao", "tang.wu")
#: occluders are cut to pieces no longer than this (尺) before they are rasterised
OCCLUDER_EDGE = 8.0
VERSION = 7          # bump when the bake's method changes (the disk cache key)


@dataclass
class BakedLayer:
    """A static layer after the bake: the arrays a Batch gives (``rgb`` are display colours) and its part
    names.  Quacks like :class:`~scene.render.shapes.Batch` for :func:`.vtk.to_vtk` and the pack."""

    data: dict
    names: list

    def arrays(self) -> dict:
        return self.data

    def __len__(self) -> int:
        return len(self.data["tris"])


# ---------------------------------------------------------------------------- subdivision

@lru_cache(maxsize=4096)
def _grid(n: int, m: int) -> tuple[np.ndarray, np.ndarray]:
    """(s, t) of an (m+1)×(n+1) grid over a triangle — s across its base, t from the base to the apex —
    and the grid's triangles without the degenerate ones at the apex (same winding as base0, base1, apex)."""
    s, t = np.meshgrid(np.linspace(0, 1, m + 1), np.linspace(0, 1, n + 1))
    st = np.column_stack([s.ravel(), t.ravel()])
    i, j = np.meshgrid(np.arange(n), np.arange(m), indexing="ij")
    a = (i * (m + 1) + j).ravel()
    b, c, d = a + 1, a + m + 1, a + m + 2
    tris = np.concatenate([np.column_stack([a, b, d]), np.column_stack([a, d, c])])
    last = tris // (m + 1) == n                      # corners on the apex row coincide
    keep = last.sum(axis=1) <= 1
    return st, tris[keep]


def _split(tp: np.ndarray, extra: list[np.ndarray], lim: np.ndarray):
    """Split triangles (m, 3, 3) whose longest edge exceeds ``lim`` (per triangle) on a grid from their
    shortest edge to the opposite corner: about 4·area/lim² pieces, so a sliver (a wall 390 尺 long) costs
    its length / lim, not its square.  ``extra`` are per-corner attributes (m, 3, c) interpolated alike.
    Two triangles sharing a long edge split it at the same points (it is a rail of both)."""
    e = np.linalg.norm(tp[:, [1, 2, 0]] - tp, axis=2)            # edge k: corner k → corner k+1
    k0 = e.argmin(axis=1)                                           # the base: the shortest edge
    order = np.array([[0, 1, 2], [1, 2, 0], [2, 0, 1]])[k0]
    rows = np.arange(len(tp))[:, None]
    tp = tp[rows, order]
    extra = [x[rows, order] for x in extra]
    base = np.linalg.norm(tp[:, 1] - tp[:, 0], axis=1)
    rail = np.maximum(np.linalg.norm(tp[:, 2] - tp[:, 0], axis=1), np.linalg.norm(tp[:, 2] - tp[:, 1], axis=1))
    n = np.clip(np.ceil(rail / lim), 1, 400).astype(int)
    m = np.clip(np.ceil(base / lim), 1, 400).astype(int)
    one = (n == 1) & (m == 1)
    out_p, out_x = [tp[one]], [[x[one]] for x in extra]
    nm = n * 1000 + m
    for key in np.unique(nm[~one]):
        sel = np.flatnonzero(nm == key)
        st, tri = _grid(int(key // 1000), int(key % 1000))
        w0 = (1 - st[:, 1]) * (1 - st[:, 0])
        w1 = (1 - st[:, 1]) * st[:, 0]
        w = np.column_stack([w0, w1, st[:, 1]])                     # barycentric weights of the grid points
        for arr, out in [(tp, out_p)] + list(zip(extra, out_x)):
            g = np.einsum("vk,mkc->mvc", w, arr[sel])               # (sel, points, c)
            out.append(g[:, tri].reshape(-1, 3, arr.shape[2]))
    return np.concatenate(out_p), [np.concatenate(o) for o in out_x]


def subdivide(a: dict, max_edge) -> dict:
    """Split every triangle whose longest edge exceeds its ``max_edge`` (per triangle, from its corners)
    on a grid (:func:`_split`); normals and colours are interpolated, equal corners welded again."""
    P, N, T, RGB, part = a["points"].astype(np.float64), a["normals"].astype(np.float64), a["tris"], a["rgb"], a["part"]
    if not len(T):
        return dict(a)
    tp = P[T]
    pid = np.broadcast_to(part[:, None, None], (len(T), 3, 1)).astype(np.float64)
    tp, (tn, tc, tpart) = _split(tp, [N[T], RGB[T].astype(np.float64), pid], max_edge(tp).astype(np.float64))
    n = tn.reshape(-1, 3)
    n /= np.linalg.norm(n, axis=1, keepdims=True) + 1e-12
    p, c = tp.reshape(-1, 3), np.clip(np.rint(tc.reshape(-1, 3)), 0, 255)
    key = np.column_stack([np.rint(p * 1e4), np.rint(n * 1e3), c, tpart.reshape(-1, 1)]).astype(np.int64)
    _, first, inv = np.unique(key, axis=0, return_index=True, return_inverse=True)
    return {"points": p[first].astype(np.float32), "normals": n[first].astype(np.float32),
            "tris": inv.reshape(-1, 3).astype(np.int64), "rgb": c[first].astype(np.uint8),
            "part": tpart[:, 0, 0].astype(np.int32)}


# ---------------------------------------------------------------------------- depth maps

def _frame(d: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    a = np.array([0.0, 0.0, 1.0]) if abs(d[2]) < 0.9 else np.array([1.0, 0.0, 0.0])
    u = np.cross(d, a)
    u /= np.linalg.norm(u)
    return u, np.cross(d, u)


def _raster(gx: np.ndarray, gy: np.ndarray, H: np.ndarray, w: int, h: int, e: float = -1e-3) -> np.ndarray:
    """Per pixel of a w×h map, the highest point of the triangles (m, 3) given in pixel units (gx, gy) with
    heights H.  By scanlines: each triangle's row spans are solved from its three edge functions, so only the
    pixels inside are visited (a pixel-per-bounding-box test visited ~9× more: the occluders are mostly thin
    slivers seen obliquely).  ``e``: barycentric tolerance, closing the seams between triangles."""
    grid = np.full(w * h, -np.inf)
    mn, mx = np.minimum.reduce, np.maximum.reduce          # over the 3 columns: faster than .min(1) on (m, 3)
    x0, x1 = np.ceil(mn(gx.T)).astype(np.int64), np.floor(mx(gx.T)).astype(np.int64)
    y0, y1 = np.ceil(mn(gy.T)).astype(np.int64), np.floor(mx(gy.T)).astype(np.int64)
    area = (gx[:, 1] - gx[:, 0]) * (gy[:, 2] - gy[:, 0]) - (gx[:, 2] - gx[:, 0]) * (gy[:, 1] - gy[:, 0])
    ok = (np.abs(area) > 1e-9) & (x1 >= x0) & (y1 >= y0)
    gx, gy, H, area, x0, x1, y0, y1 = gx[ok], gy[ok], H[ok], area[ok], x0[ok], x1[ok], y0[ok], y1[ok]
    # barycentric weights as planes in the pixel: w_i = a_i x + b_i y + c_i; the depth likewise
    ax, ay = gx[:, 0], gy[:, 0]
    a1, b1 = (gy[:, 2] - ay) / area, -(gx[:, 2] - ax) / area
    a2, b2 = -(gy[:, 1] - ay) / area, (gx[:, 1] - ax) / area
    c1, c2 = -(a1 * ax + b1 * ay), -(a2 * ax + b2 * ay)
    A = (-a1 - a2, a1, a2)
    B = (-b1 - b2, b1, b2)
    C = (1 - c1 - c2, c1, c2)
    dx = A[0] * H[:, 0] + A[1] * H[:, 1] + A[2] * H[:, 2]
    dy = B[0] * H[:, 0] + B[1] * H[:, 1] + B[2] * H[:, 2]
    dc = C[0] * H[:, 0] + C[1] * H[:, 1] + C[2] * H[:, 2]
    # one row per (triangle, pixel row): the span where all three weights are >= e
    rows = y1 - y0 + 1
    t = np.repeat(np.arange(len(rows)), rows)
    y = y0[t] + np.arange(len(t)) - np.repeat(np.cumsum(rows) - rows, rows)
    lo = np.full(len(t), -1e9)
    hi = np.full(len(t), 1e9)
    dead = np.zeros(len(t), bool)
    with np.errstate(divide="ignore", invalid="ignore"):
        for i in range(3):                                  # inside edge i: a·x + rest >= 0
            a, rest = A[i][t], B[i][t] * y + C[i][t] - e
            bound = -rest / a
            np.maximum(lo, np.where(a > 0, bound, -np.inf), out=lo)
            np.minimum(hi, np.where(a < 0, bound, np.inf), out=hi)
            dead |= (a == 0) & (rest < 0)
    xl = np.maximum(x0[t], np.ceil(lo).astype(np.int64))
    xr = np.minimum(x1[t], np.floor(hi).astype(np.int64))
    n = np.where(dead, 0, np.maximum(xr - xl + 1, 0))
    r = np.repeat(np.arange(len(n)), n)
    x = xl[r] + np.arange(len(r)) - np.repeat(np.cumsum(n) - n, n)
    y, t = y[r], t[r]
    np.maximum.at(grid, y * w + x, dx[t] * x + dy[t] * y + dc[t])
    return grid


class DepthMap:
    """The occluders seen from direction ``d`` (towards the light): per pixel the highest point along d."""

    def __init__(self, tri_pts: np.ndarray, d, px: float) -> None:
        d = np.asarray(d, float) / np.linalg.norm(d)
        self.d, self.px = d, px
        self.u, self.v = _frame(d)
        p = tri_pts.reshape(-1, 3)
        U, V, H = p @ self.u, p @ self.v, p @ d
        self.o = (U.min() - px, V.min() - px)
        gx, gy = (U - self.o[0]) / px, (V - self.o[1]) / px
        self.w, self.h = int(gx.max()) + 3, int(gy.max()) + 3
        grid = _raster(gx.reshape(-1, 3), gy.reshape(-1, 3), H.reshape(-1, 3), self.w, self.h)
        # thin things (rods, ropes) narrower than a pixel: their vertices count too
        vx, vy = np.rint(gx).astype(np.int64), np.rint(gy).astype(np.int64)
        np.maximum.at(grid, vy * self.w + vx, H)
        self.grid = grid.reshape(self.h, self.w)

    def lit(self, pts: np.ndarray, bias: float, filt: int = 0) -> np.ndarray:
        """Share of each point's (2·filt+1)² neighbourhood that nothing covers towards the light."""
        U, V, H = pts @ self.u, pts @ self.v, pts @ self.d
        gx, gy = np.rint((U - self.o[0]) / self.px).astype(np.int64), np.rint((V - self.o[1]) / self.px).astype(np.int64)
        tot = np.zeros(len(pts))
        n = 0
        for dx in range(-filt, filt + 1):
            for dy in range(-filt, filt + 1):
                x, y = gx + dx, gy + dy
                inside = (x >= 0) & (x < self.w) & (y >= 0) & (y < self.h)
                top = np.full(len(pts), -np.inf)
                top[inside] = self.grid[y[inside], x[inside]]
                tot += H + bias >= top
                n += 1
        return tot / n

    def near(self, pts: np.ndarray, bias: float, radius: float) -> np.ndarray:
        """How much is in the way towards the light within ``radius``: 1 − distance / radius (0 beyond)."""
        U, V, H = pts @ self.u, pts @ self.v, pts @ self.d
        x, y = np.rint((U - self.o[0]) / self.px).astype(np.int64), np.rint((V - self.o[1]) / self.px).astype(np.int64)
        inside = (x >= 0) & (x < self.w) & (y >= 0) & (y < self.h)
        top = np.full(len(pts), -np.inf)
        top[inside] = self.grid[y[inside], x[inside]]
        dist = top - H
        return np.where(dist > bias, np.clip(1 - dist / radius, 0, 1), 0.0)


def sky_dirs(n: int = SKY_SAMPLES) -> np.ndarray:
    """Directions over the sky (a spiral, even in solid angle, above 6°)."""
    k = np.arange(n) + 0.5
    z = math.sin(math.radians(6)) + (1 - math.sin(math.radians(6))) * k / n
    a = k * math.pi * (3 - math.sqrt(5))
    r = np.sqrt(1 - z ** 2)
    return np.column_stack([r * np.cos(a), r * np.sin(a), z])


def occluders(layers: dict) -> np.ndarray:
    """The triangles (m, 3, 3) that can cast: everything above the ground (the ground and the field are the
    floor of the world and cast on nothing)."""
    out = []
    for a in layers.values():
        tp = a["points"][a["tris"]].astype(np.float64)
        out.append(tp[tp[:, :, 2].max(axis=1) > 0.1])
    tp = np.vstack(out)
    # small pieces: a long thin face seen obliquely would otherwise fill a huge bounding box of pixels
    return _split(tp, [], np.full(len(tp), OCCLUDER_EDGE))[0]


# ---------------------------------------------------------------------------- the bake

def _rig():
    ls = [(np.asarray(d, float) / np.linalg.norm(d), np.asarray(c, float), k) for d, c, k in LIGHTS]
    return ls[0], ls[1:]


def shade(rgb_u8: np.ndarray, normals: np.ndarray, ao: np.ndarray, sun: np.ndarray) -> np.ndarray:
    """Display colours: the stills' rig (palette.LIGHTS) with the sky terms scaled by the occlusion and the
    sun's term by its visibility: colour × (AMBIENT·ao + DIFFUSE·(k c max(0, n·l)·sun + Σ fills·ao))."""
    (ds, cs, ks), fills = _rig()
    n = np.asarray(normals, np.float64)
    ao3 = ao[:, None]
    gain = AMBIENT * ao3 + DIFFUSE * ks * (np.maximum(0.0, n @ ds) * sun)[:, None] * cs[None, :]
    for d, c, k in fills:
        gain = gain + DIFFUSE * k * (np.maximum(0.0, n @ d)[:, None] * ao3) * c[None, :]
    return np.clip(np.rint(np.asarray(rgb_u8, np.float64) * gain), 0, 255).astype(np.uint8)


def _occlusion(pts: np.ndarray, nrm: np.ndarray, maps: list[DepthMap], near: list[DepthMap]) -> np.ndarray:
    """Per vertex: the sky it sees (Σ lit·max(0, n·d) / Σ max(0, n·d) over the sky, lifted to AO_FLOOR) times
    the near occlusion (the share of directions blocked within NEAR_R, fading with distance, the roof left
    out — a depth map's top surface is the far one, so under a roof only the roofless maps see the walls)."""
    def share(ms, test):
        num = np.zeros(len(pts))
        den = np.zeros(len(pts))
        for m in ms:
            w = np.maximum(0.0, nrm @ m.d)
            use = w > 0
            if use.any():
                num[use] += w[use] * test(m, pts[use])
            den += w
        return np.where(den > 0, num / np.maximum(den, 1e-9), 1.0)
    sky = share(maps, lambda m, p: m.lit(p, bias=1.5 * m.px))
    blocked = share(near, lambda m, p: m.near(p, bias=1.5 * m.px, radius=NEAR_R))
    return (AO_FLOOR + (1 - AO_FLOOR) * sky) * (1 - NEAR_WEIGHT * blocked)


def bake(batches: dict, chi_m: float) -> dict[str, BakedLayer]:
    """Subdivide and light the static layers (in 尺); ``shadows`` (the planar ground shadows) is coloured as
    the ground without the sun, and its shadows on the 堂 floor dropped (the depth map casts those)."""
    raw = {name: b.arrays() for name, b in batches.items()}
    occ = occluders({k: v for k, v in raw.items() if k != "shadows"})
    sky = [DepthMap(occ, d, SKY_PX) for d in sky_dirs()]
    roofs = [raw[k]["points"][:, 2].min() for k in raw if k.startswith("roof") and len(raw[k]["points"])]
    low = occ[occ[:, :, 2].min(axis=1) < min(roofs)] if roofs else occ       # the roof and its timbers left out
    near = [DepthMap(low, d, SKY_PX) for d in sky_dirs(NEAR_SAMPLES)]
    sun_to = -np.asarray(SUN_DIR, float) / np.linalg.norm(SUN_DIR)
    sun = DepthMap(occ, sun_to, SUN_PX)
    court = np.array(rgb(C["court"]), np.uint8)
    field = np.array(rgb(C["field"]), np.uint8)
    out: dict[str, BakedLayer] = {}
    for name, b in batches.items():
        a = raw[name]
        if name == "shadows":
            keep = a["points"][a["tris"]][:, :, 2].max(axis=1) < 0.5       # on the ground only
            a = dict(a, tris=a["tris"][keep], part=a["part"][keep])
        by_part = np.array([next((e for pre, e in EDGE_BY_PART if nm.startswith(pre)), np.nan)
                            for nm in b.names] + [np.nan])[a["part"]]
        def edge_of(tp):
            if name == "shadows":
                return np.full(len(tp), EDGE_SHADOW)
            low = tp[:, :, 2].max(axis=1) < 0.15
            e = np.where(low, EDGE_GROUND, EDGE_ROOF if name.startswith("roof") else EDGE_BUILDING)
            return np.where(np.isnan(by_part), e, by_part)
        s = subdivide(a, edge_of)
        p, n = s["points"].astype(np.float64), s["normals"].astype(np.float64)
        lift = p + n * 0.35                                   # off the surface: no face shadows itself
        ao = _occlusion(lift, n, sky, near)
        # the court and the marks painted on it (the 侯道's chalk line): their sun shadows are the planar layer
        ground = (p[:, 2] < 0.3) & (n[:, 2] > 0.9)
        if name == "shadows":
            # the ground under the planar shadow, lit without the sun (court inside the walls, field outside)
            col = np.tile(court, (len(p), 1))
            col[np.abs(p[:, 0]) > _court_half_width(batches)] = field
            lit = shade(col, n, ao, np.zeros(len(p)))
        else:
            sunlit = np.where(ground, 1.0, sun.lit(lift, bias=1.5 * SUN_PX, filt=1))
            # painted marks (the 侯道's chalk line, the 物) stay one colour end to end: they are measured on
            # the plan against its scale bar
            mark = np.array([nm.startswith(PAINTED) for nm in b.names] + [False])[s["part"]]
            flat = np.zeros(len(p), bool)
            flat[np.unique(s["tris"][mark])] = True
            ao, sunlit = np.where(flat, 1.0, ao), np.where(flat, 1.0, sunlit)
            lit = shade(s["rgb"], n, ao, sunlit)
        s["rgb"] = lit
        out[name] = BakedLayer(s, list(b.names))
    return out


def _court_half_width(batches) -> float:
    b = batches["main"]
    a = b.arrays()
    k = b.names.index("hall.court") if "hall.court" in b.names else -1
    if k < 0:
        return 1e9
    t = a["tris"][a["part"] == k]
    return float(np.abs(a["points"][t][:, :, 0]).max())


@contextlib.contextmanager
def _alone(f):
    """One process (or thread) at a time makes the cache file ``f``: another that wants it meanwhile waits and
    then reads what the first wrote, instead of baking the same geometry again (a first start bakes in one
    worker while another builds the pack).  A lock file beside it (flock: released even by a killed process)."""
    try:
        f.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(f.with_name(f".{f.name}.lock"), os.O_RDWR | os.O_CREAT, 0o644)
    except OSError:
        yield                                 # no cache folder to lock in: bake unguarded
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)                          # releases the lock


def sun_map(batches: dict) -> DepthMap:
    """The sun's depth map of the static occluders (尺): what the moving things' shadows are tested against.
    Cached on disk beside the bake (building it costs a second or two; the pack and every still need it)."""
    from ...rite.cache import cache_dir
    f = cache_dir() / f"sun-{_key(batches)}.npz"
    if settings.no_cache():
        return _sun_map(batches, f)
    with _alone(f):
        return _sun_map(batches, f)


def _sun_map(batches: dict, f) -> DepthMap:
    fields = ("grid", "u", "v", "d", "o", "px")
    if not settings.no_cache():
        try:
            with np.load(f, allow_pickle=False) as z:
                m = DepthMap.__new__(DepthMap)
                for k in fields:
                    setattr(m, k, z[k].astype(np.float64) if k == "grid" else z[k])
                m.o, m.px = tuple(m.o), float(m.px)
                m.h, m.w = m.grid.shape
                return m
        except (OSError, KeyError, ValueError):
            pass
    raw = {name: b.arrays() for name, b in batches.items() if name != "shadows"}
    m = DepthMap(occluders(raw), -np.asarray(SUN_DIR, float) / np.linalg.norm(SUN_DIR), SUN_MAP_PX)
    try:
        with replacing(f) as tmp:
            np.savez(tmp, grid=m.grid.astype(np.float32), u=m.u, v=m.v, d=m.d, o=np.array(m.o), px=np.array(m.px))
    except OSError:
        pass
    return m


def unsunned(colour) -> tuple[int, int, int]:
    """A floor's colour where the sun does not reach it (open sky): the colour of a shadow cast on it."""
    return tuple(int(v) for v in shade(np.array([rgb(colour)], np.uint8), np.array([[0.0, 0.0, 1.0]]), np.ones(1),
                                       np.zeros(1))[0])


# ---------------------------------------------------------------------------- cache

def _key(batches: dict) -> str:
    h = hashlib.sha256(repr((VERSION, SUN_MAP_PX, PAINTED, EDGE_BY_PART, EDGE_GROUND, EDGE_SHADOW, EDGE_ROOF, EDGE_BUILDING, NEAR_R, NEAR_WEIGHT, NEAR_SAMPLES, SKY_SAMPLES, SKY_PX, SUN_PX, AO_FLOOR,
                             AMBIENT, DIFFUSE, LIGHTS, SUN_DIR)).encode())
    for name, b in batches.items():
        h.update(name.encode())
        for v in b.arrays().values():
            h.update(np.ascontiguousarray(v).tobytes())
        h.update(json.dumps(b.names, ensure_ascii=False, allow_nan=False).encode())
    return h.hexdigest()[:24]


def baked(batches: dict, chi_m: float) -> dict[str, BakedLayer]:
    """:func:`bake`, from the disk cache when the geometry and the parameters are unchanged."""
    from ...rite.cache import cache_dir
    f = cache_dir() / f"bake-{_key(batches)}.npz"
    if settings.no_cache():
        return bake(batches, chi_m)
    with _alone(f):
        return _baked(batches, chi_m, f)


def _baked(batches: dict, chi_m: float, f) -> dict[str, BakedLayer]:
    try:
        with np.load(f, allow_pickle=False) as z:
            names = json.loads(str(z["names"]))
            return {name: BakedLayer({c: z[f"{name}.{c}"] for c in ("points", "normals", "tris", "rgb", "part")},
                                     names[name]) for name in names}
    except (OSError, KeyError, ValueError):
        pass
    out = bake(batches, chi_m)
    try:
        arrs = {f"{n}.{c}": v for n, layer in out.items() for c, v in layer.data.items()}
        names = json.dumps({n: layer.names for n, layer in out.items()}, ensure_ascii=False, allow_nan=False)
        with replacing(f) as tmp:
            np.savez(tmp, names=names, **arrs)
    except OSError:
        pass
    return out
