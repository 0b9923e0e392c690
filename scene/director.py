"""The director: the choreography compiled, once and deterministically, into tracks.

A :class:`Director` walks the sections and steps of the choreography, keeping
each actor's place, heading, posture and what he holds, and writes *keyframes*
(position and heading, linearly interpolated) and *events* (posture, holding,
role, visibility, an object's state — stepwise).  Macros (a pair going up to
the 物, their eight arrows, the 數獲 …) are expanded here from the standard
forms of the text; the shooting itself comes from :mod:`scene.shooting`,
seeded by the reading.  Walks are planned by :mod:`scene.routes` and timed one
after another: whoever was timed first goes first, later walkers wait.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Iterable

import numpy as np

from . import choreography as chor
from .layout import Layout, build_layout
from .places import FACING_DEG
from .readings import Reading
from .routes import Site, heading_deg, offset_polyline, subdivide
from .shooting import ARROWS, RoundResult, arrow_path, demonstrate, shoot_round

Point = tuple[float, float, float]

WALK_M_S = 1.1          # an unhurried ceremonial walk
TREAD_S = 0.6           # one 等 of the stairs
TURN_S = 0.35           # turning on the spot at a corner
SPACING = 3.0           # 尺 between people standing side by side
HAND_Z = 3.5            # 尺: height of an object held in the hands
SECTION_GAP_S = 1.0
POSTURES = ("stand", "sit", "bow", "salute", "shoot", "walk")


def _as_tuple(p: Iterable[float]) -> Point:
    x, y, z = p
    return (float(x), float(y), float(z))


@dataclass
class _ActorState:
    pos: Point
    heading: float
    posture: str = "stand"
    holding: list[str] = field(default_factory=list)
    role: str = ""
    visible: bool = True
    keys: list[tuple[float, float, float, float, float]] = field(default_factory=list)   # t x y z heading
    events: list[tuple[float, str, Any]] = field(default_factory=list)                  # t kind value


@dataclass
class _ObjectState:
    events: list[tuple[float, str, Any]] = field(default_factory=list)   # ("at", xyz) ("held", actor) ("path", (ts, xyz)) ("state", s)


@dataclass(frozen=True)
class StepSpan:
    section: int
    index: int
    phrase: str
    offset: int
    who: tuple[str, ...]
    do: str
    start_s: float
    end_s: float


@dataclass(frozen=True)
class StageSpan:
    n: int
    id: str
    title: str
    phase: str
    start_s: float
    end_s: float
    incipit: str


class Director:
    """Compiles the choreography into keyframes and events (one pass, deterministic)."""

    def __init__(self, reading: Reading, choreo: chor.Choreography) -> None:
        self.r = reading
        self.lay: Layout = build_layout(reading)
        self.site = Site(self.lay)
        self.c = choreo
        self.speed = WALK_M_S / reading.chi_m          # 尺 per second
        self.t = 0.0
        self.spans: list[StepSpan] = []
        self.stages: list[StageSpan] = []
        self.announcements: list[tuple[float, int, str]] = []
        self.handovers: list[tuple[float, float, str, str]] = []
        self.actors: dict[str, _ActorState] = {}
        self._cache: dict[str, np.ndarray] = {}
        self.free_at: dict[str, float] = {}
        self._exempt: set[str] = set()     # the other party of a hand-over may come close
        self.min_gap = 0.45 / reading.chi_m     # 尺: a little more than the 0.4 m the audit allows
        self.objects: dict[str, _ObjectState] = {}
        self.offstage = (0.0, self.lay["hall.outside_gate"].xyz_chi[1] - 20.0, 0.0)
        self.present = {a.id for a in choreo.actors.values()
                        if a.optional is None or getattr(reading, a.optional)}
        for a in choreo.actors.values():
            off = a.start == "offstage" or a.id not in self.present
            pos = self.offstage if off else self._resolve(chor.parse_ref(a.start), None)
            st = _ActorState(pos, 0.0 if off else self._facing_of(a.start), role=a.role.split(" ")[0],
                             visible=not off)
            st.keys.append((0.0, *pos, st.heading))
            st.events += [(0.0, "posture", "stand"), (0.0, "holding", ""), (0.0, "role", st.role),
                          (0.0, "visible", not off), (0.0, "say", "")]
            self.actors[a.id] = st
        for th in choreo.things.values():
            o = _ObjectState()
            if th.start.startswith("actor:"):
                o.events.append((0.0, "held", th.start[6:]))
                self.actors[th.start[6:]].holding.append(th.name)
                self._hold_event(th.start[6:], 0.0)
            elif th.start == "offstage":
                o.events.append((0.0, "at", self.offstage))
            else:
                o.events.append((0.0, "at", self._resolve(chor.parse_ref(th.start), None)))
            o.events.append((0.0, "state", self._initial_state(th)))
            self.objects[th.id] = o
        self._make_archery_objects()
        self.results: dict[int, RoundResult] = {}
        self._shoot_rounds()

    # ------------------------------------------------------------------ setup
    def _initial_state(self, th: chor.Thing) -> str:
        return {"hou_rope": "rolled (不繫, 中掩束之)", "jing": "stored"}.get(th.id, "")

    def _make_archery_objects(self) -> None:
        for a in self.c.actors.values():
            # the 司馬 holds a bow to give his orders (§21 執弓) but shoots no arrows
            if not (a.archer or a.id in ("sishe", "xiang")):
                continue
            store = {"bin": "tang.bows_guest", "dafu": "tang.bows_guest", "zhuren": "tang.bows_host",
                     "sishe": "court.pu"}.get(a.id, "court.bows_common")
            base = self._resolve(chor.parse_ref(store), None)
            arrows = [] if a.id == "xiang" else [f"arrow.{a.id}.{n}" for n in range(1, ARROWS + 1)]
            for oid in [f"bow.{a.id}", *arrows]:
                o = _ObjectState()
                o.events += [(0.0, "at", base), (0.0, "state", "stored")]
                self.objects[oid] = o
        for pile in ("zhong", "right", "left", "spare"):
            o = _ObjectState()
            place = {"zhong": "court.zhong", "right": "court.counters_right", "left": "court.counters_left",
                     "spare": "court.counters_spare"}[pile]
            o.events += [(0.0, "at", self._resolve(chor.parse_ref(place), None)), (0.0, "state", "0")]
            self.objects[f"counters.{pile}"] = o
        self.counters = {"zhong": 0, "right": 0, "left": 0, "spare": 0}

    def _kept(self, step: chor.Step) -> bool:
        if step.when is not None and not getattr(self.r, step.when):
            return False
        return all(w in self.present for w in step.who) and (step.to is None or step.to in self.present)

    def _shoot_rounds(self) -> None:
        pairs: dict[int, list[tuple[str, str]]] = {1: [], 2: [], 3: []}
        for sec in self.c.sections:
            for st in sec.steps:
                if st.do == "shoot" and st.round in pairs and self._kept(st) and len(st.who) == 2:
                    pairs[st.round].append((st.who[0], st.who[1]))
        for rnd, ps in pairs.items():
            if ps:
                self.results[rnd] = shoot_round(rnd, ps, self.lay, self.r.seed)
        self.round_pairs = pairs
        self.demo = demonstrate("sishe", self.lay, self.r.seed)

    # ------------------------------------------------------------------ places
    def _facing_of(self, ref: str) -> float:
        r = chor.parse_ref(ref)
        if r.place and self.lay[r.place].heading_deg is not None:
            return self.lay[r.place].heading_deg  # type: ignore[return-value]
        return 0.0

    def _resolve(self, ref: chor.PlaceRef, who: str | None, extra_slot: int = 0) -> Point:
        if ref.actor is not None:
            a = self.actors[ref.actor]
            h = math.radians(a.heading)
            x, y = a.pos[0] + 2.5 * math.sin(h), a.pos[1] + 2.5 * math.cos(h)
        else:
            p = self.lay[ref.place]
            slots = p.extra.get("slots")
            if ref.slot is not None or (slots and extra_slot):
                k = (ref.slot or 0) + extra_slot
                if not slots or k >= len(slots):
                    raise chor.ChoreographyError(f"place {ref.place} has no slot {k}")
                x, y, _ = slots[k]
            else:
                x, y, _ = p.xyz_chi
        if ref.direction:
            dx, dy = chor.DIRECTIONS[ref.direction]
            x, y = x + dx * ref.dist, y + dy * ref.dist
        return (x, y, self.site.surface_z(x, y))

    # ------------------------------------------------------------------ writing
    def _key(self, aid: str, t: float, pos: Point, heading: float) -> None:
        a = self.actors[aid]
        if a.keys and t < a.keys[-1][0] - 1e-9:
            raise RuntimeError(f"{aid}: keyframe goes back in time ({t:.2f} < {a.keys[-1][0]:.2f})")
        a.keys.append((t, *pos, heading))
        a.pos, a.heading = pos, heading

    def _event(self, aid: str, t: float, kind: str, value: Any) -> None:
        self.actors[aid].events.append((t, kind, value))
        if kind == "posture":
            self.actors[aid].posture = value

    def _hold_event(self, aid: str, t: float) -> None:
        counts: dict[str, int] = {}
        for label in self.actors[aid].holding:
            counts[label] = counts.get(label, 0) + 1
        self._event(aid, t, "holding", "、".join(k if n == 1 else f"{k}×{n}" for k, n in counts.items()))

    def _obj(self, oid: str, t: float, kind: str, value: Any) -> None:
        self.objects[oid].events.append((t, kind, value))

    def _turn(self, aid: str, t: float, heading: float | None) -> float:
        a = self.actors[aid]
        if heading is None or abs(((heading - a.heading + 180) % 360) - 180) < 1:
            return t
        self._key(aid, t, a.pos, a.heading)
        self._key(aid, t + TURN_S, a.pos, heading)
        return t + TURN_S

    def _timed(self, aid: str, t: float, path: list[Point]) -> list[tuple[float, Point, float]]:
        """(time, point, heading) along a path walked from t, with turns at corners."""
        heading = self.actors[aid].heading
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
            out.append((t, _as_tuple(q), hdg))
            heading = hdg
        return out

    def _track_arrays(self, aid: str) -> np.ndarray:
        keys = self.actors[aid].keys
        cache = self._cache.get(aid)
        if cache is None or len(cache) != len(keys):
            cache = np.array(keys, dtype=float)
            self._cache[aid] = cache
        return cache

    def _conflict(self, aid: str, timed: list[tuple[float, Point, float]]) -> bool:
        """Would this walk pass within reach of someone (already timed) at the same moment?"""
        ts = np.array([x[0] for x in timed])
        pts = np.array([x[1] for x in timed])
        if ts[-1] - ts[0] < 1e-6:
            return False
        # my walk, then a few seconds standing where I arrive (someone timed earlier may still pass there)
        grid = np.append(np.arange(ts[0] + 0.2, ts[-1], 0.2), np.arange(ts[-1], ts[-1] + 3.0, 0.25))
        me = np.column_stack([np.interp(grid, ts, pts[:, c]) for c in range(3)])
        for other, o in self.actors.items():
            # (someone already gone out was still walking out during my walk: not skipped)
            if other == aid or other in self._exempt:
                continue
            k = self._track_arrays(other)
            i0 = int(np.searchsorted(k[:, 0], ts[0], side="right"))
            if i0 >= len(k) or (k[i0, 0] > grid[-1] and np.array_equal(k[i0, 1:4], k[i0 - 1, 1:4])):
                # he stands still all the while: the route already goes round him, and waiting
                # would not make him move
                continue
            them = np.column_stack([np.interp(grid, k[:, 0], k[:, c]) for c in (1, 2, 3)])
            if (np.einsum("ij,ij->i", me - them, me - them) < self.min_gap ** 2).any():
                return True
        return False

    def _departure(self, aid: str, t: float, path: list[Point]) -> float:
        """When the way is clear: prioritised planning — who was timed first goes first, others
        wait (up to 60 s, then go anyway and the audit will say so)."""
        for _ in range(120):
            if not self._conflict(aid, self._timed(aid, t, path)):
                break
            t += 0.5
        return t

    def _free_spot(self, aid: str, target: Point) -> Point:
        """Nobody stands on someone else's spot: step aside from whoever already stands there
        (except the other party of a hand-over, who may come within reach)."""
        x, y, z = target
        for _ in range(12):
            crowd = [o.pos for k, o in self.actors.items() if k != aid and o.visible and k not in self._exempt
                     and abs(o.pos[2] - z) < 1.0 and math.dist(o.pos[:2], (x, y)) < self.min_gap * 1.3]
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

    def _walk_path(self, aid: str, t: float, path: list[Point]) -> float:
        """Walk a polyline from time t (once the way is clear); returns the arrival time."""
        a = self.actors[aid]
        if len(path) < 2:
            return t
        t = self._departure(aid, t, path)
        self._key(aid, t, a.pos, a.heading)
        self._event(aid, t, "posture", "walk")
        for p, q in zip(path, path[1:]):
            d = math.dist(p[:2], q[:2])
            if d < 1e-6 and abs(p[2] - q[2]) < 1e-6:
                continue
            hdg = heading_deg(p, q) if d > 1e-6 else a.heading
            t = self._turn(aid, t, hdg) if abs(((hdg - a.heading + 180) % 360) - 180) > 20 else t
            climbing = abs(q[2] - p[2]) > 1e-6
            dt = max(d / self.speed, TREAD_S) if climbing else d / self.speed
            t += dt
            self._key(aid, t, _as_tuple(q), hdg)
        self._event(aid, t, "posture", "stand")
        return t

    def _goto(self, aid: str, t: float, target: Point, stairs: str | None = None,
              via: tuple[Point, ...] = ()) -> float:
        a = self.actors[aid]
        if math.dist(a.pos, target) < 0.05 and not via:
            return t
        return self._walk_path(aid, t, self._plan(aid, a.pos, target, stairs, via))

    def _plan(self, aid: str, start: Point, target: Point, stairs: str | None = None,
              via: tuple[Point, ...] = ()) -> list[Point]:
        """The way from start to target, round the building and round everyone standing about."""
        others = tuple(o.pos for k, o in self.actors.items() if k != aid and o.visible)
        return self.site.route(start, target, stairs or self.c.actors[aid].stairs, via, others)

    def _facing(self, aid: str, facing: str | None) -> float | None:
        if facing is None:
            return None
        if facing in FACING_DEG:
            return FACING_DEG[facing]
        target = self._resolve(chor.parse_ref(facing[len("toward:"):]), aid)
        return heading_deg(self.actors[aid].pos, target)

    def _label(self, oid: str) -> str:
        if oid.startswith("bow."):
            return "弓"
        if oid.startswith("arrow."):
            return "矢"
        return self.c.things[oid].name

    def _give(self, oid: str, t: float, src: str | None, dst: str | None, at: Point | None = None) -> None:
        """Move an object between hands or onto a place."""
        label = self._label(oid)
        if src is not None and label in self.actors[src].holding:
            self.actors[src].holding.remove(label)
            self._hold_event(src, t)
        if dst is not None:
            self.actors[dst].holding.append(label)
            self._hold_event(dst, t)
            self._obj(oid, t, "held", dst)
            if oid.startswith(("arrow.", "bow.")):
                self._obj(oid, t, "state", "in hand")
        elif at is not None:
            self._obj(oid, t, "at", at)

    def _objects_of(self, aid: str, obj: str, other: str | None = None) -> list[str]:
        """Object ids of a step's ``obj``; "bow"/"arrows" are the archer's own, whichever of the
        two parties of a hand-over the archer is (有司 hands an archer his bow, §19; back, §43)."""
        if "." in obj and obj.split(".", 1)[0] in ("bow", "arrows"):   # someone else's: arrows.sishe
            obj, owner = obj.split(".", 1)
        elif obj not in ("bow", "arrows"):
            return [obj]
        else:
            owner = aid if f"bow.{aid}" in self.objects or other is None else other
        if f"bow.{owner}" not in self.objects:
            raise chor.ChoreographyError(f"{owner} has no {obj} (not an archer)")
        if obj == "bow":
            return [f"bow.{owner}"]
        return [o for o in (f"arrow.{owner}.{n}" for n in range(1, ARROWS + 1)) if o in self.objects]

    # ------------------------------------------------------------------ steps
    def run(self) -> None:
        for sec in self.c.sections:
            start = self.t
            group_end = self.t
            group_start = self.t
            for i, step in enumerate(sec.steps):
                if not self._kept(step):
                    continue
                t0 = (group_start if step.with_prev else group_end) + step.delay
                if not step.with_prev:
                    group_start = t0 - step.delay
                try:
                    end = self._do(sec, step, t0)
                except (RuntimeError, ValueError, KeyError) as exc:
                    raise chor.ChoreographyError(
                        f"{sec.source_file} §{sec.n} step {i + 1} ({step.phrase}): {exc}") from None
                self.spans.append(StepSpan(sec.n, i, step.phrase, step.offset, step.who, step.do, t0, end))
                group_end = max(group_end, end) if step.with_prev else end
            end = max(group_end, start + 2.0)
            self.stages.append(StageSpan(sec.n, sec.id, sec.title, sec.phase, start, end,
                                         chor.passage(sec.n).text[:12]))
            self.t = end + SECTION_GAP_S
        self.duration = self.t
        for aid, a in self.actors.items():   # hold the last pose to the end
            self._key(aid, self.duration, a.pos, a.heading)

    def _do(self, sec: chor.Section, step: chor.Step, t0: float) -> float:
        macro = getattr(self, f"_macro_{step.do}", None)
        if macro is not None:
            # a step waits for its actors to be free (a parallel step may still hold one of them)
            t0 = max([t0] + [self.free_at.get(a, 0.0) for a in step.who])
            end = macro(step, t0)
            for a in step.who:
                self.free_at[a] = max(self.free_at.get(a, 0.0), end)
            return end
        verb = chor.VERBS[step.do]
        ends = []
        n = len(step.who)
        self._exempt = {step.to} if step.to and step.do in ("hand", "offer", "receive") else set()
        for i, aid in enumerate(step.who):
            t = max(t0 + (0.8 * i if verb.moves and n > 1 else 0.0), self.free_at.get(aid, 0.0))
            a = self.actors[aid]
            if step.do == "enter" and not a.visible and step.at is not None:
                # appear at the gate only when the way in is clear (people enter one by one)
                gate = self._resolve(chor.parse_ref("hall.outside_gate"), aid)
                target = self._free_spot(aid, self._resolve(step.at, aid, extra_slot=i if step.at.slot is not None else 0))
                off = a.pos
                a.pos = gate
                t = self._departure(aid, t, self._plan(aid, gate, target, step.by))
                a.pos = off
                self._key(aid, max(t - 0.01, a.keys[-1][0]), off, a.heading)
                self._key(aid, t, gate, 0.0)
                a.visible = True
                self._event(aid, t, "visible", True)
            if step.role:
                a.role = step.role
                self._event(aid, t, "role", step.role)
            if step.at is not None:
                target = self._resolve(step.at, aid, extra_slot=i if step.at.slot is not None else 0)
                if n > 1 and step.at.slot is None:
                    hd = self._facing(aid, step.facing)
                    hd = 0.0 if hd is None else hd
                    k = i - (n - 1) / 2
                    target = (target[0] + k * SPACING * math.cos(math.radians(hd)),
                              target[1] - k * SPACING * math.sin(math.radians(hd)), target[2])
                    target = (target[0], target[1], self.site.surface_z(target[0], target[1]))
                target = self._free_spot(aid, target)
                via = tuple(self._resolve(v, aid) for v in step.via)
                t = self._goto(aid, t, target, step.by, via)
            elif step.do == "exit":
                t = self._goto(aid, t, self._resolve(chor.parse_ref("hall.outside_gate"), aid))
            elif step.via:
                t = self._goto(aid, t, self.actors[aid].pos, step.by,
                               tuple(self._resolve(v, aid) for v in step.via))
            t = self._turn(aid, t, self._facing(aid, step.facing))
            dur = step.dur if step.dur is not None else verb.dur
            if dur > 0:
                self._event(aid, t, "posture", verb.posture)
                if step.do in ("speak", "order", "reply", "decline", "announce", "call"):
                    self._event(aid, t, "say", step.phrase)
                    self._event(aid, t + dur, "say", "")
            t_act = t
            t += dur
            self._effects(step, aid, t_act, t)
            after = verb.after or (a.posture if a.posture not in ("bow", "salute", "shoot", "walk") else "stand")
            if verb.after is None and self._base_posture(aid) == "sit":
                after = "sit"
            if dur > 0:
                self._event(aid, t, "posture", after)
            if step.do == "exit":
                a.visible = False
                self._event(aid, t, "visible", False)
                self._key(aid, t, a.pos, a.heading)
                self._key(aid, t + 0.01, self.offstage, a.heading)
                t += 0.01
            self.free_at[aid] = t
            ends.append(t)
        return max(ends)

    def _base_posture(self, aid: str) -> str:
        for _, kind, value in reversed(self.actors[aid].events):
            if kind == "posture" and value in ("sit", "stand"):
                return value
        return "stand"

    def _effects(self, step: chor.Step, aid: str, t0: float, t1: float) -> None:
        """What a step does to objects and to the other party."""
        do, obj = step.do, step.obj
        if do in ("hand", "offer", "receive") and step.to is not None:
            self.handovers.append((t0 - 0.5, t1 + 0.5, aid, step.to))   # within reach of each other
        if obj is None:
            return
        oids = self._objects_of(aid, obj, step.to)
        if do == "receive" and step.to is not None:
            for oid in oids:
                self._give(oid, t0, step.to, aid)
        elif do == "take":
            for oid in oids:
                self._give(oid, t0, None, aid)
                if oid == "jing":
                    self._obj(oid, t0, "state", "held")
        elif do in ("hand", "offer") and step.to is not None:
            for oid in oids:
                self._give(oid, t1, aid, step.to)
        elif do in ("set_down", "lean"):
            a = self.actors[aid]
            h = math.radians(a.heading)
            at = (a.pos[0] + 1.5 * math.sin(h), a.pos[1] + 1.5 * math.cos(h), a.pos[2])
            if step.at is not None and step.at.place and not step.at.direction and step.at.slot is None:
                at = self._resolve(step.at, aid)
            for oid in oids:
                self._give(oid, t1, aid, None, at)
            if obj == "zhong" and self.counters["zhong"] == 0 and sum(self.counters.values()) == 0:
                self._load_zhong(t1)
            if obj == "jing":
                self._obj("jing", t1, "state", "leaning (倚旌于侯中)" if do == "lean" else "laid down")
        elif do in ("tie", "untie") and obj == "hou_rope":
            self._obj("hou_rope", t1, "state", "tied (繫左下綱)" if do == "tie" else "untied (說)")
        elif do in ("raise_flag", "lower_flag") and obj == "jing":
            self._obj("jing", t0, "state", "raised (舉旌)" if do == "raise_flag" else "lowered (偃旌)")

    # ------------------------------------------------------------------ macros
    def _wu_targets(self, who: tuple[str, ...]) -> list[Point]:
        ids = ["tang.wu_left"] if len(who) == 1 else ["tang.wu_right", "tang.wu_left"]
        return [self.lay[i].xyz_chi for i in ids]

    def _stairs(self, aid: str, step: chor.Step) -> str:
        return step.by or self.c.actors[aid].stairs

    def _sync(self, ids: Iterable[str], times: dict[str, float]) -> float:
        t = max(times[a] for a in ids)
        for a in ids:
            times[a] = t
        return t

    def _salute(self, aid: str, t: float, heading: float | None = None, dur: float = 1.5) -> float:
        t = self._turn(aid, t, heading)
        self._event(aid, t, "posture", "salute")
        self._event(aid, t + dur, "posture", "stand")
        return t + dur

    def _macro_approach(self, step: chor.Step, t0: float) -> float:
        """§21: 當階揖, 及階揖, 上射先升三等 下射從之中等, 升堂揖, 鉤楹 (序) / 由楹外 (庠), 當物揖, 及物揖, 還."""
        who = step.who
        times = {a: t0 for a in who}
        wu = self._wu_targets(who)
        stairs = {a: self._stairs(a, step) for a in who}
        shared = len(who) == 2 and stairs[who[0]] == stairs[who[1]]
        h = self.lay.hall
        def foot_x(i: int, a: str) -> float:
            # 上射在左 (west): the 上射 on the up lane, the 下射 to his right, clear of the down lane
            lane_x = (-1 if stairs[a] == "west" else 1) * h.stairs_x + self.site.lane(stairs[a], True)
            return lane_x + ((0.0 if i == 0 else 2.5) if shared else 0.0)
        for i, a in enumerate(who):
            via = tuple(self._resolve(v, a) for v in step.via)
            times[a] = self._goto(a, times[a] + 0.8 * i, (foot_x(i, a), -h.stair_run - 4.0, 0.0), stairs[a], via)
        self._sync(who, times)
        for a in who:
            times[a] = self._salute(a, times[a], 0.0)                     # 當階北面揖
        for i, a in enumerate(who):
            times[a] = self._goto(a, times[a], (foot_x(i, a), -h.stair_run - 1.0, 0.0), stairs[a])
        self._sync(who, times)
        for a in who:
            times[a] = self._salute(a, times[a], 0.0)                     # 及階揖
        # up the stairs: 上射 first, the 下射 one 等 empty between them (中等)
        for i, a in enumerate(who):
            pts = self.site.stair_points(stairs[a], up=True, lane=self.site.lane(stairs[a], True))
            if shared and i == 0:
                # 上射升堂少左: at the top he steps aside to the west, clear of the stair, and waits
                hx, hy, hz = pts[-1]
                pts = [*pts, (hx - max(2.0, self.min_gap * 1.1), hy + 1.0, hz)]
            start = times[a] + (2 * TREAD_S + 0.2 if (shared and i == 1) else 0.0)
            self._key(a, start, self.actors[a].pos, self.actors[a].heading)
            times[a] = self._walk_path(a, start, [self.actors[a].pos, *pts])
        self._sync(who, times)
        for a in who:
            times[a] = self._salute(a, times[a], None)                    # 升堂揖
        for i, a in enumerate(who):
            side = "west" if stairs[a] == "west" else "east"
            x, y, z = wu[i]
            stand = (x, y - 3.0, z)
            path = self.site.route(self.actors[a].pos, stand, stairs[a], (self.site.ying_waypoint(side),))
            if shared:   # 並行: side by side, the 上射 on the left
                path = offset_polyline(subdivide(path, 4.0), -1.25 if i == 0 else 1.25)
            times[a] = self._walk_path(a, times[a], path)
        self._sync(who, times)
        for a in who:
            times[a] = self._salute(a, times[a], 0.0)                     # 當物北面揖
        for i, a in enumerate(who):
            self._key(a, times[a], self.actors[a].pos, self.actors[a].heading)
            times[a] += 1.0
            self._key(a, times[a], _as_tuple(wu[i]), 0.0)                 # 左足履物
        self._sync(who, times)
        for a in who:
            times[a] = self._salute(a, times[a], 0.0)                     # 及物揖
            times[a] = self._turn(a, times[a], 180.0)                     # 還, 視侯中
            times[a] += 0.5
        return self._sync(who, times)

    def _macro_shoot(self, step: chor.Step, t0: float) -> float:
        """拾發: the pair's eight arrows (or the 誘射's four), with the 獲者's calls and the counters."""
        rnd = step.round
        if rnd == 0:
            shots = list(self.demo)
        else:
            res = self.results[rnd]
            pair_index = self.round_pairs[rnd].index(tuple(step.who))
            shots = [s for s in res.shots if s.pair == pair_index]
        for a in step.who:
            self._key(a, t0, self.actors[a].pos, self.actors[a].heading)
        if rnd in (2, 3) and self.counters["zhong"] < 8:
            self._load_zhong(t0)
        t = t0 + 1.0
        last_call = t
        for shot in shots:
            a = shot.archer
            t_draw = t if (rnd != 3 or shot.release_s is None) else max(t, t0 + shot.release_s - 2.5)
            self._event(a, t_draw, "posture", "shoot")
            t_rel = t_draw + 2.5
            self._event(a, t_rel + 0.6, "posture", "stand")
            t_land = self._release(a, f"arrow.{a}.{shot.n}", t_rel, shot)
            t = t_rel + 1.2
            if rnd >= 1 and shot.hit:
                last_call = self._call(t_land, shot, rnd)
        if rnd in (2, 3):   # 若有餘筭則反委之，又取中之八筭改實八筭于中
            self._counters(t + 1.0, zhong=8, spare=self.counters["spare"] + self.counters["zhong"] - 8)
        return max(t, last_call) + 1.0

    def _release(self, archer: str, oid: str, t_rel: float, shot) -> float:
        """The arrow's flight; returns when it lands."""
        ts, xyz = arrow_path(shot.start_chi, shot.landing_chi, self.r.chi_m)
        self._obj(oid, t_rel, "path", (t_rel + ts, xyz))
        self._obj(oid, t_rel, "state", "in flight")
        where = "stuck in the 侯" if shot.landing_chi[2] > 0.01 else "on the ground"
        t_land = t_rel + float(ts[-1])
        self._obj(oid, t_land, "state", ("hit (獲) — " if shot.hit else "miss — ") + where)
        a = self.actors[archer]
        if "矢" in a.holding:
            a.holding.remove("矢")
            self._hold_event(archer, t_rel)
        return t_land

    def _call(self, t: float, shot, rnd: int) -> float:
        """獲者坐而獲，舉旌以宮，偃旌以商; 釋獲者 lays a 筭 (rounds 2–3, 上射 right / 下射 left)."""
        hz = "huozhe"
        self._event(hz, t, "posture", "stand")
        self._event(hz, t, "say", "獲")
        self._obj("jing", t, "state", "raised (舉旌以宮)")
        self._event(hz, t + 1.2, "posture", "sit")
        self._event(hz, t + 1.2, "say", "")
        self._obj("jing", t + 1.2, "state", "lowered (偃旌以商)")
        if shot.scored:
            s = "shihuozhe"
            self._event(s, t + 0.3, "posture", "sit")
            self._event(s, t + 0.3, "say", "釋獲")
            self._event(s, t + 1.3, "say", "")
            pile = "right" if shot.side == "right" else "left"
            self._counters(t + 0.8, zhong=self.counters["zhong"] - 1, **{pile: self.counters[pile] + 1})
        return t + 1.2

    def _load_zhong(self, t: float) -> None:
        """§26 坐實八筭于中，橫委其餘于中西: 80 counters (記62 箭籌八十), 8 of them in the 中."""
        total = sum(self.counters.values()) or 80
        self._counters(t, zhong=8, right=self.counters["right"], left=self.counters["left"],
                       spare=total - 8 - self.counters["right"] - self.counters["left"])

    def _counters(self, t: float, **changes: int) -> None:
        for k, v in changes.items():
            if v < 0:
                raise RuntimeError(f"counter pile {k} would go negative at {t:.1f}s")
            self.counters[k] = v
            self._obj(f"counters.{k}", t, "state", str(v))

    def _macro_retire(self, step: chor.Step, t0: float) -> float:
        """§21: 南面揖, 降 (上射 first, 下射 少右 中等), 相左交于階前, 由司馬之南 to his place."""
        who = step.who
        times = {a: t0 for a in who}
        for a in who:
            times[a] = self._salute(a, times[a], 180.0)
        for i, a in enumerate(who):
            st = self._stairs(a, step)
            side = "west" if st == "west" else "east"
            pts = self.site.stair_points(st, up=False, lane=self.site.lane(st, False))
            times[a] = self._goto(a, times[a] + (1.5 * i), pts[0], st, (self.site.ying_waypoint(side),))
            start = times[a] + (2 * TREAD_S if i == 1 else 0.0)
            self._key(a, start, self.actors[a].pos, self.actors[a].heading)
            times[a] = self._walk_path(a, start, pts)
            # step aside from the foot, away from the up lane, before going on (相左交于階前)
            away = -1 if self.site.lane(st, False) < 0 else 1
            foot = self.actors[a].pos
            times[a] = self._walk_path(a, times[a], [foot, (foot[0] + away * (3.5 + 2.5 * i), foot[1] - 1.5, 0.0)])
        for i, a in enumerate(who):
            target = (self._resolve(step.at, a, extra_slot=i if step.at.slot is not None else 0)
                      if step.at is not None else self.actors[a].pos)
            via = self._pass_by(step.via, a, target, extra=SPACING * i)
            times[a] = self._goto(a, times[a], self._free_spot(a, target), self._stairs(a, step), via)
            times[a] = self._turn(a, times[a], self._facing(a, step.facing))
        return max(times.values())

    def _pass_by(self, refs: tuple[chor.PlaceRef, ...], aid: str, target: Point,
                  extra: float = 0.0) -> tuple[Point, ...]:
        """Waypoints for 'pass south of X' (由司馬之南): go by both south corners of X in the
        direction of travel, so the way there and the way back do not meet head on."""
        pts: list[Point] = []
        start = self.actors[aid].pos
        for ref in refs:
            x, y, z = self._resolve(ref, aid)
            if ref.direction == "南":
                y -= extra
                east_first = target[0] < start[0]
                pair = [(x + 2.0, y, z), (x - 2.0, y, z)]
                pts += pair if east_first else pair[::-1]
            else:
                pts.append((x, y, z))
        # a waypoint is no place to brush past someone standing there
        return tuple(self._free_spot(aid, p) for p in pts)

    def _macro_collect_arrows(self, step: chor.Step, t0: float) -> float:
        """§22: the 弟子 fetch every arrow from the range and lay them on the 楅 (北括)."""
        landed = [oid for oid, o in self.objects.items() if oid.startswith("arrow.") and _last_state(o).startswith(("hit", "miss"))]
        who = step.who
        hou = self.lay["target.centre"].xyz_chi
        times = {}
        for i, a in enumerate(who):
            spot = (hou[0] + (i - (len(who) - 1) / 2) * 8.0, hou[1] + 4.0, 0.0)
            times[a] = self._goto(a, t0 + 0.8 * i, spot)
        mine = {a: landed[i::len(who)] for i, a in enumerate(who)}
        for a in who:
            for oid in mine[a]:
                self._obj(oid, times[a] + 3.0, "held", a)
                self._obj(oid, times[a] + 3.0, "state", "carried")
            self.actors[a].holding.append("矢")
            self._hold_event(a, times[a] + 3.0)
            times[a] += 6.0
        bi = self._resolve(step.at or chor.parse_ref("court.bi"), None)
        n_on = 0
        for i, a in enumerate(who):
            stand = (bi[0] + (i - (len(who) - 1) / 2) * SPACING, bi[1] + 2.0, 0.0)
            times[a] = self._goto(a, times[a], stand)
            times[a] = self._turn(a, times[a], 180.0)
            self._event(a, times[a], "posture", "sit")
            for oid in mine[a]:
                x = bi[0] - 1.3 + 2.6 * (n_on % 24) / 23
                self._obj(oid, times[a] + 1.5, "at", (x, bi[1], bi[2] + 0.3))
                self._obj(oid, times[a] + 1.5, "state", "on the 楅 (北括)")
                n_on += 1
            self.actors[a].holding.remove("矢")
            self._hold_event(a, times[a] + 1.5)
            self._event(a, times[a] + 2.0, "posture", "stand")
            times[a] += 2.0
            times[a] = self._goto(a, times[a], (stand[0], stand[1] + 4.0, 0.0))
        return max(times.values())

    def _macro_pick_arrows(self, step: chor.Step, t0: float) -> float:
        """§24: 當楅北面揖, 及楅揖, 上射東面 下射西面, each 進坐 takes one arrow in turn (拾), 反位."""
        who = step.who
        bi = self.lay["court.bi"].xyz_chi
        times = {a: t0 for a in who}
        for i, a in enumerate(who):
            dx = (-1.25 if i == 0 else 1.25) if len(who) == 2 else 0.0
            times[a] = self._goto(a, times[a], (bi[0] + dx, bi[1] - 4.0, 0.0))
        self._sync(who, times)
        for a in who:
            times[a] = self._salute(a, times[a], 0.0)
        for i, a in enumerate(who):
            dx = -2.5 if i == 0 else 2.5
            times[a] = self._goto(a, times[a], (bi[0] + dx, bi[1], 0.0))
            times[a] = self._turn(a, times[a], 90.0 if i == 0 else 270.0)
        t = self._sync(who, times)
        for n in range(1, ARROWS + 1):
            for a in who:
                self._event(a, t, "posture", "sit")
                oid = f"arrow.{a}.{n}"
                self._obj(oid, t + 1.0, "held", a)
                self._obj(oid, t + 1.0, "state", "in hand")
                self.actors[a].holding.append("矢")
                self._hold_event(a, t + 1.0)
                self._event(a, t + 1.8, "posture", "stand")
                t += 2.0
        for a in who:
            times[a] = t
        for i, a in enumerate(who):
            if step.at is not None:
                target = self._resolve(step.at, a, extra_slot=i if step.at.slot is not None else 0)
                via = tuple(self._resolve(v, a) for v in step.via)
                times[a] = self._goto(a, times[a] + 0.8 * i, self._free_spot(a, target), None, via)
            times[a] = self._turn(a, times[a], self._facing(a, step.facing))
        return max(times.values())

    def _macro_count(self, step: chor.Step, t0: float) -> float:
        """§32: count the right pile then the left in 純 and 奇, go up to the top step and announce."""
        a = step.who[0]
        rnd = step.round
        res = self.results.get(rnd)
        t = t0
        self._event(a, t, "posture", "sit")
        right, left = self.counters["right"], self.counters["left"]
        t += 2.0 + 0.6 * (right // 2 + right % 2)
        here = self.actors[a].pos
        t = self._goto(a, t, (here[0], here[1] + 1.5, here[2]))
        self._event(a, t, "posture", "sit")
        t += 2.0 + 0.6 * (left // 2 + left % 2)
        text = res.announcement if res is not None else ""
        top = self.site.stair_points("west", up=True, lane=self.site.lane("west", True))[-2]     # 盡階不升堂: the top 等
        t = self._goto(a, t, top, "west")
        t = self._turn(a, t, 0.0)
        self._event(a, t, "say", text)
        self.announcements.append((t, rnd, text))
        t += 4.0
        self._event(a, t, "say", "")
        t = self._goto(a, t, here, "west")
        t = self._turn(a, t, 90.0)
        self._event(a, t, "posture", "sit")
        self._counters(t + 1.0, right=0, left=0, spare=self.counters["spare"] + right + left)
        self._event(a, t + 2.0, "posture", "stand")
        return t + 2.0

    def _macro_forfeit(self, step: chor.Step, t0: float) -> float:
        """§33: each pair with a loser goes up; the loser drinks the 觶 at the 豐 (賓/主人/大夫 at 西階上)."""
        res = self.results.get(step.round)
        losers = set(res.losers) if res is not None else set()
        t = t0
        who = list(step.who)
        pairs = [tuple(who[i:i + 2]) for i in range(0, len(who) - 1, 2)]
        feng = self.lay["tang.feng"].xyz_chi
        for pair in pairs:
            loser = next((a for a in pair if a in losers), None)
            if loser is None:
                continue
            if loser in ("bin", "zhuren", "dafu"):
                t = self._forfeit_notable(loser, t)
                continue
            winner = pair[0] if pair[1] == loser else pair[1]
            if winner in ("bin", "zhuren", "dafu"):
                # 若大夫之耦不勝則亦執弛弓特升飲: the partner goes up alone; the 大夫 keeps his mat
                pair = (loser,)
            home = {a: self.actors[a].pos for a in pair}
            if len(pair) == 2:
                self._event(winner, t, "holding", "張弓")      # 勝者執張弓
            self._event(loser, t, "holding", "弛弓")           # 不勝者執弛弓
            times = {a: t for a in pair}
            h = self.lay.hall
            up_lane = -h.stairs_x + self.site.lane("west", True)
            order = (winner, loser) if len(pair) == 2 else (loser,)
            for k, a in enumerate(order):   # the winner on the up lane, the loser at his right
                times[a] = self._goto(a, times[a], self._free_spot(a, (up_lane + 2.5 * k, -h.stair_run - 1.0, 0.0)),
                                      "west")
            self._sync(pair, times)
            for k, a in enumerate(order):                               # 勝者先升
                st = self.site.stair_points("west", up=True, lane=self.site.lane("west", True))
                start = times[a] + (2 * TREAD_S + 0.2) * k
                self._key(a, start, self.actors[a].pos, self.actors[a].heading)
                times[a] = self._walk_path(a, start, [self.actors[a].pos, *st])
            if len(pair) == 2:
                wp = self.actors[winner].pos
                times[winner] = self._goto(winner, times[winner], (wp[0] + 2.5, wp[1] + 1.0, wp[2]))   # 少右
            times[loser] = self._goto(loser, times[loser], (feng[0], feng[1] - 2.5, feng[2]), "west")
            tl = self._turn(loser, times[loser], 0.0)
            self._event(loser, tl, "posture", "sit")
            self._give("zhi_fa", tl + 1.0, None, loser)
            self._event(loser, tl + 1.5, "posture", "stand")
            self._event(loser, tl + 2.5, "posture", "stand")
            self._event(loser, tl + 2.5, "say", "")
            self._event(loser, tl + 5.0, "posture", "sit")
            self._give("zhi_fa", tl + 5.5, loser, None, (feng[0], feng[1], feng[2] + 0.6))
            self._event(loser, tl + 6.0, "posture", "stand")
            times[loser] = tl + 6.5
            down = order[::-1]                                          # 不勝者先降
            for a in down:
                times[a] = max(times[a], times[loser])
            for k, a in enumerate(down):
                head = self.site.stair_points("west", up=False, lane=self.site.lane("west", False))
                times[a] = self._goto(a, times[a] + 1.5 * k, head[0], "west")
                times[a] = self._walk_path(a, times[a] + (2 * TREAD_S) * k, head)
            for k, a in enumerate(down):   # back by 司馬之南, one after the other
                via = self._pass_by((chor.parse_ref("pos.sima@南4"),), a, home[a], extra=SPACING * k)
                times[a] = self._goto(a, times[a] + 1.0 * k, self._free_spot(a, home[a]), "west", via)
                times[a] = self._turn(a, times[a], 90.0)
            t = max(times.values()) + 0.5
        return t

    def _forfeit_notable(self, loser: str, t: float) -> float:
        """賓/主人/大夫 不勝: 執爵者 brings the filled 觶 to his mat; he drinks at 西階上 and returns."""
        z = "zhijue"
        mat = self.actors[loser].pos
        t = self._goto(z, t, (mat[0], mat[1] - 3.0, mat[2]), "west")
        t = self._turn(z, t, 0.0)
        self.handovers.append((t - 0.5, t + 2.5, z, loser))
        self._give("zhi_fa", t + 1.0, None, loser)
        t += 2.0
        top = self.lay["hall.west_steps_top"].xyz_chi
        tz = self._goto(z, t, (top[0] + 3.0, top[1] + 2.0, top[2]), "west")
        t = self._goto(loser, t, top, self.c.actors[loser].stairs)
        t = self._turn(loser, t, 0.0)
        self._event(loser, t, "posture", "stand")
        t += 3.0
        self.handovers.append((t - 0.5, t + 2.5, z, loser))
        self._give("zhi_fa", t + 1.0, loser, z)
        t = max(t + 2.0, tz)
        t = self._goto(loser, t, mat, self.c.actors[loser].stairs)
        t = self._turn(loser, t, 180.0)
        return t


def _last_state(o: _ObjectState) -> str:
    for _, kind, value in reversed(o.events):
        if kind == "state":
            return value
    return ""
