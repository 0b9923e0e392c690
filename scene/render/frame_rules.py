"""What a shot of the rite must do for a class, as numbers the director (:mod:`.shots`) and its audit
(:mod:`.shot_audit`) share: the part of the picture the page leaves free (the app's toolbar above, the
caption band below), the occluders a camera must see past (the other people, the 乏 and the 侯), and how
large a figure must be drawn to read a gesture, by the number of people a step names (issue 27)."""
from __future__ import annotations

import numpy as np

FIGURE_M = 1.6        # the height of a standing figure the framing keeps readable (feet to crown), m
SAFE_TOP = 0.84       # the app's toolbar and badges above this (of the half frame, from the centre)
SAFE_BOTTOM = -0.66   # the caption band below this
SAFE_SIDE = 0.95
BODY_R = 0.28         # a person, as an occluder (m): his shoulders and sleeves (figures.SHOULDER 0.22)
BODY_H = 1.7
#: the heights (of a standing figure) of a person's sight points: a line from his shins to his crown, as the
#: frame judges him — by the share of his figure a camera sees (tests/frametools.py: ≥ 50 % unoccluded)
SIGHT_LEVELS = (0.2, 0.38, 0.55, 0.74, 0.92)
SEEN_SHARE = 0.6      # of his sight points clear: a person seen (a margin over the frame's 50 %)
CELL_M = 0.12         # the solid grid of the hall and the things the player draws (m)


CROWN_M = 1.9         # the top of a figure when his own is not known (the 大夫's tall 冠: figures), m
HALF_W_M = 0.35       # half a figure's width with its sleeves, m: inside the frame's edge
EDGE = 0.985          # of the half frame: the frame's edge, a pixel or two in

ASPECT = 16 / 9
PAD_M = 2.2           # ground kept around each person (what he stands by and acts on), m


def min_height(n: int, spread_m: float = 0.0) -> float:
    """The smallest standing figure (fraction of the frame height) that reads a gesture when a step names
    ``n`` people: one or two 0.11 (80 px of a 720-px picture), up to four 0.09, up to eight 0.07, more 0.05 —
    or, for people (and what they act on: the 侯 while they shoot) standing
    ``spread_m`` apart, 0.6 of the tallest a 16:9 frame holding them all side by side can draw them (the 主人
    at the 阼階 and the 賓 at the 西階 are 9 m apart; an archer and the 侯 70 m)."""
    rule = 0.11 if n <= 2 else 0.09 if n <= 4 else 0.07 if n <= 8 else 0.05
    if spread_m <= 0.0:
        return rule
    return min(rule, 0.6 * FIGURE_M * ASPECT * 0.9 / (spread_m + 2 * PAD_M))


