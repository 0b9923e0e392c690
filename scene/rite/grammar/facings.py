"""Clause family ``facings``: a facing word of a clause (北面, 東南面 …; a place's side is not a facing:
西階之東 北面) held at the end of the man's act in the steps that cite it (:func:`.predicates.facing_test`).

The clause predicates are evaluated once per rite in :mod:`.coverage`; this module reports the failures of this
family as findings."""
from __future__ import annotations

from .context import Ctx, Finding
from .coverage import findings_of


def check(ctx: Ctx) -> list[Finding]:
    return findings_of(ctx, "facings")
