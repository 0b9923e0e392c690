"""Where a step's words put someone (位): a place of the layout, one of its slots, a distance in a direction from
it or from someone, on whatever ground is there; and the heading a facing names.  A part of
:class:`.director.Director` with no state of its own: it reads the layout and asks :class:`.people.People`
where someone stands."""
from __future__ import annotations

import math

from ..geometry.layout import Layout
from ..geometry.places import FACING_DEG
from . import choreography as chor
from .people import People
from .routes import Site, heading_deg
from .state import Point


class Places:
    """位 — the layout's places, resolved (pure but for where the people stand)."""

    def __init__(self, lay: Layout, site: Site, people: People) -> None:
        self.lay = lay
        self.site = site
        self.people = people

    def facing_of(self, ref: str) -> float:
        """The heading a place sets its occupant (0 where it sets none)."""
        r = chor.parse_ref(ref)
        if r.place and self.lay[r.place].heading_deg is not None:
            return self.lay[r.place].heading_deg  # type: ignore[return-value]
        return 0.0

    def resolve(self, ref: chor.PlaceRef, who: str | None, extra_slot: int = 0) -> Point:
        if ref.actor is not None:
            p, h = self.people.pos(ref.actor), math.radians(self.people.heading(ref.actor))
            x, y = p[0] + 2.5 * math.sin(h), p[1] + 2.5 * math.cos(h)
        else:
            assert ref.place is not None           # a reference names an actor or a place
            pl = self.lay[ref.place]
            slots = pl.extra.get("slots")
            if ref.slot is not None or (slots and extra_slot):
                k = (ref.slot or 0) + extra_slot
                if not slots or k >= len(slots):
                    raise chor.ChoreographyError(f"place {ref.place} has no slot {k}")
                x, y, _ = slots[k]
            else:
                x, y, _ = pl.xyz_chi
        if ref.direction:
            dx, dy = chor.DIRECTIONS[ref.direction]
            x, y = x + dx * ref.dist, y + dy * ref.dist
        if ref.direction2:
            dx, dy = chor.DIRECTIONS[ref.direction2]
            x, y = x + dx * ref.dist2, y + dy * ref.dist2
        return (x, y, self.site.surface_z(x, y))

    def at(self, place: str) -> Point:
        """A place named in the data's words (``hall.outside_gate``, ``court.zhong@1`` …)."""
        return self.resolve(chor.parse_ref(place), None)

    def facing(self, aid: str, facing: str | None) -> float | None:
        """The heading of a step's ``facing``: a direction, or toward a place or someone."""
        if facing is None:
            return None
        if facing in FACING_DEG:
            return FACING_DEG[facing]
        target = self.resolve(chor.parse_ref(facing[len("toward:"):]), aid)
        return heading_deg(self.people.pos(aid), target)
