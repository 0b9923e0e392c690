"""The checker's mutation adequacy (scene/rite/grammar/mutate.py, ``python -m scene check --mutate``): that each
seeded error is the error it says it is, that an error that changes nothing is not counted, that mutants
checked together are judged as they would be alone, that no failed predicate stays unreported, and the
figures the README gives."""
from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

from scene.rite import grammar
from scene.rite.grammar import mutate
from scene.rite.grammar.coverage import FAMILIES, _ctx_of, evaluate, facing_at


def _one(rite, op, n, want=lambda m: True):
    ctx = _ctx_of(rite)
    view = mutate.windowed(rite, n)
    for m in mutate.mutants_of(ctx, [n], (op,)):
        if want(m) and mutate.changes(view, m):
            return view, m, mutate.mutated(view, [m])
    raise AssertionError(f"no {op} mutant in §{n}")


def _posture(r, aid, t):
    ts, vs = r._posture.tracks[r.actor_ids.index(aid)]
    return vs[max(int(np.searchsorted(ts, t, side="right")) - 1, 0)]


def _holding(r, aid, t):
    ts, vs = r._holding.tracks[r.actor_ids.index(aid)]
    return vs[max(int(np.searchsorted(ts, t, side="right")) - 1, 0)]


def _values(track, t0, t1):
    ts, vs = track
    i0 = max(int(np.searchsorted(ts, t0, side="right")) - 1, 0)
    return [vs[i] for i in range(i0, len(ts)) if ts[i] <= t1]


def test_each_operator_makes_the_error_it_names(rite):
    """Each operator changes the tracks as it says, over its own step, and leaves the rite itself alone."""
    before = [np.array(t) for t, _ in rite._posture.tracks]
    # a 拜 dropped: no bow of his over the step any more
    view, m, r = _one(rite, "drop-posture", 5, lambda m: m.word == "拜")
    k = r.actor_ids.index(m.aid)
    assert "bow" in _values(view._posture.tracks[k], m.t0, m.t1)
    assert "bow" not in _values(r._posture.tracks[k], m.t0, m.t1)
    # a 興 dropped: still kneeling when his step ends
    view, m, r = _one(rite, "drop-posture", 7, lambda m: m.word == "興")
    assert _posture(r, m.aid, m.t1) == "sit"
    # a 拜 acted as a 揖
    view, m, r = _one(rite, "swap-posture", 5, lambda m: m.word == "拜")
    k = r.actor_ids.index(m.aid)
    assert "bow" not in _values(r._posture.tracks[k], m.t0, m.t1)
    assert "salute" in _values(r._posture.tracks[k], m.t0, m.t1)
    # facing the other way as his act ends
    view, m, r = _one(rite, "face-away", 5)
    h0 = float(view._actors.at(m.a1)[r.actor_ids.index(m.aid), 3])
    h1 = float(r._actors.at(m.a1)[r.actor_ids.index(m.aid), 3])
    assert abs(((h1 - h0) % 360.0) - 180.0) < 1e-6
    # 10 尺 off over his act, at a walking pace there and back
    view, m, r = _one(rite, "place-off", 5)
    k = r.actor_ids.index(m.aid)
    d = np.linalg.norm(r._actors.at(0.5 * (m.a0 + m.a1))[k, :2] - view._actors.at(0.5 * (m.a0 + m.a1))[k, :2])
    assert abs(d / rite.reading.chi_m - mutate.OFF_CHI) < 1e-6
    # the move not walked: where he was at the step's start until it ends
    view, m, r = _one(rite, "no-move", 5, lambda m: m.word == "降")
    k = r.actor_ids.index(m.aid)
    assert np.allclose(r._actors.at(m.t1)[k, :3], view._actors.at(m.t0)[k, :3])
    # what 奠 puts down kept in hand after the step
    view, m, r = _one(rite, "keep-hold", 5)
    assert _holding(r, m.aid, m.t1 + 0.6) and _holding(r, m.aid, m.t1 + 0.6) != _holding(view, m.aid, m.t1 + 0.6)
    # what 取 takes never in hand over the step
    view, m, r = _one(rite, "no-hold", 5, lambda m: m.word == "取")
    k = r.actor_ids.index(m.aid)
    assert any(_values(view._holding.tracks[k], m.t0, m.t1)) and not any(
        _values(r._holding.tracks[k], m.t0, m.t1)[1:])
    # the wrong man: the other does what he did, and he what the other did
    view, m, r = _one(rite, "wrong-actor", 5)
    k, j = r.actor_ids.index(m.aid), r.actor_ids.index(m.other)
    assert _values(r._posture.tracks[j], m.t0 + 1e-6, m.t1)[1:] == _values(view._posture.tracks[k], m.t0 + 1e-6, m.t1)[1:]
    assert [np.array(t) for t, _ in rite._posture.tracks][0].tolist() == before[0].tolist()


