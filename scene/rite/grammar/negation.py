"""Clause family ``negation``: 不拜 / 不坐 / 不升堂 / 不祭 / 不洗 / 不辭: what the words deny is not seen in his steps.

The clause predicates are evaluated once per rite in :mod:`.coverage` (with :mod:`.predicates`); this
module reports the failures of this family as findings."""
from __future__ import annotations

from .context import Ctx, Finding
from .coverage import findings_of


def check(ctx: Ctx) -> list[Finding]:
    return findings_of(ctx, "negation")