class Occluders:
    """What can stand between a camera and a person at one moment: the other people and the big things (the
    乏, the 侯, the 堂's front purlins)."""

    def __init__(self, rite) -> None:
        lay = rite.layout
        chi = lay.reading.chi_m
        self.boxes = []                                      # (x0, x1, y0, y1, z0, z1) in m
        for pid in ("range.fa", "target.hou"):
            if pid in lay and lay[pid].size_chi:
                x, y, z = lay.xyz_m(pid)
                sx, sy, sz = (s * chi for s in lay[pid].size_chi)
                z0 = z - sz / 2 if pid == "target.hou" else z     # the 侯 hangs: its place is its middle
                self.boxes.append((x - sx / 2, x + sx / 2, y - sy / 2 - 0.05, y + sy / 2 + 0.05, z0, z0 + sz))
        # the 堂's front purlins — the 庪 over its edge, the 楣 over the 楹 (meshes.building: 1.5 尺 square
        # timbers under their lines, the width of the 榮 and 0.5 尺 more): from the court a camera above the
        # eaves sees the people on the 堂 under them or not at all
        for pid in ("hall.eave_purlin", "hall.front_lintel"):
            if pid in lay and lay[pid].size_chi:
                x, y, z = lay.xyz_m(pid)
                half = (lay[pid].size_chi[0] + 1.0) / 2 * chi
                self.boxes.append((x - half, x + half, y - 0.75 * chi, y + 0.75 * chi, z - 1.55 * chi, z - 0.05 * chi))
        self.boxes = np.array(self.boxes, float).reshape(-1, 6)
        self.solid = solid_of(rite)

    def hits(self, cams: np.ndarray, pts: np.ndarray, bodies: np.ndarray, solid: bool = True) -> np.ndarray:
        """(C, P) True where the sight line from a camera (C, 3) to a point (P, 3) passes through a body
        (feet (Q, 3), as upright cylinders; the body standing at the point itself excepted), a box or (unless
        not ``solid``) the hall and the things (:class:`Solid`)."""
        out = np.zeros((len(cams), len(pts)), dtype=bool)
        if not len(pts):
            return out
        c = cams[:, None, :]                                  # (C, 1, 3)
        d = pts[None, :, :] - c                               # (C, P, 3)
        # only what is inside the box that holds every camera and point can be in the way
        ends = np.vstack([cams, pts])
        lo, hi = ends[:, :2].min(0) - BODY_R, ends[:, :2].max(0) + BODY_R
        if len(bodies):
            bodies = bodies[np.all((bodies[:, :2] >= lo) & (bodies[:, :2] <= hi), axis=1)]
        if len(bodies):
            # every body at once: (C, P, Q) planes, the nearest approach of each sight line to each axis
            dx, dy, dz = (d[..., k][..., None] for k in range(3))                 # (C, P, 1)
            cx, cy, cz = (c[..., k][..., None] for k in range(3))                 # (C, 1, 1)
            qx, qy, qz = (bodies[None, None, :, k] for k in range(3))              # (1, 1, Q)
            dd = np.maximum(dx * dx + dy * dy, 1e-9)
            s = ((qx - cx) * dx + (qy - cy) * dy) / dd
            near = np.hypot(cx + s * dx - qx, cy + s * dy - qy)
            z = cz + s * dz
            # the sight line's last 0.3 m (the person himself) does not count — not a share of it: from
            # 70 m off, 3 % is the man in front of him in a file
            end = 1.0 - 0.3 / np.maximum(np.sqrt(dd + dz * dz), 0.31)
            hit = (s > 0.02) & (s < end) & (near < BODY_R) & (z > qz) & (z < qz + BODY_H)
            # a man does not hide himself: the body standing at a sight point is not in its way
            own = np.hypot(pts[:, None, 0] - bodies[None, :, 0], pts[:, None, 1] - bodies[None, :, 1]) < 0.3
            out |= (hit & ~own[None]).any(axis=2)
        for x0, x1, y0, y1, z0, z1 in self.boxes:
            if x1 < lo[0] or x0 > hi[0] or y1 < lo[1] or y0 > hi[1]:
                continue
            out |= _through_box(c, d, (x0, x1, y0, y1, z0, z1))
        if self.solid is not None and solid:
            out |= self.solid.hits(cams, pts, ~out)
        return out

    def blocked(self, cams: np.ndarray, pts: np.ndarray, bodies: np.ndarray) -> np.ndarray:
        """(C,) True where a camera cannot see a person of the :func:`sight_points` ``pts``: fewer than
        :data:`SEEN_SHARE` of his points (a line from his shins to his crown) clear — what the frame measures
        (the share of his figure seen)."""
        k = len(SIGHT_LEVELS)
        n = len(pts) // k
        if not n:
            return np.zeros(len(cams), dtype=bool)
        h = self.hits(cams, pts, bodies, solid=False)
        out = ((~h).reshape(len(cams), k, n).sum(axis=1) < SEEN_SHARE * k).any(axis=1)
        live = np.flatnonzero(~out)
        if self.solid is not None and len(live):
            # the hall and the things only for the cameras the people and the boxes leave a view
            h = h[live] | self.solid.hits(cams[live], pts, ~h[live])
            out[live] = ((~h).reshape(len(live), k, n).sum(axis=1) < SEEN_SHARE * k).any(axis=1)
        return out


def _through_box(c: np.ndarray, d: np.ndarray, box) -> np.ndarray:
    """(C, P): the segment c → c + d passes through the axis-aligned box (slab test; its last 0.3 m — the
    person himself — does not count)."""
    lo, hi = np.full(d.shape[:2], 0.02), 1.0 - 0.3 / np.maximum(np.linalg.norm(d, axis=2), 0.31)
    for k, (a, b) in enumerate(((box[0], box[1]), (box[2], box[3]), (box[4], box[5]))):
        dk = d[..., k]
        ck = np.broadcast_to(c[..., k], dk.shape)
        with np.errstate(divide="ignore", invalid="ignore"):
            t0, t1 = (a - ck) / dk, (b - ck) / dk
        tmin, tmax = np.minimum(t0, t1), np.maximum(t0, t1)
        par = np.abs(dk) < 1e-12
        inside = (ck >= a) & (ck <= b)
        tmin = np.where(par, np.where(inside, -np.inf, np.inf), tmin)
        tmax = np.where(par, np.where(inside, np.inf, -np.inf), tmax)
        lo, hi = np.maximum(lo, tmin), np.minimum(hi, tmax)
    return lo < hi