def test_a_mutant_that_changes_nothing_is_inert_and_not_scored(rite):
    """A 坐 to drop where he does not kneel changes no track: it is neither killed nor a survivor."""
    ctx = _ctx_of(rite)
    m = next(m for m in mutate.mutants_of(ctx, [5], ("drop-posture",)) if m.word == "坐")
    still = mutate.Mutant("drop-posture", m.section, m.clause_start, m.clause, "坐", m.aid, 1.0, 2.0, m.steps)
    view = mutate.windowed(rite, 5)
    assert _posture(view, m.aid, 1.5) != "sit" and not mutate.changes(view, still)
    assert mutate.changes(view, m)


def test_a_dropped_rise_and_a_bow_acted_as_a_salute_are_caught(rite):
    """The two errors of the third reading's X6 and of the seeded probe, on §7's clauses: every mutant of
    those operators in §7 that changes the tracks is killed, and the findings name the clause."""
    rep = mutate.run(rite, sections=[7], operators=("drop-posture", "swap-posture"))
    assert rep.outcomes, "no mutant"
    survivors = [o.mutant.label() for o in rep.outcomes if not o.killed]
    assert not survivors, survivors
    assert all(o.named for o in rep.outcomes)


@pytest.mark.slow         # each mutant alone: a check per mutant
def test_mutants_checked_together_are_judged_as_alone(rite):
    """Mutants of one section checked in one view (STEP_GAP apart) are killed or survive exactly as when each
    is checked by itself."""
    together = mutate.run(rite, sections=[5], limit=30)
    alone = mutate.run(rite, sections=[5], limit=30, gap=10 ** 6)
    a = {o.mutant: o.killed for o in together.outcomes}
    b = {o.mutant: o.killed for o in alone.outcomes}
    assert a == b
    assert len(mutate.spread([o.mutant for o in together.outcomes])) < len(together.outcomes)


def test_no_failed_predicate_is_left_unreported(rite):
    """Every predicate the coverage evaluates belongs to a family whose failures are findings of ``check``
    (the posture words and the facings were once measured and never reported)."""
    fams = {fam for evs in evaluate(_ctx_of(rite)).values() for ev in evs for fam, *_ in ev.results}
    assert fams <= set(FAMILIES), fams - set(FAMILIES)
    assert set(FAMILIES) <= set(grammar.CLAUSE_RULES)


@pytest.mark.parametrize("text, want", [
    ("司射進與司馬交于階前相左由堂下西階之東北面視上射", "北面"),     # 西階之東, then 北面
    ("三耦俟于堂西南面東上", "南面"),                                 # 堂西, then 南面
    ("賓主人之西北面拜送", "北面"),
    ("主人西南面三拜眾賓", "西南面"),                                 # a facing of two directions
    ("立于物間西南面揖弓", "西南面"),
])
def test_a_place_s_side_is_not_read_as_a_facing(text, want):
    assert facing_at(text, text.index("面")) == want


@pytest.mark.slow         # the command line, one section
def test_the_command_reports_the_score_per_section_and_the_survivors(tmp_path):
    out = subprocess.run([sys.executable, "-m", "scene", "check", "--mutate", "--section", "9", "--json"],
                         capture_output=True, text=True, timeout=900)
    assert out.returncode == 0, out.stderr
    rep = json.loads(out.stdout)
    assert set(rep["sections"]) == {"9"}
    assert rep["mutants"] == rep["sections"]["9"]["mutants"] > 0
    assert rep["score"] == pytest.approx(rep["killed"] / rep["mutants"], abs=1e-4)
    assert len(rep["survivors"]) == rep["mutants"] - rep["killed"]
    assert rep["coverage_acted"] >= rep["clauses_checked"]
    bad = subprocess.run([sys.executable, "-m", "scene", "check", "--mutate", "--section", "99"],
                         capture_output=True, text=True, timeout=300)
    assert bad.returncode == 2 and bad.stderr.strip().count("\n") == 0 and "--section 99" in bad.stderr
