"""The director's camera (scene/render/shots.py, view ``auto``): over every step of the rite, the people the
step names are in the free part of a 16:9 frame, unoccluded and big enough (scene/render/shot_audit.py); an arrow in the air keeps the arrow or the 侯 in frame; the
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


def test_the_shot_shows_the_act_in_the_free_part_of_the_frame_unoccluded_and_large(rite, track):
    """Issue 27's test of a shot, at every step's middle (scene/render/shot_audit.py): the people the step
    names inside the part of the picture the page's toolbar and caption band leave free, no building, other
    person, 乏 or 侯 in front of them, drawn at least as tall as their number (and how far apart they stand)
    allows to read a gesture.  The share is printed; the failures with their reasons."""
    from scene.render import shot_audit
    verdicts = shot_audit.audit(rite, track)
    bad = [v for v in verdicts if not v.ok]
    share = shot_audit.share(verdicts)
    print(f"\n{len(verdicts) - len(bad)} of {len(verdicts)} steps pass ({share:.1%}); failing:")
    for v in bad:
        print("  ", v.line())
    assert len(verdicts) > 1000
    # (the test counts a person seen when most of his figure is, the hall and the things as the player draws
    # them — as the frame does: bench/bench_frames.py, 98.2 % of the steps pass in the browser)
    assert share >= 0.985, "\n".join(v.line() for v in bad[:30])


def test_a_person_in_front_or_the_fa_hides_and_the_band_leaves_the_captions_free(rite):
    """The occlusion and band tests can fail: a body put on the sight line blocks it, the 乏 blocks a man
    behind it, and a point in the caption band is outside the free part."""
    import numpy as np

    from scene.render import shot_audit, shots
    world = shots._World(rite)
    cam = np.array([[0.0, -20.0, 1.5]])
    man = np.array([[0.0, -10.0, 0.0]])
    sight = shot_audit.sight_points(man)
    assert not world.occluders.blocked(cam, sight, np.zeros((0, 3)))[0]
    assert world.occluders.blocked(cam, sight, np.array([[0.0, -15.0, 0.0]]))[0]
    assert not world.occluders.blocked(cam, sight, np.array([[1.0, -15.0, 0.0]]))[0]
    # the 乏 (5 尺) hides a man up to his chest, not his head — most of his figure, as the frame counts it
    # (frame_rules.SIGHT_LEVELS, SEEN_SHARE); the 侯 hides all of him
    fa = np.array(rite.layout.xyz_m("range.fa"))
    behind = np.array([[fa[0], fa[1] - 1.0, 0.0]])
    front = np.array([[fa[0], fa[1] + 12.0, 1.0]])
    hit = world.occluders.hits(front, shot_audit.sight_points(behind), np.zeros((0, 3)))[0]
    assert hit[0] and not hit[-1]
    assert world.occluders.blocked(front, shot_audit.sight_points(behind), np.zeros((0, 3)))[0]
    hou = np.array(rite.layout.xyz_m("target.hou"))
    south = np.array([[hou[0], hou[1] - 2.0, 0.0]])
    assert world.occluders.blocked(np.array([[hou[0], hou[1] + 15.0, 1.5]]), shot_audit.sight_points(south),
                                   np.zeros((0, 3)))[0]
    # the 堂's front purlin (庪) hides a man on the 堂 from a camera high in the court close to it, not from
    # one at his own height
    on_tang = np.array([[-3.0, 2.8, rite.layout.xyz_m("hall.tang")[2]]])
    assert world.occluders.blocked(np.array([[-3.0, -1.5, 3.0]]), shot_audit.sight_points(on_tang), np.zeros((0, 3)))[0]
    assert not world.occluders.blocked(np.array([[-3.0, -6.0, 1.6]]), shot_audit.sight_points(on_tang),
                                       np.zeros((0, 3)))[0]
    v = np.array([0.0, -20.0, 1.5, 0.0, 0.0, 1.5, 40.0])             # looking north, level
    _, w_top, _ = shots.project(v, np.array([[0.0, 0.0, 1.5]]))
    low = np.array([[0.0, 0.0, 1.5 - 20.0 * np.tan(np.radians(20)) * 0.8]])   # 0.8 of the half frame down
    assert shot_audit.in_safe_area(v, np.array([[0.0, 0.0, 1.5]]))
    assert not shot_audit.in_safe_area(v, low)


def test_an_arrow_is_in_frame_as_it_leaves_the_bow_and_the_hou_as_it_lands(rite, track):
    """Issue 42: the archers framed alone while they shoot (large), a cut to the 侯 as each arrow lands — so
    the arrow is in the picture as it leaves the bow and the 侯 as it strikes (before, one frame held the
    archers and the 侯 70 m apart, and the arrow or the 侯 was in it all along, the archers 3 % of the
    picture: tests/test_director_act.py).  A landing on a step's middle stays on the archers: ≥ 97 %."""
    from scene.render import shots
    world = shots._World(rite)
    checked, missed, landed = 0, [], 0
    for oid in rite.object_ids:
        if not oid.startswith("arrow."):
            continue
        k = rite.object_ids.index(oid)
        for _t, kind, value in rite.director.objects[oid].events:
            if kind != "path":
                continue
            s, e = value[0][0], value[0][-1]
            checked += 1
            arrow = rite.pose_at(s + 0.02).object_xyz_m[k]
            if not _inside(track.at(s + 0.02), arrow[None]):
                missed.append(f"{oid} leaving the bow at {s + 0.02:.1f}")
            landed += _inside(track.at(e), world.hou[None])
    assert checked > 100
    assert not missed, missed[:10]
    assert landed >= 0.97 * checked, (landed, checked)


