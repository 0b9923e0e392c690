"""The 侯's painting, the 楅 and the 鹿中 held against the 記's words (geometry and pixels, not the code's
own constants where the text gives a number)."""
from __future__ import annotations

import os

os.environ["PYVISTA_OFF_SCREEN"] = "true"

import numpy as np
import pytest

from scene.geometry import readings
from scene.geometry.units import parse_length
from scene.render import meshes, stills
from scene.render.meshes import racks
from scene.render.palette import COLOURS as C
from scene.render.shapes import Batch, heading_rot, rgb

BEAST = readings.get("zheng").replace(target_face="獸侯")


def _parts(batch: Batch) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    out: dict[str, list] = {}
    for pid, p, _, _, col in batch.chunks():
        out.setdefault(pid, []).append((np.asarray(p), np.asarray(col)))
    return {k: (np.vstack([a for a, _ in v]), np.vstack([c for _, c in v])) for k, v in out.items()}


def _colours(col: np.ndarray) -> set[tuple[int, int, int]]:
    return {tuple(int(c) for c in row) for row in np.unique(col, axis=0)}


# ---- the 侯 ------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("reading", ["zheng", "wangzhi"])
def test_zheng_is_a_third_of_the_zhong_in_green_with_red_inside(reading):
    """采侯二正: the 正 square a third of the 中 (賈 三分其侯正居一焉), 綠 outside, 朱 inside, on the side that
    faces the 堂 (侯以鄉堂為面: north)."""
    st = meshes.build_static(reading)                       # the static layers are in 尺
    parts = _parts(st.main)
    zhong = st.layout["target.centre"].size_chi[0]          # 弓二寸以為侯中, under this reading
    outer, oc = parts["target.face"]
    inner, ic = parts["target.face.inner"]
    assert np.ptp(outer[:, 0]) == pytest.approx(zhong / 3, rel=1e-3)
    assert np.ptp(outer[:, 2]) == pytest.approx(zhong / 3, rel=1e-3)
    assert np.ptp(inner[:, 0]) < np.ptp(outer[:, 0])
    assert _colours(oc) == {rgb(C["lu"])} and _colours(ic) == {rgb(C["zhu"])}
    cloth_y = parts["target.centre"][0][:, 1].max()
    assert outer[:, 1].min() > cloth_y and inner[:, 1].min() > cloth_y


def test_clouds_on_the_sides_follow_the_reading():
    """凡畫者丹質: the 躬 on a 丹 ground; 雲氣 in 朱 and 綠 under 采侯 (賈), left white under the 獸侯 (ours)."""
    a, b = _parts(meshes.build_static("zheng").main), _parts(meshes.static_set(BEAST).main)
    for parts in (a, b):
        assert _colours(parts["target.body_upper"][1]) == {rgb(C["dan"])}
        assert _colours(parts["target.body_lower"][1]) == {rgb(C["dan"])}
    assert _colours(a["target.clouds"][1]) == {rgb(C["zhu"]), rgb(C["lu"])}
    assert _colours(b["target.clouds"][1]) == {rgb(C["hou_cloth"])}
    # the clouds lie on the 躬 (within their strips' heights), not on the 舌
    lay = meshes.build_static("zheng").layout
    z = a["target.clouds"][0][:, 2]
    bands = [(lay[p].xyz_chi[2] - 1, lay[p].xyz_chi[2] + 1) for p in ("target.body_upper", "target.body_lower")]
    assert all(any(lo <= zz <= hi for lo, hi in bands) for zz in z)


def test_beast_target_paints_two_heads_in_the_place_of_the_zheng():
    """獸侯: 鄭 正面畫其頭象於正鵠之處…臣畫二 — a deer and a boar, inside the middle third of the 中, no 正."""
    st = meshes.static_set(BEAST)                           # in 尺
    parts = _parts(st.main)
    assert "target.face.inner" not in parts and "target.face" not in parts
    third = st.layout["target.centre"].size_chi[0] / 3
    cz = st.layout["target.centre"].xyz_chi[2]
    heads = [parts["target.face.deer"], parts["target.face.boar"]]
    for p, col in heads:
        assert np.abs(p[:, 0]).max() <= third / 2 + 1e-6 and np.abs(p[:, 2] - cz).max() <= third / 2 + 1e-6
        assert rgb(C["zhu"]) not in _colours(col) and rgb(C["lu"]) not in _colours(col)
    assert rgb(C["deer_coat"]) in _colours(heads[0][1]) and rgb(C["boar_coat"]) in _colours(heads[1][1])
    assert heads[0][0][:, 0].mean() < 0 < heads[1][0][:, 0].mean()      # deer west (the 侯's left): ours


