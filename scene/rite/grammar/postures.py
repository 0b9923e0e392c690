"""Clause family ``postures``: the posture words of a clause (坐 興 拜 揖 立) acted as one sequence, each word a
change of posture in the text's order, within the man's own steps that cite the clause
(:func:`.predicates.posture_sequence`).

The clause predicates are evaluated once per rite in :mod:`.coverage`; this module reports the failures of this
family as findings."""
from __future__ import annotations

from .context import Ctx, Finding
from .coverage import findings_of


def check(ctx: Ctx) -> list[Finding]:
    return findings_of(ctx, "postures")
