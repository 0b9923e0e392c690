"""The checker's rules added for the second half of the rite (§26–§51; issue 23, a reading before the reader):
each can fail — a mutation of the data that makes the error the rule is for is found at its step."""
from __future__ import annotations

import pytest
from choreo_edit import mutated as _mutated

from scene.geometry import readings
from scene.rite import grammar
from scene.rite.timeline import Rite


@pytest.mark.slow          # a mutated rite compiled
def test_kneeling_lasts_from_the_zuo_to_the_xing():
    """§26 釋獲者坐取中之八筭改實八筭于中興執而俟: the 坐 holds through 改實 until the 興; acted standing (the
    step without its kneel) the checker names 坐…興 at that step."""
    bad = Rite(readings.get("zheng"), _mutated({(26, "改實八筭于中", "shihuozhe"): {"kneel": False}}))
    found = [f for f in grammar.findings(bad, ("posture",)) if f.section == 26 and f.who == "shihuozhe"]
    assert any(f.word == "坐…興" and f.phrase == "改實八筭于中" for f in found), found


@pytest.mark.slow          # a mutated rite compiled
def test_ji47_the_sishe_watches_the_count_unarmed():
    """記47 司射釋弓矢視筭: at 視筭 (§32, and §41 如初) he has put down his one arrow with the bow; kept in hand
    (the step that leans it at 階西 dropped) the checker finds it at 視筭."""
    bad = Rite(readings.get("zheng"), _mutated({}, drop=[(32, "釋弓", "sishe")]))
    found = [f for f in grammar.findings(bad, ("ji",)) if f.word.endswith("(記47)")]
    assert any(f.section == 32 and "視筭" in f.phrase for f in found), found


@pytest.mark.slow          # a mutated rite compiled
def test_a_thing_put_down_leaves_the_hands():
    """司馬降釋弓反位 (§31; 記35 司馬無事不執弓): the 釋弓 step lays his bow down; a set-down that names no
    object (as the data had it for the 司馬 in §21–§40, bow in hand to §45) is found at that step."""
    bad = Rite(readings.get("zheng"), _mutated({(31, "釋弓", "xiang"): {"obj": None}}))
    found = [f for f in grammar.findings(bad, ("things",)) if f.word == "釋弓"]
    assert any(f.section == 31 and f.who == "xiang" for f in found), found


@pytest.mark.slow          # a mutated rite compiled
def test_a_thing_taken_is_in_hand():
    """司馬袒決執弓 (§31): the 執弓 step ends with the bow in his hands; a take that names no object is found."""
    bad = Rite(readings.get("zheng"), _mutated({(31, "執弓", "xiang"): {"obj": None}}))
    found = [f for f in grammar.findings(bad, ("things",)) if f.word == "執弓"]
    assert any(f.section == 31 and f.who == "xiang" for f in found), found


def _verb(rite, section, word, who):
    from scene.rite.grammar import coverage as cv
    from scene.rite.grammar.context import Ctx
    return [f for f in cv.findings_of(Ctx(rite), "verb") if f.section == section and f.word == word and f.who == who]


@pytest.mark.slow          # a mutated rite compiled
def test_shi_faces_what_he_watches():
    """§26 …北面命釋獲者設中遂視之: the 司射 watches the 中 being set (it lies west of him); turned east, away
    from it, the verb predicate 視 fails."""
    bad = Rite(readings.get("zheng"), _mutated({(26, "遂視之", "sishe"): {"facing": "東面"}}))
    assert _verb(bad, 26, "視", "sishe")


@pytest.mark.slow          # a mutated rite compiled
def test_wei_sizheng_is_the_role_he_takes():
    """§45 司馬反為司正: from his step on he is the 司正 again; without the role change the predicate 為 fails."""
    bad = Rite(readings.get("zheng"), _mutated({(45, "司馬反為司正", "xiang"): {"role": None}}))
    assert _verb(bad, 45, "為", "xiang")


@pytest.mark.slow          # a mutated rite compiled
def test_xi_jie_shang_is_reached_by_the_xi_jie():
    """§46 舉觶者皆洗觶升實之西階上北面: the second bearer comes to 西階上 by the 西階; sent up the 阼階 (as the
    data had him) the stairs rule names 西階上."""
    bad = Rite(readings.get("zheng"), _mutated({(46, "西階上北面", "juzhi_2"): {"by": "east"}}))
    found = [f for f in grammar.findings(bad, ("stairs",)) if f.word == "西階上" and f.section == 46]
    assert any(f.who == "juzhi_2" for f in found), found
