"""Issue 42: every shipped lesson played stop by stop, as a teacher plays it, and the act each stop's caption names
measured from the rendered frame — at 1280×720 and 1920×1080, under every preset reading, of every chapter with
lessons (chapter 5's, and chapter 4's 45-minute class: issue 43).

A teacher opens the lesson (``player.html?lesson=NAME``: its first stop, held), presses Space, and then PageDown
for each next stop; each stop plays its span at its speed in its view (the director's camera for ``auto``).  The
stop names its act (``act``: a phrase of the rite's steps, the first step with it from the stop's moment on,
:func:`scene.web.lessons.act_span`).  While the stop plays, the page is measured in the first frame at the middle
of that act (the middle of its people's own acts, after any walk to them) — the test moves the stop's play on
to a second before it rather than waiting in real time — by assets/web/framecheck.js: an id buffer in the
player's camera with the page's overlays (bar, captions, labels) subtracted.  Each person the act names passes
when he is in frame, at least half of him and of his head is seen (:data:`frametools.UNOCCLUDED`), no label or
caption covers more than :data:`frametools.COVERED` of him, and a standing figure where he stands is drawn at
least as tall as the director's rule asks for that step (:func:`frametools.heights`).

One Chromium, a page per size reused across readings and lessons.  The packs of the other readings are built
into the disk cache when missing (~40 s each here; then read from it).
"""
from __future__ import annotations

import os
import shutil
import tempfile
import time
from pathlib import Path

import pytest
from frametools import COVERED, UNOCCLUDED, heights, judge
from webtools import chromium, chromium_missing_reason, site

pytestmark = [pytest.mark.skipif(chromium_missing_reason() is not None, reason=str(chromium_missing_reason())),
              pytest.mark.browser, pytest.mark.slow]

SIZES = ((1280, 720), (1920, 1080))
#: stops whose act the director does not yet show in most of its frames, by (lesson, stop number) and why:
#: measured and printed at every run, not asserted (issue 42 stays open for them) — every other stop must pass
OPEN: dict[tuple[str, int], str] = {}     # (§11 乃合樂 was: the director's rows rule, docs/director.md)
PLAYER = "window.__xslPlayer"
LESSONS = f"{PLAYER}.extensions.find((x) => x.pick)"

#: the act's people measured at each of `moments` while stop `i` plays, in the first frame at or past it (and the
#: picture at the view's size): the stop's play moved on to it first (what the teacher would wait for at the stop's
#: speed)
MEASURE = """async ({i, moments, who}) => {
  const f = await import('./framecheck.js');
  const p = window.__xslPlayer, L = p.extensions.find((x) => x.pick);
  const out = [];
  for (const mid of moments) {
    if (L.i !== i) { out.push({error: `the lesson is at stop ${L.i + 1}, not ${i + 1}`}); break; }
    if (!p.playing) { out.push({error: `stop ${i + 1} does not play at t ${p.t.toFixed(1)}`}); break; }
    // the moment itself, played on at half speed while it is measured (a frame of a slow machine at the stop's
    // 8× was 0.7 s of the rite: past a 2-second act's middle); the picture at a moment is the same at any speed
    const speed = p.speed;
    p.setSpeed(0.5);
    p.setTime(mid);
    out.push(await new Promise((resolve) => {
      const t0 = performance.now();
      const tick = () => {
        const sized = p._w === p.container.clientWidth && p._h === p.container.clientHeight;
        if (p.t >= mid && sized && p._frameCount > 0 && !p._dirty) {
          const m = f.measure(p, {who});
          p.setSpeed(speed);
          resolve({t: p.t, view: p.view, caption: document.querySelector('.xsl-lesson-caption')?.innerText || '',
                   people: m.people});
        } else if (performance.now() - t0 > 60000) { p.setSpeed(speed); resolve({error: `t ${p.t} never reached ${mid}`}); }
        else requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    }));
  }
  return out;
}"""


def readings() -> list[str]:
    """Every preset reading (``XIANGSHELI_LESSON_FRAMES_READINGS=zheng,xiang`` narrows it for a quick look)."""
    from scene.geometry.readings import PRESETS
    only = [r for r in os.environ.get("XIANGSHELI_LESSON_FRAMES_READINGS", "").split(",") if r]
    return [r for r in PRESETS if not only or r in only]


#: where in the act (its people's own acts, from the first's start to the last's end) the frames are measured;
#: the act is seen when the people pass in most of them (the shooting's landing cuts frame the 侯, by design)
SAMPLES = (0.25, 0.5, 0.75)


