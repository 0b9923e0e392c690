"""The 楅 (the arrow rest) and the 鹿中 (the counter holder) as the 記 describes them, part by part.

楅 — 記 楅長如笴博三寸厚寸有半龍首其中蛇交韋當; 楅髤橫而奉之 (text).  鄭: 兩端為龍首中央為蛇身相交也…直心背之衣曰當
以丹韋為之 (commentary).  So: a board as long as an arrow (the reading's 笴), 3 寸 wide, 1½ 寸 thick, lacquered
赤黑 (髤, 鄭 赤黑漆也); a dragon's head at each end, the two serpent bodies crossing along the middle, and the 當, a
cover of 丹 leather on the middle of its back.  *Ours*: the heads fit inside the board's length and width (the
arrows, spread over ±1.3 尺 by the rite, lie between them), they rise a little above the board to read; the
snakes' paint (朱 and 綠) and their curve; the 當's length (0.8 尺); two low feet (0.1 尺) so the arrows laid on it
lie level at the height the rite gives them.

鹿中 — 記 鹿中髤前足跪鑿背容八筭釋獲者奉之先首; 士鹿中 (text); 鄭 前足跪者象教擾之獸受負也 (commentary).  So: a deer,
lacquered, its forelegs kneeling (knee on the ground, the cannon folded back under it) and a hollow cut in its
back for the eight 筭.  *Ours*: its size (2.5 尺 long, as the layout's ``court.zhong``), the hind legs standing
(only the forelegs are said to kneel: a beast going down to take a load, 鄭 受負), the antlers, and the hollow's
depth (half a 尺; the 筭, 1.4 尺, stand out of it to be taken).

Parts are in the thing's own frame (尺; +y its front, +x its right, z up); ``props.thing`` scales and turns them.
"""
from __future__ import annotations

import math

import numpy as np

from ..palette import COLOURS as C
from ..shapes import Mesh, box, ellipsoid, frustum, merge, rgb, rod, rot_x, rot_y, tube

Part = tuple[str, Mesh, str]

#: the 楅's arrows lie at this height above its resting point (the rite's collect_arrows: bi z + 0.3 尺)
BI_ARROW_Z = 0.3
BI_FOOT = 0.1                                 # ours: the feet under the board
DANG = 0.8                                    # ours: the 韋當's length along the board

#: the 鹿中's hollow (鑿背), in the deer's frame (尺): centre of its mouth, radius, depth
HOLLOW = (0.0, -0.2, 1.4)
HOLLOW_R = 0.26
HOLLOW_DEPTH = 0.5


def bi_parts(length: float = 3.0, width: float = 0.3, thick: float = 0.15) -> list[Part]:
    """楅 laid along its own x (東肆: east–west where it rests), centred on its point."""
    z0 = BI_ARROW_Z - 0.05 - thick                  # the board's underside: its top just under the arrows
    z1 = z0 + thick
    head = 0.2                                      # each dragon's head takes this much of the length
    body = length - 2 * head
    parts: list[Part] = [("board", box((body, width, thick), (0, 0, (z0 + z1) / 2)), "xiu")]
    for sx in (-1, 1):
        parts.append(("foot", box((0.15, width * 0.8, z0), (sx * (body / 2 - 0.15), 0, z0 / 2)), "xiu"))
        parts += _dragon(sx, body / 2, length / 2, width, z0, z1)
    # 蛇交: two serpent bodies carved along the top, crossing at the middle and every 0.55 尺 from it
    xs = np.linspace(-body / 2 + 0.05, body / 2 - 0.05, 36)
    amp = width * 0.32
    for k, colour in ((1, "zhu"), (-1, "lu")):
        ys = k * amp * np.sin(2 * math.pi * xs / 1.1)
        zs = z1 + 0.02 + 0.012 * k * np.cos(2 * math.pi * xs / 1.1)   # one over the other where they cross
        parts.append(("snake", tube(np.column_stack([xs, ys, zs]), 0.035, 4), colour))
    parts.append(("dang", box((DANG, width, 0.03), (0, 0, z1 + 0.065)), "dan"))    # over the snakes
    return parts


