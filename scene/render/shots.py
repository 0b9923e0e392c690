"""The director's camera (view ``auto``): shots computed from the compiled rite, as a track evaluated at t.

For every step (a span of the timeline) the director frames the people the step names, the ground they
cover while it lasts, and what they act on (the 侯 while an arrow flies).  A long step is cut into an odd
number of windows of about :data:`WINDOW_S` (the step's middle is the middle of one window, never an
ease).  For each window:

* **hold** the shot on screen while it still frames everything the window needs, big enough;
* **ease** (smoothstep over at most :data:`EASE_S`) to the new shot when it is near the old one;
* **cut** to it when it is far.

A shot is searched over compass bearings × elevations × view angles (the ``views._fit`` framing of
the points), keeping only cameras inside the court walls (or under the eaves of the 堂, between the
序; or in front of the gate while the people are out there) and under the roof line (the ridge), with
no 楹, 序 or court wall between the camera and anyone acting (outside the 門 the court is seen only through
it); the best is the one that draws the smallest of its figures tallest (a little preference to keep the
bearing).

The rite opens on an establishing shot (:func:`establishing`): the people of the first step large in the
foreground at the 門, the 侯 and the 堂 down the court, held :data:`OPEN_S` s before the first shot.

Pure numpy.  The track (``Track``): key times ``t``, cameras ``v`` (position, focal point, view angle)
and ``ease`` flags — from key k to k+1 the camera holds key k unless key k+1 eases, then it blends with
smoothstep; the pack ships it as ``director`` (PACK.md) and the player evaluates it the same way.
"""
from __future__ import annotations

import weakref
from dataclasses import dataclass

import numpy as np

from .camera_world import World as _World
from .camera_world import _allowed, _hidden_each
from .clearance import in_grid, in_people
from .cuts import LANE_M, _lane, _with_landings, _with_opening, establishing, target_shot  # noqa: F401
from .frame_rules import (
    ASPECT,
    FIGURE_M,
    PAD_M,
    SAFE_BOTTOM,
    SAFE_TOP,
    mark_points,
    min_height,
    sight_core,
    sight_points,
)
from .last_answers import LastAnswers
from .shot_checks import (
    checks,
    figure_heights,
    heights_many,
    passes,
    passes_many,
    project,
    project_on,
    spread_m,
)
from .shot_windows import WINDOW_S, _is_row, _seen_all, _segments, _unique_rows, _windows  # noqa: F401
from .views import Camera

PAD_Y_M = 1.0         # the ground kept north and south of each person, m
MIN_FIG = 0.06        # of the frame height: the least any shot keeps (a group wider than the court)
# the vertical band the framing fits the people into (of the half frame, with a little margin inside the
# free part the page leaves between its toolbar and its caption band: frame_rules.SAFE_TOP / SAFE_BOTTOM)
FIT_CENTRE = (SAFE_TOP + SAFE_BOTTOM) / 2
FIT_HALF = (SAFE_TOP - SAFE_BOTTOM) / 2 * 0.94
EASE_S = 1.5
MARGIN = 0.9          # of the half frame
BEARINGS = (180, 160, 200, 140, 220, 120, 240, 90, 270, 60, 300, 0, 20, 340, 30, 330)
ELEVATIONS = (26.0, 14.0, 40.0, 6.0)
#: looked from when no camera of :data:`ELEVATIONS` sees every acting person past the others: people standing
#: or kneeling in rows or a block (the 工 on the 堂, the 笙 below, 0.7 m apart: §11 乃合樂) hide each other from
#: any low camera — from above, the heads and shoulders of the ones behind clear the ones in front
HIGH_ELEVATIONS = (55.0, 68.0)
ANGLES = (30.0, 48.0, 66.0)
TITLE = "導演"
ROOM_M = 0.35         # m: the room the director keeps from the hall and the things (clearance.MARGIN 0.25 and a
                      # margin for the grid's cells: an ease's way is judged at points, the test at others)
FACE_BONUS = 0.05     # of the score: a camera that sees the faces and hands of everyone bowing (a 拜, a 揖)
BOWS = frozenset({"bow", "bow_twice", "answer_bow", "answer_bow_twice", "salute"})
CLOSE_H = 0.16        # one or two men with the tally or the 豐 (the count, the drink): held only this big
OPEN_S = 2.4          # the establishing shot holds this long at the start of the rite (while the 主人 is inside)
OPEN_Z = 3.5          # its height (m): above the people's heads, under the roof line


