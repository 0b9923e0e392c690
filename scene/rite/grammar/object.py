"""Clause family ``object``: what 取 / 受 / 執 / 以 / 奠 / 授 names is what he holds; a person saluted, offered or commanded is there.

The clause predicates are evaluated once per rite in :mod:`.coverage` (with :mod:`.predicates`); this
module reports the failures of this family as findings."""
from __future__ import annotations

from .context import Ctx, Finding
from .coverage import findings_of


def check(ctx: Ctx) -> list[Finding]:
    return findings_of(ctx, "object")
