"""The dynamic set of a pose: the posed cast, every movable object where the pose has it (in hand, in flight,
lying, on its place), the 侯's 下个 and 左下綱, and the shadows of all of it."""
from __future__ import annotations

import functools
from dataclasses import dataclass, field

import numpy as np

from ...geometry.layout import Layout
from ...rite.state import hand_z
from .. import figures
from ..palette import COLOURS as C
from ..palette import SUN_DIR
from ..shapes import Z_SHADOW_DYN, Batch, heading_rot
from . import props


@dataclass
class DynamicSet:
    """What a pose shows: figures and objects (``main``) and their shadows, in metres."""

    main: Batch
    shadows: Batch
    anchors: dict[str, tuple[float, float, float]] = field(default_factory=dict)   # label points, metres


#: the objects' kinds (cast.toml) that are small enough to hide when nobody can see them
OFFSTAGE_MARGIN_M = 1.0


def _hand_owner(pose, k_obj: int, hands: np.ndarray, visible: np.ndarray) -> int | None:
    """The actor whose hands hold object k (the timeline keeps held things at the hand point)."""
    if not len(hands):
        return None
    d = np.linalg.norm(hands - pose.object_xyz_m[k_obj], axis=1)
    d[~visible] = np.inf
    i = int(np.argmin(d))
    return i if d[i] < 0.12 else None


def hand_points(pose, chi_m: float) -> np.ndarray:
    """Where the timeline puts a held object: 1 尺 in front, at the posture's hand height (state.hand_z:
    3.5 尺 standing, lower kneeling or bowing)."""
    h = np.radians(pose.heading_deg)
    up = np.array([hand_z(p) for p in pose.posture], dtype=float)
    return pose.actor_xyz_m + np.column_stack([np.sin(h), np.cos(h), up]) * chi_m


def build_dynamic(rite, pose, *, velocity: dict[str, np.ndarray] | None = None) -> DynamicSet:
    """Figures and objects of one pose (metres), and their planar shadows."""
    lay = rite.layout
    chi = lay.reading.chi_m
    main = Batch()
    anchors: dict[str, tuple[float, float, float]] = {}
    visible = np.asarray(pose.visible, dtype=bool)
    gate_y = lay["hall.gate"].xyz_chi[1] * chi
    onstage = visible & (pose.actor_xyz_m[:, 1] > gate_y - OFFSTAGE_MARGIN_M * 3)
    hands = hand_points(pose, chi)
    # which objects are in whose hands (held things are drawn by the object builder, posed by the holder)
    held_by: dict[str, int] = {}
    for k, oid in enumerate(pose.object_ids):
        owner = _hand_owner(pose, k, hands, onstage)
        if owner is not None:
            held_by[oid] = owner
    held_names: dict[int, set[str]] = {}
    for oid, i in held_by.items():
        held_names.setdefault(i, set()).add(object_word(rite, oid))
    styles = figures.styles(rite.choreography)
    for i, aid in enumerate(pose.actor_ids):
        if not onstage[i]:
            continue
        st = styles[aid]
        extra_props = undrawn(holding_words(pose.holding[i]), held_names.get(i, set()))
        if pose.dress and pose.dress[i]:
            extra_props.append(pose.dress[i])          # 袒決遂 …: the figure shows it (figures.py)
        fig = figures.figure(st, pose.posture[i], extra_props)
        rot = heading_rot(float(pose.heading_deg[i]))
        pos = pose.actor_xyz_m[i]
        main.add_arrays(f"actor.{aid}", fig.points @ rot.T + pos, fig.normals @ rot.T, fig.tris, fig.rgb)
        anchors[f"actor.{aid}"] = (float(pos[0]), float(pos[1]), float(pos[2] + fig.height + 0.15))
    _objects(main, rite, pose, held_by, velocity, anchors)
    if "target.hou" in lay:                  # the 侯's 下个 and 左下綱 (no range in 鄉飲酒禮's 庠)
        props.hou_lower(main, lay, pose)
    # shadows on the surface under each part (the 堂 floor, a tread or the court)
    fl_m = lay.hall.height * chi
    def floor_of(pid: str, pts: np.ndarray) -> float:
        zmin = float(pts[:, 2].min())
        if zmin > fl_m - 0.05 and _on_tang(lay, pts):
            return fl_m + 0.012
        return Z_SHADOW_DYN if zmin < fl_m * 0.5 or not _on_tang(lay, pts) else fl_m + 0.012
    def colour_of(z):
        return C["shadow_tang"] if z > 0.1 else C["shadow_ground"]
    skip = [n for n in main.names if n.startswith("target.")]
    shadows = _in_the_sun(main.shadow(SUN_DIR, colour_of, skip=skip, floor_of=floor_of), lay, rite)
    return DynamicSet(main, shadows, anchors)


