"""A plain step (one of no standard form: 入, 升, 拜, 授, 受, 奠 …) acted by each of its people in turn: he enters
or walks to where the step puts him, turns, kneels if it says so, acts for the verb's time, and what he does
to the things (器) and to the other party follows.  A part of :class:`.director.Director` with no state of
its own: it acts through the people's, the things', the 筭's and the walking parts' methods."""
from __future__ import annotations

import math
from collections.abc import Callable
from functools import partial

from ..geometry.layout import Layout
from . import choreography as chor
from . import dress
from .counting import Counters
from .people import People
from .places import Places
from .record import Record
from .routes import Site, heading_deg
from .state import KNEEL_S, SPACING, Point
from .things import Things
from .ways import Ways

REACH_CHI = 4.0    # 尺: what a man puts down or takes up is within this of him (the things rule)
RISEN_S = 0.6      # seconds on his feet between a 興 and the next 坐 (卒爵興坐奠爵)
_SAYING = ("speak", "order", "reply", "decline", "announce", "call")


class PlainSteps:
    """常步 — the steps the data spells out act by act (a form's steps are :mod:`.forms`')."""

    def __init__(self, lay: Layout, site: Site, offstage: Point, people: People, places: Places, things: Things,
                 counters: Counters, ways: Ways, record: Record) -> None:
        self.lay = lay
        self.site = site
        self.offstage = offstage
        self.people = people
        self.places = places
        self.things = things
        self.counters = counters
        self.ways = ways
        self.record = record

    def play(self, step: chor.Step, t0: float, won: Callable[[str], bool | None]
             ) -> tuple[float, list[tuple[str, float, float]]]:
        """Act ``step`` from t0 (each actor once he is free); when it ends, and each one's act (who, start,
        end).  ``won(aid)``: whether he is of the winning side of the round last counted (his dress after)."""
        people, places, ways = self.people, self.places, self.ways
        verb = chor.VERBS[step.do]
        ends = []
        acts: list[tuple[str, float, float]] = []
        n = len(step.who)
        ways.exempt(frozenset({step.to}) if step.to and step.do in ("hand", "offer", "receive") else frozenset())
        for i, aid in enumerate(step.who):
            t = max(t0 + (0.8 * i if verb.moves and n > 1 else 0.0), people.free_at(aid))
            slot = i if step.at is not None and step.at.slot is not None else 0
            if step.do == "enter" and not people.visible(aid) and step.at is not None:
                # appear at the gate only when the way in is clear (people enter one by one)
                gate = places.at("hall.outside_gate")
                target = ways.free_spot(aid, places.resolve(step.at, aid, extra_slot=slot))
                off = people.pos(aid)
                t = ways.departure(aid, t, ways.plan(aid, gate, target, step.by))
                people.key(aid, max(t - 0.01, people.last_key_t(aid)), off, people.heading(aid))
                people.key(aid, t, gate, 0.0)
                people.appear(aid, t)
            if step.role:
                people.cast_as(aid, t, step.role)
            if step.do in ("hand", "offer") and step.obj and step.to:
                t = self._fetch(aid, t, step)            # 取…授: what he hands, he has first picked up
            if step.at is not None:
                target = places.resolve(step.at, aid, extra_slot=slot)
                if n > 1 and step.at.slot is None:
                    hd = places.facing(aid, step.facing)
                    hd = 0.0 if hd is None else hd
                    k = i - (n - 1) / 2
                    target = (target[0] + k * SPACING * math.cos(math.radians(hd)),
                              target[1] - k * SPACING * math.sin(math.radians(hd)), target[2])
                    target = (target[0], target[1], self.site.surface_z(target[0], target[1]))
                target = ways.free_spot(aid, target)
                via = tuple(places.resolve(v, aid) for v in step.via)
                t = ways.goto(aid, t, target, step.by, via)
            elif step.do == "exit":
                t = ways.goto(aid, t, places.at("hall.outside_gate"))
            elif step.via:
                t = ways.goto(aid, t, people.pos(aid), step.by, tuple(places.resolve(v, aid) for v in step.via))
            t = people.turn(aid, t, places.facing(aid, step.facing))
            if step.kneel and people.base_posture(aid) != "sit":
                t = max(t, people.risen_at(aid) + RISEN_S)       # 興坐: up a moment before he kneels again
                people.event(aid, t, "posture", "sit")            # 坐: he kneels, then acts
                t += KNEEL_S
            dur = step.dur if step.dur is not None else verb.dur
            act_posture = "sit" if step.kneel and verb.posture == "stand" else verb.posture
            if step.do == "play" and not step.kneel and people.base_posture(aid) == "stand":
                act_posture = "stand"       # 笙入立于縣中: who stands to play plays standing (the 工 sit: 工坐)
            if dur > 0:
                people.event(aid, t, "posture", act_posture)
                if step.do in _SAYING:
                    people.event(aid, t, "say", step.phrase)
                    people.event(aid, t + dur, "say", "")
            t_act = t
            t += dur
            self._effects(step, aid, t_act, t)
            worn = dress.after(step, partial(won, aid))
            if worn is not None:
                people.event(aid, (t_act + t) / 2, "dress", worn)     # half-way through 袒決遂 / 襲: seen changing
            now = people.posture(aid)
            after = verb.after or (now if now not in ("bow", "salute", "shoot", "walk") else "stand")
            if (verb.after is None and people.base_posture(aid) == "sit") or step.kneel:
                after = "sit"
            if dur > 0 or step.kneel:
                people.event(aid, t, "posture", after)
            if step.rise:                                       # …興
                t += KNEEL_S
                people.event(aid, t, "posture", "stand")
            acts.append((aid, t_act, t_act + dur))
            if step.do == "exit":
                people.leave(aid, t, self.offstage)
                t += 0.01
            people.busy_until(aid, t)
            ends.append(t)
        return max(ends), acts

    def _fetch(self, aid: str, t: float, step: chor.Step) -> float:
        """The giver of a hand-over goes and takes up, from where it lies, what he does not hold yet."""
        assert step.obj is not None             # (the director fetches only for a step that hands a thing)
        things, people = self.things, self.people
        for oid in things.objects_of(aid, step.obj, step.to):
            lying = things.lying_at(oid)
            if lying is None:
                continue                                  # in his hands already, or someone else's: his to give
            x, y, z = lying
            here = people.pos(aid)
            d = math.dist(here[:2], (x, y))
            if d > 2.5:
                ux, uy = (here[0] - x) / d, (here[1] - y) / d
                t = self.ways.goto(aid, t, self.ways.free_spot(aid, (x + 1.8 * ux, y + 1.8 * uy, self.site.surface_z(
                    x + 1.8 * ux, y + 1.8 * uy))))
            t = people.turn(aid, t, heading_deg(people.pos(aid), (x, y)))
            things.give(oid, t + 0.5, None, aid)
            t += 1.0
        return t

    def _effects(self, step: chor.Step, aid: str, t0: float, t1: float) -> None:
        """What a step does to objects and to the other party."""
        things, counters = self.things, self.counters
        do, obj = step.do, step.obj
        if do in ("hand", "offer", "receive") and step.to is not None:
            self.record.handover((t0 - 0.5, t1 + 0.5, aid, step.to))   # within reach of each other
        if obj is None:
            return
        if obj.startswith("counters."):
            counters.act(step, aid, t0, t1)
            return
        oids = things.objects_of(aid, obj, step.to)
        if do == "receive" and step.to is not None:
            for oid in oids:
                things.give(oid, t0, step.to, aid)
        elif do == "take":
            for oid in oids:
                things.give(oid, t0, None, aid)
                if oid == "jing":
                    things.obj(oid, t0, "state", "held")
                if oid == "zhong":              # 退中與筭: the 筭 go with the 中
                    for pile in counters.piles():
                        things.obj(pile, t0, "held", aid)
        elif do in ("hand", "offer") and step.to is not None:
            for oid in oids:
                things.give(oid, t1, aid, step.to)
        elif do in ("set_down", "lean"):
            self._set_down(step, aid, oids, t1)
        elif do == "fill" and obj == "zhong":
            counters.fill_zhong(t1)
        elif do in ("tie", "untie") and obj == "hou_rope":
            things.obj("hou_rope", t1, "state", "tied (繫左下綱)" if do == "tie" else "untied (說)")
        elif do in ("raise_flag", "lower_flag") and obj == "jing":
            things.obj("jing", t0, "state", "raised (舉旌)" if do == "raise_flag" else "lowered (偃旌)")

    def _set_down(self, step: chor.Step, aid: str, oids: list[str], t1: float) -> None:
        """奠, 委, 倚: what he holds goes down before him, or where the text puts it (within his reach)."""
        things, counters, obj = self.things, self.counters, step.obj
        here, h = self.people.pos(aid), math.radians(self.people.heading(aid))
        at = (here[0] + 1.5 * math.sin(h), here[1] + 1.5 * math.cos(h), here[2])
        if step.at is not None and step.at.place and not step.at.direction and step.at.slot is None:
            at = self.places.resolve(step.at, aid)
        if step.put is not None:                   # 奠爵于薦西: beside him, where the text puts it
            at = self.places.resolve(step.put, aid)
            if math.dist(at[:2], here[:2]) > REACH_CHI:
                raise ValueError(f"put {step.put.text} is {math.dist(at[:2], here[:2]):.1f} 尺 from {aid}: "
                                 f"out of reach ({REACH_CHI:g} 尺)")
        for oid in oids:
            things.give(oid, t1, aid, None, at)
        if obj == "zhong":
            self.people.put_down(aid, "筭", t1)      # the 筭 in his hand go down with the 中
            held = [p for p in counters.piles() if things.lying_at(p) is None]
            for k, pile in enumerate(held):      # in the 中, and the rest laid beside it (中西)
                off = 0.0 if pile == "counters.zhong" else -1.5 - 0.8 * k
                things.obj(pile, t1, "at", (at[0] + off, at[1], at[2]))
            if counters.count("zhong") == 0 and counters.total() == 0:
                counters.load_zhong(t1)
        if obj == "jing":
            # 倚旌于侯中 only where it leans on the 侯 (§44 以旌退: at 堂西 it merely leans there)
            hou = self.lay["target.centre"].xyz_chi
            on_hou = math.dist(at[:2], hou[:2]) < 15.0
            things.obj("jing", t1, "state", ("leaning (倚旌于侯中)" if on_hou else "leaning (倚于堂西)")
                       if step.do == "lean" else "laid down")
