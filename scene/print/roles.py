"""A role and what he does (角色): who ``--roles`` names, and for each stage the steps of his cue list.

*Acting in a stage*: he is named in one of its steps (``who``, or the form that acted the step acted him),
or something of his own happens during one of its steps — he takes a posture (坐 拜 揖 射), speaks (the
獲者's 獲 on a hit, the 釋獲者's 釋獲).  A stage in which he only stands, or is only walked along, is
not on his sheet.

*His cue* for a step is the step just before it in the text's order: if that step is his own, he goes straight
on (``續``); otherwise it is who acted it and its phrase — what he waits for.  For a step that is not his by
name (the 獲者 calling a hit during a pair's 拾發), the cue is the step he answers.
"""
from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field

import numpy as np

#: postures marked on a plan, as the text names them
POSTURE_MARK = {"sit": "坐", "bow": "拜", "salute": "揖", "shoot": "射"}


class RoleError(ValueError):
    """An unknown role (one line naming it and the roles there are)."""


@dataclass
class Entry:
    """One step of a performer's cue list."""

    n: int                       # his step number in the stage (the numbered point on the plan)
    span: int                    # index of the step in rite.spans
    phrase: str                  # the 經 it animates
    t_abs: float                 # when his act starts, s from the start of the rite
    t_stage: float               # … from the start of the stage
    cue: str                     # who acts just before him, and what
    holding: str                 # what he carries when the step is done
    says: tuple[str, ...]        # what he says in it
    xy: tuple[float, float]      # where he is when it is done (m)
    heading: float               # his heading then (compass degrees)
    where: str                   # the nearest named place
    postures: tuple[str, ...]    # the postures he takes in it (坐 拜 揖 射)
    named: bool = True           # named in the step's who (False: his act inside another's step)


@dataclass
class StagePart:
    """What one role does in one stage: his steps, his path, his postures, whom he meets."""

    stage: object
    entries: list[Entry]
    path: np.ndarray                                     # (N, 2) m, his track through the stage
    marks: list[tuple[str, float, float]]                # (坐/拜/揖/射, x, y)
    others: list[tuple[str, float, float, float]] = field(default_factory=list)   # (name, x, y, heading)


def _role_words(role: str) -> list[str]:
    """The names a cast entry's role gives him: ``相 → 司正 (§13) → 司馬 (§17)`` → 相, 司正, 司馬."""
    head = re.sub(r"\([^)]*\)", "", role.split(";")[0])
    return [w for w in re.findall(r"[\u3400-\u9fff]+", head)]


def present_actors(choreo, reading) -> list[str]:
    return [a.id for a in choreo.actors.values() if a.optional is None or getattr(reading, a.optional)]


def resolve(spec: str, choreo, reading) -> list[str]:
    """Actor ids for ``--roles``: ``all``, or a comma list of ids (ou1_up), names (上耦上射) or the text's
    role names (獲者, 司馬, 上射 → every 上射); an unknown one raises :class:`RoleError`."""
    present = present_actors(choreo, reading)
    if spec.strip() in ("all", ""):
        return present
    out: list[str] = []
    for tok in (t.strip() for t in spec.split(",")):
        if not tok:
            continue
        acts = [choreo.actors[a] for a in present]
        hit = [a.id for a in acts if tok in (a.id, a.name)] or \
              [a.id for a in acts if tok in _role_words(a.role)] or \
              [a.id for a in acts if len(tok) >= 2 and tok in a.name]
        if not hit:
            names = "、".join(choreo.actors[a].name for a in present[:12])
            raise RoleError(f"unknown role {tok!r} (a role is a cast name such as {names} …, an id such as "
                            f"ou1_up, a role the text names such as 獲者 or 上射, or all)")
        out += [h for h in hit if h not in out]
    return out


def display(rite, aid: str, t: float) -> str:
    """The name the text uses for him at t: 司馬（相） while the 相 is 司馬, else his cast name."""
    a = rite.choreography.actors[aid]
    first = a.role.split(" ")[0]
    role = rite._role.at(t)[rite.actor_ids.index(aid)]
    return f"{role}（{a.name}）" if role and role != first and role not in a.name else a.name


def title(rite, aid: str) -> str:
    """The booklet's title: his cast name and every role the text gives him."""
    roles = []
    for _, kind, v in rite.director.actors[aid].events:
        if kind == "role" and v and v not in roles:
            roles.append(v)
    name = rite.names[aid]
    extra = [r for r in roles if r not in name]
    return f"{name}（{'、'.join(extra)}）" if extra else name


def _who(rite, span) -> str:
    return "、".join(display(rite, w, span.start_s) for w in span.who) or "—"