@dataclass(frozen=True)
class Track:
    t: np.ndarray          # (K,)
    v: np.ndarray          # (K, 7): position xyz, focal xyz, view angle
    ease: np.ndarray       # (K,) bool: blend from the key before into this one

    def at(self, t: float) -> np.ndarray:
        k = int(np.searchsorted(self.t, t, side="right") - 1)
        if k < 0:
            return self.v[0].copy()
        if k + 1 < len(self.t) and self.ease[k + 1]:
            s = (t - self.t[k]) / max(1e-9, self.t[k + 1] - self.t[k])
            s = s * s * (3 - 2 * s)
            return self.v[k] * (1 - s) + self.v[k + 1] * s
        return self.v[k].copy()


def as_camera(v: np.ndarray) -> Camera:
    return Camera("auto", TITLE, tuple(float(c) for c in v[:3]), tuple(float(c) for c in v[3:6]),
                  view_angle=float(v[6]))


def _frames(v: np.ndarray, pts: np.ndarray, margin: float = 0.97) -> bool:
    u, w, depth = project(v, pts)
    return bool(np.all(depth > 0.3) and np.all(np.abs(u) <= margin) and np.all(np.abs(w) <= margin))


def _in_band(v: np.ndarray, pts: np.ndarray) -> bool:
    """All the points in front of the camera, within the side margin and the vertical band the page leaves
    free (frame_rules.SAFE_TOP / SAFE_BOTTOM)."""
    u, w, depth = project(v, pts)
    return bool(np.all(depth > 0.3) and np.all(np.abs(u) <= 0.97) and np.all(w <= SAFE_TOP)
                and np.all(w >= SAFE_BOTTOM))


def _candidates(elevations=ELEVATIONS) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    c = [(b, e, a) for e in elevations for a in ANGLES for b in BEARINGS]
    b, e, a = (np.array(x, dtype=float) for x in zip(*c))
    return b, e, a


_CAND = _candidates()
_HIGH = _candidates(HIGH_ELEVATIONS)


class _Rig:
    """The candidate cameras' directions and frames, made once (they do not depend on the shot); each axis
    as a row (C,), so that a fit works on (P, C) planes: the points down, the cameras across — a max or a
    min over the points is then one pass down the planes, not C short ones."""

    def __init__(self, b: np.ndarray, e: np.ndarray, a: np.ndarray, margin: float) -> None:
        br, er = np.radians(b), np.radians(e)
        self.d = np.column_stack([np.sin(br) * np.cos(er), np.cos(br) * np.cos(er), np.sin(er)])
        fwd = -self.d
        right = np.cross(fwd, (0.0, 0.0, 1.0))
        right /= np.linalg.norm(right, axis=1, keepdims=True)
        up = np.cross(right, fwd)
        tv = np.tan(np.radians(a) / 2) * margin
        self.rows = [[m[:, k] for k in range(3)] for m in (right, up, fwd)]
        # the fit's constants: vertically the points go into the band [FIT_CENTRE - FIT_HALF, FIT_CENTRE +
        # FIT_HALF] of the half frame (the page's toolbar above, its captions below): above the centre line a
        # point needs the distance y / (c + h), below it −y / (h − c)
        tan = tv / margin
        self.inv_up, self.inv_down = 1.0 / (tan * (FIT_CENTRE + FIT_HALF)), -1.0 / (tan * (FIT_HALF - FIT_CENTRE))
        self.inv_th, self.centre = 1.0 / (tv * ASPECT), tan * FIT_CENTRE
        self.fits = LastAnswers(64)   # the last fits (points' bytes → (pos, foc)): one in 13 comes again


_RIGS: dict = {}


def _rig(b: np.ndarray, e: np.ndarray, a: np.ndarray, margin: float) -> _Rig:
    key = (b.tobytes(), e.tobytes(), a.tobytes(), margin)
    if key not in _RIGS:
        _RIGS[key] = _Rig(b, e, a, margin)
    return _RIGS[key]


