"""The director: the choreography compiled, once and deterministically, into tracks.

A :class:`Director` walks the sections and steps of the choreography, keeping
each actor's place, heading, posture and what he holds (:mod:`.state`), and
writes *keyframes* (position and heading, linearly interpolated) and *events*
(posture, holding, role, visibility, an object's state — stepwise).  A step
whose verb is one of the text's standard forms (a pair going up to the 物,
their eight arrows, the 數獲 …) is handed to that form's module in
:mod:`.forms`, which acts through the narrow :class:`.forms.base.Acts`; the
shooting itself comes from :mod:`.shooting`, seeded by the reading; the things
and their hand-overs (器, 授受) from :mod:`.things`.  Walks are
planned by :mod:`.routes` and timed one after another: whoever was timed first
goes first, later walkers wait.
"""
from __future__ import annotations

import math
from dataclasses import replace
from typing import Any, cast

import numpy as np

from ..geometry.layout import Layout, build_layout
from ..geometry.places import FACING_DEG
from ..geometry.readings import Reading
from . import archery, dress, forms
from . import choreography as chor
from .counting import PILES, TOTAL_COUNTERS, Counters  # noqa: F401  (re-exported)
from .routes import Site, heading_deg
from .shooting import RoundResult
from .state import (  # noqa: F401  (re-exported)
    HAND_Z,
    KNEEL_S,
    POSTURES,
    SECTION_GAP_S,
    SPACING,
    TREAD_S,
    TURN_S,
    WALK_M_S,
    ActorState,
    ObjectState,
    Point,
    StageSpan,
    StepSpan,
    as_tuple,
)
from .step_cast import kept, picked, without_absent
from .things import Things
from .ways import Ways

SISHE_ONE = chor.SISHE_ONE
REACH_CHI = 4.0    # 尺: what a man puts down or takes up is within this of him (the things rule)
RISEN_S = 0.6      # seconds on his feet between a 興 and the next 坐 (卒爵興坐奠爵)


