"""Named cameras: where a still or the app looks from.

=========  ==============================================================
overview   總覽: the whole court from above the south-east — 堂, 庭 and the
           侯 70 m away in one frame, long axis across the picture
hall       堂上: the hall and the upper court from the south-east, close
           enough to read every person on the 堂 and at the stairs
range      射道: from above and behind the 堂, down the 侯道 to the 侯
plan       平面: top-down orthographic, north up, like the 儀禮圖; frames
           the hall and upper court, or the whole court when anyone or
           anything of the shooting is down the range
archer     射者: from behind the 上射's 物, towards the 侯
guest      賓席: from the 賓's mat, looking out over the court
target     獲者: from the 乏 back to the 堂
follow     隨: behind and above one actor (``follow:bin``; plain ``follow``
           follows whoever acts at that moment)
=========  ==============================================================

Cameras are pure data (:class:`Camera`), computed from the layout and the
pose; :func:`apply` puts one on a VTK renderer.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

VIEWS: dict[str, str] = {
    "auto": "導演", "overview": "總覽", "hall": "堂上", "range": "射道", "plan": "平面", "archer": "射者",
    "guest": "賓席", "target": "獲者", "follow": "隨",
}

EYE_M = 1.5          # eye height of a standing person
#: a fixed camera's height over the floor it stands on: above the crown of the tallest headwear (the 大夫's 冠,
#: frame_rules.CROWN_M 1.9 m) by more than clearance.MARGIN — people walk under it, never through it
ABOVE_HEADS_M = 2.3


class ViewError(ValueError):
    """An unknown view name or actor to follow (one line)."""


#: the views that look down the range or from the 物 and the 乏: only in a hall with a range (not 鄉飲酒禮's 庠)
RANGE_VIEWS = ("range", "archer", "target")


def applies(view: str, lay) -> bool:
    """Whether a named view has something to show in this layout (the range's views need a 侯)."""
    return parse(view)[0] not in RANGE_VIEWS or "target.hou" in lay


@dataclass(frozen=True)
class Camera:
    name: str
    title: str
    position: tuple[float, float, float]
    focal_point: tuple[float, float, float]
    view_up: tuple[float, float, float] = (0.0, 0.0, 1.0)
    view_angle: float = 30.0          # vertical, degrees (perspective)
    parallel: bool = False
    parallel_scale: float = 1.0       # half the viewport height in metres (orthographic)

    def px_per_m(self, viewport_h_px: int) -> float:
        """Pixels per metre: exact in the plan; at the focal point in a perspective view."""
        if self.parallel:
            return viewport_h_px / (2.0 * self.parallel_scale)
        d = math.dist(self.position, self.focal_point)
        return viewport_h_px / (2.0 * d * math.tan(math.radians(self.view_angle) / 2))


def parse(name: str) -> tuple[str, str | None]:
    """'follow:bin' → ('follow', 'bin'); checks the view name."""
    base, _, arg = name.partition(":")
    if base not in VIEWS:
        raise ViewError(f"unknown view {name!r} (views: {', '.join(VIEWS)}; follow:ACTOR follows one actor)")
    if arg and base != "follow":
        raise ViewError(f"view {base!r} takes no argument (only follow:ACTOR does)")
    return base, (arg or None)


def _bearing_dir(bearing_deg: float, elevation_deg: float) -> np.ndarray:
    """Unit vector from the focal point towards a camera at a compass bearing and elevation."""
    b, e = math.radians(bearing_deg), math.radians(elevation_deg)
    return np.array([math.sin(b) * math.cos(e), math.cos(b) * math.cos(e), math.sin(e)])


def _fit(points: np.ndarray, direction: np.ndarray, view_angle: float, aspect: float,
         margin: float = 0.9) -> tuple[np.ndarray, np.ndarray]:
    """Camera position and focal point so that every point shows (perspective, up = +z)."""
    pts = np.asarray(points, dtype=float)
    focal = (pts.min(axis=0) + pts.max(axis=0)) / 2
    d = direction / np.linalg.norm(direction)
    fwd = -d
    right = np.cross(fwd, (0.0, 0.0, 1.0))
    right /= np.linalg.norm(right)
    up = np.cross(right, fwd)
    tv = math.tan(math.radians(view_angle) / 2) * margin
    th = tv * aspect
    rel = pts - focal
    x, y, z = rel @ right, rel @ up, rel @ fwd
    # distance so that |x| ≤ th (D + z) and |y| ≤ tv (D + z) for every point
    need = np.maximum(np.abs(x) / th - z, np.abs(y) / tv - z)
    dist = float(need.max())
    # re-centre across the picture (perspective makes the near side bigger)
    for _ in range(3):
        D = dist + z
        sx, sy = x / D, y / D
        cx = (sx.max() + sx.min()) / 2
        cy = (sy.max() + sy.min()) / 2
        focal = focal + right * cx * dist + up * cy * dist
        rel = pts - focal
        x, y, z = rel @ right, rel @ up, rel @ fwd
        need = np.maximum(np.abs(x) / th - z, np.abs(y) / tv - z)
        dist = float(need.max())
    return focal + d * dist, focal


def camera(view: str, rite, pose, aspect: float = 16 / 9, focus: tuple[str, ...] = ()) -> Camera:
    """The named camera for a pose (``focus``: the actors acting now, for ``follow``)."""
    base, arg = parse(view)
    lay = rite.layout
    if not applies(base, lay):
        raise ViewError(f"view {base!r}: {rite.title} has no range (the views are "
                        f"{', '.join(v for v in VIEWS if applies(v, lay))})")
    chi = lay.reading.chi_m
    h = lay.hall
    m = lambda pid: np.array(lay.xyz_m(pid))   # noqa: E731
    gate_y = lay["hall.gate"].xyz_chi[1] * chi
    north = (h.house_depth + 12.0) * chi
    cw = lay.reading.court_width_chi / 2 * chi
    ridge = h.z_dong * chi
    if "target.hou" in lay:
        hou = m("target.hou")
        hou_top = lay["target.east_post"].size_chi[2] * chi
    else:                                    # no range (鄉飲酒禮): the court's far end is the 門
        hou, hou_top = np.array([0.0, gate_y, 0.0]), 0.0
    title = VIEWS[base]
    if base == "auto":                       # the director's camera (scene.render.shots)
        from .shots import camera_at
        return camera_at(rite, pose.t)
    if base == "overview":
        pts = np.array([[-cw, gate_y, 0], [cw, gate_y, 0], [-cw, north, 0], [cw, north, 0],
                        [-h.rong_x * chi, h.y_dong * chi, ridge], [h.rong_x * chi, h.y_dong * chi, ridge],
                        [0, hou[1], hou_top]])
        pos, foc = _fit(pts, _bearing_dir(112.0, 34.0), 22.0, aspect, 0.96)
        return Camera(base, title, tuple(pos), tuple(foc), view_angle=22.0)
    if base == "hall":
        rx = h.rong_x * chi
        pts = np.array([[-cw * 0.75, -16.0, 0], [cw * 0.75, -16.0, 0], [-rx, h.house_depth * chi, 0],
                        [rx, h.house_depth * chi, 0], [-rx, h.y_dong * chi, ridge], [rx, h.y_dong * chi, ridge],
                        [-rx, 0, h.z_eave * chi], [rx, 0, h.z_eave * chi]])
        pos, foc = _fit(pts, _bearing_dir(158.0, 38.0), 30.0, aspect, 0.97)
        return Camera(base, title, tuple(pos), tuple(foc), view_angle=30.0)
    if base == "range":
        pts = np.array([[-cw * 0.7, hou[1] - 2, 0], [cw * 0.7, hou[1] - 2, 0], [0, hou[1], hou_top],
                        [-h.platform_x * chi, 0, 0], [h.platform_x * chi, 0, 0], [0, 6, 0]])
        pos, foc = _fit(pts, _bearing_dir(14.0, 24.0), 32.0, aspect, 0.95)
        return Camera(base, title, tuple(pos), tuple(foc), view_angle=32.0)
    if base == "plan":
        full = _needs_full_court(rite, pose, gate_y, hou[1])
        if full:
            y0, y1 = gate_y - 4.0, north + 2.0
        else:
            y0, y1 = -19.0, north + 1.0
        x0, x1 = -cw - 2.0, cw + 2.0
        half_h = max((y1 - y0) / 2, (x1 - x0) / 2 / aspect) * 1.02
        cy = (y0 + y1) / 2
        return Camera(base, title + ("·全庭" if full else "·堂與庭北"), (0.0, cy, 400.0), (0.0, cy, 0.0),
                      view_up=(0.0, 1.0, 0.0), parallel=True, parallel_scale=half_h)
    if base == "archer":
        # behind the 上射's left shoulder, at eye height where no one stands or walks while the stage plays and
        # the 侯 is in sight; else above every head (at eye height behind the 物 the camera stood in the heads
        # of the next pair and of the 賓 on his mat, issue 42): the archer large as he looses, the 侯 down the range
        wu = m("tang.wu_right")
        far = np.array([0.0, hou[1], m("target.centre")[2]])
        pos = _archer_spot(rite, pose.t, wu, far, hou_top)
        # the whole archer (his feet to the top of his 冠) and the 侯 in the picture (angles from the camera)
        pts = [far, wu + (0.0, 0.0, 0.25), wu + (0.0, 0.0, 2.0)]
        yaw = np.array([math.atan2(q[0] - pos[0], q[1] - pos[1]) for q in pts])
        yaw = yaw[0] + (yaw - yaw[0] + math.pi) % (2 * math.pi) - math.pi
        pitch = np.array([math.atan2(q[2] - pos[2], math.hypot(*(q - pos)[:2])) for q in pts])
        y_mid, p_mid = (yaw.max() + yaw.min()) / 2, (pitch.max() + pitch.min()) / 2
        tall = (pitch.max() - pitch.min()) / 0.84
        wide = 2 * math.atan(math.tan((yaw.max() - yaw.min()) / 0.84 / 2) / aspect)
        ang = min(75.0, max(30.0, math.degrees(max(tall, wide))))
        foc = pos + 10.0 * np.array([math.sin(y_mid) * math.cos(p_mid), math.cos(y_mid) * math.cos(p_mid),
                                     math.sin(p_mid)])
        return Camera(base, title, tuple(pos), tuple(foc), view_angle=float(ang))
    if base == "guest":
        # over the 賓's shoulder from above his head (at his eyes the camera stood in his head when he sat)
        mat = m("mat.bin")
        pos = _spot(rite, pose.t, np.array([mat + d for d in GUEST_SPOTS]))
        foc = np.array([mat[0] * 0.3, -24.0, 0.0])
        return Camera(base, title, tuple(pos), tuple(foc), view_angle=58.0)
    if base == "target":
        fa = m("range.fa")
        pos = _spot(rite, pose.t, np.array([fa + d for d in TARGET_SPOTS]))   # above the 獲者's head behind the 乏
        foc = np.array([0.0, h.y_mei * chi, 2.0])
        return Camera(base, title, tuple(pos), tuple(foc), view_angle=24.0)
    # follow
    aid = arg or (focus[0] if focus else None)
    if aid is None:
        aid = "zhuren"
    if aid not in pose.actor_ids:
        raise ViewError(f"unknown actor {aid!r} to follow (actors: {', '.join(pose.actor_ids)})")
    i = pose.actor_ids.index(aid)
    p = np.asarray(pose.actor_xyz_m[i], dtype=float)
    hd = math.radians(float(pose.heading_deg[i]))
    fwd = np.array([math.sin(hd), math.cos(hd), 0.0])
    pos = p - fwd * 6.5 + (0, 0, 3.6)
    foc = p + fwd * 3.0 + (0, 0, 0.9)
    name = rite.names.get(aid, aid)
    return Camera(f"follow:{aid}", f"{title}·{name}", tuple(pos), tuple(foc), view_angle=42.0)


#: where the 射者 view may stand, from the 上射's 物 (m), best first: over his left shoulder at eye height; the
#: last, above every head, is always clear of the people (:data:`ABOVE_HEADS_M`)
ARCHER_SPOTS = ((-0.6, 1.2, 1.5), (-0.6, 1.6, 1.5), (-0.9, 1.6, 1.5), (-0.9, 2.0, 1.5), (-0.9, 2.4, 1.5),
                (-1.2, 1.6, 1.5), (-1.2, 2.0, 1.7), (-0.9, 3.0, ABOVE_HEADS_M), (-0.9, 3.0, 2.1), (-0.9, 2.4, 1.9),
                (-0.6, 1.2, 1.7), (-1.6, 0.6, 1.5), (-2.4, 0.0, 1.5), (-0.3, 3.0, 1.6), (-2.4, -0.8, 1.4))
#: the 賓席 view's places from the 賓's mat: over his shoulder above every head, lower under a low roof
GUEST_SPOTS = ((0.5, 0.6, ABOVE_HEADS_M), (0.5, 0.6, 2.1), (0.5, 0.6, 1.9), (0.9, 0.3, 1.6), (1.2, 0.0, 1.5),
               (-1.2, 0.0, 1.5), (0.0, -1.2, 1.5), (2.0, -0.6, 1.5), (-2.0, -0.6, 1.5))
#: the 獲者 view's places from the 乏: above the 獲者's head behind it, or beside it
TARGET_SPOTS = ((0.6, -1.2, ABOVE_HEADS_M - 0.15), (0.6, -1.2, 1.7), (1.4, -1.2, 1.7), (1.4, -2.0, 1.7),
                (-1.4, -1.2, 1.7))


def _spot(rite, t: float, spots: np.ndarray, see: np.ndarray | None = None) -> np.ndarray:
    """Of the camera places ``spots`` (best first), the first clear of the hall and of everyone for the whole
    stage at ``t`` (:mod:`.clearance`, every second) — with ``see``, the clear one that sees the most of those
    points (the hall and the things between); none clear: the one clear of the hall that someone stands in
    for the fewest seconds (a reading whose 堂 is too low and crowded for all of them)."""
    from .clearance import STEP_S, in_people, in_solid
    from .frame_rules import Occluders
    st = next((s for s in rite.stages if s.start_s <= t <= s.end_s), None)
    t0, t1 = (st.start_s, st.end_s) if st is not None else (t, t)
    smp = rite.sample(np.arange(t0, t1 + 1e-9, STEP_S))
    xyz, vis = smp["actor_xyz_m"], np.asarray(smp["visible"], bool)
    free = ~in_solid(rite, spots)
    busy = np.zeros(len(spots), int)                  # the seconds someone stands in each
    for k in range(len(xyz)):
        busy += in_people(spots, xyz[k][vis[k]])
    clear = np.flatnonzero(free & (busy == 0))
    if not len(clear):
        ok = np.flatnonzero(free)
        return spots[min(ok, key=lambda k: (int(busy[k]), k))] if len(ok) else spots[-1]
    if see is None:
        return spots[clear[0]]
    seen = (~Occluders(rite).hits(spots[clear], see, np.zeros((0, 3)))).sum(axis=1)
    return spots[clear[max(range(len(clear)), key=lambda j: (int(seen[j]), -j))]]


def _archer_spot(rite, t: float, wu: np.ndarray, far: np.ndarray, hou_top: float) -> np.ndarray:
    """The first of :data:`ARCHER_SPOTS` clear of the hall and of everyone for the whole stage at ``t``, the
    one that sees the most of the 侯 (:func:`_spot`)."""
    tgt = np.array([far, (far[0], far[1], hou_top - 0.3), (far[0] - 3.0, far[1], 1.0), (far[0] + 3.0, far[1], 1.0)])
    return _spot(rite, t, np.array([wu + d for d in ARCHER_SPOTS]), tgt)


def _needs_full_court(rite, pose, gate_y: float, hou_y: float) -> bool:
    """Whole court in the plan when someone (or an arrow in flight) is down the range."""
    vis = np.asarray(pose.visible, dtype=bool)
    ys = pose.actor_xyz_m[vis, 1]
    if np.any((ys < -20.0) & (ys > gate_y - 3.0)):
        return True
    for k, oid in enumerate(pose.object_ids):
        st = pose.object_state[k] or ""
        if oid.startswith("arrow.") and ("flight" in st or "侯" in st or st.startswith("miss")):
            return True
    return False


def apply(cam: Camera, renderer) -> None:
    """Put a camera on a VTK renderer (and a clipping range that suits a 400 m field)."""
    c = renderer.GetActiveCamera()
    c.SetPosition(*cam.position)
    c.SetFocalPoint(*cam.focal_point)
    c.SetViewUp(*cam.view_up)
    if cam.parallel:
        c.ParallelProjectionOn()
        c.SetParallelScale(cam.parallel_scale)
        c.SetClippingRange(1.0, 800.0)
    else:
        c.ParallelProjectionOff()
        c.SetViewAngle(cam.view_angle)
        d = math.dist(cam.position, cam.focal_point)
        c.SetClippingRange(max(0.3, d * 0.02), d + 400.0)


def camera_from_json(text: str | dict, name: str = "free") -> Camera:
    """A camera from JSON (the app sends the browser's camera for an export); one-line errors."""
    from ..validation import Camera as CameraInput
    from ..validation import convert, load_json
    if isinstance(text, str) and len(text) > 4096:
        raise ViewError(f"--camera: {len(text):,} characters is not a camera")
    if isinstance(text, str):
        d = load_json(text, CameraInput, "--camera", error=ViewError)
    else:
        d = convert(dict(text), CameraInput, "--camera", error=ViewError)
    cam = Camera(d.name or name, VIEWS.get(name.split(":")[0], name), d.position, d.focal_point, d.view_up,
                 d.view_angle, d.parallel, d.parallel_scale)
    if math.hypot(*cam.view_up) < 1e-9:
        raise ViewError("--camera: view_up is zero")
    if math.dist(cam.position, cam.focal_point) < 1e-6 or not 1.0 <= cam.view_angle <= 120.0:
        raise ViewError("--camera: position equals focal_point, or view_angle is outside 1–120°")
    return cam