def _fit_all(pts: np.ndarray, b: np.ndarray, e: np.ndarray, a: np.ndarray, margin: float = MARGIN):
    """``views._fit`` for many directions and view angles at once: positions and focal points (C, 3).

    The first projection as ``np.einsum('cpk,ck->cp', pts - focal, axis)`` does it (the products of x and z
    summed first, then y's), written out per axis, without the (C, P, 3) stacks; each re-centring then
    shifts the projected coordinates instead of projecting again.  (Each value is made by the same
    operations in the same order whatever the layout: the planes are (P, C) for speed.)"""
    rig = _rig(b, e, a, margin)
    key = pts.tobytes()
    kept = rig.fits.get(key)
    if kept is not None:
        return kept
    f0 = (pts.min(0) + pts.max(0)) / 2
    focal = [np.full(len(b), f0[k]) for k in range(3)]                  # (C,) each
    rel = [pts[:, k:k + 1] - f0[k] for k in range(3)]                   # (P, 1): the same for every camera

    def distance(x, y, z):
        # (one of y·inv_up and y·inv_down is negative: the larger is the one that binds; |x|·inv_th ≥ 0, so
        # no need of a max with 0)
        t = np.abs(x)
        t *= rig.inv_th
        u, v = y * rig.inv_up, y * rig.inv_down
        t = np.maximum(t, np.maximum(u, v, out=u), out=t)
        t -= z
        return t.max(0)
    x, y, z = (project_on(rel, v) for v in rig.rows)                     # (P, C)
    dist = distance(x, y, z)
    for _ in range(3):
        D = z + dist
        sx = x / D
        sy = np.divide(y, D, out=D)
        cx = (sx.max(0) + sx.min(0)) / 2
        cy = (sy.max(0) + sy.min(0)) / 2 - rig.centre                 # the band's middle, not the frame's
        mx, my = cx * dist, cy * dist
        focal = [(focal[k] + rig.rows[0][k] * mx) + rig.rows[1][k] * my for k in range(3)]
        # the focal point moved by mx along right and my along up (orthonormal, with fwd): the points'
        # coordinates shift by as much, depth unchanged — no new projection (equal to ~1e-12 m)
        x -= mx
        y -= my
        dist = distance(x, y, z)
    foc = np.column_stack(focal)
    return rig.fits.put(key, (foc + rig.d * dist[:, None], foc))


def frame(world: _World, feet: np.ndarray, extra: np.ndarray, prev_bearing: float | None,
          others: np.ndarray | None = None, seen: np.ndarray | None = None, chk: tuple = (),
          lane: tuple[float, float, float] | None = None, crowd: np.ndarray | None = None,
          facing: np.ndarray | None = None):
    """:func:`_frame` from the usual heights (:data:`ELEVATIONS`) — and, when none of them sees every acting
    person past the others or passes the window's checks, from above too (:data:`HIGH_ELEVATIONS`: a row or
    a block of people hiding each other), the higher kept only when it sees or passes more: (camera vector,
    bearing, min height, checks passed)."""
    args = (world, feet, extra, prev_bearing, others, seen, chk, lane, crowd, facing)
    v, b, h, npass, clear = _frame(*args, _CAND)
    if (npass < len(chk) or not clear) and len(feet):
        v2, b2, h2, n2, c2 = _frame(*args, _HIGH)
        if (n2, c2) > (npass, clear):
            v, b, h, npass = v2, b2, h2, n2
    return v, b, h, npass


