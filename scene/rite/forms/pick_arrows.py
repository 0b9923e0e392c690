"""§24 拾取矢: 當楅北面揖, 及楅揖, 上射東面 下射西面, each 進坐 takes one arrow in turn until each has 乘矢; 既拾取
乘矢揖, 皆左還南面揖, 皆少進當楅南, 皆左還北面搢三挾一个, 揖, 皆左還 — then back (上射於右, 與進者相左相揖)."""
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
    t = max(acts.salute(a, t, None) for a in who)                   # 既拾取乘矢揖 (facing each other)
    t = max(acts.salute(a, t, 180.0) for a in who)                  # 皆左還南面揖
    for a in who:
        times[a] = t
    if "矢不挾" in chor.passage(acts.section).text:   # §43 矢不挾，兼諸弦弣以退: nothing to 搢 and 挾, they go
        return _leave(acts, step, who, times)
    for i, a in enumerate(who):                                     # 皆少進當楅南
        dx = (-1.25 if i == 0 else 1.25) if len(who) == 2 else 0.0
        times[a] = acts.walk(a, t, (bi[0] + dx, bi[1] - 2.5, 0.0))
    t = acts.sync(who, times)
    t = max(acts.turn(a, t, 0.0) for a in who)                      # 皆左還北面
    for a in who:                                                   # 搢三挾一个: three in the belt, one in hand
        for n in range(1, ARROWS + 1):
            acts.obj(f"arrow.{a}.{n}", t + 1.0, "state", "挾 (held on the string hand)" if n == 1 else "搢 (in the belt)")
    t = max(acts.salute(a, t + 1.5, 0.0) for a in who)              # 揖
    for a in who:
        times[a] = t
    return _leave(acts, step, who, times)


def _leave(acts: Acts, step: chor.Step, who, times: dict[str, float]) -> float:
    for i, a in enumerate(who):
        if step.at is not None:
            target = acts.resolve(step.at, a, extra_slot=i if step.at.slot is not None else 0)
            via = tuple(acts.resolve(v, a) for v in step.via)       # from the 楅's south, on his way
            times[a] = acts.walk(a, times[a] + 0.8 * i, acts.free_spot(a, target), None, via)
        times[a] = acts.turn(a, times[a], acts.facing(a, step.facing))
    return max(times.values())
