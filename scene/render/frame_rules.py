"""What a shot of the rite must do for a class, as numbers the director (:mod:`.shots`) and its audit
(:mod:`.shot_audit`) share: the part of the picture the page leaves free (the app's toolbar above, the
caption band below), the occluders a camera must see past (the other people, the 乏 and the 侯), and how
large a figure must be drawn to read a gesture, by the number of people a step names (issue 27)."""
from __future__ import annotations

import numpy as np

from .last_answers import LastAnswers

FIGURE_M = 1.6        # the height of a standing figure the framing keeps readable (feet to crown), m
SAFE_TOP = 0.84       # the app's toolbar and badges above this (of the half frame, from the centre)
SAFE_BOTTOM = -0.66   # the caption band below this
SAFE_SIDE = 0.95
BODY_R = 0.28         # a person, as an occluder (m): his shoulders and sleeves (figures.SHOULDER 0.22)
BODY_H = 1.7
#: the heights (of a standing figure) of a person's sight points: a line from his shins to his crown, as the
#: frame judges him — by the share of his figure a camera sees (tests/frametools.py: ≥ 50 % unoccluded)
SIGHT_LEVELS = (0.2, 0.38, 0.55, 0.74, 0.98)
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
        # each box as a plain tuple (numpy scalars are slow to compare one by one) and its footprint's low and
        # high corners ((2, 1, 1, 1): x and y side by side)
        self._boxes = [(tuple(b.tolist()), b[[0, 2]].reshape(2, 1, 1, 1), b[[1, 3]].reshape(2, 1, 1, 1)) for b in self.boxes]
        self._asked = LastAnswers(8)                         # :meth:`blocked`'s last questions → answers
        self.solid = solid_of(rite)

    def hits(self, cams: np.ndarray, pts: np.ndarray, bodies: np.ndarray, solid: bool = True) -> np.ndarray:
        """(C, P) True where the sight line from a camera (C, 3) to a point (P, 3) passes through a body
        (feet (Q, 3), as upright cylinders; the body standing at the point itself excepted), a box or (unless
        not ``solid``) the hall and the things (:class:`Solid`)."""
        out = np.zeros((len(cams), len(pts)), dtype=bool)
        if not len(pts):
            return out
        # only what is inside the box that holds every camera and point can be in the way
        ends = np.concatenate([cams[:, :2], pts[:, :2]])
        lo, hi = ends.min(0) - BODY_R, ends.max(0) + BODY_R
        if len(bodies):
            bodies = bodies[((bodies[:, :2] >= lo) & (bodies[:, :2] <= hi)).all(axis=1)]
        (lo_x, lo_y), (hi_x, hi_y) = lo.tolist(), hi.tolist()
        boxes = [b for b in self._boxes if not (b[0][1] < lo_x or b[0][0] > hi_x or b[0][3] < lo_y or b[0][2] > hi_y)]
        if len(bodies) or boxes:
            lines = _Lines(cams, pts)
            found = [_through_box(lines, b) for b in boxes]
            if len(bodies):
                found.append(_through_bodies(lines, bodies))
            for hit in found:
                if hit is not None:
                    out |= hit.reshape(len(cams), len(pts))
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
        # the same question again soon is common (a held shot judged for a window and then for its pieces;
        # two steps of the same people at the same moment): the last few answers are kept
        key = (cams.tobytes(), pts.tobytes(), bodies.tobytes())
        kept = self._asked.get(key)
        if kept is not None:
            return kept
        h = self.hits(cams, pts, bodies, solid=False)
        out = _unseen(h, len(cams), k, n)
        live = (~out).nonzero()[0]
        if self.solid is not None and len(live):
            # the hall and the things only for the cameras the people and the boxes leave a view
            h = h[live] | self.solid.hits(cams[live], pts, ~h[live])
            out[live] = _unseen(h, len(live), k, n)
        return self._asked.put(key, out)


def _unseen(h: np.ndarray, c: int, k: int, n: int) -> np.ndarray:
    """(C,) of the hits (C, K·N) of K levels of N people: someone with fewer than :data:`SEEN_SHARE` of his
    points clear, or his head's (the top level) hidden — issue 42: a man on the 堂 seen from the court at the
    height of its front purlins had 79 % of him in sight and his head behind the 庪."""
    clear = (~h).reshape(c, k, n)
    return ((clear.sum(axis=1) < SEEN_SHARE * k) | ~clear[:, -1]).any(axis=1)


