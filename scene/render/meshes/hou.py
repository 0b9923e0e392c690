"""The 侯 as painted cloth: its strips (上个/上舌, 躬, 中, 躬; the 下个 is drawn with the pose), the 正 or the
painted heads on the 中, the 雲氣 on its sides, and the 植 with the 上綱.

What the painting follows (each with its place in the layout, ``target.face`` and ``target.clouds``):

* 記25 凡侯…士布侯畫以鹿豕，凡畫者丹質 — text: a 士's 侯 is of 布; whatever is painted has a 丹 ground.
* 鄭 記25 鄉射及賓射當張采侯二正 (reading ``采侯二正``, the default); 賈 五十步侯朱綠二正 and 梓人注 正之方外如鵠內二尺:
  the 正 is a square a third of the 中 wide (賈 三分其侯正居一焉), 綠 outside, 朱 inside, 2 尺 (commentary;
  朱 at the centre follows 鄭's 周禮·射人 注, which this project's texts do not carry).
* 鄭 記25 熊麋虎豹鹿豕皆正面畫其頭象於正鵠之處耳…君畫一臣畫二 (reading ``獸侯``): a deer's and a boar's head,
  painted full face, in the place of the 正 (the middle third of the 中); 毛物之 — in their coats' colours.
* 鄭 記25 賓射之侯燕射之侯皆畫雲氣於側以為飾必先以丹采其地; 賈 五十步侯朱綠二正者還畫此二色雲氣於其側: 雲氣 in 朱
  and 綠 on a 丹 ground.  *Ours*: that the 側 are the two 躬 beside the 中 (the 舌 stay plain 布); the clouds'
  shape (an S of two curls); under the 獸侯, whose clouds no source colours, the curls left in the 布's white;
  which head is on which side (the deer on the 侯's left, the west).

Units are 尺, like the rest of the static layer.  Paint lies on the north face (侯以鄉堂為面) as flat layers a
few hundredths of a 尺 apart, so no two coincide in depth.
"""
from __future__ import annotations

import math

import numpy as np

from ...geometry.layout import Layout
from ..palette import COLOURS as C
from ..shapes import Batch, Mesh, _ccw, _ear_clip, box, frustum, rod  # noqa: PLC2701 — the one triangulator the package has

#: the painting's layers in front of the cloth's north face (尺)
LAYER = 0.03


def on_face(poly2d, x0: float, yf: float, z0: float) -> Mesh:
    """A flat polygon (u east, v up) on the plane y = yf, wound and lit facing north."""
    poly = _ccw(np.asarray(poly2d, float))
    tris = np.array(_ear_clip(poly), np.int64).reshape(-1, 3)
    pts = np.column_stack([x0 + poly[:, 0], np.full(len(poly), yf), z0 + poly[:, 1]])
    return _north(pts, tris)


def ribbon(path2d, width: float, x0: float, yf: float, z0: float) -> Mesh:
    """A painted stroke of constant width along a polyline (u, v), on the plane y = yf."""
    p = np.asarray(path2d, float)
    d = np.gradient(p, axis=0)
    d /= np.linalg.norm(d, axis=1, keepdims=True) + 1e-12
    n = np.column_stack([-d[:, 1], d[:, 0]]) * width / 2
    side = np.vstack([p + n, p - n])
    k = len(p)
    i = np.arange(k - 1)
    tris = np.vstack([np.column_stack([i, i + 1, k + i]), np.column_stack([i + 1, k + i + 1, k + i])])
    pts = np.column_stack([x0 + side[:, 0], np.full(2 * k, yf), z0 + side[:, 1]])
    return _north(pts, tris)


def _north(pts: np.ndarray, tris: np.ndarray) -> Mesh:
    """Every triangle turned to face +y (towards the 堂), normals +y."""
    a, b, c = pts[tris[:, 0]], pts[tris[:, 1]], pts[tris[:, 2]]
    back = np.cross(b - a, c - a)[:, 1] < 0
    tris = tris.copy()
    tris[back] = tris[back][:, ::-1]
    return Mesh(pts, np.tile((0.0, 1.0, 0.0), (len(pts), 1)), tris)


