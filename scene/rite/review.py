"""A scholar's report of one section (考): clause by clause, the words, who acts, where, facing, the postures,
what each holds, the times, the evidence and the checks — gathered from the compiled rite, pure data.

The clauses come from the checker's clause coverage (``scene.rite.grammar.coverage.section_clauses``, one
row per 經 clause and per 記 item that applies) when that module is there; without it, from the steps
themselves: the section's steps grouped by the phrase they act, in text order, the 記 items their notes
cite (記NN) as rows of their own, and what the grammar's rules found on those steps (their findings, cached
on disk beside the compiled rite: the whole rite's rules take ~10 s, a report must not).  The formatting
(terminal text, HTML) is in ``scene.print.review`` and ``scene.web.review``.
"""
from __future__ import annotations

import re
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from ..geometry.layout import Layout
    from . import choreography as chor
    from .grammar.context import Finding
    from .grammar.coverage import ClauseCoverage
    from .state import StepSpan
    from .timeline import Rite

    CoverageFn = Callable[[Rite, int], list[ClauseCoverage]]

#: the posture tracks' values as the text words them (坐 kneeling, 立 standing, 興 rising from 坐 …)
POSTURE_WORDS = {"stand": "立", "sit": "坐", "bow": "拜", "salute": "揖", "shoot": "射", "walk": "行"}
#: places too large or too abstract to say where a man stands (a dimension, the roof's members, the range)
_NOT_A_SPOT = re.compile(r"depth|ridge|lintel|purlin|houdao|body_|hall\.tang$")
_JI_CITED = re.compile(r"記(\d{1,2})")


@dataclass(frozen=True)
class ActorPart:
    """One actor's part in a clause (位, 面, 坐立, 執): at the middle of his first act in it."""

    id: str
    name: str                  # the cast's name (主人, 大夫 …)
    role: str                  # his role at that moment (the 相 is 司正, then 司馬 …)
    t: float                   # seconds into the stage of that moment
    xyz_chi: tuple[float, float, float]
    place_id: str              # the nearest named place
    place_name: str
    place_dist_chi: float
    heading_deg: float
    facing_word: str           # the compass word nearest his heading (北面 …)
    postures: tuple[str, ...]  # the posture words in order over the clause (立 → 坐 → 興)
    holding_before: str
    holding_after: str


@dataclass(frozen=True)
class StepEvidence:
    """The evidence of one step (scene.rite.evidence): aspect → (status, source)."""

    index: int                 # 0-based in the section
    verb: str
    who: tuple[str, ...]
    evidence: tuple[tuple[str, str, str], ...]   # (aspect, status, source)


@dataclass(frozen=True)
class ClauseReview:
    k: int                     # 1-based, in text order: the page's anchor #c<k>
    source: str                # "經" or "記NN"
    text: str
    start: int                 # offset in the section's 經 (記: in the item's text)
    subject: str               # the name the text gives ("" when implicit)
    actor_ids: tuple[str, ...]
    steps: tuple[int, ...]
    status: str                # checked | acted | not-acted
    checks: tuple[str, ...]    # predicates that examined it and hold
    failures: tuple[str, ...]  # one line each
    excepted: tuple[str, ...]  # findings a deliberate exception (assets/grammar.toml) covers, with its reason
    reason: str
    ji: tuple[str, ...]        # the 記 items that apply ("記08") — on a 經 clause
    t0: float | None           # seconds into the stage
    t1: float | None
    actors: tuple[ActorPart, ...]
    evidence: tuple[StepEvidence, ...]