def _dragon(sx: int, x_in: float, x_out: float, width: float, z0: float, z1: float) -> list[Part]:
    """One 龍首 at the end sx: a neck rising from the board, the head looking outward with its jaws open, horns
    swept back; all within the board's width, the upper jaw's tip at the 楅's end."""
    L = x_out - x_in
    out = rot_y(90.0 * sx)                                           # a frustum's +z turned to point outward
    zh = z1 + 0.3
    neck = tube([(sx * (x_in - 0.02), 0, (z0 + z1) / 2), (sx * (x_in + 0.1 * L), 0, z1 + 0.15),
                 (sx * (x_in + 0.15 * L), 0, zh)], width * 0.3, 6)
    skull = ellipsoid((0.3 * L, width * 0.45, 0.09), (sx * (x_in + 0.2 * L), 0, zh + 0.02), 8, 5)
    upper = frustum(0.06, 0.03, 0.0, 0.8 * L, 8, sx=1.0, sy=width * 0.4 / 0.06).moved(out, (sx * (x_in + 0.2 * L), 0, zh + 0.02))
    # the lower jaw hangs open, 28° below the upper
    lower = frustum(0.035, 0.02, 0.0, 0.65 * L, 6, sx=1.0, sy=width * 0.3 / 0.035).moved(
        rot_y(28.0 * sx) @ out, (sx * (x_in + 0.2 * L), 0, zh - 0.03))
    horns = merge([rod((sx * (x_in + 0.2 * L), s * width * 0.2, zh + 0.08),
                       (sx * (x_in - 0.3 * L), s * width * 0.4, zh + 0.25), 0.02, 3) for s in (-1, 1)])
    eyes = merge([ellipsoid((0.025, 0.02, 0.025), (sx * (x_in + 0.4 * L), s * width * 0.36, zh + 0.06), 5, 3)
                  for s in (-1, 1)])
    return [("dragon", neck, "xiu"), ("dragon", skull, "zhu"), ("dragon", upper, "zhu"), ("dragon", lower, "zhu"),
            ("dragon.horn", horns, "ochre"), ("dragon.eye", eyes, "paint_black")]


def deer_parts() -> list[Part]:
    """鹿中, facing +y: forelegs kneeling, hind legs standing, a hollow in the back."""
    parts: list[Part] = []
    tilt = rot_x(-16.0)                              # the chest lower than the rump: the forelegs are down
    body = ellipsoid((0.42, 0.95, 0.34), (0, 0, 0), 12, 8).moved(tilt, (0, -0.1, 0.92))
    parts.append(("body", body, "xiu"))
    for sx in (-1, 1):
        x = sx * 0.27
        # 前足跪: the forearm down to the knee on the ground, the cannon folded back under the chest
        parts.append(("foreleg", tube([(x, 0.62, 0.62), (x, 0.64, 0.35), (x, 0.62, 0.03)], 0.09, 6), "xiu"))
        parts.append(("foreleg.folded", rod((x, 0.62, 0.06), (x, 0.16, 0.06), 0.07, 6), "xiu"))
        # the hind legs standing: thigh, hock, cannon to the hoof
        parts.append(("hindleg", tube([(x, -0.75, 1.1), (x, -0.98, 0.58), (x, -0.85, 0.05)], 0.09, 6),
                      "xiu"))
        parts.append(("hoof", box((0.12, 0.14, 0.08), (x, -0.85, 0.04)), "paint_black"))
    parts.append(("neck", rod((0, 0.62, 0.85), (0, 0.98, 1.6), 0.17, 8), "xiu"))
    parts.append(("head", _about(ellipsoid((0.15, 0.3, 0.15), (0, 1.18, 1.7), 10, 6), (0, 1.18, 1.7), rot_x(-20.0)),
                  "xiu"))
    for sx in (-1, 1):
        parts.append(("ear", ellipsoid((0.1, 0.03, 0.06), (sx * 0.2, 1.05, 1.88), 6, 3), "xiu"))
        parts.append(("eye", ellipsoid((0.03, 0.03, 0.03), (sx * 0.12, 1.3, 1.76), 5, 3), "paint_black"))
        a0 = (sx * 0.08, 1.08, 1.85)
        parts.append(("antler", merge([rod(a0, (sx * 0.3, 0.95, 2.35), 0.03, 4),
                                       rod((sx * 0.2, 1.0, 2.12), (sx * 0.16, 1.15, 2.32), 0.025, 3)]), "antler"))
    parts.append(("tail", ellipsoid((0.07, 0.06, 0.1), (0, -1.05, 1.2), 6, 3), "deer_muzzle"))
    # 鑿背: the hollow's mouth, a lacquered collar just proud of the back, black inside
    hx, hy, hz = HOLLOW
    parts.append(("hollow.rim", frustum(HOLLOW_R + 0.05, HOLLOW_R + 0.04, hz - 0.25, hz, 14, caps=False)
                  .moved(None, (hx, hy, 0)), "xiu"))
    parts.append(("hollow", frustum(HOLLOW_R, HOLLOW_R, hz - HOLLOW_DEPTH, hz - 0.01, 14)
                  .moved(None, (hx, hy, 0)), "paint_black"))
    return parts


def _about(m: Mesh, centre, rot: np.ndarray) -> Mesh:
    c = np.asarray(centre, float)
    return Mesh((m.points - c) @ rot.T + c, m.normals @ rot.T, m.tris)


def assemble(parts: list[Part]) -> tuple[Mesh, np.ndarray]:
    """One mesh with per-vertex colours."""
    mesh = merge([m for _, m, _ in parts])
    cols = np.vstack([np.tile(np.array(rgb(C[c]), np.uint8), (len(m.points), 1)) for _, m, c in parts])
    return mesh, cols


def hollow_world(pos, heading_rot: np.ndarray, chi: float) -> np.ndarray:
    """Where the 筭 stand in the 中 (world metres): the hollow's floor under the deer resting at pos."""
    hx, hy, hz = HOLLOW
    return np.asarray(pos, float) + heading_rot @ np.array([hx, hy, hz - HOLLOW_DEPTH]) * chi
