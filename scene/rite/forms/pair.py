"""What a pair (耦) does together, as the §21 sentences say it: walk abreast with the 上射 on the left (並行,
上射在左), go up or down one stair one behind the other with one empty 等 between them (中等), and meet the
pair coming the other way in front of the stairs, passing on the left and saluting (相左交于階前相揖).
"""
from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, cast

import numpy as np

from ..routes import subdivide
from ..state import Point
from .base import Acts

HALF = 1.2           # 尺: half the distance between two walking abreast (2.4 尺 ≈ 0.55 m shoulder to shoulder)
STEP_CHI = 3.0       # 尺: the abreast paths are cut this fine, so that they stay parallel round corners
LAG = 1.2            # 尺: 少退 — how far the one who keeps behind (耦少退) walks behind the other


def parallel(points: list[Point], d: float) -> list[Point]:
    """Every vertex shifted sideways by d (positive = to the right of travel); the same number of vertices."""
    arr = np.asarray(points, dtype=float)
    if len(arr) < 2:
        return [tuple(p) for p in arr]
    out = []
    for i in range(len(arr)):
        segs = []
        if i > 0:
            segs.append(arr[i, :2] - arr[i - 1, :2])
        if i < len(arr) - 1:
            segs.append(arr[i + 1, :2] - arr[i, :2])
        ns = [np.array([v[1], -v[0]]) / np.linalg.norm(v) for v in segs if np.linalg.norm(v) > 1e-9]
        n = sum(ns, np.zeros(2))
        L = np.linalg.norm(n)
        # the mitre: at a bend the offset grows (1/cos of half the bend, at most ×2) so that the two
        # stay the same distance apart along both legs
        n = n / L * min(2.0, len(ns) / L) if L > 1e-9 else n
        out.append((float(arr[i, 0] + d * n[0]), float(arr[i, 1] + d * n[1]), float(arr[i, 2])))
    return out


def back(points: list[Point], d: float) -> list[Point]:
    """Every vertex moved d back along the way (the mean direction of its two legs); the same number."""
    arr = np.asarray(points, dtype=float)
    out = []
    for i in range(len(arr)):
        u = arr[min(i + 1, len(arr) - 1), :2] - arr[max(i - 1, 0), :2]
        L = float(np.linalg.norm(u))
        u = u / L if L > 1e-9 else np.zeros(2)
        out.append((float(arr[i, 0] - d * u[0]), float(arr[i, 1] - d * u[1]), float(arr[i, 2])))
    return out


def abreast(acts: Acts, pair: tuple[str, str], t: float, target: Point, via: tuple[Point, ...] = (),
            end_heading: float | None = None, half: float | None = None, behind: str | None = None) -> float:
    """The pair walks side by side to ``target`` (the point between them on arrival), the first of the pair
    (the 上射) on the left; each first steps to his side of the way; ``behind`` (耦少退) keeps LAG 尺 back.
    Returns the arrival time."""
    a, b = pair
    if half is None:              # HALF 尺, and never closer than 0.56 m whatever the 尺 (周尺 8 寸 …)
        half = max(HALF, 0.62 * acts.min_gap)
    pa, pb = acts.pos(a), acts.pos(b)
    mid: Point = ((pa[0] + pb[0]) / 2, (pa[1] + pb[1]) / 2, (pa[2] + pb[2]) / 2)
    center = acts.site.route(mid, target, acts.own_stairs(a), via, acts.others(pair), acts.ground_things(), widen=half)
    center = subdivide(center, STEP_CHI)
    if len(center) < 2:
        return t
    # they meet abreast a little way along (clear of where both stand now), the nearer one first, so
    # that neither steps across the other's spot
    gap = acts.min_gap * 1.2
    k = next((i for i, p in enumerate(center[:-1]) if math.dist(p[:2], pa[:2]) >= gap
              and math.dist(p[:2], pb[:2]) >= gap), 0)
    center = center[k:]
    left, right = parallel(center, -half), parallel(center, half)
    if behind == a:
        left = back(left, LAG)
    elif behind == b:
        right = back(right, LAG)
    if math.dist(pa[:2], left[0][:2]) <= math.dist(pb[:2], right[0][:2]):
        ta = acts.walk(a, t, left[0])
        times = {a: ta, b: acts.walk(b, ta, right[0])}
    else:
        tb = acts.walk(b, t, right[0])
        times = {b: tb, a: acts.walk(a, tb, left[0])}
    t = acts.sync(pair, times)
    h0 = _heading(center[0], center[1])
    t = max(acts.turn(a, t, h0), acts.turn(b, t, h0))
    t = acts.walk_together(pair, t, [left, right])
    if end_heading is not None:
        t = max(acts.turn(a, t, end_heading), acts.turn(b, t, end_heading))
    return t


