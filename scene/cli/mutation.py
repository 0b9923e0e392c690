"""``python -m scene check --mutate``: the checker's mutation adequacy — seeded errors in every acted clause and
the share the checker kills, per section and operator, beside the coverage's old figure
(``scene.rite.grammar.mutate``)."""
from __future__ import annotations

import sys
import time

from .common import dump


def _progress(quiet: bool):
    """A progress line on a terminal's stderr (nothing when it is not a terminal, or with --quiet)."""
    if quiet or not sys.stderr.isatty():
        return None
    t0 = time.monotonic()

    def show(done: int, total: int) -> None:
        el = time.monotonic() - t0
        left = el / done * (total - done) if done else 0.0
        sys.stderr.write(f"\r  mutants: {done}/{total} checks, {el:.0f} s, ~{left:.0f} s left ")
        if done == total:
            sys.stderr.write("\n")
        sys.stderr.flush()
    return show


def print_mutation(rite, sections: list[int] | None, as_json: bool, quiet: bool = False) -> None:
    from ..rite.grammar.context import Ctx
    from ..rite.grammar.coverage import summary
    from ..rite.grammar.mutate import run
    if sections:
        known = {s.n for s in rite.choreography.sections}
        bad = [n for n in sections if n not in known]
        if bad:
            raise ValueError(f"--section {bad[0]}: the sections are {min(known)}–{max(known)}")
    rep = run(rite, sections=sections, progress=_progress(quiet or as_json))
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
