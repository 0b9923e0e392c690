"""§33 飲不勝者: each pair with a loser goes up and the loser drinks the 觶 at the 豐; the 執爵者 refills it
between drinkers; a losing 賓/主人/大夫 is brought a washed and filled 觶 to his mat and drinks at 西階上.

The form tells each act as a sub-step of its own (Acts.part: the words of the 經 it acts, who acts, on what),
per pair in the text's order — 一耦進, 揖如升射, 及階勝者先升升堂少右, 不勝者進北面坐取豐上之觶, 興少退, 立卒觶,
進坐奠于豐下, 興揖, 不勝者先降, 相左交于階前相揖 (with the next pair), 出于司馬之南 — and the 執爵者's 坐取觶,
實之, 反奠于豐上 between drinkers, so that the caption, the 經's highlight and the camera follow the drinking.

經: 一耦進揖如升射及階勝者先升升堂少右不勝者進北面坐取豐上之觶興少退立卒觶進坐奠于豐下興揖不勝者先降與升飲者
相左交于階前相揖出于司馬之南遂適堂西釋弓襲而俟有執爵者執爵者坐取觶實之反奠于豐上升飲者如初 …
"""
from __future__ import annotations

import math
from typing import Any

from .. import choreography as chor
from ..state import TREAD_S, Point
from . import pair as P
from .base import Acts

Z = "zhijue"            # 有執爵者 (鄭 主人使贊者代弟子酌也)
CUP = "zhi_fa"
NOTABLE = ("bin", "zhuren", "dafu")
ON_FENG = 0.6           # 尺: the 豐's top above the floor (豐上)
FOOT = (0.5, 0.8)       # 尺 east, south of the 豐's centre: 豐下, on the floor at its foot, at the drinker's
                        # right (鄭 右手執觶)
AT_FENG = 1.6           # 尺 south of the 豐 where one kneels (進坐): his hands (1 尺 before him) over the 觶
REACH = 2.4             # 尺 apart for a hand-over: the hands of the two (1 尺 before each) meet
SIMA_SOUTH = 5.0        # 尺 south of the 司馬 that a pair passes (出于司馬之南), as retire.py
DRINK_S = 4.0           # s: 立卒觶, long enough for a class to read the caption while he drinks
FENG = "feng"
HEAD = "一耦進揖如升射"   # the words after which the drinking's phrases are looked up (some recur earlier)
JUE = "有執爵者"          # … and the 執爵者's
NOTABLE_HEAD = "賓主人大夫不勝"


def run(acts: Acts, step: chor.Step, t0: float) -> float:
    """§33: the pairs in turn; the one coming down meets the next going up in front of the stairs."""
    res = acts.results.get(step.round or 0)              # (there is no round 0 of forfeits)
    losers = set(res.losers) if res is not None else set()
    who = list(step.who)
    st: dict[str, Any] = {"go": t0, "end": t0, "down": None, "cup": "top", "ready": t0, "z_up": False, "z_t": t0,
          "free": t0, "spots": _tangxi(acts, who)}
    for pair in (tuple(who[i:i + 2]) for i in range(0, len(who) - 1, 2)):
        loser = next((a for a in pair if a in losers), None)
        if loser is None or not all(acts.present(a) for a in pair):
            continue                                  # a tie: nobody drinks (nor a pair not here: 無大夫)
        if loser in NOTABLE:
            _release(acts, st)                        # no pair comes up to meet the one coming down
            _notable(acts, st, loser)
            continue
        winner = pair[0] if pair[1] == loser else pair[1]
        # 大夫飲則耦不升; 若大夫之耦不勝則亦執弛弓特升飲: the partner of a 賓/主人/大夫 goes up alone
        goers = (loser,) if winner in NOTABLE else (winner, loser)
        _pair_drinks(acts, st, goers, loser)
    _release(acts, st)
    end: float = st["end"]
    return end


