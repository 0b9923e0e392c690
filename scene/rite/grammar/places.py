"""Clause family ``places``: a place the clause puts a man at (于X, 適X, X上, X前 …: 西階上, 洗, 篚, 楅, 堂西 …)
is where he is during his act in the steps that cite it (:func:`.predicates.at_place`).

The clause predicates are evaluated once per rite in :mod:`.coverage`; this module reports the failures of this
family as findings."""
from __future__ import annotations

from .context import Ctx, Finding
from .coverage import findings_of


def check(ctx: Ctx) -> list[Finding]:
    return findings_of(ctx, "places")
