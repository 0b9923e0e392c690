"""The placement rules of measurements.md §2–§8, asserted as relations."""
from __future__ import annotations

import math

import pytest

from scene.geometry.layout import build_layout
from scene.geometry.readings import DEFAULT, PRESETS

ZHENG = build_layout("zheng")


def xyz(lay, pid):
    return lay[pid].xyz_chi


def test_every_place_has_provenance():
    for lay in (build_layout(name) for name in PRESETS):
        assert len(lay.places) > 60
        for p in lay.places.values():
            assert p.source and p.derivation, p.id
            assert p.status in ("stated", "derived", "assumed")
            assert any("\u4e00" <= c <= "\u9fff" for c in p.name), p.id  # the classical term
            assert all(math.isfinite(c) for c in p.xyz_chi)


def test_houdao_is_fifty_gong_from_the_hall_edge():
    hou = ZHENG["target.hou"]
    assert xyz(ZHENG, "target.centre")[1] == pytest.approx(-300.0)
    assert "50 弓 × 6 尺 = 300 尺 = 69.30 m @ 0.231 m/尺" in ZHENG["range.houdao"].derivation
    assert ZHENG.xyz_m("target.centre")[1] == pytest.approx(-69.3)
    assert hou.facing == "北面"


def test_houdao_from_the_wu():
    lay = build_layout(DEFAULT.replace(houdao_from="物"))
    assert xyz(lay, "target.centre")[1] == pytest.approx(xyz(lay, "tang.wu_right")[1] - 300)


def test_fa_is_a_third_of_the_houdao_north_and_five_bu_west():
    fa, hou = xyz(ZHENG, "range.fa"), xyz(ZHENG, "target.centre")
    assert fa[1] - hou[1] == pytest.approx(100.0)       # 參侯道，居侯黨之一
    assert fa[0] == pytest.approx(-30.0)                 # 西五步, 步 = 6 尺
    assert -fa[1] == pytest.approx(200.0)                # 賈: 去堂二十丈
    wz = build_layout("wangzhi")
    assert xyz(wz, "range.fa")[0] == pytest.approx(-40.0)  # 步 = 8 尺
    from_end = build_layout(DEFAULT.replace(fa_west_from="左个"))
    assert xyz(from_end, "range.fa")[0] == pytest.approx(xyz(ZHENG, "target.left_end")[0] - 30)


def test_target_parts_in_proportion():
    zhong = ZHENG["target.centre"].size_chi
    gong = ZHENG["target.body_upper"].size_chi
    shang = ZHENG["target.upper_strip"].size_chi
    xia = ZHENG["target.lower_strip"].size_chi
    assert zhong[0] == zhong[2] == pytest.approx(10.0)          # 中十尺, square
    assert gong[0] == pytest.approx(2 * zhong[0])               # 倍中以為躬
    assert shang[0] == pytest.approx(2 * gong[0])               # 倍躬以為左右舌
    assert shang[0] == pytest.approx(5 * 8)                     # 上个五尋
    assert (xia[0] - gong[0]) == pytest.approx((shang[0] - gong[0]) / 2)   # 下舌半上舌
    assert ZHENG["target.hou"].size_chi[2] == pytest.approx(18.0)
    assert ZHENG["target.lower_rope"].xyz_chi[2] == pytest.approx(1.2)     # 下綱不及地武
    assert xyz(ZHENG, "target.centre")[2] == pytest.approx(10.2)
    wz = build_layout("wangzhi")                                           # 武 = 3 尺
    assert wz["target.lower_rope"].xyz_chi[2] == pytest.approx(3.0)
    assert xyz(wz, "target.centre")[2] == pytest.approx(12.0)
    # right (east) and left (west) ends, the 侯 facing the 堂
    assert xyz(ZHENG, "target.right_end")[0] == pytest.approx(20) == -xyz(ZHENG, "target.left_end")[0]


def test_xi_south_by_hall_depth_on_the_east_rong():
    for lay in (ZHENG, build_layout("xiang")):
        xi = xyz(lay, "court.xi")
        assert xi[1] == pytest.approx(-lay.hall.tang_depth)
        assert xi[0] == pytest.approx(xyz(lay, "hall.east_rong")[0])
        assert xi[0] > xyz(lay, "hall.east_steps")[0]   # 阼階東南
    assert build_layout("xiang").hall.tang_depth < ZHENG.hall.tang_depth   # the 室 takes the back


def test_bi_and_zhong_on_the_xi_line_and_west_xu():
    bi, zhong, xi = xyz(ZHENG, "court.bi"), xyz(ZHENG, "court.zhong"), xyz(ZHENG, "court.xi")
    assert bi[0] == 0 and bi[1] == pytest.approx(xi[1])        # 中庭, 南當洗
    assert zhong[1] == pytest.approx(bi[1])                    # 南當楅
    assert zhong[0] == pytest.approx(xyz(ZHENG, "hall.west_xu")[0])   # 西當西序
    assert ZHENG["court.bi"].size_chi == pytest.approx((3.0, 0.3, 0.15))
    assert ZHENG["court.counters_spare"].size_chi[1] == pytest.approx(1.4)   # 長尺有握


