"""What a standard form may do: the narrow interface :class:`Acts` between the director and the forms.

A form moves people (walk, turn, pose, salute), hands things about (give, take and drop what a hand
shows), writes object events and the 筭, and reads the layout, the route planner and the shooting's
results.  It never sees the director's loop or its bookkeeping, so a new form is a new module of
:mod:`scene.rite.forms` and never an edit of the director.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from .. import choreography as chor
from ..state import TREAD_S, Point

if TYPE_CHECKING:   # the director hands itself in; the forms never import it
    from ...geometry.layout import Layout
    from ...geometry.readings import Reading
    from ..director import Director
    from ..routes import Site
    from ..shooting import RoundResult, Shot

__all__ = ["Acts", "TREAD_S"]


class Acts:
    """The director's hands, as a form sees them.  Times are seconds, places 尺 (the layout's frame)."""

    def __init__(self, director: Director) -> None:
        self._d = director

    # ---------------------------------------------------------------- what is where
    @property
    def layout(self) -> Layout:
        return self._d.lay

    @property
    def site(self) -> Site:
        return self._d.site

    @property
    def reading(self) -> Reading:
        return self._d.r

    @property
    def min_gap(self) -> float:
        """尺: the least distance between two people that the director keeps."""
        return self._d.min_gap

    def present(self, aid: str) -> bool:
        """Whether the actor takes part under this reading (the 大夫 may not come)."""
        return aid in self._d.present

    def pos(self, aid: str) -> Point:
        return self._d.people.pos(aid)

    def heading(self, aid: str) -> float:
        return self._d.people.heading(aid)

    def own_stairs(self, aid: str) -> str:
        """The actor's own stairs (cast.toml: the 主人 and his 相 阼階, everyone else 西階)."""
        return self._d.c.actors[aid].stairs

    def stairs(self, aid: str, step: chor.Step) -> str:
        return step.by or self.own_stairs(aid)

    def resolve(self, ref: chor.PlaceRef, aid: str | None, extra_slot: int = 0) -> Point:
        return self._d.places.resolve(ref, aid, extra_slot)

    def facing(self, aid: str, facing: str | None) -> float | None:
        return self._d.places.facing(aid, facing)

    def free_spot(self, aid: str, target: Point) -> Point:
        return self._d.ways.free_spot(aid, target)

    def object_ids(self, prefix: str = "") -> list[str]:
        return self._d.things.ids(prefix)

    def state_of(self, oid: str) -> str:
        return self._d.things.state_of(oid)

    # ---------------------------------------------------------------- moving
    def walk(self, aid: str, t: float, target: Point, stairs: str | None = None,
             via: tuple[Point, ...] = ()) -> float:
        """Walk to target (round the building and everyone standing, by the stairs given); the arrival time."""
        return self._d.ways.goto(aid, t, target, stairs, via)

    def walk_path(self, aid: str, t: float, path: list[Point]) -> float:
        """Walk exactly this polyline (once the way is clear); the arrival time."""
        return self._d.ways.walk_path(aid, t, path)

    def walk_together(self, ids: tuple[str, ...], t: float, paths: list[list[Point]]) -> float:
        """Walk side by side (並行): each his own polyline, all with the same number of points, in step."""
        return self._d.ways.walk_together(tuple(ids), t, paths)

    def plan(self, aid: str, target: Point, stairs: str | None = None, via: tuple[Point, ...] = (),
             ignore: tuple[str, ...] = ()) -> list[Point]:
        """The way from where he stands to target (round the building, the furniture and everyone
        standing about except ``ignore``), without walking it."""
        return self._d.ways.plan(aid, self.pos(aid), target, stairs, via, ignore)

    def hold(self, aid: str, t: float) -> None:
        """He stays where he is until t (a keyframe: what follows starts from there at t)."""
        self._d.people.hold(aid, t)

    def place(self, aid: str, t: float, pos: Point, heading: float) -> None:
        """A keyframe: at t he is at pos facing heading (a step short enough not to need a route)."""
        self._d.people.key(aid, t, pos, heading)

    def turn(self, aid: str, t: float, heading: float | None) -> float:
        return self._d.people.turn(aid, t, heading)

    def pose(self, aid: str, t: float, posture: str) -> None:
        self._d.people.event(aid, t, "posture", posture)

    def say(self, aid: str, t: float, text: str) -> None:
        self._d.people.event(aid, t, "say", text)

    def salute(self, aid: str, t: float, heading: float | None = None, dur: float = 1.5) -> float:
        """揖 (turning first to heading, if given); the time it ends."""
        t = self.turn(aid, t, heading)
        self.pose(aid, t, "salute")
        self.pose(aid, t + dur, "stand")
        return t + dur

    @staticmethod
    def sync(ids: Iterable[str], times: dict[str, float]) -> float:
        """Those who act together wait for the last of them; the common time."""
        t = max(times[a] for a in ids)
        for a in ids:
            times[a] = t
        return t

    def pass_by(self, refs: tuple[chor.PlaceRef, ...], aid: str, target: Point,
                extra: float = 0.0) -> tuple[Point, ...]:
        """Waypoints for 'pass south of X' (由司馬之南): go by both south corners of X in the
        direction of travel, so the way there and the way back do not meet head on."""
        pts: list[Point] = []
        start = self.pos(aid)
        for ref in refs:
            x, y, z = self.resolve(ref, aid)
            if ref.direction == "南":
                y -= extra
                east_first = target[0] < start[0]
                pair = [(x + 2.0, y, z), (x - 2.0, y, z)]
                pts += pair if east_first else pair[::-1]
            else:
                pts.append((x, y, z))
        # a waypoint is no place to brush past someone standing there
        return tuple(self.free_spot(aid, p) for p in pts)

    def others(self, ids: tuple[str, ...] = ()) -> tuple[Point, ...]:
        """Where everyone else visible stands now (what a route goes round)."""
        return tuple(p for k, p in self._d.people.seen() if k not in ids)

    def ground_things(self) -> tuple[tuple[str, float, float, float, float], ...]:
        """The movable things lying on the ground now, as boxes a route goes round."""
        return self._d.ways.ground_things()

    def time_to(self, aid: str, path: list[Point], k: int) -> float:
        """Seconds he takes, walking ``path`` from its first point, to reach its k-th point (turns included)."""
        timed = self._d.ways.timed(aid, 0.0, path)
        target = path[k]
        return next((tt for tt, p, _ in timed if all(abs(p[c] - target[c]) < 1e-6 for c in range(3))), 0.0)

    def time_at_height(self, aid: str, t0: float, t1: float, z: float) -> float:
        """The first time in [t0, t1] his keyframes reach height z (尺); t1 if they never do."""
        for t, _x, _y, zz, _ in self._d.people.keys_between(aid, t0, t1):
            if abs(zz - z) < 1e-6:
                return t
        return t1

    @property
    def board(self) -> dict[str, Any]:
        """Word left by one form for a later one (a pair waiting in front of the stairs to meet the next)."""
        return self._d.board

    def resume(self, entry: dict[str, Any], t: float) -> float:
        """Let a waiting pair go on from t (see :func:`.pair.post_crossing`); when they are done."""
        return self._d._resume(entry, t)

    # ---------------------------------------------------------------- things
    def give(self, oid: str, t: float, src: str | None, dst: str | None, at: Point | None = None) -> None:
        """Move an object between hands (src → dst) or from src's hands onto a place."""
        self._d.things.give(oid, t, src, dst, at)

    def obj(self, oid: str, t: float, kind: str, value: Any) -> None:
        """An object event: ("at", xyz), ("held", actor), ("path", (ts, xyz)), ("state", text)."""
        self._d.things.obj(oid, t, kind, value)

    def show_holding(self, aid: str, t: float, text: str) -> None:
        """What his hands show from t (張弓, 弛弓 …), whatever the objects say."""
        self._d.people.event(aid, t, "holding", text)

    def add_label(self, aid: str, t: float, label: str) -> None:
        self._d.people.take_up(aid, label, t)

    def drop_label(self, aid: str, t: float, label: str) -> None:
        self._d.people.put_down(aid, label, t)

    # ---------------------------------------------------------------- the shooting and the 筭
    @property
    def results(self) -> dict[int, RoundResult]:
        return self._d.results

    @property
    def round_pairs(self) -> dict[int, list[tuple[str, str]]]:
        return self._d.round_pairs

    @property
    def demo(self) -> tuple[Shot, ...]:
        return self._d.demo

    @property
    def section(self) -> int:
        """The section whose step is being played."""
        return self._d.section

    @property
    def text(self) -> str:
        """The 經 of the section being played, in the rite's own chapter."""
        return self._d.c.passage(self._d.section).text

    @property
    def counters(self) -> Mapping[str, int]:
        """How many 筭 each pile holds (to read: :meth:`set_counters` changes them)."""
        return self._d.counters.view()

    def set_counters(self, t: float, **changes: int) -> None:
        self._d.counters.set(t, **changes)

    def load_zhong(self, t: float) -> None:
        self._d.counters.load_zhong(t)

    def ready_counters(self, t: float) -> None:
        """Eight 筭 in the 釋獲者's hand and eight in the 中 before a pair shoots (取中之八筭改實八筭于中)."""
        self._d.counters.ready(t)


    def part(self, phrase: str, who: Iterable[str | None], t0: float, t1: float, things: Iterable[str] = (),
             after: str = "") -> None:
        """A sub-step of the step being played, from t0 to t1: the words of the 經 it acts (the occurrence at
        or after ``after``), the people acting and the things acted on.  The rite then has it as a step of its
        own (caption, the 經's highlight, the camera); a form that tells none is one step."""
        self._d.part(phrase, tuple(a for a in who if a), t0, t1, tuple(things), after)

    def announce(self, entry: tuple[float, int, str]) -> None:
        """(t, round, text): a 數獲 announcement."""
        self._d.record.announce(entry)

    def handover(self, entry: tuple[float, float, str, str]) -> None:
        """(t0, t1, giver, receiver): the two may come within reach of each other meanwhile."""
        self._d.record.handover(entry)
