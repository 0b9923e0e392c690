"""Clause family ``every``: 辯: every member of the group named acts (or is acted for).

The clause predicates are evaluated once per rite in :mod:`.coverage` (with :mod:`.predicates`); this
module reports the failures of this family as findings."""
from __future__ import annotations

from .context import Ctx, Finding
from .coverage import findings_of


def check(ctx: Ctx) -> list[Finding]:
    return findings_of(ctx, "every")
