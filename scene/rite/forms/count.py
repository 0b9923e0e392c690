"""§32 數獲: the 釋獲者 counts the right pile and the left in 純 and 奇 and announces the result."""
from __future__ import annotations

from .. import choreography as chor
from .base import Acts

def run(acts: Acts, step: chor.Step, t0: float) -> float:
    """§32: count the right pile then the left in 純 and 奇, go up to the top step and announce."""
    a = step.who[0]
    rnd = step.round
    res = acts.results.get(rnd)
    t = t0
    acts.pose(a, t, "sit")
    right, left = acts.counters["right"], acts.counters["left"]
    t += 2.0 + 0.6 * (right // 2 + right % 2)
    here = acts.pos(a)
    t = acts.walk(a, t, (here[0], here[1] + 1.5, here[2]))
    acts.pose(a, t, "sit")
    t += 2.0 + 0.6 * (left // 2 + left % 2)
    text = res.announcement if res is not None else ""
    top = acts.site.stair_points("west", up=True, lane=acts.site.lane("west", True))[-2]     # 盡階不升堂: the top 等
    t = acts.walk(a, t, top, "west")
    t = acts.turn(a, t, 0.0)
    acts.say(a, t, text)
    acts.announce((t, rnd, text))
    t += 4.0
    acts.say(a, t, "")
    t = acts.walk(a, t, here, "west")
    t = acts.turn(a, t, 90.0)
    acts.pose(a, t, "sit")
    acts.set_counters(t + 1.0, right=0, left=0, spare=acts.counters["spare"] + right + left)
    acts.pose(a, t + 2.0, "stand")
    return t + 2.0