def _in_the_sun(shadows: Batch, lay: Layout, rite=None) -> Batch:
    """Keep the planar shadows where the sun reaches the floor (none under the roof or in the walls' shade,
    which the static bake darkens already), coloured as that floor without the sun — the colour of the
    static layer's shadows."""
    from .bake import unsunned
    from .static import static_of, static_set
    st = static_set(lay.reading) if rite is None else static_of(rite)
    fl_m = lay.hall.height * lay.reading.chi_m
    ground, tang = unsunned(C["court"]), unsunned(C["tang_floor"])
    out = Batch()
    if not len(shadows):
        return out
    lit_all = st.sunlit(shadows.arrays()["points"], soft=False) > 0.5   # one look-up for every piece
    o = 0
    for pid, p, n, t, _ in shadows.chunks():
        lit = lit_all[o:o + len(p)]
        o += len(p)
        keep = lit[t].any(axis=1)
        if not keep.any():
            continue
        col = np.tile(np.array(tang if p[:, 2].mean() > fl_m * 0.5 else ground, np.uint8), (len(p), 1))
        out.add_arrays(pid, p, n, t[keep], col)
    return out


def _on_tang(lay: Layout, pts: np.ndarray) -> bool:
    chi = lay.reading.chi_m
    h = lay.hall
    x, y = float(pts[:, 0].mean()), float(pts[:, 1].mean())
    return abs(x) <= h.platform_x * chi and 0 <= y <= h.house_depth * chi


def holding_words(text: str) -> list[str]:
    """'弓、矢×4' → ['弓', '矢']: the things an actor holds, as the timeline names them."""
    out = []
    for w in text.split("、"):
        w = w.split("×")[0].strip()
        if w:
            out.append(w)
    return out


def undrawn(words: list[str], held: set[str]) -> list[str]:
    """The words of what an actor holds that no object in his hands draws (the figure draws them): 張弓 and
    弛弓 (§33) are his bow, which the bow object draws."""
    return [w for w in words if w not in held and not (w.endswith("弓") and "弓" in held)]


def object_word(rite, oid: str) -> str:
    if oid.startswith("bow."):
        return "弓"
    if oid.startswith("arrow."):
        return "矢"
    th = rite.choreography.things.get(oid)
    return th.name if th is not None else oid


def object_kind(rite, oid: str) -> str:
    if oid.startswith("bow."):
        return "bow"
    if oid.startswith("arrow."):
        return "arrow"
    if oid.startswith("counters."):
        return "counters"
    th = rite.choreography.things.get(oid)
    return th.kind if th is not None else "thing"


@functools.lru_cache(maxsize=1024)
def _thing(kind: str, oid: str, state: str, heading: float, held: bool, chi: float, size):
    """props.thing, remembered: a thing at rest has the same mesh frame after frame (the remote view draws a
    frame after another, issue 42: the things were two thirds of a frame's time)."""
    return props.thing(kind, oid, state, heading, held, chi, size)


def _objects(b: Batch, rite, pose, held_by: dict[str, int], velocity, anchors) -> None:
    lay = rite.layout
    chi = lay.reading.chi_m
    gate_y = lay["hall.gate"].xyz_chi[1] * chi
    stored_rank: dict[tuple[float, float], int] = {}
    for k, oid in enumerate(pose.object_ids):
        pos = pose.object_xyz_m[k]
        if pos[1] < gate_y - OFFSTAGE_MARGIN_M:      # offstage (outside the 門): not seen
            continue
        state = pose.object_state[k] or ""
        kind = object_kind(rite, oid)
        owner = held_by.get(oid)
        heading = float(pose.heading_deg[owner]) if owner is not None else 0.0
        posture = pose.posture[owner] if owner is not None else ""
        pid = oid if "." in oid else f"object.{oid}"
        if kind == "arrow":
            if posture == "shoot" and not props.nocked_arrow(oid, owner, held_by.get):
                posture = ""                           # not yet his turn: held with the bow, not on the string
            props.arrow(b, pid, pos, state, owner, heading, posture, velocity.get(oid) if velocity else None, chi,
                   oid, stored_rank)
        elif kind == "bow":
            props.bow(b, pid, pos, state, owner, heading, posture, chi, stored_rank)
        elif kind == "counters":
            props.counters(b, pid, pos, state, chi, oid.endswith("zhong"))
        elif kind == "rope":
            continue                                   # the 侯's 左下綱: drawn with the 侯 (props.hou_lower)
        else:
            size = props.thing_size(lay, oid)
            mesh, colour = _thing(kind, oid, state, heading if owner is not None else props.rest_heading(lay, oid),
                                  owner is not None, chi, tuple(size) if size is not None else None)
            at = pos.copy()
            if owner is None:
                at[2] = props.rest_z(lay, pos, chi)
            b.add(pid, mesh.moved(None, at), colour)
            if oid in ("bi", "zhong", "feng", "jing") and owner is None:
                anchors[pid] = (float(at[0]), float(at[1]), float(at[2] + 0.6))
