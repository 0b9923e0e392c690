"""§24 拾取矢, as the text says it once for all (§37 如三耦, §43 如初): 揖進 (竝行: 賈 一南一北竝行), 當楅北面揖, 及楅揖,
上射東面 下射西面, each 進坐 takes one arrow in turn until each has 乘矢; 既拾取乘矢揖, 皆左還南面揖, 皆少進當楅南,
皆左還北面搢三挾一个, 揖, 皆左還, 上射於右, 與進者相左相揖, 反位.

Each pair goes forward as soon as the pair before has turned back from the 楅 (皆左還), so that the two meet
on the way: the pair coming back passes north of the pair going forward (鄭 相左皆由進者之北: each has the
other on his left) and they salute (相揖).  The 賓 and the 主人, who come from the 階前 and not from the 射位,
go straight to their ends of the 楅 and make no 北面揖 (鄭 §37 主人西面賓東面相揖…不北面揖由便也).
"""
from __future__ import annotations

import math
from typing import Any

from .. import choreography as chor
from ..shooting import ARROWS
from ..state import Point
from . import pair as P
from .base import Acts

DANG = 4.0          # 尺 south of the 楅 where a pair stands 當楅 (鄭 楅正南之東西) to make the 北面揖
BI_SIDE = 2.5       # 尺 from the 楅's middle to where each takes his arrows (上射 west, 下射 east)
BI_SOUTH = 2.5      # 尺: 皆少進當楅南 — where they turn north to 搢三挾一个
KIND = "bi"         # the board's word for a pair waiting at the 楅 to go back (與進者相左)


def run(acts: Acts, step: chor.Step, t0: float) -> float:
    who = tuple(step.who)
    bi = acts.layout["court.bi"].xyz_chi
    two = len(who) == 2
    # the 賓 and the 主人 (each by his own stairs) come from the 階前: 由便, no 北面揖 (鄭 §37)
    by_ease = two and acts.own_stairs(who[0]) != acts.own_stairs(who[1])
    dang = (bi[0], bi[1] - DANG, 0.0)
    home = {a: acts.pos(a) for a in who}          # where each set out from (his 位)
    waiting = P.take_crossing(acts, KIND)
    if by_ease:
        if waiting is not None:                      # nobody of theirs to meet: the pair before goes on
            acts.resume(waiting, waiting["ready"])
        times = {a: acts.walk(a, t0, (bi[0] + (-BI_SIDE if i == 0 else BI_SIDE), bi[1], 0.0))
                 for i, a in enumerate(who)}
        t = acts.sync(who, times)
    else:
        # the way there is the way back (`via`, e.g. §43 出入于司馬之南 from 堂西), walked the other way
        there = tuple(acts.resolve(v, who[0]) for v in reversed(step.via))
        t = _forward(acts, who, t0, dang, waiting, there)
        t = max(acts.salute(a, t, 0.0) for a in who)                 # 當楅北面揖
        times = {}
        for i, a in enumerate(who):
            dx = (-BI_SIDE if i == 0 else BI_SIDE) if two else 0.0
            times[a] = acts.walk(a, t, (bi[0] + dx, bi[1], 0.0))
        t = acts.sync(who, times)
    # 上射東面 下射西面 (鄭 §37 主人西面賓東面), and 及楅揖: facing each other
    t = max(acts.turn(a, t, 90.0 if i == 0 else 270.0) for i, a in enumerate(who))
    t = max(acts.salute(a, t, None) for a in who)                    # 及楅揖
    for n in range(1, ARROWS + 1):                                   # 拾: one each in turn, kneeling (進坐…興)
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
    if "矢不挾" not in acts.text:   # §43 矢不挾，兼諸弦弣以退: nothing to 搢 and 挾
        times = {}
        for i, a in enumerate(who):                                 # 皆少進當楅南
            dx = (-1.25 if i == 0 else 1.25) if two else 0.0
            times[a] = acts.walk(a, t, (bi[0] + dx, bi[1] - BI_SOUTH, 0.0))
        t = acts.sync(who, times)
        t = max(acts.turn(a, t, 0.0) for a in who)                  # 皆左還北面
        for a in who:                                               # 搢三挾一个: three in the belt, one in hand
            for n in range(1, ARROWS + 1):
                acts.obj(f"arrow.{a}.{n}", t + 1.0, "state",
                         "挾 (held on the string hand)" if n == 1 else "搢 (in the belt)")
        t = max(acts.salute(a, t + 1.5, 0.0) for a in who)          # 揖
    t = max(acts.turn(a, t, 270.0) for a in who)                    # 皆左還
    if step.at is None:
        return t                                                    # the data walks them on (賓堂西 主人堂東 …)
    if two and not by_ease:
        # 上射於右, 與進者相左相揖, 反位: they wait here for the next pair to come forward and meet it on the way
        P.post_crossing(acts, who, t, lambda t_go: _back(acts, step, who, t_go, home), kind=KIND)
        return t
    return _back(acts, step, who, t, home)