def _hou_closeup(reading) -> np.ndarray:
    s = stills.Studio(reading, (640, 360))
    try:
        lay = s.lay
        chi = lay.reading.chi_m
        x, y, z = lay["target.centre"].xyz_m(chi)
        cam = {"position": [0.0, y + 8.0, z + 0.3], "focal_point": [0.0, y, z], "view_up": [0, 0, 1],
               "view_angle": 30}
        from scene.render.views import camera_from_json
        st = stills.find_stage(s.rite, 21)
        return s.render(stills.representative_t(s.rite, st), "overview", labels=False, caption=False, stage=st,
                        camera=camera_from_json(cam)).image
    finally:
        s.close()


def _masks(img: np.ndarray) -> dict[str, np.ndarray]:
    """Pixels by hue, as the stills draw the baked colours (the 侯's north face is in its own shade, so the
    palette's values come out darker): 綠, 朱 (a deep red), and the brown-orange of 丹 and of the deer's coat."""
    R, G, B = (img[..., k].astype(int) for k in range(3))
    return {"green": (G > R + 25) & (G > B + 10), "red": (R > 3 * G) & (R > 50),
            "tan": (R > 1.3 * G) & (R < 2.2 * G) & (R > 60)}


@pytest.mark.slow
def test_stills_show_the_zheng_colours_and_the_heads():
    """A close-up of the 侯 from the 堂's side: the 正's 綠 and 朱 in the picture's middle under 采侯; under the
    獸侯 neither there, the deer's coat instead; the 丹 of the 躬 in both."""
    a, b = _masks(_hou_closeup("zheng")), _masks(_hou_closeup(BEAST))
    h, w = a["green"].shape
    mid = (slice(int(h * 0.3), int(h * 0.7)), slice(int(w * 0.35), int(w * 0.65)))
    assert a["green"][mid].mean() > 0.03 and a["red"][mid].mean() > 0.02
    assert b["green"][mid].mean() == 0 and b["red"][mid].mean() == 0 and b["tan"][mid].mean() > 0.003
    assert a["tan"].mean() > 0.05 and b["tan"].mean() > 0.05
    assert b["green"].mean() == 0                     # the 獸侯's clouds are not in 綠


# ---- the 楅 ------------------------------------------------------------------------------------------------

def _extent(parts, names) -> np.ndarray:
    pts = np.vstack([m.points for n, m, _ in parts if n in names or n.split(".")[0] in names])
    return np.ptp(pts, axis=0)


@pytest.mark.parametrize("reading", ["zheng", "zhou8cun"])
def test_bi_is_as_long_as_an_arrow_three_cun_wide_one_and_a_half_thick(reading):
    """記 楅長如笴博三寸厚寸有半: the whole 楅 (heads included) spans one 笴 of the reading, 3 寸 across; the
    board is 1½ 寸 thick.  Drawn through props.thing with the layout's size, in metres."""
    from scene.geometry.layout import build_layout
    from scene.render.meshes import props
    r = readings.get(reading)
    lay = build_layout(r)
    chi = r.chi_m
    mesh, cols = props.thing("rack", "bi", "", 0.0, False, chi, props.thing_size(lay, "bi"))
    ext = np.ptp(mesh.points, axis=0)
    assert ext[0] == pytest.approx(parse_length("笴", r).chi * chi, rel=1e-6)      # east–west (東肆)
    assert ext[1] == pytest.approx(parse_length("三寸", r).chi * chi, rel=1e-6)
    parts = racks.bi_parts(*props.thing_size(lay, "bi"))
    board = _extent(parts, {"board"})
    assert board[2] == pytest.approx(parse_length("寸有半", r).chi, rel=1e-6)
    assert len(cols) == len(mesh.points)


def test_bi_has_dragon_heads_at_both_ends_and_snakes_crossing_under_the_dang():
    """龍首，其中蛇交，韋當 (鄭 兩端為龍首中央為蛇身相交…以丹韋為之)."""
    parts = racks.bi_parts(3.0, 0.3, 0.15)
    heads = [m.points[:, 0].mean() for n, m, _ in parts if n == "dragon" and len(m.points) > 30]
    assert min(heads) < -1.2 and max(heads) > 1.2
    snakes = [m.points for n, m, _ in parts if n == "snake"]
    assert len(snakes) == 2
    # the two bodies' centre lines change sides along the middle (they cross), more than once
    xs = np.linspace(-1.0, 1.0, 41)
    side = [np.interp(xs, *_centre_line(s)) for s in snakes]
    flips = np.count_nonzero(np.diff(np.sign(side[0] - side[1])))
    assert flips >= 2
    dang = [(m, c) for n, m, c in parts if n == "dang"]
    assert len(dang) == 1 and dang[0][1] == "dan"
    assert abs(dang[0][0].points[:, 0].mean()) < 1e-6                            # on the middle
    board_top = max(m.points[:, 2].max() for n, m, _ in parts if n == "board")
    assert dang[0][0].points[:, 2].min() >= board_top - 1e-6


