"""The pair (or one archer) goes up to the 物: §21 上射在左並行當階北面揖及階揖上射先升三等下射從之中等 …
皆當其物北面揖及物揖皆左足履物還視侯中."""
from __future__ import annotations

from .. import choreography as chor
from ..state import TREAD_S, Point, as_tuple
from ..routes import offset_polyline, subdivide
from .base import Acts

def run(acts: Acts, step: chor.Step, t0: float) -> float:
    """§21: 當階揖, 及階揖, 上射先升三等 下射從之中等, 升堂揖, 鉤楹 (序) / 由楹外 (庠), 當物揖, 及物揖, 還."""
    who = step.who
    times = {a: t0 for a in who}
    wu = _wu_targets(acts, who)
    stairs = {a: acts.stairs(a, step) for a in who}
    shared = len(who) == 2 and stairs[who[0]] == stairs[who[1]]
    h = acts.layout.hall
    def foot_x(i: int, a: str) -> float:
        # 上射在左 (west): the 上射 on the up lane, the 下射 to his right, clear of the down lane
        lane_x = (-1 if stairs[a] == "west" else 1) * h.stairs_x + acts.site.lane(stairs[a], True)
        return lane_x + ((0.0 if i == 0 else 2.5) if shared else 0.0)
    for i, a in enumerate(who):
        via = tuple(acts.resolve(v, a) for v in step.via)
        times[a] = acts.walk(a, times[a] + 0.8 * i, (foot_x(i, a), -h.stair_run - 4.0, 0.0), stairs[a], via)
    acts.sync(who, times)
    for a in who:
        times[a] = acts.salute(a, times[a], 0.0)                     # 當階北面揖
    for i, a in enumerate(who):
        times[a] = acts.walk(a, times[a], (foot_x(i, a), -h.stair_run - 1.0, 0.0), stairs[a])
    acts.sync(who, times)
    for a in who:
        times[a] = acts.salute(a, times[a], 0.0)                     # 及階揖
    # up the stairs: 上射 first, the 下射 one 等 empty between them (中等)
    for i, a in enumerate(who):
        pts = acts.site.stair_points(stairs[a], up=True, lane=acts.site.lane(stairs[a], True))
        if shared and i == 0:
            # 上射升堂少左: at the top he steps aside to the west, clear of the stair, and waits
            hx, hy, hz = pts[-1]
            pts = [*pts, (hx - max(2.0, acts.min_gap * 1.1), hy + 1.0, hz)]
        start = times[a] + (2 * TREAD_S + 0.2 if (shared and i == 1) else 0.0)
        acts.hold(a, start)
        times[a] = acts.walk_path(a, start, [acts.pos(a), *pts])
    acts.sync(who, times)
    for a in who:
        times[a] = acts.salute(a, times[a], None)                    # 升堂揖
    for i, a in enumerate(who):
        side = "west" if stairs[a] == "west" else "east"
        x, y, z = wu[i]
        stand = (x, y - 3.0, z)
        path = acts.site.route(acts.pos(a), stand, stairs[a], (acts.site.ying_waypoint(side),))
        if shared:   # 並行: side by side, the 上射 on the left
            path = offset_polyline(subdivide(path, 4.0), -1.25 if i == 0 else 1.25)
        times[a] = acts.walk_path(a, times[a], path)
    acts.sync(who, times)
    for a in who:
        times[a] = acts.salute(a, times[a], 0.0)                     # 當物北面揖
    for i, a in enumerate(who):
        acts.hold(a, times[a])
        times[a] += 1.0
        acts.place(a, times[a], as_tuple(wu[i]), 0.0)                 # 左足履物
    acts.sync(who, times)
    for a in who:
        times[a] = acts.salute(a, times[a], 0.0)                     # 及物揖
        times[a] = acts.turn(a, times[a], 180.0)                     # 還, 視侯中
        times[a] += 0.5
    return acts.sync(who, times)


def _wu_targets(acts: Acts, who: tuple[str, ...]) -> list[Point]:
    ids = ["tang.wu_left"] if len(who) == 1 else ["tang.wu_right", "tang.wu_left"]
    return [acts.layout[i].xyz_chi for i in ids]
