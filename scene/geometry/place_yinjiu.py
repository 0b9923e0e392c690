"""The 庠 of 鄉飲酒禮 (chapter 4): the hall with its 室 and 東房, the 戶 and the 牖, the 尊 between them, the
mats, the 洗, the 磬 階間縮霤 and the court — placed from chapter 4's own text and its commentaries; no range
(射 is not in chapter 4).

The building itself (堂, 楹, 序, 榮, the stairs and their treads, the beams) is chapter 5's arithmetic
(:func:`.place_hall.building`, which cites 鄉射禮's passages: they are marked 鄉射禮 here).  What differs:

* **堂深.**  賈疏 §3 (主人…當楣北面再拜): 楣前梁也者對後梁為室戶上 — the 室's 戶 is under the *back* 楣, so
  the wall of the 房 and 室 stands 3 架 in from the 堂廉, not under the 棟 (2 架) as chapter 5's 庠 reading
  has it; the 堂深 that sets the 洗 (賈疏 §2 堂深謂從堂廉北至房屋之壁) is then 3 架.
* **房戶間.**  賈疏 §8 房戶間當兩楹之北: the 尊 stands north of the 兩楹間, between the 東房's wall and the 室戶.
* **席.**  鄭 §2 賓席牖前南面; 賈疏 §24 賓在戶牖之間酒尊又在戶東席此二者 (公, 大夫) 又在酒尊之東; 鄭 §2 席眾賓於
  賓席之西不屬者不相續也.  Three 眾賓 mats, not joined, west of the 賓's, inside the 西序: that fixes how far
  east the 賓, the 戶 and the 尊 sit (the arithmetic is in each place's derivation).
* **磬.**  記21 磬階間縮霤北面鼓之; 鄭 縮從也霤以東西為從…射則磬在東: between the stairs, hung along the
  drip line, struck from the south; the 笙 stand south of the one who strikes it (經 §12 笙入堂下磬南北面立;
  賈疏 在擊磬者之南北面也).
"""
from __future__ import annotations

import dataclasses

from . import place_hall
from .builder import FILE, PlaceBuilder, fmt
from .hall import Hall

#: the numbers no text gives (each place's derivation says where it uses them), in 尺
MAT = 6.0          # a mat's length, as chapter 5's (賈疏 記 蒲筵…倍尋曰常 would make it 16: see mat.bin)
MAT_DEEP = 3.0
ZUN_LONG = 4.0     # the 斯禁 with its two 壺, E–W
HU_WIDE = 3.0      # the 室戶
CLEAR = 1.0        # between the 禁 and the 戶 or the 房 wall; between mats 不屬 (not joined)
XU_CLEAR = 2.0     # the last 眾賓 mat inside the 西序
COURT_DEEP = 90.0  # 堂廉 to the 門: no number (三雉, as the 榮間)
#: 鄉射禮's passages in what the building cites
_FIVE = "鄉射禮 "


def back_lintel_y(h: Hall) -> float:
    """The back 楣 (後楣): 3 架 of the five-架 house in from the 堂廉."""
    return 3 * h.house_depth / 4


def yinjiu_hall(h: Hall) -> Hall:
    """Chapter 5's hall of this reading with the 堂深 to the back 楣 (賈疏 §3 後梁為室戶上)."""
    return dataclasses.replace(h, tang_depth=back_lintel_y(h))


def build(b: PlaceBuilder, h: Hall) -> None:
    """Every place of chapter 4's 庠 under the reading of ``b`` (``h`` from :func:`yinjiu_hall`)."""
    place_hall.building(b, h, rooms=False)
    for pid, p in list(b.places.items()):       # the building as chapter 5 cites it: name the chapter
        if p.source.startswith(("經", "記")):
            b.places[pid] = dataclasses.replace(p, source=_FIVE + p.source)
    _depth(b, h)
    xs = _rooms(b, h)
    _mats(b, h, xs)
    _court(b, h)