def _forward(acts: Acts, who: tuple[str, ...], t: float, dang: Point, waiting: dict[str, Any] | None,
             there: tuple[Point, ...] = ()) -> float:
    """揖進 and 進 to 當楅: abreast (竝行), the 上射 on the left (north) and, on the last leg, west, by ``there``
    when the data gives the way; on the way the pair coming back passes on their left and both salute (相左相揖).
    Nothing to do if they stand there."""
    if all(math.dist(acts.pos(a)[:2], dang[:2]) < 4.0 for a in who):
        if waiting is not None:
            acts.resume(waiting, waiting["ready"])
        return t
    t = max(acts.salute(a, t, None) for a in who)                   # 揖進
    if len(who) != 2:
        if waiting is not None:
            acts.resume(waiting, waiting["ready"])
        return acts.turn(who[0], acts.walk(who[0], t, dang, None, there), 0.0)
    turn = (dang[0], dang[1] - 4.0, 0.0)           # the last leg northward: the 上射 comes to the west
    by = there or _sima_south(acts, who)
    if waiting is not None:
        t = _meet(acts, who, t, turn, waiting, by)
        by = ()
    return P.abreast(acts, who, t, dang, (*by, turn), end_heading=0.0)


def _sima_south(acts: Acts, who: tuple[str, ...]) -> tuple[Point, ...]:
    """From the 射位 (司馬之西南) east to the 楅 the way is south of the 司馬 (our choice: north of him stand the
    司射 and, from §26, the 中 and the 釋獲者 with his 筭)."""
    sx, sy, _ = acts.layout["pos.sima"].xyz_chi
    ys = [acts.pos(a)[1] for a in who]
    if any(acts.pos(a)[0] > sx for a in who) or max(ys) > sy + 1.0:
        return ()
    return ((sx + 1.0, min(min(ys), sy - 4.5), 0.0),)


def _meet(acts: Acts, who: tuple[str, str], t: float, turn: Point, waiting: dict[str, Any],
          by: tuple[Point, ...] = ()) -> float:
    """與進者相左相揖: half-way, the pair going forward stops with the pair coming back on its left (鄭 相左皆由進者
    之北), both salute facing each other, the pair coming back goes on to its place; when the pair going
    forward may go on."""
    back = waiting["pair"]
    pa, pb = acts.pos(who[0]), acts.pos(who[1])
    start = by[-1][:2] if by else ((pa[0] + pb[0]) / 2, (pa[1] + pb[1]) / 2)
    dx, dy = turn[0] - start[0], turn[1] - start[1]
    L = math.hypot(dx, dy) or 1.0
    ux, uy = dx / L, dy / L
    half = max(P.HALF, 0.62 * acts.min_gap)
    sep = 2 * half + max(3.0, 1.3 * acts.min_gap)           # between the two pairs' middle lines
    here = (start[0] + ux * L / 2, start[1] + uy * L / 2, 0.0)
    there = (here[0] - uy * sep, here[1] + ux * sep, 0.0)  # on the left of the pair going forward
    h_fwd = math.degrees(math.atan2(ux, uy)) % 360.0
    t_fwd = P.abreast(acts, who, t, here, by, end_heading=h_fwd)
    # 上射於右: coming back, the 上射 on the right (north) — the 下射 is the first of the pair, on the left
    t_back = P.abreast(acts, (back[1], back[0]), waiting["ready"], there, end_heading=(h_fwd + 180.0) % 360.0)
    tm = max(t_fwd, t_back)
    for a in (*who, *back):
        acts.hold(a, tm)
    left = (h_fwd - 90.0) % 360.0
    ends = [acts.salute(a, tm, left) for a in who] + [acts.salute(a, tm, (left + 180.0) % 360.0) for a in back]
    tm = max(ends)
    acts.resume(waiting, tm)
    return tm


def _back(acts: Acts, step: chor.Step, who: tuple[str, ...], t: float, home: dict[str, Point]) -> float:
    """反位: abreast (上射於右) to the front of their places, then each into his own, facing as the data says.
    §43 以退不反位 (鄭 不以反射位…射禮畢): not to the 射位 but back to 堂西, each to the spot he set out from
    (the data's ``at`` names it: the 眾賓 stand there one behind the other, not in consecutive slots)."""
    assert step.at is not None             # (反位: the data says where to)
    targets = [acts.resolve(step.at, a, extra_slot=i if step.at.slot is not None else 0) for i, a in enumerate(who)]
    ahead = 3.0          # 尺 in front of the places where the pair parts
    if "不反位" in acts.text and \
            all(math.dist(home[a][:2], targets[0][:2]) < 8.0 for a in who):
        targets = [home[a] for a in who]
        ahead = 3.5      # the file at 堂西 is full on both sides (3 尺 apart): part further out, clear of it
    via = tuple(acts.resolve(v, who[0]) for v in step.via)
    times = {a: t for a in who}
    if len(who) == 2 and math.dist(targets[0][:2], targets[1][:2]) > 1.0:
        mid = tuple((targets[0][c] + targets[1][c]) / 2 for c in range(3))
        # in front of the places, on the side they come from (the file faces east: 3 尺 east of it)
        hd = acts.facing(who[0], step.facing)
        hd = 90.0 if hd is None else hd
        front = (mid[0] + ahead * math.sin(math.radians(hd)), mid[1] + ahead * math.cos(math.radians(hd)), 0.0)
        if not via:
            sx, sy, _ = acts.layout["pos.sima"].xyz_chi
            if front[0] < sx and front[1] < sy + 1.0:
                via = ((sx + 1.0, min(front[1], sy - 4.5), 0.0),)
        t = P.abreast(acts, (who[1], who[0]), t, front, via)
        times = {a: t for a in who}
        via = ()
    for i, a in enumerate(who):
        times[a] = acts.walk(a, times[a] + 0.4 * i, acts.free_spot(a, targets[i]), None, via)
        times[a] = acts.turn(a, times[a], acts.facing(a, step.facing))
    return max(times.values())
