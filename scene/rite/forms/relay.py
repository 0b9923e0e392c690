"""旅酬 (§45, §48): one cup goes round a company, each drinker toasting the next, until all have drunk (辯).

Two ways the text has it go round:

* **at one place** (no ``to``): §45 眾受酬者拜興飲皆如賓酬主人之禮辯遂酬在下者皆升受酬于西階上, §48
  辯卒受者興以旅在下者于西階上 — ``who = [holder, r1, r2, …]``: the holder (who already has the full cup)
  stands at ``at``; each receiver in turn comes from his 位 to the toaster's west (大夫降席立于主人之西), the
  toaster drinks, goes to the 尊 to refill it (凡旅不洗, 記57), comes back facing the receiver and hands it to
  him; then he goes back to his 位 and the receiver, now the toaster, steps into his place.  With ``kneel =
  true`` it is 如賓酬主人之禮 (§45): the toaster 坐奠觶拜執觶興, the receiver 答拜; the toaster drinks
  standing (鄭 賓立飲); when he comes back the receiver 拜, the toaster 少退, the receiver 進受, the toaster
  拜送 and 揖s.  Without it, 辯旅皆不拜 (§48: 酬者不拜乃飲卒觶以實之, 受酬者不拜受).
* **carried to the seats** (``to`` = the 執觶者): §48 執觶者受觶遂實之…而錯皆不拜 (鄭 其或多者迭飲於坐而已)
  — ``who = [d1, d2, …]`` seated on their mats, d1 holding the full cup: each drinks seated and the 執觶者
  takes the cup from him, refills it at the 尊 (at ``at``, if given: two 執觶者 side by side) and brings it
  to the next, and so on.

Two cups may go round **at once** (§48 辯卒受者興以旅在下者于西階上, 鄭 亦錯焉, 賈 此亦若堂上交錯也): two relays
at one place each, the second ``with_prev``, at places a little apart.  A relay that starts while another is
still going fills its cup on the other side of the 尊 (``ZUN_SPOTS``), so the two toasters never stand on one
spot, and the one toasted steps into the toaster's place only once he has left it; the rest (who walks when)
the director's way-finding keeps apart, as for any two steps together.

Either way the last of ``who`` (卒受者) ends holding the full cup; the data goes on from there (卒受者以觶降
奠于篚, 辯卒受者興以旅在下者于西階上).  A drinker's 位 is where he stood before he came to the place.

At one place, each drinker's own turns are left on the board (``relay_turns``: actor, start, end) for the
checker, which holds the words of the step in each turn alone (grammar/turns.py): his coming and 受 (from when
he sets out to the place until the cup is in his hands); as toaster, with ``kneel``, his 坐奠觶拜 up to the
興, then from the 興 — the cup taken up again — his drinking, filling, handing on and going back; without it,
the toasting in one.  In one span of the whole relay a cup one drinker never received is hidden by his taking
it up again, or by the cup of another turn.
"""
from __future__ import annotations

import math

from ...geometry.places import FACING_DEG
from .. import choreography as chor
from ..state import Point
from .base import Acts

SIT_S, SET_S, BOW_S, DRINK_S, FILL_S, HAND_S, SALUTE_S = 0.8, 1.2, 2.5, 3.0, 3.0, 1.5, 1.5
#: where a toaster at one place fills the cup: south of the 尊 (兩壺; 玄酒 in the west one, the wine in the
#: east), or — while another cup goes round at the same time (§48 亦錯焉: two 旅 at once) — south-east of it
ZUN_SPOTS = ("tang.zun@南3", "tang.zun@東南3")
#: 尺: the receiver stands this far west of the toaster (立于…之西); the toaster's 少退 (鄭 少逡遁)
BESIDE, STEP_BACK = 3.0, 1.0