def _depth(b: PlaceBuilder, h: Hall) -> None:
    d, y = h.house_depth, h.tang_depth
    b.places["hall.tang_depth"] = dataclasses.replace(
        b.places["hall.tang_depth"], source="經 §2 設洗于阼階東南南北以堂深",
        commentary="賈疏 §2 堂深謂從堂廉北至房屋之壁; 賈疏 §3 楣前梁也者對後梁為室戶上", status="derived",
        size_chi=(0, y, 0), xyz_chi=(0, y / 2, h.height),
        derivation=f"堂廉 to the wall of 房 and 室 under the back 楣: 3 架 of {fmt(d / 4)} = {fmt(y)} 尺 "
                   f"(chapter 5's 庠 reading puts the wall under the 棟, {fmt(d / 2)} 尺)")
    b.put("hall.back_lintel", "後楣", (0, y, h.z_mei), size=(2 * h.rong_x, 0, 0),
          source="經 §3 主人阼階上當楣北面再拜", commentary="賈疏 §3 楣前梁也者對後梁為室戶上; 鄭 (鄉射記) 是制五架之屋也",
          status="derived", derivation=f"the back 楣 mirrors the front one: y = 3 架 = {fmt(y)} 尺, z = {fmt(h.z_mei)} 尺")


def _rooms(b: PlaceBuilder, h: Hall) -> dict[str, float]:
    """室, 東房, 戶, 牖 and the 尊 between them; returns the x of each (尺)."""
    d, wall, fl = h.house_depth, h.tang_depth, h.height
    # from the west: three 眾賓 mats, not joined, then the 賓's; then the 戶, the 禁 and the 房's wall
    zb3_w = -h.xu_x + XU_CLEAR
    bin_x = zb3_w + 3 * (MAT + CLEAR) + MAT / 2
    hu_x = bin_x + MAT / 2 + CLEAR + HU_WIDE / 2
    zun_x = hu_x + HU_WIDE / 2 + CLEAR + ZUN_LONG / 2
    fang_w = zun_x + ZUN_LONG / 2 + CLEAR
    chain = (f"西序 {fmt(-h.xu_x)} + {fmt(XU_CLEAR)} clear + 3 眾賓 mats ({fmt(MAT)}, {fmt(CLEAR)} apart: 不屬) + "
             f"{fmt(CLEAR)} → 賓席 centre x = {fmt(bin_x)}; + {fmt(MAT / 2)} + {fmt(CLEAR)} → 戶 ({fmt(HU_WIDE)} wide) "
             f"centre {fmt(hu_x)}; + {fmt(HU_WIDE / 2)} + {fmt(CLEAR)} → 禁 ({fmt(ZUN_LONG)} long) centre {fmt(zun_x)}; "
             f"+ {fmt(ZUN_LONG / 2)} + {fmt(CLEAR)} → 房's west wall {fmt(fang_w)}")
    between = (hu_x + HU_WIDE / 2 + fang_w) / 2
    ok = abs(between) < h.ying_x
    b.put("hall.shi", "室", ((-h.xu_x + fang_w) / 2, (wall + d) / 2, fl),
          size=(fang_w + h.xu_x, d - wall, h.z_mei - fl), source="經 §2 尊兩壺于房戶間",
          commentary="鄭 (鄉射 §20) 鄉學 庠 有堂有室; 賈疏 §3 後梁為室戶上; 東房西室 (記07 左房, 鄭 左在東)",
          status="assumed",
          derivation=f"behind the 堂 from the back 楣 (y = {fmt(wall)}) to the back wall (y = {fmt(d)}); x from the "
                     f"西序 {fmt(-h.xu_x)} to the 房 {fmt(fang_w)} ({chain})")
    b.put("hall.fang", "東房 (左房)", ((fang_w + h.xu_x) / 2, (wall + d) / 2, fl),
          size=(h.xu_x - fang_w, d - wall, h.z_mei - fl), source="記07 薦脯五挺橫祭于其上出自左房",
          commentary="鄭 記07 左在東陽也…房饌陳處也; 賈疏 §2 凡設尊…皆在房戶之間", status="assumed",
          derivation=f"east of the 室: x from {fmt(fang_w)} to the 東序 {fmt(h.xu_x)}, y from {fmt(wall)} to {fmt(d)}")
    b.put("hall.door", "戶 (室戶)", (hu_x, wall, fl), size=(HU_WIDE, 0.5, 7), facing="南面",
          source="經 §2 尊兩壺于房戶間", commentary="賈疏 §24 賓在戶牖之間酒尊又在戶東; 賈疏 §3 後梁為室戶上",
          status="assumed", derivation=f"in the 室's front wall under the back 楣 (y = {fmt(wall)}): {chain}")
    b.put("hall.window", "牖", (bin_x, wall, fl + 2), size=(3, 0.5, 3), facing="南面", source="經 §2 乃席賓主人介",
          commentary="鄭 §2 賓席牖前南面; 賈疏 §24 賓在戶牖之間", status="derived",
          derivation=f"behind the 賓席 (牖前), west of the 戶: x = {fmt(bin_x)}, in the wall y = {fmt(wall)}")
    zy = wall - 1.0
    b.put("tang.zun", "尊 (兩壺斯禁)", (zun_x, zy, fl), size=(ZUN_LONG, 1.5, 1.5), facing="北面",
          source="經 §2 尊兩壺于房戶間斯禁有玄酒在西", commentary="賈疏 §8 房戶間當兩楹之北; 鄭 §2 斯禁禁切地無足者",
          status="derived", jars=[(zun_x - 1, zy, fl), (zun_x + 1, zy, fl)],
          derivation=f"between the 戶 and the 房: x = {fmt(zun_x)}; the 房戶間 (centre {fmt(between)}) "
                     f"{'lies' if ok else 'does NOT lie'} north of the 兩楹間 (±{fmt(h.ying_x)}), as 賈 says; "
                     f"1 尺 off the wall (y = {fmt(zy)}); 玄酒 in the west jar")
    b.put("tang.zun_basket", "篚 (禁南)", (zun_x, zy - 2.5, fl), facing="東面", source="經 §2 設篚于禁南東肆",
          status="derived", derivation="2.5 尺 south of the 禁; 東肆: laid from west to east")
    b.put("tang.jian_from", "薦所出 (東房)", ((fang_w + h.xu_x) / 2, wall - 2.0, fl),
          source="記07 薦脯五挺橫祭于其上出自左房", commentary="鄭 記07 房饌陳處也", status="assumed",
          derivation=f"in front of the 東房, 2 尺 south of its wall (y = {fmt(wall - 2)})")
    return {"bin": bin_x, "zun": zun_x, "fang": fang_w, "hu": hu_x, "zb3_w": zb3_w}


