"""Routes that respect the building: stairs, the platform, walls, columns, the 侯.

Two walking surfaces: the ground of the 庭 (z = 0) and the 堂 floor (z = 堂高).
They meet only at the stairs (西階, 阼階), whose treads are walked one 等 at a
time.  On each surface a small visibility graph round the obstacles (inflated
rectangles) gives the shortest way; on the 堂 the 楹 are passed on the side the
reading gives (記 / 經 §20: 序 鉤楹內, north of it; 庠 由楹外, south of it).
Everything is in 周尺 and pure numpy.
"""
from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from ..geometry.layout import Layout

Point = tuple[float, float, float]

#: the ways searched in this process (:meth:`Site._plan2d`), by everything the search reads
_PLANS: dict[str, list[tuple[float, float]]] = {}
_PLANS_MAX = 40_000


@dataclass(frozen=True)
class Box:
    """An axis-aligned obstacle in plan: x0 < x1, y0 < y1."""

    name: str
    x0: float
    y0: float
    x1: float
    y1: float

    def grow(self, m: float) -> Box:
        return Box(self.name, self.x0 - m, self.y0 - m, self.x1 + m, self.y1 + m)

    def contains(self, x: float, y: float) -> bool:
        return self.x0 < x < self.x1 and self.y0 < y < self.y1

    def corners(self) -> list[tuple[float, float]]:
        return [(self.x0, self.y0), (self.x1, self.y0), (self.x1, self.y1), (self.x0, self.y1)]

    def hits_segment(self, a: tuple[float, float], b: tuple[float, float]) -> bool:
        """Liang–Barsky clip: does the open segment a–b pass through the box's interior?"""
        (ax, ay), (bx, by) = a, b
        dx, dy = bx - ax, by - ay
        t0, t1 = 0.0, 1.0
        for p, q in ((-dx, ax - self.x0), (dx, self.x1 - ax), (-dy, ay - self.y0), (dy, self.y1 - ay)):
            if abs(p) < 1e-12:
                if q <= 0:
                    return False
                continue
            r = q / p
            if p < 0:
                t0 = max(t0, r)
            else:
                t1 = min(t1, r)
            if t0 >= t1 - 1e-9:
                return False
        return t1 - t0 > 1e-6


#: furniture standing on the court floor for the whole rite: half sizes in 尺 (E–W, N–S) — the 洗, its
#: 篚 (laid N–S, 南肆; about 2.4 × 1.2 尺, not stated) and the hung 磬
FURNITURE_HALF = {"court.xi": (1.5, 1.5), "court.xi_basket": (0.6, 1.2), "court.qing": (2.5, 0.5)}