def within(x: np.ndarray, y: np.ndarray, r: float) -> np.ndarray:
    """``np.hypot(x, y) < r`` (x and y of one shape), without hypot's cost (~16 ns a value, the most of a
    sight test's time): by the squares, which can round the other way only within a hair of r (1e-12 of r²,
    a thousand times their rounding) — those few by hypot itself."""
    if x.size <= 512:
        return np.hypot(x, y) < r                 # (a few: hypot costs less than the squares' steps)
    sq = x * x
    sq += y * y
    r2 = r * r
    out = sq < r2 * (1.0 - 1e-12)
    near = (sq <= r2 * (1.0 + 1e-12)) ^ out
    if near.any():
        out[near] = np.hypot(x[near], y[near]) < r
    return out


class _Lines:
    """Sight lines from cameras (C, 3) to points (P, 3), on (C, L, M) planes: the points as L levels of the
    same M columns when they are (:func:`sight_points`: a man's shins to his crown share x and y), so that
    what depends on x and y alone (the nearest approach to a body, a box's side walls) is worked out once a
    column.  Each value is the one the (C, P, 3) stack of ``pts - cams`` gives, by the same operations."""

    def __init__(self, cams: np.ndarray, pts: np.ndarray) -> None:
        k = len(SIGHT_LEVELS)
        n = len(pts) // k
        xy = pts[:, :2]
        levels = k if n and len(pts) == k * n and bool((xy.reshape(k, n, 2) == xy[:n]).all()) else 1
        m = len(pts) // levels
        self.xy = xy[:m]                                                   # (M, 2)
        self.c = cams.T[:, :, None, None]                                  # (3, C, 1, 1)
        d = pts.T.reshape(3, 1, levels, m) - self.c                        # (3, C, L, M)
        self.d2, self.dz = d[:2, :, :1], d[2]                              # (2, C, 1, M), (C, L, M)
        self.h2 = self.d2[0] * self.d2[0] + self.d2[1] * self.d2[1]        # (C, 1, M)
        # a line parallel to an axis plane (a slab test's special case) is rare: looked for once
        self.par = bool(np.abs(d).min() < 1e-12)
        self._end: np.ndarray | None = None

    def end(self) -> np.ndarray:
        """(C, L, M): the part of each line before its last 0.3 m (the person himself, who does not count) —
        not a share of it: from 70 m off, 3 % is the man in front of him in a file."""
        if self._end is None:
            self._end = 1.0 - 0.3 / np.maximum(np.sqrt(self.h2 + self.dz * self.dz), 0.31)
        return self._end


def _through_bodies(lines: _Lines, bodies: np.ndarray) -> np.ndarray | None:
    """(C, L, M): the sight lines that pass through a body (feet (Q, 3), as upright cylinders; the body
    standing at the point itself excepted) — every body at once, on (C, ·, M, Q) planes: the nearest approach
    of each sight line to each body's axis.  First in x and y alone, a column at a time; then the heights,
    for the bodies some sight line passes in x and y only.  None: none."""
    qx, qy, qz = bodies.T                                                  # (Q,)
    cx, cy, cz = (c[..., None] for c in lines.c)                           # (C, 1, 1, 1)
    d0, d1 = lines.d2[0][..., None], lines.d2[1][..., None]                # (C, 1, M, 1)
    dd = np.maximum(lines.h2, 1e-9)[..., None]
    s = (qx - cx) * d0
    s += (qy - cy) * d1
    s /= dd
    flat = within(s * d0 + cx - qx, s * d1 + cy - qy, BODY_R)
    flat &= s > 0.02
    # a man does not hide himself: the body standing at a sight point is not in its way
    flat &= ~within(lines.xy[:, 0, None] - qx, lines.xy[:, 1, None] - qy, 0.3)
    q = flat.reshape(-1, len(qx)).any(axis=0).nonzero()[0]
    if not len(q):
        return None
    # (the end of the line as :meth:`_Lines.end`, of x² + y² not below 1e-9: the same where it is not)
    dz = lines.dz
    end = lines.end() if lines.h2.min() >= 1e-9 else 1.0 - 0.3 / np.maximum(np.sqrt(dd[..., 0] + dz * dz), 0.31)
    if dz.size * len(q) > _DENSE:
        # many lines and bodies, few meetings: the heights only where a line passes a body in x and y
        c, m, k = flat[:, 0].nonzero()
        sk = s[c, 0, m, k][:, None]                                        # (K, 1)
        z = sk * dz[c, :, m]                                               # (K, L)
        z += cz[c, 0, 0]
        hit = sk < end[c, :, m]
        hit &= z > qz[k, None]
        hit &= z < (qz + BODY_H)[k, None]
        out = np.zeros(dz.shape, dtype=bool)
        r, lv = hit.nonzero()
        out[c[r], lv, m[r]] = True
        return out
    if len(q) < len(qx):
        s, flat, qz = s[..., q], flat[..., q], qz[q]
    hit = s < end[..., None]
    hit &= flat
    z = s * dz[..., None]
    z += cz
    hit &= z > qz
    hit &= z < qz + BODY_H
    return hit.any(axis=3)