def _centre_line(points: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    x = np.round(points[:, 0], 3)
    xs = np.unique(x)
    return xs, np.array([points[x == v, 1].mean() for v in xs])


def test_arrows_laid_on_the_bi_rest_on_its_board(rite_zheng):
    """委于楅北括: every arrow the rite lays on the 楅 runs north–south across it, touching its top (not floating,
    not sunk), within the board's length."""
    from scene.render.meshes import props
    rite = rite_zheng
    lay = rite.layout
    chi = lay.reading.chi_m
    st = stills.find_stage(rite, 22)
    pose = rite.pose_at(st.end_s - 1.0)
    dyn = meshes.build_dynamic(rite, pose)
    parts = _parts(dyn.main)
    bi_pts = parts["object.bi"][0]
    on = [k for k, s in enumerate(pose.object_state) if s and "楅" in s]
    assert len(on) >= 8
    board = [m for n, m, _ in racks.bi_parts(*props.thing_size(lay, "bi")) if n == "board"][0]
    top = float(pose.object_xyz_m[pose.object_ids.index("bi")][2]) + board.points[:, 2].max() * chi
    for k in on:
        p = parts[pose.object_ids[k]][0]
        assert np.ptp(p[:, 1]) > 0.6 and np.ptp(p[:, 0]) < 0.05                  # north–south
        assert p[:, 2].min() == pytest.approx(top, abs=0.01)
        assert bi_pts[:, 0].min() < p[:, 0].mean() < bi_pts[:, 0].max()


@pytest.fixture(scope="module")
def rite_zheng():
    return stills.load_rite()


# ---- the 鹿中 ----------------------------------------------------------------------------------------------

def test_deer_kneels_on_its_forelegs():
    """前足跪: the forelegs come down to the ground at the knee, the cannon folded back lying on the ground;
    the front of the body is lower than the back."""
    parts = racks.deer_parts()
    fore = [m.points for n, m, _ in parts if n == "foreleg"]
    folded = [m.points for n, m, _ in parts if n == "foreleg.folded"]
    hind = [m.points for n, m, _ in parts if n == "hindleg"]
    assert len(fore) == len(folded) == len(hind) == 2
    for f in folded:
        assert f[:, 2].max() < 0.2 and np.ptp(f[:, 1]) > 0.3          # lying along the ground
        assert f[:, 1].mean() < max(p[:, 1].max() for p in fore)       # folded back, under the chest
    for f in fore:
        assert f[:, 2].min() < 0.05                                      # the knee on the ground
    assert max(f[:, 2].max() for f in fore) < min(h[:, 2].max() for h in hind) - 0.2
    body = [m.points for n, m, _ in parts if n == "body"][0]
    front, back = body[body[:, 1] > 0.4], body[body[:, 1] < -0.5]
    assert front[:, 2].mean() < back[:, 2].mean()


def test_deer_back_holds_the_eight_counters():
    """鑿背容八筭: the eight 筭 the rite puts in the 中 stand inside the hollow in its back — every one within
    its mouth and its foot below the mouth, in the deer resting as the scene lays it."""
    from scene.render.meshes import props
    chi = readings.get("zheng").chi_m
    at = np.array([-6.93, -11.088, 0.0])
    b = Batch()
    props.counters(b, "counters.zhong", at, "8", chi, True)
    pts = _parts(b)["counters.zhong"][0]
    parts = racks.deer_parts()
    hollow = [m for n, m, _ in parts if n == "hollow"][0]
    rot = heading_rot(props.rest_heading(None, "zhong"))
    h = (hollow.points * chi) @ rot.T + at                                  # world metres
    centre = h[:, :2].mean(axis=0)
    radius = np.linalg.norm(h[:, :2] - centre, axis=1).max()
    foot = pts[pts[:, 2] < pts[:, 2].min() + 0.01]
    assert np.linalg.norm(foot[:, :2] - centre, axis=1).max() < radius
    assert h[:, 2].min() - 0.002 <= foot[:, 2].min() < h[:, 2].max()      # the rods' tilt: < 2 mm
    suan = parse_length("尺有握", readings.get("zheng")).chi * chi
    assert np.ptp(pts[:, 2]) == pytest.approx(suan, rel=0.02)               # 長尺有握, standing
    # and the mouth opens in the back: above the body there, so the 筭 are seen to go in
    body = [m.points for n, m, _ in parts if n == "body"][0]
    near = body[np.linalg.norm(body[:, :2] - np.array(racks.HOLLOW[:2]), axis=1) < racks.HOLLOW_R]
    assert hollow.points[:, 2].max() > near[:, 2].max() - 0.05