@dataclass(frozen=True)
class SectionReview:
    n: int
    id: str
    title: str
    jing: str                  # the section's 經, verbatim
    reading: str
    basis: str                 # "coverage" (section_clauses) or "steps" (the fallback)
    start_s: float | None      # the stage in the rite (None: not played under this reading)
    end_s: float | None
    clauses: tuple[ClauseReview, ...]
    ji_texts: dict[str, str] = field(default_factory=dict)     # "記08" → its words
    last: int = 0                # the chapter's last section (0: not known; the page links §n−1 and §n+1)
    section_failures: tuple[str, ...] = ()     # findings about the section as a whole

    def clause_of_offset(self, offset: int) -> int | None:
        """The clause (k) of the 經 that covers a character offset (a player's phrase → its anchor)."""
        best = None
        for c in self.clauses:
            if c.source == "經" and c.start <= offset < c.start + max(len(c.text), 1):
                if best is None or len(c.text) < len(best.text):
                    best = c
        return best.k if best else None


def coverage_source() -> CoverageFn | None:
    """``section_clauses`` of the checker's clause coverage, or None while it does not exist."""
    try:
        from .grammar.coverage import section_clauses
    except ImportError:
        return None
    return section_clauses


def review_section(rite: Rite, n: int, section_clauses: Any = ...) -> SectionReview:
    """The report of section ``n`` (1…its chapter's last) of a compiled rite.  ``section_clauses``: the coverage
    function to use (default: :func:`coverage_source`); None: the fallback from the steps."""
    from ..text.jing import ji_items
    sec = rite.choreography.section(int(n))
    n = sec.n
    stage = next((s for s in rite.stages if s.n == n), None)
    spans = {sp.index: sp for sp in rite.spans if sp.section == n}
    fn = coverage_source() if section_clauses is ... else section_clauses
    section_failures: tuple[str, ...] = ()
    if fn is not None:
        rows = _coverage_rows(rite, n) if section_clauses is ... else [_from_coverage(r) for r in fn(rite, n)]
        basis = "coverage"
    else:
        rows, section_failures = _from_steps(rite, sec, spans)
        basis = "steps"
    items = ji_items(chapter=rite.choreography.chapter)
    ji_texts = {r["source"]: items.get(int(r["source"][1:]), "") for r in rows if r["source"].startswith("記")}
    # the 記 items that apply to a 經 clause: those whose rows share a step with it
    ji_steps = {r["source"]: set(r["steps"]) for r in rows if r["source"].startswith("記")}
    evs = _evidence_by_step(rite, n)
    base = stage.start_s if stage else 0.0
    out = []
    for k, r in enumerate(rows, start=1):
        sps = [spans[i] for i in r["steps"] if i in spans]
        ji = tuple(sorted(j for j, st in ji_steps.items() if st & set(r["steps"]))) if r["source"] == "經" else ()
        t0 = min(sp.start_s for sp in sps) if sps else None
        t1 = max(sp.end_s for sp in sps) if sps else None
        ids = tuple(dict.fromkeys([*r["actors"], *(a for sp in sps for a in sp.who)]))
        parts = tuple(_actor_part(rite, aid, sps, t0, t1, base) for aid in ids
                      if aid in rite.actor_ids and any(aid in sp.who for sp in sps)) \
            if t0 is not None and t1 is not None else ()     # (no steps: nobody's part)
        out.append(ClauseReview(
            k=k, source=r["source"], text=r["text"], start=r["start"], subject=r["subject"],
            actor_ids=ids, steps=tuple(r["steps"]), status=r["status"], checks=tuple(r["checks"]),
            failures=tuple(r["failures"]), excepted=tuple(r.get("excepted", ())), reason=r["reason"], ji=ji,
            t0=None if t0 is None else t0 - base, t1=None if t1 is None else t1 - base, actors=parts,
            evidence=tuple(evs[i] for i in r["steps"] if i in evs)))
    from ..geometry.readings import to_query
    return SectionReview(n=n, id=sec.id, title=sec.title, jing=rite.choreography.passage(n).text, reading=to_query(rite.reading),
                         basis=basis, start_s=stage.start_s if stage else None,
                         end_s=stage.end_s if stage else None, clauses=tuple(out), ji_texts=ji_texts,
                         section_failures=section_failures, last=rite.chapter.sections)


