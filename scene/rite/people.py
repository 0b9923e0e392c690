"""The people of the rite (人) as the director keeps them: where each stands and faces, his posture, what his
hands show, his role and whether he is seen, the keyframes and events written so far, and when he is free of
his last act.  A part of :class:`.director.Director` that owns these alone: the walking, the things and the
forms ask and tell it through its methods (a keyframe, an event, a thing taken up or put down)."""
from __future__ import annotations

import math
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, cast

import numpy as np

from .state import TURN_S, ActorState, Point


class People:
    """人 — each actor's state and tracks (:class:`.state.ActorState`), written only here."""

    def __init__(self) -> None:
        self._actors: dict[str, ActorState] = {}
        self._free: dict[str, float] = {}            # when each is free of his last act (a step waits for him)
        self._arrays: dict[str, np.ndarray] = {}     # each one's keyframes as an array (the walks' conflict test)

    def enrol(self, aid: str, pos: Point, heading: float, role: str, visible: bool) -> None:
        """An actor where the rite finds him at its start (offstage or in his place)."""
        st = ActorState(pos, heading, role=role, visible=visible)
        st.keys.append((0.0, *pos, st.heading))
        st.events += [(0.0, "posture", "stand"), (0.0, "holding", ""), (0.0, "role", st.role),
                      (0.0, "visible", visible), (0.0, "say", "")]
        self._actors[aid] = st

    # ------------------------------------------------------------------ asked
    def tracks(self) -> Mapping[str, ActorState]:
        """Every actor's state and tracks, to read (the compiled rite's, the forms' few reads)."""
        return MappingProxyType(self._actors)

    def ids(self) -> tuple[str, ...]:
        return tuple(self._actors)

    def has(self, aid: str) -> bool:
        return aid in self._actors

    def pos(self, aid: str) -> Point:
        return self._actors[aid].pos

    def heading(self, aid: str) -> float:
        return self._actors[aid].heading

    def posture(self, aid: str) -> str:
        return self._actors[aid].posture

    def visible(self, aid: str) -> bool:
        return self._actors[aid].visible

    def role(self, aid: str) -> str:
        return self._actors[aid].role

    def holds(self, aid: str, label: str) -> bool:
        return label in self._actors[aid].holding

    def seen(self, but: str | None = None) -> list[tuple[str, Point]]:
        """(id, place) of everyone visible (but ``but``), in the cast's order."""
        return [(k, a.pos) for k, a in self._actors.items() if k != but and a.visible]

    def last_key_t(self, aid: str) -> float:
        return self._actors[aid].keys[-1][0]

    def keys_between(self, aid: str, t0: float, t1: float) -> list[tuple[float, float, float, float, float]]:
        """His keyframes from t0 to t1 (t x y z heading)."""
        return [k for k in self._actors[aid].keys if t0 - 1e-9 <= k[0] <= t1 + 1e-9]

    def key_array(self, aid: str) -> np.ndarray:
        """His keyframes as an array (t x y z heading), made again only when a keyframe was added."""
        keys = self._actors[aid].keys
        arr = self._arrays.get(aid)
        if arr is None or len(arr) != len(keys):
            arr = np.array(keys, dtype=float)
            self._arrays[aid] = arr
        return arr

    def base_posture(self, aid: str) -> str:
        for _, kind, value in reversed(self._actors[aid].events):
            if kind == "posture" and value in ("sit", "stand"):
                return cast(str, value)
        return "stand"

    def risen_at(self, aid: str) -> float:
        """When ``aid`` last rose from kneeling (−inf if his last change of posture was no 興): a 興 followed at
        once by a 坐 (卒爵興坐奠爵) is a moment on his feet, never a rise of no length."""
        ps = [(t, v) for t, kind, v in self._actors[aid].events if kind == "posture" and v in ("sit", "stand", "walk")]
        sits = [i for i, (_, v) in enumerate(ps) if v == "sit"]
        if sits and sits[-1] + 1 < len(ps):
            return float(ps[sits[-1] + 1][0])
        return -math.inf

    def free_at(self, aid: str) -> float:
        return self._free.get(aid, 0.0)

    # ------------------------------------------------------------------ told
    def busy_until(self, aid: str, t: float) -> None:
        """He is busy until t (a later step that names him waits)."""
        self._free[aid] = max(self._free.get(aid, 0.0), t)

    def key(self, aid: str, t: float, pos: Point, heading: float) -> None:
        a = self._actors[aid]
        if a.keys and t < a.keys[-1][0] - 1e-9:
            raise RuntimeError(f"{aid}: keyframe goes back in time ({t:.2f} < {a.keys[-1][0]:.2f})")
        a.keys.append((t, *pos, heading))
        a.pos, a.heading = pos, heading

    def hold(self, aid: str, t: float) -> None:
        """He stays where he is until t."""
        a = self._actors[aid]
        self.key(aid, t, a.pos, a.heading)

    def event(self, aid: str, t: float, kind: str, value: Any) -> None:
        self._actors[aid].events.append((t, kind, value))
        if kind == "posture":
            self._actors[aid].posture = value

    def turn(self, aid: str, t: float, heading: float | None) -> float:
        a = self._actors[aid]
        if heading is None or abs(((heading - a.heading + 180) % 360) - 180) < 1:
            return t
        self.key(aid, t, a.pos, a.heading)
        self.key(aid, t + TURN_S, a.pos, heading)
        return t + TURN_S

    def show_holding(self, aid: str, t: float) -> None:
        """What his hands show from t: the labels he holds (弓, 矢×4 …)."""
        counts: dict[str, int] = {}
        for label in self._actors[aid].holding:
            counts[label] = counts.get(label, 0) + 1
        self.event(aid, t, "holding", "、".join(k if n == 1 else f"{k}×{n}" for k, n in counts.items()))

    def take_up(self, aid: str, label: str, t: float) -> None:
        self._actors[aid].holding.append(label)
        self.show_holding(aid, t)

    def put_down(self, aid: str, label: str, t: float) -> None:
        """He no longer holds one ``label`` (nothing happens when he holds none)."""
        if label in self._actors[aid].holding:
            self._actors[aid].holding.remove(label)
            self.show_holding(aid, t)

    def cast_as(self, aid: str, t: float, role: str) -> None:
        self._actors[aid].role = role
        self.event(aid, t, "role", role)

    def appear(self, aid: str, t: float) -> None:
        self._actors[aid].visible = True
        self.event(aid, t, "visible", True)

    def leave(self, aid: str, t: float, offstage: Point) -> None:
        """Out of the gate at t: hidden, and off the stage a moment later."""
        a = self._actors[aid]
        a.visible = False
        self.event(aid, t, "visible", False)
        self.key(aid, t, a.pos, a.heading)
        self.key(aid, t + 0.01, offstage, a.heading)

    def hold_all(self, t: float) -> None:
        """Everyone holds his last pose to t (the rite's end)."""
        for aid in self._actors:
            self.hold(aid, t)