def _heading(p: Point, q: Point) -> float:
    return math.degrees(math.atan2(q[0] - p[0], q[1] - p[1])) % 360.0


def stairs_one_behind(acts: Acts, first: str, second: str, side: str, up: bool, t: float,
                      second_dx: float = 0.0, first_then: Point | None = None) -> float:
    """Up (or down) one stair, the second one 等 behind with one empty 等 between them (中等, 鄭 中猶間也): the
    second is on 等1 when the first reaches 等3 (going up: 上射先升三等下射從之中等), on the top 等 when the first
    reaches 等1 (going down: 上射降三等下射少右從之中等), and so on, one empty 等 between them all the way.  Both
    stand at the foot (going up) or the head (going down) at t.  Returns when both are off."""
    site, h = acts.site, acts.layout.hall
    lane = site.lane(side, up)
    pts = site.stair_points(side, up=up, lane=lane)
    # the first steps on out of the way (上射升堂少左) so that the second does not land on him
    t1 = acts.walk_path(first, t, [acts.pos(first), *pts, *([first_then] if first_then else [])])
    # when the first is on 等3 (up) / 等1 (down): the key at that tread's height
    k_mark = min(3, h.steps) if up else 1
    t_mark = acts.time_at_height(first, t, t1, h.tread_top(k_mark))
    pts2 = [(p[0] + second_dx, p[1], p[2]) for p in pts]
    path2 = [acts.pos(second), *pts2]
    # the 等 the second is to stand on at that moment, two below (up) or above (down) the first's: his 等1
    # going up (pts[1]), the top 等 going down (pts[1]); he sets out so as to reach it then
    j = k_mark - 2 if up else h.steps - k_mark - 1
    reach = acts.time_to(second, path2, path2.index(pts2[j])) if 0 < j < len(pts2) else 0.0
    start2 = max(t, t_mark - reach)
    acts.hold(second, start2)
    t2 = acts.walk_path(second, start2, path2)
    return max(t1, t2)


def post_crossing(acts: Acts, pair: tuple[str, ...], t_ready: float, resume: Callable[[float], float],
                  kind: str = "stairs") -> None:
    """A pair that waits for the pair coming the other way (相左…相揖): in front of the stairs (``kind``
    "stairs": coming down, for the pair going up) or at the 楅 ("bi": back from 拾取矢, for the pair going
    forward).  Leave word for it; ``resume(t)`` walks the rest of the way once they have met (or when none
    comes)."""
    acts.board.setdefault("crossing", []).append({"pair": pair, "ready": t_ready, "resume": resume, "kind": kind})


def take_crossing(acts: Acts, kind: str = "stairs") -> dict[str, Any] | None:
    """The pair waiting (of this kind), if any (it is then the caller's to meet)."""
    waiting = acts.board.get("crossing") or []
    for k, entry in enumerate(waiting):
        if entry.get("kind", "stairs") == kind:
            return cast("dict[str, Any]", waiting.pop(k))
    return None
