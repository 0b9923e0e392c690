"""The pair comes down from the 物, as §21 says it once for all: 南面揖揖如升射上射降三等下射少右從之中等並行上射於左
與升射者相左交于階前相揖由司馬之南適堂西 (one archer: 揖, down his stairs, and on by the way the data names).
"""
from __future__ import annotations

import math

from .. import choreography as chor
from ..state import SPACING, Point
from . import pair as P
from .base import Acts

SIMA_SOUTH = 5.0      # 尺 south of the 司馬 that a pair passes (由司馬之南), the nearer a shoulder's width clear


def run(acts: Acts, step: chor.Step, t0: float) -> float:
    who = step.who
    times = {a: acts.salute(a, t0, 180.0) for a in who}               # 南面揖
    t = acts.sync(who, times)
    stairs = {a: acts.stairs(a, step) for a in who}
    if len(who) == 2 and stairs[who[0]] == stairs[who[1]]:
        return _pair(acts, step, (who[0], who[1]), stairs[who[0]], t)
    for i, a in enumerate(who):
        times[a] = _alone(acts, step, a, stairs[a], t + 1.5 * i, i)
    return max(times.values())


def _targets(acts: Acts, step: chor.Step, pair: tuple[str, ...]) -> list[Point]:
    out = []
    for i, a in enumerate(pair):
        out.append(acts.resolve(step.at, a, extra_slot=i if step.at.slot is not None else 0)
                   if step.at is not None else acts.pos(a))
    return out


def _alone(acts: Acts, step: chor.Step, a: str, side: str, t: float, i: int) -> float:
    site = acts.site
    head = site.stair_points(side, up=False, lane=site.lane(side, False))
    t = acts.walk(a, t, head[0], side, (site.ying_waypoint("west" if side == "west" else "east"),))
    t = acts.salute(a, t, None)                                       # 揖如升射
    t = acts.walk_path(a, t, head)
    away = -1 if site.lane(side, False) < 0 else 1
    foot = acts.pos(a)
    t = acts.walk_path(a, t, [foot, (foot[0] + away * (3.5 + 2.5 * i), foot[1] - 1.5, 0.0)])
    target = _targets(acts, step, (a,))[0]
    via = acts.pass_by(step.via, a, target, extra=SPACING * i)
    t = acts.walk(a, t, acts.free_spot(a, target), side, via)
    return acts.turn(a, t, acts.facing(a, step.facing))


def _pair(acts: Acts, step: chor.Step, pair: tuple[str, str], side: str, t: float) -> float:
    up, low = pair
    h, site = acts.layout.hall, acts.site
    sx = -1 if side == "west" else 1
    down_x = sx * h.stairs_x + site.lane(side, False)
    # 揖如升射: back off the 物 to where they saluted it, and to the head of the stairs, saluting as they
    # did going up; the 上射 then goes down first on the down lane, the 下射 少右 one 等 behind (中等)
    times = {a: acts.walk(a, t, (acts.pos(a)[0], acts.pos(a)[1] - 3.0, acts.pos(a)[2])) for a in pair}
    t = acts.sync(pair, times)
    t = max(acts.salute(a, t, 180.0) for a in pair)
    from .approach import _round_pillar
    t = P.abreast(acts, (low, up), t, (down_x - sx * 1.5, 3.5, h.height), (_round_pillar(acts, side),))
    t = max(acts.salute(a, t, 180.0) for a in pair)
    stair = site.stair_points(side, up=False, lane=site.lane(side, False))
    head, foot = stair[0], stair[-1]
    t_up = acts.walk(up, t, head)
    lx, ly, lz = acts.pos(low)                                      # the 下射 goes round behind him
    behind = [(lx, ly, lz), (lx, head[1] + 2.6, lz), (head[0] + sx * 1.6, head[1] + 2.6, lz)]
    t = max(t_up, acts.walk_path(low, t_up, behind))
    # 上射降三等下射少右從之中等: at the foot the 上射 steps on, clear of where the 下射 comes down
    # (facing south down the 西階 his right is the west: sx points that way; mirrored on the 阼階)
    t = P.stairs_one_behind(acts, up, low, side, False, t, second_dx=sx * 1.0,
                            first_then=(foot[0] - sx * 1.4, foot[1] - 2.0, 0.0))
    # 並行上射於左 to the front of the stairs, where they wait for the pair going up (相左交于階前)
    cross = (-h.stairs_x - 2.7, -h.stair_run - 7.0, 0.0) if side == "west" else \
        (h.stairs_x + 2.7, -h.stair_run - 7.0, 0.0)
    t = P.abreast(acts, pair, t, cross, end_heading=180.0)
    targets = _targets(acts, step, pair)

    def on(t_go: float) -> float:
        # 由司馬之南適堂西: abreast by the 司馬's south, then each to his place
        via: tuple[Point, ...] = ()
        if step.via:
            sx_, sy_, sz_ = acts.resolve(chor.PlaceRef(step.via[0].text, step.via[0].place, None, None), up)
            off = max(SIMA_SOUTH, 2.2 * acts.min_gap)    # round his south-east corner, a shoulder clear
            via = ((sx_ + off, sy_ - off, 0.0), (sx_ - off, sy_ - off, 0.0))
        centre = tuple((targets[0][c] + targets[1][c]) / 2 for c in range(3))
        tt = P.abreast(acts, pair, t_go, (centre[0], centre[1] - 2.0, 0.0), via)
        # each to his place, the 上射 first (the two places are side by side: one walking on while the
        # other has already stopped would brush past him)
        spots = {a: acts.free_spot(a, targets[i]) for i, a in enumerate(pair)}
        order = max((pair, pair[::-1]), key=lambda o: _clearance(acts, o, spots))
        ends: dict[str, float] = {}
        for a in order:
            ends[a] = acts.walk(a, max([tt, *ends.values()]), spots[a])
        return max(acts.turn(a, ends[a], acts.facing(a, step.facing)) for a in pair)

    P.post_crossing(acts, pair, t, on)
    return t


def _clearance(acts: Acts, order: tuple[str, str], spots: dict[str, Point]) -> float:
    """How near the two come if they go to their spots in this order (straight lines): the first passes
    the second where he stands, then the second passes the first where he has stopped."""
    a, b = order
    pa, pb = acts.pos(a), acts.pos(b)
    return min(_seg_dist(pb, pa, spots[a]), _seg_dist(spots[a], pb, spots[b]))


def _seg_dist(p: Point, a: Point, b: Point) -> float:
    dx, dy = b[0] - a[0], b[1] - a[1]
    L = dx * dx + dy * dy
    u = 0.0 if L < 1e-12 else max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / L))
    return math.hypot(p[0] - a[0] - u * dx, p[1] - a[1] - u * dy)
