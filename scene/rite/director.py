"""The director: the choreography compiled, once and deterministically, into tracks.

A :class:`Director` walks the sections and steps of the choreography and writes *keyframes* (position and
heading, linearly interpolated) and *events* (posture, holding, role, visibility, an object's state —
stepwise).  It is a composition of parts, each the one owner of its state, which talk through their methods
(none reads or writes another's fields):

* :class:`.people.People` (人) — each actor's place, heading, posture, hands, role, tracks, and when he is free;
* :class:`.places.Places` (位) — where a step's words put someone (no state: the layout and the people's places);
* :class:`.things.Things` (物) — each thing's events and where it lies, and the hand-overs (授受);
* :class:`.counting.Counters` (筭) — how many counters each of the five piles holds;
* :class:`.ways.Ways` (行) — the walks, planned by :mod:`.routes` and timed one after another (whoever was
  timed first goes first, later walkers wait), and whom a walk may pass close to;
* :class:`.record.Record` (記) — the spans of steps and stages, the told sub-steps, announcements, hand-overs;
* :class:`.plain.PlainSteps` — a step of no standard form, acted through the others;
* :class:`.archery.Range` (射) — where the hall has a range, the bows, arrows, 筭 and rounds, made once.

A step whose verb is one of the text's standard forms (a pair going up to the 物, their eight arrows, the 數獲
…) is handed to that form's module in :mod:`.forms`, which acts through the narrow :class:`.forms.base.Acts`;
the director itself keeps only its loop: the time, the section and step being played, the round last
counted and the word one form leaves for a later one (``board``).
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..geometry.layout import Layout, build_layout
from ..geometry.readings import Reading
from . import archery, forms
from . import choreography as chor
from .counting import Counters
from .people import People
from .places import Places
from .plain import PlainSteps
from .record import Record
from .routes import Site
from .shooting import RoundResult, Shot
from .state import SECTION_GAP_S, WALK_M_S, ActorState, ObjectState, StageSpan, StepSpan
from .step_cast import kept, picked, without_absent
from .things import Things
from .ways import Ways

#: the director's parts: each owns its fields and is reached by the others only through its methods
#: (tests/test_director_parts.py); the range (:class:`.archery.Range`) is made once and only read after
PARTS: tuple[type, ...] = (People, Places, Things, Counters, Ways, Record, PlainSteps)


class Director:
    """Compiles the choreography into keyframes and events (one pass, deterministic)."""

    def __init__(self, reading: Reading, choreo: chor.Choreography) -> None:
        self.r = reading
        self.lay: Layout = build_layout(reading, chapter=choreo.chapter)   # the hall of the rite's own chapter
        self.site = Site(self.lay)
        self.c = choreo
        self.speed = WALK_M_S / reading.chi_m          # 尺 per second
        self.min_gap = 0.45 / reading.chi_m     # 尺: a little more than the 0.4 m the audit allows
        self.offstage = (0.0, self.lay["hall.outside_gate"].xyz_chi[1] - 20.0, 0.0)
        self.present = {a.id for a in choreo.actors.values()
                        if a.optional is None or getattr(reading, a.optional)}
        self.people = People()
        self.places = Places(self.lay, self.site, self.people)
        self.things = Things(choreo, self.people)
        for a in choreo.actors.values():
            off = a.start == "offstage" or a.id not in self.present
            self.people.enrol(a.id, self.offstage if off else self.places.at(a.start),
                              0.0 if off else self.places.facing_of(a.start), a.role.split(" ")[0], not off)
        for th in choreo.things.values():
            if th.start.startswith("actor:"):
                events: list[tuple[float, str, Any]] = [(0.0, "held", th.start[6:])]
                self.people.take_up(th.start[6:], th.name, 0.0)
            else:
                events = [(0.0, "at", self.offstage if th.start == "offstage" else self.places.at(th.start))]
            self.things.set_out(th.id, [*events, (0.0, "state", Things.first_state(th))])
        # the range's part (射器, 三番射) only where the hall has a range: 鄉飲酒禮 has no 侯, no bow, no round
        self.range = archery.plug(self.lay, choreo, reading, self.present, self.places.at)
        for oid, o in (self.range.objects if self.range is not None else {}).items():
            self.things.set_out(oid, o.events)          # the things' part's own copies from here on
        self.counters = Counters(self.range.counters if self.range is not None else {},
                                 self.things, self.places, self.people)
        self.ways = Ways(self.lay, self.site, choreo, self.speed, self.min_gap, self.offstage,
                         self.people, self.things, self.counters)
        self.record = Record()
        self.plain = PlainSteps(self.lay, self.site, self.offstage, self.people, self.places, self.things,
                                self.counters, self.ways, self.record)
        self.t = 0.0
        self.duration = 0.0
        self.section = 0                     # what a form may read of its section's 經 (acts.section)
        self._step_now: chor.Step | None = None
        self._acts: list[tuple[str, float, float]] = []
        self.counted: int | None = None          # the round last counted (數獲, 告): whose 勝者 the text means
        self.board: dict[str, Any] = {}                    # word left by one form for a later one
        self.acts = forms.Acts(self)

    # ------------------------------------------------------------------ what the rite reads (the parts')
    @property
    def actors(self) -> Mapping[str, ActorState]:
        return self.people.tracks()

    @property
    def objects(self) -> Mapping[str, ObjectState]:
        return self.things.tracks()

    @property
    def spans(self) -> list[StepSpan]:
        return self.record.spans()

    @property
    def stages(self) -> list[StageSpan]:
        return self.record.stages()

    @property
    def announcements(self) -> list[tuple[float, int, str]]:
        return self.record.announcements()

    @property
    def handovers(self) -> list[tuple[float, float, str, str]]:
        return self.record.handovers()

    @property
    def results(self) -> dict[int, RoundResult]:
        return self.range.results if self.range is not None else {}

    @property
    def round_pairs(self) -> dict[int, list[tuple[str, str]]]:
        return self.range.round_pairs if self.range is not None else {}

    @property
    def demo(self) -> tuple[Shot, ...]:
        return self.range.demo if self.range is not None else ()

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
                last = self.record.step(self.record.told(sec.n, i, step, t0) or [
                    StepSpan(sec.n, i, step.phrase, step.offset, step.who, step.do, t0, end, tuple(self._acts))])
                for entry in self.board.get("crossing", []):
                    entry.setdefault("span", last)
                group_end = max(group_end, end) if step.with_prev else end
            group_end = max(group_end, self._flush())
            end = max(group_end, start + 2.0)
            self.record.stage(StageSpan(sec.n, sec.id, sec.title, sec.phase, start, end,
                                        self.c.passage(sec.n).text[:12]))
            self.t = end + SECTION_GAP_S
        self.duration = self.t
        self.people.hold_all(self.duration)   # hold the last pose to the end

    def part(self, phrase: str, who: tuple[str, ...], t0: float, t1: float, things: tuple[str, ...],
             after: str) -> None:
        """A sub-step of the form being played (:meth:`.record.Record.tell`, in the section's 經)."""
        assert self._step_now is not None            # (only a form, while it plays, tells its sub-steps)
        self.record.tell(self.section, self.c.passage(self.section).text, self._step_now, phrase, who, t0, t1,
                         things, after)

    def _do(self, sec: chor.Section, step: chor.Step, t0: float) -> float:
        form = forms.FORMS.get(step.do)
        if step.do in ("count", "tell_count") and step.round:
            self.counted = step.round            # the round whose sides are now known (勝者 / 不勝者)
        self.section = sec.n
        self._step_now = step
        if form is None:
            end, self._acts = self.plain.play(step, t0, self._won)
            return end
        # a step waits for its actors to be free (a parallel step may still hold one of them)
        t0 = max([t0] + [self.people.free_at(a) for a in step.who])
        end = form(self.acts, step, t0)
        for w in step.who:
            self.people.busy_until(w, end)
        self._acts = [(a, t0, end) for a in step.who]
        return end

    def _resume(self, entry: dict[str, Any], t: float) -> float:
        """A pair that waited (for a pair to cross) goes on; its step's span grows to cover the rest."""
        end: float = entry["resume"](t)
        for a in entry["pair"]:
            self.people.busy_until(a, end)
        k = entry.get("span")
        if k is not None:
            self.record.grow(k, end)
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