def _mats(b: PlaceBuilder, h: Hall, xs: dict[str, float]) -> None:
    fl, y = h.height, h.tang_depth - 2.5
    b.put("mat.bin", "賓席", (xs["bin"], y, fl), size=(MAT, MAT_DEEP, 0.1), facing="南面",
          source="經 §2 乃席賓主人介", commentary="鄭 §2 賓席牖前南面; 賈疏 記02 蒲筵…倍尋曰常丈六尺也 (not kept: "
          "four mats of 16 尺 and their gaps outrun the 序間)", status="derived",
          derivation=f"before the 牖 (x = {fmt(xs['bin'])}), 2.5 尺 off the wall (y = {fmt(y)}); "
                     f"mat {fmt(MAT)} × {fmt(MAT_DEEP)} 尺 as chapter 5's (assumed)")
    for k in range(3):
        x = xs["bin"] - (MAT + CLEAR) * (k + 1)
        b.put(f"mat.zhongbin_{k + 1}", "眾賓席", (x, y, fl), size=(MAT, MAT_DEEP, 0.1), facing="南面",
              source="經 §2 眾賓之席皆不屬焉", commentary="鄭 §2 席眾賓於賓席之西不屬者不相續也; 賈疏 猶統賓為位同南面",
              status="derived", derivation=f"the {('first', 'second', 'third')[k]} west of the 賓席, {fmt(CLEAR)} 尺 "
                                           f"between mats "
                                           f"(不屬; the gap ours): x = {fmt(x)}")
    zx = xs["zun"] + ZUN_LONG / 2 + CLEAR + MAT / 2
    b.put("mat.zunzhe", "遵者席 (公三重大夫再重)", (zx, y, fl), size=(MAT, MAT_DEEP, 0.3), facing="南面",
          source="經 §24 席于賓東公三重大夫再重", commentary="賈疏 §24 賓在戶牖之間酒尊又在戶東席此二者又在酒尊之東",
          status="derived", derivation=f"east of the 尊, {fmt(CLEAR)} 尺 clear: x = {fmt(zx)}")
    for pid, name, sx, face, com in (("mat.zhuren", "主人席", 1, "西面", "鄭 §2 主人席阼階上西面"),
                                     ("mat.jie", "介席", -1, "東面", "鄭 §2 介席西階上東面")):
        x = sx * (h.stairs_x + 3)
        b.put(pid, name, (x, h.y_mei, fl), size=(MAT_DEEP, MAT, 0.1), facing=face, source="經 §2 乃席賓主人介",
              commentary=com, status="assumed",
              derivation=f"above the {'阼階' if sx > 0 else '西階'}, 3 尺 {'east' if sx > 0 else 'west'} of its line "
                         f"(x = {fmt(x)}), on the 楣 line y = {fmt(h.y_mei)} (as chapter 5's 主人席)")
    gx = -h.stairs_x + h.stair_width / 2 + 4
    b.put("mat.gong", "工席", (gx, MAT_DEEP / 2, fl), size=(10, MAT_DEEP, 0.1), facing="北面",
          source="經 §11 設席于堂廉東上", commentary="鄭 §11 側邊曰廉…工席在階東 (西階東; 樂正 立于西階東)",
          status="derived", slots=[(gx + 1.5 * FILE - FILE * k, MAT_DEEP / 2, fl) for k in range(4)],
          derivation=f"along the 堂廉 (y = {fmt(MAT_DEEP / 2)}) east of the 西階: x = {fmt(gx)}; 東上: the eldest "
                     "east; four 工 (經 §11 工四人) 3 尺 apart (ours)")
    b.put("pos.yuezheng_above", "樂正 (西階東)", (-h.stairs_x + h.stair_width / 2 + 0.5, 2, fl), facing="北面",
          source="經 §11 樂正先升立于西階東", commentary="鄭 §11 (燕禮) 樂正先升北面", status="derived",
          derivation="on the 堂 just east of the head of the 西階, west of the 工席")