def _home(acts: Acts, aid: str, spot: Point) -> tuple[Point, float]:
    """His 位: where he stands, or if he is already at the place, the last spot he stood still elsewhere — but a
    man with a mat who comes from beside it goes back to it (復席, as §17's 賓揖復席): the 介 toasting at the head of
    the 西階 stands 6 尺 from his mat, and the look-back found his stair foot (or, with the 遵者, the 初位 by the 門)."""
    mat = acts.layout.places.get(f"mat.{aid}")
    if mat is not None and math.dist(acts.pos(aid)[:2], mat.xyz_chi[:2]) <= 8.0 and \
            abs(acts.pos(aid)[2] - mat.xyz_chi[2]) < 1.0:
        return mat.xyz_chi, FACING_DEG.get(mat.facing or "", acts.heading(aid))
    keys = acts._d.actors[aid].keys      # (read only: Acts has no accessor for past keyframes)
    if math.dist(acts.pos(aid)[:2], spot[:2]) > 6.0:
        return acts.pos(aid), acts.heading(aid)
    for (t0, *p0), (t1, *p1) in zip(reversed(keys[:-1]), reversed(keys[1:])):
        if p0[:3] == p1[:3] and t1 - t0 >= 4.0 and math.dist(p0[:2], spot[:2]) > 6.0:
            return (p0[0], p0[1], p0[2]), p0[3]
    return acts.pos(aid), acts.heading(aid)


def _drink(acts: Acts, aid: str, t: float) -> float:
    """卒觶, standing (鄭 §45 賓立飲)."""
    acts.pose(aid, t, "stand")
    return t + DRINK_S


def run(acts: Acts, step: chor.Step, t0: float) -> float:
    cup = step.obj
    if cup is None:
        raise ValueError("relay needs obj = the cup that goes round")
    if step.to is not None:                          # carried: ``at`` is where the 執觶者 fills it (two at one 尊)
        zun = acts.resolve(step.at or chor.parse_ref(ZUN_SPOTS[0]), step.to)
        return _carried(acts, step, cup, zun, t0)
    # at one place: a relay that starts while another is still going (compiled before it) fills on the other
    # side of the 尊, so that the two toasters never stand at one spot
    going = acts.board.setdefault("relay_at_place", [])     # (start, end, fill spot) of those compiled so far
    busy = {ref for start, end, ref in going if start <= t0 < end}
    ref = next((r for r in ZUN_SPOTS if r not in busy), ZUN_SPOTS[0])
    end = _at_place(acts, step, cup, acts.resolve(chor.parse_ref(ref), None), t0, alongside=bool(busy))
    going.append((t0, end, ref))
    return end


