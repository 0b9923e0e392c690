"""Mutation adequacy of the rite-grammar checker: seeded errors, as an author would make them, and the share
the checker notices.

A clause "checked" by a predicate that was merely *evaluated* proves nothing; a clause is checked when every
error one could make in acting it is noticed.  For each acted clause of the 經 this module makes small errors in
the compiled tracks of the people who act it — the tracks are what the checker reads, and editing them is a
thousand times faster than recompiling the choreography for each error — and runs the whole checker
(:func:`scene.rite.grammar.check`, exceptions applied, exactly what ``python -m scene check`` reports) on the
mutated rite.  A mutant is *killed* when the checker reports a finding in the mutant's section that it does
not report on the rite as compiled; *named* when that finding cites the very clause (its words or its step).

The operators (``OPERATORS``), each tied to a word of the clause, so that every mutant is an error *of that
clause*:

* ``drop-posture`` — a 坐 / 拜 / 揖 of the clause not acted (the posture left as it was), a 興 not acted (he
  stays kneeling);
* ``swap-posture`` — a 拜 acted as a 揖 and a 揖 as a 拜;
* ``add-posture``  — a kneel where the clause says 立 or 不坐, a bow where it says 不拜;
* ``face-away``    — a X面 of the clause acted facing the other way (heading + 180°);
* ``place-off``    — the act done 10 尺 from where it is (walked there and back at a walking pace);
* ``no-move``      — a motion verb (進 適 反 退 升 降 入 出 復 還) not walked: he stays where he was for the step
  and only afterwards walks on to where the next step begins;
* ``keep-hold``    — what 奠 / 授 / 委 / 釋 / 加 put out of the hands kept in them;
* ``no-hold``      — what 取 / 受 / 執 / 挾 / 搢 / 飲 / 實 / 酌 take, never in the hands;
* ``wrong-actor``  — the act of the clause done by another man present (their postures exchanged);
* ``member-out``   — one member of a 皆 / 辯 group does not act (his posture frozen over the act).

Each section is checked in a view of its own (:func:`windowed`: its steps, its time), against the findings
of the same view unmutated; mutants of one section whose steps are ``STEP_GAP`` or more apart share one
mutated view, each new finding given to the nearest mutant at or before its step (a track edit reaches no
further than its own step).

    from scene.rite.grammar.mutate import run
    report = run(rite, sections=[5, 21])          # a MutationReport
    print(report.score(), report.by_section())
"""
from __future__ import annotations

import copy
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from .context import Finding
from .mutants import (  # noqa: F401  (the harness's names, one import for its users)
    OFF_CHI,
    OPERATORS,
    Mutant,
    changes,
    mutants_of,
    mutated,
)

if TYPE_CHECKING:
    from ..timeline import Rite


@dataclass
class Outcome:
    mutant: Mutant
    killed: bool
    named: bool
    findings: list[Finding] = field(default_factory=list)


@dataclass
class MutationReport:
    outcomes: list[Outcome]
    clauses_acted: int
    seconds: float
    reading: str
    #: mutants that change nothing (nothing of the kind there to drop, keep or take away)
    inert: list[Mutant] = field(default_factory=list)

    def score(self) -> float:
        return sum(o.killed for o in self.outcomes) / len(self.outcomes) if self.outcomes else 1.0

    def named_score(self) -> float:
        return sum(o.named for o in self.outcomes) / len(self.outcomes) if self.outcomes else 1.0

    def _tally(self, key: Callable[[Mutant], Any]) -> dict[Any, tuple[int, int]]:
        """(killed, mutants) per value of ``key``, in the order first met."""
        out: dict[Any, list[int]] = {}
        for o in self.outcomes:
            k = out.setdefault(key(o.mutant), [0, 0])
            k[0] += o.killed
            k[1] += 1
        return {c: (k[0], k[1]) for c, k in out.items()}

    def by_section(self) -> dict[int, tuple[int, int]]:
        """Per section: (killed, mutants)."""
        return dict(sorted(self._tally(lambda m: m.section).items()))

    def by_operator(self) -> dict[str, tuple[int, int]]:
        """Per operator, in :data:`OPERATORS`' order: (killed, mutants)."""
        got = self._tally(lambda m: m.op)
        return {op: got[op] for op in OPERATORS if op in got}

    def clauses(self) -> dict[tuple[int, int], tuple[int, int]]:
        """Per clause (section, offset): (killed, mutants)."""
        return self._tally(lambda m: (m.section, m.clause_start))

    def clauses_checked(self) -> int:
        """Clauses every mutant of which is killed (a clause with no mutant is not counted checked)."""
        return sum(1 for k, m in self.clauses().values() if k == m)

    def survivors(self) -> list[Mutant]:
        return [o.mutant for o in self.outcomes if not o.killed]

    def as_dict(self) -> dict[str, Any]:
        return {"reading": self.reading, "mutants": len(self.outcomes), "killed": sum(o.killed for o in self.outcomes),
                "named": sum(o.named for o in self.outcomes), "score": round(self.score(), 4),
                "clauses_acted": self.clauses_acted, "clauses_mutated": len(self.clauses()),
                "clauses_checked": self.clauses_checked(), "seconds": round(self.seconds, 1),
                "inert": [m.label() for m in self.inert],
                "sections": {str(n): {"killed": k, "mutants": m} for n, (k, m) in self.by_section().items()},
                "operators": {op: {"killed": k, "mutants": m} for op, (k, m) in self.by_operator().items()},
                "survivors": [m.label() for m in self.survivors()]}


