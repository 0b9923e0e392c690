"""Contact shadows (issue 15 item 2): a soft dark disc on the floor under each person and each thing set down.

The sun's planar shadows say where the light comes from; the disc says where a figure *touches* the ground —
without it people float over the court.  One rule for both pictures: the stills draw these discs
(:func:`disc_mesh`, alpha per vertex), the player draws the same discs from the numbers the pack carries
(:func:`pack_block`: radii by posture, the alpha, the floors), placed each frame.
"""
from __future__ import annotations

import math

import numpy as np

from ..shapes import Mesh

#: disc radius (m) by posture: a kneeling or bowing figure covers more of the floor than a standing one
#: (a robe's hem is 0.27 m across: the disc must reach past it to be seen from above)
RADIUS = {"stand": 0.5, "walk": 0.5, "salute": 0.52, "shoot": 0.55, "sit": 0.6, "bow": 0.7}
#: darkness at the centre (0–1); the edge fades to nothing
ALPHA = 0.55
#: the ring (share of the radius) out to which the disc keeps INNER_ALPHA of its darkness
INNER, INNER_ALPHA = 0.6, 0.8
#: a thing set down gets a disc when it rests within this height (m) of the floor under it
REST_TOL = 0.3
#: the things whose own shapes are too small or too thin to need one (arrows, counters, the 侯's rope)
SKIP_KINDS = ("arrow", "counters", "rope")
SEGMENTS = 16
#: above the floor (m), under the planar shadows' offset of people (Z_SHADOW_DYN)
LIFT = 0.02


def floors(lay) -> list[list[float]]:
    """Rectangles (x0, x1, y0, y1, z, metres) of the raised floors: the 堂 platform (else the ground, z 0)."""
    chi = lay.reading.chi_m
    h = lay.hall
    return [[-h.platform_x * chi, h.platform_x * chi, 0.0, h.house_depth * chi, h.height * chi]]


def floor_z(rects, x: float, y: float) -> float:
    for x0, x1, y0, y1, z in rects:
        if x0 <= x <= x1 and y0 <= y <= y1:
            return z
    return 0.0


def discs(rite, pose, dyn_anchors: dict | None = None) -> list[tuple[float, float, float, float]]:
    """(x, y, z, radius) of every contact disc at a pose: each person on stage (the actors build_dynamic
    drew: ``dyn_anchors`` has them) and each thing resting on a floor that is not in someone's hands."""
    from .dynamic import object_kind
    lay = rite.layout
    rects = floors(lay)
    out = []
    for i, aid in enumerate(pose.actor_ids):
        if dyn_anchors is not None and f"actor.{aid}" not in dyn_anchors:
            continue
        x, y, z = (float(v) for v in pose.actor_xyz_m[i])
        out.append((x, y, z, RADIUS.get(pose.posture[i], RADIUS["stand"])))
    chi = lay.reading.chi_m
    gate_y = lay["hall.gate"].xyz_chi[1] * chi
    held = set()
    if dyn_anchors is not None:
        from .dynamic import hand_points
        hands = hand_points(pose, chi)
        for k in range(len(pose.object_ids)):
            if len(hands) and np.min(np.linalg.norm(hands - pose.object_xyz_m[k], axis=1)) < 0.12:
                held.add(k)
    for k, oid in enumerate(pose.object_ids):
        if k in held or object_kind(rite, oid) in SKIP_KINDS or oid.startswith("bow."):
            continue
        x, y, z = (float(v) for v in pose.object_xyz_m[k])
        if y < gate_y:
            continue
        fz = floor_z(rects, x, y)
        if abs(z - fz) <= REST_TOL:
            out.append((x, y, fz, 0.3))
    return out


def disc_mesh(items) -> tuple[Mesh, np.ndarray]:
    """The discs as one mesh (a fan each) and RGBA colours: black, ALPHA at the centre, 0 at the rim."""
    n = SEGMENTS
    a = np.linspace(0, 2 * math.pi, n, endpoint=False)
    ring = np.column_stack([np.cos(a), np.sin(a), np.zeros(n)])
    unit = np.vstack([[0.0, 0.0, 0.0], INNER * ring, ring])          # centre, a half-dark ring, the rim
    i = np.arange(n)
    j = (i + 1) % n
    tris = np.vstack([np.column_stack([np.zeros(n, int), 1 + i, 1 + j]),
                      np.column_stack([1 + i, 1 + n + i, 1 + n + j]), np.column_stack([1 + i, 1 + n + j, 1 + j])])
    alpha = np.concatenate([[ALPHA], np.full(n, ALPHA * INNER_ALPHA), np.zeros(n)])
    pts, tri, rgba = [], [], []
    for k, (x, y, z, r) in enumerate(items):
        pts.append(unit * (r, r, 1.0) + (x, y, z + LIFT))
        tri.append(tris + k * len(unit))
        rgba.append(np.column_stack([np.zeros((len(unit), 3)), alpha * 255]))
    if not pts:
        return Mesh(np.zeros((0, 3)), np.zeros((0, 3)), np.zeros((0, 3), np.int64)), np.zeros((0, 4), np.uint8)
    p = np.vstack(pts)
    return Mesh(p, np.tile((0.0, 0.0, 1.0), (len(p), 1)), np.vstack(tri)), np.rint(np.vstack(rgba)).astype(np.uint8)


def pack_block(lay) -> dict:
    """What the player needs to draw the same discs (PACK.md ``contact``)."""
    return {"radius": dict(RADIUS), "object_radius": 0.3, "alpha": ALPHA, "inner": INNER, "inner_alpha": INNER_ALPHA,
            "rest_tol": REST_TOL, "lift": LIFT, "skip_kinds": list(SKIP_KINDS),
            "floors": [[round(v, 4) for v in r] for r in floors(lay)]}
