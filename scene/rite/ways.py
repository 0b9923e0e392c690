"""How people walk: the way planned round the building, the furniture on the ground and whoever stands
about; timed so that whoever was timed first goes first (later walkers wait for the way to clear); 並行
walks in step; 記30 by the 司馬's south.  A part of :class:`.director.Director` that owns only whom a walk
may pass close to (the other party of a hand-over, a walking partner): it writes each walk through
:class:`.people.People` and asks :class:`.things.Things` and :class:`.counting.Counters` what lies on the ground."""
from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from ..geometry.layout import Layout
from . import choreography as chor
from .counting import Counters
from .people import People
from .routes import Site, heading_deg
from .state import KNEEL_S, TREAD_S, TURN_S, Point, as_tuple
from .things import Things


class Ways:
    """行 — the walks: planned, timed and written (keyframes and postures) through the people's part."""

    def __init__(self, lay: Layout, site: Site, choreo: chor.Choreography, speed: float, min_gap: float,
                 offstage: Point, people: People, things: Things, counters: Counters) -> None:
        self.lay = lay
        self.site = site
        self.stairs = {aid: a.stairs for aid, a in choreo.actors.items()}     # each one's own stairs
        self.speed = speed              # 尺 per second
        self.min_gap = min_gap          # 尺: the least distance kept between two people
        self.offstage_y = offstage[1]
        self.people = people
        self.things = things
        self.counters = counters
        self._exempt: frozenset[str] = frozenset()     # the other party of a hand-over may come close

    def exempt(self, ids: frozenset[str]) -> None:
        """From now on a walk may pass close to these (the other party of the hand-over being acted)."""
        self._exempt = ids

    def timed(self, aid: str, t: float, path: list[Point]) -> list[tuple[float, Point, float]]:
        """(time, point, heading) along a path walked from t, with turns at corners."""
        heading = self.people.heading(aid)
        out = [(t, path[0], heading)]
        for p, q in zip(path, path[1:]):
            d = math.dist(p[:2], q[:2])
            if d < 1e-6 and abs(p[2] - q[2]) < 1e-6:
                continue
            hdg = heading_deg(p, q) if d > 1e-6 else heading
            if abs(((hdg - heading + 180) % 360) - 180) > 20:
                t += TURN_S
                out.append((t, p, hdg))
            climbing = abs(q[2] - p[2]) > 1e-6
            t += max(d / self.speed, TREAD_S) if climbing else d / self.speed
            out.append((t, as_tuple(q), hdg))
            heading = hdg
        return out

    def _conflict(self, aid: str, timed: list[tuple[float, Point, float]]) -> bool:
        """Would this walk pass within reach of someone (already timed) at the same moment?"""
        ts = np.array([x[0] for x in timed])
        pts = np.array([x[1] for x in timed])
        if ts[-1] - ts[0] < 1e-6:
            return False
        t_first = float(ts[0])
        # my walk, then a few seconds standing where I arrive (someone timed earlier may still pass there)
        grid = np.append(np.arange(ts[0] + 0.2, ts[-1], 0.2), np.arange(ts[-1], ts[-1] + 3.0, 0.25))
        me = np.column_stack([np.interp(grid, ts, pts[:, c]) for c in range(3)])
        for other in self.people.ids():
            # (someone already gone out was still walking out during my walk: not skipped)
            if other == aid or other in self._exempt:
                continue
            if self.people.last_key_t(other) <= t_first:
                continue              # his last move was before mine began (most are): as below, cheaply
            k = self.people.key_array(other)
            i0 = int(np.searchsorted(k[:, 0], ts[0], side="right"))
            if i0 >= len(k) or (k[i0, 0] > grid[-1] and np.array_equal(k[i0, 1:4], k[i0 - 1, 1:4])):
                # he stands still all the while: the route already goes round him, and waiting
                # would not make him move
                continue
            them = np.column_stack([np.interp(grid, k[:, 0], k[:, c]) for c in (1, 2, 3)])
            if (np.einsum("ij,ij->i", me - them, me - them) < self.min_gap ** 2).any():
                return True
        return False

    def departure(self, aid: str, t: float, path: list[Point]) -> float:
        """When the way is clear: prioritised planning — who was timed first goes first, others
        wait (up to 60 s, then go anyway and the audit will say so)."""
        for _ in range(120):
            if not self._conflict(aid, self.timed(aid, t, path)):
                break
            t += 0.5
        return t

    def free_spot(self, aid: str, target: Point) -> Point:
        """Nobody stands on someone else's spot: step aside from whoever already stands there
        (except the other party of a hand-over, who may come within reach)."""
        x, y, z = target
        for _ in range(12):
            crowd = [p for k, p in self.people.seen(but=aid) if k not in self._exempt
                     and abs(p[2] - z) < 1.0 and math.dist(p[:2], (x, y)) < self.min_gap * 1.3]
            if not crowd:
                break
            ox, oy, _ = min(crowd, key=lambda p: math.dist(p[:2], (x, y)))
            dx, dy = x - ox, y - oy
            d = math.hypot(dx, dy)
            if d < 1e-6:
                dx, dy, d = 1.0, 0.0, 1.0
            x, y = ox + dx / d * self.min_gap * 1.35, oy + dy / d * self.min_gap * 1.35
            z2 = self.site.surface_z(x, y)
            if abs(z2 - z) > 1e-6 or self.site.solid_at(x, y, z) is not None:
                x, y = target[0] - dy / d * self.min_gap * 1.35, target[1] + dx / d * self.min_gap * 1.35
        return (x, y, self.site.surface_z(x, y))

    def walk_path(self, aid: str, t: float, path: list[Point]) -> float:
        """Walk a polyline from time t (once the way is clear); returns the arrival time."""
        people = self.people
        if len(path) < 2:
            return t
        if people.posture(aid) == "sit":                 # he rises before he goes (興, said or not)
            t = self.departure(aid, t + KNEEL_S, path) - KNEEL_S
            people.event(aid, t, "posture", "stand")
            t += KNEEL_S
        else:
            t = self.departure(aid, t, path)
        people.hold(aid, t)
        people.event(aid, t, "posture", "walk")
        for p, q in zip(path, path[1:]):
            d = math.dist(p[:2], q[:2])
            if d < 1e-6 and abs(p[2] - q[2]) < 1e-6:
                continue
            hdg = heading_deg(p, q) if d > 1e-6 else people.heading(aid)
            t = people.turn(aid, t, hdg) if abs(((hdg - people.heading(aid) + 180) % 360) - 180) > 20 else t
            climbing = abs(q[2] - p[2]) > 1e-6
            dt = max(d / self.speed, TREAD_S) if climbing else d / self.speed
            t += dt
            people.key(aid, t, as_tuple(q), hdg)
        people.event(aid, t, "posture", "stand")
        return t

    def walk_together(self, ids: tuple[str, ...], t: float, paths: list[list[Point]]) -> float:
        """Walk several polylines with the same number of points in step (並行): all leave together
        once the way is clear for all, and reach each point together; returns the arrival time."""
        n = min(len(p) for p in paths)
        if n < 2:
            return t
        saved = self._exempt
        self._exempt = saved | frozenset(ids)          # partners walk beside each other by design
        for _ in range(120):
            if not any(self._conflict(a, self.timed(a, t, p)) for a, p in zip(ids, paths)):
                break
            t += 0.5
        self._exempt = saved
        people = self.people
        for a in ids:
            if people.posture(a) == "sit":
                people.event(a, t, "posture", "stand")
        if any(people.posture(a) == "stand" and people.base_posture(a) == "sit" for a in ids):
            t += KNEEL_S
        for a, _p in zip(ids, paths):
            people.hold(a, t)
            people.event(a, t, "posture", "walk")
        for k in range(1, n):
            segs = [(p[k - 1], p[k]) for p in paths]
            dt = max(math.dist(a[:2], b[:2]) for a, b in segs) / self.speed
            if dt < 1e-6:
                continue
            turn = any(abs(((heading_deg(a, b) - people.heading(i) + 180) % 360) - 180) > 20
                       for i, (a, b) in zip(ids, segs) if math.dist(a[:2], b[:2]) > 1e-6)
            if turn:
                for i, (p0, p1) in zip(ids, segs):
                    hd = heading_deg(p0, p1) if math.dist(p0[:2], p1[:2]) > 1e-6 else people.heading(i)
                    people.hold(i, t)
                    people.key(i, t + TURN_S, people.pos(i), hd)
                t += TURN_S
            t += dt
            for i, (p0, p1) in zip(ids, segs):
                hd = heading_deg(p0, p1) if math.dist(p0[:2], p1[:2]) > 1e-6 else people.heading(i)
                people.key(i, t, as_tuple(p1), hd)
        for a in ids:
            people.event(a, t, "posture", "stand")
        return t

    def goto(self, aid: str, t: float, target: Point, stairs: str | None = None,
             via: tuple[Point, ...] = ()) -> float:
        """Walk to target (round the building and everyone standing, by the stairs given); the arrival time."""
        here = self.people.pos(aid)
        if math.dist(here, target) < 0.05 and not via:
            return t
        return self.walk_path(aid, t, self.plan(aid, here, target, stairs, via))

    def plan(self, aid: str, start: Point, target: Point, stairs: str | None = None,
             via: tuple[Point, ...] = (), ignore: tuple[str, ...] = ()) -> list[Point]:
        """The way from start to target, round the building, the furniture lying on the ground and
        everyone standing about; to or from 堂西 south of the 司馬 (記30)."""
        others = tuple(p for k, p in self.people.seen(but=aid) if k not in ignore)
        via = self._by_sima(aid, start, target, via, others)
        return self.site.route(start, target, stairs or self.stairs[aid], via, others, self.ground_things())

    #: things that lie on the ground for a while and that walkers go round: half sizes in 尺 (E–W, N–S)
    GROUND_THINGS = {"zhong": (0.7, 1.3), "bi": (1.6, 0.4), "gu": (0.8, 0.6), "zhi_sizheng": (0.3, 0.3),
                     "counters.zhong": (0.3, 0.3),
                     "counters.spare": (0.6, 0.6), "counters.right": (0.5, 0.5), "counters.left": (0.5, 0.5)}

    def ground_things(self) -> tuple[tuple[str, float, float, float, float], ...]:
        """The movable things lying on the ground now, as boxes a route goes round."""
        out = []
        for oid, (hx, hy) in self.GROUND_THINGS.items():
            p = self.things.lying_at(oid)
            if p is not None and p[2] < 0.5 and p[1] > self.offstage_y + 5:
                if oid.startswith("counters.") and self.counters.count(oid[9:]) == 0:
                    continue
                out.append((oid, p[0] - hx, p[1] - hy, p[0] + hx, p[1] + hy))
        return tuple(out)

    def _by_sima(self, aid: str, start: Point, target: Point, via: tuple[Point, ...],
                 others: tuple[Point, ...] = ()) -> tuple[Point, ...]:
        """記30 凡適堂西皆出入于司馬之南: a way into or out of 堂西, while the 司馬 holds his place in the
        court, does not pass him on the north — where a leg of it (the data's ``via`` kept) would cross the
        north–south line through him north of him, it goes by a point just south of him instead.  That holds
        coming down the 階 too: 記31 唯賓與大夫降階遂西取弓矢 (鄭 尊者宜逸由便) exempts only those two."""
        people = self.people
        if aid in ("xiang", "bin", "dafu") or not people.has("xiang") or not people.visible("xiang") \
                or not people.role("xiang").startswith("司馬"):
            return via
        post = self.lay["pos.sima"].xyz_chi
        at = people.pos("xiang")
        if math.dist(at[:2], post[:2]) > 3.0 or people.posture("xiang") == "walk":
            return via
        west = self.lay["hall.west_of_tang"].xyz_chi
        at_west: Callable[[Point], bool] = lambda p: p[2] < 0.5 and math.dist(p[:2], west[:2]) < 14.0   # noqa: E731
        if not (at_west(start) ^ at_west(target)):
            return via
        x, y, _ = at
        pts = (start, *via, target)
        for k in range(1, len(pts)):
            a, b = pts[k - 1], pts[k]
            if (a[0] - x) * (b[0] - x) > 0 or a[0] == b[0]:
                continue
            yc = a[1] + (b[1] - a[1]) * (x - a[0]) / (b[0] - a[0])
            if yc > y + 0.3 and min(math.dist((x, yc), start[:2]), math.dist((x, yc), target[:2])) >= 5.0:
                break
        else:
            return via
        # a point just south of him, reached (or left) on the 堂西 side of his line by a point beside him, so that
        # going round whoever stands about (the route's work) cannot take the way back past his north
        for dy in (3.0, 4.5, 6.0):
            p = (x, y - dy, 0.0)
            if all(math.dist(o[:2], p[:2]) > self.min_gap * 1.5 for o in others):
                break
        side = (x - 3.0 if west[0] < x else x + 3.0, y, 0.0)
        by = (side, p) if at_west(start) else (p, side)
        return (*via[:k - 1], *by, *via[k - 1:])
