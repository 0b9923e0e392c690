"""Does the director's shot show the act?  Each step of the rite held against its camera (issue 27).

A class follows the rite through the director's camera (view ``auto``, :mod:`.shots`), so at the middle of
each step the people the step names must be

* **in frame**, inside the part of the picture the page leaves free: the app's toolbar covers the top and
  the caption band the bottom (:data:`SAFE_TOP`, :data:`SAFE_BOTTOM`, in the frame's half height; left and
  right :data:`SAFE_SIDE`);
* **unoccluded**: no 楹, 序 or court wall (``shots._World``), no other person (a standing body is a
  cylinder of :data:`BODY_R` m to :data:`BODY_H` m) and none of the big things of the court — the 乏 and
  the 侯 — between the camera and their middle and head;
* **with what they act on in sight**: the 中 and the piles while the 釋獲者 counts, the 豐 while a loser
  drinks (``frame_rules.MARKS``);
* **large enough to read a gesture**: a standing figure at least :func:`min_height` of the frame height,
  which depends on how many people the step names (one man bowing must be big; the eight 眾賓 filing in
  can be smaller), unless they stand further apart than the court is wide (no frame shows them all big).

:func:`audit` gives a :class:`Verdict` per step; :func:`share` the share that passes.  The director
(:mod:`.shots`) chooses its shots by the same tests; ``python -m scene camera --audit`` prints the failures.
Pure numpy, no GL: the figures are the pack's, the occluders the layout's.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import shots
from .frame_rules import SAFE_BOTTOM, SAFE_SIDE, SAFE_TOP, mark_points, marks_of, min_height, sight_points


@dataclass(frozen=True)
class Verdict:
    section: int
    index: int
    phrase: str
    who: tuple[str, ...]
    t: float
    in_frame: bool
    unoccluded: bool
    tall: bool
    height: float
    why: str

    @property
    def ok(self) -> bool:
        return self.in_frame and self.unoccluded and self.tall

    def line(self) -> str:
        return (f"§{self.section}.{self.index + 1} {self.phrase} ({', '.join(self.who)}) t={self.t:.1f}: "
                f"{self.why}")


def in_safe_area(v: np.ndarray, pts: np.ndarray) -> bool:
    """All the points in front of the camera, inside the part of the frame the page leaves free."""
    u, w, depth = shots.project(v, pts)
    return bool(np.all(depth > 0.3) and np.all(np.abs(u) <= SAFE_SIDE) and np.all(w <= SAFE_TOP)
                and np.all(w >= SAFE_BOTTOM))


def judge(world, v: np.ndarray, feet: np.ndarray, others: np.ndarray, n: int, target: np.ndarray | None = None,
          width: np.ndarray | None = None):
    """(in frame, unoccluded, tall, height, why) of a camera ``v`` for people at ``feet`` with the other
    people at ``others``; how large they must be drawn by ``n`` and by how far apart they stand together
    with the ones acting with them (``width``) and what they act on (``target``)."""
    heads = feet + (0.0, 0.0, shots.FIGURE_M)
    inside = in_safe_area(v, np.vstack([feet, heads]))
    sight = sight_points(feet)
    hidden = world.hidden(v[:3], sight) or bool(world.occluders.blocked(v[None, :3], sight, others)[0])
    h = float(shots.figure_heights(v, feet).min()) if len(feet) else 0.0
    group = feet if width is None else width
    spread = shots.spread_m(group if target is None else np.vstack([group, target]))
    need = min_height(n, spread)
    tall = h >= need or shots.spread_m(feet) > 2 * world.cw
    why = [] if inside else ["outside the free part of the frame"]
    if hidden:
        why.append("hidden")
    if not tall:
        why.append(f"figure {h:.3f} of the frame < {need:.3f}")
    return inside, not hidden, tall, h, "; ".join(why) or "ok"


def audit(rite, track=None) -> list[Verdict]:
    """A verdict for every step that names someone on stage, at the step's middle."""
    track = track if track is not None else shots.track(rite)
    world = shots._World(rite)
    idx = {a: i for i, a in enumerate(rite.actor_ids)}
    spans = [sp for sp in rite.spans if sp.end_s - sp.start_s >= 1e-3]
    mids = np.array([(sp.start_s + sp.end_s) / 2 for sp in spans])
    starts, ends = np.array([sp.start_s for sp in spans]), np.array([sp.end_s for sp in spans])
    smp = rite.sample(mids) if len(mids) else None
    out = []
    for k, sp in enumerate(spans):
        xyz, vis = smp["actor_xyz_m"][k], np.asarray(smp["visible"][k], bool)
        ids = [idx[a] for a in sp.who if a in idx and vis[idx[a]]]
        if not ids:
            continue
        feet = xyz[ids]
        others = xyz[np.flatnonzero(vis)]          # everyone on stage (a man does not hide himself)
        v = track.at(float(mids[k]))
        target = world.hou[None] if sp.do == "shoot" else None          # what they act on: the 侯
        # how large they can be drawn depends on everyone acting with them (賓序西主人序東皆釋弓: the 賓's
        # step and the 主人's, one frame), as the director frames them (shots.FOCUS_M)
        under_way = np.flatnonzero((starts <= mids[k]) & (ends >= mids[k]))
        group = sorted({idx[a] for j in under_way for a in spans[j].who if a in idx and vis[idx[a]]} | set(ids))
        if shots.spread_m(xyz[group]) <= shots.FOCUS_M and len(group) > len(ids):
            n, width = len(group), xyz[group]
        else:
            n, width = len(ids), feet
        inside, seen, tall, h, why = judge(world, v, feet, others, n, target, width)
        marks = mark_points(rite.layout, marks_of(sp))            # the tally, the 豐
        if len(marks) and not (in_safe_area(v, marks) and not world.occluders.hits(v[None, :3], marks, others).any()):
            inside = False
            why = ("" if why == "ok" else why + "; ") + "the tally or the 豐 not in sight"
        out.append(Verdict(sp.section, sp.index, sp.phrase, tuple(rite.actor_ids[i] for i in ids),
                           float(mids[k]), inside, seen, tall, h, why))
    return out


def share(verdicts: list[Verdict]) -> float:
    return sum(v.ok for v in verdicts) / max(1, len(verdicts))
