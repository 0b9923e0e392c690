"""``python -m scene check --mutate``: the checker's mutation adequacy — seeded errors in every acted clause and
the share the checker kills, per section and operator, beside the coverage's old figure
(``scene.rite.grammar.mutate``)."""
from __future__ import annotations

from .common import dump


def print_mutation(rite, sections: list[int] | None, as_json: bool) -> None:
    from ..rite.grammar.context import Ctx
    from ..rite.grammar.coverage import summary
    from ..rite.grammar.mutate import run
    if sections:
        known = {s.n for s in rite.choreography.sections}
        bad = [n for n in sections if n not in known]
        if bad:
            raise ValueError(f"--section {bad[0]}: the sections are {min(known)}–{max(known)}")
    from .. import progress
    with progress.phase("seeded errors checked", total=None) as ph:
        rep = run(rite, sections=sections, progress=lambda done, total: ph.advance(1, f"seeded errors: group {done} of {total}"))
    cov = summary(Ctx(rite))
    want = set(sections) if sections else set(cov)
    old_checked = sum(cov[n]["checked"] for n in cov if n in want)
    old_acted = sum(cov[n]["acted"] for n in cov if n in want)
    d = rep.as_dict()
    d["coverage_checked"] = old_checked
    d["coverage_acted"] = old_acted
    if as_json:
        dump(d)
        return
    print("§    killed / mutants   score   clauses all killed / mutated")
    per_clause = rep.clauses()
    for n, (k, m) in rep.by_section().items():
        cl = [v for c, v in per_clause.items() if c[0] == n]
        print(f"§{n:<3} {k:5} / {m:<5}      {100 * k / m:5.1f} %   {sum(a == b for a, b in cl):3} / {len(cl)}")
    print("operator        killed / mutants")
    for op, (k, m) in rep.by_operator().items():
        print(f"  {op:13} {k:5} / {m:<5} {100 * k / m:5.1f} %")
    for m in rep.survivors():
        print(f"  survives: {m.label()}")
    total = len(rep.outcomes)
    killed = sum(o.killed for o in rep.outcomes)
    named = sum(o.named for o in rep.outcomes)
    print(f"total: {killed} of {total} mutants killed ({100 * rep.score():.1f} %; {named} name their clause), "
          f"in {rep.seconds:.0f} s under {rep.reading}")
    print(f"clauses checked: {rep.clauses_checked()} of {old_acted} acted have every mutant killed "
          f"({len(per_clause)} have mutants); the coverage's old figure: {old_checked} of {old_acted} "
          f"'checked' (a predicate evaluated)")
