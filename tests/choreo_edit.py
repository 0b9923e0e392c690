"""A choreography with some steps changed, dropped or moved: what the checker's tests feed it to show that a
rule can fail (tests/test_grammar.py, tests/test_coverage.py)."""
from __future__ import annotations

import dataclasses

from scene.rite import choreography as chor


def mutated(edits, drop=(), first=None):
    """The choreography with steps changed ((section, phrase, who) → field values) or dropped, or one step
    moved before another (``first``: ((section, phrase, who), (phrase, who)))."""
    c = chor.load()
    sections = []
    for s in c.sections:
        steps = []
        if first and first[0][0] == s.n:
            (n, p1, w1), (p2, w2) = first
            lst = list(s.steps)
            a = next(i for i, st in enumerate(lst) if st.phrase == p1 and w1 in st.who)
            b = next(i for i, st in enumerate(lst) if st.phrase == p2 and w2 in st.who)
            lst.insert(b, lst.pop(a))
            s = dataclasses.replace(s, steps=tuple(lst))
        for st in s.steps:
            if any(s.n == n and st.phrase == p and w in st.who for n, p, w in drop):
                continue
            for (n, phrase, who), change in edits.items():
                if s.n == n and st.phrase == phrase and who in st.who:
                    st = dataclasses.replace(st, **change)
            steps.append(st)
        sections.append(dataclasses.replace(s, steps=tuple(steps)))
    return dataclasses.replace(c, sections=tuple(sections))