def test_wu_under_the_ridge_in_a_xu_and_the_lintel_in_a_xiang():
    assert xyz(ZHENG, "tang.wu_right")[1] == pytest.approx(xyz(ZHENG, "hall.ridge")[1])
    xiang = build_layout("xiang")
    assert xyz(xiang, "tang.wu_right")[1] == pytest.approx(xyz(xiang, "hall.front_lintel")[1])
    right, left = xyz(ZHENG, "tang.wu_right"), xyz(ZHENG, "tang.wu_left")
    assert left[0] - right[0] == pytest.approx(6.0)            # 其間容弓, centre to centre
    assert right[0] < 0 < left[0]                              # 上射 on the west (右物)
    assert ZHENG["tang.wu_right"].size_chi[:2] == pytest.approx((1.2, 3.0))   # 距隨長武, 長如笴
    gap = build_layout(DEFAULT.replace(rong_gong="gap"))
    assert xyz(gap, "tang.wu_left")[0] - xyz(gap, "tang.wu_right")[0] == pytest.approx(6.0 + 1.2)
    # centred between the 楹 (記26 射自楹間)
    assert xyz(ZHENG, "hall.west_pillar")[0] < right[0] and left[0] < xyz(ZHENG, "hall.east_pillar")[0]


def test_stairs_and_hall_height_by_rank():
    for name, height, steps in (("zheng", 3.0, 3), ("xiang", 5.0, 5)):
        lay = build_layout(name)
        assert lay.hall.height == height and lay.hall.steps == steps
        treads = lay["hall.west_steps"].extra["treads"]
        assert len(treads) == steps
        assert [t[2] for t in treads] == pytest.approx([height * k / steps for k in range(1, steps + 1)])
        assert [t[1] for t in treads] == sorted(t[1] for t in treads)   # rising toward the 堂
        # 阼階 east, 西階 west, each between its 楹 and its 序
        for side, s in (("east", 1), ("west", -1)):
            x = xyz(lay, f"hall.{side}_steps")[0]
            assert s * x > s * xyz(lay, f"hall.{side}_pillar")[0]
            assert s * x < s * xyz(lay, f"hall.{side}_xu")[0]


def test_musicians_three_gan_south_of_the_hall():
    assert xyz(ZHENG, "court.musicians")[1] == pytest.approx(-9.0)
    assert xyz(ZHENG, "court.musicians")[0] > xyz(ZHENG, "hall.east_steps")[0]


def test_huozhe_offering_three_bu_northwest_of_the_left_end():
    off, end = xyz(ZHENG, "range.huozhe_offering"), xyz(ZHENG, "target.left_end")
    assert math.hypot(off[0] - end[0], off[1] - end[1]) == pytest.approx(18.0)
    assert off[0] < end[0] and off[1] > end[1]


def test_jing_pole_by_ren():
    for name, pole in (("zheng", 21.0), ("wangzhi", 24.0)):
        assert build_layout(name)["range.jing"].size_chi[2] == pytest.approx(pole)


def test_standing_places_relations():
    assert xyz(ZHENG, "pos.sima")[1] < xyz(ZHENG, "pos.sishe")[1]                  # 司射在司馬之北
    s, z = xyz(ZHENG, "pos.sishe"), xyz(ZHENG, "court.zhong")
    assert s[0] < z[0] and s[1] < z[1]                                             # 中之西南
    shooters = ZHENG["pos.shooters"].extra["slots"]
    assert all(p[0] < s[0] and p[1] < s[1] for p in shooters)                      # 其西南
    assert [p[1] for p in shooters] == sorted((p[1] for p in shooters), reverse=True)  # 北上
    assert xyz(ZHENG, "pos.bin_below")[0] == pytest.approx(xyz(ZHENG, "hall.west_xu")[0])  # 當西序
    assert xyz(ZHENG, "pos.dafu_below")[1] < xyz(ZHENG, "pos.bin_below")[1]        # 賓南
    assert all(p[0] < -ZHENG.hall.platform_x for p in ZHENG["pos.sanou_waiting"].extra["slots"])  # 堂西


def _changed(a, b):
    return {pid for pid in a.places if a[pid].xyz_chi != b[pid].xyz_chi or a[pid].size_chi != b[pid].size_chi}


def test_metre_length_changes_metres_only():
    other = build_layout("wu1991")
    assert _changed(ZHENG, other) == set()
    assert other.xyz_m("target.centre")[1] == pytest.approx(-300 * 0.1991, abs=1e-3)


def test_switching_bu_moves_only_what_is_measured_in_bu():
    lay = build_layout(DEFAULT.replace(bu_chi=8.0))
    assert _changed(ZHENG, lay) == {"range.fa", "range.huozhe_at_fa", "range.huozhe_offering",
                                    "range.huozhe_offering_moved"}


def test_switching_ren_changes_only_the_jing():
    assert _changed(ZHENG, build_layout(DEFAULT.replace(ren_chi=8.0))) == {"range.jing"}


def test_target_face_switch():
    assert ZHENG["target.face"].name == "正"
    assert build_layout(DEFAULT.replace(target_face="獸侯"))["target.face"].name == "鹿豕"


def test_xiang_has_shi_and_xu_has_none():
    assert "hall.shi" not in ZHENG and "hall.shi" in build_layout("xiang")


def test_everything_inside_the_court():
    for name in PRESETS:
        lay = build_layout(name)
        court = lay["hall.court"]
        half_w = court.size_chi[0] / 2
        gate_y = lay["hall.gate"].xyz_chi[1]
        for p in lay.places.values():
            if p.id in ("hall.outside_gate", "hall.gate"):
                continue
            x, y, _ = p.xyz_chi
            assert -half_w <= x <= half_w and gate_y <= y <= lay.hall.house_depth, p.id


def test_layout_is_deterministic_and_json_ready():
    import json
    a = json.dumps(build_layout(DEFAULT.replace(seed=1)).as_dict(), ensure_ascii=False)
    b = json.dumps(build_layout(DEFAULT.replace(seed=1)).as_dict(), ensure_ascii=False)
    assert a == b and '"侯道"' in a
