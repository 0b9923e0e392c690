"""Clause family ``verb``: its act is done (升 reaches the 階/堂, 降 the ground, 取/受/執 leave a thing in hand, 奠/授 change what is held, 入/出 pass the 門, 洗/盥 at the 洗, 適 moves, 射 shoots, words said in sight).

The clause predicates are evaluated once per rite in :mod:`.coverage` (with :mod:`.predicates`); this
module reports the failures of this family as findings."""
from __future__ import annotations

from .context import Ctx, Finding
from .coverage import findings_of


def check(ctx: Ctx) -> list[Finding]:
    return findings_of(ctx, "verb")
