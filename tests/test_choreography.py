"""The choreography files are validated on load, with one-line errors naming file, section and step."""
from __future__ import annotations

import shutil

import pytest

from scene.rite import choreography as chor


@pytest.fixture()
def assets(tmp_path):
    """A copy of the assets with §1 reduced to one known step, to be broken by each test."""
    d = tmp_path / "assets"
    shutil.copytree(chor.ASSETS, d)
    (d / "rite" / "1_reception.toml").write_text(
        '[[section]]\nn = 1\nid = "jie_bin"\ntitle = "戒賓"\nphase = "reception"\ncast = ["zhuren"]\n'
        '[[section.step]]\nphrase = "主人戒賓"\nwho = "zhuren"\ndo = "speak"\nat = "hall.gate_right@北3"\n'
        'facing = "北面"\n', encoding="utf-8")
    for f in (d / "rite").glob("[2-6]_*.toml"):
        f.unlink()
    return d


def _break(assets, old, new):
    f = assets / "rite" / "1_reception.toml"
    f.write_text(f.read_text(encoding="utf-8").replace(old, new), encoding="utf-8")


def test_the_minimal_rite_loads(assets):
    c = chor.load(assets)
    assert [s.n for s in c.sections] == [1]
    st = c.sections[0].steps[0]
    assert st.at == chor.PlaceRef("hall.gate_right@北3", "hall.gate_right", None, None, "北", 3.0)
    assert st.offset == 4          # 鄉射之禮|主人戒賓


@pytest.mark.parametrize("old, new, expect", [
    ('phrase = "主人戒賓"', 'phrase = "主人戒客"', "phrase '主人戒客' does not occur in the 經 of §1"),
    ('who = "zhuren"', 'who = "nobody"', "unknown actor 'nobody'"),
    ('do = "speak"', 'do = "dance"', "unknown verb 'dance'"),
    ('at = "hall.gate_right@北3"', 'at = "gate right"', "bad place reference 'gate right'"),
    ('facing = "北面"', 'facing = "上面"', "facing '上面' is not one of"),
    ('title = "戒賓"', 'title = "陳設"', "title '陳設' is not the passage's '戒賓'"),
    ('phase = "reception"', 'phase = "party"', "phase 'party' not in"),
    ('facing = "北面"\n', 'facing = "北面"\ncolour = 3\n', "unknown key(s) ['colour']"),
    ('do = "speak"', 'do = "shoot"', "shoot needs round"),
    ('facing = "北面"\n', 'facing = "北面"\nwhen = "raining"\n', "when 'raining' is not a reading switch"),
    ('facing = "北面"\n', 'facing = "北面"\ndelay = -1\n', "section 1: step 1: delay = -1 must be a number ≥ 0"),
])
def test_bad_data_is_named_in_one_line(assets, old, new, expect):
    _break(assets, old, new)
    with pytest.raises(chor.ChoreographyError) as err:
        chor.load(assets)
    msg = str(err.value)
    assert expect in msg and "\n" not in msg
    assert "1_reception.toml" in msg or msg.startswith("rite:")


def test_sections_must_run_in_order(assets):
    f = assets / "rite" / "1_reception.toml"
    f.write_text(f.read_text(encoding="utf-8") +
                 '\n[[section]]\nn = 3\nid = "su_bin"\ntitle = "速賓"\nphase = "reception"\n', encoding="utf-8")
    with pytest.raises(chor.ChoreographyError, match=r"rite: sections must run 1, 2, 3 … in file order; got \[1, 3\]"):
        chor.load(assets)


def test_broken_toml_names_the_file(assets):
    _break(assets, 'n = 1', 'n = = 1')
    with pytest.raises(chor.ChoreographyError, match="1_reception.toml: not valid TOML"):
        chor.load(assets)


def test_place_refs_parse():
    r = chor.parse_ref("pos.shooters#2@西南4.5")
    assert (r.place, r.slot, r.direction, r.dist) == ("pos.shooters", 2, "西南", 4.5)
    assert chor.parse_ref("actor:bin").actor == "bin"
    with pytest.raises(ValueError):
        chor.parse_ref("pos.sima@上3")


def test_every_verb_has_a_posture_the_renderer_knows():
    from scene.rite.timeline import POSTURES
    for v in chor.VERBS.values():
        assert v.posture in POSTURES and (v.after is None or v.after in POSTURES)