def sight_points(feet: np.ndarray) -> np.ndarray:
    """The points of each person a camera must see: a line from his shins to his crown
    (:data:`SIGHT_LEVELS`), level by level ((K·N, 3): the N people at the first level, then the next)."""
    return np.vstack([feet + (0.0, 0.0, FIGURE_M * f) for f in SIGHT_LEVELS])


def sight_core(pts: np.ndarray) -> np.ndarray:
    """Of :func:`sight_points`, each person's middle and head (the building's coarse test: a 楹, a 序, the
    court's wall between the camera and any of them)."""
    k = len(SIGHT_LEVELS)
    n = len(pts) // k
    return np.vstack([pts[SIGHT_LEVELS.index(0.55) * n:(SIGHT_LEVELS.index(0.55) + 1) * n], pts[(k - 1) * n:]])


class Solid:
    """The hall and the things as the player draws them (the static set's main layer and the far roof slope:
    scene.render.meshes.static), as a grid of cells of :data:`CELL_M` m that its triangles' surfaces touch;
    a sight line is blocked when it passes through one (sampled at a little under a cell)."""

    def __init__(self, tris: np.ndarray, lo: np.ndarray, hi: np.ndarray, cell: float = CELL_M) -> None:
        self.lo, self.cell = np.asarray(lo, float), cell
        self.shape = tuple(int(x) for x in np.ceil((np.asarray(hi, float) - self.lo) / cell) + 1)
        grid = np.zeros(self.shape, dtype=bool)
        step = cell * 0.5
        for tri in tris:
            # from a corner of the shortest edge: a lattice along that edge and along the next one, each at
            # a little under half a cell (a long thin triangle is only a few rows)
            e = [np.linalg.norm(tri[(m + 2) % 3] - tri[(m + 1) % 3]) for m in range(3)]   # opposite corner m
            m = int(np.argmin(e))
            a, b, c = tri[(m + 1) % 3], tri[m], tri[(m + 2) % 3]                       # a-c the shortest edge
            nu, nw = int(np.linalg.norm(b - a) / step) + 1, int(np.linalg.norm(c - a) / step) + 1
            i, j = np.meshgrid(np.arange(nu + 1) / nu, np.arange(nw + 1) / nw, indexing="ij")
            keep = i + j <= 1.0 + 1e-9
            u, w = i[keep][:, None], j[keep][:, None]
            p = a + u * (b - a) + w * (c - a)
            k = np.floor((p - self.lo) / cell).astype(int)
            ok = np.all((k >= 0) & (k < self.shape), axis=1)
            grid[k[ok, 0], k[ok, 1], k[ok, 2]] = True
        self.grid = grid
        # a coarse grid (COARSE cells a side, grown by one): the sight lines that pass nowhere near a solid
        # cell are clear without the fine march
        f = self.COARSE
        pad = [(0, (-n) % f) for n in self.shape]
        g = np.pad(grid, pad).reshape(grid.shape[0] // f + (pad[0][1] > 0), f, -1, f, grid.shape[2] // f + (pad[2][1] > 0), f)
        g = g.any(axis=(1, 3, 5))
        grown = g.copy()
        for ax in range(3):
            for sh in (1, -1):
                grown |= np.roll(g, sh, axis=ax) if g.shape[ax] > 1 else g
        self.coarse = grown

    COARSE = 8

    def _march(self, a: np.ndarray, d: np.ndarray, s0: np.ndarray, s1: np.ndarray, cell: float, grid: np.ndarray,
               shape) -> np.ndarray:
        """(R, n) the samples a + s·d, s from ``s0`` to ``s1`` (every 0.8 cell at most), in a solid cell of
        ``grid``; and the (R, n) s of the samples."""
        length = np.linalg.norm(d, axis=1) * (s1 - s0)
        n = int(np.ceil(length.max() / (0.8 * cell))) + 1
        s = s0[:, None] + np.linspace(0.0, 1.0, n)[None, :] * (s1 - s0)[:, None]
        k = np.zeros((len(a), n), dtype=np.int64)
        inside = np.ones((len(a), n), dtype=bool)
        stride = (shape[1] * shape[2], shape[2], 1)
        for ax in range(3):
            q = np.floor((a[:, ax:ax + 1] - self.lo[ax]) / cell + s * (d[:, ax:ax + 1] / cell)).astype(np.int64)
            inside &= (q >= 0) & (q < shape[ax])
            k += q * stride[ax]
        k[~inside] = 0
        return grid.ravel()[k] & inside, s

    def hits(self, cams: np.ndarray, pts: np.ndarray, ask: np.ndarray | None = None) -> np.ndarray:
        """(C, P) True where the segment from a camera to a point passes through a solid cell (its last
        0.3 m — where the person stands — not counted); only the pairs ``ask`` (C, P) are tested: first
        against the coarse grid, then, where that finds a solid cell near, finely over that stretch only."""
        out = np.zeros((len(cams), len(pts)), dtype=bool)
        ci, pi = np.nonzero(ask) if ask is not None else np.nonzero(~out)
        if not len(ci):
            return out
        a, d = cams[ci], pts[pi] - cams[ci]
        length = np.linalg.norm(d, axis=1)
        span = np.maximum(length - 0.3, 0.0) / np.maximum(length, 1e-9)
        big = self.cell * self.COARSE
        near, s = self._march(a, d, np.zeros(len(a)), span, big, self.coarse, self.coarse.shape)
        r = np.flatnonzero(near.any(axis=1))
        if len(r):
            near, s = near[r], s[r]
            first, last = near.argmax(axis=1), near.shape[1] - 1 - near[:, ::-1].argmax(axis=1)
            rows = np.arange(len(r))
            step = big / np.maximum(length[r], 1e-9)
            lo = np.maximum(s[rows, first] - step, 0.0)
            hi = np.minimum(s[rows, last] + step, span[r])
            fine, _ = self._march(a[r], d[r], lo, np.maximum(hi, lo), self.cell, self.grid, self.shape)
            out[ci[r], pi[r]] = fine.any(axis=1)
        return out


_SOLIDS: dict = {}


def solid_of(rite) -> Solid | None:
    """The :class:`Solid` of a rite's reading (made once per reading — the reading itself, every value of it,
    is the key: ``zheng,fa_west_from=左个`` is named ``zheng`` too, and its 乏 stands elsewhere)."""
    reading = getattr(rite, "reading", None)
    if reading is None:
        return None
    key = reading
    if key not in _SOLIDS:
        from .meshes.static import build_static
        st = build_static(reading)
        tris = []
        for layer in (st.main, st.roof_north):
            arr = layer.arrays()
            t = arr["points"][arr["tris"]].astype(float) * st.scale            # (T, 3, 3) m
            tris.append(t[t[:, :, 2].max(axis=1) > 0.05])                      # the ground hides no one
        t = np.vstack(tris)
        lay = rite.layout
        chi = lay.reading.chi_m
        cw = lay.reading.court_width_chi / 2 * chi + 11.0
        gate_y = lay["hall.gate"].xyz_chi[1] * chi
        lo = np.array([-cw, gate_y - 41.0, 0.0])
        hi = np.array([cw, lay.hall.house_depth * chi + 2.0, lay.hall.z_dong * chi + 1.0])
        _SOLIDS[key] = Solid(t, lo, hi)
    return _SOLIDS[key]


#: what a class must see besides the people, by the act: the tally — the 中 and the piles the 釋獲者 lays
#: before him (數獲) — and the 豐 the cup is taken from and set back on (飲不勝者)
MARKS = {"count": ("court.zhong", "pos.shihuozhe@piles"), "tell_count": ("court.zhong",),
         "forfeit": ("tang.feng",)}


def marks_of(span) -> tuple[str, ...]:
    if span.do in MARKS:
        return MARKS[span.do]
    return ("tang.feng",) if "豐" in span.phrase else ()


def mark_points(lay, marks) -> np.ndarray:
    """The points of the marks (m): a little above the thing (the piles: 0.3 m east of the 釋獲者, on the
    ground, as the count lays them before him)."""
    out = []
    for m in marks:
        pid, _, what = m.partition("@")
        if pid not in lay:
            continue
        x, y, z = lay.xyz_m(pid)
        out.append((x + 0.3, y, z + 0.05) if what == "piles" else (x, y, z + 0.15))
    return np.array(out, dtype=float).reshape(-1, 3)