class Director(Things, Ways, Counters):
    """Compiles the choreography into keyframes and events (one pass, deterministic)."""

    def __init__(self, reading: Reading, choreo: chor.Choreography) -> None:
        self.r = reading
        self.lay: Layout = build_layout(reading, chapter=choreo.chapter)   # the hall of the rite's own chapter
        self.site = Site(self.lay)
        self.c = choreo
        self.speed = WALK_M_S / reading.chi_m          # 尺 per second
        self.t = 0.0
        self.spans: list[StepSpan] = []
        self.stages: list[StageSpan] = []
        self.announcements: list[tuple[float, int, str]] = []
        self.handovers: list[tuple[float, float, str, str]] = []
        self.actors: dict[str, ActorState] = {}
        self._cache: dict[str, np.ndarray] = {}
        self.free_at: dict[str, float] = {}
        self._exempt: set[str] = set()     # the other party of a hand-over may come close
        self.min_gap = 0.45 / reading.chi_m     # 尺: a little more than the 0.4 m the audit allows
        self.objects: dict[str, ObjectState] = {}
        self._lying: dict[str, Point | None] = {}        # where each thing lies (None: in someone's hands)
        self.board: dict[str, Any] = {}                    # word left by one form for a later one
        self.parts: list[StepSpan] = []                    # the sub-steps a form has told (Acts.part)
        self.offstage = (0.0, self.lay["hall.outside_gate"].xyz_chi[1] - 20.0, 0.0)
        self.present = {a.id for a in choreo.actors.values()
                        if a.optional is None or getattr(reading, a.optional)}
        for a in choreo.actors.values():
            off = a.start == "offstage" or a.id not in self.present
            pos = self.offstage if off else self._resolve(chor.parse_ref(a.start), None)
            st = ActorState(pos, 0.0 if off else self._facing_of(a.start), role=a.role.split(" ")[0],
                             visible=not off)
            st.keys.append((0.0, *pos, st.heading))
            st.events += [(0.0, "posture", "stand"), (0.0, "holding", ""), (0.0, "role", st.role),
                          (0.0, "visible", not off), (0.0, "say", "")]
            self.actors[a.id] = st
        for th in choreo.things.values():
            o = ObjectState()
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
        # the range's part (射器, 三番射) only where the hall has a range: 鄉飲酒禮 has no 侯, no bow, no round
        self.range = archery.plug(self.lay, choreo, reading, self.present,
                                  lambda place: self._resolve(chor.parse_ref(place), None))
        if self.range is not None:
            self.objects.update(self.range.objects)
        self.counters = self.range.counters if self.range is not None else {}
        self.results: dict[int, RoundResult] = self.range.results if self.range is not None else {}
        self.round_pairs = self.range.round_pairs if self.range is not None else {}
        self.demo = self.range.demo if self.range is not None else ()
        self.counted: int | None = None          # the round last counted (數獲, 告): whose 勝者 the text means
        for oid, o in self.objects.items():          # where each thing lies at the start
            for _, kind, value in o.events:
                if kind in ("at", "held"):
                    self._lying[oid] = tuple(value) if kind == "at" else None
        self.acts = forms.Acts(self)

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
            assert ref.place is not None           # a reference names an actor or a place
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
        if ref.direction2:
            dx, dy = chor.DIRECTIONS[ref.direction2]
            x, y = x + dx * ref.dist2, y + dy * ref.dist2
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

    def _turn(self, aid: str, t: float, heading: float | None) -> float:
        a = self.actors[aid]
        if heading is None or abs(((heading - a.heading + 180) % 360) - 180) < 1:
            return t
        self._key(aid, t, a.pos, a.heading)
        self._key(aid, t + TURN_S, a.pos, heading)
        return t + TURN_S

    def _facing(self, aid: str, facing: str | None) -> float | None:
        if facing is None:
            return None
        if facing in FACING_DEG:
            return FACING_DEG[facing]
        target = self._resolve(chor.parse_ref(facing[len("toward:"):]), aid)
        return heading_deg(self.actors[aid].pos, target)

    # ------------------------------------------------------------------ steps
    def run(self) -> None:
        for sec in self.c.sections:
            start = self.t
            group_end = self.t
            group_start = self.t
            for i, step in enumerate(sec.steps):
                if step.pick is not None:
                    step = picked(step, self.results.get(self.counted) if self.counted is not None else None)
                step = without_absent(step, self.present)
                if not kept(step, self.r, self.present):
                    continue
                if step.do not in ("approach", "pick_arrows"):     # these meet a pair waiting to cross
                    group_end = max(group_end, self._flush())
                t0 = (group_start if step.with_prev else group_end) + step.delay
                if not step.with_prev:
                    group_start = t0 - step.delay
                try:
                    end = self._do(sec, step, t0)
                except (RuntimeError, ValueError, KeyError) as exc:
                    raise chor.ChoreographyError(
                        f"{sec.source_file} §{sec.n} step {i + 1} ({step.phrase}): {exc}") from None
                self.spans += self._parts(sec.n, i, step, t0) or [
                    StepSpan(sec.n, i, step.phrase, step.offset, step.who, step.do, t0, end, tuple(self._acts))]
                for entry in self.board.get("crossing", []):
                    entry.setdefault("span", len(self.spans) - 1)
                group_end = max(group_end, end) if step.with_prev else end
            group_end = max(group_end, self._flush())
            end = max(group_end, start + 2.0)
            self.stages.append(StageSpan(sec.n, sec.id, sec.title, sec.phase, start, end,
                                         self.c.passage(sec.n).text[:12]))
            self.t = end + SECTION_GAP_S
        self.duration = self.t
        for aid, a in self.actors.items():   # hold the last pose to the end
            self._key(aid, self.duration, a.pos, a.heading)

    def _parts(self, n: int, i: int, step: chor.Step, t0: float) -> list[StepSpan]:
        """The sub-steps a form told of its step, as ordinary steps of the section (each its own phrase, people
        and things; in time order, the first from the step's start so that no moment of it is without one)."""
        parts, self.parts = sorted(self.parts, key=lambda p: (p.start_s, p.offset)), []
        out = [StepSpan(n, i, p.phrase, p.offset, p.who, step.do, p.start_s, p.end_s, p.acts, p.things)
               for p in parts]
        if out and out[0].start_s > t0:
            out[0] = replace(out[0], start_s=t0)
        return out

    def part(self, phrase: str, who: tuple[str, ...], t0: float, t1: float, things: tuple[str, ...],
             after: str) -> None:
        """A sub-step of the form being played: its phrase the occurrence in the section's 經 at or after
        ``after`` (the step's own phrase where the 經 has not the words: §42 升飲如初 plays §33's form)."""
        step = self._step_now
        text = self.c.passage(self.section).text
        base = max(text.find(after), 0) if after else 0
        off = text.find(phrase, base)
        if off < 0:
            phrase, off = step.phrase, step.offset
        who = tuple(a for a in who if a)
        self.parts.append(StepSpan(self.section, -1, phrase, off, who, step.do, t0, max(t1, t0),
                                   tuple((a, t0, max(t1, t0)) for a in who), things))

    def _do(self, sec: chor.Section, step: chor.Step, t0: float) -> float:
        form = forms.FORMS.get(step.do)
        if step.do in ("count", "tell_count") and step.round:
            self.counted = step.round            # the round whose sides are now known (勝者 / 不勝者)
        self.section = sec.n                 # what a form may read of its section's 經 (acts.section)
        self._step_now = step
        if form is not None:
            # a step waits for its actors to be free (a parallel step may still hold one of them)
            t0 = max([t0] + [self.free_at.get(a, 0.0) for a in step.who])
            end = form(self.acts, step, t0)
            for w in step.who:
                self.free_at[w] = max(self.free_at.get(w, 0.0), end)
            self._acts = [(a, t0, end) for a in step.who]
            return end
        verb = chor.VERBS[step.do]
        ends = []
        acts: list[tuple[str, float, float]] = []
        self._acts = acts
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
            if step.do in ("hand", "offer") and step.obj and step.to:
                t = self._fetch(aid, t, step)            # 取…授: what he hands, he has first picked up
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
            if step.kneel and self._base_posture(aid) != "sit":
                t = max(t, self._risen_at(aid) + RISEN_S)       # 興坐: up a moment before he kneels again
                self._event(aid, t, "posture", "sit")            # 坐: he kneels, then acts
                t += KNEEL_S
            dur = step.dur if step.dur is not None else verb.dur
            act_posture = "sit" if step.kneel and verb.posture == "stand" else verb.posture
            if step.do == "play" and not step.kneel and self._base_posture(aid) == "stand":
                act_posture = "stand"       # 笙入立于縣中: who stands to play plays standing (the 工 sit: 工坐)
            if dur > 0:
                self._event(aid, t, "posture", act_posture)
                if step.do in ("speak", "order", "reply", "decline", "announce", "call"):
                    self._event(aid, t, "say", step.phrase)
                    self._event(aid, t + dur, "say", "")
            t_act = t
            t += dur
            self._effects(step, aid, t_act, t)
            worn = dress.after(step, lambda: self._won(aid))
            if worn is not None:
                self._event(aid, (t_act + t) / 2, "dress", worn)     # half-way through 袒決遂 / 襲: seen changing
            after = verb.after or (a.posture if a.posture not in ("bow", "salute", "shoot", "walk") else "stand")
            if (verb.after is None and self._base_posture(aid) == "sit") or step.kneel:
                after = "sit"
            if dur > 0 or step.kneel:
                self._event(aid, t, "posture", after)
            if step.rise:                                       # …興
                t += KNEEL_S
                self._event(aid, t, "posture", "stand")
            acts.append((aid, t_act, t_act + dur))
            if step.do == "exit":
                a.visible = False
                self._event(aid, t, "visible", False)
                self._key(aid, t, a.pos, a.heading)
                self._key(aid, t + 0.01, self.offstage, a.heading)
                t += 0.01
            self.free_at[aid] = t
            ends.append(t)
        return max(ends)

    def _resume(self, entry: dict[str, Any], t: float) -> float:
        """A pair that waited (for a pair to cross) goes on; its step's span grows to cover the rest."""
        end: float = entry["resume"](t)
        for a in entry["pair"]:
            self.free_at[a] = max(self.free_at.get(a, 0.0), end)
        k = entry.get("span")
        if k is not None:
            sp = self.spans[k]
            self.spans[k] = StepSpan(sp.section, sp.index, sp.phrase, sp.offset, sp.who, sp.do, sp.start_s,
                                     max(sp.end_s, end), tuple((a, t0, max(t1, end)) for a, t0, t1 in sp.acts))
        return end

    def _flush(self) -> float:
        """Pairs still waiting in front of the stairs, with no pair coming to meet them, go on."""
        end = 0.0
        waiting = self.board.get("crossing") or []
        while waiting:
            entry = waiting.pop(0)
            end = max(end, self._resume(entry, entry["ready"]))
        return end

    def _won(self, aid: str) -> bool | None:
        """Whether ``aid`` is on the winning side of the last round counted: he shot and is not of the losing
        side (None: nothing counted yet, a tie, or he did not shoot)."""
        last = self.results.get(self.counted) if self.counted is not None else None
        if last is None or last.winner is None or aid not in {s.archer for s in last.shots}:
            return None
        return aid not in last.losers

    def _risen_at(self, aid: str) -> float:
        """When ``aid`` last rose from kneeling (−inf if his last change of posture was no 興): a 興 followed at
        once by a 坐 (卒爵興坐奠爵) is a moment on his feet, never a rise of no length."""
        ps = [(t, v) for t, kind, v in self.actors[aid].events if kind == "posture" and v in ("sit", "stand", "walk")]
        sits = [i for i, (_, v) in enumerate(ps) if v == "sit"]
        if sits and sits[-1] + 1 < len(ps):
            return float(ps[sits[-1] + 1][0])
        return -math.inf

    def _base_posture(self, aid: str) -> str:
        for _, kind, value in reversed(self.actors[aid].events):
            if kind == "posture" and value in ("sit", "stand"):
                return cast(str, value)
        return "stand"

    def _effects(self, step: chor.Step, aid: str, t0: float, t1: float) -> None:
        """What a step does to objects and to the other party."""
        do, obj = step.do, step.obj
        if do in ("hand", "offer", "receive") and step.to is not None:
            self.handovers.append((t0 - 0.5, t1 + 0.5, aid, step.to))   # within reach of each other
        if obj is None:
            return
        if obj.startswith("counters."):
            self._counter_act(step, aid, t0, t1)
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
                if oid == "zhong":              # 退中與筭: the 筭 go with the 中
                    for pile in self._piles():
                        self._obj(pile, t0, "held", aid)
        elif do in ("hand", "offer") and step.to is not None:
            for oid in oids:
                self._give(oid, t1, aid, step.to)
        elif do in ("set_down", "lean"):
            a = self.actors[aid]
            h = math.radians(a.heading)
            at = (a.pos[0] + 1.5 * math.sin(h), a.pos[1] + 1.5 * math.cos(h), a.pos[2])
            if step.at is not None and step.at.place and not step.at.direction and step.at.slot is None:
                at = self._resolve(step.at, aid)
            if step.put is not None:                   # 奠爵于薦西: beside him, where the text puts it
                at = self._resolve(step.put, aid)
                if math.dist(at[:2], a.pos[:2]) > REACH_CHI:
                    raise ValueError(f"put {step.put.text} is {math.dist(at[:2], a.pos[:2]):.1f} 尺 from {aid}: "
                                     f"out of reach ({REACH_CHI:g} 尺)")
            for oid in oids:
                self._give(oid, t1, aid, None, at)
            if obj == "zhong" and "筭" in self.actors[aid].holding:   # the 筭 in his hand go down with the 中
                self.actors[aid].holding.remove("筭")
                self._hold_event(aid, t1)
            if obj == "zhong":
                held = [p for p in self._piles() if self._lying.get(p) is None]
                for k, pile in enumerate(held):      # in the 中, and the rest laid beside it (中西)
                    off = 0.0 if pile == "counters.zhong" else -1.5 - 0.8 * k
                    self._obj(pile, t1, "at", (at[0] + off, at[1], at[2]))
            if obj == "zhong" and self.counters["zhong"] == 0 and sum(self.counters.values()) == 0:
                self._load_zhong(t1)
            if obj == "jing":
                # 倚旌于侯中 only where it leans on the 侯 (§44 以旌退: at 堂西 it merely leans there)
                hou = self.lay["target.centre"].xyz_chi
                on_hou = math.dist(at[:2], hou[:2]) < 15.0
                self._obj("jing", t1, "state", ("leaning (倚旌于侯中)" if on_hou else "leaning (倚于堂西)")
                          if do == "lean" else "laid down")
        elif do == "fill" and obj == "zhong":
            self._fill_zhong(t1)
        elif do in ("tie", "untie") and obj == "hou_rope":
            self._obj("hou_rope", t1, "state", "tied (繫左下綱)" if do == "tie" else "untied (說)")
        elif do in ("raise_flag", "lower_flag") and obj == "jing":
            self._obj("jing", t0, "state", "raised (舉旌)" if do == "raise_flag" else "lowered (偃旌)")
