"""Lessons (assets/lessons/*.toml, chapter 4's assets/chapters/xiangyinjiu/lessons/*.toml, scene/web/lessons.py,
assets/web/lessons.js): the shipped ones resolve, bad
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


#: chapter 4's lessons (its manifest's ``[data] lessons``: issue 43)
CH4 = "xiangyinjiu"
CH4_LESSONS = ROOT / "assets" / "chapters" / CH4 / "lessons"


@pytest.fixture(scope="module")
def rite4():
    """Chapter 4's compiled rite under the default reading."""
    from scene.rite.cache import load_rite
    return load_rite("zheng", chapter=CH4)


def test_chapter_4s_class_resolves_and_each_stop_quotes_the_jing(rite4, rite):
    """鄉飲酒禮's 45-minute class (issue 43): the manifest names its folder, the pack's block carries it (and not
    chapter 5's lessons, nor chapter 5's pack it), its stops go through the rite in order — the 獻 of the 賓, the
    介 and the 眾賓, the music's four parts, 司正, 旅酬, 二人舉觶, 徹俎, 坐燕, 賓出 — with time left to talk, and
    each caption quotes the 經 of its section: its title, then words of that section only."""
    import re
    import tomllib

    from scene.chapter import resolve
    from scene.text import jing
    from scene.web.lessons import lesson_block, lesson_files
    assert resolve(CH4).lessons == CH4_LESSONS and [f.stem for f in lesson_files(resolve(CH4))] == ["yinjiu_class"]
    got = {L["name"]: L for L in lesson_block(rite4)}
    assert set(got) == {"yinjiu_class"}
    assert "yinjiu_class" not in {L["name"] for L in lesson_block(rite)}
    L = got["yinjiu_class"]
    stages = [rite4.stage_at(s["t"]).n for s in L["stops"]]
    assert stages == sorted(stages)
    assert {3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 17, 19, 20, 21, 22, 23} <= set(stages)
    played = sum(s["play"] / s["speed"] for s in L["stops"])
    assert 120 < played < 15 * 60                 # the rite plays a quarter of the class at most: the rest is talk
    raw = tomllib.loads((CH4_LESSONS / "yinjiu_class.toml").read_text("utf-8"))["stop"]
    for k, (st, res) in enumerate(zip(raw, L["stops"]), 1):
        text = jing.passage(st["stage"], chapter=CH4).text
        head, colon, said = st["caption"].partition("：")
        words = [w for w in re.split("[，；、]", said) if w]
        assert colon and head and words, f"stop {k}: a title, then the 經's words"
        assert [w for w in words if w not in text] == [], f"stop {k}: not words of §{st['stage']}'s 經"
        assert st["act"] in text and res["act"] == st["act"] and res["en"] and res["caption_s"] != res["caption"]


def shipped_stops():
    import tomllib
    for chapter, folder in ((None, ROOT / "assets" / "lessons"), (CH4, CH4_LESSONS)):
        for f in sorted(folder.glob("*.toml")):
            for k, st in enumerate(tomllib.loads(f.read_text("utf-8"))["stop"], 1):
                yield pytest.param(chapter, st, id=f"{f.stem}-{k}")


@pytest.mark.parametrize("chapter,stop", shipped_stops())
def test_every_shipped_stop_plays_through_the_act_its_caption_names(request, chapter, stop):
    """Issue 42: a stop names its act (``act``, a phrase of the rite's steps) and plays until that act is over
    (飲不勝者 ended 128 s before the drink; 迎賓拜至, 主人獻賓, 送賓 stopped before the 拜至, 獻, 再拜).  Read
    from the file and the compiled rite's steps (of the lesson's chapter), not from the loader: the first step
    with the phrase from the stop's moment on lies inside [t, t + play]."""
    import math
    rite = request.getfixturevalue("rite4" if chapter == CH4 else "rite")
    assert stop.get("act"), f"{stop['caption']}: no act named"
    stage = next(x for x in rite.stages if x.n == stop["stage"])
    base = stage.start_s
    if "step" in stop:                        # t from the n-th step of the stage by start time (the same in every reading)
        base = sorted((x for x in rite.spans if x.section == stage.n), key=lambda x: (x.start_s, x.index))[stop["step"]].start_s
    t = math.ceil((base + stop.get("t", 0.0)) * 1000 - 1e-6) / 1000
    end = t + stop.get("play", 0.0)
    steps = sorted((x for x in rite.spans if x.phrase == stop["act"] and x.start_s >= t - 1e-3),
                   key=lambda x: (x.start_s, x.index))
    assert steps, f"{stop['act']}: no step of the rite from §{stage.n} +{stop.get('t', 0)} s on"
    act = steps[0]
    assert act.section == stage.n or act.section == stage.n + 1, (act.section, stage.n)
    assert t - 1e-3 <= act.start_s and act.end_s <= end + 1e-3, \
        f"{stop['caption']}: the act {act.phrase} [{act.start_s:.1f}, {act.end_s:.1f}] is not inside [{t:.1f}, {end:.1f}]"


