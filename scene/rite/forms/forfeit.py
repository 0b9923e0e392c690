"""§33 飲不勝者: each pair with a loser goes up; the loser drinks the 觶 at the 豐 (賓/主人/大夫 at 西階上)."""
from __future__ import annotations

from .. import choreography as chor
from ..state import SPACING, TREAD_S
from .base import Acts

def run(acts: Acts, step: chor.Step, t0: float) -> float:
    """§33: each pair with a loser goes up; the loser drinks the 觶 at the 豐 (賓/主人/大夫 at 西階上)."""
    res = acts.results.get(step.round)
    losers = set(res.losers) if res is not None else set()
    t = t0
    who = list(step.who)
    pairs = [tuple(who[i:i + 2]) for i in range(0, len(who) - 1, 2)]
    feng = acts.layout["tang.feng"].xyz_chi
    for pair in pairs:
        loser = next((a for a in pair if a in losers), None)
        if loser is None:
            continue
        if loser in ("bin", "zhuren", "dafu"):
            t = _forfeit_notable(acts, loser, t)
            continue
        winner = pair[0] if pair[1] == loser else pair[1]
        if winner in ("bin", "zhuren", "dafu"):
            # 若大夫之耦不勝則亦執弛弓特升飲: the partner goes up alone; the 大夫 keeps his mat
            pair = (loser,)
        home = {a: acts.pos(a) for a in pair}
        if len(pair) == 2:
            acts.show_holding(winner, t, "張弓")      # 勝者執張弓
        acts.show_holding(loser, t, "弛弓")           # 不勝者執弛弓
        times = {a: t for a in pair}
        h = acts.layout.hall
        up_lane = -h.stairs_x + acts.site.lane("west", True)
        order = (winner, loser) if len(pair) == 2 else (loser,)
        for k, a in enumerate(order):   # the winner on the up lane, the loser at his right
            times[a] = acts.walk(a, times[a], acts.free_spot(a, (up_lane + 2.5 * k, -h.stair_run - 1.0, 0.0)),
                                  "west")
        acts.sync(pair, times)
        for k, a in enumerate(order):                               # 勝者先升
            st = acts.site.stair_points("west", up=True, lane=acts.site.lane("west", True))
            start = times[a] + (2 * TREAD_S + 0.2) * k
            acts.hold(a, start)
            times[a] = acts.walk_path(a, start, [acts.pos(a), *st])
        if len(pair) == 2:
            wp = acts.pos(winner)
            times[winner] = acts.walk(winner, times[winner], (wp[0] + 2.5, wp[1] + 1.0, wp[2]))   # 少右
        times[loser] = acts.walk(loser, times[loser], (feng[0], feng[1] - 2.5, feng[2]), "west")
        tl = acts.turn(loser, times[loser], 0.0)
        acts.pose(loser, tl, "sit")
        acts.give("zhi_fa", tl + 1.0, None, loser)
        acts.pose(loser, tl + 1.5, "stand")
        acts.pose(loser, tl + 2.5, "stand")
        acts.say(loser, tl + 2.5, "")
        acts.pose(loser, tl + 5.0, "sit")
        acts.give("zhi_fa", tl + 5.5, loser, None, (feng[0], feng[1], feng[2] + 0.6))
        acts.pose(loser, tl + 6.0, "stand")
        times[loser] = tl + 6.5
        down = order[::-1]                                          # 不勝者先降
        for a in down:
            times[a] = max(times[a], times[loser])
        for k, a in enumerate(down):
            head = acts.site.stair_points("west", up=False, lane=acts.site.lane("west", False))
            times[a] = acts.walk(a, times[a] + 1.5 * k, head[0], "west")
            times[a] = acts.walk_path(a, times[a] + (2 * TREAD_S) * k, head)
        for k, a in enumerate(down):   # back by 司馬之南, one after the other
            via = acts.pass_by((chor.parse_ref("pos.sima@南4"),), a, home[a], extra=SPACING * k)
            times[a] = acts.walk(a, times[a] + 1.0 * k, acts.free_spot(a, home[a]), "west", via)
            times[a] = acts.turn(a, times[a], 90.0)
        t = max(times.values()) + 0.5
    return t


def _forfeit_notable(acts: Acts, loser: str, t: float) -> float:
    """賓/主人/大夫 不勝: 執爵者 brings the filled 觶 to his mat; he drinks at 西階上 and returns."""
    z = "zhijue"
    mat = acts.pos(loser)
    t = acts.walk(z, t, (mat[0], mat[1] - 3.0, mat[2]), "west")
    t = acts.turn(z, t, 0.0)
    acts.handover((t - 0.5, t + 2.5, z, loser))
    acts.give("zhi_fa", t + 1.0, None, loser)
    t += 2.0
    top = acts.layout["hall.west_steps_top"].xyz_chi
    tz = acts.walk(z, t, (top[0] + 3.0, top[1] + 2.0, top[2]), "west")
    t = acts.walk(loser, t, top, acts.own_stairs(loser))
    t = acts.turn(loser, t, 0.0)
    acts.pose(loser, t, "stand")
    t += 3.0
    acts.handover((t - 0.5, t + 2.5, z, loser))
    acts.give("zhi_fa", t + 1.0, loser, z)
    t = max(t + 2.0, tz)
    t = acts.walk(loser, t, mat, acts.own_stairs(loser))
    t = acts.turn(loser, t, 180.0)
    return t