def _frame(world: _World, feet: np.ndarray, extra: np.ndarray, prev_bearing: float | None,
           others: np.ndarray | None, seen: np.ndarray | None, chk: tuple,
           lane: tuple[float, float, float] | None, crowd: np.ndarray | None,
           facing: np.ndarray | None, cand: tuple[np.ndarray, np.ndarray, np.ndarray]):
    """The best shot of figures at ``feet`` (and the ``extra`` points), seen past the ``others`` (everyone
    on stage, and the 乏 and the 侯), with the ``seen`` points (the tally, the 豐) in sight too, and passing
    the audit's checks ``chk`` of the steps whose middle falls in the window (:mod:`.shot_checks`; when no
    candidate passes them all, the one that passes most): (camera vector, bearing, min height, checks
    passed, all of them seen)."""
    # ground around each person: what he stands by and acts on (less of it towards and away from the camera
    # of a high view, where it would fill the frame with floor and push the people to its top edge)
    pad = np.array([(0, 0, 0), (0, 0, FIGURE_M), (PAD_M, 0, 0), (-PAD_M, 0, 0), (0, PAD_Y_M, 0), (0, -PAD_Y_M, 0)])
    pts = (feet[:, None] + pad[None]).reshape(-1, 3)
    if len(extra):
        pts = np.vstack([pts, extra])
    b, e, a = cand
    pos, foc = _fit_all(pts, b, e, a)
    ok = _allowed(world, pos, outside=bool(len(feet) and feet[:, 1].min() < world.gate_y))
    if lane is not None:
        # not in the way of the arrows (x0 to x1, south of y): the archers seen from beside, not from the range
        x0, x1, y = lane
        ok &= ~((pos[:, 0] > x0) & (pos[:, 0] < x1) & (pos[:, 1] < y))
    if ok.any():
        # never inside the hall, a thing or a person (issue 42): room all round, the near plane's and more
        near = np.vstack([feet, others]) if others is not None and len(others) else feet
        if crowd is not None and len(crowd):
            near = np.vstack([near, crowd])
        live = ok.nonzero()[0]
        ok[live] = ~_near_solid(world, pos[live]) & ~in_people(pos[live], near)
    mids = sight_points(feet)
    if ok.any() and len(mids):
        hid = _hidden_each(world, pos[ok], sight_core(mids)).sum(axis=1)
        # none sees them all (a file of men passing through the 門, seen past its leaves only from straight
        # in front): the cameras that lose the fewest of them, not the court's corner, which loses more
        ok[ok] = hid == hid.min()
    if ok.any():
        # (the heights of the cameras left in the running only: the others' scores are set aside below)
        h = np.zeros(len(b))
        if len(feet):
            h[ok] = heights_many(pos[ok], foc[ok], a[ok], feet)
        turn = np.zeros(len(b)) if prev_bearing is None else np.abs((b - prev_bearing + 180) % 360 - 180) / 180
        score = np.minimum(h, 0.2) - 0.02 * turn + np.where(e >= 14, 0.004, 0.0)
        if facing is not None and len(facing):
            # a 拜 or a 揖: the cameras in front of the people bowing (or beside them: a profile shows the face
            # and the hands) first — the share of them each sees so (issue 42)
            at, fwd = facing[:, :2], facing[:, 3:5]
            d = pos[:, None, :2] - at[None]
            d /= np.maximum(np.linalg.norm(d, axis=2, keepdims=True), 1e-9)
            score += FACE_BONUS * ((d * fwd[None]).sum(axis=2) > -0.2).mean(axis=1)
        score[~ok] = -1e9
        # the best camera that also sees past the other people, the 乏 and the 侯 (asked in the order of the
        # score, a few at a time: most shots find one among the first); none: the best of the building's test
        order = np.argsort(-score, kind="stable")[:int(ok.sum())]
        k, best = int(order[0]), (-1, False)
        bodies = others if others is not None else np.zeros((0, 3))
        for c0 in range(0, len(order), 12) if len(mids) or chk else ():
            cand = order[c0:c0 + 12]
            cams = pos[cand]
            clear = ~world.occluders.blocked(cams, mids, bodies) if len(mids) else np.ones(len(cand), bool)
            if seen is not None and len(seen):
                clear &= ~world.occluders.hits(cams, seen, bodies).any(axis=1)
            npass = sum((passes_many(world, cams, foc[cand], a[cand], c).astype(int) for c in chk),
                        np.zeros(len(cand), int))
            # the most checks passed, then the window's own sight test, then the score (the order)
            j = int(np.argmax(npass * 2 + clear))
            if (int(npass[j]), bool(clear[j])) > best:
                k, best = int(cand[j]), (int(npass[j]), bool(clear[j]))
            if best == (len(chk), True):
                break
        seen_all = best[1] or not (len(mids) or chk)
        return np.array([*pos[k], *foc[k], a[k]]), float(b[k]), float(h[k]), max(best[0], 0), seen_all
    # nothing fits inside: from the court's south-east corner, as wide as it takes
    pos = np.array([world.cw - 0.5, world.gate_y + 0.5, world.ridge])
    foc = (pts.min(0) + pts.max(0)) / 2
    u, w, _ = project(np.array([*pos, *foc, 60.0]), pts)
    ang = float(min(110.0, 60.0 * max(1.0, np.abs(w).max() / MARGIN, np.abs(u).max() / MARGIN)))
    v = np.array([*pos, *foc, ang])
    return (v, 315.0, float(figure_heights(v, feet).min()) if len(feet) else 0.0,
            sum(passes(world, v, c) for c in chk), False)


