"""scene.to_pyvista / scene.plotter (the scripting API, extra [pyvista]) and the one-line errors of a missing
extra (issue 24).  Off-screen: PYVISTA_OFF_SCREEN=true."""
from __future__ import annotations

import json
import math
import os
import sys

import numpy as np
import pytest

os.environ.setdefault("PYVISTA_OFF_SCREEN", "true")
pv = pytest.importorskip("pyvista")

import scene  # noqa: E402
from scene.extras import MissingExtra  # noqa: E402


@pytest.fixture(scope="module")
def mb21():
    return scene.to_pyvista(stage=21)


def test_blocks_are_named_by_part_and_actor_and_lose_no_triangle(mb21, rite):
    """§21 at its representative moment: the set and the cast as blocks named by part id; every triangle of the
    meshes the studio draws is in exactly one block."""
    from scene.render.meshes import build_dynamic, build_static
    from scene.rite.moments import find_stage, representative_t
    st = find_stage(rite, 21)
    t = representative_t(rite, st)
    assert mb21.field_data["stage"][0] == f"§21 {st.id}"
    assert math.isclose(float(mb21.field_data["t"][0]), t, abs_tol=1e-6)
    static, dynamic = mb21["static"], mb21["dynamic"]
    assert "hall.west_steps.tread1" in static.keys() and "hall.roof.tiles" in static.keys()
    pose = rite.pose_at(t)
    onstage = [f"actor.{a}" for a in ("bin", "zhuren", "sishe", "ou1_up", "ou1_low")]
    assert all(a in dynamic.keys() for a in onstage)
    s = build_static("zheng")
    assert sum(b.n_cells for b in static) == len(s.main) + len(s.roof_south) + len(s.roof_north)
    assert sum(b.n_cells for b in dynamic) == len(build_dynamic(rite, pose).main)
    # one part per block: the cell array 'part' is 0 throughout and part_ids names the block
    b = dynamic["actor.bin"]
    assert set(np.unique(b.cell_data["part"])) == {0} and b.field_data["part_ids"][0] == "actor.bin"


def test_a_part_drawn_from_a_place_carries_its_provenance_where_the_place_is(mb21):
    """The west pillar's block carries the layout's 楹 with its source, and stands where the layout puts it."""
    layout = json.loads(mb21.field_data["layout"][0])
    places = {p["id"]: p for p in layout["places"]}
    pillar = places["hall.west_pillar"]
    b = mb21["static"]["hall.west_pillar"]
    assert b.field_data["place"][0] == "hall.west_pillar"
    assert b.field_data["source"][0] == pillar["source"] and b.field_data["status"][0] == pillar["status"]
    x0, x1, y0, y1, _, _ = b.bounds
    assert x0 <= pillar["xyz_m"][0] <= x1 and y0 <= pillar["xyz_m"][1] <= y1
    assert layout["reading"]["name"] == mb21.field_data["reading"][0] == "zheng"


def test_time_reads_as_the_still_command_reads_it(rite):
    from scene.rite.moments import find_stage
    st = find_stage(rite, 21)
    mb = scene.to_pyvista(t=10, stage=21, roof=False)
    assert math.isclose(float(mb.field_data["t"][0]), st.start_s + 10, abs_tol=1e-6)
    assert not [k for k in mb["static"].keys() if k.startswith("hall.roof")]
    for bad in (float("nan"), float("inf"), True, "10"):
        with pytest.raises(ValueError, match="^t = "):
            scene.to_pyvista(t=bad, stage=21)
    with pytest.raises(ValueError, match="outside §21"):
        scene.to_pyvista(t=1e9, stage=21)


@pytest.mark.gl
def test_the_plotter_draws_the_scene_off_screen():
    p = scene.plotter(stage=21, off_screen=True, window_size=(240, 160))
    try:
        img = p.screenshot(return_img=True)
    finally:
        p.close()
    assert img.shape[:2] == (160, 240)
    assert len(np.unique(img.reshape(-1, img.shape[-1]), axis=0)) > 20


def test_without_pyvista_the_api_says_which_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "pyvista", None)
    with pytest.raises(MissingExtra, match=r"needs the extra \[pyvista\]: pip install 'xiangsheli-scene\[pyvista\]'"):
        scene.to_pyvista(stage=21)


def test_clip_without_imageio_is_one_line_naming_the_extra(monkeypatch, capsys, tmp_path):
    """``python -m scene clip`` without the extra: exit 2, one line, before any rendering."""
    from scene.cli.main import main
    monkeypatch.setitem(sys.modules, "imageio", None)
    monkeypatch.setitem(sys.modules, "imageio.v2", None)
    assert main(["clip", "--stage", "5", "--out", str(tmp_path / "c.gif")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "clip needs the extra [clip]: pip install 'xiangsheli-scene[clip]'" in err[0]
    assert not (tmp_path / "c.gif").exists()
