"""Classroom-ready (issue 27): the 45-minute lesson on the three rounds (三番射, assets/lessons/) run by a
presentation clicker's keys alone, after every control of the page was clicked once, with a follower tab
beside the presenter's.  At each stop, on both pages: the lesson's caption is the stop's (繁), presenter and
follower show the same stop, stage and moment, and the people the step names are in frame, seen (not hidden
by the hall, a prop or another person, nor under the page's toolbar, captions, badges or labels — measured
from the rendered frame: assets/web/framecheck.js) and drawn at least as tall as the director's rule asks
(frame_rules.min_height).  Per stop the figures are printed, and a summary line."""
from __future__ import annotations

import os
import sys
import time
import tomllib

import pytest
from frametools import COVERED, FRAMECHECK, UNOCCLUDED, figures, heights, judge
from webtools import READY, ROOT, app_on_free_port, chromium, chromium_missing_reason, machines

KEY = "lesson45-presenter-key"
LESSON = "three_rounds_class"
pytestmark = [pytest.mark.skipif(chromium_missing_reason() is not None, reason=str(chromium_missing_reason())),
              pytest.mark.browser, pytest.mark.slow]

#: the stops whose people rule is still open (issue 27 stays open for them): measured and printed at every run,
#: not asserted — every other stop must pass it, and every stop must pass the lesson's own checks
OPEN: dict[str, str] = {}

PLAYER = "window.__xslPlayer"
LESSONS = f"{PLAYER}.extensions.find((x) => x.pick)"
S = "window.trame.state.get"


@pytest.fixture(scope="module")
def port():
    with app_on_free_port("--presenter-key", KEY) as p:
        yield p


def click_every_control(page) -> None:
    """Each control of the page clicked once, as a teacher setting up might; where a click changes what the
    class sees (a view, labels, the roof, the script), the control's other choice is clicked after it, so the
    lesson runs as a class sees it by default.  The lesson picker comes last (:func:`open_the_lesson`)."""
    page.click("#view-hall")
    page.click("#view-auto")
    for box in ("#xsl-labels", "#xsl-dims"):
        page.click(box)
        page.click(box)
    for roof in ("實", "剖"):                                  # a Vuetify select (no native select: issue 42)
        page.click(".v-select:has(#xsl-roof) .v-field")
        page.locator(".v-overlay--active .v-list-item", has_text=roof).click()
    page.click(".v-select:has(#xsl-speed) .v-field")
    page.locator(".v-overlay--active .v-list-item", has_text="2×").click()
    page.wait_for_function(f"{S}('speed') === 2")
    page.click("#tab-text")
    page.click("#xsl-notes-switch")
    page.click("#xsl-lang-simp")
    page.click("#xsl-lang-trad")
    page.click("#tab-reading")
    page.click("#tab-inspect")
    for b in ("#xsl-prev-stage", "#xsl-next-stage", "#xsl-prev-step", "#xsl-next-step"):
        page.click(b)
    page.click("#xsl-play")
    page.click("#xsl-play")
    page.click(".xsl-sound")
    page.click(".xsl-sound")
    page.click(".xsl-palette")
    page.click(".xsl-palette")
    page.click("#nav-20")
    page.wait_for_function(f"{PLAYER}.state().stage === 20")


def open_the_lesson(page) -> None:
    """The last click before the show: the lesson from the picker, which lands on its first stop (held) and
    gives the focus back for the clicker's keys that follow."""
    page.click(".xsl-lessons xsl-select")                       # the picker's own listbox (listbox.js)
    page.locator(".xsl-lessons xsl-select [role=option]", has_text="三番射").click()


#: measure the page in the first frame where COND holds (after the player drew it), into window.__l45
ARM = """(cond) => import('FRAMECHECK').then((f) => {
  window.__l45 = null;
  const p = window.__xslPlayer, holds = new Function(`return (${cond})`);
  // and the picture drawn at the view's size: in the one frame after a layout change (F5's classroom band)
  // the canvas is stretched to the new size before the player has resized to it, its labels not yet moved
  const sized = () => p._w === p.container.clientWidth && p._h === p.container.clientHeight;
  const tick = () => {
    if (!holds() || !sized()) { requestAnimationFrame(tick); return; }
    const m = f.measure(p);
    m.stage = p.state().stage;
    m.caption = document.querySelector('.xsl-lesson-caption > div')?.innerText || '';
    window.__l45 = m;
  };
  requestAnimationFrame(tick);
})""".replace("FRAMECHECK", FRAMECHECK)


def arm(page, cond: str) -> None:
    page.evaluate(ARM, cond)


def stops() -> list[dict]:
    return tomllib.loads((ROOT / "assets" / "lessons" / f"{LESSON}.toml").read_text("utf-8"))["stop"]


