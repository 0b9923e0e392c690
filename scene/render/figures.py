"""The cast as stylised figures, posed: 立 stand, 坐 sit (kneel on the heels), 拜 bow, 揖 salute, 射 draw.

A figure is readable at a glance from any side and from above:

* its **colour** is the cast colour (``assets/cast.toml``): the robe, or the
  sash (紳/大帶) for the officers whose ``mark`` names a sash;
* its **headwear**: 冠 (a small black cap with its ridge and pin) for the 主人,
  賓 and 眾賓之長, a tall 冠 for the 大夫, a soft black kerchief for the rest;
* the 三耦's **arm bands** (上射 red on the right sleeve, 下射 black on the left);
* its **front**: the face (the hair is behind), the 韠 (knee cover) hanging on
  the front of the robe in a contrasting tone, and a disc on the ground that
  points the way the figure faces — which is how the plan view shows facing;
* the 深衣's **wide sleeves**, widening to the cuff with the 袂 hanging under the
  forearm, and its sash (帶, 紳);
* what the archer **wears on his left arm** (a dress word among the props, from
  ``scene/rite/dress.py``): 袒 bares it (肉袒; the 大夫's 纁襦, 記46) with the
  sleeve tucked at the waist, 決遂 adds the bone 決 on the right thumb and the
  leather 遂 on the left forearm.

The postures: 立 the hands joined before the belly inside the sleeves (拱); 揖
raised before the chest and pushed forward; 坐 kneeling back on the heels, the
soles behind, the hands on the thighs; 拜 from there bowed low, the hands on the
ground; 射 the left arm straight out with the bow, the right hand drawn to the
jaw (where ``meshes.props`` puts the drawn bow's grip and string: BOW_HAND,
STRING_HAND).

Geometry is in metres in the figure's own frame (+y forward, +x right, +z up)
and cached per shape; colours are applied per vertex from the style, so forty
figures cost forty array copies, not forty mesh builds.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from .palette import COLOURS as C
from .shapes import Mesh, ellipsoid, flat_polygon, frustum, merge, rgb, rod, rot_x, rot_z, shade, slab, tube

POSTURES = ("stand", "walk", "sit", "bow", "salute", "shoot")

# colour slots of a template (indices into a style's colour table)
MARKER, ROBE, PANEL, SASH, SKIN, HAIR, HAT, SHOE, SLEEVE_L, SLEEVE_R, PROP, PROP2, LEGS, BARED, JUE, SUI = range(16)

#: the words of the dress (scene/rite/dress.py) a figure may be given with its props
DRESS = ("袒決遂", "袒決", "袒")
# 決 以象骨為之 (鄭, §14): bone; 遂 射韝也以韋為之: leather (the tone is ours: undyed, darkened by use)
JUE_COLOUR = "#e9dcb8"
SUI_COLOUR = "#5a3a22"
# 記46 大夫與士射袒纁襦 (鄭 不肉袒殊於耦): the 大夫 bares a 纁 (light red) jacket, his 耦 the arm itself
XUN_COLOUR = "#c8684c"


@dataclass(frozen=True)
class Style:
    """How one actor looks: colours, headwear, marks."""

    colour: str                 # the cast colour
    robe: str
    sash: str
    panel: str                  # 韠, contrasting with the robe
    hat: str                    # "guan" | "tall_guan" | "kerchief"
    sleeve_l: str
    sleeve_r: str
    short: bool = False

    def table(self) -> np.ndarray:
        bared = XUN_COLOUR if self.hat == "tall_guan" else C["skin"]
        cols = [shade(self.colour, 0.85), self.robe, self.panel, self.sash, C["skin"], C["hair"], C["hair"],
                C["shoe"], self.sleeve_l, self.sleeve_r, C["wood"], C["bronze"], "#3b3430", bared, JUE_COLOUR,
                SUI_COLOUR]
        return np.array([rgb(c) for c in cols], dtype=np.uint8)


_WORD_COLOURS = {"red": C["band_red"], "black": C["band_black"], "blue": "#3d5a80", "green": "#2a9d8f",
                 "mauve": "#6d597a"}
_NEUTRAL_ROBE = "#d8cfbb"       # undyed 深衣 of the officers who are known by their sash


def _luma(colour: str) -> float:
    r, g, b = rgb(colour)
    return 0.299 * r + 0.587 * g + 0.114 * b


def style_of(colour: str, mark: str) -> Style:
    """Read a cast entry's ``colour`` and ``mark`` (e.g. '冠 + golden robe', 'blue sash',
    'white robe, red band (right side)', 'tall 冠, purple robe', 'short brown robe')."""
    m = mark.lower()
    hat = "tall_guan" if "tall 冠" in m or "tall冠" in m else ("guan" if "冠" in m else "kerchief")
    if "sash" in m:
        robe, sash = _NEUTRAL_ROBE, colour
    else:
        robe, sash = colour, C["sash_default"] if _luma(colour) < 170 else shade(colour, 0.55)
    robe_hex = robe if isinstance(robe, str) else "#{:02x}{:02x}{:02x}".format(*robe)
    panel = "#3a2418" if _luma(robe_hex) > 110 else "#d9c49b"
    sl = sr = robe_hex
    band = re.search(r"(\w+) band \((right|left)", m)
    if band:
        col = _WORD_COLOURS.get(band.group(1), colour)
        if band.group(2) == "right":
            sr = col
        else:
            sl = col
    sash_hex = sash if isinstance(sash, str) else "#{:02x}{:02x}{:02x}".format(*sash)
    return Style(colour, robe_hex, sash_hex, panel, hat, sl, sr, short="short" in m)


def styles(choreo) -> dict[str, Style]:
    """Every actor's style, from the choreography's cast."""
    return _styles(tuple((a.id, a.colour, a.mark) for a in choreo.actors.values()))


@lru_cache(maxsize=8)
def _styles(cast: tuple[tuple[str, str, str], ...]) -> dict[str, Style]:
    return {aid: style_of(colour, mark) for aid, colour, mark in cast}


@dataclass(frozen=True)
class Figure:
    points: np.ndarray
    normals: np.ndarray
    tris: np.ndarray
    rgb: np.ndarray
    height: float


@dataclass(frozen=True)
class _Template:
    points: np.ndarray
    normals: np.ndarray
    tris: np.ndarray
    slots: np.ndarray
    height: float


class _Parts:
    def __init__(self) -> None:
        self.meshes: list[Mesh] = []
        self.slots: list[int] = []

    def add(self, mesh: Mesh, slot: int) -> None:
        self.meshes.append(mesh)
        self.slots.append(slot)

    def build(self, height: float) -> _Template:
        m = merge(self.meshes)
        slots = np.concatenate([np.full(len(x.points), s, dtype=np.int16) for x, s in zip(self.meshes, self.slots)])
        return _Template(m.points.astype(np.float32), m.normals.astype(np.float32), m.tris, slots, height)


# where the 射 posture holds the bow and the string (the figure frame, metres): props.bow and props.arrow draw
# the drawn bow and the nocked arrow between these two points
BOW_HAND = (-0.1, 0.66, 1.37)       # the left arm straight out towards the 侯, at shoulder height
STRING_HAND = (0.08, 0.06, 1.46)    # the right hand, with the 決 on its thumb, drawn back to the jaw

# posture skeletons (metres): the waist's height, torso pitch (deg, forward), kneeling, the hands (left, right)
# and, where the arm is not simply hanging bent, the elbows
_POSE = {
    # 拱: the hands joined in front of the belly, inside the sleeves
    "stand": dict(hip=0.95, pitch=0.0, kneel=False, hands=((-0.04, 0.24, 1.02), (0.04, 0.24, 1.02))),
    "walk": dict(hip=0.95, pitch=5.0, kneel=False, hands=((-0.04, 0.26, 1.0), (0.04, 0.26, 1.0))),
    # 揖 (鄭 推手曰揖): the joined hands raised before the chest and pushed forward, elbows out, a slight bow
    "salute": dict(hip=0.95, pitch=12.0, kneel=False, hands=((-0.03, 0.44, 1.22), (0.03, 0.44, 1.22)),
                   elbows=((-0.27, 0.2, 1.13), (0.27, 0.2, 1.13))),
    # 射: the left arm straight holding the bow, the right elbow out and back at shoulder height
    "shoot": dict(hip=0.95, pitch=0.0, kneel=False, hands=(BOW_HAND, STRING_HAND),
                  elbows=(None, (0.36, -0.14, 1.37))),
    # 坐: kneeling, sitting back on the heels, the hands on the thighs
    "sit": dict(hip=0.44, pitch=0.0, kneel=True, hands=((-0.13, 0.3, 0.31), (0.13, 0.3, 0.31))),
    # 拜: from kneeling, the hands to the ground and the head bowed down over them
    "bow": dict(hip=0.42, pitch=78.0, kneel=True, hands=((-0.07, 0.56, 0.05), (0.07, 0.56, 0.05))),
}
TORSO = 0.42            # hip to shoulder line
HEAD = 0.2              # shoulder line to the head's centre
SHOULDER = 0.22         # half the shoulders' width


def _marker() -> Mesh:
    """A flat disc pointing forward: facing, readable from above."""
    pts = [(0.30 * math.cos(a), 0.30 * math.sin(a)) for a in np.linspace(math.radians(-60), math.radians(240), 14)]
    pts.append((0.0, 0.58))
    return flat_polygon(pts, 0.04)


_UPRIGHT = np.array([[1.0, 0.0, 0.0], [0.0, 0.0, 1.0], [0.0, 1.0, 0.0]])   # local (u, v, w) → (x, z, y)


def _panel(half_bottom: float, half_top: float, height: float, y: float, z: float, lean_deg: float) -> Mesh:
    """A thin upright trapezoid facing forward (+y); positive lean tips its top forward."""
    poly = [(-half_bottom, 0.0), (half_bottom, 0.0), (half_top, height), (-half_top, height)]
    return slab(poly, 0.025, _UPRIGHT @ rot_x(lean_deg), (0.0, y, z))


@lru_cache(maxsize=256)
def _template(posture: str, hat: str, short: bool, props: tuple[str, ...]) -> _Template:
    pose = _POSE.get(posture, _POSE["stand"])
    P = _Parts()
    P.add(_marker(), MARKER)
    hip = pose["hip"]
    pitch = pose["pitch"]
    R = rot_x(-pitch)            # leaning forward: the body's +z tips towards +y
    pivot = np.array([0.0, 0.0, hip])

    def body(p) -> np.ndarray:
        return R @ np.asarray(p, dtype=float) + pivot

    # lower body
    if pose["kneel"]:
        P.add(ellipsoid((0.22, 0.28, 0.16), (0.0, 0.14, 0.16), 10, 5), ROBE)   # the thighs folded, knees forward
        if pitch > 45:       # bowed down: the seat rounds into the back (a flat skirt top would show as a lid)
            P.add(frustum(0.25, 0.2, 0.0, hip - 0.1, 10, 1.05, 0.95, caps=False), ROBE)
            P.add(ellipsoid((0.23, 0.22, 0.16), (0.0, -0.02, hip - 0.1), 10, 5), ROBE)
        else:
            P.add(frustum(0.25, 0.2, 0.0, hip, 10, 1.05, 0.95), ROBE)          # the skirt over the heels
        for sx in (-1, 1):       # the soles showing behind, under the seat: sitting on the heels, seen from behind
            P.add(ellipsoid((0.05, 0.1, 0.03), (sx * 0.08, -0.25, 0.04), 5, 3), SHOE)
        if posture == "sit":
            P.add(_panel(0.13, 0.1, 0.3, 0.43, 0.04, -35.0), PANEL)
    else:
        bottom = 0.36 if short else 0.03
        P.add(frustum(0.27, 0.19, bottom, hip, 10, 1.05, 0.9), ROBE)
        if short:
            for sx in (-1, 1):
                P.add(rod((sx * 0.09, 0.0, 0.02), (sx * 0.09, 0.0, 0.4), 0.06, 6), LEGS)
        for sx in (-1, 1):
            P.add(ellipsoid((0.06, 0.11, 0.04), (sx * 0.09, 0.2, 0.04), 5, 3), SHOE)
        # 韠: the knee cover hangs on the front of the robe — the figure's front
        yb, yt = 0.245, 0.19
        P.add(_panel(0.14, 0.1, 0.52, yb, 0.38, math.degrees(math.atan2(yt - yb, 0.52))), PANEL)
    # torso, sash, shoulders
    torso = frustum(0.19, 0.21, 0.0, TORSO, 10, 1.2, 0.78)
    P.add(torso.moved(R, pivot), ROBE)
    P.add(frustum(0.205, 0.205, -0.02, 0.07, 10, 1.22, 0.82, caps=False).moved(R, pivot), SASH)
    if not pose["kneel"]:
        P.add(_panel(0.035, 0.03, 0.4, 0.235, hip - 0.42, -4.0).moved(None, (0.12, 0.0, 0.0)), SASH)   # 紳
    sh = body((0, 0, TORSO))
    P.add(ellipsoid((0.25, 0.15, 0.08), (0, 0, 0), 8, 4).moved(R, sh), ROBE)
    # head: face in front, hair behind; headwear
    head_c = body((0, 0.0, TORSO + HEAD))
    P.add(rod(body((0, 0, TORSO - 0.02)), body((0, 0.0, TORSO + 0.1)), 0.045, 5), SKIN)
    P.add(ellipsoid((0.092, 0.1, 0.118), (0, 0, 0), 9, 5).moved(R, head_c), SKIN)
    P.add(ellipsoid((0.1, 0.1, 0.105), (0, -0.028, 0.035), 9, 5).moved(R, head_c), HAIR)
    if hat in ("guan", "tall_guan"):
        ht = 0.09 if hat == "guan" else 0.22
        P.add(slab([(-0.09, 0.0), (0.09, 0.0), (0.075, ht), (-0.075, ht)], 0.07,
                   np.array([[0, 0, 1], [1, 0, 0], [0, 1, 0.0]]), (0.0, 0.0, 0.1)).moved(R, head_c), HAT)
        P.add(rod((-0.11, 0.0, 0.13), (0.11, 0.0, 0.13), 0.012, 4).moved(R, head_c), PROP)   # 笄 (the pin)
    else:
        P.add(ellipsoid((0.055, 0.05, 0.05), (0, -0.09, 0.08), 6, 4).moved(R, head_c), HAIR)   # the kerchief's knot
    # arms: wide sleeves from the shoulders to the hands, the sleeve ends (袂) hanging below; a 袒 left arm bare
    dress = next((w for w in props if w in DRESS), "")
    props = tuple(w for w in props if w not in DRESS)
    hands = [np.asarray(h, dtype=float) for h in pose["hands"]]
    for sx, hand, elbow in zip((-1, 1), hands, pose.get("elbows", (None, None))):
        shoulder = body((sx * SHOULDER, 0.0, TORSO - 0.05))
        if elbow is None:
            bend = (0.0, 0.0, 0.0) if posture == "shoot" else (sx * 0.07, -0.03, -0.06)
            elbow = (shoulder + hand) / 2 + np.array(bend)
        elbow = np.asarray(elbow, dtype=float)
        slot = SLEEVE_L if sx < 0 else SLEEVE_R
        if sx < 0 and dress:
            _bared_arm(P, shoulder, elbow, hand, body, "遂" in dress)
        else:
            _sleeve(P, shoulder, elbow, hand, slot, posture)
        P.add(ellipsoid((0.042, 0.05, 0.042), hand + (0, 0.03, 0), 5, 3), SKIN)
        if sx > 0 and "決" in dress:     # 決: a ring of bone on the right thumb, on the inner, upper side of the hand
            P.add(ellipsoid((0.024, 0.024, 0.024), hand + (-0.03, 0.05, 0.025), 5, 3), JUE)
    # props the objects do not draw themselves (a 笙, food, a cup the timeline does not track …)
    for w in props:
        mid = (hands[0] + hands[1]) / 2
        if w == "笙":
            mouth = body((0, 0.13, TORSO + HEAD - 0.04))
            for j in range(5):
                P.add(rod(mouth + (0.025 * (j - 2), 0.05, -0.05), mouth + (0.025 * (j - 2), 0.06, 0.18 + 0.03 * (j % 2)),
                          0.012, 4), PROP)
        elif w == "弓":
            P.add(tube([hands[0] + (0, 0.05, -0.8), hands[0] + (0, 0.2, 0), hands[0] + (0, 0.05, 0.8)], 0.02, 5), PROP)
        elif w == "矢":
            for j in range(2):
                P.add(rod(hands[1] + (0.02 * j, 0.05, -0.3), hands[1] + (0.02 * j, 0.2, 0.35), 0.01, 3), PROP)
        else:
            P.add(frustum(0.07, 0.11, 0.0, 0.07, 10).moved(None, mid + (0, 0.1, 0.06)), PROP2)
    top = float(max(m.points[:, 2].max() for m in P.meshes))
    return P.build(top)


def _tapered(path, radii, n: int = 6) -> Mesh:
    """A tube whose radius changes from point to point (a sleeve widening to its 袂)."""
    m = tube(path, 1.0, n)
    centres = np.repeat(np.asarray(path, dtype=float), n, axis=0)
    r = np.repeat(np.asarray(radii, dtype=float), n)[:, None]
    return Mesh(centres + (m.points - centres) * r, m.normals, m.tris)


def _along(p0: np.ndarray, p1: np.ndarray) -> np.ndarray:
    """The turn about +z that takes +y to the horizontal direction from p0 to p1."""
    d = p1 - p0
    return rot_z(math.degrees(math.atan2(-d[0], d[1])))


def _sleeve(P: _Parts, shoulder, elbow, hand, slot: int, posture: str) -> None:
    """The 深衣's sleeve: wide, widening to the cuff, its 袂 hanging in a deep curve under the forearm (what
    tells a robed figure from a stick one). Drawing the bow or reaching to the ground, the sleeve is narrower
    and does not hang."""
    if posture in ("shoot", "bow"):
        P.add(_tapered([shoulder, elbow, hand - (hand - elbow) * 0.15], [0.068, 0.07, 0.075]), slot)
        return
    P.add(_tapered([shoulder, elbow, hand], [0.07, 0.08, 0.1]), slot)
    mid = elbow + (hand - elbow) * 0.6 + (0.0, 0.0, -0.11)
    P.add(ellipsoid((0.045, 0.14, 0.15), (0, 0, 0), 7, 4).moved(_along(elbow, hand), mid), slot)


def _bared_arm(P: _Parts, shoulder, elbow, hand, body, sui: bool) -> None:
    """袒 (鄭 左免衣也): the left arm out of its sleeve — bare, or the 大夫's 纁襦 (記46) — the robe's edge at the
    shoulder (where a 下射's band stays), the sleeve tucked in at the waist; the 遂 on the forearm."""
    P.add(ellipsoid((0.1, 0.115, 0.075), (0, 0, 0), 7, 4).moved(None, body((-0.15, 0.0, TORSO - 0.005))), BARED)
    P.add(tube([shoulder, elbow, hand], 0.045, 6), BARED)
    down = (elbow - shoulder) / (np.linalg.norm(elbow - shoulder) + 1e-9)
    P.add(rod(shoulder - down * 0.01, shoulder + down * 0.07, 0.058, 6), SLEEVE_L)
    P.add(ellipsoid((0.07, 0.07, 0.11), (0, 0, 0), 6, 4).moved(None, body((-0.19, 0.08, -0.06))), ROBE)
    if sui:
        P.add(rod(elbow + (hand - elbow) * 0.3, elbow + (hand - elbow) * 0.85, 0.056, 6), SUI)


def figure(style: Style, posture: str, props=()) -> Figure:
    """A posed figure in its own frame (metres), coloured by its style."""
    words = tuple(sorted(set(props)))
    t = _template(posture if posture in _POSE else "stand", style.hat, style.short, words)
    return Figure(t.points, t.normals, t.tris, _table(style)[t.slots], t.height)


def tinted(style: Style, posture: str, props=()) -> np.ndarray:
    """Which vertices of :func:`figure` wear the cast colour (the robe and its sleeves, or the sash of an officer
    known by it, and the facing disc): what a role palette recolours (bool per vertex)."""
    words = tuple(sorted(set(props)))
    t = _template(posture if posture in _POSE else "stand", style.hat, style.short, words)
    c = style.colour.lower()
    own = [MARKER] + [slot for slot, col in ((ROBE, style.robe), (SASH, style.sash), (SLEEVE_L, style.sleeve_l),
                                             (SLEEVE_R, style.sleeve_r)) if col.lower() == c]
    return np.isin(t.slots, own)


@lru_cache(maxsize=128)
def _table(style: Style) -> np.ndarray:
    return style.table()