# ------------------------------------------------------------------ places
def _tangxi(acts: Acts, who: list[str]) -> dict[str, tuple[Point, float | None]]:
    """遂適堂西: each archer's place and facing there, as the section's later steps name them
    (三耦 in the 堂西 row facing south, the 眾賓 in a file south of its west end facing east)."""
    out, k3, kz = {}, 0, 0
    for a in who:
        if a in NOTABLE:
            continue
        if a.startswith("ou"):
            ref, facing, k3 = f"pos.sanou_waiting#{k3}", "南面", k3 + 1
        else:
            ref, facing, kz = f"pos.sanou_waiting#5@南{8 + 3 * kz}", "東面", kz + 1
        out[a] = (acts.resolve(chor.parse_ref(ref), a), acts.facing(a, facing))
    return out


def _feng(acts: Acts, dy: float, dz: float = 0.0, dx: float = 0.0) -> Point:
    x, y, z = acts.layout["tang.feng"].xyz_chi
    return (x + dx, y - dy, z + dz)


def _cross(acts: Acts, down: bool) -> Point:
    """In front of the 西階: the pair coming down west of it, the pair going up east (相左)."""
    h = acts.layout.hall
    return (-h.stairs_x + (-2.7 if down else 2.7), -h.stair_run - 7.0, 0.0)


def _step_to(acts: Acts, a: str, t: float, pos: Point, heading: float, dur: float = 0.8) -> float:
    """A step or two (進 / 少退), too short for a route."""
    acts.hold(a, t)
    acts.place(a, t + dur, pos, heading)
    return t + dur


def _move(acts: Acts, ids: tuple[str, ...], t: float, target: Point, via: tuple[Point, ...] = (),
          end_heading: float | None = None) -> float:
    """A pair abreast (P.abreast), one alone walking."""
    if len(ids) == 2:
        return P.abreast(acts, ids, t, target, via, end_heading=end_heading)
    t = acts.walk(ids[0], t, acts.free_spot(ids[0], target), "west", via)
    return acts.turn(ids[0], t, end_heading)


