"""Issue 42, item 5: the player's parts talk through its public API — the extension protocol and the signals
(assets/web/signals.js) — not by replacing each other's methods, and a key places the camera once.

Driven as a user drives the page (the clicker's keys, real key presses), read through what player.js documents:
``stats().cameraPlacements`` (every camera put on), ``signals`` (stageChanged, viewChanged …), ``state()``.
"""
from __future__ import annotations

import pytest
import webtools

pytestmark = [pytest.mark.browser, pytest.mark.slow]

_why = webtools.chromium_missing_reason()
if _why:
    pytest.skip(f"browser tests need Chromium: {_why}", allow_module_level=True)

P = "window.__xslPlayer"

#: every signal the player announces, recorded in the page from its start
RECORD = """() => {
  const p = window.__xslPlayer;
  window.__heard = [];
  for (const [name, s] of Object.entries(p.signals)) {
    s.add((x) => window.__heard.push([name, name === 'stageChanged' ? x.n : name === 'viewChanged' ? x : null]));
  }
}"""

#: a key pressed by the keyboard, then the page left to draw two frames: the camera placements it made and
#: what the player announced meanwhile
PRESS = """async () => {
  const p = window.__xslPlayer;
  await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  return {placements: p.stats().cameraPlacements, heard: window.__heard.splice(0), state: p.state()};
}"""


@pytest.fixture(scope="module")
def page(browser, served):
    pg = browser.new_page(viewport={"width": 1280, "height": 720})
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.goto(f"{served}player.html?stage=21")
    pg.wait_for_function("document.body.dataset.ready", timeout=120_000)
    pg.wait_for_function(f"{P}.stats().frames > 0")
    pg.evaluate(RECORD)
    yield pg
    assert not errors, errors
    pg.close()


def press(pg, key: str) -> dict:
    before = pg.evaluate(f"{P}.stats().cameraPlacements")
    pg.keyboard.press(key)
    out = pg.evaluate(PRESS)
    out["placements"] -= before
    return out


def test_no_method_of_the_player_is_replaced_on_its_instance(page):
    own = page.evaluate(f"""() => {{
      const p = {P}, proto = Object.getPrototypeOf(p);
      return Object.getOwnPropertyNames(proto).filter((k) => k !== 'constructor' && Object.hasOwn(p, k));
    }}""")
    assert own == [], f"methods replaced on the player's instance: {own}"


def test_pagedown_places_the_directors_camera_once_and_announces_the_stage(page):
    assert page.evaluate(f"{P}.state().view") == "auto"          # the director's camera, the page's default
    assert not page.evaluate(f"{P}.state().playing")
    for _ in range(3):
        stage = page.evaluate(f"{P}.state().stage")
        got = press(page, "PageDown")
        assert got["placements"] == 1, got
        assert got["state"]["view"] == "auto" and got["state"]["stage"] > stage, got
        stages = [x for name, x in got["heard"] if name == "stageChanged"]
        assert stages == [got["state"]["stage"]], got["heard"]
        assert ["cameraPlaced", None] in got["heard"]


def test_a_named_view_then_pagedown_then_the_director_again_each_one_placement(page):
    view2 = page.evaluate(f"{P}.viewOrder[1]")
    got = press(page, "2")
    assert got["placements"] == 1 and got["state"]["view"] == view2, got
    assert ["viewChanged", view2] in got["heard"]
    got = press(page, "PageDown")
    assert got["placements"] == 1 and got["state"]["view"] == view2, got      # the chosen view kept
    got = press(page, "a")                                                   # the director's key
    assert got["placements"] == 1 and got["state"]["view"] == "auto", got
    assert ["viewChanged", "auto"] in got["heard"]
    got = press(page, "PageUp")
    assert got["placements"] == 1 and got["state"]["view"] == "auto", got


def test_the_director_leaves_when_the_user_orbits_and_takes_the_camera_back_with_a(page):
    box = page.locator("canvas").first.bounding_box()
    cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    before = page.evaluate(f"{P}.camera()")
    page.mouse.move(cx, cy)
    page.mouse.down()
    page.mouse.move(cx + 120, cy + 10, steps=6)
    page.mouse.up()
    page.evaluate(PRESS)
    assert page.evaluate(f"{P}.camera()") != before
    assert page.evaluate(f"{P}.extensions.find((x) => x.viewName === 'auto').holdsCamera()") is False
    got = press(page, "PageDown")                 # the next stage's preset: the director stays off
    assert got["placements"] == 1, got
    assert page.evaluate(f"{P}.extensions.find((x) => x.viewName === 'auto').holdsCamera()") is False
    got = press(page, "a")
    assert got["placements"] == 1 and got["state"]["view"] == "auto", got