def _from_coverage(c: ClauseCoverage) -> dict[str, Any]:
    return {"source": c.source, "text": c.text, "start": c.start, "subject": c.subject, "actors": tuple(c.actors),
            "steps": tuple(c.steps), "status": c.status, "checks": tuple(c.checks),
            "failures": tuple(c.failures), "reason": c.reason}


def _from_steps(rite: Rite, sec: chor.Section, spans: dict[int, StepSpan]) -> tuple[list[dict[str, Any]], tuple[str, ...]]:
    """The fallback: one clause per distinct phrase the steps act (offset, phrase), in text order; one row
    per 記 item the steps' notes or evidence cite, after the first clause that cites it."""
    from ..text.jing import ji_items
    from .grammar.phrase import named
    left, excused = section_findings(rite, sec.n)
    groups: dict[tuple[int, str], list[int]] = {}
    for i, st in enumerate(sec.steps):
        groups.setdefault((st.offset, st.phrase), []).append(i)
    rows: list[dict[str, Any]] = []
    placed: set[str] = set()
    for (off, phrase), idx in sorted(groups.items(), key=lambda kv: (kv[0][0], len(kv[0][1]))):
        played = [i for i in idx if i in spans]
        names = named(sec.n, off, phrase, rite.choreography.chapter)   # the names the phrase itself gives; else implicit
        subject = "、".join(names)
        fails = tuple(f.line() for f in left if f.step in idx)
        exc = tuple(f"{f.line()} — excepted: {e.reason}" for f, e in excused if f.step in idx)
        rows.append({"source": "經", "text": phrase, "start": off, "subject": subject,
                     "actors": tuple(dict.fromkeys(a for i in played for a in spans[i].who)),
                     "steps": tuple(played), "status": "acted" if played else "not-acted", "checks": (),
                     "failures": fails, "excepted": exc,
                     "reason": "" if played else "no step is played under this reading (若有遵者 …)"})
        cited: dict[str, list[int]] = {}
        for i in idx:
            st = sec.steps[i]
            for m in _JI_CITED.finditer(st.note + " ".join(e[2] for e in st.evidence)):
                cited.setdefault(f"記{int(m.group(1)):02d}", []).append(i)
        for j in sorted(cited):
            if j in placed:
                continue
            placed.add(j)
            all_idx = [i for i, st in enumerate(sec.steps)
                       if any(f"記{int(m.group(1)):02d}" == j for m in _JI_CITED.finditer(
                           st.note + " ".join(e[2] for e in st.evidence)))]
            played_j = [i for i in all_idx if i in spans]
            rows.append({"source": j, "text": ji_items().get(int(j[1:]), ""), "start": 0, "subject": "",
                         "actors": tuple(dict.fromkeys(a for i in played_j for a in spans[i].who)),
                         "steps": tuple(played_j), "status": "acted" if played_j else "not-acted", "checks": (),
                         "failures": (), "reason": "cited in the notes of the steps that act it"})
    whole = tuple(f.line() for f in left if f.step is None)
    return rows, whole


def _coverage_rows(rite: Rite, n: int) -> list[dict[str, Any]]:
    """The coverage's rows of section ``n``: on a miss, every section's at once (its first call reads the
    whole rite: seconds; each further section is a fraction of that), kept on disk beside the compiled rite
    (the key hashes the coverage's code and data too) and in memory for the rite — a second report of any
    section does not pay again, nor read the file again."""
    fn = coverage_source()
    assert fn is not None                     # (asked only when the coverage exists)
    made_by, every = _COVERAGE.get(rite, (None, None))
    if made_by is not fn or every is None or n not in every:
        f = _cache_file(rite, "coverage")
        every = _read_cache(f) if f is not None else None
        if every is None or n not in every:
            every = {s.n: [_from_coverage(r) for r in fn(rite, s.n)] for s in rite.choreography.sections}
            _write_cache(f, every)
        _COVERAGE[rite] = (fn, every)
    rows: list[dict[str, Any]] = every[n]
    return rows