def _near_solid(world: _World, pos: np.ndarray) -> np.ndarray:
    """(C,) the cameras within :data:`ROOM_M` of the hall or a thing — or within the test's own
    clearance.MARGIN (both balls of points: the test's, and a wider one for between an ease's judged points)."""
    sol = world.occluders.solid
    return in_grid(sol, pos) | in_grid(sol, pos, ROOM_M)


class _Needs:
    """What a window of a step must show: the named people's feet at each sample, the 侯 while arrows fly."""

    def __init__(self, rite, world: _World) -> None:
        self.rite, self.world = rite, world
        self.idx = {a: i for i, a in enumerate(rite.actor_ids)}
        self.arrows = [k for k, o in enumerate(rite.object_ids) if o.startswith("arrow.")]
        self.flights = self._flights()
        self._starts, self._ends = (np.array([f[j] for f in self.flights], dtype=float) for j in (0, 1))

    def _flights(self) -> list[tuple[float, float]]:
        out = []
        for k in self.arrows:
            for _t, kind, value in self.rite.director.objects[self.rite.object_ids[k]].events:
                if kind == "path":
                    out.append((float(value[0][0]), float(value[0][-1])))
        return sorted(out)

    def flying(self, t0: float, t1: float) -> bool:
        return bool(np.any((self._starts < t1) & (self._ends > t0)))

    @staticmethod
    def times(t0: float, t1: float) -> np.ndarray:
        return np.linspace(t0, t1, max(2, min(12, int((t1 - t0) / 1.0) + 2)))

    def preload(self, segments) -> None:
        """Sample the whole rite once at every segment's times (one ``Rite.sample``)."""
        times = [self.times(a, b) for a, b, *_ in segments]
        self._at = np.cumsum([0] + [len(x) for x in times])
        smp = self.rite.sample(np.concatenate(times))
        self._xyz, self._vis, self._hd = smp["actor_xyz_m"], smp["visible"], smp["heading_deg"]

    def where(self, k: int, who) -> np.ndarray:
        """Where the ones of ``who`` on stage stand at the middle of segment ``k`` ((N, 3))."""
        ids = [self.idx[a] for a in who if a in self.idx]
        mid = (self._at[k] + self._at[k + 1]) // 2
        return self._xyz[mid][ids][self._vis[mid][ids]]

    def of(self, k: int, who, t0: float, t1: float, shooting: bool):
        ids = [self.idx[a] for a in who if a in self.idx]
        sl = slice(self._at[k], self._at[k + 1])
        xyz, visible = self._xyz[sl], self._vis[sl]
        vis = visible[:, ids]                                              # (T, named)
        feet = xyz[:, ids].transpose(1, 0, 2)[vis.T]                       # each one's samples on stage
        # the people a shot must see past, where they stand at the window's middle: everyone on stage (the
        # ones it names too: one of a pair can hide the other)
        mid = len(xyz) // 2
        self.others = xyz[mid][visible[mid].nonzero()[0]]
        # where the named stand at the window's middle and which way they face ((N, 6): xyz, then the facing)
        hd = np.radians(self._hd[sl][mid][ids])
        named = vis[mid]
        self.facing = np.column_stack([xyz[mid][ids], np.sin(hd), np.cos(hd), np.zeros(len(ids))])[named]
        # and where anyone stands at any sample of the window: no camera there (clearance.in_people)
        self.everyone = _unique_rows(xyz[visible])
        self.n = int(vis.any(axis=0).sum())
        extra = []
        if not shooting and self.flying(t0, t1):
            # (a shooting window frames the archers alone: the 侯 has its own shot as each arrow lands —
            # :func:`_with_landings`; one frame of both drew the archers 3 % of the picture, issue 42)
            w = self.world
            extra = [w.hou, (w.hou[0], w.hou[1], w.hou_top)]
        # a man standing still is the same point at every sample: once is enough (every use of the feet is a
        # max, a min or an any over them — the fit, the heights, the sight lines — so the shot is the same)
        return _unique_rows(feet), np.array(extra, dtype=float).reshape(-1, 3)


