"""Contact shadows (issue 15 item 2) in the stills: a soft dark disc on the floor under each person — pixels
next to a figure's feet are darker with it than without, and the ground farther out is untouched."""
from __future__ import annotations

import os

os.environ["PYVISTA_OFF_SCREEN"] = "true"

import numpy as np
import pytest

from scene.render import stills
from scene.render.meshes import contact

pytestmark = [pytest.mark.gl]


@pytest.fixture(scope="module")
def hall_pair():
    """§21 from the hall camera, with and without the discs; the world → pixel projection of that camera."""
    s = stills.Studio(None, (1280, 720))
    try:
        rite = s.rite
        st = stills.find_stage(rite, 21)
        t = stills.representative_t(rite, st)
        with_ = s.render(t, "hall", labels=False, caption=False, stage=st)
        s.contact_actor.SetVisibility(False)
        without = s.render(t, "hall", labels=False, caption=False, stage=st)
        pose = rite.pose_at(t)
        ren = s.ren

        def px(x, y, z):
            ren.SetWorldPoint(float(x), float(y), float(z), 1.0)
            ren.WorldToDisplay()
            u, v, _ = ren.GetDisplayPoint()
            return int(round(u)), int(round(720 - 1 - v))
        pts = {}
        for i, aid in enumerate(pose.actor_ids):
            x, y, z = pose.actor_xyz_m[i]
            r = contact.RADIUS.get(pose.posture[i], contact.RADIUS["stand"])
            # the ring just past the robe's hem towards the camera (south-east), and the ground well beyond
            near = [px(x + 0.78 * r * np.cos(q), y + 0.78 * r * np.sin(q), z) for q in np.radians([-100, -60, -20])]
            far = px(x + 1.3, y - 1.3, z)
            pts[aid] = (near, far, px(x, y, z), px(x + r, y, z), bool(pose.visible[i]), float(z), float(y))
    finally:
        s.close()
    return with_.image.astype(int), without.image.astype(int), pts


def test_a_person_has_a_dark_disc_at_his_feet_and_the_ground_beyond_is_unchanged(hall_pair):
    a, b, pts = hall_pair
    checked = 0
    for aid, (near, far, c, edge, visible, z, y) in pts.items():
        if not visible or z > 0.05 or y > -1.0 or abs(edge[0] - c[0]) < 5:      # in the court, big enough
            continue
        inside = all(0 <= u < 1280 and 0 <= v < 600 for u, v in near + [far])
        if not inside:
            continue
        d_near = [b[v, u].sum() - a[v, u].sum() for u, v in near]
        d_far = b[far[1], far[0]].sum() - a[far[1], far[0]].sum()
        if sorted(d_near)[1] <= 0:                      # a figure stands over most of the ring: not this one
            continue
        assert np.median(d_near) > 25, (aid, d_near)
        assert abs(d_far) <= 6, (aid, d_far)
        checked += 1
    assert checked >= 3, checked


def test_discs_fade_to_nothing_at_the_rim():
    m, rgba = contact.disc_mesh([(0.0, 0.0, 0.0, 0.5)])
    r = np.hypot(m.points[:, 0], m.points[:, 1])
    assert rgba[r.argmin(), 3] == round(contact.ALPHA * 255)
    assert (rgba[np.isclose(r, 0.5), 3] == 0).all()
    assert (m.points[:, 2] > 0).all()                                       # lifted off the floor
