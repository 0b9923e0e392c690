"""The scene's meshes: named parts, stairs by the reading, roof layers, figures, dynamic state; purity."""
from __future__ import annotations

import os
import subprocess
import sys

os.environ["PYVISTA_OFF_SCREEN"] = "true"

import numpy as np
import pytest

from scene.render import figures, meshes, shapes


@pytest.mark.parametrize("reading, steps", [("zheng", 3), ("xiang", 5)])
def test_static_parts_are_named_by_place_and_stairs_follow_the_reading(reading, steps):
    st = meshes.build_static(reading)
    ids = set(st.part_ids())
    for pid in ("hall.tang", "hall.west_pillar", "hall.east_pillar", "hall.west_xu", "hall.east_xu",
                "hall.eave_purlin", "hall.front_lintel", "hall.ridge", "hall.roof.south", "hall.roof.north",
                "hall.gate", "hall.court", "range.houdao", "range.fa", "target.centre", "target.body_upper",
                "target.upper_strip", "target.west_post", "target.face", "tang.wu_right", "tang.wu_left",
                "court.xi", "court.water", "court.xi_basket", "court.qing", "tang.zun", "mat.bin"):
        assert pid in ids, pid
    for side in ("west", "east"):
        treads = sorted(i for i in ids if i.startswith(f"hall.{side}_steps.tread"))
        assert len(treads) == steps, treads
    assert ("hall.shi" in ids) == (reading == "xiang") and ("hall.fang" in ids) == (reading == "xiang")


def test_stairs_rise_towards_the_hall():
    st = meshes.build_static("zheng")
    tops = {}
    for pid, p, _, _, _ in st.main.chunks():
        if pid.startswith("hall.west_steps.tread"):
            tops[int(pid[-1])] = (p[:, 1].mean(), p[:, 2].max())
    ys = [tops[k][0] for k in sorted(tops)]
    zs = [tops[k][1] for k in sorted(tops)]
    assert ys == sorted(ys) and zs == sorted(zs)          # higher steps are nearer the 堂
    assert zs[-1] == pytest.approx(st.layout.hall.height)


def test_target_face_by_reading():
    a = set(meshes.build_static("zheng").part_ids())
    r = __import__("scene.geometry.readings", fromlist=["get"]).get("zheng").replace(target_face="獸侯")
    b = set(meshes.static_set(r).part_ids())
    assert "target.face.inner" in a and "target.face.deer" not in a
    assert "target.face.deer" in b and "target.face.boar" in b


def test_primitives_wind_outwards():
    for m in (shapes.box((1, 2, 3)), shapes.frustum(1, 0.5, 0, 2, 10, 1.2, 0.8), shapes.ellipsoid((1, 2, 3)),
              shapes.tube([(0, 0, 0), (0, 1, 0), (1, 2, 0)], 0.1), shapes.rod((0, 0, 0), (1, 2, 3), 0.1),
              shapes.extrude([(0, 0), (1, 0), (1, 1), (0, 1)], 0, 1)):
        p, t = m.points, m.tris
        face = np.cross(p[t[:, 1]] - p[t[:, 0]], p[t[:, 2]] - p[t[:, 0]])
        assert ((m.normals[t].mean(axis=1) * face).sum(axis=1) > 0).all()


def test_shadows_face_up():
    b = shapes.Batch()
    b.add("x", shapes.box((1, 1, 2), (0, 0, 1)), "#ffffff")
    sh = b.shadow((-0.4, 0.6, -0.7), lambda z: "#000000")
    a = sh.arrays()
    p, t = a["points"], a["tris"]
    face = np.cross(p[t[:, 1]] - p[t[:, 0]], p[t[:, 2]] - p[t[:, 0]])
    assert (face[:, 2] > 0).all() and np.allclose(p[:, 2], 0.0)


def test_figures_every_posture_and_style(rite):
    st = figures.styles(rite.choreography)
    assert st["ou1_up"].sleeve_r != st["ou1_up"].sleeve_l          # 上射: a red band on the right
    assert st["zhuren"].hat == "guan" and st["dafu"].hat == "tall_guan" and st["sishe"].hat == "kerchief"
    assert st["sishe"].sash == rite.choreography.actors["sishe"].colour   # known by his sash
    h = {p: figures.figure(st["bin"], p).height for p in figures.POSTURES}
    assert h["bow"] < h["sit"] < h["stand"]
    f = figures.figure(st["bin"], "stand")
    front = f.points[f.points[:, 1] > 0.2]
    assert len(front)                                           # the 韠 and the hands are in front (+y)


def test_dynamic_set_names_actors_and_follows_the_rope(rite):
    t0 = rite.stages[1].start_s
    d0 = meshes.build_dynamic(rite, rite.pose_at(t0))
    names = set(d0.main.names)
    assert "target.lower_strip.rolled" in names                # 不繫左下綱, 中掩束之 (§2)
    later = [s for s in rite.stages if s.n == 21][0]
    d1 = meshes.build_dynamic(rite, rite.pose_at(later.start_s))
    n1 = set(d1.main.names)
    assert "target.left_lower_rope" in n1 and "target.lower_strip.rolled" not in n1   # 繫左下綱 (§17)
    assert any(n.startswith("actor.") for n in n1)
    assert len(d1.shadows) > 0


def test_polydata_carries_part_ids():
    st = meshes.build_static("zheng")
    poly = meshes.to_polydata(st.main, st.scale)
    assert poly.n_cells == len(st.main)
    ids = list(poly.field_data["part_ids"])
    assert "hall.tang" in ids and poly.cell_data["part"].max() == len(ids) - 1
    x0, x1, y0, y1, _, _ = poly.bounds
    assert x1 - x0 > 20 and y1 - y0 > 80                        # metres: the whole court


def test_geometry_and_timeline_stay_free_of_pyvista():
    code = ("import sys, scene.layout, scene.timeline, scene.shapes, scene.figures, scene.views;"
            "bad=[m for m in sys.modules if m.startswith(('pyvista','vtkmodules'))]; print(bad); sys.exit(bool(bad))")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stdout + r.stderr


def test_counted_piles_are_laid_as_section_32_says():
    """二筭為純 … 十純則縮而委之，每委異之，有餘純則橫於下，一筭為奇，奇則又縮諸純下 (鄭: 東西為從, 自近為下 — the
    counter kneels west of the piles facing east): 25 筭 = one bundle of twenty running east–west, two 純
    left over running north–south on his (west) side, and the 奇 east–west nearer still."""
    from scene.render.meshes.props import _counted
    L = 1.4 * 0.231
    rods = _counted(25, L)
    assert len(rods) == 25
    ext = [(m.points[:, 0].min(), m.points[:, 0].max(), m.points[:, 1].max() - m.points[:, 1].min()) for m in rods]
    zong = [e for e in ext if e[1] - e[0] > 0.8 * L]          # 縮: east–west
    heng = [e for e in ext if e[2] > 0.8 * L]                  # 橫: north–south
    assert len(zong) == 21 and len(heng) == 4
    bundle = [e for e in zong if e[0] > -0.01]
    odd = [e for e in zong if e[0] < -0.01]
    assert len(bundle) == 20 and len(odd) == 1
    assert max(e[1] for e in heng) < min(e[0] for e in bundle)          # the 餘純 west of the bundle (於下)
    assert odd[0][1] < min(e[0] for e in heng)                          # the 奇 west of them (諸純下)