# ------------------------------------------------------------------ the pairs
def _pair_drinks(acts: Acts, st: dict[str, Any], goers: tuple[str, ...], loser: str) -> None:
    h, site = acts.layout.hall, acts.site
    winner = goers[0] if len(goers) == 2 else None
    t = t_go = st["go"]
    if winner:
        acts.show_holding(winner, t, "張弓")                       # 勝者執張弓
    acts.show_holding(loser, t, "弛弓")                            # 不勝者執弛弓
    if st["cup"] != "top":
        _refill(acts, st)                                          # 執爵者坐取觶實之反奠于豐上
    if not st["z_up"]:
        _zhijue_waits(acts, st, t)
    # 一耦進 (大夫之耦 alone: 特升飲)
    go_words = "一耦進" if winner else "若大夫之耦不勝則亦執弛弓特升飲"
    down = st["down"]
    if down is not None:
        # 與升飲者相左交于階前相揖: the next pair stops beside the one coming down, on its left, and both 揖
        t = _move(acts, goers, t, _cross(acts, False), end_heading=0.0)
        tm = max(t, down["ready"])
        acts.part(go_words, goers, t_go, tm, after=HEAD)
        for a in (*goers, *down["pair"]):
            acts.hold(a, tm)
        t = max([acts.salute(a, tm, 270.0) for a in goers] + [acts.salute(a, tm, 90.0) for a in down["pair"]])
        acts.part("與升飲者相左交于階前相揖", (*down["pair"], *goers), tm, t, after=HEAD)
        st["end"] = max(st["end"], down["on"](t))
        st["down"] = None
        t_go = t
    up_lane = -h.stairs_x + site.lane("west", True)
    times = {}
    # 揖如升射 (§21 當階北面揖, 及階揖): level with the stairs they 揖 facing north, then again at their foot
    for k, a in enumerate(goers):            # the winner on the up lane, the loser at his right
        times[a] = acts.walk(a, t, acts.free_spot(a, (up_lane + 2.5 * k, -h.stair_run - 4.5, 0.0)), "west")
    t = acts.sync(goers, times)
    if down is None:
        acts.part(go_words, goers, t_go, t, after=HEAD)
    t_bow = t if down is None else t_go                            # from the 相揖 on, the way to the 階
    t = max(acts.salute(a, t, 0.0) for a in goers)                 # 當階北面揖
    for k, a in enumerate(goers):
        times[a] = acts.walk(a, t, acts.free_spot(a, (up_lane + 2.5 * k, -h.stair_run - 1.0, 0.0)), "west")
    t = acts.sync(goers, times)
    t = max(acts.salute(a, t, 0.0) for a in goers)                 # 及階揖
    acts.part("揖如升射", goers, t_bow, t, after=HEAD)
    t = t_up = max(t, st["ready"])                                 # the 觶 is on the 豐上 again
    for k, a in enumerate(goers):                                  # 勝者先升
        stp = site.stair_points("west", up=True, lane=site.lane("west", True))
        start = t + (2 * TREAD_S + 0.2) * k
        acts.hold(a, start)
        times[a] = acts.walk_path(a, start, [acts.pos(a), *stp])
    if winner:
        wp = acts.pos(winner)
        times[winner] = acts.walk(winner, times[winner], (wp[0] + 2.5, wp[1] + 1.0, wp[2]))   # 少右
    acts.part("及階勝者先升升堂少右" if winner else "特升飲", goers, t_up, max(times.values()), after=HEAD)
    if not st["z_up"]:
        _zhijue_goes_up(acts, st, max(times.values()))
    t_drunk = _drink_at_feng(acts, loser, max(times.values()), winner)
    st["go"] = t_drunk - 4.0                                       # the next pair sets off as he 卒觶
    times[loser] = t_drunk
    if winner:                                                     # 揖: the winner returns it
        times[winner] = max(times[winner], acts.salute(winner, t_drunk - 1.5, _toward(acts, winner, loser)))
    acts.part("興揖", goers, acts.board.pop("forfeit_bow"), max(times.values()), after=HEAD)
    _come_down(acts, st, goers, times)


def _drink_at_feng(acts: Acts, loser: str, t: float, winner: str | None) -> float:
    """不勝者進北面坐取豐上之觶興少退立卒觶進坐奠于豐下興揖 (鄭 立卒觶不祭不拜); when he has saluted.
    Each act a sub-step of its own; the last (興揖) is told by the caller, who knows when the winner has
    returned the 揖 (acts.board["forfeit_bow"]: when it starts)."""
    t0 = t
    t = acts.walk(loser, t, _feng(acts, 2.6), "west")
    t = acts.turn(loser, t, 0.0)
    t = _step_to(acts, loser, t, _feng(acts, AT_FENG), 0.0)        # 進
    acts.pose(loser, t, "sit")                                     # 北面坐
    acts.give(CUP, t + 0.5, None, loser)                           # 取豐上之觶
    acts.part("不勝者進北面坐取豐上之觶", (loser,), t0, t + 1.0, (FENG, CUP), after=HEAD)
    t1 = t + 1.0
    acts.pose(loser, t1, "stand")                                  # 興
    t = _step_to(acts, loser, t1, _feng(acts, 2.6), 0.0)           # 少退
    acts.part("興少退", (loser,), t1, t, (CUP,), after=HEAD)
    acts.say(loser, t, "")                                         # 立卒觶
    acts.part("立卒觶", (loser,), t, t + DRINK_S, (CUP,), after=HEAD)
    t += DRINK_S
    t1 = t
    t = _step_to(acts, loser, t, _feng(acts, AT_FENG), 0.0)        # 進
    acts.pose(loser, t, "sit")
    acts.give(CUP, t + 0.5, loser, None, _feng(acts, FOOT[1], 0.0, FOOT[0]))        # 坐奠于豐下
    acts.part("進坐奠于豐下", (loser,), t1, t + 1.0, (CUP, FENG), after=HEAD)
    acts.pose(loser, t + 1.0, "stand")                             # 興
    acts.board["forfeit_bow"] = t + 1.0
    t = _step_to(acts, loser, t + 1.0, _feng(acts, 2.6), 0.0)
    return acts.salute(loser, t, _toward(acts, loser, winner) if winner else None)   # 揖 (to the winner)


