"""The caption bands cover no acting person (issue 27), in real headless Chromium at 1280×720: with the 三番射
lesson (three_rounds_class) at each of its stops — those in §27, where the kneeling 釋獲者 was under the lesson
caption, and the others — neither the lesson caption nor the phrase caption meets the box of a person the current
step names (projected from the pack's tracks: where he stands, the height of his figure in its posture), and the
two bands do not meet each other.  With the placing rule off (caption-place.js's `on`) the same survey finds
bands over acting people."""
from __future__ import annotations

import pytest
import webtools

pytestmark = [pytest.mark.browser, pytest.mark.slow]

_why = webtools.chromium_missing_reason()
if _why:
    pytest.skip(f"browser tests need Chromium: {_why}", allow_module_level=True)

LESSON = "three_rounds_class"

# the acting people's boxes, projected here from the player's tracks (not by caption-place.js), and the bands'
# boxes from the DOM, all in the page's CSS px (the player fills the page)
MEASURE = """() => {
  const P = window.__xslPlayer, cam = P.cam, W = P._w, H = P._h;
  cam.updateMatrixWorld();
  const acting = [];
  for (const id of P._focus || []) {
    const A = P.actorById.get(id);
    if (!A || !A.shown) continue;
    const [x, y, z] = A.xyzh, top = A.label.anchor.z, r = 0.3;
    let b = [Infinity, Infinity, -Infinity, -Infinity], ok = true;
    for (const dx of [-r, r]) for (const dy of [-r, r]) for (const zz of [z, top]) {
      const v = new P._v.constructor(x + dx, y + dy, zz).applyMatrix4(cam.matrixWorldInverse);
      if (cam.isPerspectiveCamera && -v.z < cam.near) { ok = false; continue; }
      v.applyMatrix4(cam.projectionMatrix);
      const sx = (v.x + 1) * 0.5 * W, sy = (1 - v.y) * 0.5 * H;
      b = [Math.min(b[0], sx), Math.min(b[1], sy), Math.max(b[2], sx), Math.max(b[3], sy)];
    }
    if (ok) acting.push({ id, name: A.name, box: b });
  }
  const band = (sel) => {
    const el = document.querySelector(sel);
    if (!el || getComputedStyle(el).display === 'none') return null;
    const q = el.getBoundingClientRect();
    return [q.left, q.top, q.right, q.bottom];
  };
  return { acting, bands: [band('.xsl-lesson-caption'), band('.xsl-caption')].filter(Boolean), t: P.t,
    section: P.state().section };
}"""


def _meets(a, b) -> bool:
    return a[0] < b[2] - 0.5 and a[2] > b[0] + 0.5 and a[1] < b[3] - 0.5 and a[3] > b[1] + 0.5


def _survey(browser, served, rule_on=True):
    page = browser.new_page(viewport={"width": 1280, "height": 720})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(f"{served}player.html?stage=27")
        page.wait_for_function("document.body.dataset.ready", timeout=90_000)
        n = page.evaluate("""([on, name]) => { const P = window.__xslPlayer; P.captionPlace.on = on;
          const L = P.extensions.find((x) => x.open && x.go && 'lesson' in x);
          window.__tour = L; return L.open(name) ? L.lesson.stops.length : 0; }""", [rule_on, LESSON])
        assert n > 5, n
        rows = []
        for i in range(n):
            page.evaluate("(i) => { window.__tour.go(i); window.__xslPlayer.pause(); }", i)
            for _ in range(3):
                page.evaluate("() => window.__xslPlayer.nextFrame().then(() => new Promise(requestAnimationFrame))")
            m = page.evaluate(MEASURE)
            over = [(a["name"], k) for k, b in enumerate(m["bands"]) for a in m["acting"] if _meets(b, a["box"])]
            stacked = len(m["bands"]) == 2 and _meets(*m["bands"])
            rows.append({"stop": i, "section": m["section"], "acting": len(m["acting"]), "bands": len(m["bands"]),
                         "over": over, "stacked": stacked,
                         "boxes": [[round(x) for x in b] for b in m["bands"]]})
        assert not errors, errors
        return rows
    finally:
        page.close()


def test_captions_cover_no_acting_person_at_the_lessons_stops(browser, served):
    rows = _survey(browser, served)
    for r in rows:
        print(r)
    assert any(r["section"] == 27 and r["acting"] for r in rows), rows        # §27's stops are surveyed
    assert sum(r["bands"] == 2 for r in rows) >= len(rows) // 2, rows         # both bands shown at most stops
    bad = [r for r in rows if r["over"] or r["stacked"]]
    assert not bad, bad


def test_without_the_rule_the_survey_finds_bands_over_acting_people(browser, served):
    rows = _survey(browser, served, rule_on=False)
    for r in rows:
        print("rule off", r)
    assert sum(len(r["over"]) for r in rows) > 0, rows
