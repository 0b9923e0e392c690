"""The things of the rite (器: 弓, 矢, 筭, 中, 旌 …) and their passing from hand to hand (授受): where each thing
lies or who holds it, each one's events, and what a step's ``obj`` names.  A part of
:class:`.director.Director` that owns the things alone; what a man's hands show it tells
:class:`.people.People`.  The archers' bows and arrows and the 80 筭 are set out by the range's part,
:mod:`.archery`, where the hall has a range: this part takes them over (copies: the range keeps what it made)."""
from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from . import choreography as chor
from .people import People
from .shooting import ARROWS
from .state import ObjectState, Point

SISHE_ONE = chor.SISHE_ONE
#: the state a thing starts in, where it has one (the 侯's rope rolled up, the 旌 stored)
_FIRST_STATE = {"hou_rope": "rolled (不繫, 中掩束之)", "jing": "stored"}


class Things:
    """物 — each thing's events (:class:`.state.ObjectState`) and where it lies, written only here."""

    def __init__(self, choreo: chor.Choreography, people: People) -> None:
        self.names = {tid: th.name for tid, th in choreo.things.items()}
        self.people = people
        self._objects: dict[str, ObjectState] = {}
        self._lying: dict[str, Point | None] = {}        # where each thing lies (None: in someone's hands)

    def set_out(self, oid: str, events: list[tuple[float, str, Any]]) -> None:
        """A thing as the rite finds it (its first events: where it lies or who holds it, its state)."""
        self._objects[oid] = ObjectState(list(events))
        for _, kind, value in events:
            if kind in ("at", "held"):
                self._lying[oid] = tuple(value) if kind == "at" else None

    @staticmethod
    def first_state(th: chor.Thing) -> str:
        return _FIRST_STATE.get(th.id, "")

    # ------------------------------------------------------------------ asked
    def tracks(self) -> Mapping[str, ObjectState]:
        """Every thing's events, to read (the compiled rite's, the forms' few reads)."""
        return MappingProxyType(self._objects)

    def has(self, oid: str) -> bool:
        return oid in self._objects

    def ids(self, prefix: str = "") -> list[str]:
        return [oid for oid in self._objects if oid.startswith(prefix)]

    def state_of(self, oid: str) -> str:
        return self._objects[oid].last_state()

    def lying_at(self, oid: str) -> Point | None:
        """Where it lies (None: in someone's hands, or no such thing)."""
        return self._lying.get(oid)

    def label(self, oid: str) -> str:
        if oid.startswith("bow."):
            return "弓"
        if oid.startswith("arrow."):
            return "矢"
        if oid.startswith("counters."):
            return "筭"
        return self.names[oid]

    def objects_of(self, aid: str, obj: str, other: str | None = None) -> list[str]:
        """Object ids of a step's ``obj``; "bow"/"arrows" are the archer's own, whichever of the
        two parties of a hand-over the archer is (有司 hands an archer his bow, §19; back, §43)."""
        if "." in obj and obj.split(".", 1)[0] in ("bow", "arrows"):   # someone else's: arrows.sishe
            obj, owner = obj.split(".", 1)
        elif obj not in ("bow", "arrows"):
            return [obj]
        else:
            owner = aid if f"bow.{aid}" in self._objects or other is None else other
        if f"bow.{owner}" not in self._objects:
            raise chor.ChoreographyError(f"{owner} has no {obj} (not an archer)")
        if obj == "bow":
            return [f"bow.{owner}"]
        return [o for o in (f"arrow.{owner}.{n}" for n in range(1, ARROWS + 1)) if o in self._objects]

    # ------------------------------------------------------------------ told
    def obj(self, oid: str, t: float, kind: str, value: Any) -> None:
        """An event of a thing: ("at", xyz), ("held", actor), ("path", (ts, xyz)), ("state", text)."""
        self._objects[oid].events.append((t, kind, value))
        if kind == "at":
            self._lying[oid] = tuple(value)
        elif kind in ("held", "path"):
            self._lying[oid] = None if kind == "held" else tuple(value[1][-1])

    def give(self, oid: str, t: float, src: str | None, dst: str | None, at: Point | None = None) -> None:
        """Move an object between hands or onto a place."""
        label = self.label(oid)
        held_by = self._objects[oid].holder() if oid in self._objects else None
        if dst is not None and held_by == dst:
            self.obj(oid, t, "held", dst)  # already in his hands: taken up again, not counted twice
            return
        if src is None and held_by is not None and self.people.has(held_by):
            src = held_by               # taken from whoever holds it (the 司射 takes his arrows from the 有司)
        if src is not None:
            self.people.put_down(src, label, t)
        if dst is not None:
            self.people.take_up(dst, label, t)
            self.obj(oid, t, "held", dst)
            if oid.startswith(("arrow.", "bow.")):
                self.obj(oid, t, "state", "in hand")
        elif at is not None:
            self.obj(oid, t, "at", at)
            if self._objects[oid].last_state() == "in hand":      # put down: no longer 'in hand'
                self.obj(oid, t, "state", "laid down")
