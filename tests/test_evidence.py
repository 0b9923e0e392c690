"""Evidence on every movement (issue 12 item 3): each step's where, facing, posture, route and timing is
stated (the words are in the phrase), commentary (the 注 quoted is in the 鄭注) or assumed — checked against
the text, not against what the engine does."""
from __future__ import annotations

import dataclasses
import functools
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from scene.rite import evidence as E
from scene.rite.cache import load_rite
from scene.rite.choreography import default
from scene.text.jing import ji_items, passages
from scene.text.zheng import zheng_notes

ROOT = Path(__file__).resolve().parents[1]
#: the compiled rite from the disk cache (these tests read it; compiling is test_timeline's)
RITE = load_rite("zheng")
SEC = {s.n: s for s in RITE.choreography.sections}
# every step of the data that the default reading plays (only those for a reading without the 大夫 are dropped)
N_STEPS = sum(1 for s in RITE.choreography.sections for st in s.steps if st.when != "not dafu_present")
ZHU = {g.note for p in passages() for g in zheng_notes(p.n)} | {g.note for k in ji_items() for g in zheng_notes(f"記{k}")}


@functools.cache
def _evs():
    """The evidence of every span, made when a test first asks (not at collection, in every worker)."""
    return E.rite_evidence(RITE)


def _step(sp):
    return SEC[sp.section].steps[sp.index]


def test_every_step_has_all_five_aspects_with_a_status_and_a_source():
    # a form's sub-steps (§33 飲不勝者 act by act) are spans of one step of the data
    assert len(_evs()) == len(RITE.spans) and len({(sp.section, sp.index) for sp in RITE.spans}) == N_STEPS > 1800
    for ev in _evs():
        assert set(ev) == set(E.ASPECTS)
        for a in E.ASPECTS:
            assert ev[a].status in E.STATUSES and ev[a].source.strip()


def test_stated_means_the_word_quoted_is_in_the_phrase():
    """「word」 of a stated source is in the step's own phrase (where carried over: in an earlier phrase of
    the same actor)."""
    bad = []
    for sp, ev in zip(RITE.spans, _evs()):
        for a in E.ASPECTS:
            e = ev[a]
            if e.status != "stated":
                continue
            m = re.search(r"「([^」]+)」", e.source)
            assert m, (sp.section, sp.index, a, e.source)
            if e.source.startswith("where he stands:"):
                continue
            if m.group(1) not in sp.phrase:
                bad.append((sp.section, sp.index + 1, a, m.group(1), sp.phrase))
    assert not bad, bad[:10]


def test_commentary_means_the_note_quoted_is_a_zheng_note_verbatim():
    n = 0
    for sp, ev in zip(RITE.spans, _evs()):
        for a in E.ASPECTS:
            e = ev[a]
            if e.status == "commentary" and not e.source.startswith("where he stands:"):
                assert e.source.startswith("鄭注: ")
                assert e.source[len("鄭注: "):] in ZHU, (sp.section, sp.index, a, e.source)
                n += 1
    assert n >= 50           # the 鄭注 speaks of where, facing and posture often enough to be seen


def _find(section: int, phrase: str, who: str | None = None) -> int:
    for i, sp in enumerate(RITE.spans):
        if sp.section == section and sp.phrase == phrase and (who is None or who in sp.who):
            return i
    raise AssertionError(f"§{section} 「{phrase}」 not found")


def test_what_the_phrase_of_5_says_is_stated():
    ev = _evs()[_find(5, "賓西階上北面拜洗")]
    assert (ev["where"].status, ev["facing"].status, ev["posture"].status) == ("stated",) * 3
    assert "西階上" in ev["where"].source and "北面" in ev["facing"].source and "拜" in ev["posture"].source
    ev = _evs()[_find(5, "賓進東北面辭洗")]
    # 鄭: 言東北面則位南於洗矣 — where he stands is the commentary's, the facing is the phrase's
    assert ev["facing"].status == "stated" and "東北面" in ev["facing"].source
    assert ev["where"].status == "commentary" and "位南於洗" in ev["where"].source


def test_a_facing_word_of_someone_else_is_not_his():
    """席主人於阼階上西面: the 西面 is the 主人's mat, not the one who lays it."""
    i = _find(2, "席主人於阼階上西面")
    assert "zhuren" not in RITE.spans[i].who
    assert _evs()[i]["facing"].status != "stated"


