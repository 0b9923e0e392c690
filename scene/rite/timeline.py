"""The rite in time: ``pose_at(t)`` and ``sample(times)`` over the compiled tracks.

:mod:`scene.director` compiles the choreography into keyframes and events once;
afterwards time is pure data.  :class:`Rite` evaluates every track at once
with one ``searchsorted`` over all tracks (keys offset per track), so a pose
costs microseconds and a whole-rite sampling is a handful of ``np.interp``.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

import numpy as np

from ..chapter import Chapter
from ..chapter import resolve as resolve_chapter
from ..geometry import readings as readings_mod
from ..geometry.readings import Reading
from . import choreography as chor
from .director import Director
from .state import HAND_Z, POSTURES, Point, StageSpan, StepSpan, hand_z  # noqa: F401  (re-exported)

# ---------------------------------------------------------------------------
# evaluation

_BIG = 1e7   # > any rite duration: separates the tracks in one flat key array


class _Linear:
    """Many piecewise-linear tracks evaluated together (one searchsorted for all)."""

    def __init__(self, tracks: list[tuple[np.ndarray, np.ndarray]]) -> None:
        self.n = len(tracks)
        self.keys = np.concatenate([i * _BIG + t for i, (t, _) in enumerate(tracks)])
        self.vals = np.concatenate([v for _, v in tracks])
        self.last = np.cumsum([len(t) for t, _ in tracks]) - 1
        self.tracks = tracks
        self._ids = np.arange(self.n) * _BIG

    def at(self, t: float) -> np.ndarray:
        q = self._ids + t
        i = np.searchsorted(self.keys, q, side="right") - 1
        j = np.minimum(i + 1, self.last)
        t0, t1 = self.keys[i], self.keys[j]
        span = np.where(j > i, t1 - t0, 1.0)
        w = np.clip(np.where(j > i, (q - t0) / span, 0.0), 0.0, 1.0)
        out: np.ndarray = self.vals[i] + (self.vals[j] - self.vals[i]) * w[:, None]
        return out

    @staticmethod
    def _runs(t: np.ndarray, v: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Split a track into runs of still and moving key segments: (start key, end key, moving)."""
        moving = (v[1:] != v[:-1]).any(axis=1)
        change = np.flatnonzero(moving[1:] != moving[:-1]) + 1
        starts = np.concatenate([[0], change])
        ends = np.concatenate([change, [len(moving)]])
        return starts, ends, moving[starts]

    def sample(self, times: np.ndarray, only: Sequence[int] | None = None) -> np.ndarray:
        """(len(times), n, d) — n the tracks ``only`` names, else all. Where a track stands still its value is
        copied; only where it moves is it interpolated (people stand far more than they walk; arrows lie far
        more than they fly)."""
        d = self.vals.shape[1]
        times = np.asarray(times, dtype=float)
        which = list(range(self.n)) if only is None else list(only)
        out = np.empty((len(which), d, len(times)))      # filled in contiguous rows, returned as a view
        if len(times) and not bool(np.all(np.diff(times) >= 0)):
            for k, w in enumerate(which):
                t, v = self.tracks[w]
                for c in range(d):
                    out[k, c] = np.interp(times, t, v[:, c])
            return out.transpose(2, 0, 1)
        if not hasattr(self, "_run_cache"):
            self._run_cache = [self._runs(t, v) if len(t) > 1 else None for t, v in self.tracks]
        for k, w in enumerate(which):
            t, v = self.tracks[w]
            runs = self._run_cache[w]
            if runs is None or not runs[2].any():
                out[k] = v[0][:, None]                # never moves
                continue
            starts, ends, moving = runs
            a = np.searchsorted(times, t[starts], side="left")
            b = np.searchsorted(times, t[ends], side="left")
            out[k, :, :a[0]] = v[0][:, None]
            out[k, :, b[-1]:] = v[-1][:, None]
            for s0, e0, lo, hi, mv in zip(starts, ends, a, b, moving):
                if hi <= lo:
                    continue
                if mv:
                    seg_t, seg_v = t[s0:e0 + 1], v[s0:e0 + 1]
                    for c in range(d):
                        out[k, c, lo:hi] = np.interp(times[lo:hi], seg_t, seg_v[:, c])
                else:
                    out[k, :, lo:hi] = v[s0][:, None]
        return out.transpose(2, 0, 1)