_DENSE = 2000         # the (C, L, M, Q) planes of the heights beyond which they are looked at only where needed


def _through_box(lines: _Lines, box: tuple) -> np.ndarray | None:
    """(C, L, M): the sight lines that pass through the axis-aligned box ((x0, x1, y0, y1, z0, z1), its
    footprint's corners: :class:`Occluders`) (slab test; their last 0.3 m — the person himself — does not
    count); None: none.  Across x and y first (side by side), a column at a time: a line that misses the
    box's footprint misses the box."""
    (*_, z0, z1), low, high = box
    c = lines.c
    with np.errstate(divide="ignore", invalid="ignore"):
        tmin, tmax = _slab(low, high, c[:2], lines.d2, lines.par)        # (2, C, 1, M)
        lo, hi = np.maximum(np.maximum(tmin[0], 0.02), tmin[1]), np.minimum(tmax[0], tmax[1])
        if not (lo < hi).any():
            return None                                                    # (lo only grows, hi only shrinks)
        tmin, tmax = _slab(z0, z1, c[2], lines.dz, lines.par)             # (C, L, M)
    return np.maximum(lo, tmin) < np.minimum(np.minimum(hi, tmax), lines.end())


def _slab(a, b, c: np.ndarray, d: np.ndarray, par: bool) -> tuple[np.ndarray, np.ndarray]:
    """Where the lines c + s·d enter and leave the slab from a to b: (s in, s out)."""
    t0, t1 = (a - c) / d, (b - c) / d
    tmin, tmax = np.minimum(t0, t1), np.maximum(t0, t1)
    if par:
        flat = np.abs(d) < 1e-12
        # parallel to the slab: inside it all along, or never
        inside = (c >= a) & (c <= b)
        tmin = np.where(flat, np.where(inside, -np.inf, np.inf), tmin)
        tmax = np.where(flat, np.where(inside, np.inf, -np.inf), tmax)
    return tmin, tmax


def sight_points(feet: np.ndarray) -> np.ndarray:
    """The points of each person a camera must see: a line from his shins to his crown
    (:data:`SIGHT_LEVELS`), level by level ((K·N, 3): the N people at the first level, then the next)."""
    return (feet[None] + _LIFTS[:, None]).reshape(-1, 3)


_LIFTS = np.array([(0.0, 0.0, FIGURE_M * f) for f in SIGHT_LEVELS])     # (K, 3): each level above the feet


def sight_core(pts: np.ndarray) -> np.ndarray:
    """Of :func:`sight_points`, each person's middle and head (the building's coarse test: a 楹, a 序, the
    court's wall between the camera and any of them)."""
    k = len(SIGHT_LEVELS)
    n = len(pts) // k
    return np.concatenate([pts[SIGHT_LEVELS.index(0.55) * n:(SIGHT_LEVELS.index(0.55) + 1) * n], pts[(k - 1) * n:]])


