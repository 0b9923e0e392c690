"""Issue 42, item 1: the director shows the act a class is there to see — the shooting first.

As each archer looses he is drawn at least as tall as the director's own rule for two people
(frame_rules.min_height(2): 0.11 of the picture), whole and unoccluded; as each arrow lands the 侯 fills the
picture (a cut: scene/render/shots.py ``_with_landings``).  Before: the director framed the archers and the 侯
70 m apart in one shot, the archers 0.028 of the picture (20 px of 720) at the loose.  And no camera — the
director's at any moment, or a named view while its stage plays — stands inside the hall, a thing or a person
(scene/render/clearance.py; before: the 射者 view in the heads of the next pair, the 賓席 view in the 賓's)."""
from __future__ import annotations

import numpy as np
import pytest

from scene.geometry.readings import PRESETS


def _shots(rite, tr):
    """(archer, loose t, his height at the loose, whole and seen, landing t, the 侯's height then, 侯 in
    frame and seen) for every arrow shot in the rite."""
    from scene.render import shots
    from scene.render.figures import figure, styles
    from scene.render.frame_rules import sight_core, sight_points
    from scene.render.shot_checks import figure_heights, project, whole_figures
    world = shots._World(rite)
    idx = {a: i for i, a in enumerate(rite.actor_ids)}
    # how high each figure reaches standing, with his headwear (as shot_checks.checks)
    hats = styles(rite.choreography)
    tops = {st.hat: figure(st, "stand").height for st in hats.values()}
    crown = {a: tops[hats[a].hat] + 0.02 if a in hats else 1.9 for a in rite.actor_ids}
    out = []
    for oid in rite.object_ids:
        if not oid.startswith("arrow."):
            continue
        who = oid.split(".")[1]
        for _t, kind, value in rite.director.objects[oid].events:
            if kind != "path":
                continue
            s, e = float(value[0][0]), float(value[0][-1])
            t = s + 0.05
            v = tr.at(t)
            smp = rite.sample(np.array([t]))
            xyz, vis = smp["actor_xyz_m"][0], np.asarray(smp["visible"][0], bool)
            feet = xyz[[idx[who]]]
            h = float(figure_heights(v, feet)[0])
            sight = sight_points(feet)
            seen = (whole_figures(v, feet, np.array([crown[who]])) and not world.hidden(v[:3], sight_core(sight))
                    and not world.occluders.blocked(v[None, :3], sight, xyz[vis])[0])
            w = tr.at(e)
            x, y, _z = world.hou
            # the cloth's corners and middle, a hair in front of it (the 侯 does not hide itself)
            cloth = np.array([(x + sx * world.hou_half * 0.8, y + 0.3, z) for sx in (-1, 0, 1) for z in (0.6, world.hou_top - 0.3)])
            u, ww, d = project(w, cloth)
            hou_h = float((ww.max() - ww.min()) / 2)
            hou_seen = bool(np.all(d > 0.3) and np.all(np.abs(u) <= 1) and np.all(np.abs(ww) <= 1)
                            and not world.occluders.hits(w[None, :3], cloth, np.zeros((0, 3))).any())
            out.append((who, t, h, seen, e, hou_h, hou_seen))
    return out


def _judge(rite, tr) -> list[str]:
    from scene.render.frame_rules import min_height
    rows = _shots(rite, tr)
    assert len(rows) > 100
    rule = min_height(2)
    small = [f"{who} looses at t={t:.1f}: {h:.3f} of the picture" for who, t, h, ok, *_ in rows if h < rule or not ok]
    landed = [r for r in rows if r[5] >= 0.3 and r[6]]
    hs = np.array([r[2] for r in rows])
    print(f"\n{rite.reading.name}: {len(rows)} arrows; the archer at the loose: min {hs.min():.3f}, median "
          f"{np.median(hs):.3f} of the picture (rule {rule}); the 侯 on screen as {len(landed)} of them land")
    # every landing but the few that fall on a step's middle (the moment the audit and a lesson judge that
    # step by: left on the archers)
    if len(landed) < 0.97 * len(rows):
        small.append(f"the 侯 on screen as only {len(landed)} of {len(rows)} arrows land")
    return small


def test_every_archer_is_drawn_large_as_he_looses_and_the_hou_as_the_arrow_lands(rite):
    from scene.render import shots
    bad = _judge(rite, shots.track(rite))
    assert not bad, bad[:10]


