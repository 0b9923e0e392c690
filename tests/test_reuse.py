"""Reuse as data (scene/rite/reuse.py): a run of steps that cites a model run (如賓禮, 如初) instead of copying it.

The expansion (who, the places named for him, the turned offsets, this text's words), each bad reference one line,
the checker catching an error seeded into the MODEL in the reused copy too, and the evidence citing the model.
"""
from __future__ import annotations

import dataclasses
import shutil

import pytest

from scene.chapter import resolve
from scene.geometry import readings
from scene.rite import choreography as chor
from scene.rite import grammar
from scene.rite.evidence import step_table
from scene.rite.timeline import Rite, build_rite
from scene.text import passage

FOUR = "xiangyinjiu"


def _run(c: chor.Choreography, n: int, phrase: str) -> list[chor.Step]:
    return [s for s in c.section(n).steps if s.like is not None and s.phrase == phrase]


def test_expansion_maps_the_actors_and_the_places_named_for_them():
    """§7 介辭洗如賓禮 reuses §4 with 賓 → 介: the 介 declines where and as the 賓 did, goes back to HIS place
    (pos.bin_below → pos.jie_below), the 主人 answers HIM; every step quotes §7's words and cites §4's."""
    c = chor.load(FOUR)
    run = _run(c, 7, "介辭洗如賓禮")
    assert [(s.who, s.do) for s in run] == [
        (("jie",), "reply"), (("zhuren",), "wash"), (("jie",), "decline"), (("zhuren",), "set_down"),
        (("zhuren",), "rise"), (("zhuren",), "reply"), (("jie",), "walk"), (("zhuren",), "take"),
        (("zhuren",), "wash")]
    by = {(s.who[0], s.do): s for s in run}
    assert by["jie", "decline"].at.text == "court.xi_basket@西南6" and by["jie", "decline"].facing == "東北面"
    assert by["jie", "walk"].at.text == "pos.jie_below"
    assert by["zhuren", "reply"].facing == "toward:actor:jie"
    text = passage(7, chapter=resolve(FOUR)).text
    for s in run:
        assert text[s.offset:s.offset + len(s.phrase)] == "介辭洗如賓禮"
        assert s.like.section == 4 and s.as_before == (4, s.like.words)
        assert s.like.words in passage(4, chapter=resolve(FOUR)).text
    # the 主人's 盥 and the 沃洗者 are dropped (§7 says 降洗; no 沃洗者 is named)
    assert not any(s.do == "wash_hands" or "zanzhe_1" in s.who for s in run)


def test_an_offset_from_a_place_that_faces_turns_with_it():
    """祭如賓禮: the 賓's 席 faces south, the 介's east; 奠爵于薦西 (西1.5南2.5 of the 賓's 席) is 南1.5東2.5 of
    the 介's (薦南, as §20 介則薦南奠之), and his 南面 on the mat is 東面; 不嚌肺 shortens the 絕祭 (change)."""
    c = chor.load(FOUR)
    run = _run(c, 7, "祭如賓禮不嚌肺不啐酒不告旨")
    put = next(s for s in run if s.do == "set_down")
    assert put.put.text == "mat.jie@南1.5東2.5" and put.like.turn == 270.0
    assert {s.facing for s in run if "jie" in s.who and s.facing} == {"東面"}
    assert next(s for s in run if s.like.words.endswith("嚌之")).dur == 4.0
    assert not any("啐酒" in s.like.words for s in run)          # 不啐酒: §4's 興席末坐啐酒 is not in the run
    # the first step of a run is tied to nothing before it; the model's with_prev steps stay tied
    assert not run[0].with_prev and [s.who for s in run if s.with_prev] == [("zanzhe_1",), ("zanzhe_2",)]