class Solid:
    """The hall and the things as the player draws them (the static set's main layer and the far roof slope:
    scene.render.meshes.static), as a grid of cells of :data:`CELL_M` m that its triangles' surfaces touch;
    a sight line is blocked when it passes through one (sampled at a little under a cell)."""

    def __init__(self, tris: np.ndarray, lo: np.ndarray, hi: np.ndarray, cell: float = CELL_M) -> None:
        self.lo, self.cell = np.asarray(lo, float), cell
        self.shape = tuple(int(x) for x in np.ceil((np.asarray(hi, float) - self.lo) / cell) + 1)
        grid = np.zeros(self.shape, dtype=bool)
        step = cell * 0.5
        lattices: dict[tuple[int, int], list] = {}
        for tri in tris:
            # from a corner of the shortest edge: a lattice along that edge and along the next one, each at
            # a little under half a cell (a long thin triangle is only a few rows)
            e = [np.linalg.norm(tri[(m + 2) % 3] - tri[(m + 1) % 3]) for m in range(3)]   # opposite corner m
            m = int(np.argmin(e))
            a, b, c = tri[(m + 1) % 3], tri[m], tri[(m + 2) % 3]                       # a-c the shortest edge
            nu, nw = int(np.linalg.norm(b - a) / step) + 1, int(np.linalg.norm(c - a) / step) + 1
            lattices.setdefault((nu, nw), []).append((a, b, c))
        # the triangles of one lattice at once (each point made as for its triangle alone)
        for (nu, nw), abc in lattices.items():
            i, j = np.meshgrid(np.arange(nu + 1) / nu, np.arange(nw + 1) / nw, indexing="ij")
            keep = i + j <= 1.0 + 1e-9
            u, w = i[keep][None, :, None], j[keep][None, :, None]
            a, b, c = (np.array(x)[:, None] for x in zip(*abc))                        # (T, 1, 3)
            p = a + u * (b - a) + w * (c - a)
            k = np.floor((p - self.lo) / cell).astype(int).reshape(-1, 3)
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
        # both grids raveled, with one empty cell after them: where a march's samples outside the grid look
        self._flat = np.append(grid.ravel(), False)
        self._flat_coarse = np.append(grown.ravel(), False)

    COARSE = 8

    def _march(self, at: np.ndarray, step: np.ndarray, length: np.ndarray, s0: np.ndarray | None, s1: np.ndarray,
               cell: float, flat: np.ndarray, shape, inside: bool) -> tuple[np.ndarray, np.ndarray]:
        """(R, n) the samples at + s·step (in cells of ``cell``: the lines' starts and their whole lengths, (R, 3)),
        s from ``s0`` (None: 0) to ``s1`` (every 0.8 cell at most), in a solid cell of the grid ``flat``
        (raveled, one empty cell after it: where a sample outside the grid looks — none can be when
        ``inside``; ``length`` the lines' lengths in m, (R,)); and the (R, n) s of the samples."""
        w = s1 if s0 is None else s1 - s0
        n = int(np.ceil((length * w).max() / (0.8 * cell))) + 1
        s = _unit(n)[None, :] * w[:, None]                                 # (from 0: the same as 0 + s, s ≥ 0)
        if s0 is not None:
            s += s0[:, None]
        out = None if inside else np.zeros(s.shape, dtype=bool)
        k = None
        for ax, stride in enumerate((shape[1] * shape[2], shape[2], 1)):
            q = s * step[:, ax:ax + 1]
            q += at[:, ax:ax + 1]
            q = np.floor(q, out=q)
            if out is not None:
                out |= (q < 0) | (q >= shape[ax])
            if stride != 1:
                q *= stride                                                # (whole numbers: exact in floats)
            k = q if k is None else np.add(k, q, out=k)
        k = k.astype(np.int64)
        if out is not None:
            k[out] = len(flat) - 1
        return flat[k], s

    def hits(self, cams: np.ndarray, pts: np.ndarray, ask: np.ndarray | None = None) -> np.ndarray:
        """(C, P) True where the segment from a camera to a point passes through a solid cell (its last
        0.3 m — where the person stands — not counted); only the pairs ``ask`` (C, P) are tested: first
        against the coarse grid, then, where that finds a solid cell near, finely over that stretch only."""
        out = np.zeros((len(cams), len(pts)), dtype=bool)
        ci, pi = ask.nonzero() if ask is not None else (~out).nonzero()
        if not len(ci):
            return out
        a = cams[ci]
        d = pts[pi] - a
        length = np.linalg.norm(d, axis=1)
        span = np.maximum(length - 0.3, 0.0) / np.maximum(length, 1e-9)
        big = self.cell * self.COARSE
        # every sample lies between a camera and a point: all of them well inside the grid (by far more than
        # a sample's rounding), no sample is outside it
        ends = np.concatenate([cams, pts])
        lo, hi = ends.min(0) - self.lo, ends.max(0) - self.lo
        inside = bool((lo >= 1e-6 * big).all() and (hi < np.multiply(self.shape, self.cell) - 1e-6 * big).all())
        near, s = self._march((a - self.lo) / big, d / big, length, None, span, big, self._flat_coarse,
                              self.coarse.shape, inside)
        r = near.any(axis=1).nonzero()[0]
        if len(r):
            near, s, a, d, length = near[r], s[r], a[r], d[r], length[r]
            first, last = near.argmax(axis=1), near.shape[1] - 1 - near[:, ::-1].argmax(axis=1)
            rows = np.arange(len(r))
            step = big / np.maximum(length, 1e-9)
            lo = np.maximum(s[rows, first] - step, 0.0)
            hi = np.minimum(s[rows, last] + step, span[r])
            fine, _ = self._march((a - self.lo) / self.cell, d / self.cell, length, lo, np.maximum(hi, lo), self.cell,
                                  self._flat, self.shape, inside)
            out[ci[r], pi[r]] = fine.any(axis=1)
        return out


