"""The people's name labels respect the view (issue 27), in real headless Chromium: at 1280×720 and 1920×1080, on
busy moments of §4, §21, §32 and §45, no shown label's box meets the page's toolbar (#xsl-bar) or the caption
bands, and no two shown labels overlap.  Each rule is turned off once (player._labelRules) to show that the
measurement sees what the rule prevents."""
from __future__ import annotations

import pytest
import webtools

pytestmark = [pytest.mark.browser, pytest.mark.slow]

_why = webtools.chromium_missing_reason()
if _why:
    pytest.skip(f"browser tests need Chromium: {_why}", allow_module_level=True)

STAGES = (4, 21, 32, 45)
FRACTIONS = (0.15, 0.5, 0.85)          # three moments in each stage

# the shown labels' boxes, the toolbar's and captions' boxes, measured from the DOM (CSS px of the page)
MEASURE = """() => {
  const P = window.__xslPlayer;
  const r = (el) => { const b = el.getBoundingClientRect(); return [b.left, b.top, b.right, b.bottom]; };
  const labels = [...document.querySelectorAll('.xsl-label')]
    .filter((el) => getComputedStyle(el).visibility === 'visible' && el.offsetWidth > 0)
    .map((el) => ({ box: r(el), text: el.textContent, kind: el._xsl && el._xsl.kind }));
  const avoid = [document.getElementById('xsl-bar'), document.querySelector('.xsl-caption'),
    document.querySelector('.xsl-lesson-caption')]
    .filter((el) => el && el.getBoundingClientRect().width > 0).map(r);
  return { labels, avoid, labelsOn: P.labelsOn };
}"""


def _meets(a, b) -> bool:
    return a[0] < b[2] - 0.5 and a[2] > b[0] + 0.5 and a[1] < b[3] - 0.5 and a[3] > b[1] + 0.5


def _count(m) -> tuple[int, int, int]:
    """(labels meeting the toolbar or a caption, overlapping label pairs, labels shown)."""
    under = sum(any(_meets(L["box"], o) for o in m["avoid"]) for L in m["labels"])
    ls = m["labels"]
    pairs = sum(_meets(ls[i]["box"], ls[j]["box"]) for i in range(len(ls)) for j in range(i + 1, len(ls)))
    return under, pairs, len(ls)


def _survey(browser, served, w, h, rules=None):
    page = browser.new_page(viewport={"width": w, "height": h})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(f"{served}player.html?stage=4")
        page.wait_for_function("document.body.dataset.ready", timeout=90_000)
        if rules:
            page.evaluate("(r) => { window.__xslPlayer._labelRules = r; }", rules)
        out = []
        for n in STAGES:
            st = page.evaluate("(n) => window.__xslPlayer.stages.find((s) => s.n === n)", n)
            for f in FRACTIONS:
                t = st["start"] + f * (st["end"] - st["start"])
                page.evaluate("([n, t]) => { const P = window.__xslPlayer; P.gotoStage(n); P.setTime(t); }", [n, t])
                page.evaluate("() => window.__xslPlayer._nextFrame().then(() => new Promise(requestAnimationFrame))")
                page.evaluate("() => window.__xslPlayer._nextFrame().then(() => new Promise(requestAnimationFrame))")
                m = page.evaluate(MEASURE)
                out.append((n, round(t, 1), *_count(m)))
        assert not errors, errors
        return out
    finally:
        page.close()


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)])
def test_labels_clear_of_the_toolbar_and_of_each_other(browser, served, size):
    rows = _survey(browser, served, *size)
    print(size, rows)
    assert sum(r[4] for r in rows) > 10 * len(rows) // 2, rows           # busy moments: labels are shown
    bad = [r for r in rows if r[2] or r[3]]
    assert not bad, bad


def test_the_measurement_sees_labels_under_the_toolbar_and_overlaps_without_the_rules(browser, served):
    rows = _survey(browser, served, 1280, 720, rules={"avoid": False, "apart": False})
    print("rules off", rows)
    assert sum(r[2] for r in rows) > 0, rows
    assert sum(r[3] for r in rows) > 0, rows