def _court(b: PlaceBuilder, h: Hall) -> None:
    d = h.tang_depth
    xy = (h.rong_x, -d)
    b.put("court.xi", "洗", (*xy, 0), size=(3, 3, 2), source="經 §2 設洗于阼階東南南北以堂深東西當東榮",
          commentary="鄭 §2 榮屋翼; 賈疏 §2 堂深謂從堂廉北至房屋之壁…假令堂深三丈洗亦去堂三丈", status="derived",
          derivation=f"south of the 堂廉 by the 堂深 {fmt(d)} 尺 → y = {fmt(-d)}; on the 東榮 x = {fmt(h.rong_x)}")
    b.put("court.water", "水", (xy[0] + 3, xy[1], 0), source="經 §2 水在洗東", status="assumed",
          derivation="east of the 洗; 3 尺 (not stated)")
    b.put("court.xi_basket", "篚 (洗西)", (xy[0] - 3, xy[1], 0), facing="南面", source="經 §2 篚在洗西南肆",
          status="assumed", derivation="west of the 洗; 3 尺 (not stated); 南肆 laid N–S")
    liu = -h.overhang
    b.put("court.qing", "磬 (特縣)", (0, liu, 0), size=(5, 1, 4), facing="南面", source="記21 磬階間縮霤北面鼓之",
          commentary="鄭 記21 縮從也霤以東西為從…大夫而特縣…射則磬在東; 賈疏 §12 磬既南面", status="derived",
          derivation=f"階間: midway between the stairs (±{fmt(h.stairs_x)}) → x = 0; under the 霤, where the eaves "
                     f"drip ({fmt(h.overhang)} 尺 out from the 堂廉: 階當霤) → y = {fmt(liu)}; its frame along "
                     "the 霤, east–west (縮霤)")
    b.put("pos.qing_player", "擊磬者", (0, liu - 2, 0), facing="北面", source="記21 磬階間縮霤北面鼓之",
          commentary="賈疏 §12 磬既南面其南當有擊磬者", status="derived",
          derivation=f"south of the 磬, facing north: 2 尺 (ours) → y = {fmt(liu - 2)}")
    sy = liu - 2 - FILE
    b.put("court.sheng", "笙 (磬南)", (0, sy, 0), facing="北面", source="經 §12 笙入堂下磬南北面立",
          commentary="賈疏 §12 在擊磬者之南北面也; 鄭 §12 笙三人和一人凡四人", status="derived",
          slots=[(FILE * (k - 1.5), sy, 0) for k in range(4)],
          derivation=f"a file {fmt(FILE)} 尺 south of the one who strikes the 磬 (y = {fmt(sy)}), the four "
                     f"{fmt(FILE)} 尺 apart east–west (ours)")
    gate_y = -COURT_DEEP
    b.put("hall.gate", "門", (0, gate_y, 0), size=(10, 2, 12), facing="北面", source="經 §3 主人一相迎于門外",
          commentary="賈疏 §3 鄉大夫行鄉飲酒在庠學唯有一門", status="assumed",
          derivation=f"{fmt(COURT_DEEP)} 尺 south of the 堂廉 (no number: 三雉, as the 榮間); 10 尺 wide")
    b.put("hall.outside_gate", "門外", (0, gate_y - 8, 0), source="經 §3 主人一相迎于門外", status="derived",
          derivation="8 尺 south of the 門, on its axis")
    b.put("hall.gate_right", "門右 (門內東西面)", (4, gate_y + 6, 0), facing="西面", source="經 §3 主人揖先入",
          commentary="鄭 §3 先入門而西面; 賈疏 §3 至內霤西向待賓", status="derived",
          derivation="inside the 門, east of its axis, facing west (4 尺 east, 6 尺 in: ours)")
    left = [(-4 - FILE, gate_y + 6 + FILE * k, 0) for k in range(8)][::-1]
    b.put("hall.gate_left", "門左 (入門左東面北上)", left[0], facing="東面", source="經 §3 眾賓皆入門左北上",
          commentary="鄭 §3 皆入門西東面", status="derived", slots=left,
          derivation=f"inside the 門, west of its axis, a N–S file facing east, {fmt(FILE)} 尺 apart, north end "
                     "senior (the distances ours)")
    b.put("hall.court", "庭", (0, gate_y / 2, 0), size=(2 * h.rong_x + 30, COURT_DEEP, 0),
          source="經 §3 主人與賓三揖至于階", status="assumed",
          derivation=f"from the 堂廉 to the 門 (y = {fmt(gate_y)}); 15 尺 beyond each 榮")
    b.put("court.bei", "碑", (0, gate_y / 3, 0), size=(1, 1, 6), source="經 §3 主人與賓三揖至于階",
          commentary="鄭 §3 三揖者將進揖當陳揖當碑揖; 李如圭 三分庭一在北設碑", status="derived",
          derivation=f"a third of the 庭 from the 堂: y = {fmt(gate_y)} / 3 = {fmt(gate_y / 3)}")
    b.put("pos.bin_below", "賓位 (當西序東面)", (-h.xu_x, -h.stair_run - 4, 0), facing="東面",
          source="經 §4 賓復位當西序東面", commentary="鄭 §4 言復位者明始降時位在此", status="derived",
          derivation=f"on the 西序 line x = {fmt(-h.xu_x)}, 4 尺 south of the foot of the stairs")
    b.put("pos.jie_below", "介位 (賓南)", (-h.xu_x, -h.stair_run - 4 - FILE, 0), facing="東面",
          source="經 §8 介降立于賓南", status="derived", derivation=f"{fmt(FILE)} 尺 south of the 賓's place")
    b.put("pos.zhuren_below", "主人位 (阼階東西面)", (h.stairs_x + h.stair_width / 2 + 2, -h.stair_run - 2, 0),
          facing="西面", source="經 §5 主人復阼階東西面", status="derived",
          derivation="east of the foot of the 阼階, facing west")
    mid = gate_y / 2
    b.put("pos.sizheng_zhi", "司正奠觶 (階間當中庭)", (0, mid, 0), facing="北面",
          source="經 §16 司正實觶降自西階階間北面坐奠觶", commentary="鄭 §16 階間北面東西節也其南北當中庭",
          status="derived", derivation=f"x = 0 between the stairs; y = half the 庭 = {fmt(mid)}")
    b.put("pos.sizheng", "司正位 (觶南)", (0, mid - 3, 0), facing="北面", source="經 §16 退立于觶南",
          status="derived", derivation="3 尺 south of the 觶")
    b.put("pos.yuezheng_below", "樂正 (西階東北面)", (-h.stairs_x + h.stair_width / 2 + 2, -h.stair_run - 2, 0),
          facing="北面", source="經 §14 樂正告于賓乃降", commentary="鄭 §14 降立西階東北面", status="derived",
          derivation="on the ground east of the foot of the 西階, facing north")