# ------------------------------------------------------------------------------------------- the run
#: mutants of one section checked together are at least this many steps apart (each finding is given to the
#: mutant whose step is the nearest at or before its own)
STEP_GAP = 6
#: seconds of the rite kept either side of a section in its view
MARGIN_S = 2.0
#: seconds before and after a mutant's window that its edit reaches (the walk to a misplaced spot and back, at
#: :data:`~.mutants.PACE`; the catch-up after a move not made)
REACH_S = 4.0


def windowed(rite: Rite, section: int) -> Rite:
    """The rite as the rules see one section: its steps alone, and the time from its first step's start to
    its last's end (the rules iterate the steps and sample that time only: a section's check costs a
    fiftieth of the rite's)."""
    r = copy.copy(rite)
    r.spans = [sp for sp in rite.spans if sp.section == section]
    r._span_starts = np.array([sp.start_s for sp in r.spans])
    # (read by the rules through getattr: Ctx.window, audit.sampled)
    r.window = (max(0.0, min(sp.start_s for sp in r.spans) - MARGIN_S),  # type: ignore[attr-defined]
                min(rite.duration, max(sp.end_s for sp in r.spans) + MARGIN_S))
    r.cache_key = None
    r.__dict__.pop("_grammar_ctx", None)
    return r


#: the tracks each operator edits (an edit of what he holds lasts until his holding next changes: two edits of
#: one man's same track in one view would mask each other — 委其餘 kept in hand, then 實八筭 not taken)
TRACKS = {"drop-posture": "p", "swap-posture": "p", "add-posture": "p", "wrong-actor": "p", "face-away": "x",
          "place-off": "x", "no-move": "x", "keep-hold": "h", "no-hold": "h", "member-out": "pxh"}


def _clash(m: Mutant, g: list[Mutant]) -> bool:
    """Whether a mutant edits a track of a man that another of the group edits."""
    mine = {(a, k) for a in (m.aid, m.other) if a for k in TRACKS[m.op]}
    return any((a, k) in mine for o in g for a in (o.aid, o.other) if a for k in TRACKS[o.op])


def spread(muts: Sequence[Mutant], gap: int = STEP_GAP) -> list[list[Mutant]]:
    """One section's mutants in groups whose steps are ``gap`` or more apart, no two editing one man's same
    track."""
    groups: list[list[Mutant]] = []
    for m in sorted(muts, key=lambda m: m.steps[0]):
        g = next((g for g in groups if m.steps[0] - max(g[-1].steps) >= gap and not _clash(m, g)), None)
        if g is None:
            groups.append([m])
        else:
            g.append(m)
    return groups


def _owner(f: Finding, group: list[Mutant]) -> Mutant:
    """The mutant of the group a new finding is the effect of: the one of the clause it cites, else the nearest
    at or before its step (its time)."""
    same = [m for m in group if m.clause == f.phrase]
    if len(same) == 1:
        return same[0]
    if f.t is not None:
        # a finding in the time a mutant's edit reaches (a walk eased in before its step, and out after it)
        near = [m for m in group if m.t0 - REACH_S <= f.t <= m.t1 + REACH_S]
        if len(near) == 1:
            return near[0]
    if f.step is not None:
        before = [m for m in group if m.steps[0] <= f.step]
        if before:
            return before[-1]
    if f.t is not None:
        t = f.t
        return min(group, key=lambda m: 0.0 if m.t0 <= t <= m.t1 else min(abs(t - m.t0), abs(t - m.t1)))
    return group[0]


def _named(f: Finding, m: Mutant) -> bool:
    """Whether a finding cites the mutant's clause: its step, or its words."""
    return f.section == m.section and ((f.step is not None and f.step in m.steps) or
                                       (bool(f.phrase) and (f.phrase in m.clause or m.clause in f.phrase)))


def run(rite: Rite, sections: Iterable[int] | None = None, operators: Sequence[str] = OPERATORS,
        progress: Callable[[int, int], None] | None = None, limit: int | None = None,
        gap: int = STEP_GAP) -> MutationReport:
    """Seed every mutant of these sections (all by default) and run the whole checker on each group."""
    from . import check
    from .coverage import _ctx_of, evaluate
    t_start = time.perf_counter()
    ctx = _ctx_of(rite)
    muts = mutants_of(ctx, sections, operators)
    if limit is not None:
        muts = muts[:limit]
    want = set(sections) if sections is not None else None
    acted = sum(1 for n, evs in evaluate(ctx).items() if want is None or n in want for ev in evs if ev.spans)
    inert = [m for m in muts if not changes(rite, m)]
    muts = [m for m in muts if m not in set(inert)]
    by_section: dict[int, list[Mutant]] = {}
    for m in muts:
        by_section.setdefault(m.section, []).append(m)
    todo = [(n, g) for n in sorted(by_section) for g in spread(by_section[n], gap)]
    outcomes: list[Outcome] = []
    views: dict[int, tuple[Rite, set[tuple[Any, ...]]]] = {}
    for k, (n, group) in enumerate(todo):
        if n not in views:
            view = windowed(rite, n)
            views = {n: (view, {f.key() for f in check(view)})}
        view, base = views[n]
        found = [f for f in check(mutated(view, group)) if f.key() not in base and f.section == n]
        mine: dict[Mutant, list[Finding]] = {m: [] for m in group}
        for f in found:
            mine[_owner(f, group)].append(f)
        for m in group:
            outcomes.append(Outcome(m, bool(mine[m]), any(_named(f, m) for f in mine[m]), mine[m]))
        if progress:
            progress(k + 1, len(todo))
    outcomes.sort(key=lambda o: (o.mutant.section, o.mutant.clause_start, OPERATORS.index(o.mutant.op)))
    return MutationReport(outcomes, acted, time.perf_counter() - t_start, rite.reading.name, inert)
