"""Readings (presets, TOML files, one-line errors) and the command line."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from scene.__main__ import main
from scene.geometry import readings


def run(*args):
    return subprocess.run([sys.executable, "-m", "scene", *args], capture_output=True, text=True, timeout=60)


def test_presets_complete_and_sourced():
    assert {"zheng", "xiang", "wu1991"} <= set(readings.PRESETS)
    assert readings.PRESETS["xiang"].building == "庠"
    assert readings.PRESETS["wu1991"].chi_m == 0.1991
    for r in readings.PRESETS.values():
        for c in r.choices():
            assert c["source"], (r.name, c["key"])


def test_toml_reading_loads(tmp_path):
    f = tmp_path / "mine.toml"
    f.write_text('base = "xiang"\nchi_m = 0.2\nbu_chi = 8\n', encoding="utf-8")
    r = readings.get(str(f))
    assert (r.name, r.building, r.chi_m, r.bu_chi) == ("mine", "庠", 0.2, 8.0)


@pytest.mark.parametrize("body, expect", [
    ('bu_chi = 7\n', "key 'bu_chi' = 7 is not allowed (allowed: 6, 8)"),
    ('building = "宮"\n', "key 'building' = '宮' is not allowed (allowed: 序, 庠)"),
    ('chi_m = "long"\n', "chi_m = 'long' must be a number, not text"),
    ('nonsense = 1\n', "unknown key 'nonsense'"),
    ('bu_chi = \n', "not valid TOML"),
    ('chi_m = 3.0\n', "chi_m = 3.0 must be a number ≤ 0.4"),
    ('chi_m = nan\n', "chi_m = nan must be a finite number"),
])
def test_bad_toml_one_line_naming_file_key_and_allowed(tmp_path, body, expect):
    f = tmp_path / "bad.toml"
    f.write_text(body, encoding="utf-8")
    with pytest.raises(readings.ReadingError) as err:
        readings.get(str(f))
    msg = str(err.value)
    assert "\n" not in msg and str(f) in msg and expect in msg


def test_cli_layout_json_has_every_place_in_metres():
    out = run("layout", "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["reading"]["name"] == "zheng" and data["reading"]["chi_m"] == 0.231
    assert {"depth_m", "width_m", "height_m"} <= set(data["hall"])
    ids = {p["id"]: p for p in data["places"]}
    hou = ids["target.centre"]
    assert hou["name"] == "侯中" and hou["xyz_m"][1] == pytest.approx(-69.3)
    for p in data["places"]:
        assert {"id", "name", "xyz_m", "source", "derivation", "status"} <= set(p)


def test_cli_layout_table_shows_chinese_names_and_derivations(capsys):
    assert main(["layout", "--reading", "xiang"]) == 0
    out = capsys.readouterr().out
    assert "侯中" in out and "乏" in out and "堂深" in out and "@ 0.231 m/尺" in out


def test_cli_measure_json(capsys):
    assert main(["measure", "侯道五十弓", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert (d["chi"], d["metres"]) == (300.0, 69.3)
    assert d["derivation"] == "50 弓 × 6 尺 = 300 尺 = 69.30 m @ 0.231 m/尺"


@pytest.mark.parametrize("args, expect", [
    (["measure", "五十马"], "position 2 ('马')"),
    (["measure", "三丈有"], "cannot parse '三丈有'"),
    (["stages", "--seed", "-3"], "key 'seed' = -3 is out of range (allowed: 0 to 2147483647)"),
    (["layout", "--reading", "nosuch"], "unknown reading 'nosuch'"),
    (["layout", "--reading", "/no/such/file.toml"], "no such reading file"),
    (["frobnicate"], "invalid choice"),
])
def test_cli_bad_input_is_one_line_and_nonzero(args, expect):
    out = run(*args)
    assert out.returncode == 2
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and expect in lines[0] and "Traceback" not in out.stderr


def test_cli_readings_lists_presets():
    out = run("readings")
    assert out.returncode == 0 and "zheng" in out.stdout and "xiang" in out.stdout


def test_cli_measure_a_sentence_with_relations(capsys):
    """經 §2 乏參侯道居侯黨之一西五步: a third of the 侯道 north, five 步 west — 侯道 taken from 記61."""
    assert main(["measure", "乏參侯道居侯黨之一西五步", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [(r["text"], r["chi"]) for r in rows] == [("參侯道居侯黨之一", 100.0), ("五步", 30.0)]
    assert main(["measure", "乏參侯道居侯黨之一西五步", "--json", "--reading", "wangzhi"]) == 0
    assert [r["chi"] for r in json.loads(capsys.readouterr().out)] == [100.0, 40.0]
