"""The one validation layer (scene/validation.py) on the data not routed through it before: the choreography's
sections (assets/rite/*.toml), assets/grammar.toml, assets/clauses.toml and the readings (a --reading file, on
the command line too).  A mistyped field, a number out of range or not finite is one line naming the file and
the field — before any work."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from scene.geometry import readings
from scene.rite import choreography as chor
from scene.rite.grammar import clausedata, exceptions

ROOT = Path(__file__).resolve().parents[1]


def _one_line(err: BaseException, *words: str) -> None:
    msg = str(err)
    assert "\n" not in msg, msg
    for w in words:
        assert w in msg, msg


@pytest.fixture
def assets(tmp_path):
    d = tmp_path / "assets"
    shutil.copytree(chor.ASSETS, d)
    return d


@pytest.mark.parametrize("old, new, words", [
    ("n = 1\n", 'n = "one"\n', ["1_reception.toml: section 1: n = 'one' must be a whole number"]),
    ("n = 1\n", "n = 52\n", ["1_reception.toml: section 1: n = 52 must be a whole number ≤ 51"]),
    ('do = "speak"', 'do = 3', ["1_reception.toml: section 1: step 1: do = 3 must be text"]),
    ('do = "speak"', 'do = "speak"\ndur = nan', ["section 1: step 1: dur = nan must be a finite number"]),
    ('do = "speak"', 'do = "speak"\ndur = -2', ["section 1: step 1: dur = -2 must be a number > 0"]),
    ('do = "speak"', 'do = "speak"\ndelay = "soon"', ["section 1: step 1: delay = 'soon' must be a number"]),
    ('do = "speak"', 'do = "speak"\nkneel = "yes"', ["section 1: step 1: kneel = 'yes' must be true or false"]),
    ('do = "speak"', 'do = "speak"\nround = 7', ["section 1: step 1: round = 7 must be a whole number ≤ 3"]),
    ('do = "speak"', 'do = "speak"\nby = "north"', ["section 1: step 1: by = 'north' is not one of"]),
])
def test_a_mistyped_step_is_one_line_naming_file_and_field(assets, old, new, words):
    f = assets / "rite" / "1_reception.toml"        # §1 reduced to one known step (as test_choreography)
    f.write_text('[[section]]\nn = 1\nid = "jie_bin"\ntitle = "戒賓"\nphase = "reception"\ncast = ["zhuren"]\n'
                 '[[section.step]]\nphrase = "主人戒賓"\nwho = "zhuren"\ndo = "speak"\nat = "hall.gate_right@北3"\n',
                 encoding="utf-8")
    for other in (assets / "rite").glob("[2-6]_*.toml"):
        other.unlink()
    assert chor.load(assets).sections[0].steps[0].do == "speak"      # the copy loads before it is broken
    text = f.read_text(encoding="utf-8")
    assert old in text
    f.write_text(text.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(chor.ChoreographyError) as e:
        chor.load(assets)
    _one_line(e.value, *words)


@pytest.fixture
def grammar_copy(tmp_path, monkeypatch):
    f = tmp_path / "grammar.toml"
    shutil.copy(exceptions.FILE, f)
    monkeypatch.setattr(exceptions, "FILE", f)
    caches = (exceptions._raw, exceptions.load, exceptions.group_readings)
    for c in caches:
        c.cache_clear()
    yield f
    for c in caches:
        c.cache_clear()


@pytest.mark.parametrize("old, new, words", [
    ("section = 30\n", 'section = "thirty"\n', ["grammar.toml: exception 1: section = 'thirty' must be a whole number"]),
    ("step = 1\n", "step = 0\n", ["grammar.toml: exception 1: step = 0 must be a whole number ≥ 1"]),
    ("\nsections = [23, 44]", "\nsections = [23, 99]", ["grammar.toml: group 1: sections[1] = 99 must be a whole number ≤ 51"]),
    ("\ndafu_present = false", '\ndafu_present = "no"', ["grammar.toml: group 4: dafu_present = 'no' must be true or false"]),
    ('\nrule = "group"', '\nrule = "group"\ncolour = 1', ["grammar.toml: exception 1: unknown key 'colour'"]),
])
def test_a_mistyped_grammar_entry_is_one_line(grammar_copy, old, new, words):
    text = grammar_copy.read_text(encoding="utf-8")
    assert old in text
    grammar_copy.write_text(text.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(chor.ChoreographyError) as e:
        exceptions.load()
        exceptions.group_readings()
    _one_line(e.value, *words)


@pytest.fixture
def clauses_copy(tmp_path, monkeypatch):
    f = tmp_path / "clauses.toml"
    shutil.copy(clausedata.FILE, f)
    monkeypatch.setattr(clausedata, "FILE", f)
    clausedata.load.cache_clear()
    yield f
    clausedata.load.cache_clear()


@pytest.mark.parametrize("old, new, words", [
    ("[[condition]]\nsection = 33", "[[condition]]\nsection = 99", ["clauses.toml: condition 1: section = 99 must be a whole number ≤ 51"]),
    ("[[condition]]\nsection = 33", '[[condition]]\nsection = 33.5', ["clauses.toml: condition 1: section = 33.5 must be a whole number"]),
    ('do = ["shoot"]', 'do = "shoot"', ["clauses.toml: ji 1: do = 'shoot' must be an array"]),
    ("[[condition]]\nsection = 33", "[[condition]]\nsection = 33\nwhy = 1", ["clauses.toml: condition 1: unknown key 'why'"]),
])
def test_a_mistyped_clauses_entry_is_one_line(clauses_copy, old, new, words):
    text = clauses_copy.read_text(encoding="utf-8")
    assert old in text
    clauses_copy.write_text(text.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(chor.ChoreographyError) as e:
        clausedata.load()
    _one_line(e.value, *words)


@pytest.mark.parametrize("body, words", [
    ('chi_m = "long"\n', ["chi_m = 'long' must be a number, not text"]),
    ("hall_width_chi = inf\n", ["hall_width_chi = inf must be a finite number"]),
    ("seed = 1.5\n", ["seed = 1.5 must be a whole number"]),
    ("dafu_present = 1\n", ["dafu_present = 1 must be true or false"]),
    ("bu_chi = 9\n", ["bu_chi = 9 must be a number ≤ 8"]),
    ("ying_bays = 9\n", ["ying_bays = 9 must be a whole number ≤ 5"]),
])
def test_a_mistyped_reading_file_is_one_line(tmp_path, body, words):
    f = tmp_path / "bad.toml"
    f.write_text(body, encoding="utf-8")
    with pytest.raises(readings.ReadingError) as e:
        readings.get(str(f))
    _one_line(e.value, str(f), *words)


def test_a_mistyped_reading_file_on_the_command_line(tmp_path):
    f = tmp_path / "bad.toml"
    f.write_text("chi_m = nan\n", encoding="utf-8")
    out = subprocess.run([sys.executable, "-m", "scene", "check", "--reading", str(f)], capture_output=True,
                         text=True, cwd=ROOT, timeout=300)
    assert out.returncode != 0
    err = out.stderr.strip()
    assert len(err.splitlines()) == 1, err
    assert str(f) in err and "chi_m = nan must be a finite number" in err, err
    assert out.stdout == ""                     # no work done


def test_the_shipped_data_passes():
    assert len(chor.load(chor.ASSETS).sections) == 51
    clausedata.load.cache_clear()
    assert clausedata.load().subjects
    for c in (exceptions._raw, exceptions.load, exceptions.group_readings):
        c.cache_clear()
    assert exceptions.load()[0] and exceptions.group_readings()
    for name in readings.PRESETS:
        assert readings.get(name).name == name
