"""The pair (or one archer) goes up to the 物, as §21 says it once for all: 上射在左並行當階北面揖及階揖上射先升三等
下射從之中等上射升堂少左下射升上射揖並行皆當其物北面揖及物揖皆左足履物還視侯中; round the 楹 as §20 says
(豫則鉤楹內，堂則由楹外).  A pair coming down that waits in front of the stairs is met on the way: 相左交于階前相揖.
"""
from __future__ import annotations

from .. import choreography as chor
from ..state import Point, as_tuple
from . import pair as P
from .base import Acts

#: 尺 the pair keeps from the 楹 as it goes round it (the one nearer it a shoulder's width clear)
PILLAR_CLEAR = 4.2


def _wu(acts: Acts, who: tuple[str, ...]) -> list[Point]:
    """The 物 each stands on: one archer 左物 (鄭: 左物，下物也); a pair 上射 右物 (west), 下射 左物 (記37)."""
    ids = ["tang.wu_left"] if len(who) == 1 else ["tang.wu_right", "tang.wu_left"]
    return [acts.layout[i].xyz_chi for i in ids]


def _round_pillar(acts: Acts, side: str) -> Point:
    x, y, z = acts.layout[f"hall.{side}_pillar"].xyz_chi
    inside = not acts.layout.hall.has_shi            # 序: 鉤楹內 (north of it); 庠: 由楹外 (south)
    return (x, y + (PILLAR_CLEAR if inside else -PILLAR_CLEAR), z)


def run(acts: Acts, step: chor.Step, t0: float) -> float:
    who = step.who
    stairs = {a: acts.stairs(a, step) for a in who}
    if len(who) == 2 and stairs[who[0]] == stairs[who[1]]:
        return _pair(acts, step, (who[0], who[1]), stairs[who[0]], t0)
    # one archer, or a pair that goes up by two stairs (賓主人: 皆由其階): each alone, in step at each 揖
    wu = _wu(acts, who)
    times = {}
    for i, a in enumerate(who):
        via = tuple(acts.resolve(v, a) for v in step.via)
        times[a] = _alone(acts, a, stairs[a], wu[i], t0 + 0.8 * i, via)
    return acts.sync(who, times)


def _alone(acts: Acts, a: str, side: str, wu: Point, t: float, via: tuple[Point, ...]) -> float:
    h, site = acts.layout.hall, acts.site
    sx = -1 if side == "west" else 1
    lane_x = sx * h.stairs_x + site.lane(side, True)
    t = acts.walk(a, t, (lane_x, -h.stair_run - 4.5, 0.0), side, via)
    t = acts.salute(a, t, 0.0)                                        # 當階北面揖
    t = acts.walk(a, t, (lane_x, -h.stair_run - 1.0, 0.0), side)
    t = acts.salute(a, t, 0.0)                                        # 及階揖
    pts = site.stair_points(side, up=True, lane=site.lane(side, True))
    t = acts.walk_path(a, t, [acts.pos(a), *pts])
    t = acts.salute(a, t, None)                                       # 升堂揖
    stand = (wu[0], wu[1] - 3.0, wu[2])
    path = site.route(acts.pos(a), stand, side, (_round_pillar(acts, "west" if side == "west" else "east"),),
                      acts.others((a,)))
    t = acts.walk_path(a, t, path)
    t = acts.salute(a, t, 0.0)                                        # 當物北面揖
    acts.hold(a, t)
    t += 1.0
    acts.place(a, t, as_tuple(wu), 0.0)                               # 左足履物
    t = acts.salute(a, t, 0.0)                                        # 及物揖
    t = acts.turn(a, t, 180.0)                                        # 還視侯中
    return t + 0.5


def _pair(acts: Acts, step: chor.Step, pair: tuple[str, str], side: str, t: float) -> float:
    up, low = pair
    h, site = acts.layout.hall, acts.site
    sx = -1 if side == "west" else 1
    lane_x = sx * h.stairs_x + site.lane(side, True)
    via = tuple(acts.resolve(v, up) for v in step.via)
    waiting = P.take_crossing(acts) if side == "west" else None
    if waiting is not None:
        # 相左交于階前: they stop beside the pair coming down, keeping it on their left, and 相揖
        cross = (-h.stairs_x + 2.7, -h.stair_run - 7.0, 0.0)
        t = P.abreast(acts, pair, t, cross, via, end_heading=0.0, behind=step.behind)
        tm = max(t, waiting["ready"])
        down = waiting["pair"]
        for a in pair:
            acts.hold(a, tm)
        ends = [acts.salute(a, tm, 270.0) for a in pair] + [acts.salute(a, tm, 90.0) for a in down]
        t = max(ends)
        acts.resume(waiting, t)
        via = ()
    # the 上射 in line with the up lane, the 下射 at his right
    # in the court 耦少退 (a 大夫's 耦 keeps a little behind him); on the 堂 they are abreast again (鄭 在堂如上射之儀)
    t = P.abreast(acts, pair, t, (lane_x + P.HALF, -h.stair_run - 4.5, 0.0), via, end_heading=0.0, behind=step.behind)
    t = max(acts.salute(a, t, 0.0) for a in pair)                     # 當階北面揖
    t = P.abreast(acts, pair, t, (lane_x + P.HALF, -h.stair_run - 1.0, 0.0), end_heading=0.0, behind=step.behind)
    t = max(acts.salute(a, t, 0.0) for a in pair)                     # 及階揖
    # 上射先升三等下射從之中等; 上射升堂少左: at the head he steps west and waits, the 下射 comes up on his right
    head = site.stair_points(side, up=True, lane=site.lane(side, True))[-1]
    aside = (head[0] - 2 * P.HALF, head[1] + 0.3, head[2])
    t = P.stairs_one_behind(acts, up, low, side, True, t, first_then=aside)
    t = max(acts.turn(up, t, 0.0), acts.turn(low, t, 0.0))
    t = acts.salute(up, t, 90.0)                                      # 上射揖
    wu = _wu(acts, pair)
    centre = ((wu[0][0] + wu[1][0]) / 2, wu[0][1] - 5.0, wu[0][2])
    t = P.abreast(acts, pair, t, centre, (_round_pillar(acts, side),))   # 並行, 鉤楹內 / 由楹外
    times = {a: acts.walk(a, t, (wu[i][0], wu[i][1] - 3.0, wu[i][2])) for i, a in enumerate(pair)}
    t = acts.sync(pair, times)
    t = max(acts.salute(a, t, 0.0) for a in pair)                     # 皆當其物北面揖
    for i, a in enumerate(pair):
        acts.hold(a, t)
        acts.place(a, t + 1.0, as_tuple(wu[i]), 0.0)                  # 皆左足履物
    t += 1.0
    t = max(acts.salute(a, t, 0.0) for a in pair)                     # 及物揖
    t = max(acts.turn(a, t, 180.0) for a in pair)                     # 還視侯中
    return t + 0.5