#: a shooting act is measured as each of its first arrows leaves the bow (this long before its flight starts):
#: the director shows the archer as he looses and cuts to the 侯 as the arrow lands (issue 42, item 1)
LOOSE_S = 0.2


def flights(rite) -> list[float]:
    """When each arrow of the rite leaves the bow (the start of its flight path), in rite seconds."""
    out = []
    for oid in rite.object_ids:
        if oid.startswith("arrow."):
            out += [float(v[0][0]) for _t, kind, v in rite.director.objects[oid].events if kind == "path"]
    return sorted(out)


def act_of(rite, phrase: str, t: float, loosed: list[float]):
    """The steps a stop's act names — the first with its phrase from t on (as scene.web.lessons.act_span finds
    it) and those of the same phrase starting with it (乃合樂: the 工 on the 堂 and the 笙 below, one step each)
    — and the moments of it measured: of a shooting act, its first three arrows as they leave the bow; else a
    quarter, a half and three quarters into its people's acts (after any walk to them)."""
    hits = [s for s in rite.spans if s.phrase == phrase and s.start_s >= t - 1e-3]
    first = min(hits, key=lambda s: (s.start_s, s.index))
    steps = [s for s in hits if abs(s.start_s - first.start_s) < 1e-3]
    acts = [(a0, a1) for step in steps for _, a0, a1 in step.acts] or [(first.start_s, first.end_s)]
    a0, a1 = min(a for a, _ in acts), max(b for _, b in acts)
    shots = [x - LOOSE_S for x in loosed if a0 <= x - LOOSE_S and x <= a1][:len(SAMPLES)]
    if len(shots) == len(SAMPLES):
        return steps, shots
    return steps, [a0 + f * (a1 - a0) for f in SAMPLES]


def verdict(people: list[dict], steps, rule) -> list[str]:
    """Why a frame does not show the act (empty: it does): the people of one of its steps all pass (a frame
    may show the 工 singing or the 笙 playing; one step's people are framed together)."""
    by = {p["id"]: p for p in people}
    whys = []
    for step in steps:
        need = rule.get((step.section, step.index, round(step.start_s, 3)), 0.0)
        group = [by[a] for a in step.who if a in by]
        why = judge(group, need) + head_fails(group) if group else [f"none of {', '.join(step.who)} on stage"]
        if not why:
            return []
        whys += why
    return whys


def playable(reading: str, into: Path, chapter: str | None = None) -> Path:
    """The reading's pack of the chapter (the disk cache's, built when missing) with the shipped font beside it."""
    from scene.web.pack import pack_dir, shipped
    src = pack_dir(reading, chapter=chapter)
    d = into / f"{chapter or 'xiangshe'}-{reading}"
    d.mkdir(parents=True)
    for name in ("scene.json", "scene.bin"):
        (d / name).symlink_to(src / name)
    (d / "font").symlink_to((shipped.PREBUILT / "webfont").resolve())
    return d


def head_fails(people: list[dict]) -> list[str]:
    return [f"{p['id']} head seen {p['head']:.0%} < {UNOCCLUDED:.0%}" for p in people
            if p.get("drawn") and p.get("alone") and p.get("head", 0.0) < UNOCCLUDED]


def row(tag: str, stop: dict, steps, frames, need: float, ok: bool) -> str:
    """One printed line: the stop, each frame's people (seen share, head, covered, standing height) and the verdict."""
    def person(p: dict) -> str:
        return (f"{p['id']}:seen{p.get('share', 0):.2f}/head{p.get('head', 0):.2f}/cov{p.get('covered', 0):.2f}/"
                f"h{p.get('standing', 0):.3f}" + ("" if p.get("inFrame") else "/CUT"))

    def frame(m: dict, why: list[str]) -> str:
        people = " ".join(person(p) for p in m.get("people", []))
        return (f"t={m.get('t', 0):.1f} {m.get('view')} {people}"
                + (" ok" if not why else " x" + ("" if m.get("people") else f" ({'; '.join(why)})")))
    return (f"{tag} §{steps[0].section} {stop['act']} {stop['view']} need {need:.3f} | "
            + " / ".join(frame(m, why) for m, why in frames) + " | " + ("PASS" if ok else "FAIL"))