def _toward(acts: Acts, a: str, b: str) -> float:
    pa, pb = acts.pos(a), acts.pos(b)
    return math.degrees(math.atan2(pb[0] - pa[0], pb[1] - pa[1])) % 360.0


def _come_down(acts: Acts, st: dict[str, Any], goers: tuple[str, ...], times: dict[str, float]) -> None:
    """不勝者先降 (鄭 後升先降略之不由次); to the front of the stairs, where they wait for the next pair."""
    st["cup"] = "foot"
    t_down = max(times.values())
    down = goers[::-1]
    for a in down:
        times[a] = max(times[a], times[down[0]])
    for k, a in enumerate(down):
        head = acts.site.stair_points("west", up=False, lane=acts.site.lane("west", False))
        times[a] = acts.walk(a, times[a] + 1.5 * k, head[0], "west")
        # the first steps on off the foot (south-west), clear of the one coming down behind him
        off = [(head[-1][0] - 2.0, head[-1][1] - 2.5, 0.0)] if k == 0 and len(down) == 2 else []
        times[a] = acts.walk_path(a, times[a] + (2 * TREAD_S) * k, [*head, *off])
    st["free"] = max(times.values())                               # off the stairs: the 執爵者 may come
    # they wait facing east (記20 立者東面), the way they will salute the pair coming up
    t = _move(acts, goers, max(times.values()), _cross(acts, True), end_heading=90.0)
    acts.part("不勝者先降", goers, t_down, t, after=HEAD)
    spots = st["spots"]

    def on(t_go: float) -> float:
        # 出于司馬之南遂適堂西 (記30 凡適堂西皆出入于司馬之南), each then to his place there, 而俟
        sx, sy, _ = acts.resolve(chor.parse_ref("pos.sima"), goers[0])
        off = max(SIMA_SOUTH, 2.2 * acts.min_gap)
        via = ((sx + off, sy - off, 0.0), (sx - off, sy - off, 0.0))
        ps = [spots[a][0] for a in goers]
        centre = tuple(sum(p[c] for p in ps) / len(ps) for c in range(3))
        tt = _move(acts, goers, t_go, (centre[0], centre[1] - 2.0, 0.0), via)
        ends: list[float] = []
        for a in goers:                  # one after the other: the two places are side by side
            e = acts.walk(a, max([tt, *ends]), acts.free_spot(a, spots[a][0]))
            ends.append(acts.turn(a, e, spots[a][1]))
        acts.part("出于司馬之南", goers, t_go, max(ends), after=HEAD)
        return max(ends)

    st["down"] = {"pair": goers, "ready": t, "on": on}
    st["end"] = max(st["end"], t)


def _release(acts: Acts, st: dict[str, Any]) -> None:
    """The pair in front of the stairs goes on when no pair comes up to meet it."""
    down = st["down"]
    if down is not None:
        st["end"] = max(st["end"], down["on"](down["ready"]))
        st["down"] = None


# ------------------------------------------------------------------ the 執爵者
def _zhijue_waits(acts: Acts, st: dict[str, Any], t: float) -> None:
    """He waits below, east of the 西階 and clear of the pairs' way, till the first has gone up."""
    h = acts.layout.hall
    spot = acts.free_spot(Z, (-h.stairs_x + 9.0, -h.stair_run - 4.0, 0.0))
    st["z_t"] = acts.turn(Z, acts.walk(Z, t, spot), 270.0)
    acts.part("有執爵者", (Z,), t, st["z_t"], after=HEAD)