#: per rite, the coverage's function and every section's rows it gave (another function — a test's — asks again)
_COVERAGE: weakref.WeakKeyDictionary[Rite, tuple[Any, dict[int, list[dict[str, Any]]]]] = weakref.WeakKeyDictionary()


def _cache_file(rite: Rite, what: str) -> Path | None:
    from .. import settings
    from .cache import cache_dir, rite_key
    if settings.no_cache():
        return None
    # the chapter in the key: chapter 4's §7 is not chapter 5's (chapter 5's key is what it was)
    return cache_dir() / f"{what}-{rite.reading.name}-{rite_key(rite.reading, None, chapter=rite.choreography.chapter)}.pickle"


def _read_cache(f: Path | None) -> Any:
    """A cached value, signed by this user's key (rite/cache.py): a planted or broken entry is rebuilt, never
    unpickled."""
    from .cache import CacheEntryError, CacheError, signed_load
    if f is None:
        return None
    try:
        return signed_load(f)
    except (CacheEntryError, CacheError, OSError):
        return None


def _write_cache(f: Path | None, value: object) -> None:
    if f is None:
        return
    from .cache import CacheError, signed_dump
    try:
        signed_dump(value, f)
        # as the compiled rites are kept (cache.py): the last four of a kind and reading, the rest removed
        kind = f.name.rsplit("-", 1)[0]
        old = sorted(f.parent.glob(f"{kind}-*.pickle"), key=lambda p: p.stat().st_mtime)
        for stale in old[:-4]:
            stale.unlink(missing_ok=True)
    except (OSError, CacheError):
        pass


# ---------------------------------------------------------------- the rules' findings, cached
_FOUND: weakref.WeakKeyDictionary[Rite, list[Finding]] = weakref.WeakKeyDictionary()


def section_findings(rite: Rite, n: int) -> tuple[list[Finding], list[tuple[Finding, Any]]]:
    """(findings no exception covers, [(finding, exception)]) of section ``n``: the grammar's rules over the
    whole rite, once per compiled rite, kept on disk beside it (its key hashes the rules' code too)."""
    if rite not in _FOUND:
        _FOUND[rite] = _all_findings(rite)
    from .grammar import exceptions
    raw = [f for f in _FOUND[rite] if f.section == n]
    return exceptions.apply(raw, chapter=rite.choreography.chapter)


def warm_file(rite: Rite) -> Path | None:
    """The disk cache the reports of this rite need (the coverage's rows, or the findings without it); None:
    caching is off."""
    return _cache_file(rite, "coverage" if coverage_source() is not None else "findings")


def warm(rite: Rite) -> None:
    """Fill :func:`warm_file` and the evidence's cache (a site's forked child does it while the pack is built)."""
    _all_evidence(rite)
    if coverage_source() is not None:
        _coverage_rows(rite, rite.choreography.sections[0].n)
    else:
        _all_findings(rite)


def findings_file(rite: Rite) -> Path | None:
    """The disk cache of the rules' findings on this rite (None: caching is off)."""
    return _cache_file(rite, "findings")


def _all_findings(rite: Rite) -> list[Finding]:
    from . import grammar
    f = findings_file(rite)
    found: list[Finding] | None = _read_cache(f)
    if found is None:
        found = grammar.findings(rite)
        _write_cache(f, found)
    return found


# ---------------------------------------------------------------- one actor in a clause
def facing_word(heading: float) -> str:
    """The compass word (北面 …) nearest a heading (0 = north, 90 = east)."""
    from .grammar.words import FACINGS
    return min(FACINGS, key=lambda w: abs(((heading - FACINGS[w] + 180.0) % 360.0) - 180.0))


def nearest_place(lay: Layout, xyz_chi: Sequence[float]) -> tuple[str, str, float]:
    """(id, name, distance in 尺) of the named place nearest a point."""
    best = ("", "", float("inf"))
    p = np.asarray(xyz_chi, dtype=float)
    for pl in lay.places.values():
        if _NOT_A_SPOT.search(pl.id):
            continue
        d = float(np.linalg.norm(np.asarray(pl.xyz_chi, dtype=float) - p))
        if d < best[2]:
            best = (pl.id, pl.name, d)
    return best


