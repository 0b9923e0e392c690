"""The director's camera (scene/render/shots.py, view ``auto``): over every step of the rite, the people the
step names are in a 16:9 frame and big enough; an arrow in the air keeps the arrow or the 侯 in frame; the
camera keeps inside the walls (or in front of the gate while the people are out there) and under the
roof line; the CLI, the pack and the player agree."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import webtools

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def track(rite):
    from scene.render import shots
    return shots.track(rite)


def _inside(v, pts) -> bool:
    from scene.render import shots
    u, w, d = shots.project(v, pts)
    return bool(np.all(d > 0) and np.all(np.abs(u) <= 1) and np.all(np.abs(w) <= 1))


def framing_report(rite, track):
    """(steps checked, steps that frame their people, smallest figure height, failures) at each step's middle."""
    from scene.render import shots
    world = shots._World(rite)
    idx = {a: i for i, a in enumerate(rite.actor_ids)}
    n, ok, hmin, bad = 0, 0, 1.0, []
    for sp in rite.spans:
        if sp.end_s - sp.start_s < 1e-3:
            continue
        tm = (sp.start_s + sp.end_s) / 2
        p = rite.pose_at(tm)
        ids = [idx[a] for a in sp.who if a in idx and p.visible[idx[a]]]
        if not ids:
            continue
        n += 1
        feet = p.actor_xyz_m[ids]
        v = track.at(tm)
        h = float(shots.figure_heights(v, feet).min())
        wide = shots.spread_m(feet) > 2 * world.cw
        seen = not world.hidden(v[:3], feet + (0, 0, shots.FIGURE_M * 0.6))     # no 楹 or 序 in front
        if seen and _inside(v, np.vstack([feet, feet + (0, 0, shots.FIGURE_M)])) and (h >= shots.MIN_FIG or wide):
            ok += 1
            if not wide:
                hmin = min(hmin, h)
        else:
            bad.append(f"§{sp.section}.{sp.index} {sp.phrase} ({sp.do}) t={tm:.1f}: height {h:.3f}"
                       + ("" if seen else ", hidden"))
    return n, ok, hmin, bad


def test_every_step_frames_the_people_it_names(rite, track):
    n, ok, hmin, bad = framing_report(rite, track)
    print(f"\n{ok} of {n} steps frame their people at their middle; smallest figure {hmin * 100:.1f} % "
          f"of the frame height; failing: {len(bad)}")
    for b in bad:
        print("  ", b)
    assert n > 1000
    assert hmin >= 0.06
    # the criterion holds for all but a few steps (the known misses are printed; see the closing note)
    assert ok >= 0.98 * n, "\n".join(bad[:20])


def test_an_arrow_in_the_air_keeps_the_arrow_or_the_hou_in_frame(rite, track):
    from scene.render import shots
    world = shots._World(rite)
    checked, missed = 0, []
    for oid in rite.object_ids:
        if not oid.startswith("arrow."):
            continue
        k = rite.object_ids.index(oid)
        for t, kind, value in rite.director.objects[oid].events:
            if kind != "path":
                continue
            for tt in np.linspace(value[0][0], value[0][-1], 5)[1:-1]:
                v = track.at(tt)
                arrow = rite.pose_at(tt).object_xyz_m[k]
                checked += 1
                if not (_inside(v, arrow[None]) or _inside(v, world.hou[None])):
                    missed.append(f"{oid} at {tt:.1f}")
    assert checked > 100
    assert not missed, missed[:10]


def test_the_camera_stays_in_the_court_or_under_the_eaves(rite, track):
    from scene.render import shots
    world = shots._World(rite)
    out = [f"key {k} t={t:.1f}: {v[:3].round(2)}" for k, (t, v) in enumerate(zip(track.t, track.v))
           if not world.allows(v[:3])]
    assert not out, out[:10]
    assert np.all(np.diff(track.t) >= 0)
    # holds and eases, not a cut every step: fewer keys than steps
    assert len(track.t) < len(rite.spans) * 1.5 and track.ease.sum() > 50


