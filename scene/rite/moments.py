"""Moments of the compiled rite worth naming: a stage by its number or id, and the time that shows it
best (its middle, or in a shooting stage the arrow in flight nearest to it)."""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
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