def _track_value(track: tuple[np.ndarray, Sequence[Any]], t: float) -> Any:
    ts, vs = track
    i = int(np.searchsorted(ts, t, side="right")) - 1
    return vs[max(i, 0)]


def posture_sequence(rite: Rite, aid: str, t0: float, t1: float) -> tuple[str, ...]:
    """The posture words over [t0, t1): the one in force at t0, then each change (坐 → 立 reads 興)."""
    ts, vs = rite._postures[aid]
    # events at one instant: only the last holds (a 坐 then a 揖 at the same time is a 揖); events at t1 are
    # the next clause's
    last = {float(t): v for t, v in zip(ts, vs) if t0 < t < t1}
    seq = [_track_value((ts, vs), t0)] + [last[t] for t in sorted(last)]
    at_end = [v for t, v in zip(ts, vs) if abs(t - t1) < 1e-6]
    if seq[-1] == "sit" and any(v in ("stand", "walk") for v in at_end):
        seq.append("stand")          # 坐X興: the rise closes the act, timed at its very end
    words: list[str] = []
    prev = None
    for v in seq:
        if v == prev:
            continue
        w = "興" if prev == "sit" and v == "stand" else POSTURE_WORDS.get(v, v)
        words.append(w)
        prev = v
    return tuple(words)


def _actor_part(rite: Rite, aid: str, sps: list[StepSpan], t0: float, t1: float, base: float) -> ActorPart:
    first = next(sp for sp in sps if aid in sp.who)
    act = first.act_of(aid)
    t = (act[0] + act[1]) / 2 if act else (first.start_s + first.end_s) / 2
    pose = rite.pose_at(t)
    i = pose.actor_ids.index(aid)
    chi = rite.reading.chi_m
    x, y, z = (round(float(c) / chi, 2) for c in pose.actor_xyz_m[i])
    xyz = (x, y, z)
    pid, pname, dist = nearest_place(rite.layout, xyz)
    hdg = float(pose.heading_deg[i]) % 360.0
    k = rite.actor_ids.index(aid)
    hold = rite._holding.tracks[k]
    return ActorPart(id=aid, name=rite.names.get(aid, aid), role=pose.role[i] or rite.names.get(aid, aid),
                     t=t - base, xyz_chi=xyz, place_id=pid, place_name=pname, place_dist_chi=round(dist, 1),
                     heading_deg=round(hdg, 1), facing_word=facing_word(hdg),
                     postures=posture_sequence(rite, aid, t0, t1),
                     holding_before=str(_track_value(hold, t0 - 1e-6) or ""),
                     holding_after=str(_track_value(hold, t1) or ""))


def _evidence_by_step(rite: Rite, n: int) -> dict[int, StepEvidence]:
    return {i: e for (sec, i), e in _all_evidence(rite).items() if sec == n}


_EVIDENCE: weakref.WeakKeyDictionary[Rite, dict[tuple[int, int], StepEvidence]] = weakref.WeakKeyDictionary()


def _all_evidence(rite: Rite) -> dict[tuple[int, int], StepEvidence]:
    """(section, index) → the evidence of every step (scene.rite.evidence), once per compiled rite, kept on
    disk beside it: reading whose words a step's are takes the checker's subjects over the whole rite."""
    if rite in _EVIDENCE:
        return _EVIDENCE[rite]
    f = _cache_file(rite, "evidence")
    out: dict[tuple[int, int], StepEvidence] | None = _read_cache(f)
    if out is None:
        from .evidence import ASPECTS, rite_evidence
        out = {(sp.section, sp.index): StepEvidence(sp.index, sp.do, tuple(sp.who),
                                                    tuple((a, ev[a].status, ev[a].source) for a in ASPECTS))
               for sp, ev in zip(rite.spans, rite_evidence(rite))}
        _write_cache(f, out)
    _EVIDENCE[rite] = out
    return out
