"""§24 拾取矢: 當楅北面揖, 及楅揖, 上射東面 下射西面, each 進坐 takes one arrow in turn until each has 乘矢."""
from __future__ import annotations

from .. import choreography as chor
from ..shooting import ARROWS
from .base import Acts

def run(acts: Acts, step: chor.Step, t0: float) -> float:
    """§24: 當楅北面揖, 及楅揖, 上射東面 下射西面, each 進坐 takes one arrow in turn (拾), 反位."""
    who = step.who
    bi = acts.layout["court.bi"].xyz_chi
    times = {a: t0 for a in who}
    for i, a in enumerate(who):
        dx = (-1.25 if i == 0 else 1.25) if len(who) == 2 else 0.0
        times[a] = acts.walk(a, times[a], (bi[0] + dx, bi[1] - 4.0, 0.0))
    acts.sync(who, times)
    for a in who:
        times[a] = acts.salute(a, times[a], 0.0)
    for i, a in enumerate(who):
        dx = -2.5 if i == 0 else 2.5
        times[a] = acts.walk(a, times[a], (bi[0] + dx, bi[1], 0.0))
        times[a] = acts.turn(a, times[a], 90.0 if i == 0 else 270.0)
    t = acts.sync(who, times)
    for n in range(1, ARROWS + 1):
        for a in who:
            acts.pose(a, t, "sit")
            oid = f"arrow.{a}.{n}"
            acts.obj(oid, t + 1.0, "held", a)
            acts.obj(oid, t + 1.0, "state", "in hand")
            acts.add_label(a, t + 1.0, "矢")
            acts.pose(a, t + 1.8, "stand")
            t += 2.0
    for a in who:
        times[a] = t
    for i, a in enumerate(who):
        if step.at is not None:
            target = acts.resolve(step.at, a, extra_slot=i if step.at.slot is not None else 0)
            # first a step back south from the 楅 (whose side he stands at), then on his way
            back = (acts.pos(a)[0], bi[1] - 2.5, 0.0)
            via = (back, *(acts.resolve(v, a) for v in step.via))
            times[a] = acts.walk(a, times[a] + 0.8 * i, acts.free_spot(a, target), None, via)
        times[a] = acts.turn(a, times[a], acts.facing(a, step.facing))
    return max(times.values())
