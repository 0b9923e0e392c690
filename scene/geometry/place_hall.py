"""The building's places: the 堂 and its parts, stairs and their treads, 楹, 序, 榮, the beams, 室 and 房."""
from __future__ import annotations

from .builder import PlaceBuilder, fmt
from .hall import Hall


def building(b: PlaceBuilder, h: Hall, rooms: bool = True) -> None:
    """The building's places; ``rooms``: the 室, 房, 戶, 牖 and where the 薦 come from as chapter 5 places them
    (a chapter placing its own, chapter 4's 庠, leaves them out)."""
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
        # 盡階不升堂: the highest 等 below the 堂 (the last 等 is flush with the 堂 itself)
        k = max(1, h.steps - 1)
        b.put(f"hall.{side}_steps_last", f"{zh} 盡階", (x, -h.tread * (h.steps - k + 0.5), h.tread_top(k)),
              source="經 §12 笙一人盡階不升堂受爵; §30 升自西階盡階不升堂", status="derived",
              derivation=f"等 {k} of {h.steps}: the highest one below the 堂 (the {h.steps}th is level with it), "
                         f"z = {fmt(h.tread_top(k))} 尺")
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

    if not rooms:
        return
    # where the 薦 come from: 記 醢以豆出自東房; a 序 has no 房 (鄭 §20: 序無室), so there the south end of
    # the 東序 on the 堂 (序端, where the 主人 also sets his 爵 in §6), the nearest to where a 房 would be
    if h.has_shi:
        fx, fy = (8 + h.xu_x) / 2, h.y_dong - 2.0
        where_from = f"in front of the 房 door: x = {fmt(fx)}, 2 尺 south of its wall (y = {fmt(fy)})"
    else:
        fx, fy = h.xu_x - 3.0, 3.0
        where_from = (f"a 序 has no 房: inside the south end of the 東序 (序端), 3 尺 west of it (x = {fmt(fx)}), "
                      f"3 尺 from the 堂廉")
    b.put("tang.jian_from", "薦所出 (東房)", (fx, fy, h.height), source="記08 薦脯用籩…醢以豆出自東房",
          derivation=where_from, status="assumed")

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
