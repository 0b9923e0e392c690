"""The things of the rite (器: 弓, 矢, 筭, 中, 旌 …) and their passing from hand to hand (授受): where each thing
lies or who holds it, what a step's ``obj`` names, and the giver who first goes and takes up what he hands.  A
part of :class:`.director.Director` (its things, kept apart); the archers' bows and arrows and the 80 筭 are set
out by the range's part, :mod:`.archery`, where the hall has a range."""
from __future__ import annotations

import math
from typing import Any

from . import choreography as chor
from .routes import heading_deg
from .shooting import ARROWS
from .state import DirectorState, Point

SISHE_ONE = chor.SISHE_ONE


class Things(DirectorState):
    """The director's things and their hand-overs (mixed into :class:`.director.Director`, whose state it uses)."""

    def _initial_state(self, th: chor.Thing) -> str:
        return {"hou_rope": "rolled (不繫, 中掩束之)", "jing": "stored"}.get(th.id, "")

    def _obj(self, oid: str, t: float, kind: str, value: Any) -> None:
        self.objects[oid].events.append((t, kind, value))
        if kind == "at":
            self._lying[oid] = tuple(value)
        elif kind in ("held", "path"):
            self._lying[oid] = None if kind == "held" else tuple(value[1][-1])

    def _label(self, oid: str) -> str:
        if oid.startswith("bow."):
            return "弓"
        if oid.startswith("arrow."):
            return "矢"
        if oid.startswith("counters."):
            return "筭"
        return self.c.things[oid].name

    def _give(self, oid: str, t: float, src: str | None, dst: str | None, at: Point | None = None) -> None:
        """Move an object between hands or onto a place."""
        label = self._label(oid)
        held_by = self.objects[oid].holder() if oid in self.objects else None
        if dst is not None and held_by == dst:
            self._obj(oid, t, "held", dst)  # already in his hands: taken up again, not counted twice
            return
        if src is None and held_by in self.actors:
            src = held_by               # taken from whoever holds it (the 司射 takes his arrows from the 有司)
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
            if self.objects[oid].last_state() == "in hand":      # put down: no longer 'in hand'
                self._obj(oid, t, "state", "laid down")

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

    def _fetch(self, aid: str, t: float, step: chor.Step) -> float:
        """The giver of a hand-over goes and takes up, from where it lies, what he does not hold yet."""
        assert step.obj is not None             # (the director fetches only for a step that hands a thing)
        for oid in self._objects_of(aid, step.obj, step.to):
            if self._label(oid) in self.actors[aid].holding and self._lying.get(oid) is None:
                continue
            lying = self._lying.get(oid)
            if lying is None:
                continue                                  # in someone else's hands: his to give
            x, y, z = lying
            a = self.actors[aid]
            d = math.dist(a.pos[:2], (x, y))
            if d > 2.5:
                ux, uy = (a.pos[0] - x) / d, (a.pos[1] - y) / d
                t = self._goto(aid, t, self._free_spot(aid, (x + 1.8 * ux, y + 1.8 * uy, self.site.surface_z(
                    x + 1.8 * ux, y + 1.8 * uy))))
            t = self._turn(aid, t, heading_deg(self.actors[aid].pos, (x, y)))
            self._give(oid, t + 0.5, None, aid)
            t += 1.0
        return t
