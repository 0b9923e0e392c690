"""The 記's rules as rows of the clause coverage: each 記 item the ``ji`` rule holds (記09, 20, 26, 30, 34,
37, 39, 46, 49, 53) is listed in every section where a step it governs is acted — the steps
``assets/clauses.toml`` [[ji]] selects by verb (``do``) or by the words of their phrase (``phrase``) —
checked there, and failed where the ``ji`` rule has a finding for that item in that section.  So a 記 rule
shows where it applies, not only where the 經 repeats it."""
from __future__ import annotations

from typing import TYPE_CHECKING

from .clausedata import load as load_data
from .context import Ctx, Finding

if TYPE_CHECKING:
    from .coverage import ClauseCoverage


def ji_findings(ctx: Ctx) -> list[Finding]:
    cached = getattr(ctx, "_ji_findings", None)
    if cached is None:
        from . import ji
        cached = ji.check(ctx)
        ctx._ji_findings = cached
    return cached


def ji_rows(ctx: Ctx, n: int, row_type: type[ClauseCoverage]) -> list[ClauseCoverage]:
    """The 記 rows of section n (``row_type``: :class:`.coverage.ClauseCoverage`)."""
    from ...text import ji as ji_text
    out = []
    spans = ctx.spans_by_section.get(n, [])
    for e in load_data(ctx.chapter).ji:
        steps = [sp for sp in spans if (not e.do or sp.do in e.do) and (not e.phrase or e.phrase in sp.phrase)
                 and (not e.who or e.who in sp.who)]
        if not steps:
            continue
        tag = f"({e.item})"
        fails = tuple(f.line() for f in ji_findings(ctx) if f.section == n and f.word.endswith(tag))
        item = int(e.item[1:])
        out.append(row_type(n, e.item, e.text, ji_text(item, chapter=ctx.chapter).find(e.text), "", tuple(sorted(
            {a for sp in steps for a in sp.who})), tuple(sorted({sp.index for sp in steps})), "checked",
            () if fails else (f"ji:{e.item}",), fails, ""))
    return out
