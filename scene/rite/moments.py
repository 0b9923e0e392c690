"""Moments of the compiled rite worth naming: a stage by its number or id, and the time that shows it
best (its middle, or in a shooting stage the arrow in flight nearest to it)."""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from .director import Director
    from .state import StageSpan
    from .timeline import Rite


class StageError(ValueError):
    """An unknown stage (one line naming it and what would do)."""


def find_stage(rite: Rite, key: str | int) -> StageSpan:
    """A stage by section number ('21', '§21') or id ('sanou_she')."""
    k = str(key).strip().lstrip("§")
    for s in rite.stages:
        if k == str(s.n) or k == s.id:
            return s
    raise StageError(f"unknown stage {str(key)!r} (stages are 1–{len(rite.stages)} or an id such as "
                     f"{rite.stages[min(20, len(rite.stages) - 1)].id})")


def representative_t(rite: Rite, stage: StageSpan) -> float:
    """The stage's middle — or, in a shooting stage, the arrow in flight nearest to it."""
    mid: float = (stage.start_s + stage.end_s) / 2
    ts = np.linspace(stage.start_s, stage.end_s, 240)
    arrows = [k for k, oid in enumerate(rite.object_ids) if oid.startswith("arrow.")]
    if not arrows:
        return mid
    best = None
    for t in ts:
        st = rite._ostate.at(float(t)) if hasattr(rite, "_ostate") else rite.pose_at(float(t)).object_state
        if any("flight" in (st[k] or "") for k in arrows):
            if best is None or abs(t - mid) < abs(best - mid):
                best = float(t)
    if best is None:
        return mid
    # nudge to the middle of that flight so the arrow is well clear of the bow
    return best


def up_before_kneel(director: Director, aid: str, t0: float, t1: float) -> float | None:
    """How long ``aid`` is on his feet before he kneels: the seconds he stands or walks before the first kneel
    that starts in [t0, t1] (since he last rose from kneeling, or since the posture before it began).

    Parameters
    ----------
    director : Director
        The compiled rite's director (``rite.director``): each actor's posture events.
    aid : str
        The actor's id.
    t0, t1 : float
        The window, in rite seconds, in which the kneel must start.

    Returns
    -------
    float or None
        The seconds; None when no kneel starts in the window (he was still kneeling: a 興 between two
        kneelings, 卒爵興坐奠爵, was never acted).
    """
    ps = [(t, v) for t, k, v in director.actors[aid].events if k == "posture" and v in ("sit", "stand", "walk")]
    for i in range(1, len(ps)):
        tb, vb = ps[i]
        if t0 - 1e-6 <= tb <= t1 and vb == "sit" and ps[i - 1][1] != "sit":
            ups = [ps[j + 1][0] for j in range(i - 1) if ps[j][1] == "sit" and ps[j + 1][1] != "sit"]
            return float(tb - (max(ups) if ups else ps[i - 1][0]))
    return None