@pytest.mark.slow
def test_camera_cli_prints_the_director_camera(rite, track):
    from scene.render import shots
    t = next(s for s in rite.spans if s.do == "shoot").start_s + 3.0
    r = subprocess.run([sys.executable, "-m", "scene", "camera", "--t", f"{t:.3f}", "--json"], cwd=ROOT,
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    want = shots.camera_at(rite, t)
    assert np.allclose(d["position"], want.position, atol=2e-3) and d["title"] == shots.TITLE
    bad = subprocess.run([sys.executable, "-m", "scene", "camera", "--t", "1", "--view", "sideways"], cwd=ROOT,
                         capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1 and "sideways" in bad.stderr


@pytest.mark.slow
@pytest.mark.browser
@pytest.mark.skipif(webtools.chromium_missing_reason() is not None, reason=str(webtools.chromium_missing_reason()))
def test_player_plays_the_director_track_and_frames_the_actors(tmp_path, rite, track, pack_dir):
    from scene.render import shots
    pack = pack_dir                       # the session's pack (conftest.py)
    sp = next(s for s in rite.spans if s.do == "receive" and s.end_s - s.start_s > 2)
    tm = (sp.start_s + sp.end_s) / 2
    idx = [rite.actor_ids.index(a) for a in sp.who]
    with webtools.site(pack) as (_, url), webtools.chromium() as b:
        page = b.new_page(viewport={"width": 1280, "height": 720})
        errors = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{url}player.html")
        page.wait_for_function("document.body.dataset.ready", timeout=120_000)
        P = "window.__xslPlayer"
        assert page.evaluate(f"{P}.state().view") == "auto"
        page.evaluate(f"{P}.setTime({tm})")
        page.evaluate(f"() => {P}._nextFrame().then(() => new Promise(requestAnimationFrame))")
        cam = page.evaluate(f"{P}.camera()")
        want = track.at(tm)
        assert np.allclose(cam["position"], want[:3], atol=0.02), (cam, want)
        # the step's people through the page's own camera: inside the picture, and tall enough
        feet = rite.pose_at(tm).actor_xyz_m[idx].tolist()
        ndc = page.evaluate("""([feet, h]) => { const p = window.__xslPlayer, out = [];
            p.cam.updateMatrixWorld(); for (const f of feet) for (const dz of [0, h]) {
              const v = p.cam.position.clone().set(f[0], f[1], f[2] + dz).project(p.cam); out.push([v.x, v.y]); }
            return out; }""", [feet, shots.FIGURE_M])
        ndc = np.array(ndc)
        assert np.all(np.abs(ndc) <= 1.0), ndc
        assert np.min(np.abs(ndc[1::2, 1] - ndc[0::2, 1]) / 2) >= 0.06
        webtools.save_png(webtools.screenshot(page), tmp_path / "shots.png")
        # orbiting leaves the director; the key A returns to it
        page.evaluate(f"{P}.free = true")
        page.evaluate(f"() => {P}._nextFrame().then(() => new Promise(requestAnimationFrame))")
        assert page.evaluate("document.querySelector('.xsl-director').getAttribute('aria-pressed')") == "false"
        page.keyboard.press("a")
        page.evaluate(f"() => {P}._nextFrame().then(() => new Promise(requestAnimationFrame))")
        assert page.evaluate("document.querySelector('.xsl-director').getAttribute('aria-pressed')") == "true"
        assert np.allclose(page.evaluate(f"{P}.camera()")["position"], want[:3], atol=0.02)
        assert not errors, errors


def test_the_rite_opens_on_an_establishing_shot(rite, track):
    """At t = 0 (what the app and the site open on): the 主人 and whoever stands with him large in the foreground,
    the 堂's front (both stairs, up to the eaves) in the same frame, from inside the court, under the roof line."""
    from scene.render import shots
    world = shots._World(rite)
    v = track.at(0.0)
    p = rite.pose_at(0.0)
    feet = p.actor_xyz_m[[rite.actor_ids.index(a) for a in ("zhuren", "xiang")]]
    assert _inside(v, np.vstack([feet, feet + (0, 0, shots.FIGURE_M)]))
    assert shots.figure_heights(v, feet).min() >= 0.10
    stairs = np.array([rite.layout.xyz_m(k) for k in ("hall.west_steps", "hall.east_steps")])
    assert _inside(v, stairs)
    assert world.allows(v[:3]) and v[1] > world.gate_y and not world.hidden(v[:3], feet + (0, 0, 1.0))
    # held, then the director's first shot of the 主人 going out through the 門
    assert track.t[1] == pytest.approx(shots.OPEN_S) and not np.allclose(track.at(shots.OPEN_S + 0.01), v)


def test_the_court_wall_hides_what_is_behind_it(rite):
    """From outside the 門 the court is seen only through the 門: a point behind the wall is hidden, one in line
    with the opening is not (the gate's lintel hides what is above it)."""
    from scene.render import shots
    w = shots._World(rite)
    cam = np.array([0.0, w.gate_y - 6.0, 1.5])
    assert not w.hidden(cam, np.array([[0.0, w.gate_y + 5.0, 1.0]]))          # through the opening
    assert w.hidden(cam, np.array([[8.0, w.gate_y + 5.0, 1.0]]))               # behind the wall
    # from high up outside, the sight line meets the 門 above its lintel
    assert w.hidden(np.array([0.0, w.gate_y - 2.0, 5.0]), np.array([[0.0, w.gate_y + 2.0, 0.5]]))