def _zhijue_goes_up(acts: Acts, st: dict[str, Any], t: float) -> None:
    """鄭 於既升飲而升自西階立于序端: once the first pair is up, he goes up and stands at the 西序's end."""
    t0 = t = max(t, st["z_t"])
    t = acts.walk(Z, t, acts.free_spot(Z, acts.layout["hall.west_xu_end"].xyz_chi), "west")
    st["z_t"] = acts.turn(Z, t, 90.0)
    acts.part("有執爵者", (Z,), t0, st["z_t"], after=HEAD)
    st["z_up"] = True
    st["end"] = max(st["end"], st["z_t"])


def _take_cup(acts: Acts, st: dict[str, Any], words: str = "執爵者坐取觶") -> float:
    """He has the empty 觶 in hand: 坐取觶 from the 豐下 where the last drinker set it (or it is in his hands)."""
    t0: float = max(st["z_t"], st["free"])
    t = t0
    if st["cup"] == "hand":
        return t
    spot = _feng(acts, 2.6)
    t = acts.walk(Z, t, spot, "west")
    t = acts.turn(Z, t, 0.0)
    near = _feng(acts, FOOT[1] + 1.0, 0.0, FOOT[0]) if st["cup"] == "foot" else _feng(acts, AT_FENG)
    t = _step_to(acts, Z, t, near, 0.0)
    acts.pose(Z, t, "sit")
    acts.give(CUP, t + 0.5, None, Z)                               # 坐取觶
    acts.pose(Z, t + 1.0, "stand")
    t = _step_to(acts, Z, t + 1.0, spot, 0.0)
    st["cup"] = "hand"
    acts.part(words, (Z,), t0, t, (CUP, FENG), after=JUE if words == "執爵者坐取觶" else NOTABLE_HEAD)
    return t


def _fill(acts: Acts, t: float, via: tuple[Point, ...] = (), words: str = "實之", after: str = JUE) -> float:
    """實之: at the 尊 (as the §33 弟子 升酌 at tang.zun@南2, 北面)."""
    t0 = t
    t = acts.walk(Z, t, acts.free_spot(Z, acts.resolve(chor.parse_ref("tang.zun@南2"), Z)), "west", via)
    t = acts.turn(Z, t, 0.0)
    acts.say(Z, t, "")
    acts.part(words, (Z,), t0, t + 2.0, (CUP,), after=after)
    return t + 2.0


def _refill(acts: Acts, st: dict[str, Any]) -> None:
    """執爵者坐取觶實之反奠于豐上 (鄭 每者輒酌以至於徧); back to the 序端 before the next goes up."""
    t0 = t = _fill(acts, _take_cup(acts, st))
    spot = _feng(acts, 2.6)
    t = acts.turn(Z, acts.walk(Z, t, spot, "west"), 0.0)
    t = _step_to(acts, Z, t, _feng(acts, AT_FENG - 0.3), 0.0)
    acts.pose(Z, t, "sit")
    acts.give(CUP, t + 0.5, Z, None, _feng(acts, 0.0, ON_FENG))    # 反奠于豐上
    acts.pose(Z, t + 1.0, "stand")
    t = _step_to(acts, Z, t + 1.0, spot, 0.0)
    t = acts.walk(Z, t, acts.free_spot(Z, acts.layout["hall.west_xu_end"].xyz_chi), "west")
    st["z_t"] = st["ready"] = acts.turn(Z, t, 90.0)
    acts.part("反奠于豐上", (Z,), t0, st["z_t"], (CUP, FENG), after=JUE)
    st["cup"] = "top"
    st["end"] = max(st["end"], st["z_t"])


def _unit(heading: float) -> tuple[float, float]:
    r = math.radians(heading)
    return math.sin(r), math.cos(r)