def test_the_words_decide_not_the_data():
    """The same step with its facing word taken out of its phrase is no longer stated; the data's own
    evidence table wins over what is read."""
    i = _find(5, "賓西階上北面拜洗")
    sp = RITE.spans[i]
    step = _step(sp)
    assert E.read_step(sp.section, step, RITE.layout)["facing"].status == "stated"
    bare = dataclasses.replace(step, phrase=step.phrase.replace("北面", ""))
    assert E.read_step(sp.section, bare, RITE.layout)["facing"].status == "assumed"
    told = dataclasses.replace(step, evidence=(("route", "commentary", "賈疏: 由西階"),))
    assert E.read_step(sp.section, told, RITE.layout)["route"] == E.Evidence("commentary", "賈疏: 由西階")


def test_a_step_without_any_word_of_it_is_assumed_everywhere():
    """No phrase word, no 注, no data: every aspect is ours — engine choices default to assumed."""
    sec = default().sections[0]
    step = dataclasses.replace(sec.steps[0], phrase="某某某", note="", evidence=(), offset=10_000)
    ev = E.read_step(sec.n, step, RITE.layout)
    assert {a: ev[a].status for a in E.ASPECTS if ev[a] is not None} == {
        a: "assumed" for a in E.ASPECTS if ev[a] is not None}


def test_the_counts_are_those_of_the_steps():
    s = E.summary(_evs())
    for a in E.ASPECTS:
        assert sum(s[a].values()) == len(RITE.spans)      # every span, a form's sub-steps each
        assert s[a]["stated"] > 0 and s[a]["assumed"] > 0


def _cli(*args):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "scene", *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=300)


@pytest.mark.slow
def test_steps_command_prints_every_step_with_its_evidence(tmp_path):
    r = _cli("steps", "--json")
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    # every step as played: the data's steps, a form's sub-steps each (§33 飲不勝者 told act by act)
    assert len(d["steps"]) == len(RITE.spans) > N_STEPS and d["aspects"] == list(E.ASPECTS)
    row = d["steps"][_find(5, "賓西階上北面拜洗")]
    assert row["section"] == 5 and row["who"] == ["bin"] and row["evidence"]["facing"]["status"] == "stated"
    assert len(row["place"]["xyz_m"]) == 3 and row["posture"] and row["facing"] is not None
    r = _cli("steps", "--section", "5")
    assert r.returncode == 0 and "賓西階上北面拜洗" in r.stdout and "evidence (S stated" in r.stdout
    r = _cli("steps", "--section", "99")
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1 and "99" in r.stderr
    out = tmp_path / "steps.json"
    r = _cli("export", "--out", str(out), "--format", "steps")
    assert r.returncode == 0, r.stderr
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert doc["format"] == "xiangsheli-steps/1" and len(doc["steps"]) == len(RITE.spans)
    assert doc["summary"] == d["summary"]
    r = _cli("export", "--out", str(tmp_path / "s.csv"), "--format", "steps")
    assert r.returncode == 2 and ".json" in r.stderr


@pytest.mark.slow
def test_the_pack_carries_the_evidence_of_every_step(pack_dir):
    """The pack the player reads (the session's: the verified shipped one, which test_shipped finds
    identical to a fresh build) carries each step's five statuses and sources."""
    m = json.loads((pack_dir / "scene.json").read_text(encoding="utf-8"))
    ev = m["evidence"]
    assert ev["aspects"] == list(E.ASPECTS) and ev["statuses"] == list(E.STATUSES)
    for s in m["steps"]:
        assert len(s["ev"]) == 5 and set(s["ev"]) <= {"s", "c", "a"}
        assert all(0 <= k < len(ev["sources"]) for k in s["evs"])
    want = {(sp.section, sp.index): e for sp, e in zip(RITE.spans, _evs())}
    s = m["steps"][100]
    e = want[(s["section"], s["index"])]
    assert s["ev"] == "".join(e[a].status[0] for a in E.ASPECTS)
    assert [ev["sources"][k] for k in s["evs"]] == [e[a].source for a in E.ASPECTS]


# ------------------------------------------------------------------ whose words (issue 23 part 2)
def _holds(cl, subj, actors, t):
    from scene.rite.grammar.coverage import subject_holds
    return all(subject_holds(CTX, cl, subj, a, t) for a in actors)