def play_lesson(pg, url: str, name: str, tag0: str, rite, rule, loosed) -> list[tuple[str, bool, str]]:
    """The lesson played as a teacher plays it (Space at the first stop, PageDown for each next), each stop's act
    measured while the stop plays; (tag, passed, why) per stop."""
    pg.goto(f"{url}player.html?lesson={name}&classroom=1")     # the projected picture
    pg.wait_for_function("document.body.dataset.ready", timeout=180_000)
    stops = pg.evaluate(f"{LESSONS}.lesson.stops")
    out = []
    for i, stop in enumerate(stops):
        tag = f"{tag0} {name} stop {i + 1}/{len(stops)}"
        pg.keyboard.press("Space" if i == 0 else "PageDown")     # the clicker's keys
        if "act" not in stop:                   # (the pack's reader leaves out an act the stop's span misses)
            out.append((tag, False, f"{stop['caption']}: no act of this reading's rite in the stop's span"))
            continue
        steps, moments = act_of(rite, stop["act"], stop["t"], loosed)
        need = rule.get((steps[0].section, steps[0].index, round(steps[0].start_s, 3)), 0.0)
        who = list(dict.fromkeys(a for x in steps for a in x.who))
        frames = []
        for m in pg.evaluate(MEASURE, {"i": i, "moments": moments, "who": who}):
            if "error" in m:
                frames.append((m, [m["error"]]))
                break
            why = verdict(m["people"], steps, rule)
            if m["t"] > stop["t"] + stop.get("play", 0) + 1e-3:
                why.append(f"measured at t={m['t']:.1f}, after the stop's end")
            frames.append((m, why))
        bad = [(m, why) for m, why in frames if why]
        ok = len(frames) == len(moments) and 2 * len(bad) < len(frames)
        print(row(tag, stop, steps, frames, need, ok) + (f" [open: {OPEN[(name, i + 1)]}]" if not ok and (name, i + 1) in OPEN
                                                         else ""), flush=True)
        out.append((tag, ok, f"{stop['caption']}, {stop['act']}: "
                    + " | ".join(f"t={m.get('t', 0):.1f}: " + "; ".join(why) for m, why in bad)))
    return out


#: the chapters with lessons: chapter 5 (its packs as before) and chapter 4 (issue 43)
CHAPTERS = (None, "xiangyinjiu")


@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda c: c or "xiangshe")
def test_every_shipped_lesson_stop_shows_its_act_at_both_sizes_under_every_reading(chapter):
    from scene.rite.cache import load_rite
    t_start = time.time()
    tmp = Path(tempfile.mkdtemp(prefix="xsl-lesson-frames-"))
    rows, errors, timing = [], [], {}
    try:
        with chromium() as b:
            pages = {}
            for w, h in SIZES:
                pages[(w, h)] = pg = b.new_page(viewport={"width": w, "height": h})
                pg.on("pageerror", lambda e, size=(w, h): errors.append(f"{size}: {e}"))
            for reading in readings():
                t0 = time.time()
                rite = load_rite(reading, chapter=chapter)
                rule, loosed = heights(rite), flights(rite)
                d = playable(reading, tmp, chapter)
                timing[reading] = [time.time() - t0]
                t0 = time.time()
                with site(d) as (_root, url):
                    first = next(iter(pages.values()))
                    first.goto(f"{url}player.html")
                    first.wait_for_function("document.body.dataset.ready", timeout=180_000)
                    names = first.evaluate(f"{LESSONS}.list.map((L) => L.name)")
                    assert names, f"{chapter or 'xiangshe'} {reading}: the pack carries no lesson"
                    for (w, h), pg in pages.items():
                        for name in names:
                            rows += [(name, *r) for r in play_lesson(pg, url, name, f"{reading} {w}×{h}", rite, rule, loosed)]
                timing[reading].append(time.time() - t0)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    passed = sum(ok for _, _, ok, _ in rows)
    print(f"lesson frames of {chapter or 'xiangshe'}: {passed}/{len(rows)} stops pass in most of {len(SAMPLES)} frames of the act (seen ≥ "
          f"{UNOCCLUDED:.0%}, head seen ≥ {UNOCCLUDED:.0%}, covered ≤ {COVERED:.0%}, in frame, figure ≥ the rule) over "
          f"{len(timing)} readings × {len(SIZES)} sizes; per reading its pack and rite + its pages: "
          + ", ".join(f"{r} {a:.0f} + {b:.0f} s" for r, (a, b) in timing.items()) + f"; all {time.time() - t_start:.0f} s")
    assert rows, "no stop measured"
    assert not errors, errors
    failures = [f"{tag}: {why}" for name, tag, ok, why in rows
                if not ok and (name, int(tag.rsplit(" ", 1)[1].split("/")[0])) not in OPEN]
    assert not failures, "\n".join(failures)