def test_the_old_framing_of_archers_and_hou_together_fails_the_rule(rite):
    """The test can fail: a track that frames each shooting pair with the 侯 (the director before issue 42)
    draws them under the rule."""
    from scene.render import shots
    world = shots._World(rite)
    idx = {a: i for i, a in enumerate(rite.actor_ids)}
    sp = next(s for s in rite.spans if s.do == "shoot" and len(s.who) == 2)
    feet = rite.pose_at((sp.start_s + sp.end_s) / 2).actor_xyz_m[[idx[a] for a in sp.who]]
    v = shots.frame(world, feet, np.array([world.hou, (world.hou[0], world.hou[1], world.hou_top)]), None)[0]
    tr = shots.Track(np.array([0.0]), v[None], np.array([False]))
    rows = [r for r in _shots(rite, tr) if sp.start_s <= r[1] <= sp.end_s]
    assert rows and max(r[2] for r in rows) < 0.05


def _faces(rite, tr) -> tuple[int, int]:
    """(seen, all): the people a 拜 or a 揖 names, at the step's middle, whom the camera sees from in front of
    them or beside (the face and the hands: the direction to the camera less than ~100° off his facing)."""
    from scene.render import shots
    idx = {a: i for i, a in enumerate(rite.actor_ids)}
    seen = n = 0
    for sp in rite.spans:
        if sp.do not in shots.BOWS:
            continue
        t = (sp.start_s + sp.end_s) / 2
        pose, v = rite.pose_at(t), tr.at(t)
        for a in sp.who:
            if a not in idx or not pose.visible[idx[a]]:
                continue
            h = np.radians(pose.heading_deg[idx[a]])
            d = v[:2] - pose.actor_xyz_m[idx[a]][:2]
            n += 1
            seen += float(np.dot((np.sin(h), np.cos(h)), d / np.linalg.norm(d))) > -0.2
    return seen, n


def test_a_bow_or_a_salute_is_seen_from_in_front_or_beside(rite):
    """Issue 42: the 拜 and the 揖 with faces and hands clear — the director prefers a camera in front of the
    people bowing (shots.FACE_BONUS).  Before: 108 of 213 (51 %) seen from in front or beside; the shipped
    track of before fails the test.  (Two men bowing to each other face apart: both from in front only from
    beside them.)"""
    from scene.render import shots
    seen, n = _faces(rite, shots.track(rite))
    print(f"\nbowing people seen from in front or beside: {seen} of {n} ({seen / n:.0%})")
    assert n > 150 and seen >= 0.75 * n


def test_the_directors_camera_is_never_inside_the_hall_a_thing_or_a_person(rite):
    from scene.render import clearance, shots
    bad = clearance.track_faults(rite, shots.track(rite))
    assert not bad, bad[:10]


def test_no_named_view_stands_inside_the_hall_a_thing_or_a_person_while_its_stage_plays(rite):
    from scene.render import clearance
    bad = clearance.named_view_faults(rite)
    assert not bad, bad[:10]


def test_the_clearance_test_finds_a_camera_in_a_pillar_a_purlin_or_a_head(rite):
    from scene.render import clearance, shots
    world = shots._World(rite)
    px, py = world.pillars[0]
    inside = clearance.in_solid(rite, np.array([[px, py, 2.0], [0.0, 0.0, 2.6], [0.0, -30.0, 2.0]]))
    assert inside.tolist() == [True, True, False]
    head = np.array([[1.0, -10.0, 0.0]])
    assert clearance.in_people(np.array([[1.0, -10.0, 1.6], [1.1, -10.1, 1.5], [1.0, -10.0, 2.6]]), head).tolist() \
        == [True, True, False]
    # the 射者 view as it stood (the 上射's 物 + (-0.75, 2.4, 1.45)): in someone's head during the rite
    wu = np.array(rite.layout.xyz_m("tang.wu_right"))
    old = wu + (-0.75, 2.4, 1.45)
    ts = np.arange(0.0, rite.duration, 1.0)
    bad = clearance.faults(rite, ts, np.repeat(old[None], len(ts), axis=0), ["archer"] * len(ts))
    assert len(bad) > 50


@pytest.mark.slow
@pytest.mark.parametrize("name", [p for p in PRESETS if p != "zheng"])
def test_every_preset_reading_holds_the_rules(name):
    """The shooting, the clearance of the director and of the named views under every preset reading (its
    track is built and kept in the disk cache: the first run ~1 min a reading)."""
    from scene.render import clearance, shots
    from scene.rite.cache import load_rite
    rite = load_rite(name)
    tr = shots.track(rite)
    bad = _judge(rite, tr) + clearance.track_faults(rite, tr)
    views = clearance.named_view_faults(rite)
    # a fixed named view inside the hall or a thing: never; in a man walking through it: a few seconds of the
    # whole rite at most where the 堂 is too low and crowded for every place it may stand (相's reading: 20 s of
    # 18 000, the 賓 or the 有司 passing under the 射者 or the 賓席 view) — the default reading: never (above)
    solid = [f for f in views if f.endswith("the hall or a thing")]
    bad += solid + (views if len(views) > 30 else [])
    assert not bad, bad[:10]
