"""Lessons (assets/lessons/*.toml, scene/web/lessons.py, assets/web/lessons.js): the shipped ones resolve, bad
files get one line naming file and stop, and in Chromium a lesson plays, PageDown goes to the next stop with its
caption, and a lesson edited in the page saves as TOML that reads back."""
from __future__ import annotations

from pathlib import Path

import pytest

import webtools

ROOT = Path(__file__).resolve().parents[1]


def test_the_shipped_lessons_resolve(rite):
    from scene.web.lessons import lesson_block
    got = {L["name"]: L for L in lesson_block(rite)}
    assert {"rite_in_ten_minutes", "three_rounds_class"} <= set(got)
    ten = got["rite_in_ten_minutes"]
    # the ten-minute lesson visits the whole rite: from the setting out to the guest's leaving
    stages = [rite.stage_at(s["t"]).n for s in ten["stops"]]
    assert stages == sorted(stages) and stages[0] <= 4 and stages[-1] >= 49
    played = sum(s.get("play", 0) / s.get("speed", 1) for s in ten["stops"])
    assert 60 < played < 600                   # playback leaves the teacher time to talk within ten minutes
    three = got["three_rounds_class"]
    rounds = {rite.stage_at(s["t"]).n for s in three["stops"]}
    assert {20, 21, 27, 39} <= rounds
    for L in got.values():
        for s in L["stops"]:
            assert s["caption"] and s["caption_s"] and 0 <= s["t"] <= rite.duration
    assert "张" in three["stops"][1]["caption_s"] and "張" in three["stops"][1]["caption"]


@pytest.mark.parametrize("text,words", [
    ('title = "x"\n[[stop]]\nstage = 99\n', ["stop 1", "stage 99"]),
    ('title = "x"\n[[stop]]\nstage = 21\n[[stop]]\nstage = 21\nview = "sideways"\n', ["stop 2", "sideways"]),
    ('title = "x"\n[[stop]]\nstage = 21\nstep = 10000\n', ["stop 1", "step 10000"]),
    ('title = "x"\n[[stop]]\nt = "soon"\n', ["stop 1", "soon"]),
    ('title = "x"\n[[stop]]\nstage = 2\ncolour = 1\n', ["stop 1", "colour"]),
    ('[[stop]]\nstage = 2\n', ["title"]),
    ('title = "x"\n[[stop]\n', ["not a lesson file"]),
    # issue 24: numbers are finite and bounded, values typed, nesting capped (scene/validation.py)
    ('title = "x"\n[[stop]]\ncamera = {position = [0, 0, nan], focal_point = [0, 0, 0]}\n',
     ["stop 1", "camera.position[2]", "nan", "finite"]),
    ('title = "x"\n[[stop]]\ncamera = {position = [1e400, 0, 0], focal_point = [0, 0, 0]}\n',
     ["stop 1", "camera.position[0]", "inf", "finite"]),
    ('title = "x"\n[[stop]]\nstage = 21\nt = inf\n', ["stop 1", "t = inf"]),
    ('title = "x"\n[[stop]]\nstage = 21\nplay = "60"\n', ["stop 1", "play = '60'", "number"]),
    ('title = "x"\n[[stop]]\nstage = 21\nplay = true\n', ["stop 1", "play = True", "number"]),
    ('title = "x"\n[[stop]]\nstage = 21\nplay = -5\n', ["stop 1", "play = -5"]),
    ('title = "x"\n[[stop]]\ncamera = {position = [0, 0, 1], focal_point = [0, 0, 0], view_angle = nan}\n',
     ["stop 1", "camera.view_angle"]),
    ('title = "x"\n[[stop]]\ncaption = ' + "[" * 40 + "]" * 40 + '\n', ["nested deeper"]),
    ('title = "x"\n', ["at least one [[stop]]"]),
])
def test_bad_lessons_get_one_line(rite, text, words):
    from scene.web.lessons import LessonError, load_lesson
    with pytest.raises(LessonError) as e:
        load_lesson("bad.toml", rite, text)
    msg = str(e.value)
    assert "\n" not in msg and msg.startswith("bad.toml")
    for w in words:
        assert w in msg, msg


@pytest.mark.slow
@pytest.mark.browser
@pytest.mark.skipif(webtools.chromium_missing_reason() is not None, reason=str(webtools.chromium_missing_reason()))
def test_a_lesson_plays_and_page_down_goes_to_the_next_stop(tmp_path, rite, pack_dir):
    from scene.web.lessons import load_lesson
    pack = pack_dir                       # the session's pack (conftest.py)
    L = load_lesson(ROOT / "assets" / "lessons" / "rite_in_ten_minutes.toml", rite)
    with webtools.site(pack) as (_, url), webtools.chromium() as b:
        page = b.new_page(viewport={"width": 1280, "height": 720})
        errors = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{url}player.html?lesson=rite_in_ten_minutes")
        page.wait_for_function("document.body.dataset.ready", timeout=120_000)
        cap = page.locator(".xsl-lesson-caption")
        assert cap.get_attribute("aria-live") == "polite"
        assert L["stops"][0]["caption"] in cap.inner_text()
        assert abs(page.evaluate("window.__xslPlayer.t") - L["stops"][0]["t"]) < 0.01
        page.keyboard.press("PageDown")
        assert L["stops"][1]["caption"] in cap.inner_text() and L["stops"][1]["en"] in cap.inner_text()
        assert cap.get_attribute("data-stop") == f"2/{len(L['stops'])}"
        s = page.evaluate("window.__xslPlayer.state()")
        # it went to the stop and plays on at the stop's speed (8×: a second of a loaded machine is 8 s)
        assert s["playing"] and s["view"] == "auto" and -0.01 <= s["t"] - L["stops"][1]["t"] < 8.0
        page.wait_for_timeout(1500)
        assert page.evaluate("window.__xslPlayer.t") > L["stops"][1]["t"] + 1.0       # it plays
        # the caption is big enough for a projector and readable (white on the scene, black halo)
        fs = page.evaluate("parseFloat(getComputedStyle(document.querySelector('.xsl-lesson-caption')).fontSize)")
        assert fs >= 0.045 * page.evaluate("window.__xslPlayer.container.clientHeight")   # of the view's height
        webtools.save_png(webtools.screenshot(page), tmp_path / "lesson.png")
        page.keyboard.press("PageUp")
        assert L["stops"][0]["caption"] in cap.inner_text()
        # the teacher adds a stop here, edits its caption, moves it, and saves the lesson
        ext = "window.__xslPlayer.extensions.find((x) => x.lessons !== undefined || x.addStop)"
        page.evaluate(f"() => {{ const x = {ext}; window.__xslPlayer.setTime(4400); x.addStop(); x.editCaption('新的一站'); x.move(-1); }}")
        toml = page.evaluate(f"{ext}.toml()")
        assert not errors, errors
    back = load_lesson(tmp_path / "mine.toml", rite, toml)
    assert len(back["stops"]) == len(L["stops"]) + 1
    assert back["stops"][0]["caption"] == "新的一站" and abs(back["stops"][0]["t"] - 4400) < 0.01
    assert [round(s["t"], 2) for s in back["stops"][1:]] == [round(s["t"], 2) for s in L["stops"]]