class _Steps:
    """Many step-function tracks (posture, holding, state …) evaluated together."""

    def __init__(self, tracks: list[tuple[np.ndarray, list[Any]]]) -> None:
        self.n = len(tracks)
        self.keys = np.concatenate([i * _BIG + t for i, (t, _) in enumerate(tracks)])
        self.vals = [v for _, vs in tracks for v in vs]
        self._ids = np.arange(self.n) * _BIG
        self.tracks = tracks

    def at(self, t: float) -> list[Any]:
        idx = np.searchsorted(self.keys, self._ids + t, side="right") - 1
        return [self.vals[i] for i in idx]

    def codes(self, times: np.ndarray) -> list[np.ndarray]:
        """Per track, the index of the value in force at each time."""
        return [np.searchsorted(t, times, side="right") - 1 for t, _ in self.tracks]


def _step_track(events: list[tuple[float, str, Any]], kind: str, default: Any) -> tuple[np.ndarray, list[Any]]:
    evs = sorted(((t, v) for t, k, v in events if k == kind), key=lambda e: e[0])
    if not evs or evs[0][0] > 0:
        evs.insert(0, (0.0, default))
    return np.array([t for t, _ in evs]), [v for _, v in evs]


def play_order(sections: tuple[chor.Section, ...], reading: Any) -> tuple[chor.Section, ...]:
    """The sections in the order the rite plays them: the text's, but a section told out of its time right after
    the one it is ``played`` after (in text order among those placed there) when its ``played_when`` switch
    is on under the reading (off: where the text tells it)."""
    def moved(s: chor.Section) -> bool:
        w = s.played_when
        return s.played_after is not None and (w is None or getattr(reading, w.removeprefix("not ")) != w.startswith("not "))
    out: list[chor.Section] = []
    for s in sections:
        if not moved(s):
            out.append(s)
            out += [m for m in sections if moved(m) and m.played_after == s.n]
    return tuple(out)


@dataclass(frozen=True)
class Pose:
    """Everything at one moment, in metres (the layout's coordinates)."""

    t: float
    stage: int
    phrase: str
    actor_ids: tuple[str, ...]
    actor_xyz_m: np.ndarray
    heading_deg: np.ndarray
    posture: list[str]
    holding: list[str]
    role: list[str]
    visible: list[bool]
    say: list[str]
    object_ids: tuple[str, ...]
    object_xyz_m: np.ndarray
    object_state: list[str]
    #: what each actor wears on his left arm and hands: '袒決遂', '袒決', '袒' or '' (scene/rite/dress.py)
    dress: list[str] | None = None


