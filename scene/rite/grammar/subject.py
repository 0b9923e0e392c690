"""Clause family ``subject``: a named subject is among the actors of the steps that cite the clause.

The clause predicates are evaluated once per rite in :mod:`.coverage` (with :mod:`.predicates`); this
module reports the failures of this family as findings."""
from __future__ import annotations

from .context import Ctx, Finding
from .coverage import findings_of


def check(ctx: Ctx) -> list[Finding]:
    return findings_of(ctx, "subject")
