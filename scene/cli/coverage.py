"""``python -m scene check --coverage``: per section, the clauses of the 經, how many are acted by steps and how
many are checked by a predicate over the tracks, and the rest with why (``scene.rite.grammar.coverage``)."""
from __future__ import annotations

from .common import dump


def coverage_report(rite) -> dict:
    from ..rite.grammar.context import Ctx
    from ..rite.grammar.coverage import summary
    per = summary(Ctx(rite))
    sections = []
    for n, s in per.items():
        sections.append({"section": n, "clauses": s["clauses"], "acted": s["acted"], "checked": s["checked"],
                         "unchecked": [{"text": r.text, "start": r.start, "subject": r.subject, "status": r.status,
                                        "steps": [i + 1 for i in r.steps], "reason": r.reason}
                                       for r in s["unchecked"]]})
    tot = {k: sum(s[k] for s in sections) for k in ("clauses", "acted", "checked")}
    tot["checked_of_acted"] = round(tot["checked"] / tot["acted"], 4) if tot["acted"] else 0.0
    return {"reading": rite.reading.name, "total": tot, "sections": sections}


def print_coverage(rite, as_json: bool) -> None:
    rep = coverage_report(rite)
    if as_json:
        dump(rep)
        return
    for s in rep["sections"]:
        print(f"§{s['section']:<3} clauses {s['clauses']:3}  acted {s['acted']:3}  checked {s['checked']:3}")
        for u in s["unchecked"]:
            why = u["reason"] or ("acted, no predicate applies" if u["status"] == "acted" else "no step acts it")
            print(f"       {u['status']:9} 「{u['text']}」 ({u['subject'] or '—'}): {why}")
    t = rep["total"]
    print(f"total: {t['clauses']} clauses, {t['acted']} acted, {t['checked']} checked "
          f"({100 * t['checked_of_acted']:.1f} % of the acted) under {rep['reading']}")