def cloud_path(r: float, turns: float = 1.15, n: int = 18) -> np.ndarray:
    """One 雲氣 motif: two curls joined in an S (the second the first turned half round), width ≈ 4r."""
    th = np.linspace(turns * 2 * math.pi, 0.0, n)
    rad = r * (0.25 + 0.75 * (1 - th / th[0]))
    curl = np.column_stack([-r + rad * np.cos(th), rad * np.sin(th)])     # ends at (0, 0), its centre at (−r, 0)
    return np.vstack([curl, -curl[::-1][1:]])


def hou(b: Batch, lay: Layout) -> None:
    """The 侯 less its 下个: 上个, 躬 painted, 中 with the 正 or the heads, the 植 and 上綱."""
    r = lay.reading
    hou_p = lay["target.hou"]
    y = hou_p.xyz_chi[1]
    t = 0.18
    yf = y + t / 2                       # the north face
    z0 = lay["target.lower_rope"].xyz_chi[2]
    top = z0 + hou_p.size_chi[2]
    clouds = lay["target.clouds"]
    ground = clouds.extra["ground"]

    def strip(pid, colour):
        p = lay[pid]
        w, _, ht = p.size_chi
        b.add(pid, box((w, t, ht), (p.xyz_chi[0], y, p.xyz_chi[2])), colour)

    strip("target.upper_strip", C["hou_cloth"])
    strip("target.centre", C["hou_centre"])
    for pid in ("target.body_upper", "target.body_lower"):
        strip(pid, C[ground])
        _clouds(b, lay[pid], clouds.extra["colours"], yf + LAYER)
    face = lay["target.face"]
    if r.target_face == "采侯二正":
        _zheng(b, face, yf)
    else:
        _heads(b, face, yf)
    px = lay["target.east_post"].xyz_chi[0]
    ph = lay["target.east_post"].size_chi[2]
    for side, sx in (("west", -1), ("east", 1)):
        b.add(f"target.{side}_post", frustum(0.45, 0.38, 0.0, ph, 10).moved(None, (sx * px, y, 0)), C["post"])
    b.add("target.upper_rope", rod((-px, y, top - 0.2), (px, y, top - 0.2), 0.12, 5), C["rope"])


