"""The range: 侯道 from its end, the 侯 and its parts (記61), the 乏 (參侯道, 西三丈 / 去侯北十丈), the 物 (記23)."""
from __future__ import annotations

import math

from .builder import PlaceBuilder, fmt
from .hall import Hall


def shooting_range(b: PlaceBuilder, h: Hall) -> dict[str, float]:
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
    # the painting (記25 凡侯…士布侯畫以鹿豕凡畫者丹質, read with 鄭 and 賈; meshes/hou.py draws it)
    third = zhong.chi / 3
    if r.target_face == "采侯二正":
        b.put("target.face", "正", (0, hou_y - 0.05, centre_z), size=(third, 0, third), facing="北面",
              source="記25 凡侯…士布侯畫以鹿豕 (燕射); 鄭 記25 鄉射及賓射當張采侯二正",
              commentary="賈 記25 五十步侯朱綠二正; 賈 若賓射之侯則三分其侯正居一焉; 鄭 梓人注 正之方外如鵠內二尺; "
                         "朱 inside 綠: the order of 鄭's 周禮·射人 注 (the 五正 朱 at the centre), not in this project's texts", status="derived",
              derivation=f"outer = 中/3 = {fmt(zhong.chi)}/3 = {fmt(third)} 尺 in 綠, inner 2 尺 in 朱", inner_chi=2.0,
              colours=["lu", "zhu"])
        clouds, cloud_src = ["zhu", "lu"], "賈 記25 五十步侯朱綠二正者還畫此二色雲氣於其側"
    else:
        b.put("target.face", "鹿豕", (0, hou_y - 0.05, centre_z), size=(third, 0, third), facing="北面",
              source="記25 士布侯畫以鹿豕凡畫者丹質",
              commentary="鄭 記25 熊麋虎豹鹿豕皆正面畫其頭象於正鵠之處耳…君畫一臣畫二…其畫之皆毛物之; "
                         "賈 若燕射之侯則獸居一焉; 鄭 其地不采者白布也", status="derived",
              derivation=f"a deer's and a boar's head, full face, in the place of the 正: the middle third of the 中, "
                         f"{fmt(third)} 尺 square, on the 布's white; the deer on the 侯's left (west) is ours",
              heads=["deer", "boar"])
        clouds, cloud_src = ["hou_cloth"], "no source colours the 獸侯's clouds: ours, left in the 布's white"
    b.put("target.clouds", "雲氣 (丹質)", (0, hou_y - 0.05, centre_z), facing="北面", source="記25 凡畫者丹質",
          commentary="鄭 記25 賓射之侯燕射之侯皆畫雲氣於側以為飾必先以丹采其地丹淺於赤; " + cloud_src,
          derivation="the 側 read as the two 躬 beside the 中 (ours; the 舌 stay plain 布): a 丹 ground with a row of "
                     "S-shaped curls (their shape ours)", status="derived", ground="dan", colours=clouds)

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
    return {"wu_y": wu_y, "hou_y": hou_y, "fa_x": fa_x, "fa_y": fa_y, "hou_top": top, "hou_centre_z": centre_z,
            "hou_half_width": shang.chi / 2}