class Site:
    """The walkable geometry of one layout."""

    #: how far people keep from obstacles when walking round them (尺)
    CLEAR = 1.2
    #: how far a walker going right up to a thing keeps from it on the way (his body's front, 尺)
    REACH = 0.45

    def __init__(self, layout: Layout) -> None:
        self.layout = layout
        # a person's own room: 0.45 m whatever the 周尺 (0.4 m is the closest the audit allows);
        # walkers keep CLEAR more unless they are going right up to him
        self.person_half = 0.45 / layout.reading.chi_m
        h = layout.hall
        self.h = h
        self.platform = Box("堂", -h.platform_x, 0.0, h.platform_x, h.house_depth)
        self.stairs = {
            side: Box("西階" if side == "west" else "阼階", sx * h.stairs_x - h.stair_width / 2, -h.stair_run,
                      sx * h.stairs_x + h.stair_width / 2, 0.0)
            for side, sx in (("west", -1), ("east", 1))
        }
        self.range_obstacles = self._range_boxes(layout)      # the 侯 and the 乏 (none in a hall without a range)
        furniture = []
        for pid, (hx, hy) in FURNITURE_HALF.items():
            x, y, _ = layout[pid].xyz_chi
            furniture.append(Box(layout[pid].name, x - hx, y - hy, x + hx, y + hy))
        self.ground_obstacles = [self.platform, self.stairs["west"], self.stairs["east"], *self.range_obstacles,
                                 *furniture]
        # on the 堂: the two 楹 and the two 序 walls (and the 室/房 of a 庠)
        t_obs = []
        for side in ("west", "east"):
            x, y, _ = layout[f"hall.{side}_pillar"].xyz_chi
            t_obs.append(Box(f"{side} 楹", x - 0.6, y - 0.6, x + 0.6, y + 0.6))
            wx = layout[f"hall.{side}_xu"].xyz_chi[0]
            t_obs.append(Box(f"{side} 序", wx - 0.5, 1.0, wx + 0.5, h.house_depth))
        if h.has_shi:
            t_obs.append(Box("室房", -h.xu_x, h.tang_depth, h.xu_x, h.house_depth))   # the wall: 棟 (ch.5), 後楣 (ch.4)
        self.tang_obstacles = t_obs
        court = layout["hall.court"].size_chi
        assert court is not None                # (the 庭 has its measured size)
        self.court_half_width = court[0] / 2
        self.gate_y = layout["hall.gate"].xyz_chi[1]
        # the walkable ground: inside the walls of the 庭, and out through the 門 to 門外
        self.court = Box("庭", -self.court_half_width + 1, self.gate_y - 30, self.court_half_width - 1, h.house_depth + 20)

    @staticmethod
    def _range_boxes(layout: Layout) -> tuple[Box, ...]:
        """The 侯 between its posts and the 乏 screen, standing on the court floor: a hall with a range only
        (鄉射禮's; the 庠 of 鄉飲酒禮 has none, and nothing stands in its court but the 洗, 篚 and 磬)."""
        if "target.hou" not in layout:
            return ()
        hou = layout["target.hou"]
        post = layout["target.west_post"].xyz_chi[0]
        hy = hou.xyz_chi[1]
        fa = layout["range.fa"]
        assert fa.size_chi is not None          # (the 乏 has its measured size)
        fx, fy = fa.xyz_chi[:2]
        return (Box("侯", post - 0.5, hy - 0.6, -post + 0.5, hy + 0.6),
                Box("乏", fx - fa.size_chi[0] / 2, fy - 0.3, fx + fa.size_chi[0] / 2, fy + 0.3))

    # --- surfaces -----------------------------------------------------------
    def on_tang(self, x: float, y: float) -> bool:
        p = self.platform
        return p.x0 - 1e-6 <= x <= p.x1 + 1e-6 and p.y0 - 1e-6 <= y <= p.y1 + 1e-6

    def surface_z(self, x: float, y: float) -> float:
        """Height of the walkable surface at (x, y): ground, a tread, or the 堂."""
        if self.on_tang(x, y):
            return self.h.height
        for box in self.stairs.values():
            if box.x0 - 1e-6 <= x <= box.x1 + 1e-6 and box.y0 - 1e-6 <= y <= box.y1 + 1e-6:
                k = min(self.h.steps, max(1, math.ceil((y - box.y0) / self.h.tread - 1e-9)))
                return self.h.tread_top(k)
        return 0.0

    def surface_z_many(self, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        """:meth:`surface_z` for arrays of points."""
        h, e = self.h, 1e-6
        z = np.zeros_like(x, dtype=float)
        for box in self.stairs.values():
            on = (x >= box.x0 - e) & (x <= box.x1 + e) & (y >= box.y0 - e) & (y <= box.y1 + e)
            k = np.clip(np.ceil((y - box.y0) / h.tread - 1e-9), 1, h.steps)
            z = np.where(on, h.height * k / h.steps, z)
        p = self.platform
        on = (x >= p.x0 - e) & (x <= p.x1 + e) & (y >= p.y0 - e) & (y <= p.y1 + e)
        return np.where(on, h.height, z)

    def solid_many(self, x: np.ndarray, y: np.ndarray, z: np.ndarray) -> np.ndarray:
        """:meth:`solid_at` for arrays of points: True where someone would be inside an obstacle."""
        up = z >= self.h.height / 2
        out = np.zeros_like(x, dtype=bool)
        for boxes, level in ((self.range_obstacles, ~up), (tuple(self.tang_obstacles), up)):
            for b in boxes:
                out |= level & (x > b.x0) & (x < b.x1) & (y > b.y0) & (y < b.y1)
        return out

    def solid_at(self, x: float, y: float, z: float) -> str | None:
        """The obstacle a person standing at (x, y, z) would be inside, if any."""
        if z < self.h.height / 2:
            for box in self.range_obstacles:
                if box.contains(x, y):
                    return box.name
        else:
            for box in self.tang_obstacles:
                if box.contains(x, y):
                    return box.name
        return None

    # --- planning -------------------------------------------------------------
    @staticmethod
    def _visible(p: np.ndarray, q: np.ndarray, boxes: np.ndarray) -> np.ndarray:
        """For segments p[i]–q[j] (all pairs), True where no box's interior is crossed.

        A vectorised Liang–Barsky clip: p (n, 2), q (k, 2), boxes (m, 4) as x0 y0 x1 y1."""
        if len(boxes) == 0:
            return np.ones((len(p), len(q)), dtype=bool)
        # per axis on (n, k, m) planes, the entry and exit clipped as they come: the same numbers as on
        # (n, k, m, 2) stacks reduced over the last axis, at a fifth of the cost (it is the rite's hot loop)
        t0 = np.zeros((len(p), len(q), len(boxes)))
        t1 = np.ones((len(p), len(q), len(boxes)))
        for k in (0, 1):
            a = p[:, None, k:k + 1]                                    # (n, 1, 1)
            d = q[None, :, k:k + 1] - a                                # (n, k, 1)
            lo, hi = boxes[None, None, :, k], boxes[None, None, :, k + 2]   # (1, 1, m)
            with np.errstate(divide="ignore", invalid="ignore"):
                r1 = (lo - a) / d
                r2 = (hi - a) / d
            parallel = np.abs(d) < 1e-12
            if parallel.any():
                inside = (a > lo) & (a < hi)
                enter = np.where(parallel, np.where(inside, -np.inf, np.inf), np.minimum(r1, r2))
                leave = np.where(parallel, np.where(inside, np.inf, -np.inf), np.maximum(r1, r2))
            else:
                enter, leave = np.minimum(r1, r2), np.maximum(r1, r2)
            np.maximum(t0, enter, out=t0)
            np.minimum(t1, leave, out=t1)
        return np.asarray(~((t1 - t0) > 1e-6).any(axis=2))

    def _plan2d(self, a: tuple[float, float], b: tuple[float, float], obstacles: list[Box], cores: Sequence[Box] = (),
                core_clear: float | None = None, bounds: Box | None = None,
                widen: float = 0.0, step_off: bool = True) -> list[tuple[float, float]]:
        """:meth:`_search`, remembered: the rite asks the same way again (about one ask in two), e.g. as
        the set of people to walk round grows. The key is the repr of plain tuples and floats (exact, and
        -0.0 is not 0.0) and holds all the search reads, so a remembered answer is the very one the search
        would give — for any router of this process: another compile of the same hall (another seed, a
        choreography changed in one step, the rite without the 大夫) asks most of the same ways again."""
        if type(a) is not tuple or type(b) is not tuple:
            return self._search(a, b, obstacles, cores, core_clear, bounds, widen, step_off)
        key = repr((a, b, tuple(obstacles), tuple(cores), core_clear, bounds, widen, step_off, self.CLEAR,
                    self.REACH))
        if key not in _PLANS:
            if len(_PLANS) >= _PLANS_MAX:       # bounded: a process compiling many halls keeps the latest
                _PLANS.clear()
            _PLANS[key] = self._search(a, b, obstacles, cores, core_clear, bounds, widen, step_off)
        return list(_PLANS[key])

    def _search(self, a: tuple[float, float], b: tuple[float, float], obstacles: list[Box], cores: Sequence[Box] = (),
                core_clear: float | None = None, bounds: Box | None = None,
                widen: float = 0.0, step_off: bool = True) -> list[tuple[float, float]]:
        """Shortest polyline a → b round the obstacles (Dijkstra on a visibility graph).

        Each obstacle is kept at CLEAR; people (``cores``, already their own size) at CLEAR
        too, except that when a or b is within that margin their bare size is used instead,
        and an obstacle that holds a or b itself is ignored (someone is going right up to it)."""
        boxes: list[Box] = []
        ends = [a, b]          # where the way proper starts and ends (a step off a thing he stands at)
        for k, core in enumerate([*obstacles, *cores]):
            grown = core.grow(self.CLEAR + widen if (k < len(obstacles) or core_clear is None) else core_clear)
            if not (grown.contains(*a) or grown.contains(*b)):
                boxes.append(grown)
            elif not (core.contains(*a) or core.contains(*b)):
                # going up to a thing: keep the walker's front (REACH) off it on the way; one who stands
                # closer than that (kneeling at the 楅) first steps straight back from it, and one who goes
                # that close steps straight up to it at the end (people are already their own size)
                near = core.grow(self.REACH) if k < len(obstacles) else core
                if step_off and k < len(obstacles):
                    for e, p in enumerate((a, b)):
                        if near.contains(*p):
                            ends[e] = _step_off(p, core, self.REACH + 0.05)
                    boxes.append(near)
                else:
                    boxes.append(core if (near.contains(*a) or near.contains(*b)) else near)
        if ends != [a, b]:
            if any(bx.contains(*e) for bx in boxes for e in ends):
                # no room to step back (another thing or person is there): the old way, round the bare thing
                return self._plan2d(a, b, obstacles, cores, core_clear, bounds, widen, step_off=False)
            inner = self._plan2d(ends[0], ends[1], obstacles, cores, core_clear, bounds, widen)
            return [a] + [p for p in inner if math.dist(p, a) > 1e-9 and math.dist(p, b) > 1e-9] + [b]
        arr = np.array([(bx.x0, bx.y0, bx.x1, bx.y1) for bx in boxes]).reshape(-1, 4)
        ab = np.array([a, b], dtype=float)
        if self._visible(ab[:1], ab[1:], arr)[0, 0]:
            return [a, b]
        corners = np.array([c for bx in boxes for c in bx.grow(0.05).corners()], dtype=float).reshape(-1, 2)
        if len(corners):
            free = ~((corners[:, None, 0] > arr[None, :, 0]) & (corners[:, None, 0] < arr[None, :, 2]) &
                     (corners[:, None, 1] > arr[None, :, 1]) & (corners[:, None, 1] < arr[None, :, 3])).any(axis=1)
            if bounds is not None:   # turn only where one can walk: on the 堂 floor, inside the 庭
                free &= ((corners[:, 0] >= bounds.x0) & (corners[:, 0] <= bounds.x1) &
                         (corners[:, 1] >= bounds.y0) & (corners[:, 1] <= bounds.y1))
            corners = corners[free]
        pts = np.vstack([ab, corners])
        dist = np.linalg.norm(pts[:, None, :] - pts[None, :, :], axis=2)
        n = len(pts)
        best = np.full(n, np.inf)
        best[0] = 0.0
        prev = np.full(n, -1)
        done = np.zeros(n, dtype=bool)
        for _ in range(n):
            i = int(np.argmin(np.where(done, np.inf, best)))
            if not np.isfinite(best[i]) or i == 1:
                break
            done[i] = True
            cand = best[i] + dist[i]
            # the row of the one reached: the search settles the goal after a few, not all n
            better = self._visible(pts[i:i + 1], pts, arr)[0] & ~done & (cand < best)
            best[better] = cand[better]
            prev[better] = i
        if prev[1] < 0:
            return [a, b]   # boxed in: go straight (the audit will tell)
        path = [1]
        while path[-1] != 0:
            path.append(int(prev[path[-1]]))
        return [(float(pts[i, 0]), float(pts[i, 1])) for i in reversed(path)]

    def _flat(self, a: Point, b: Point, persons: tuple[Point, ...] = (), things: tuple[tuple[str, float, float, float, float], ...] = (),
              widen: float = 0.0) -> list[Point]:
        """Shortest way on one level; people standing near the way are walked round too, and on the
        ground the movable things lying there (``things``: (name, x0, y0, x1, y1) boxes)."""
        on = a[2] > self.h.height / 2
        obstacles = self.tang_obstacles if on else self.ground_obstacles + [Box(*t) for t in things]
        z = self.h.height if on else 0.0
        bounds = self.platform.grow(-0.3) if on else self.court
        path = self._plan2d(a[:2], b[:2], obstacles, bounds=bounds, widen=widen)
        half = self.person_half
        level = [p for p in persons if abs(p[2] - z) < self.h.height / 2]
        near: list[Point] = []
        for _ in range(10):   # going round one person may lead past another: widen the set
            more = [p for p in level if p not in near and _near_path(p, path, half + self.CLEAR + widen)]
            if not more:
                break
            near += more
            cores = [Box("person", x - half, y - half, x + half, y + half) for x, y, _ in near]
            found = self._plan2d(a[:2], b[:2], obstacles, cores, bounds=bounds, widen=widen)
            if len(found) == 2 and not self._visible(np.array([a[:2]]), np.array([b[:2]]), np.array(
                    [(c.x0, c.y0, c.x1, c.y1) for c in cores]))[0, 0]:
                # no way round them at a comfortable distance: squeeze past at the closest allowed
                tight = 0.41 / self.layout.reading.chi_m
                cores = [Box("person", x - tight, y - tight, x + tight, y + tight) for x, y, _ in near]
                found = self._plan2d(a[:2], b[:2], obstacles, cores, core_clear=0.0, bounds=bounds, widen=widen)
            if len(found) == 2 and len(path) > 2:
                break       # no way round them all: keep the way round the first ones
            path = found
        return [(x, y, z) for x, y in path]

    #: half the stair width kept between the up and the down lane
    LANE = 1.5

    def lane(self, side: str, up: bool) -> float:
        """Keep right on the stairs, so that people passing keep each other on the left (相左):
        going up the east half of the 西階, coming down the west half (mirrored on the 阼階)."""
        lane = self.LANE if up else -self.LANE
        return lane if side == "west" else -lane

    def stair_points(self, side: str, up: bool, lane: float = 0.0) -> list[Point]:
        """Foot, each 等, and head of a stair; ``lane`` shifts across it (keep right: 相左)."""
        h = self.h
        x = (-1 if side == "west" else 1) * h.stairs_x + lane
        foot = (x, -h.stair_run - 1.0, 0.0)
        treads = [(x, -h.tread * (h.steps - k + 0.5), h.tread_top(k)) for k in range(1, h.steps + 1)]
        head = (x, 1.5, h.height)
        pts = [foot, *treads, head]
        return pts if up else pts[::-1]

    def ying_waypoint(self, side: str) -> Point:
        """The point to pass the 楹 by: north of it in a 序 (鉤楹內), south in a 庠 (由楹外)."""
        x, y, z = self.layout[f"hall.{side}_pillar"].xyz_chi
        dy = -2.5 if self.h.has_shi else 2.5
        return (x, y + dy, z)

    def route(self, a: Point, b: Point, stairs: str = "west", via: tuple[Point, ...] = (),
              persons: tuple[Point, ...] = (), things: tuple[tuple[str, float, float, float, float], ...] = (), widen: float = 0.0) -> list[Point]:
        """Polyline from a to b through ``via``, changing level only by ``stairs``,
        walking round the obstacles and round the ``persons`` standing near the way; a point on a
        stair itself (盡階: the last 等 below the 堂) is reached by that stair's own treads. ``widen``
        keeps the way that much farther from the obstacles (the centre line of two walking abreast)."""
        pts = [a, *via, b]
        out: list[Point] = [a]
        H = self.h.height
        on_stair: Callable[[Point], bool] = lambda p: 1e-6 < p[2] < H - 1e-6       # noqa: E731
        for p, q in zip(pts, pts[1:]):
            p_up, q_up = p[2] > H / 2, q[2] > H / 2
            if on_stair(q) and p[2] < 1e-6:
                side = "west" if q[0] < 0 else "east"
                st = self.stair_points(side, up=True, lane=q[0] - (-1 if side == "west" else 1) * self.h.stairs_x)
                leg = self._flat(p, st[0], persons, things, widen) + [t for t in st[1:-1] if t[2] <= q[2] + 1e-6]
            elif on_stair(p) and q[2] < 1e-6:
                side = "west" if p[0] < 0 else "east"
                st = self.stair_points(side, up=False, lane=p[0] - (-1 if side == "west" else 1) * self.h.stairs_x)
                leg = [p, *[t for t in st[1:-1] if t[2] < p[2] - 1e-6], st[-1]] + \
                    self._flat(st[-1], q, persons, things, widen)[1:]
            elif p_up == q_up:
                leg = self._flat(p, q, persons, things, widen)
            else:
                st = self.stair_points(stairs, up=q_up, lane=self.lane(stairs, q_up))
                leg = self._flat(p, st[0], persons, things, widen) + st[1:-1] + self._flat(st[-1], q, persons, things, widen)
            for pt in leg[1:] if out and math.dist(leg[0], out[-1]) < 1e-9 else leg:
                if math.dist(pt, out[-1]) > 1e-9:
                    out.append(pt)
        return out



def _step_off(p: tuple[float, float], core: Box, m: float) -> tuple[float, float]:
    """The point m from the box ``core``, straight away from it through p (p outside it)."""
    cx, cy = min(max(p[0], core.x0), core.x1), min(max(p[1], core.y0), core.y1)
    dx, dy = p[0] - cx, p[1] - cy
    d = math.hypot(dx, dy)
    return (float(p[0]), float(p[1])) if d < 1e-9 else (cx + dx / d * m, cy + dy / d * m)


def _near_path(p: Point, path: list[tuple[float, float]], d: float) -> bool:
    """Is p within d of the polyline (in plan)?"""
    px, py = p[0], p[1]
    for (ax, ay), (bx, by) in zip(path, path[1:]):
        vx, vy = bx - ax, by - ay
        L = vx * vx + vy * vy
        u = 0.0 if L == 0 else max(0.0, min(1.0, ((px - ax) * vx + (py - ay) * vy) / L))
        if math.hypot(ax + u * vx - px, ay + u * vy - py) < d:
            return True
    return False


def subdivide(points: list[Point], step: float) -> list[Point]:
    """Insert vertices so no segment is longer than ``step`` (so a sideways lane applies along it)."""
    out = [points[0]]
    for p, q in zip(points, points[1:]):
        n = max(1, int(math.ceil(math.dist(p, q) / step)))
        for k in range(1, n + 1):
            out.append(tuple(p[c] + (q[c] - p[c]) * k / n for c in range(3)))  # type: ignore[arg-type]
    return out


def polyline_length(points: list[Point]) -> float:
    return float(sum(math.dist(p, q) for p, q in zip(points, points[1:])))


def heading_deg(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    """Compass heading from a to b (0 = north, 90 = east)."""
    return math.degrees(math.atan2(b[0] - a[0], b[1] - a[1])) % 360.0


def offset_polyline(points: list[Point], d: float) -> list[Point]:
    """Shift the interior vertices of a path sideways by d (positive = to the right of travel)."""
    if len(points) < 3 or d == 0:
        return list(points)
    arr = np.asarray(points, dtype=float)
    out = [tuple(arr[0])]
    for i in range(1, len(arr) - 1):
        d1 = arr[i, :2] - arr[i - 1, :2]
        d2 = arr[i + 1, :2] - arr[i, :2]
        n1 = np.array([d1[1], -d1[0]]) / (np.linalg.norm(d1) or 1)
        n2 = np.array([d2[1], -d2[0]]) / (np.linalg.norm(d2) or 1)
        n = n1 + n2
        if np.linalg.norm(n) < 0.5:   # a U-turn (round someone): keep right on the way out and back
            out.append((arr[i, 0] + d * n1[0], arr[i, 1] + d * n1[1], arr[i, 2]))
            out.append((arr[i, 0] + d * n2[0], arr[i, 1] + d * n2[1], arr[i, 2]))
            continue
        n = n / np.linalg.norm(n)
        out.append((arr[i, 0] + d * n[0], arr[i, 1] + d * n[1], arr[i, 2]))
    out.append(tuple(arr[-1]))
    return out
