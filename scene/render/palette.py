"""The colours of the scene: a period palette (not a chart's).

Vermilion 楹 (丹楹), dark grey tiles, a rammed-earth 堂 (夯土) a little paler
on its swept floor, undyed hemp cloth for the 侯 with its two 正 in 朱 and 綠
(鄭 on 周禮 射人: 二正 朱綠), bronze vessels, lacquer red-black wood.  Actors
take their colours from ``assets/cast.toml``.
"""
from __future__ import annotations

#: material → '#rrggbb'
COLOURS: dict[str, str] = {
    # ground
    "field": "#a3a57c",          # outside the court walls: grass and dust
    "court": "#c7b48e",          # 庭: beaten earth
    "court_path": "#cdbd9a",
    "houdao": "#f6f1e2",         # the 侯道 axis, a chalk line (also what the plan test measures)
    "shadow_ground": "#a08c69",
    "shadow_tang": "#a98c62",
    # the hall
    "tang_side": "#a98560",      # rammed earth 堂 sides
    "tang_floor": "#d2b88e",     # swept floor
    "tang_edge": "#8e7152",      # the 廉 (edge) stones
    "steps": "#b39066",
    "pillar": "#b8321e",         # 丹楹, vermilion
    "pillar_base": "#6f6a5e",
    "timber": "#4b3222",         # purlins 庪 楣 棟 and rafters
    "wall": "#e6dcc5",           # lime-plastered 序 and walls
    "wall_base": "#9a8668",
    "roof": "#3c3e44",           # grey-black tiles
    "roof_ridge": "#2a2b30",
    "roof_tile": "#45474e",      # the round cover tiles (筒瓦), a little lighter than the slope they lie on
    "roof_under": "#6b5140",
    "door": "#5a3a26",
    "window": "#7b6a4f",
    "court_wall": "#b09371",     # rammed-earth 垣
    "coping": "#4a4b50",
    "gate": "#6a4128",
    # the range
    "hou_cloth": "#ece2c8",      # undyed 布
    "hou_centre": "#f3ead4",
    "dan": "#e08a62",            # 丹 (鄭 記25 丹淺於赤): the ground of the 侯's painted sides
    "zhu": "#a8241c",            # 朱, the 采侯's 雲氣 (賈 朱綠)
    "lu": "#3d7a4d",             # 綠
    "deer_coat": "#a8703f",      # the 獸侯's heads 毛物之: in their coats' colours
    "deer_muzzle": "#efe4cf",
    "antler": "#6b5134",
    "boar_coat": "#4d3d33",
    "boar_snout": "#9a6a5a",
    "tusk": "#f4efe2",
    "paint_black": "#1e1a18",
    "xiu": "#4a2018",            # 髤 (鄭 赤黑漆也): the 楅 and the 鹿中
    "ochre": "#c9a03a",
    "post": "#6a482c",
    "rope": "#bba47a",
    "fa": "#7c5533",             # 乏, leather screen
    "wu_mark": "#a12a1c",        # 物, painted cross
    # furniture
    "bronze": "#7f6a42",
    "bronze_dark": "#5b4b30",
    "water": "#6d8fa0",
    "basket": "#b79a5c",         # 篚, bamboo
    "lacquer_red": "#8e2a1f",
    "lacquer_black": "#2c1d18",
    "stone": "#56605a",          # 磬
    "mat": "#cdb986",            # 蒲筵
    "mat_border": "#2a2420",     # 緇布純
    "wood": "#7b5533",
    "meat": "#a4553f",
    "counter": "#e0cc8e",        # 筭, bamboo counters
    "flag_pole": "#5a3f27",
    "feather": "#eceae3",        # 鴻脰 sheath
    "flag_red": "#c0392b",
    "bow": "#6a3f22",
    "string": "#efe6cf",
    "arrow": "#c9ac72",
    "fletch": "#f4f2ec",
    # people
    "skin": "#e2b993",
    "hair": "#1d1b1c",
    "shoe": "#2a2522",
    "sash_default": "#f1ead8",   # 大帶 of undyed silk
    "band_red": "#c0392b",
    "band_black": "#1f1f22",
    # page
    "sky_top": "#c9d7e3",
    "sky_bottom": "#efe9dc",
    "paper": "#f3eee1",
    "ink": "#1e1b18",
    "ink_soft": "#5b5147",
    "rule": "#8c7b66",
}

#: the sun: from the south-south-east and fairly high (a morning rite: 朝服), warm
SUN_DIR = (-0.38, 0.62, -0.69)     # direction the light travels (towards the ground)
SUN_COLOUR = (1.0, 0.95, 0.86)
FILL_COLOUR = (0.80, 0.86, 1.0)

#: the light rig of every picture (the stills light it, the browser pack bakes it into vertex colours):
#: (direction towards the light, colour, intensity) — the sun, a cool fill from above the SE, a weak back light
LIGHTS = ((tuple(-c for c in SUN_DIR), SUN_COLOUR, 0.78),
          ((0.4, -0.3, 0.85), FILL_COLOUR, 0.34),
          ((-0.5, 0.6, 0.4), (1.0, 0.97, 0.92), 0.18))
#: the lit material: ambient and diffuse weights
AMBIENT, DIFFUSE = 0.42, 0.72


def c(name: str) -> str:
    return COLOURS[name]
