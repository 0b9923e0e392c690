"""The rite-grammar checker: that it catches what the words forbid (a test that can fail), that the errors
the independent reading found (../shared/audits/fidelity-2026-12.md) stay fixed, and that no preset has a
finding left (with or without the 大夫) beyond the deliberate exceptions of assets/grammar.toml."""
from __future__ import annotations

import dataclasses

import pytest

from scene.rite import choreography as chor
from scene.rite import grammar
from scene.rite.cache import load_rite
from scene.rite.timeline import Rite, build_rite
from scene.geometry import readings


@pytest.fixture(scope="module")
def zheng():
    return build_rite("zheng")


@pytest.fixture(scope="module")
def zheng_findings(zheng):
    return grammar.check(zheng)


def _mutated(edits):
    """The choreography with some steps changed (section n, phrase, who) → field values."""
    c = chor.load()
    sections = []
    for s in c.sections:
        steps = []
        for st in s.steps:
            for (n, phrase, who), change in edits.items():
                if s.n == n and st.phrase == phrase and who in st.who:
                    st = dataclasses.replace(st, **change)
            steps.append(st)
        sections.append(dataclasses.replace(s, steps=tuple(steps)))
    return dataclasses.replace(c, sections=tuple(sections))


def _step(c, n, phrase, who):
    s = next(s for s in c.sections if s.n == n)
    return next(st for st in s.steps if st.phrase == phrase and who in st.who)


def test_it_catches_a_standing_kneel_a_wrong_facing_and_a_stair_too_high():
    """坐 acted standing, 北面 turned south, 盡階不升堂 taken onto the 堂: each is a finding at its step."""
    c = chor.load()
    kneel = _step(c, 5, "主人阼階前西面坐奠爵", "zhuren")
    assert kneel.kneel                                # the data acts the 坐
    edits = {(5, "主人阼階前西面坐奠爵", "zhuren"): {"kneel": False, "rise": False},
             (12, "盡階不升堂受爵", "sheng_1"): {"at": chor.parse_ref("hall.west_steps@北6")}}
    rite = Rite(readings.get("zheng"), _mutated(edits))
    found = grammar.findings(rite, ("posture", "stairs"))
    assert any(f.rule == "posture" and f.section == 5 and f.who == "zhuren" and "坐" in f.word for f in found)
    assert any(f.rule == "stairs" and f.section == 12 and f.who == "sheng_1" and "盡階" in f.word for f in found)


def test_the_fidelity_reading_errors_stay_fixed(zheng_findings):
    """坐 kneels (47 steps were standing), nobody in the arrows' way or behind the 侯 (眾賓 4–8 and the
    司馬 were), the pair 並行 / 中等 / 上射在左, nobody over the 中 or the 楅, the spacing, surfaces and
    speed of the audit — none of these rule families has a finding left under the default reading."""
    clean = ("posture", "stairs", "forms")
    left = [f for f in zheng_findings if f.rule in clean]
    assert not left, "\n".join(map(str, left[:10]))
    world = [f for f in zheng_findings if f.rule == "world" and f.word != "(furniture)"]
    assert not world, "\n".join(map(str, world[:10]))


@pytest.mark.parametrize("spec", grammar.readings_to_check())
def test_no_findings_on_any_preset(spec, zheng_findings):
    """Every preset, with and without the 大夫: the checker finds nothing that assets/grammar.toml does not
    except (with its reason and reference), and every exception there still covers a finding."""
    found = zheng_findings if spec == "zheng" else grammar.check(load_rite(spec))
    assert not found, f"{spec}: {len(found)} finding(s)\n" + "\n".join(f.line() for f in found[:10])


def test_a_cup_set_down_on_the_mat_is_not_beside_the_jian():
    """§7 主人坐奠觶于薦西: the 觶 lies west of the 賓's 薦 (an object now), beside it; set down from where
    the data had him before (on the 賓's mat, 西南 of its centre) it is a finding that names 薦西."""
    c = chor.load()
    ok = Rite(readings.get("zheng"), c)
    assert not [f for f in grammar.findings(ok, ("things",)) if f.word.startswith("薦")]
    bad = Rite(readings.get("zheng"), _mutated({(7, "主人坐奠觶于薦西", "zhuren"): {
        "at": chor.parse_ref("mat.bin@西南2")}}))
    found = [f for f in grammar.findings(bad, ("things",)) if f.word == "薦西"]
    assert found and found[0].section == 7, found


def test_as_before_reads_the_earlier_words():
    """§39 釋獲者執餘獲升…如初 names §30's 升自西階盡階不升堂: taking him onto the 堂 is a 盡階 finding; without
    as_before the same track passes (升 alone is satisfied on the 堂) — so the finding comes from the words."""
    onto = chor.parse_ref("hall.west_steps_top")
    bad = Rite(readings.get("zheng"), _mutated({(39, "釋獲者執餘獲升", "shihuozhe"): {"at": onto}}))
    assert any(f.section == 39 and f.word == "盡階不升堂" for f in grammar.findings(bad, ("stairs",)))
    blind = Rite(readings.get("zheng"), _mutated({(39, "釋獲者執餘獲升", "shihuozhe"): {"at": onto, "as_before": None}}))
    assert not any(f.section == 39 for f in grammar.findings(blind, ("stairs",)))


def test_as_before_must_be_earlier_words_of_the_jing(tmp_path):
    """A bad as_before (a later section, words not in the 經) stops the load with one line naming the step."""
    import shutil
    for bad, msg in (('"§45 升自西階"', "not a section before"), ('"§30 升自東階盡階"', "is not in the 經 of §30"),
                     ('"升自西階"', "must be '§N words'")):
        root = tmp_path / msg.replace(" ", "_").replace("'", "")
        shutil.copytree(chor.ASSETS, root)
        f = root / "rite" / "5_round3.toml"
        text = f.read_text(encoding="utf-8")
        f.write_text(text.replace('as_before = "§30 升自西階盡階不升堂"', f"as_before = {bad}"), encoding="utf-8")
        with pytest.raises(chor.ChoreographyError, match=msg) as e:
            chor.load(root)
        assert "§39" in str(e.value) and "\n" not in str(e.value)