class Rite:
    """The compiled rite under one reading: stages, spans and every track."""

    _grammar_ctx: Any        # the rules' view of it, made once (grammar.coverage._ctx_of)
    #: the disk cache's key of this very compilation (``cache.load_rite``); None when compiled here (a
    #: changed choreography, a test's): what later layers make of it (the director's track) is cached under it
    cache_key: str | None = None
    #: the same without the Python and numpy versions (``cache.rite_key(versions=False)``): what the compilation's
    #: output depends on, which names what ships prebuilt from it (the director's track: render/track_store.py)
    content_key: str | None = None

    def __init__(self, reading: Reading, choreo: chor.Choreography | None = None) -> None:
        self.reading = reading
        self.choreography = choreo or chor.default()
        # the director plays the sections in the rite's order, a section the text tells out of its time at its
        # own (chapter 4 §24, played after §10); the rite's choreography stays in the text's order
        played = play_order(self.choreography.sections, reading)
        d = Director(reading, self.choreography if played == self.choreography.sections
                     else replace(self.choreography, sections=played))
        try:
            d.run()
        except (RuntimeError, chor.ChoreographyError) as exc:
            raise chor.ChoreographyError(f"while timing the rite: {exc}") from None
        self.director = d
        self.layout = d.lay
        self.duration = d.duration
        self.stages = d.stages
        self.spans = d.spans
        self.results = d.results
        self.announcements = d.announcements
        self.handovers = d.handovers
        self.actor_ids = tuple(d.actors)
        self.names = {a.id: a.name for a in self.choreography.actors.values()}
        chi = reading.chi_m
        tracks = []
        self._hand_tracks = {}   # keys in 尺 with unwrapped headings: what carried objects follow
        for aid in self.actor_ids:
            k = np.array(d.actors[aid].keys, dtype=float)
            k = k[np.argsort(k[:, 0], kind="stable")]
            k[:, 4] = np.degrees(np.unwrap(np.radians(k[:, 4])))
            self._hand_tracks[aid] = k
            tracks.append((k[:, 0], np.column_stack([k[:, 1:4] * chi, k[:, 4]])))
        self._actors = _Linear(tracks)
        ev = {aid: d.actors[aid].events for aid in self.actor_ids}
        self._postures = {a: _step_track(ev[a], "posture", "stand") for a in self.actor_ids}
        self._posture = _Steps([self._postures[a] for a in self.actor_ids])
        self._holding = _Steps([_step_track(ev[a], "holding", "") for a in self.actor_ids])
        self._role = _Steps([_step_track(ev[a], "role", "") for a in self.actor_ids])
        self._visible = _Steps([_step_track(ev[a], "visible", True) for a in self.actor_ids])
        self._say = _Steps([_step_track(ev[a], "say", "") for a in self.actor_ids])
        self._dress = _Steps([_step_track(ev[a], "dress", "") for a in self.actor_ids])
        self.object_ids = tuple(d.objects)
        self._objects = _Linear([self._object_track(d.objects[o].events) for o in self.object_ids])
        self._ostate = _Steps([_step_track(d.objects[o].events, "state", "") for o in self.object_ids])
        self._stage_starts = np.array([s.start_s for s in self.stages])
        self._span_starts = np.array([s.start_s for s in self.spans])

    @property
    def chapter(self) -> Chapter:
        """The chapter this rite plays (its choreography's; chapter 5 by default)."""
        return resolve_chapter(self.choreography.chapter)

    @property
    def title(self) -> str:
        """The rite's name as its chapter gives it (鄉射禮): what a page, a sheet or a caption calls it."""
        return self.chapter.title

    def _object_track(self, events: list[tuple[float, str, Any]]) -> tuple[np.ndarray, np.ndarray]:
        """Keyframes of an object: at a place, in someone's hands (following him), or in flight."""
        chi = self.reading.chi_m
        evs = sorted((e for e in events if e[1] in ("at", "held", "path")), key=lambda e: e[0])
        ts: list[float] = []
        xs: list[tuple[float, float, float]] = []
        for k, (t, kind, value) in enumerate(evs):
            t_next = evs[k + 1][0] if k + 1 < len(evs) else self.duration
            if kind == "at":
                pts_t, pts = [t, t_next], [value, value]
            elif kind == "path":
                # the flight, then lying where it landed until someone picks it up
                pts_t = list(value[0]) + [max(t_next, float(value[0][-1]))]
                pts = [tuple(p) for p in value[1]] + [tuple(value[1][-1])]
            else:
                pts_t, pts = self._in_hands(value, t, t_next)
            if ts and pts_t[0] <= ts[-1]:
                pts_t[0] = ts[-1] + 1e-6
            for tt, p in zip(pts_t, pts):
                if not ts or tt > ts[-1]:
                    ts.append(tt)
                    xs.append(p)
        return np.array(ts), np.array(xs, dtype=float) * chi

    def _in_hands(self, actor: str, t0: float, t1: float) -> tuple[list[float], list[Point]]:
        """An object carried by ``actor`` from t0 to t1: in front of him at the height of his hands, which
        goes down when he kneels (坐) or bows (拜) and up when he rises (:func:`~.state.hand_z`)."""
        k = self._hand_tracks[actor]
        hdg = k[:, 4]
        pt, pv = self._postures[actor]
        inner = k[(k[:, 0] > t0) & (k[:, 0] < t1), 0]
        turns = pt[(pt > t0) & (pt < t1)]
        times = np.unique(np.concatenate([[t0], inner, turns - 1e-3, turns, [t1]]))
        times = times[(times >= t0) & (times <= t1)]
        x, y, z = (np.interp(times, k[:, 0], k[:, c]) for c in (1, 2, 3))
        h = np.radians(np.interp(times, k[:, 0], hdg))
        up = [hand_z(pv[max(int(i), 0)]) for i in np.searchsorted(pt, times, side="right") - 1]
        pts = np.column_stack([x + np.sin(h), y + np.cos(h), z + up])
        return list(times), [tuple(p) for p in pts]

    # ---------------------------------------------------------------- queries
    def stage_at(self, t: float) -> StageSpan:
        i = int(np.searchsorted(self._stage_starts, t, side="right") - 1)
        return self.stages[max(0, i)]

    def span_at(self, t: float) -> StepSpan | None:
        i = int(np.searchsorted(self._span_starts, t, side="right") - 1)
        if i < 0 and self.spans and getattr(self, "window", None) is not None:
            i = 0       # (a mutation run's view of one section: a moment before its first step counts as that step)
        return self.spans[i] if i >= 0 else None

    def pose_at(self, t: float) -> Pose:
        t = float(min(max(t, 0.0), self.duration))
        a = self._actors.at(t)
        span = self.span_at(t)
        return Pose(t, self.stage_at(t).n, span.phrase if span else "", self.actor_ids,
                    a[:, :3], a[:, 3] % 360.0, self._posture.at(t), self._holding.at(t), self._role.at(t),
                    self._visible.at(t), self._say.at(t), self.object_ids, self._objects.at(t), self._ostate.at(t),
                    self._dress.at(t))

    def sample(self, times: np.ndarray, objects: bool | Sequence[str] = True) -> dict[str, np.ndarray]:
        """Positions of every actor and object at many times: arrays (T, n, 3) and (T, n).  ``objects=False``
        leaves the objects out (``object_xyz_m`` is then absent), a list of ids samples those alone (in its
        order): a whole rite at 10 Hz is 0.5 GB of objects (128, most of them arrows), which the checks of
        people alone need not build."""
        a = self._actors.sample(np.asarray(times, dtype=float))
        vis = np.array([np.asarray(vs, dtype=bool)[idx] for (_, vs), idx in
                        zip(self._visible.tracks, self._visible.codes(np.asarray(times)))]).T
        out = {"actor_xyz_m": a[:, :, :3], "heading_deg": a[:, :, 3] % 360.0, "visible": vis}
        if objects is not False:
            only = None if objects is True else [self.object_ids.index(o) for o in objects]
            out["object_xyz_m"] = self._objects.sample(np.asarray(times, dtype=float), only)
        return out

    def as_pose_dict(self, t: float) -> dict[str, Any]:
        p = self.pose_at(t)
        stage = self.stage_at(p.t)
        actors = [{"id": aid, "name": self.names[aid], "role": p.role[i],
                   "xyz_m": [round(float(c), 3) for c in p.actor_xyz_m[i]],
                   "heading_deg": round(float(p.heading_deg[i]), 1), "posture": p.posture[i],
                   "holding": p.holding[i], "visible": bool(p.visible[i]), "says": p.say[i]}
                  for i, aid in enumerate(p.actor_ids)]
        objects = [{"id": oid, "name": self._object_name(oid),
                    "xyz_m": [round(float(c), 3) for c in p.object_xyz_m[i]], "state": p.object_state[i]}
                   for i, oid in enumerate(p.object_ids)]
        return {"t": round(p.t, 3), "stage": {"n": stage.n, "id": stage.id, "title": stage.title},
                "phrase": p.phrase, "actors": actors, "objects": objects}

    def _object_name(self, oid: str) -> str:
        if oid.startswith("bow."):
            return f"弓 ({self.names.get(oid[4:], oid[4:])})"
        if oid.startswith("arrow."):
            _, who, n = oid.split(".")
            return f"矢 ({self.names.get(who, who)} {n})"
        if oid.startswith("counters."):
            return {"zhong": "筭 (中)", "right": "筭 (右獲)", "left": "筭 (左獲)", "spare": "筭 (餘)", "hand": "筭 (釋獲者執之)"}[oid[9:]]
        return self.choreography.things[oid].name


@lru_cache(maxsize=8)
def _build(reading: Reading, chapter: Chapter | None = None) -> Rite:
    return Rite(reading, None if chapter is None else chor.load(chapter))


def build_rite(reading: Reading | str | None = None, seed: int | None = None,
               chapter: Chapter | str | None = None) -> Rite:
    """The rite under a reading (preset name, TOML path, Reading or None), optionally reseeded; ``chapter``:
    another chapter than chapter 5 (its id or :class:`~scene.chapter.Chapter`; one without a rite is one
    line, :class:`~scene.rite.choreography.ChoreographyError`)."""
    r = readings_mod.get(reading)
    if seed is not None:
        r = r.replace(seed=seed)
    ch = resolve_chapter(chapter)
    return _build(r, None if ch == resolve_chapter(None) else ch)
