"""What the director's parts keep while it compiles: each actor's and object's state and the keyframes and events
written so far, the spans of steps and stages it returns, and the constants of a ceremonial pace."""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, cast

Point = tuple[float, float, float]

WALK_M_S = 1.1          # an unhurried ceremonial walk
TREAD_S = 0.6           # one 等 of the stairs
TURN_S = 0.35           # turning on the spot at a corner
KNEEL_S = 0.8           # going down to kneel (坐) or rising from it (興)
SPACING = 3.0           # 尺 between people standing side by side
HAND_Z = 3.5            # 尺: height of an object held in the hands
#: 尺: ... and of one held kneeling (坐: the hands before the knees) or bowing (拜: the hands on the mat) — the
#: figures' hands (render.figures) are there; a cup held through 坐祭 … 卒爵 no longer floats at standing height
HAND_Z_LOW = {"sit": 1.4, "bow": 0.3}
SECTION_GAP_S = 1.0
POSTURES = ("stand", "sit", "bow", "salute", "shoot", "walk")


def hand_z(posture: str) -> float:
    """尺 above his feet of what someone holds, in a posture (:data:`HAND_Z`, lower kneeling or bowing)."""
    return HAND_Z_LOW.get(posture, HAND_Z)


def as_tuple(p: Iterable[float]) -> Point:
    x, y, z = p
    return (float(x), float(y), float(z))


@dataclass
class ActorState:
    pos: Point
    heading: float
    posture: str = "stand"
    holding: list[str] = field(default_factory=list)
    role: str = ""
    visible: bool = True
    keys: list[tuple[float, float, float, float, float]] = field(default_factory=list)   # t x y z heading
    events: list[tuple[float, str, Any]] = field(default_factory=list)                  # t kind value


@dataclass
class ObjectState:
    events: list[tuple[float, str, Any]] = field(default_factory=list)   # ("at", xyz) ("held", actor) ("path", (ts, xyz)) ("state", s)

    def holder(self) -> str | None:
        """Who holds it now (the last of its place events puts it in someone's hands), or None."""
        for _, kind, value in reversed(self.events):
            if kind in ("at", "held", "path"):
                return value if kind == "held" else None
        return None

    def last_state(self) -> str:
        for _, kind, value in reversed(self.events):
            if kind == "state":
                return cast(str, value)
        return ""


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
    #: (actor, act start, act end) for each actor: the act itself, after any walk and turn to it
    acts: tuple[tuple[str, float, float], ...] = ()
    #: the things the step acts on (a form's sub-step: the 豐, the 觶), for the camera and the captions
    things: tuple[str, ...] = ()

    def act_of(self, aid: str) -> tuple[float, float] | None:
        for a, t0, t1 in self.acts:
            if a == aid:
                return t0, t1
        return None


@dataclass(frozen=True)
class StageSpan:
    n: int
    id: str
    title: str
    phase: str
    start_s: float
    end_s: float
    incipit: str
