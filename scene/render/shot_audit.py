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
(:mod:`.shots`) chooses its shots by the same tests (:mod:`.shot_checks`); ``python -m scene camera --audit`` prints the failures.
Pure numpy, no GL: the figures are the pack's, the occluders the layout's.
"""
from __future__ import annotations

from dataclasses import dataclass

from . import shots
from .frame_rules import sight_points
from .shot_checks import checks, in_safe_area, judge

__all__ = ["Verdict", "audit", "share", "in_safe_area", "sight_points"]


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


def audit(rite, track=None, world=None, cs=None) -> list[Verdict]:
    """A verdict for every step that names someone on stage, at the step's middle (``world`` and ``cs``: the
    camera world and the checks, when the caller has made them already)."""
    track = track if track is not None else shots.track(rite)
    world = world if world is not None else shots._World(rite)
    out = []
    for c in (cs if cs is not None else checks(rite, world)):
        inside, seen, tall, h, why = judge(world, track.at(c.t), c)
        sp = c.span
        out.append(Verdict(sp.section, sp.index, sp.phrase, tuple(rite.actor_ids[i] for i in c.ids),
                           c.t, inside, seen, tall, h, why))
    return out


def share(verdicts: list[Verdict]) -> float:
    return sum(v.ok for v in verdicts) / max(1, len(verdicts))