def _hand_over(acts: Acts, t: float, giver: str, taker: str, still: str, facing: float, back: Point) -> float:
    """``still`` turns to ``facing``; the other steps up (from ``back``) to REACH before him, the 觶 passes
    from giver to taker, and he steps back."""
    mover = taker if still == giver else giver
    ux, uy = _unit(facing)
    sp = acts.pos(still)
    t = max(t, acts.turn(still, t, facing))
    t = _step_to(acts, mover, t, (sp[0] + REACH * ux, sp[1] + REACH * uy, sp[2]), (facing + 180.0) % 360)
    acts.handover((t - 1.0, t + 2.5, giver, taker))
    acts.give(CUP, t + 1.0, giver, taker)
    t += 1.5
    return _step_to(acts, mover, t, back, (facing + 180.0) % 360)


def _notable(acts: Acts, st: dict[str, Any], loser: str) -> None:
    """賓主人大夫不勝則不執弓執爵者取觶降洗升實之以授于席前 (鄭 優尊也) 受觶以適西階上北面立飲卒觶授執爵者反就席."""
    t = _take_cup(acts, st, "執爵者取觶")                           # 取觶
    t0 = t
    xi = acts.resolve(chor.parse_ref("court.xi@北2"), Z)
    t = acts.turn(Z, acts.walk(Z, t, acts.free_spot(Z, xi), "west"), 180.0)   # 降洗
    acts.say(Z, t, "")
    t += 3.0
    acts.part("降洗", (Z,), t0, t, (CUP,), after=NOTABLE_HEAD)
    t = _fill(acts, t, (acts.resolve(chor.parse_ref("pos.yuezheng_below@南4"), Z),), "升實之", NOTABLE_HEAD)
    t0 = t
    mat = acts.pos(loser)
    mh = acts.facing(loser, acts.layout[f"mat.{loser}"].facing)    # the way his mat faces
    assert mh is not None
    ux, uy = _unit(mh)
    front = acts.free_spot(Z, (mat[0] + 4.5 * ux, mat[1] + 4.5 * uy, mat[2]))
    t = acts.walk(Z, t, front, "west")
    t = _hand_over(acts, t, Z, loser, loser, mh, front)            # 以授于席前
    acts.part("以授于席前", (Z, loser), t0, t, (CUP,), after=NOTABLE_HEAD)
    t0 = t
    top = acts.layout["hall.west_steps_top"].xyz_chi
    tl = acts.walk(loser, t, top, acts.own_stairs(loser))          # 以適西階上
    tl = acts.turn(loser, tl, 0.0)
    acts.part("受觶以適西階上", (loser,), t0, tl, (CUP,), after=NOTABLE_HEAD)
    acts.pose(loser, tl, "stand")                                  # 北面立飲 (鄭 受罰爵者不宜自尊別)
    acts.say(loser, tl, "")
    # the 執爵者 waits west of him (east of the 西階上 sit the 工)
    beside = acts.free_spot(Z, (top[0] - 4.5, top[1], top[2]))
    tz = acts.turn(Z, acts.walk(Z, t + 1.0, beside, "west"), 90.0)
    t = max(tl + DRINK_S, tz)                                      # 卒觶
    acts.part("北面立飲卒觶", (loser,), tl, t, (CUP,), after=NOTABLE_HEAD)
    st["go"] = t                                                   # 眾賓繼飲: the next pair sets off
    t0, t = t, _hand_over(acts, t, loser, Z, loser, 270.0, beside)   # 授執爵者
    acts.part("授執爵者", (loser, Z), t0, t, (CUP,), after=NOTABLE_HEAD)
    st["z_t"] = st["free"] = t
    t0, t = t, acts.walk(loser, t, mat, acts.own_stairs(loser))    # 反就席
    t = acts.turn(loser, t, mh)                                    # facing the way his mat faces
    acts.part("反就席", (loser,), t0, t, after=NOTABLE_HEAD)
    st["end"] = max(st["end"], t)
    st["cup"] = "hand"