def test_the_three_rounds_lesson_by_keys_presenter_and_follower(port, rite):
    t0 = time.time()
    rule = heights(rite)                       # per step: the height the director's rule asks
    t_audit = time.time() - t0
    want = stops()
    url = f"http://127.0.0.1:{port}/"
    rows, failures = [], []
    with chromium() as b:
        with machines(b, 2, viewport={"width": 1280, "height": 720}) as (pres, fol):
            errors: list[str] = []
            for pg in (pres, fol):
                pg.on("pageerror", lambda e: errors.append(str(e)))
            pres.goto(url + f"?present=1&key={KEY}&stage=3")
            fol.goto(url + "?follow=1&classroom=1")
            for pg in (pres, fol):
                pg.wait_for_function(READY, timeout=180000)
            click_every_control(pres)
            # the lesson from the picker, held at its first stop; then the clicker's "start the show" (F5): classroom
            # mode shows no picker (issue 42: the picture, the caption and the phrase only)
            open_the_lesson(pres)
            pres.keyboard.press("F5")
            pres.wait_for_function(f"{S}('classroom') === true")
            # then the lesson: every stop, the first too, is measured where it lands, in the classroom's layout
            for i, stop in enumerate(want):
                tag = f"{i + 1}/{len(want)}"
                # each page measured in the first frame that shows the stop: the presenter's at the stop's moment
                # (the lesson starts its play there), the follower's when the presenter's stop has reached it
                arm(pres, f"{LESSONS}.i === {i}")
                arm(fol, f"document.querySelector('.xsl-lesson-caption')?.dataset.stop === '{tag}'")
                if i:
                    pres.keyboard.press("PageDown")
                # (stop 1: opened before F5 and held there, measured now in the classroom's layout)
                speed = float(stop.get("speed", 8))
                tol = 2.0 * speed + 0.5             # two seconds of play: the follower plays on between updates
                why: list[str] = []            # the lesson itself: caption, stop, moment
                people: list[str] = []         # the people rule (in frame, seen, tall enough)
                shot: dict[str, dict] = {}
                for name, pg in (("presenter", pres), ("follower", fol)):
                    pg.wait_for_function("window.__l45 !== null", timeout=20000)
                    shot[name] = m = pg.evaluate("window.__l45")
                    if m["caption"] != stop["caption"]:
                        why.append(f"{name}: caption {m['caption']!r} is not the stop's {stop['caption']!r}")
                    # within the tolerance of a stage's start, the two may stand on either side of it
                    m["boundary"] = pg.evaluate(f"{PLAYER}.stages.some((s) => Math.abs(s.start - {m['t']}) <= {tol})")
                    st = m["step"]
                    h = rule.get((st["section"], st["index"], round(st["start"], 3)), 0.0) if st else 0.0
                    for w in judge(m["people"], h):
                        people.append(f"{name}: {w}")
                    m["need"] = h
                sp, sf = shot["presenter"], shot["follower"]
                if abs(sp["t"] - sf["t"]) > tol:
                    why.append(f"follower at t={sf['t']:.1f}, presenter at t={sp['t']:.1f} (more than {tol:.1f} s apart)")
                if sp["stage"] != sf["stage"] and not (sp["boundary"] or sf["boundary"]):
                    why.append(f"follower in §{sf['stage']}, presenter in §{sp['stage']}")
                st = sp["step"] or {}
                rows.append((tag, stop, sp, sf, why + people))
                bad = why + people
                print(f"stop {tag} §{st.get('section')}.{(st.get('index') or 0) + 1} {stop['view']:7} t={sp['t']:.1f} "
                      f"need {sp['need']:.3f} | presenter {figures(sp['people']) or '(no one named)'} | follower "
                      f"{figures(sf['people']) or '(no one named)'} | " + ("PASS" if not bad else "FAIL: " + "; ".join(bad))
                      + (f" [open: {OPEN[tag]}]" if people and tag in OPEN else ""))
                if why or (people and tag not in OPEN):
                    failures.append(f"stop {tag} ({stop['caption']}): " + "; ".join(bad))
    passed = sum(not r[4] for r in rows)
    print(f"lesson {LESSON}: {passed}/{len(rows)} stops pass on presenter and follower (seen ≥ {UNOCCLUDED:.0%}, "
          f"covered ≤ {COVERED:.0%}, in frame, figure ≥ the rule); the rule {t_audit:.1f} s, all {time.time() - t0:.0f} s")
    assert not errors, errors
    assert not failures, "\n".join(failures)


@pytest.mark.skipif(not os.environ.get("XIANGSHELI_FRAMES_RITE"), reason="the whole rite takes ~8 min: XIANGSHELI_FRAMES_RITE=1")
def test_the_directors_shot_of_every_step_passes_in_the_browser():
    """Issue 27's bar: over the whole rite (every step the audit judges, at its middle), ≥ 98 % of the
    director's shots pass the same frame test in the browser (bench/bench_frames.py, printed per step)."""
    sys.path.insert(0, str(ROOT / "bench"))
    import bench_frames
    assert bench_frames.main([]) == 0
    got = bench_frames.LAST
    assert got["steps"] > 1900, got
    assert got["share"] >= 0.98, f"{got['share']:.1%} of {got['steps']} steps pass in the browser (python audit {got['python']:.1%})"