def _clouds(b: Batch, body, colours: list[str], yf: float) -> None:
    """A row of S-curls along one 躬, alternating the reading's colours, a curl's width a little under the
    strip's height."""
    w, _, ht = body.size_chi
    x, _, zc = body.xyz_chi
    r = ht * 0.2
    pitch = 5.2 * r
    n = max(1, int((w - 2 * r) // pitch))
    path = cloud_path(r)
    for k in range(n):
        cx = x - (n - 1) * pitch / 2 + k * pitch
        flip = 1 if k % 2 == 0 else -1                     # alternate the S's sense, as a border does
        b.add("target.clouds", ribbon(path * (1, flip), r * 0.32, cx, yf, zc), C[colours[k % len(colours)]])


def _zheng(b: Batch, face, yf: float) -> None:
    """采侯二正: a square a third of the 中 in 綠, the inner 2 尺 in 朱."""
    _, _, cz = face.xyz_chi
    outer = face.size_chi[0]
    inner = face.extra.get("inner_chi", 2.0)
    sq = lambda s: [(-s / 2, -s / 2), (s / 2, -s / 2), (s / 2, s / 2), (-s / 2, s / 2)]  # noqa: E731
    out_c, in_c = face.extra["colours"]
    b.add("target.face", on_face(sq(outer), 0.0, yf + LAYER, cz), C[out_c])
    b.add("target.face.inner", on_face(sq(inner), 0.0, yf + 2 * LAYER, cz), C[in_c])


def _heads(b: Batch, face, yf: float) -> None:
    """獸侯: the deer's and the boar's heads full face, side by side in the place of the 正 (unit outlines
    below, scaled to half its width each)."""
    _, _, cz = face.xyz_chi
    s = face.size_chi[0] / 2                                # each head fills half the 正's square
    for pid, dx, parts in (("target.face.deer", -s / 2, _DEER_HEAD), ("target.face.boar", s / 2, _BOAR_HEAD)):
        for kind, pts, colour in parts:
            p = np.asarray(pts, float) * s
            yk = yf + LAYER * _DEPTH[colour]
            m = on_face(p, dx, yk, cz) if kind == "poly" else ribbon(p, 0.07 * s, dx, yk, cz)
            b.add(pid, m, C[colour])


#: the heads' paint layers, back to front: antlers behind the face, tusks, eyes and nose in front of it
_DEPTH = {"antler": 1, "deer_coat": 2, "boar_coat": 2, "deer_muzzle": 3, "boar_snout": 3, "tusk": 4,
          "paint_black": 4}


def _mirror(pts):
    return [(-x, y) for x, y in pts]


# full-face heads in a unit square (u right, v up, centre 0): outline, ears, antlers / tusks, eyes, nose
_DEER_FACE = [(0.0, -0.48), (0.1, -0.44), (0.14, -0.2), (0.2, 0.05), (0.22, 0.2), (0.14, 0.3), (-0.14, 0.3),
              (-0.22, 0.2), (-0.2, 0.05), (-0.14, -0.2), (-0.1, -0.44)]
_DEER_EAR = [(0.18, 0.18), (0.46, 0.3), (0.2, 0.3)]
_ANTLER = [(0.08, 0.28), (0.14, 0.4), (0.24, 0.46), (0.32, 0.49)]
_TINE = [(0.14, 0.4), (0.12, 0.49)]
_DEER_HEAD = [
    ("poly", _DEER_EAR, "deer_coat"), ("poly", _mirror(_DEER_EAR), "deer_coat"),
    ("line", _ANTLER, "antler"), ("line", _mirror(_ANTLER), "antler"),
    ("line", _TINE, "antler"), ("line", _mirror(_TINE), "antler"),
    ("poly", _DEER_FACE, "deer_coat"),
    ("poly", [(-0.08, -0.46), (0.08, -0.46), (0.09, -0.3), (-0.09, -0.3)], "deer_muzzle"),
    ("poly", [(0.07, 0.07), (0.13, 0.07), (0.13, 0.12), (0.07, 0.12)], "paint_black"),
    ("poly", [(-0.13, 0.07), (-0.07, 0.07), (-0.07, 0.12), (-0.13, 0.12)], "paint_black"),
    ("poly", [(-0.05, -0.46), (0.05, -0.46), (0.05, -0.4), (-0.05, -0.4)], "paint_black"),
]
_BOAR_FACE = [(-0.34, 0.2), (-0.24, 0.3), (0.24, 0.3), (0.34, 0.2), (0.36, -0.02), (0.24, -0.26), (0.14, -0.34),
              (-0.14, -0.34), (-0.24, -0.26), (-0.36, -0.02)]
_BOAR_EAR = [(0.16, 0.26), (0.36, 0.46), (0.32, 0.2)]
_SNOUT = [(0.13 * math.cos(a), -0.34 + 0.09 * math.sin(a)) for a in np.linspace(0, 2 * math.pi, 12, endpoint=False)]
_TUSK = [(0.11, -0.36), (0.2, -0.34), (0.24, -0.24)]
_BOAR_HEAD = [
    ("poly", _BOAR_EAR, "boar_coat"), ("poly", _mirror(_BOAR_EAR), "boar_coat"),
    ("poly", _BOAR_FACE, "boar_coat"),
    ("poly", _SNOUT, "boar_snout"),
    ("line", _TUSK, "tusk"), ("line", _mirror(_TUSK), "tusk"),
    ("poly", [(0.1, 0.02), (0.17, 0.02), (0.17, 0.08), (0.1, 0.08)], "paint_black"),
    ("poly", [(-0.17, 0.02), (-0.1, 0.02), (-0.1, 0.08), (-0.17, 0.08)], "paint_black"),
    ("poly", [(0.03, -0.37), (0.07, -0.37), (0.07, -0.32), (0.03, -0.32)], "paint_black"),
    ("poly", [(-0.07, -0.37), (-0.03, -0.37), (-0.03, -0.32), (-0.07, -0.32)], "paint_black"),
]