def _at_place(acts: Acts, step: chor.Step, cup: str, zun: Point, t0: float, alongside: bool = False) -> float:
    """``alongside``: another cup is going round at the same time; the one toasted steps into the toaster's
    place only once the toaster has left it (he may wait for a clear way among the other cup's people)."""
    bows = step.kneel
    spot = acts.resolve(step.at or chor.parse_ref("hall.west_steps_top@北3"), None)
    beside = acts.site.surface_z(spot[0] - BESIDE, spot[1])
    west = (spot[0] - BESIDE, spot[1], beside)
    # ``via``: where the first one toasted comes to, when the text puts him elsewhere than the others (鄉飲酒
    # §19 受酬者自介右, 鄭 由介東也, 尊介使不失故位: on the 介's east; 眾受酬者受自左: the rest on the west)
    first = acts.resolve(step.via[0], None) if step.via else None
    # the toaster is whoever holds the cup now (the 大夫, or without him the 主人: 若無大夫則長受酬); if that is
    # who[0], the rest are the ones toasted
    holder = acts._d.objects[cup].holder() or step.who[0]     # (read only, as _home)
    who = step.who if holder == step.who[0] else (holder, *step.who)
    homes = {a: _home(acts, a, spot) for a in who}
    turns = acts.board.setdefault("relay_turns", [])      # (actor, start, end): each drinker's own turns
    t = acts.walk(holder, t0, spot)
    t = acts.turn(holder, t, 0.0)
    end = t
    since = t0                                           # when the toaster's turn began
    for nxt in who[1:]:
        # 受酬者降席 (or 在下者升): he comes to the toaster's west (the first, to ``via`` if given), facing north
        there = first if first is not None and nxt == who[1] else west
        side = 1.0 if there[0] > spot[0] else -1.0       # east of the toaster (自介右) or west (受自左)
        came = t0 if nxt == who[1] else t
        ta = acts.walk(nxt, came, there, "west")
        ta = acts.turn(nxt, ta, 0.0)
        t = max(t, ta)
        if bows:                                         # 坐奠觶拜執觶興 / 答拜
            acts.pose(holder, t, "sit")
            t += SIT_S
            acts.give(cup, t + SET_S, holder, None, (spot[0], spot[1] + 1.2, spot[2]))
            t += SET_S
            for a in (holder, nxt):
                acts.pose(a, t, "bow")
            acts.pose(holder, t + BOW_S, "sit")
            acts.pose(nxt, t + BOW_S, "stand")
            t += BOW_S
            acts.give(cup, t + 0.6, None, holder)
            t += 1.0
            acts.pose(holder, t, "stand")
            turns.append((holder, since, t + 0.1))      # 坐奠觶拜…興
            since = t
            t += SIT_S
        t = _drink(acts, holder, t)               # 卒觶 (立飲)
        t = acts.walk(holder, t, zun)                    # 不洗實之
        t = acts.turn(holder, t, 0.0)
        t += FILL_S
        t = acts.walk(holder, t, spot)                   # 進, facing him
        t = acts.turn(holder, t, 270.0 if side < 0 else 90.0)
        if bows:                                         # 拜 / 少退 / 進受 / 拜送
            acts.pose(nxt, t, "bow")
            acts.pose(nxt, t + BOW_S, "stand")
            t += BOW_S
            back = (spot[0] - side * STEP_BACK, spot[1], spot[2])
            t = acts.walk_path(holder, t, [spot, back])
        acts.handover((t - 0.5, t + HAND_S + 0.5, holder, nxt))
        acts.give(cup, t + HAND_S, holder, nxt)
        t += HAND_S
        turns.append((nxt, came, t))                     # he comes, and 受
        got = t
        if bows:
            t = acts.turn(holder, t, 0.0)
            acts.pose(holder, t, "bow")
            acts.pose(holder, t + BOW_S, "stand")
            t += BOW_S
            t = acts.salute(holder, t, 270.0 if side < 0 else 90.0, SALUTE_S)
        # the toaster goes back to his 位; the one who now holds the cup steps into the toaster's place
        home, hd = homes[holder]
        left = t                                         # when he leaves the place (later if he waits for a clear way)
        if not alongside:
            back_at = acts.walk(holder, t, home, "west")
        elif math.dist(acts.pos(holder), home) >= 0.05:
            way = acts.plan(holder, home, "west")
            back_at = acts.walk_path(holder, t, way)
            left = back_at - acts.time_to(holder, way, len(way) - 1)
        else:
            back_at = t
        home_at = acts.turn(holder, back_at, hd)
        end = max(end, home_at)
        turns.append((holder, since, home_at))           # (from the 興) 飲, 實之, 授, back to his 位
        since = got                                      # the one toasted, toaster from now
        if nxt != who[-1]:
            t = acts.walk(nxt, max(t, left) + 0.5, spot)
            t = acts.turn(nxt, t, 0.0)
        holder = nxt
    return max(end, t)


def _carried(acts: Acts, step: chor.Step, cup: str, zun: Point, t0: float) -> float:
    bearer = step.to
    assert bearer is not None                            # (a cup carried: the data names its 執觶者)
    who = step.who
    t, free = t0, t0                                     # the cup's time; when the 執觶者 is free
    for cur, nxt in zip(who, who[1:]):
        acts.pose(cur, t, "sit")                         # 迭飲於坐, 不拜
        drunk = t + DRINK_S
        free = acts.walk(bearer, max(t, free), _before(acts, bearer, cur))   # he comes as the other drinks
        free = acts.turn(bearer, free, _toward(acts, bearer, cur))
        t = max(drunk, free)
        acts.handover((t - 0.5, t + HAND_S + 0.5, cur, bearer))
        acts.give(cup, t + HAND_S, cur, bearer)          # 執觶者受觶
        t += HAND_S
        t = acts.walk(bearer, t, zun)                    # 遂實之
        t = acts.turn(bearer, t, 0.0)
        t += FILL_S
        t = acts.walk(bearer, t, _before(acts, bearer, nxt))
        t = acts.turn(bearer, t, _toward(acts, bearer, nxt))
        acts.handover((t - 0.5, t + HAND_S + 0.5, bearer, nxt))
        acts.give(cup, t + HAND_S, bearer, nxt)          # 皆不拜
        t += HAND_S
        free = t
    return t


def _before(acts: Acts, walker: str, aid: str) -> Point:
    """A spot in front of a seated drinker, where the 執觶者 takes the cup from him or hands it to him."""
    return acts.free_spot(walker, acts.resolve(chor.parse_ref(f"actor:{aid}"), None))


def _toward(acts: Acts, a: str, b: str) -> float:
    (x0, y0, _), (x1, y1, _) = acts.pos(a), acts.pos(b)
    return math.degrees(math.atan2(x1 - x0, y1 - y0)) % 360.0