def _anchor_clause(note: str):
    """(section, clause, subject) of the clause a 鄭注 of the 經 is anchored in (None: a 注 of the 記)."""
    from scene.rite.grammar.coverage import clause_subjects
    for p in passages():
        for g in zheng_notes(p.n):
            if g.note == note:
                return next(((p.n, c, s) for c, s in clause_subjects(p.n) if c.start < g.offset <= c.end), None)
    return None


CTX = None


def test_every_label_cites_a_clause_of_its_own_actor():
    """Every 'stated' or 'commentary' label of the default reading: its word is in a clause of the step's
    phrase whose subject is every actor of the step (or a group that holds him) and is not denied there
    (不拜); its 注 is anchored in such a clause and does not give the word to someone it names; a posture
    word is the posture shown.  The audit's seven false labels (evidence table rows 10, 13, 15, 30, 33, 34,
    36) are among them."""
    global CTX
    from scene.rite.evidence_whose import GIVES
    from scene.rite.grammar.context import Ctx
    from scene.rite.grammar.coverage import clause_subjects
    from scene.text import passage
    from scene.text.clauses import names_of as _names
    CTX = Ctx(RITE)
    bad, n = [], 0
    for sp, ev in zip(RITE.spans, _evs()):
        actors = tuple(a for a in sp.who if a in CTX.index)
        if not actors:
            continue
        act = sp.act_of(actors[0])
        t = act[0] if act else sp.start_s
        lo, hi = sp.offset, sp.offset + len(sp.phrase)
        text = passage(sp.section).text
        mine = [(max(c.start, lo), min(c.end, hi)) for c, s in clause_subjects(sp.section)
                if max(c.start, lo) < min(c.end, hi) and _holds(c, s, actors, t)]
        for a in E.ASPECTS:
            e = ev[a]
            if e.status == "assumed" or e.source.startswith("where he stands:"):
                continue            # carried over from his own step before (checked there)
            n += 1
            if e.status == "stated":
                w = re.search(r"「([^」]+)」", e.source).group(1)
                ok = any(text.find(w, x, y) >= 0 and text[text.find(w, x, y) - 1] not in "不未" for x, y in mine)
            else:
                z = e.source[len("鄭注: "):]
                where = _anchor_clause(z)
                ok = where is None or _holds(where[1], where[2], actors, t)
                word = next((f for f in sorted(E.FACINGS, key=len, reverse=True) if f in z), None) \
                    if a == "facing" else None
                if ok and word:
                    named = [nm for s, _, nm in _names(z) if s < z.find(word)]
                    ok = not named or all(CTX.means(named[-1], x, sp.section, t) for x in actors)
                w = E._first(z, E.POSTURE_WORDS) if a == "posture" else None
            if ok and a == "posture":
                shown = CTX.posture(actors[0], (act[0] + act[1]) / 2 if act else (sp.start_s + sp.end_s) / 2)
                ok = bool(w) and w in GIVES.get(shown, "")
            if not ok:
                bad.append((sp.section, sp.index + 1, ",".join(actors), a, e.status, e.source[:40]))
    assert n > 1000
    assert not bad, f"{len(bad)} label(s) cite another's words:\n" + "\n".join(map(str, bad[:15]))


@pytest.mark.parametrize("section, phrase, who, do, aspect", [
    (7, "賓之席前北面賓西階上拜", "bin", None, "facing"), (45, "升自西階反坐", "gong_3", "walk", "posture"),
    (12, "眾工不拜受爵祭飲", "gong_4", None, "posture"), (45, "升自西階反坐", "dizi_1", "walk", "facing"),
    (49, "主人送于門外再拜", "gong_3", "walk", "facing"), (37, "揖退賓堂西主人堂東", "zhuren", "walk", "posture"),
    (49, "主人送于門外再拜", "xiangzhe_1", "walk", "posture")])
def test_the_audits_false_labels_are_assumed(section, phrase, who, do, aspect):
    """fidelity-2026-12-04.md, evidence labels rows 10, 13, 15, 30, 33, 34, 36: every step of that phrase and
    actor (the walk, where the audit's step was the walk), found by its words, not its number: the data around
    them changes."""
    found = [k for k, sp in enumerate(RITE.spans) if sp.section == section and sp.phrase == phrase and who in sp.who
             and do in (None, sp.do)]
    assert found, (section, phrase, who)
    for i in found:
        assert _evs()[i][aspect].status == "assumed", (RITE.spans[i].index + 1, _evs()[i][aspect])
