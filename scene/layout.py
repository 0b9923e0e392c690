"""Every named place and object of the rite, computed from the text under a reading.

Each :class:`~scene.places.Place` carries the sentence that fixes it, the
commentary used, the arithmetic and a status.  Numbers the text states are
parsed from the quoted phrase itself (:func:`scene.units.parse_length`), so the
derivation shown to a reader is the one the program actually ran.

Coordinates: 周尺; origin on the ground below the midpoint of the 堂廉
(the 堂's south edge); +x east, +y north, +z up.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Iterable

from . import readings as readings_mod
from .hall import Hall, build_hall
from .places import Place
from .readings import Reading
from .units import Measure, parse_length


#: 尺 between people standing in a file (行): about 0.6–0.7 m under every reading (assumed)
FILE = 3.0


def fmt(x: float) -> str:
    """Compact number for derivations: 300, 1.2, 33.33."""
    return f"{round(x, 2):g}"


@dataclass(frozen=True)
class Layout:
    """All placements under one reading."""

    reading: Reading
    hall: Hall
    places: dict[str, Place]

    def __getitem__(self, pid: str) -> Place:
        try:
            return self.places[pid]
        except KeyError:
            raise KeyError(f"unknown place {pid!r}") from None

    def __contains__(self, pid: str) -> bool:
        return pid in self.places

    def xyz_m(self, pid: str) -> tuple[float, float, float]:
        return self[pid].xyz_m(self.reading.chi_m)

    def as_dict(self) -> dict[str, Any]:
        r, h, m = self.reading, self.hall, self.reading.m
        return {
            "reading": {"name": r.name, "title": r.title, "chi_m": r.chi_m,
                        "choices": r.choices()},
            "hall": {
                "building": r.building,
                "depth_m": round(m(h.tang_depth), 4),
                "house_depth_m": round(m(h.house_depth), 4),
                "width_m": round(m(2 * h.platform_x), 4),
                "width_between_xu_m": round(m(2 * h.xu_x), 4),
                "width_between_rong_m": round(m(2 * h.rong_x), 4),
                "height_m": round(m(h.height), 4),
                "steps": h.steps,
                "ridge_height_m": round(m(h.z_dong), 4),
            },
            "places": [p.as_dict(r.chi_m) for p in self.places.values()],
        }


class _Builder:
    """Collects places; refuses duplicate ids (a typo would silently hide one)."""

    def __init__(self, reading: Reading) -> None:
        self.r = reading
        self.places: dict[str, Place] = {}

    def measure(self, text: str, **refs: float) -> Measure:
        return parse_length(text, self.r, refs or None)

    def put(self, pid: str, name: str, xyz: Iterable[float], *, source: str, derivation: str,
            status: str, commentary: str = "", size: Iterable[float] | None = None,
            facing: str | None = None, **extra: Any) -> Place:
        if pid in self.places:
            raise ValueError(f"duplicate place id {pid!r}")
        p = Place(pid, name, tuple(float(c) for c in xyz), source, derivation, status, commentary,
                  None if size is None else tuple(float(s) for s in size), facing, extra)
        self.places[pid] = p
        return p


# ---------------------------------------------------------------------------
# the building

def _building(b: _Builder, h: Hall) -> None:
    r = b.r
    hx, d = h.platform_x, h.house_depth
    arch = (f"榮間 {fmt(2 * h.rong_x)} 尺 (三雉 × 30 尺); 序間 = ⅔ × 榮間 = {fmt(2 * h.xu_x)} 尺; "
            f"東堂/西堂 {fmt(r.east_west_tang_chi)} 尺 beyond each 序 → platform {fmt(2 * hx)} 尺 wide; "
            f"house depth {fmt(d)} 尺 (廣四脩一: 序間 ÷ 1.25)")
    b.put("hall.tang", "堂", (0, d / 2, h.height), size=(2 * hx, d, h.height),
          source="經 §2 席主人於阼階上 (the 堂 and its steps); 鄭 §2 此射於序",
          commentary="尚書大傳 多士傳 (via 李如圭) 士三雉，三分廣以二為內; 禮器 士三尺; 賈疏 士宜三尺故階三等",
          derivation=f"{arch}; 堂高 {fmt(h.height)} 尺 ({r.rank})", status="assumed")
    b.put("hall.tang_lian", "堂廉", (0, 0, h.height), size=(2 * hx, 0, 0),
          source="鄭 (鄉飲酒) 側邊曰廉; 李如圭 堂深謂從堂廉北至房室之壁",
          derivation="origin of the model: the midpoint of the 堂's south edge, at 堂高", status="derived")
    for side, sx in (("west", -1), ("east", 1)):
        zh = "西" if sx < 0 else "東"
        b.put(f"hall.{side}_lian", f"堂{zh}廉", (sx * hx, d / 2, h.height), size=(0, d, 0),
              source="經 §15 眾弓倚于堂西矢在其上", commentary="鄭 §15 上，堂西廉",
              derivation=f"x = ±(序間/2 + 東堂/西堂) = ±({fmt(h.xu_x)} + {fmt(r.east_west_tang_chi)}) = ±{fmt(hx)} 尺",
              status="derived")
    b.put("hall.tang_depth", "堂深", (0, h.tang_depth / 2, h.height), size=(0, h.tang_depth, 0),
          source="經 §2 設洗于阼階東南南北以堂深", commentary="李如圭 堂深謂從堂廉北至房室之壁",
          derivation=(f"序: no 房室, so the whole house depth = {fmt(h.tang_depth)} 尺" if not h.has_shi else
                      f"庠: 堂廉 to the 室 wall under the 棟 = {fmt(d)} ÷ 2 = {fmt(h.tang_depth)} 尺"),
          status="assumed")

    jia = f"five 架 evenly spaced over {fmt(d)} 尺: 架 = {fmt(d / 4)} 尺"
    roof_src = "記28 序則物當棟堂則物當楣"
    roof_com = "鄭 記28 是制五架之屋也正中曰棟次曰楣前曰庪; 賈 (via 李如圭) 棟南兩架北亦兩架"
    b.put("hall.ridge", "棟", (0, h.y_dong, h.z_dong), size=(2 * h.rong_x, 0, 0), source=roof_src,
          commentary=roof_com, status="derived",
          derivation=f"y = 2 架 = {fmt(h.y_dong)} 尺; z = 堂高 + eaves {fmt(r.eave_height_chi)} + 穹高 "
                     f"(序間/5 = {fmt(2 * h.xu_x / 5)}) = {fmt(h.z_dong)} 尺")
    b.put("hall.front_lintel", "楣", (0, h.y_mei, h.z_mei), size=(2 * h.rong_x, 0, 0), source=roof_src,
          commentary=roof_com, status="derived", derivation=f"{jia}; y = 1 架 = {fmt(h.y_mei)} 尺")
    b.put("hall.eave_purlin", "庪", (0, h.y_yan, h.z_eave), size=(2 * h.rong_x, 0, 0), source=roof_src,
          commentary=roof_com + "; 李如圭 階之上當宇…故階當霤", status="assumed",
          derivation=f"front purlin over the 堂廉 (y = 0); eaves {fmt(r.eave_height_chi)} 尺 above the floor "
                     f"and overhanging {fmt(h.overhang)} 尺 so the 霤 falls at the foot of the steps")

    for side, sx in (("west", -1), ("east", 1)):
        zh = "西" if sx < 0 else "東"
        b.put(f"hall.{side}_pillar", f"{zh}楹", (sx * h.ying_x, h.y_mei, h.height),
              size=(1.2, 1.2, h.z_mei - h.height),
              source="經 §10 大夫授主人爵于兩楹間", commentary="李如圭 堂上有兩楹而已，楹之設蓋於前楣之下",
              status="assumed",
              derivation=f"y = 楣 = {fmt(h.y_mei)} 尺 (李如圭); x = ±序間/{r.ying_bays} 間 ÷ 2 = ±{fmt(h.ying_x)} 尺 "
                         f"(assumed {r.ying_bays} bays)")
        b.put(f"hall.{side}_xu", f"{zh}序", (sx * h.xu_x, d / 2, h.height), size=(1.0, d, h.z_eave - h.height),
              source="經 §15 賓與大夫之弓倚于西序", commentary="李如圭 (after 爾雅) 堂之東西牆謂之序",
              derivation=f"x = ±序間/2 = ±{fmt(h.xu_x)} 尺; runs from the back wall to the 堂廉", status="assumed")
        b.put(f"hall.{side}_xu_end", f"{zh}序端" if sx < 0 else "序端", (sx * h.xu_x, 0.5, h.height),
              source="經 §6 主人坐奠爵于序端", commentary="李如圭 序端 = the south end of the 序",
              derivation=f"south end of the {zh}序: x = ±{fmt(h.xu_x)}, y = 0.5 尺 (just inside the 堂廉)",
              status="derived")
        b.put(f"hall.{side}_rong", f"{zh}榮", (sx * h.rong_x, h.y_dong, h.z_eave), source="經 §2 東西當東榮",
              commentary="鄭 §2 榮，屋翼也; 尚書大傳 士三雉 (榮間 90 尺, 鄭 '廣，榮間相去也')",
              derivation=f"x = ±榮間/2 = ±{fmt(h.rong_x)} 尺", status="assumed")

    # the stairs: 阼階 east, 西階 west (李如圭 各在楹之外而近序)
    for side, sx, zh in (("west", -1, "西階"), ("east", 1, "阼階")):
        x = sx * h.stairs_x
        # from the lowest 等 (farthest from the 堂) up to the top one beside the 堂廉
        treads = [(x, -h.tread * (h.steps - k + 0.5), h.tread_top(k)) for k in range(1, h.steps + 1)]
        b.put(f"hall.{side}_steps", zh, (x, -h.stair_run / 2, h.height / 2),
              size=(h.stair_width, h.stair_run, h.height),
              source="經 §4 主人升一等賓升", commentary="李如圭 阼階西階各在楹之外而近序; 賈疏 士宜三尺故階三等",
              status="assumed", treads=treads,
              derivation=f"x = ±(楹 {fmt(h.ying_x)} + 序 {fmt(h.xu_x)})/2 = ±{fmt(h.stairs_x)} 尺; {h.steps} 等 × "
                         f"{fmt(h.height / h.steps)} 尺 rise, tread {fmt(h.tread)} 尺 → run {fmt(h.stair_run)} 尺")
        # 4 尺 in / out, so whoever stands there leaves both lanes of the stair free
        b.put(f"hall.{side}_steps_top", f"{zh}上", (x, 4.0, h.height), source="經 §4 主人阼階上當楣北面再拜",
              derivation="on the 堂 at the head of the stair, 4 尺 in from the 堂廉", status="derived")
        b.put(f"hall.{side}_steps_front", f"{zh}前", (x, -h.stair_run - 4, 0), source="經 §5 主人阼階前西面",
              derivation=f"on the ground 4 尺 south of the foot of the stair (run {fmt(h.stair_run)} 尺)",
              status="derived")
        beside = sx * (h.stairs_x + h.stair_width / 2 + 2)
        b.put(f"hall.{side}_steps_side", "階西" if sx < 0 else "阼階東", (beside, -1.5, 0),
              source="記23 司射之弓矢與扑倚于西階之西" if sx < 0 else "經 §5 主人阼階東疑立",
              derivation=f"x = ±(階 {fmt(h.stairs_x)} + half its width {fmt(h.stair_width / 2)} + 2) = "
                         f"{fmt(beside)} 尺, by the foot of the stair", status="derived")
    b.put("hall.between_steps", "階間", (0, -3, 0), source="經 §38 司射…階間 (in front of the 堂, between the stairs)",
          derivation="x = 0 (midway between the stairs), 3 尺 south of the 堂廉", status="derived", facing="北面")
    b.put("hall.between_pillars", "兩楹間", (0, h.y_mei, h.height), source="經 §10 大夫授主人爵于兩楹間",
          commentary="李如圭 兩楹間 = the E–W middle of the 堂", derivation=f"x = 0, y = 楣 = {fmt(h.y_mei)} 尺",
          status="derived")
    b.put("hall.west_pillar_south", "西楹南", (-h.ying_x, h.y_mei - 2.5, h.height),
          source="經 §10 主人坐奠爵于西楹南", derivation=f"2.5 尺 south of the 西楹 at x = {fmt(-h.ying_x)}",
          status="derived")

    side_y = min(d / 4, h.tang_depth / 2)
    for side, sx, zh in (("west", -1, "堂西"), ("east", 1, "堂東")):
        b.put(f"hall.{side}_of_tang", zh, (sx * (hx + 5), side_y, 0),
              source="經 §14 三耦俟于堂西南面東上" if sx < 0 else "經 §28 主人…堂東 (prepares to shoot)",
              commentary="鄭 §44 諸所退皆俟堂西",
              derivation=f"court ground 5 尺 {'west' if sx < 0 else 'east'} of the platform edge "
                         f"(±{fmt(hx)}), y = {fmt(side_y)} 尺", status="assumed")

    if h.has_shi:
        wall_y = h.y_dong
        b.put("hall.shi", "室", (-h.xu_x / 2 + 4, (wall_y + d) / 2, h.height), size=(h.xu_x + 8, d - wall_y, h.z_mei - h.height),
              source="鄭 §20 (鄉學 庠) 有堂有室", commentary="記28 堂則物當楣 (the 室 stops the 物 at the 楣)",
              derivation=f"behind the 堂 from the 棟 line (y = {fmt(wall_y)}) to the back wall (y = {fmt(d)}); "
                         f"x from {fmt(-h.xu_x)} to 8 尺 (assumed west of the 房)", status="assumed")
        b.put("hall.fang", "房", ((8 + h.xu_x) / 2, (wall_y + d) / 2, h.height), size=(h.xu_x - 8, d - wall_y, h.z_mei - h.height),
              source="記08 醢以豆出自東房", derivation=f"east of the 室, x from 8 to {fmt(h.xu_x)} 尺", status="assumed")
        b.put("hall.door", "戶", (2, wall_y, h.height), source="鄭 §2 不言於戶牖之間者此射於序 (a 庠 has them)",
              derivation="in the 室 front wall, 5 尺 east of the 賓席 (assumed)", status="assumed")
        b.put("hall.window", "牖", (-8, wall_y, h.height), source="鄭 §2 不言於戶牖之間者此射於序",
              derivation="in the 室 front wall, 5 尺 west of the 賓席 (assumed)", status="assumed")


# ---------------------------------------------------------------------------
# the range: 物, 侯道, 侯, 乏

def _range(b: _Builder, h: Hall) -> dict[str, float]:
    r = b.r
    # 物 N–S: 序則物當棟，堂則物當楣 (記28)
    if h.has_shi:
        wu_y, wu_rule = h.y_mei, f"庠: 物當楣 → y = {fmt(h.y_mei)} 尺"
    else:
        wu_y, wu_rule = h.y_dong, f"序: 物當棟 → y = {fmt(h.y_dong)} 尺"
    wu_len = b.measure("長如笴")
    wu_cross = b.measure("長武")
    gap = b.measure("容弓")
    if r.rong_gong == "centre":
        half = gap.chi / 2
        spacing = f"容弓 centre to centre: x = ±{fmt(gap.chi)}/2 = ±{fmt(half)} 尺"
    else:
        half = gap.chi / 2 + wu_cross.chi / 2
        spacing = (f"容弓 as clear gap between the 距隨 strokes: x = ±({fmt(gap.chi)} + {fmt(wu_cross.chi)})/2 "
                   f"= ±{fmt(half)} 尺")
    wu_com = ("鄭 記27 物謂射時所立處也…長如笴者謂從畫之長短也; 間容弓者上下射相去六尺也; 距隨者物橫畫也…武跡也尺二寸; "
              "鄭 記26 楹間中央東西之節也; 鄭 §20 左物，下物也")
    for pid, name, sx, who in (("tang.wu_right", "右物", -1, "上射 (記37 上射於右)"),
                               ("tang.wu_left", "左物", 1, "下射 (§20 當左物)")):
        b.put(pid, name, (sx * half, wu_y, h.height), size=(wu_cross.chi, wu_len.chi, 0), facing="南面",
              source="記27 物長如笴其間容弓距隨長武; 記28 序則物當棟堂則物當楣; 記26 射自楹間",
              commentary=wu_com, status="derived",
              derivation=f"{who}; {wu_rule}; {spacing}; stroke N–S {wu_len.derivation}; 距隨 E–W {wu_cross.derivation}")
    b.put("tang.between_wu", "物間", (0, wu_y, h.height), facing="西南面", source="經 §21 西南面立于物間",
          derivation=f"x = 0, y = {fmt(wu_y)} 尺 (between the two 物)", status="derived")

    # 侯道 (記61) from the 堂廉 or from the 物
    houdao = b.measure("五十弓")
    start = 0.0 if r.houdao_from == "堂廉" else wu_y
    hou_y = start - houdao.chi
    b.put("range.houdao", "侯道", (0, (start + hou_y) / 2, 0), size=(0, houdao.chi, 0),
          source="記61 侯道五十弓", status="stated",
          commentary="鄭 記61 量侯道以貍步而云弓者; 大射 鄭注 量侯道謂去堂遠近也; 李如圭 鄉射之侯去堂三十丈",
          derivation=f"{houdao.derivation}; measured from the {r.houdao_from} (y = {fmt(start)}) → 侯 at y = {fmt(hou_y)} 尺",
          start_y=start, end_y=hou_y)

    # the 侯 (記60, 記61): strips one cloth width (2 尺) high
    zhong = b.measure("弓二寸", 侯道=houdao.chi)
    gong = b.measure("倍中", 中=zhong.chi)
    shang = b.measure("倍躬", 躬=gong.chi)
    xia_out = (shang.chi - gong.chi) / 2 / 2            # 下舌半上舌: half of what the 上舌 projects
    xia = gong.chi + 2 * xia_out
    strip = 2.0
    foot = b.measure("武")
    z0 = foot.chi                                        # 下綱不及地武
    z_xia, z_gong_lo, z_zhong = z0, z0 + strip, z0 + 2 * strip
    z_gong_hi = z_zhong + zhong.chi
    z_shang = z_gong_hi + strip
    top = z_shang + strip
    centre_z = z_zhong + zhong.chi / 2
    hou_src = "記61 侯道五十弓弓二寸以為侯中倍中以為躬倍躬以為左右舌下舌半上舌; 記60 鄉侯上个五尋中十尺"
    shang_check = b.measure("五尋")
    b.put("target.hou", "侯", (0, hou_y, top / 2), size=(shang.chi, 0.2, top - z0), facing="北面",
          source=hou_src, commentary="鄭 記51 侯以鄉堂為面也; 鄭 記61 凡鄉侯用布十六丈; 鄭 記60 布幅 二尺",
          derivation=f"strips 2 尺 each (布幅): 下个 + 躬 + 中 {fmt(zhong.chi)} + 躬 + 上个 = {fmt(top - z0)} 尺 high, "
                     f"from z = {fmt(z0)} to {fmt(top)} 尺", status="derived", face=r.target_face)
    b.put("target.centre", "侯中", (0, hou_y, centre_z), size=(zhong.chi, 0, zhong.chi), facing="北面",
          source="記61 弓二寸以為侯中; 記60 中十尺", commentary="鄭 記60 方者也用布五丈; 考工記·梓人 廣與崇方",
          derivation=f"{zhong.derivation}; centre z = {fmt(z_zhong)} + {fmt(zhong.chi)}/2 = {fmt(centre_z)} 尺",
          status="stated")
    for pid, zc in (("target.body_upper", z_gong_hi + 1), ("target.body_lower", z_gong_lo + 1)):
        b.put(pid, "躬", (0, hou_y, zc), size=(gong.chi, 0, strip), facing="北面", source="記61 倍中以為躬",
              commentary="鄭 記61 躬身也謂中之上下幅也用布各二丈", derivation=gong.derivation, status="stated")
    b.put("target.upper_strip", "上个", (0, hou_y, z_shang + 1), size=(shang.chi, 0, strip), facing="北面",
          source="記61 倍躬以為左右舌; 記60 上个五尋", commentary="鄭 記60 上个謂最上幅也八尺曰尋; 張爾岐 左右出各一丈",
          derivation=f"{shang.derivation}; agrees with 記60 {shang_check.derivation}", status="stated")
    b.put("target.lower_strip", "下个", (0, hou_y, z_xia + 1), size=(xia, 0, strip), facing="北面",
          source="記61 下舌半上舌", commentary="鄭 記61 半者半其出於躬者也…用布三丈; 張爾岐 左右出於躬各五尺",
          derivation=f"上舌 projects ({fmt(shang.chi)} − {fmt(gong.chi)})/2 = {fmt((shang.chi - gong.chi) / 2)} 尺 each side; "
                     f"half of that = {fmt(xia_out)} → 下个 = {fmt(gong.chi)} + 2 × {fmt(xia_out)} = {fmt(xia)} 尺",
          status="derived")
    b.put("target.left_end", "左个", (-shang.chi / 2, hou_y, z_shang + 1), source="經 §34 適左个; 記51 東方謂之右个",
          commentary="鄭 記51 侯以鄉堂為面也 (its left is the west)", status="derived",
          derivation=f"west end of the 上个: x = −{fmt(shang.chi)}/2 = {fmt(-shang.chi / 2)} 尺")
    b.put("target.right_end", "右个", (shang.chi / 2, hou_y, z_shang + 1), source="記51 東方謂之右个",
          commentary="鄭 記51 侯以鄉堂為面也", status="derived",
          derivation=f"east end of the 上个: x = {fmt(shang.chi / 2)} 尺")
    b.put("target.lower_rope", "下綱", (0, hou_y, z0), size=(xia + 2 * 8, 0, 0), source="經 §2 乃張侯下綱不及地武",
          commentary="鄭 §2 綱持舌繩也武迹也中人之迹尺二寸; 張爾岐 下綱去地之節則尺二寸", status="stated",
          derivation=f"height {foot.derivation}")
    b.put("target.left_lower_rope", "左下綱", (-(xia / 2 + 4), hou_y, z0), source="經 §2 不繫左下綱中掩束之",
          commentary="張爾岐 侯向堂為面以西為左…並綱與舌向東掩束之; §17 遂繫左下綱; §44 說侯之左下綱而釋之",
          derivation="the west half of the 下綱; untied and rolled east until §17, untied again at §44",
          status="derived")
    xun = b.measure("尋")
    post_x = shang.chi / 2 + xun.chi
    for side, sx in (("west", -1), ("east", 1)):
        b.put(f"target.{side}_post", "植", (sx * post_x, hou_y, 0), size=(0.5, 0.5, top + 1),
              source="考工記·梓人 上綱與下綱出舌尋 (not in 鄉射)", commentary="鄭 梓人注 綱所以繫侯於植者也",
              derivation=f"x = ±(上个 {fmt(shang.chi)}/2 + {xun.derivation.split(' = ')[0]}) = ±{fmt(post_x)} 尺; "
                         f"the 下綱 then runs {fmt(post_x - xia / 2)} 尺 to the post (梓人's 尋 kept for the 上綱)",
              status="derived")
    if r.target_face == "采侯二正":
        b.put("target.face", "正", (0, hou_y - 0.05, centre_z), size=(10 / 3, 0, 10 / 3), facing="北面",
              source="記25 凡侯…士布侯畫以鹿豕 (燕射); 鄭 記25 鄉射及賓射當張采侯二正",
              commentary="鄭 梓人注 正之方外如鵠內二尺; 梓人 參分其廣而鵠居一焉", status="derived",
              derivation=f"outer = 中/3 = {fmt(zhong.chi)}/3 = {fmt(zhong.chi / 3)} 尺, inner 2 尺", inner_chi=2.0)
    else:
        b.put("target.face", "鹿豕", (0, hou_y - 0.05, centre_z), size=(zhong.chi, 0, zhong.chi), facing="北面",
              source="記25 士布侯畫以鹿豕凡畫者丹質", derivation="the 中 painted with deer and boar on a red ground",
              status="stated")

    # 乏 (經 §2): 參侯道，居侯黨之一，西五步
    fa_north = b.measure("參侯道", 侯道=houdao.chi)
    west = b.measure("五步")
    fa_y = hou_y + fa_north.chi
    base_x = 0.0 if r.fa_west_from == "侯道" else -shang.chi / 2
    fa_x = base_x - west.chi
    b.put("range.fa", "乏", (fa_x, fa_y, 0), size=(6, 0.3, 5), facing="東面",
          source="經 §2 乏參侯道居侯黨之一西五步",
          commentary="鄭 §2 容謂之乏所以為獲者御矢也…此乏去侯北十丈西三丈; 賈 據侯之正北落西有五步; 張爾岐 乏狀類曲屏以革為之",
          status="stated",
          derivation=f"north of the 侯: {fa_north.derivation} → y = {fmt(hou_y)} + {fmt(fa_north.chi)} = {fmt(fa_y)}; "
                     f"west: {west.derivation} from the {r.fa_west_from} (x = {fmt(base_x)}) → x = {fmt(fa_x)} 尺; "
                     "size 6 × 5 尺 assumed (not stated)")
    b.put("range.huozhe_at_hou", "負侯", (0, hou_y + 2, 0), facing="北面", source="經 §21 司馬命獲者執旌以負侯",
          commentary="鄭 §34 負侯，負侯中也", status="derived",
          derivation=f"2 尺 north of the 侯中 (his back to it): y = {fmt(hou_y + 2)} 尺")
    b.put("range.huozhe_at_fa", "乏 (獲者)", (fa_x, fa_y - 2, 0), facing="東面", source="經 §21 以至于乏坐東面偃旌",
          derivation="2 尺 south of the 乏 screen, sheltered from the arrows coming from the north (assumed)",
          status="derived")
    bu3 = b.measure("三步")
    diag = bu3.chi / math.sqrt(2)
    b.put("range.huozhe_offering", "獲者薦俎", (-shang.chi / 2 - diag, hou_y + diag, 0), facing="東面",
          source="經 §34 左个之西北三步東面設薦俎", commentary="鄭 §34 不就乏者明其享侯之餘也", status="derived",
          derivation=f"{bu3.derivation} north-west (45°) of the 左个 (x = {fmt(-shang.chi / 2)}): "
                     f"offsets −{fmt(diag)}, +{fmt(diag)} 尺")
    b.put("range.huozhe_offering_moved", "乏南 (薦俎)", (fa_x, fa_y - 4, 0), source="經 §34 辟設于乏南",
          commentary="鄭 §34 設于南右之也", derivation="4 尺 south of the 乏 (distance not stated; assumed)",
          status="assumed")
    return {"wu_y": wu_y, "hou_y": hou_y, "fa_x": fa_x, "fa_y": fa_y, "hou_top": top, "hou_centre_z": centre_z}


# ---------------------------------------------------------------------------
# furniture, mats, standing places

def _court(b: _Builder, h: Hall, rng: dict[str, float]) -> None:
    r = b.r
    # 洗 (經 §2): 阼階東南，南北以堂深，東西當東榮
    xi_y, xi_x = -h.tang_depth, h.rong_x
    b.put("court.xi", "洗", (xi_x, xi_y, 0), size=(3, 3, 2), source="經 §2 設洗于阼階東南南北以堂深東西當東榮",
          commentary="鄭 §2 榮屋翼也; 李如圭 堂深謂從堂廉北至房室之壁", status="derived",
          derivation=f"south of the 堂廉 by 堂深 {fmt(h.tang_depth)} 尺 → y = {fmt(xi_y)}; on the 東榮 line x = {fmt(xi_x)} 尺")
    b.put("court.water", "水", (xi_x + 3, xi_y, 0), source="經 §2 水在洗東", status="assumed",
          derivation="east of the 洗; 3 尺 (not stated)")
    b.put("court.xi_basket", "篚 (洗西)", (xi_x - 3, xi_y, 0), facing="南面", source="經 §2 篚在洗西南肆",
          status="assumed", derivation="west of the 洗; 3 尺 (not stated); 南肆 laid N–S, head north")
    qing = (xi_x + 6, xi_y + 8, 0)
    b.put("court.qing", "磬 (縣)", qing, size=(5, 1, 4), facing="西面", source="經 §2 縣于洗東北西面",
          commentary="鄭 §2 此縣謂磬也縣於東方辟射位也", status="assumed",
          derivation=f"north-east of the 洗: 6 尺 east, 8 尺 north (no distance stated) → ({fmt(qing[0])}, {fmt(qing[1])})")
    b.put("court.sheng", "笙 (縣中)", (qing[0] + 3, qing[1], 0), facing="西面", source="經 §11 笙入立于縣中西面",
          commentary="鄭 §11 縣中磬東立西面", status="derived", derivation="3 尺 east of the 磬 (鄭 磬東)",
          slots=[(qing[0] + 3, qing[1] + 2 * k - 1, 0) for k in range(2)])

    # the 楅 in 中庭, on the 洗's line (經 §22, 記39)
    bi_len = b.measure("長如笴")
    bi_w = b.measure("博三寸")
    bi_t = b.measure("厚寸有半")
    b.put("court.bi", "楅", (0, xi_y, 0), size=(bi_len.chi, bi_w.chi, bi_t.chi), facing="南面",
          source="經 §22 乃設楅于中庭南當洗東肆; 記38 楅長如笴博三寸厚寸有半; 記39 南北當洗",
          commentary="鄭 §22 東肆統於賓; 鄭 記38 兩端為龍首中央為蛇身相交", status="derived",
          derivation=f"x = 0 (中庭), y = 洗's line {fmt(xi_y)}; length {bi_len.derivation}; width {bi_w.derivation}; "
                     f"thickness {bi_t.derivation}")
    b.put("court.zhi_marker", "觶 (司正)", (0, xi_y - 3, 0), source="經 §13 司正…中庭北面坐奠觶",
          commentary="鄭 §13 奠觶表其位也", status="assumed",
          derivation=f"中庭: x = 0; N–S not stated — one 笴 (3 尺) south of the 楅's line, y = {fmt(xi_y - 3)}")
    b.put("pos.sizheng", "司正位 (觶南)", (0, xi_y - 5, 0), facing="北面", source="經 §13 北面立于觶南",
          status="derived", derivation="2 尺 south of his 觶, facing north")

    # 中 (鹿中) and counters (經 §26, 記44, 記62)
    zhong_xy = (-h.xu_x, xi_y)
    b.put("court.zhong", "中 (鹿中)", (*zhong_xy, 0), size=(1.2, 2.5, 1.5), facing="東面",
          source="經 §26 釋獲者坐設中南當楅西當西序東面; 記44 鹿中髤前足跪鑿背容八筭",
          commentary="賈 南當楅南北節西當西序東西節", status="derived",
          derivation=f"N–S on the 楅's line y = {fmt(xi_y)}; E–W on the 西序 line x = {fmt(-h.xu_x)} 尺; size assumed")
    suan = b.measure("長尺有握")
    b.put("court.counters_spare", "筭 (中西)", (zhong_xy[0] - 2.5, xi_y, 0), size=(0.3, suan.chi, 0.1),
          source="經 §26 興執而俟…橫委其餘于中西南末; 記62 箭籌八十長尺有握握素", commentary="張爾岐 算長尺四寸",
          status="derived", derivation=f"west of the 中; counter {suan.derivation}; 80 counters", count=80)
    for pid, name, dy, who in (("court.counters_right", "右獲", -1.5, "上射"), ("court.counters_left", "左獲", 1.5, "下射")):
        b.put(pid, name, (zhong_xy[0] - 1.5, xi_y + dy, 0), source="經 §27 上射於右下射於左",
              commentary="張爾岐 中首東鄉其南為右其北為左", status="derived",
              derivation=f"{who}'s hits: {'south (right)' if dy < 0 else 'north (left)'} of the 釋獲者, "
                         f"{fmt(abs(dy))} 尺 from the 中's line")
    b.put("pos.shihuozhe", "釋獲者位 (中西)", (zhong_xy[0] - 3.5, xi_y, 0), facing="東面", source="經 §32 釋獲者東面于中西坐",
          status="derived", derivation="3.5 尺 west of the 中, sitting facing east")
    b.put("pos.shihuozhe_toasted", "釋獲者 (少南)", (zhong_xy[0] - 3.5, xi_y - 4, 0), facing="北面",
          source="經 §35 獻釋獲者于其位少南", commentary="鄭 §35 不當其位辟中", status="assumed",
          derivation="4 尺 south of his place (少南, not stated)")
    b.put("pos.sishe_counting", "中南 (司射)", (zhong_xy[0], xi_y - 3, 0), facing="北面",
          source="經 §32 進由中東立于中南北面視筭", status="derived", derivation="3 尺 south of the 中, facing north")

    # the 司射, 三耦, 司馬 and the shooters' waiting places (經 §19, §21, §25)
    sishe = (zhong_xy[0] - 4, xi_y - 4)
    b.put("pos.sishe", "司射位", (*sishe, 0), facing="東面", source="經 §19 司射先立于所設中之西南東面",
          status="derived", derivation=f"south-west of the 中: 4 尺 west, 4 尺 south → ({fmt(sishe[0])}, {fmt(sishe[1])})")
    pairs = [(sishe[0] - 4, sishe[1] - 4 - FILE * k, 0) for k in range(6)]
    b.put("pos.shooters", "射位 (三耦)", pairs[0], facing="東面", source="經 §19 由司射之西立于其西南東面北上",
          status="derived", slots=pairs,
          derivation="south-west of the 司射, a N–S file facing east, north end senior; 3 尺 apart (assumed)")
    others = [(sishe[0] - 4, pairs[-1][1] - FILE * (k + 1), 0) for k in range(6)]
    b.put("pos.other_shooters", "眾賓射位", others[0], facing="東面", source="經 §25 繼三耦之南而立東面北上",
          status="derived", slots=others, derivation="continuing the 三耦's file to the south")
    b.put("pos.sima", "司馬位", (sishe[0], sishe[1] - 4, 0), facing="東面",
          source="經 §21 反位立于司射之南; 記34 司射在司馬之北", status="derived",
          derivation="4 尺 south of the 司射 (distance assumed)")
    b.put("pos.sima_at_bi", "楅南 (司馬)", (0, xi_y - 2, 0), facing="北面", source="經 §22 當楅南北面坐",
          status="derived", derivation="2 尺 south of the 楅, facing north")
    b.put("pos.bi_north", "楅北", (0, xi_y + 2, 0), source="經 §24 進坐…(上射東面下射西面) at the 楅",
          status="derived", derivation="2 尺 north of the 楅 (where the pairs take arrows)")
    # the 三耦 in front, the 眾賓 shooters (繼三耦而立) in a second row behind them
    wait = [(-(h.platform_x + 3 + FILE * (k % 6)), h.y_mei + FILE * (k // 6), 0) for k in range(12)]
    b.put("pos.sanou_waiting", "三耦 (堂西)", wait[0], facing="南面", source="經 §14 三耦俟于堂西南面東上",
          status="derived", slots=wait,
          derivation=f"堂西: an E–W row facing south, east end senior, from x = {fmt(wait[0][0])}, 3 尺 apart; slots 6–11 a second row (assumed)")

    # musicians after moving (經 §18)
    gan3 = b.measure("三笴")
    mx = h.stairs_x + h.stair_width / 2 + 4
    gong_slots = [(mx, -gan3.chi - FILE * k, 0) for k in range(4)]
    b.put("court.musicians", "工 (堂前三笴)", gong_slots[0], facing="西面",
          source="經 §18 阼階下之東南堂前三笴西面北上坐", commentary="賈/張爾岐 三笴者去堂九尺也",
          status="derived", slots=gong_slots,
          derivation=f"{gan3.derivation} south of the 堂; SE of the foot of the 阼階: x = {fmt(mx)}; a N–S file facing west, north end senior")
    b.put("pos.yuezheng_below", "樂正 (工南)", (mx, gong_slots[-1][1] - 3, 0), facing="北面",
          source="經 §18 樂正北面立于其南", status="derived", derivation="3 尺 south of the last 工")

    # gate and the entry places (經 §4)
    gate_y = rng["hou_y"] - r.behind_hou_chi
    b.put("hall.gate", "門", (0, gate_y, 0), size=(r.gate_width_chi, 2, 12), facing="北面",
          source="經 §4 及門主人一相出迎于門外", commentary="李如圭 庠序則惟有一門; 堂下至門謂之庭",
          status="assumed", derivation=f"{fmt(r.behind_hou_chi)} 尺 south of the 侯 (y = {fmt(gate_y)}); width {fmt(r.gate_width_chi)} 尺")
    b.put("hall.outside_gate", "門外", (0, gate_y - 8, 0), source="經 §4 出迎于門外", status="derived",
          derivation="8 尺 south of the 門")
    gw = r.gate_width_chi / 2
    left = [(-(gw + 4), gate_y + 8 + FILE * k, 0) for k in range(6)][::-1]
    b.put("hall.gate_left", "門左", left[0], facing="東面", source="經 §4 眾賓皆入門左東面北上",
          status="derived", slots=left,
          derivation="inside the gate on the west (left of one entering northward); a N–S file facing east, north end senior")
    b.put("hall.gate_right", "門右", (gw + 4, gate_y + 8, 0), facing="西面", source="經 §4 主人以賓揖先入",
          commentary="鄭 §4 先入入門右西面", status="derived", derivation="inside the gate on the east, facing west")
    cw = r.court_width_chi
    b.put("hall.court", "庭", (0, gate_y / 2, 0), size=(cw, -gate_y, 0), source="經 §13 中庭; 記61 侯道五十弓",
          commentary="李如圭 堂下至門謂之庭; 鄉射之侯去堂三十丈則庭之深可見", status="assumed",
          derivation=f"from the 堂廉 (y = 0) to the 門 (y = {fmt(gate_y)}); width {fmt(cw)} 尺")


def _tang_things(b: _Builder, h: Hall, rng: dict[str, float]) -> None:
    r = b.r
    fl = h.height
    mat_y = (h.y_dong - 2.5) if h.has_shi else (h.y_dong + h.house_depth) / 2
    mat_why = ("庠: before the 室 wall, 當戶牖之間" if h.has_shi else
               f"序: no 戶牖 (賈 亦當戶牖之處); set north of the 物 (y = {fmt(rng['wu_y'])}) at the back 楣 line")
    mat = 6.0
    b.put("mat.bin", "賓席", (-mat / 2, mat_y, fl), size=(mat, 3, 0.1), facing="南面", source="經 §2 乃席賓南面東上",
          commentary="鄭 §2 不言於戶牖之間者此射於序", status="assumed",
          derivation=f"{mat_why}: y = {fmt(mat_y)}; mat {fmt(mat)} × 3 尺 (記04 蒲筵緇布純: size not stated)")
    for k in range(3):
        b.put(f"mat.zhongbin_{k + 1}", "眾賓席", (-mat / 2 - mat * (k + 1), mat_y, fl), size=(mat, 3, 0.1), facing="南面",
              source="經 §2 眾賓之席繼而西", status="derived",
              derivation=f"the {k + 1}th mat west of the 賓席: x = {fmt(-mat / 2 - mat * (k + 1))}")
    zun_x = 3.0
    b.put("tang.zun", "尊 (兩壺斯禁)", (zun_x, mat_y, fl), size=(4, 1.5, 1.5), facing="北面",
          source="經 §2 尊於賓席之東兩壺斯禁左玄酒皆加勺", commentary="鄭 §2 斯禁禁切地無足者也設尊者北面西曰左",
          status="derived", derivation="east of the 賓席, on its line; 玄酒 in the west jar",
          jars=[(zun_x - 1, mat_y, fl), (zun_x + 1, mat_y, fl)])
    b.put("tang.zun_basket", "篚 (上篚)", (zun_x, mat_y - 2.5, fl), facing="東面", source="經 §2 篚在其南東肆",
          status="derived", derivation="2.5 尺 south of the 尊")
    b.put("mat.dafu", "大夫席 (尊東)", (zun_x + 2 + mat / 2 + 1, mat_y, fl), size=(mat, 3, 0.2), facing="南面",
          source="經 §10 席於尊東", commentary="鄭 §10 明與賓夾尊也不言東上統於尊也; 大夫再重席", status="derived",
          derivation="east of the 尊 (double mat)", present=r.dafu_present)
    b.put("mat.zhuren", "主人席", (h.stairs_x + 3, h.y_mei, fl), size=(3, mat, 0.1), facing="西面",
          source="經 §2 席主人於阼階上西面", status="assumed",
          derivation=f"above the 阼階, 3 尺 east of its line and on the 楣 line y = {fmt(h.y_mei)} (not stated)")
    for k in range(3):
        b.put(f"mat.west_xu_{k + 1}", "西序之席", (-h.xu_x + 2, mat_y - 4 - mat * k, fl), size=(3, mat, 0.1),
              facing="東面", source="記05 西序之席北上", commentary="鄭 眾賓統於賓", status="derived",
              derivation="along the 西序, facing east, the north end senior")
    gong_x = -h.stairs_x + h.stair_width / 2 + 4
    b.put("mat.gong", "工席", (gong_x, 3, fl), size=(10, 3, 0.1), facing="北面", source="經 §11 席工于西階上少東",
          commentary="鄭 §11 言少東者明樂正西側階不欲大東辟射位", status="assumed",
          derivation=f"on the 堂 just east of the top of the 西階: x = {fmt(gong_x)}, 3 尺 in from the 堂廉",
          slots=[(gong_x - 1.5 * FILE + FILE * k, 3, fl) for k in range(4)])
    b.put("pos.yuezheng_above", "樂正 (工西)", (-h.stairs_x, 3, fl), facing="北面", source="經 §11 樂正先升北面立于其西",
          status="derived", derivation="west of the 工席, at the head of the 西階")
    b.put("tang.feng", "豐", (-h.ying_x - 3, h.y_mei, fl), source="經 §33 弟子奉豐升設于西楹之西",
          commentary="鄭 §33 豐形蓋似豆而卑", status="derived", derivation="3 尺 west of the 西楹")
    b.put("tang.bows_guest", "弓 (賓與大夫)", (-h.xu_x + 0.8, h.y_dong, fl), source="經 §15 賓與大夫之弓倚于西序矢在弓下北括",
          status="derived", derivation="leaning on the 西序, arrows below them, nocks north")
    b.put("court.bows_common", "眾弓", (-h.platform_x - 0.5, h.y_mei, 0), source="經 §15 眾弓倚于堂西矢在其上",
          commentary="鄭 §15 上，堂西廉", status="derived", derivation="leaning on the 堂's west edge, arrows on top")
    b.put("tang.bows_host", "弓矢 (主人)", (h.xu_x + 2, h.y_dong, fl), source="經 §15 主人之弓矢在東序東",
          status="derived", derivation="east of the 東序 (on the 東堂)")
    b.put("court.pu", "扑", (-h.stairs_x - h.stair_width / 2 - 2, -0.5, 0), size=(0.3, 3, 0.3),
          source="記23 司射之弓矢與扑倚于西階之西; 記63 楚扑長如笴刊本尺", commentary="鄭 記63 刊其可持處",
          status="derived", derivation=f"west of the 西階, leaning on the 堂; {b.measure('長如笴').derivation}")
    ren3 = b.measure("三仞")
    xun2 = b.measure("二尋")
    b.put("range.jing", "旌", (0, rng["hou_y"] + 0.5, 0), size=(0.2, 0.2, ren3.chi),
          source="記32 杠長三仞以鴻脰韜上二尋; 經 §17 倚旌于侯中", commentary="鄭 記32 杠橦也七尺曰仞八尺曰尋",
          status="stated", derivation=f"pole {ren3.derivation}; sheath {xun2.derivation}; leant on the 侯中",
          sheath_chi=xun2.chi)


def _people_below(b: _Builder, h: Hall) -> None:
    r = b.r
    cw = r.court_width_chi / 2
    att = [(cw - 8, -20 - FILE * k, 0) for k in range(10)]
    b.put("pos.attendants", "有司位", att[0], facing="西面", source="經 §19 有司左執弣右執弦而授弓 (the host's officers)",
          status="assumed", slots=att,
          derivation=f"no text places them before they act: a N–S file facing west in the east of the 庭, x = {fmt(att[0][0])}")
    dz = [(-(h.platform_x + 8), -8 - FILE * k, 0) for k in range(6)]
    b.put("pos.dizi", "弟子位", dz[0], facing="東面", source="經 §15 命弟子納射器",
          commentary="鄭 §15 弟子賓黨之少者也", status="assumed", slots=dz,
          derivation=f"the 賓's juniors wait by the 堂西, a N–S file facing east from x = {fmt(dz[0][0])} (not stated)")
    b.put("pos.bin_below", "賓位 (西階西當西序)", (-h.xu_x, -3, 0), facing="東面", source="經 §8 賓降東面立于西階西當西序",
          commentary="鄭 §5 (賓反位) 西階西當西序", status="derived",
          derivation=f"on the 西序 line x = {fmt(-h.xu_x)}, 3 尺 south of the 堂廉")
    b.put("pos.dafu_below", "大夫位 (賓南)", (-h.xu_x, -6, 0), facing="東面", source="經 §10 大夫降立于賓南",
          status="derived", derivation="3 尺 south of the 賓")
    b.put("pos.zhuren_below", "主人位 (阼階東)", (h.stairs_x + h.stair_width / 2 + 3, -3, 0), facing="西面",
          source="經 §5 主人阼階東疑立", status="derived", derivation="east of the foot of the 阼階")


@lru_cache(maxsize=64)
def _build(reading: Reading) -> Layout:
    b = _Builder(reading)
    h = build_hall(reading)
    _building(b, h)
    rng = _range(b, h)
    _court(b, h, rng)
    _tang_things(b, h, rng)
    _people_below(b, h)
    return Layout(reading, h, b.places)


def build_layout(reading: Reading | str | None = None) -> Layout:
    """All places under a reading (a preset name, a TOML path, a Reading or None)."""
    return _build(readings_mod.get(reading))
