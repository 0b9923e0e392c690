"""The one validation layer (scene/validation.py, issue 24): the cast, the --camera JSON and the helpers: bad
types and values are one line naming the file and the field, before any work; nan, inf and deep nesting refused."""
from __future__ import annotations

import json
import shutil

import pytest

from scene.rite import choreography as chor
from scene.validation import InputError, convert, depth, load_json


@pytest.fixture
def assets(tmp_path):
    d = tmp_path / "assets"
    shutil.copytree(chor.ASSETS, d)
    return d


@pytest.mark.parametrize("old, new, words", [
    ('archer = true', 'archer = "yes"', ["cast.toml: actor 1: archer = 'yes'", "true or false"]),
    ('colour = "#8c1c13"', 'colour = 42', ["cast.toml: actor 1: colour = 42", "text"]),
    ('colour = "#8c1c13"', 'colour = "red"', ["cast.toml: actor 1: colour = 'red'"]),
    ('stairs = "east"', 'stairs = "north"', ["cast.toml: actor 1: stairs = 'north'", "east, west"]),
    ('mark = "冠 + dark red robe (host)"', 'mark = "冠"\nhat = 1', ["cast.toml: actor 'zhuren'", "'hat'"]),
    ('kind = "cup"', 'kind = 7', ["cast.toml: object ", ": kind = 7 must be text"]),   # the first cup's object
])
def test_a_bad_cast_is_one_line_naming_the_field(assets, old, new, words):
    cast = assets / "cast.toml"
    text = cast.read_text(encoding="utf-8")
    assert old in text
    cast.write_text(text.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(chor.ChoreographyError) as e:
        chor.load(assets)
    msg = str(e.value)
    assert "\n" not in msg
    for w in words:
        assert w in msg, msg


def test_the_shipped_cast_passes():
    c = chor.load(chor.ASSETS)
    assert c.actors["zhuren"].archer is True and c.actors["zhuren"].stairs == "east"


CAM = {"position": [10, 0, 5], "focal_point": [0, 0, 0], "view_up": [0, 0, 1]}


@pytest.mark.parametrize("change, words", [
    ({"position": [10, 0, float("nan")]}, ["position[2] = nan", "finite"]),
    ({"focal_point": [0, 0, float("inf")]}, ["focal_point[2] = inf", "finite"]),
    ({"view_angle": True}, ["view_angle = True"]),
    ({"parallel_scale": 0}, ["parallel_scale = 0"]),
    ({"position": [1, 2]}, ["position"]),
])
def test_a_bad_camera_is_one_line(change, words):
    from scene.render.views import ViewError, camera_from_json
    text = json.dumps({**CAM, **change})              # json writes NaN / Infinity as the browser never would
    with pytest.raises(ViewError) as e:
        camera_from_json(text)
    msg = str(e.value)
    assert "\n" not in msg and msg.startswith("--camera: ")
    for w in words:
        assert w in msg, msg


def test_a_good_camera_passes_with_the_keys_the_browser_adds():
    from scene.render.views import camera_from_json
    cam = camera_from_json(json.dumps({**CAM, "view_angle": 40, "zoom": 1.0}))
    assert cam.position == (10.0, 0.0, 5.0) and cam.view_angle == 40.0


def test_nesting_is_capped_without_recursion():
    deep: list = []
    for _ in range(100_000):                       # deeper than Python's recursion limit
        deep = [deep]
    assert depth(deep, 12) == 13
    with pytest.raises(InputError, match="nested deeper than 12 levels"):
        convert({"a": deep}, dict, "x.json")
    with pytest.raises(InputError, match="^x.json: not JSON"):
        load_json("[" * 100_000 + "]" * 100_000, dict, "x.json")