def test_a_stop_that_ends_before_its_act_is_refused(rite):
    """飲不勝者 as it shipped (play = 90 from +60 s): the drink (立卒觶) comes 128 s after the stop's end."""
    from scene.web.lessons import LessonError, load_lesson
    text = 'title = "x"\n[[stop]]\nstage = 33\nt = 60\ncaption = "飲不勝者"\nplay = 90\nact = "立卒觶"\n'
    with pytest.raises(LessonError) as e:
        load_lesson(Path("bad.toml"), rite, text)
    assert "立卒觶" in str(e.value) and "after the stop's span" in str(e.value)
    ok = load_lesson(Path("ok.toml"), rite, text.replace("play = 90", "play = 300"))
    assert ok["stops"][0]["act"] == "立卒觶"


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


@pytest.fixture(scope="module")
def pack_dir(tmp_path_factory):
    from scene.web import pack as webpack
    pack = tmp_path_factory.mktemp("lessons") / "pack"
    webpack.write_pack(pack)
    webpack.write_font(pack / "font" / "cjk.otf")
    return pack


LX = "window.__xslPlayer.extensions.find((x) => x.addStop)"
#: the lesson as the page holds it, without the name (開 may have to rename: nothing is overwritten)
LESSON = f"(() => {{ const L = {LX}.lesson; return L && {{ title: L.title, en: L.en, stops: L.stops }}; }})()"
TRICKY = 'a "quoted" caption\n[[stop]]\nt = 0 ]] \\ \'end\''


