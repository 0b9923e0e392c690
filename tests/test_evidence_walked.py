"""A where label quotes a place word, a route label a motion word this very step walks
(fidelity-2026-12-07.md, "Evidence labels (40 drawn)": 5 false of 40, of two kinds): a person's name is not his
位 (司射位's stem 司射), the side word of a place phrase is not a route (之東 of 阼階之東), and the 降 of a clause
that an earlier step walked is not the route of the step after it.  ``tools/evidence_sample.py`` judges every
label by the same rules."""
from __future__ import annotations

import functools
import importlib.util
import re
from pathlib import Path

import pytest

from scene.rite import evidence as E
from scene.rite.cache import load_rite

ROOT = Path(__file__).resolve().parents[1]
RITE = load_rite("zheng")


@functools.cache
def _evs():
    return E.rite_evidence(RITE)


@functools.cache
def _sample_tool():
    spec = importlib.util.spec_from_file_location("evidence_sample", ROOT / "tools" / "evidence_sample.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _labels(section, phrase, who, do=None):
    found = [(sp, _evs()[k]) for k, sp in enumerate(RITE.spans) if sp.section == section and sp.phrase == phrase
             and who in sp.who and do in (None, sp.do)]
    assert found, (section, phrase, who, do)
    return found


def _quoted(ev):
    m = re.search(r"「([^」]+)」", ev.source)
    return m.group(1) if m else None


@pytest.mark.parametrize("section, phrase, who, name", [
    (20, "揖進", "sishe", "司射"),                           # audit row 29: carried from 司射東面立于三耦之北
    (21, "司馬命獲者執旌以負侯", "xiang", "司馬"),             # audit row 30
    (33, "弟子奉豐", "dizi_1", "弟子"),                       # the sample's: the stem of 弟子位
])
def test_a_persons_name_is_not_his_place(section, phrase, who, name):
    for _, ev in _labels(section, phrase, who):
        assert _quoted(ev["where"]) != name, ev["where"]


def test_his_own_position_word_is_quoted_for_it():
    """司射反位: the 反位 names his 位, not the 司射 of the clause."""
    for _, ev in _labels(21, "司射反位", "sishe"):
        assert ev["where"].status == "stated" and _quoted(ev["where"]) == "反位"


@pytest.mark.parametrize("section, phrase, who", [
    (19, "司射先立于所設中之西南東面", "sishe"),   # audit row 28: 之西 of 中之西南
    (6, "主人阼階之東南面辭洗", "zhuren"),          # audit row 8: 之東 of 阼階之東
    (21, "司射去扑倚于西階之西", "sishe"),
])
def test_a_side_word_of_a_place_is_not_a_route(section, phrase, who):
    for _, ev in _labels(section, phrase, who):
        assert not re.fullmatch(r"之[東西南北]+", _quoted(ev["route"]) or ""), ev["route"]


def test_the_move_of_the_decline_is_the_commentarys():
    """主人阼階之東南面辭洗: the move is 鄭's 辭洗進, not the 之東."""
    (_, ev), = _labels(6, "主人阼階之東南面辭洗", "zhuren", "decline")
    assert ev["route"].status == "commentary" and "辭洗進" in ev["route"].source


def test_a_descent_walked_before_is_not_this_steps_route():
    """降洗 (audit row 20): the 主人's set_down at the 篚 and his wash after it do not walk the 降 (the step before
    did): they are ours, and say why."""
    for do in ("set_down", "take", "wash"):
        for sp, ev in _labels(8, "降洗", "zhuren", do):
            if sp.index == min(s.index for s, _ in _labels(8, "降洗", "zhuren")):
                continue            # (the first: the 降 itself)
            assert ev["route"].status == "assumed" and "not walked in this step" in ev["route"].source, (
                sp.index + 1, do, ev["route"])


def test_the_motion_quoted_is_the_one_he_walks():
    """揖如升射耦先降降階耦少退 (found by the sample): the 眾賓 going down the stairs walk the 降, not the 升 of
    如升射."""
    for _, ev in _labels(29, "揖如升射耦先降降階耦少退", "zhongbin_4"):
        assert _quoted(ev["route"]) == "降", ev["route"]


def test_walks_measures_the_step():
    assert E.walks("降", (4.0, -3.0)) and not E.walks("降", (4.0, 0.0))
    assert E.walks("升", (1.0, 3.0)) and not E.walks("升", (5.0, 0.0))
    assert E.walks("進", (0.5, 0.0)) and not E.walks("進", (0.1, 0.0)) and E.walks("進", None)
    assert E.walks("升席", (2.0, 0.0))          # onto a mat: on the level


def test_every_label_keeps_the_two_rules():
    """Every stated / commentary label of the rite, judged by tools/evidence_sample.py: a where word is a place
    word (or his 位), a route word a motion word that the step walks (he moves ≥ 0.3 尺; up for 升, down for 降)."""
    tool = _sample_tool()
    names = {p.name for p in RITE.layout.places.values()}
    moves = tool.moves(RITE)
    bad = [(RITE.spans[k].section, RITE.spans[k].index + 1, RITE.spans[k].phrase, a, e.source[:30], why)
           for k, a, e in tool.pool(RITE) if (why := tool.judge(a, e, moves[k], names, RITE.spans[k].phrase))]
    assert not bad, f"{len(bad)} false label(s):\n" + "\n".join(map(str, bad[:15]))
