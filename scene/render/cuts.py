"""The director's cuts that are not a frame of the people acting (scene/render/shots.py frames those): the 侯 as
each arrow lands (the archers stay large as they loose; this puts the target on screen as it strikes, issue 42),
and the opening shot of the rite."""
from __future__ import annotations

import math

import numpy as np

from .camera_world import World as _World
from .frame_rules import ASPECT, FIGURE_M
from .shot_checks import figure_heights


def _fit_all(*a, **k):
    from .shots import _fit_all as fit  # (shots imports this module: looked up when first used)
    return fit(*a, **k)


def _track(t, v, ease):
    from .shots import Track
    return Track(t, v, ease)


LANE_M = 2.5          # m either side of the archers: the arrows' way down the range, where no camera stands
LAND_BEFORE = 0.5     # s: the cut to the 侯 this long before an arrow lands (the arrow seen coming in) …
LAND_AFTER = 1.0      # … held this long after it (where it struck), then back to the archers
LOOSE_S = 0.6         # s: and back on the archers at least this long before the next arrow is loosed


def _lane(feet: np.ndarray) -> tuple[float, float, float]:
    """The arrows' way from the archers at ``feet`` down the range: (x0, x1, north edge)."""
    return float(feet[:, 0].min() - LANE_M), float(feet[:, 0].max() + LANE_M), float(feet[:, 1].max())


def target_shot(world: _World) -> np.ndarray:
    """The 侯 as an arrow lands in it: from the court north-east of it, a little above its middle, the whole
    cloth and its posts filling the free part of the frame — out of the arrows' way (they come from the north
    down the middle), clear of the 乏 (west), of the hall and of anyone (tests/test_director_act.py)."""
    x, y, _z = world.hou
    half = world.hou_half
    pts = np.array([(x + sx * (half + 0.3), y, z) for sx in (-1, 1) for z in (0.0, world.hou_top + 0.2)])
    b, e, a = (np.array([v]) for v in (32.0, 7.0, 30.0))
    pos, foc = _fit_all(pts, b, e, a, 0.92)
    return np.array([*pos[0], *foc[0], 30.0])


def _with_landings(world: _World, flights: list[tuple[float, float]], check_t: np.ndarray, keys: list) -> list:
    """The track with a cut to the 侯 (:func:`target_shot`) as each arrow lands — from :data:`LAND_BEFORE` s
    before to :data:`LAND_AFTER` s after — and a cut back to the shot it interrupted: the archer large as he
    looses, the 侯 as the arrow lands (issue 42).  Not over a step's middle (the moment the audit and a lesson
    judge a step by: the cut is shortened to leave it on the step's people, or, when the arrow lands at that
    moment, left out), nor over the next arrow's loose."""
    if not flights:
        return keys
    tgt = target_shot(world)
    base = _track(np.array([k[0] for k in keys]), np.array([k[1] for k in keys]), np.array([k[2] for k in keys]))
    spans: list[tuple[float, float]] = []
    starts = np.array([f[0] for f in flights])
    for _s, e in flights:
        # back to the archers before the next arrow is loosed (§39: the pairs shoot to the drum's beat)
        nxt = starts[starts > e - LAND_BEFORE]
        a, b = e - LAND_BEFORE, min(e + LAND_AFTER, float(nxt.min()) - LOOSE_S if len(nxt) else np.inf)
        # a step's middle under the cut: the cut begins after it (or ends before it), the landing still in it
        lo, hi = int(np.searchsorted(check_t, a, side="left")), int(np.searchsorted(check_t, b, side="right"))
        for c in check_t[lo:hi]:
            if c < e - 0.1:
                a = max(a, c + 0.05)
            elif c > e + 0.3:
                b = min(b, c - 0.05)
            else:
                a = b = e
        if b - a < 0.4 or (spans and a < spans[-1][1] + 0.3):
            continue
        spans.append((a, b))
    out: list = []
    i = 0
    for a, b in spans:
        while i < len(keys) and keys[i][0] < a:
            out.append(keys[i])
            i += 1
        back = base.at(b)
        out.append((a, tgt, False))
        while i < len(keys) and keys[i][0] <= b:
            i += 1                                   # (a key under the cut: its shot is what comes back at b)
        out.append((b, back, False))                 # (an ease under way goes on from where it is at b)
    out.extend(keys[i:])
    return out