def test_the_camera_stays_in_the_court_or_under_the_eaves(rite, track):
    from scene.render import shots
    world = shots._World(rite)
    out = [f"key {k} t={t:.1f}: {v[:3].round(2)}" for k, (t, v) in enumerate(zip(track.t, track.v))
           if not world.allows(v[:3])]
    assert not out, out[:10]
    assert np.all(np.diff(track.t) >= 0)
    # holds and eases, not a cut at every step: at most about a key and a half per step (a cut is one key, an
    # ease two; the director re-frames where an occluder or the figure size asks it, issue 27 — and more since
    # its sight test counts what the frame shows: 1.48 keys a step before, 1.72 after)
    # (the cuts to the 侯 as an arrow lands and back, issue 42, not counted: two keys an arrow)
    landings = int(np.all(track.v == shots.target_shot(world), axis=1).sum())
    assert landings > 100
    assert len(track.t) - 2 * landings < len(rite.spans) * 1.8 and track.ease.sum() > 50


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
        page.evaluate(f"() => {P}.nextFrame().then(() => new Promise(requestAnimationFrame))")
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
        page.evaluate(f"() => {P}.nextFrame().then(() => new Promise(requestAnimationFrame))")
        assert page.evaluate("document.querySelector('.xsl-director').getAttribute('aria-pressed')") == "false"
        page.keyboard.press("a")
        page.evaluate(f"() => {P}.nextFrame().then(() => new Promise(requestAnimationFrame))")
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


def test_the_gates_open_leaves_hide_a_man_passing_through_from_a_slant(rite):
    """The 門's leaves stand open into the court: a man just inside, west of the west leaf, is hidden from a
    camera outside to the east looking in through the opening at a slant — by the leaf, not the wall — and
    seen from inside the court (issue 27, §14's first frame: the 上耦上射 hidden 97 % in the browser while the
    sight test said he was seen)."""
    from scene.render import shots
    w = shots._World(rite)
    (lx, y0, y1), _ = w.leaves
    man = np.array([[lx - 0.5, y0 + 0.85 * (y1 - y0), 1.0]])
    outside_east = np.array([4.0, w.gate_y - 6.0, 1.5])
    assert w.hidden(outside_east, man)
    assert not w.hidden(np.array([0.0, w.gate_y + 15.0, 1.5]), man)            # from inside the court
    w.leaves = []
    assert not w.hidden(outside_east, man)                                     # the leaf hid him, not the wall


def test_the_pairs_coming_in_through_the_gate_are_seen_where_a_lesson_lands(rite, track):
    """§14 三耦俟于堂西: the three pairs come in through the 門 in file.  Where a lesson's stop or a clicker's
    PageDown lands — the step's start, and the first seconds of play — the director's camera shows the ones
    on stage, unoccluded (before: from outside at a slant, the first of them behind the 門's leaf)."""
    from scene.render import shots
    from scene.render.shot_checks import check_at, checks, judge
    world = shots._World(rite)
    c = next(c for c in checks(rite, world) if (c.span.section, c.span.index) == (14, 0))
    for dt in (0.05, 0.8, 1.7):
        at = check_at(rite, c, c.span.start_s + dt)
        assert at.ids, dt
        inside, seen, tall, h, why = judge(world, track.at(at.t), at)
        assert inside and seen and tall, (dt, why)


@pytest.mark.slow          # another reading compiled
def test_the_solid_a_camera_sees_past_is_its_own_readings_not_anothers_of_the_same_name(rite):
    """The director's sight test reads the hall and the things of the shot's own reading, kept per reading: a
    reading that changes one value keeps the preset's name (``zheng,fa_west_from=左个`` is ``zheng``), and
    once kept by that name, a process that had built the other's track built the default's with the 乏
    where the other reading puts it (32 cameras of the default's track moved, up to 18 m)."""
    from scene.render import frame_rules
    from scene.rite.cache import load_rite
    other = load_rite(webtools.OTHER_READING)
    assert other.reading.name == rite.reading.name and other.reading != rite.reading
    a, b = frame_rules.solid_of(other), frame_rules.solid_of(rite)
    assert a is not b and not np.array_equal(a.south_cams.grid, b.south_cams.grid)
    assert not np.array_equal(a.north_cams.grid, b.north_cams.grid)
    assert frame_rules.solid_of(rite) is b and frame_rules.solid_of(other) is a