def build_track(rite) -> Track:
    """The director's shots for the whole rite (deterministic).

    Every window also carries the audit's checks of the steps whose middle falls in it (:mod:`.shot_checks`):
    a shot is held only while it passes them, framed to pass them, and an ease that would cross one with a
    blend that fails it is a cut.  When no one shot passes all the checks of a window (the music on the 堂
    while the archer shoots 50 m down the court), the window is cut between them, each piece framing its own
    step's people."""
    world = _World(rite)
    needs = _Needs(rite, world)
    keys: list[tuple[float, np.ndarray, bool]] = []
    state: dict = {"cur": None, "bearing": None, "lane": None, "facing": None}
    bow_spans = [sp for sp in rite.spans if sp.do in BOWS]
    segments = _segments(rite)
    needs.preload(segments)
    allchk = sorted(checks(rite, world), key=lambda c: c.t)
    ct = np.array([c.t for c in allchk])

    def holds(cur, feet, extra, seen, n, others, chk) -> bool:
        lane = state["lane"]
        if lane is not None and lane[0] < cur[0] < lane[1] and cur[1] < lane[2]:
            return False                             # in the arrows' way
        hc = float(figure_heights(cur, feet).min()) if len(feet) else 1.0
        same_side = (cur[1] < world.gate_y) == bool(len(feet) and feet[:, 1].min() < world.gate_y)
        spread = spread_m(np.vstack([feet, extra]) if len(extra) else feet)
        big = hc >= min_height(n, spread) or spread > 2 * world.cw
        if len(seen) and n <= 2 and hc < CLOSE_H:
            return False                             # the count, the drink: not held from afar (reframed close)
        if not (same_side and big and hc <= 0.45):
            return False                             # (the tests that cost nothing first)
        if in_people(cur[None, :3], needs.everyone)[0]:
            return False                             # someone walked into the camera
        sight = sight_points(feet)
        need = np.vstack([feet, feet + (0, 0, FIGURE_M), extra])
        return bool(_in_band(cur, need) and not world.hidden(cur[:3], sight_core(sight))
                    and not world.occluders.blocked(cur[None, :3], sight, others)[0]
                    and not world.occluders.hits(cur[None, :3], seen, others).any()
                    and all(passes(world, cur, c) for c in chk))

    def place(t0, t1, feet, extra, seen, n, others, chk, split=True) -> None:
        cur = state["cur"]
        if cur is not None and holds(cur, feet, extra, seen, n, others, chk):
            return                                   # hold: the action is still in the shot, big enough
        v, b, _h, npass = frame(world, feet, extra, state["bearing"], others, seen, chk, state["lane"],
                                needs.everyone, state["facing"])
        if npass < len(chk):
            # the window's whole ground is too much: frame the steps' people where they stand at their middles
            ext = extra[:len(extra) - len(seen)] if len(seen) else extra
            at = np.unique(np.vstack([c.feet for c in chk]), axis=0)
            marks = np.unique(np.vstack([c.marks for c in chk]), axis=0)
            v2, b2, _h, n2 = frame(world, at, np.vstack([ext, marks]), state["bearing"], chk[0].others, marks, chk,
                                   state["lane"], needs.everyone)
            if n2 > npass:
                v, b, npass = v2, b2, n2
        if split and npass < len(chk) and len(chk) > 1:
            cuts = [t0] + [(p.t + q.t) / 2 for p, q in zip(chk, chk[1:])] + [t1]
            for c, s0, s1 in zip(chk, cuts, cuts[1:]):
                ext = extra[:len(extra) - len(seen)] if len(seen) else extra
                place(s0, s1, c.feet, np.vstack([ext, c.marks]), c.marks, len(c.ids), c.others, [c], False)
            return
        if cur is not None:
            dist = np.linalg.norm(cur[:3] - cur[3:6])
            near = (np.linalg.norm(v[3:6] - cur[3:6]) < 0.35 * dist and np.linalg.norm(v[:3] - cur[:3]) < 0.5 * dist)
            ease = min(EASE_S, (t1 - t0) * 0.4)
            blend = Track(np.array([t0, t0 + ease]), np.array([cur, v]), np.array([False, True]))
            way = np.array([blend.at(t0 + ease * f)[:3] for f in np.linspace(0.05, 0.95, 19)])   # (not through a solid)
            if near and ease > 0.2 and all(passes(world, blend.at(c.t), c) for c in chk if c.t < t0 + ease) \
                    and not _near_solid(world, way).any() and not in_people(way, needs.everyone).any():
                keys.append((t0, cur, False))
                keys.append((t0 + ease, v, True))
                state["cur"], state["bearing"] = v, b
                return
        keys.append((t0, v, False))                  # cut
        state["cur"], state["bearing"] = v, b

    def window(k, t0, t1, who, shooting, seen, chk) -> bool:
        """Place the window's shot of ``who``; False when there was nothing to frame."""
        feet, extra = needs.of(k, who, t0, t1, shooting)
        if len(seen):
            extra = np.vstack([extra, seen])
        if not len(feet) and not len(extra):
            return False
        state["lane"] = _lane(feet) if shooting and len(feet) else None
        mid = (t0 + t1) / 2
        state["facing"] = needs.facing if any(
            sp.do in BOWS and sp.start_s <= mid <= sp.end_s for sp in bow_spans) else None
        place(t0, t1, feet, extra, seen, needs.n, needs.others, chk)
        return True

    for k, (t0, t1, who, shooting, marks, groups) in enumerate(segments):
        seen = mark_points(rite.layout, marks)
        lo, hi = np.searchsorted(ct, t0, side="left"), np.searchsorted(ct, t1, side="left")
        chk = [allchk[i] for i in range(lo, hi)]
        before, kept = len(keys), dict(state)
        if not window(k, t0, t1, who, shooting, seen, chk) or shooting or len(groups) < 2 \
                or not all(_is_row(needs.where(k, g)) for g in groups):
            continue
        # rows: the people of the steps under way (the 工 kneeling in a row on the 堂, the 笙 in a block below:
        # 乃合樂) hide each other in any one shot of them all — each step's people framed in a piece of the
        # window of its own (in the steps' order), their checks with them
        feet = needs.of(k, who, t0, t1, shooting)[0]
        if not len(feet) or _seen_all(world, state["cur"], feet, needs.others):
            continue
        del keys[before:]
        state.update(kept)
        cuts = np.linspace(t0, t1, len(groups) + 1)
        for g, s0, s1 in zip(groups, cuts, cuts[1:]):
            ids = {needs.idx[a] for a in g if a in needs.idx}
            window(k, float(s0), float(s1), g, shooting, seen, [c for c in chk if set(c.ids) <= ids])
    if not keys:
        v = frame(world, np.zeros((1, 3)), np.zeros((0, 3)), None)[0]
        keys = [(0.0, v, False)]
    keys[0] = (0.0, keys[0][1], False)
    keys = _with_landings(world, needs.flights, ct, keys)
    keys = _with_opening(world, rite, keys)
    return Track(np.array([k[0] for k in keys]), np.array([k[1] for k in keys]), np.array([k[2] for k in keys]))


_TRACKS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def track(rite) -> Track:
    """The track of a rite, made once per compiled rite — and, for a rite from the disk cache, read from what
    ships with the program or from the cache when it was made from these very sources (:mod:`.track_store`:
    its making is most of a pack's build, ~9 s here; a still, a clip or ``camera`` of view ``auto`` would pay it
    each time)."""
    tr = _TRACKS.get(rite)
    if tr is None:
        from . import track_store
        tr = _TRACKS[rite] = track_store.load(rite, lambda: build_track(rite), Track)
    return tr


def camera_at(rite, t: float) -> Camera:
    """The director's camera at time t (for a 16:9 frame)."""
    return as_camera(track(rite).at(float(t)))
