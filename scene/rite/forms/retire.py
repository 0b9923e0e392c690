"""The pair comes down from the 物: §21 南面揖揖如升射上射降三等下射少右從之中等並行上射於左與升射者相左交于階前
相揖由司馬之南適堂西."""
from __future__ import annotations

from .. import choreography as chor
from ..state import SPACING, TREAD_S
from .base import Acts

def run(acts: Acts, step: chor.Step, t0: float) -> float:
    """§21: 南面揖, 降 (上射 first, 下射 少右 中等), 相左交于階前, 由司馬之南 to his place."""
    who = step.who
    times = {a: t0 for a in who}
    for a in who:
        times[a] = acts.salute(a, times[a], 180.0)
    for i, a in enumerate(who):
        st = acts.stairs(a, step)
        side = "west" if st == "west" else "east"
        pts = acts.site.stair_points(st, up=False, lane=acts.site.lane(st, False))
        times[a] = acts.walk(a, times[a] + (1.5 * i), pts[0], st, (acts.site.ying_waypoint(side),))
        start = times[a] + (2 * TREAD_S if i == 1 else 0.0)
        acts.hold(a, start)
        times[a] = acts.walk_path(a, start, pts)
        # step aside from the foot, away from the up lane, before going on (相左交于階前)
        away = -1 if acts.site.lane(st, False) < 0 else 1
        foot = acts.pos(a)
        times[a] = acts.walk_path(a, times[a], [foot, (foot[0] + away * (3.5 + 2.5 * i), foot[1] - 1.5, 0.0)])
    for i, a in enumerate(who):
        target = (acts.resolve(step.at, a, extra_slot=i if step.at.slot is not None else 0)
                  if step.at is not None else acts.pos(a))
        via = acts.pass_by(step.via, a, target, extra=SPACING * i)
        times[a] = acts.walk(a, times[a], acts.free_spot(a, target), acts.stairs(a, step), via)
        times[a] = acts.turn(a, times[a], acts.facing(a, step.facing))
    return max(times.values())