def test_a_teachers_own_lesson_saves_opens_and_survives_a_reload(tmp_path, rite, pack_dir):
    """新 makes a lesson from nothing; stops added (one with the camera the teacher dragged to) and a caption
    with quotes, a newline and ]] typed in; 存 downloads TOML that tomllib and lessons.py read; 開 that file
    gives back the same lesson; a reload keeps it (localStorage); a bad file gets one line."""
    import tomllib

    from scene.web.lessons import load_lesson
    with webtools.site(pack_dir) as (_, url), webtools.chromium() as b:
        page = b.new_page(viewport={"width": 1280, "height": 720})
        errors = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{url}player.html?stage=21")
        page.wait_for_function("document.body.dataset.ready", timeout=120_000)
        page.once("dialog", lambda d: d.accept("我的射課"))
        page.click(".xsl-lessons button:text-is('新')")
        assert page.evaluate(f"{LX}.lesson.title") == "我的射課"
        assert page.evaluate(f"{LX}.lesson.stops.length") == 0
        page.click(".xsl-lessons button:text-is('+站')")                  # §21's start, the view shown
        page.keyboard.press("PageDown")
        page.keyboard.press("ArrowRight")
        box = page.locator("canvas.xsl-canvas").bounding_box()             # the teacher drags the camera
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.mouse.down()
        page.mouse.move(box["x"] + box["width"] / 2 + 120, box["y"] + box["height"] / 2 + 30, steps=8)
        page.mouse.up()
        page.click(".xsl-lessons button:text-is('+站')")
        page.once("dialog", lambda d: d.accept(TRICKY))
        page.click(".xsl-lessons button:text-is('改')")
        held = page.evaluate(LESSON)
        assert len(held["stops"]) == 2 and "camera" in held["stops"][1] and held["stops"][1]["caption"] == TRICKY
        with page.expect_download() as dl:
            page.click(".xsl-lessons button:text-is('存')")
        saved = tmp_path / dl.value.suggested_filename
        dl.value.save_as(saved)
        text = saved.read_text(encoding="utf-8")
        data = tomllib.loads(text)                                       # a caption cannot inject a stop
        assert len(data["stop"]) == 2 and data["stop"][1]["caption"] == TRICKY and "nan" not in text.lower()
        assert load_lesson(saved, rite)["stops"][1]["caption"] == TRICKY   # what python app.py reads
        # 開 the saved file: the same lesson
        name0 = page.evaluate(f"{LX}.lesson.name")
        with page.expect_file_chooser() as fc:
            page.click(".xsl-lessons button:text-is('開')")
        fc.value.set_files(str(saved))
        page.wait_for_function(f"{LX}.lesson && {LX}.lesson.name !== {name0!r}")
        assert page.evaluate(LESSON) == held
        assert page.evaluate("document.getElementById('xsl-message').hidden")
        # a reload keeps both (this browser's lessons)
        page.reload()
        page.wait_for_function("document.body.dataset.ready", timeout=120_000)
        names = page.evaluate(f"{LX}.list.filter((L) => !L.builtin).map((L) => L.name)")
        assert len(names) == 2
        webtools.choose(page, ".xsl-lessons xsl-select", names[0])
        assert page.evaluate(LESSON) == held
        # a bad file: one line, nothing changed
        bad = tmp_path / "bad.toml"
        bad.write_text('title = "x"\n[[stop]]\nstage = 2\ncolour = 1\n', encoding="utf-8")
        with page.expect_file_chooser() as fc:
            page.click(".xsl-lessons button:text-is('開')")
        fc.value.set_files(str(bad))
        page.wait_for_function("!document.getElementById('xsl-message').hidden")
        msg = page.inner_text("#xsl-message")
        assert msg.startswith("bad: stop 1") and "colour" in msg and "\n" not in msg.strip()
        assert page.evaluate(f"{LX}.list.filter((L) => !L.builtin).length") == 2
        assert not errors, errors


@pytest.mark.slow
@pytest.mark.browser
@pytest.mark.skipif(webtools.chromium_missing_reason() is not None, reason=str(webtools.chromium_missing_reason()))
def test_the_editor_sets_a_stops_start_and_end(tmp_path, rite, pack_dir):
    """The teacher gives a stop its play span with the keys and two buttons: → to a moment, 起 (the stop starts
    here), → further, 止 (it plays to here); 存's TOML holds that span, and the page plays exactly it."""
    import tomllib

    from scene.web.lessons import load_lesson
    with webtools.site(pack_dir) as (_, url), webtools.chromium() as b:
        page = b.new_page(viewport={"width": 1280, "height": 720})
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{url}player.html?lesson=rite_in_ten_minutes")
        page.wait_for_function("document.body.dataset.ready === '1'", timeout=120_000)
        page.keyboard.press("PageDown")               # stop 2 (it plays) …
        page.keyboard.press("Space")                  # … paused
        for _ in range(3):
            page.keyboard.press("ArrowRight")
        start = page.evaluate("window.__xslPlayer.state().t")
        page.click(".xsl-lessons button:text-is('起')")
        for _ in range(6):
            page.keyboard.press("ArrowRight")
        end = page.evaluate("window.__xslPlayer.state().t")
        assert end > start + 1
        page.click(".xsl-lessons button:text-is('止')")
        with page.expect_download() as dl:
            page.click(".xsl-lessons button:text-is('存')")
        saved = tmp_path / dl.value.suggested_filename
        dl.value.save_as(saved)
        stop = tomllib.loads(saved.read_text("utf-8"))["stop"][1]
        assert abs(stop["t"] - start) < 0.01 and abs(stop["t"] + stop["play"] - end) < 0.01, (stop, start, end)
        back = load_lesson(saved, rite)
        assert abs(back["stops"][1]["t"] - start) < 0.01
        # the edited stop plays its span and stops at its end
        page.keyboard.press("PageUp")
        page.keyboard.press("PageDown")
        page.wait_for_function("!window.__xslPlayer.state().playing", timeout=60_000)
        assert abs(page.evaluate("window.__xslPlayer.state().t") - end) < 1.0
        assert not errors, errors