class RoleIndex:
    """Everything the sheets ask of the compiled rite, computed once: each actor's events by time,
    the named places, the positions at any moment."""

    def __init__(self, rite) -> None:
        self.rite = rite
        self.chi = rite.reading.chi_m
        self.gate_y = rite.layout["hall.outside_gate"].xyz_chi[1] * self.chi
        self.events = {}
        for aid in rite.actor_ids:
            evs = sorted((e for e in rite.director.actors[aid].events if e[0] > 0), key=lambda e: e[0])
            self.events[aid] = ([e[0] for e in evs], evs)
        self.points = [(p.name, np.array(p.xyz_m(self.chi)[:2]), p.xyz_chi[2] * self.chi)
                       for p in rite.layout.places.values()
                       if p.size_chi is None or max(p.size_chi[:2]) <= 8.0]

    def where(self, xy, z: float) -> str:
        d, name = min((float(np.hypot(*(np.asarray(xy) - p))), n) for n, p, _ in self.points)
        if d <= 0.6:
            return name
        if d <= 2.0:
            return f"{name}旁"
        return "堂上" if z > 0.3 else "庭"

    def _evs(self, aid: str, t0: float, t1: float):
        ts, evs = self.events[aid]
        return evs[bisect.bisect_left(ts, t0):bisect.bisect_left(ts, t1)]

    def _active(self, aid: str, t0: float, t1: float) -> bool:
        for _, kind, v in self._evs(aid, t0, t1):
            if (kind == "posture" and v in POSTURE_MARK) or (kind == "say" and v):
                return True
        return False

    def part(self, aid: str, stage) -> StagePart | None:
        """His part in a stage, or None if he does not act in it."""
        rite = self.rite
        i = rite.actor_ids.index(aid)
        lo = bisect.bisect_left([s.start_s for s in rite.spans], stage.start_s)
        entries: list[Entry] = []
        others: dict[str, tuple[str, float, float, float]] = {}
        for si in range(lo, len(rite.spans)):
            sp = rite.spans[si]
            if sp.section != stage.n:
                if sp.start_s > stage.end_s:
                    break
                continue
            named = aid in sp.who or sp.act_of(aid) is not None
            if not named and not self._active(aid, sp.start_s, sp.end_s):
                continue
            act = sp.act_of(aid)
            evs = self._evs(aid, sp.start_s, sp.end_s + 1e-6)
            t0 = act[0] if act else next((e[0] for e in evs if e[1] in ("posture", "say")), sp.start_s)
            t1 = act[1] if act else sp.end_s
            pose = rite.pose_at(t1)
            xy = (float(pose.actor_xyz_m[i][0]), float(pose.actor_xyz_m[i][1]))
            says: list[str] = []
            for _, kind, v in evs:
                if kind == "say" and v:
                    says.append(v.split("曰", 1)[1] if "曰" in v[:-1] else v)   # the words, not the verb
            postures = tuple(dict.fromkeys(POSTURE_MARK[v] for _, k, v in evs if k == "posture" and v in POSTURE_MARK))
            prev = rite.spans[si - 1] if si else None
            if not named:
                cue = f"{_who(rite, sp)}：{sp.phrase}"
            elif prev is None:
                cue = "—"
            elif aid in prev.who or prev.act_of(aid) is not None:
                cue = "續"
            else:
                cue = f"{_who(rite, prev)}：{prev.phrase}"
            entries.append(Entry(len(entries) + 1, si, sp.phrase, t0, t0 - stage.start_s, cue, pose.holding[i],
                                 _count(says), xy, float(pose.heading_deg[i]),
                                 self.where(xy, float(pose.actor_xyz_m[i][2])), postures, named))
            for j, oid in enumerate(pose.actor_ids):
                if oid == aid or oid in others or not pose.visible[j]:
                    continue
                oxy = pose.actor_xyz_m[j][:2]
                if (named and oid in sp.who) or float(np.hypot(*(oxy - np.asarray(xy)))) < 3.0:
                    if oxy[1] > self.gate_y:
                        others[oid] = (display(rite, oid, t1), float(oxy[0]), float(oxy[1]), float(pose.heading_deg[j]))
        if not entries:
            return None
        return StagePart(stage, entries, self.path(aid, stage), self.marks(aid, stage), list(others.values()))

    def path(self, aid: str, stage) -> np.ndarray:
        """His track through the stage (m), offstage stretches left out."""
        k = self.rite._hand_tracks[aid]
        t = k[:, 0]
        inner = k[(t > stage.start_s) & (t < stage.end_s)]
        ends = [np.array([tt, *(np.interp(tt, t, k[:, c]) for c in range(1, 5))]) for tt in (stage.start_s, stage.end_s)]
        pts = np.vstack([ends[0], inner, ends[1]])[:, 1:3] * self.chi
        return pts[pts[:, 1] > self.gate_y]

    def marks(self, aid: str, stage) -> list[tuple[str, float, float]]:
        """Where he takes each posture in the stage (one mark per posture and place)."""
        i = self.rite.actor_ids.index(aid)
        out: list[tuple[str, float, float]] = []
        for t, kind, v in self._evs(aid, stage.start_s, stage.end_s):
            if kind == "posture" and v in POSTURE_MARK:
                x, y = (float(c) for c in self.rite._actors.at(t)[i][:2])
                if not any(m == POSTURE_MARK[v] and abs(mx - x) < 0.8 and abs(my - y) < 0.8 for m, mx, my in out):
                    out.append((POSTURE_MARK[v], x, y))
        return out

    def parts(self, aid: str) -> list[StagePart]:
        return [p for p in (self.part(aid, s) for s in self.rite.stages) if p is not None]


def _count(says: list[str]) -> tuple[str, ...]:
    """獲, 獲, 獲 → 獲 ×3 (order kept)."""
    out: dict[str, int] = {}
    for s in says:
        out[s] = out.get(s, 0) + 1
    return tuple(s if n == 1 else f"{s} ×{n}" for s, n in out.items())