def test_the_run_compiles_as_the_copy_it_replaced():
    """§8 主人復阼階降辭如初 (如 §5, 賓 → 介): the steps the chapter's data used to copy, key for key."""
    c = chor.load(FOUR)
    got = [(s.who[0], s.do, s.at.text if s.at else None, s.facing, s.obj, s.kneel, s.rise, s.with_prev)
           for s in _run(c, 8, "主人復阼階降辭如初")]
    assert got == [
        ("zhuren", "descend", "pos.zhuren_below", "西面", None, False, False, False),
        ("jie", "set_down", "hall.west_steps_front", "東面", "jue", True, False, False),
        ("jie", "rise", None, "東面", None, False, False, False),
        ("jie", "decline", None, "東面", None, False, False, False),
        ("zhuren", "reply", None, "西面", None, False, False, False),
        ("jie", "take", None, None, "jue", True, True, False),
        ("jie", "walk", "court.xi@南3", "北面", None, False, False, False),
        ("zhuren", "decline", "pos.zhuren_below", "南面", None, False, False, False),
        ("jie", "set_down", "court.xi_basket@南2", "北面", "jue", True, False, False),
        ("jie", "rise", None, "北面", None, False, False, False),
        ("jie", "reply", None, "toward:actor:zhuren", None, False, False, False),
        ("zhuren", "stand", None, "西面", None, False, False, False)]


_LIKE5 = 'like = { section = 5, words = "適洗南面坐奠爵于篚下…主人卒洗", actors = { bin = "dafu" }'


@pytest.mark.parametrize("bad, says", [
    ('like = { section = 5, words = "適洗北面坐奠爵于篚下…主人卒洗", actors = { bin = "dafu" }',
     "is not in the 經 of §5"),
    ('like = { section = 5, words = "適洗南面坐奠爵于篚下…主人卒洗", actors = { bin = "nobody" }',
     "'nobody' is not in the cast"),
    ('like = { section = 5, words = "適洗南面坐奠爵于篚下…主人卒洗", actors = { jie = "dafu" }',
     "'jie' is not in the model's cast"),
    ('like = { section = 30, chapter = "xiangyinjiu", words = "適洗", actors = { bin = "dafu" }',
     "no section §30 in the rite of xiangyinjiu"),
    ('like = { section = 5, words = "適洗南面坐奠爵于篚下…主人卒洗", actors = { bin = "dafu" }, drop = ["主人洗"]',
     "'主人洗' names no step of the run"),
])
def test_a_bad_reference_is_one_line(tmp_path, bad, says):
    root = tmp_path / "data"
    shutil.copytree(chor.ASSETS, root)
    f = root / "rite" / "1_reception.toml"
    text = f.read_text(encoding="utf-8")
    assert _LIKE5 in text
    f.write_text(text.replace(_LIKE5, bad), encoding="utf-8")
    with pytest.raises(chor.ChoreographyError, match=says) as e:
        chor.load(root)
    assert "\n" not in str(e.value) and "§10" in str(e.value)


def test_a_cycle_of_reuses_is_one_line(tmp_path):
    """§10 reuses §5; §5 made to reuse §10 is a cycle."""
    root = tmp_path / "data"
    shutil.copytree(chor.ASSETS, root)
    f = root / "rite" / "1_reception.toml"
    text = f.read_text(encoding="utf-8")
    head = '[[section.step]]\nphrase = "主人坐取爵于上篚"'
    assert text.count(head) == 1
    f.write_text(text.replace(head, '[[section.step]]\nlike = { section = 10, words = "大夫辭洗如賓禮", '
                                    'actors = { dafu = "bin" }, phrase = "主人坐取爵于上篚" }\n\n' + head),
                 encoding="utf-8")
    with pytest.raises(chor.ChoreographyError, match="cycle") as e:
        chor.load(root)
    assert "\n" not in str(e.value) and "§5 → §10 → §5" in str(e.value)