_UNITS: dict[int, np.ndarray] = {}


def _unit(n: int) -> np.ndarray:
    """``np.linspace(0, 1, n)``, made once per n (a march asks for one of a few hundred lengths, thousands of
    times)."""
    u = _UNITS.get(n)
    if u is None:
        u = _UNITS[n] = np.linspace(0.0, 1.0, n)
        u.flags.writeable = False
    return u


_SOLIDS: dict = {}


class Roofed:
    """The hall and the things as the player draws them from a camera: the main layer and the roof slope its
    cutaway shows (assets/web/player-camera.js ``_applyRoof``: the north slope for a camera south of the
    ridge line, the south slope for one north of it — under the eaves of the 堂, behind the 楹), each a
    :class:`Solid`; the ridge line as the player places it (player-build.js ``_ridgeY``: between the south
    slope's north edge and the north slope's south edge)."""

    def __init__(self, south_cams: Solid, north_cams: Solid, ridge_y: float) -> None:
        self.south_cams, self.north_cams, self.ridge_y = south_cams, north_cams, ridge_y

    def of(self, cams: np.ndarray) -> tuple[np.ndarray, Solid, np.ndarray, Solid]:
        """The cameras south of the ridge line (a mask) and their solid; those north and theirs."""
        north = np.asarray(cams, float)[:, 1] >= self.ridge_y
        return ~north, self.south_cams, north, self.north_cams

    def hits(self, cams: np.ndarray, pts: np.ndarray, ask: np.ndarray | None = None) -> np.ndarray:
        """:meth:`Solid.hits`, each camera against what the player draws from where it stands."""
        out = np.zeros((len(cams), len(pts)), dtype=bool)
        south, s_sol, north, n_sol = self.of(cams)
        for mask, sol in ((south, s_sol), (north, n_sol)):
            if mask.any():
                out[mask] = sol.hits(cams[mask], pts, None if ask is None else ask[mask])
        return out


def solid_of(rite) -> Roofed | None:
    """The :class:`Roofed` solid of a rite's reading in its chapter's hall (made once per reading and chapter —
    the reading itself, every value of it, is the key: ``zheng,fa_west_from=左个`` is named ``zheng`` too, and its
    乏 stands elsewhere; and 鄉飲酒禮's 庠 is another hall under the same reading: keyed by the reading alone,
    whichever chapter came first gave the other its walls and bounds)."""
    reading = getattr(rite, "reading", None)
    if reading is None:
        return None
    chapter = getattr(getattr(rite, "choreography", None), "chapter", None)
    key = (reading, getattr(chapter, "id", None))
    if key not in _SOLIDS:
        from .meshes.static import build_static, static_of
        st = static_of(rite) if chapter is not None else build_static(reading)

        def tris(layer) -> np.ndarray:
            arr = layer.arrays()
            t = arr["points"][arr["tris"]].astype(float) * st.scale            # (T, 3, 3) m
            return t[t[:, :, 2].max(axis=1) > 0.05]                            # the ground hides no one
        main, south, north = tris(st.main), tris(st.roof_south), tris(st.roof_north)
        lay = rite.layout
        chi = lay.reading.chi_m
        cw = lay.reading.court_width_chi / 2 * chi + 11.0
        gate_y = lay["hall.gate"].xyz_chi[1] * chi
        lo = np.array([-cw, gate_y - 41.0, 0.0])
        hi = np.array([cw, lay.hall.house_depth * chi + 2.0, lay.hall.z_dong * chi + 1.0])
        ys = [float(x[:, :, 1].max()) if len(x) else None for x in (south,)] + \
            [float(x[:, :, 1].min()) if len(x) else None for x in (north,)]
        known = [y for y in ys if y is not None]
        ridge = sum(known) / len(known) if known else 0.0
        _SOLIDS[key] = Roofed(Solid(np.vstack([main, north]), lo, hi), Solid(np.vstack([main, south]), lo, hi), ridge)
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
