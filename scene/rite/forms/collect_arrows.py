"""§22 (and each round): the 弟子 fetch every arrow from the range and lay them on the 楅 (北括)."""
from __future__ import annotations

from .. import choreography as chor
from ..state import SPACING
from .base import Acts


def run(acts: Acts, step: chor.Step, t0: float) -> float:
    """§22: the 弟子 fetch every arrow from the range and lay them on the 楅 (北括)."""
    landed = [oid for oid in acts.object_ids("arrow.") if acts.state_of(oid).startswith(("hit", "miss"))]
    who = step.who
    hou = acts.layout["target.centre"].xyz_chi
    times = {}
    for i, a in enumerate(who):
        spot = (hou[0] + (i - (len(who) - 1) / 2) * 8.0, hou[1] + 4.0, 0.0)
        times[a] = acts.walk(a, t0 + 0.8 * i, spot)
    mine = {a: landed[i::len(who)] for i, a in enumerate(who)}
    for a in who:
        for oid in mine[a]:
            acts.obj(oid, times[a] + 3.0, "held", a)
            acts.obj(oid, times[a] + 3.0, "state", "carried")
        for _ in mine[a]:
            acts.add_label(a, times[a] + 3.0, "矢")
        times[a] += 6.0
    bi = acts.resolve(step.at or chor.parse_ref("court.bi"), None)
    n_on = 0
    for i, a in enumerate(who):
        # 北面坐委于楅: south of it, facing north, kneeling
        stand = (bi[0] + (i - (len(who) - 1) / 2) * SPACING, bi[1] - 2.5, 0.0)
        times[a] = acts.walk(a, times[a], stand)
        times[a] = acts.turn(a, times[a], 0.0)
        acts.pose(a, times[a], "sit")
        for oid in mine[a]:
            x = bi[0] - 1.3 + 2.6 * (n_on % 24) / 23
            acts.obj(oid, times[a] + 1.5, "at", (x, bi[1], bi[2] + 0.3))
            acts.obj(oid, times[a] + 1.5, "state", "on the 楅 (北括)")
            n_on += 1
        for _ in mine[a]:
            acts.drop_label(a, times[a] + 1.5, "矢")
        acts.pose(a, times[a] + 2.0, "stand")
        times[a] += 2.0
        times[a] = acts.walk(a, times[a], (stand[0], stand[1] - 3.0, 0.0))
    return max(times.values())