def test_a_model_earlier_in_its_own_section(tmp_path):
    """如初 within one section: the model is the section's own steps before the run (no cycle)."""
    root = tmp_path / "data"
    shutil.copytree(chor.ASSETS, root)
    f = root / "rite" / "1_reception.toml"
    text = f.read_text(encoding="utf-8")
    f.write_text(text.replace(_LIKE5, '[[section.step]]\nlike = { section = 10, words = "主人辭降", '
                                      'phrase = "大夫辭洗如賓禮" }\n\n[[section.step]]\n' + _LIKE5, 1), encoding="utf-8")
    # the like line sits inside a step table: rebuild the text so the new step comes before it
    bad = f.read_text(encoding="utf-8")
    f.write_text(bad.replace('[[section.step]]\n[[section.step]]\nlike = { section = 10',
                             '[[section.step]]\nlike = { section = 10'), encoding="utf-8")
    c = chor.load(root)
    own = [s for s in c.section(10).steps if s.like is not None and s.like.section == 10]
    assert [(s.who, s.do, s.phrase) for s in own] == [(("zhuren",), "decline", "大夫辭洗如賓禮")]


@pytest.mark.slow           # chapter 4's rite compiled with a seeded error
def test_an_error_in_the_model_shows_in_the_reused_copy(tmp_path):
    """Seed §4's 賓進東北面辭洗 facing west: the checker finds it in §4 AND in §7's 介辭洗如賓禮, whose own words
    have no facing word — the finding comes from the model's clause the copy repeats (so reuse hides nothing);
    the chapter as it is has no such finding."""
    ch = resolve(FOUR)
    rite_dir = tmp_path / "rite"
    shutil.copytree(ch.rite, rite_dir)
    f = rite_dir / "2_xianbin.toml"
    text = f.read_text(encoding="utf-8")
    old = 'at = "court.xi_basket@西南6"\nfacing = "東北面"'
    assert text.index(old) < text.index("n = 5")           # §4's (the first; §6's 辭如獻禮 copies it too)
    f.write_text(text.replace(old, 'at = "court.xi_basket@西南6"\nfacing = "西面"', 1), encoding="utf-8")
    bad = Rite(readings.get("zheng"), chor.load(dataclasses.replace(ch, rite=rite_dir)))
    found = grammar.findings(bad, ("facing",))
    assert any(x.section == 4 and x.word == "東北面" and x.who == "bin" for x in found), found
    copy = [x for x in found if x.section == 7 and x.who == "jie"]
    assert copy and copy[0].word == "東北面 (§4)" and "介辭洗如賓禮 → §4 賓進東北面辭洗" in copy[0].requires
    good = grammar.findings(build_rite("zheng", chapter=FOUR), ("facing",))
    assert not [x for x in good if x.section in (7, 8)]


def test_the_evidence_cites_the_model_clause():
    """The reused step's facing is stated — by the 如 of his clause and §4's 東北面, with the basis 介辭洗如賓禮 →
    §4 賓進東北面辭洗; the review's evidence rows are these labels."""
    rows = step_table(build_rite("zheng", chapter=FOUR))
    row = next(r for r in rows if r["phrase"] == "介辭洗如賓禮" and r["who"] == ["jie"] and r["verb"] == "decline")
    assert row["basis"] == "介辭洗如賓禮 → §4 賓進東北面辭洗 (bin → jie)"
    assert row["evidence"]["facing"]["status"] == "stated"
    assert "「東北面」" in row["evidence"]["facing"]["source"] and "§4 賓進東北面辭洗" in row["evidence"]["facing"]["source"]
    assert row["evidence"]["facing"]["source"].startswith("「如」 (介辭洗如賓禮)")
    # the 主人's part of the run: the 如 is the 介's clause, not his — the model's word is an assumption's basis
    his = next(r for r in rows if r["phrase"] == "介辭洗如賓禮" and r["who"] == ["zhuren"] and r["verb"] == "set_down")
    assert his["evidence"]["where"]["status"] == "assumed" and "§4" in his["evidence"]["where"]["source"]
    plain = next(r for r in rows if r["section"] == 7 and r["phrase"] == "主人辭降")
    assert plain["basis"] is None
    # the scholar's report of §7: the clause 介辭洗如賓禮 shows the 介's step with its basis in §4
    from scene.rite.review import review_section
    clause = next(c for c in review_section(build_rite("zheng", chapter=FOUR), 7).clauses if c.text == "介辭洗如賓禮")
    cited = [(se.who, a, st) for se in clause.evidence for a, st, src in se.evidence if "§4 賓進東北面辭洗" in src]
    assert (("jie",), "facing", "stated") in cited