def establishing(world: _World, rite) -> np.ndarray | None:
    """The opening shot: the people on stage when the rite begins, large in the foreground, and the 堂 at the
    far end of the court — from a south corner of the court (the one that draws them tallest), at
    :data:`OPEN_Z` m, aimed so that the people and the 堂's front (its stairs, up to the eaves) share the frame.
    None when no corner frames them all."""
    from .shots import ANGLES, EASE_S, MARGIN, MIN_FIG, OPEN_S, OPEN_Z, _frames  # noqa: F401  (shots imports this module)
    lay = rite.layout
    pose = rite.pose_at(0.0)
    vis = np.asarray(pose.visible, bool)
    named = {a for s in rite.spans if s.start_s <= 1e-6 for a in s.who}
    ids = [i for i, a in enumerate(rite.actor_ids) if a in named and vis[i]]
    if not ids:
        return None
    # and whoever stands with them (the 相 beside the 主人)
    near = np.linalg.norm(pose.actor_xyz_m[:, None, :2] - pose.actor_xyz_m[None, ids, :2], axis=2).min(1) < 3.0
    who = np.flatnonzero(vis & near)
    # where they are while the shot holds
    smp = rite.sample(np.linspace(0.0, OPEN_S, 4))
    feet = np.vstack([smp["actor_xyz_m"][k][who][smp["visible"][k][who]] for k in range(4)])
    if "hall.west_steps" not in lay:
        return None
    stairs = np.array([lay.xyz_m(k) for k in ("hall.west_steps", "hall.east_steps") if k in lay])
    pts = np.vstack([feet, feet + (0, 0, FIGURE_M), stairs, stairs + (0, 0, world.eave - stairs[:, 2:].min())])
    best, best_h = None, 0.0
    for side in (1.0, -1.0):
        pos = np.array([side * (world.cw - 0.6), world.gate_y + 0.8, OPEN_Z])
        d = pts - pos
        yaw = np.arctan2(d[:, 0], d[:, 1])
        yaw = np.unwrap(yaw[np.argsort(yaw)])
        pitch = np.arctan2(d[:, 2], np.hypot(d[:, 0], d[:, 1]))
        ym, pm = (yaw.max() + yaw.min()) / 2, (pitch.max() + pitch.min()) / 2
        h_need = math.degrees(2 * math.atan(math.tan((yaw.max() - yaw.min()) / 2) / ASPECT))
        ang = max(math.degrees(pitch.max() - pitch.min()), h_need) / MARGIN
        if ang > ANGLES[-1] or (yaw.max() - yaw.min()) > math.radians(150):
            continue
        foc = pos + 20.0 * np.array([math.sin(ym) * math.cos(pm), math.cos(ym) * math.cos(pm), math.sin(pm)])
        v = np.array([*pos, *foc, ang])
        if not world.allows(pos) or not _frames(v, pts) or world.hidden(pos, feet + (0, 0, FIGURE_M * 0.6)):
            continue
        h = float(figure_heights(v, feet).min())
        if h > best_h:
            best, best_h = v, h
    return best if best_h >= MIN_FIG else None


def _with_opening(world: _World, rite, keys: list) -> list:
    """The track with the establishing shot held for the first :data:`OPEN_S` s, then eased (or cut, when the
    way is long or crosses the court's wall) into the first of the director's shots."""
    from .shots import ANGLES, EASE_S, MARGIN, MIN_FIG, OPEN_S, OPEN_Z, _frames  # noqa: F401  (shots imports this module)
    est = establishing(world, rite)
    if est is None:
        return keys
    # the shot the director has on screen when the opening ends, and the keys after it
    after = max((k for k in keys if k[0] <= OPEN_S + 1e-6), key=lambda k: k[0])[1]
    later = [k for k in keys if k[0] > OPEN_S + 1e-6]
    dist = np.linalg.norm(est[:3] - est[3:6])
    near = (np.linalg.norm(after[3:6] - est[3:6]) < 0.35 * dist and np.linalg.norm(after[:3] - est[:3]) < 0.5 * dist
            and (after[1] < world.gate_y) == (est[1] < world.gate_y))
    if near:
        end = min(OPEN_S + EASE_S, later[0][0] - 0.05) if later else OPEN_S + EASE_S
        return [(0.0, est, False), (OPEN_S, est, False), (end, after, True)] + later
    return [(0.0, est, False), (OPEN_S, after, False)] + later
