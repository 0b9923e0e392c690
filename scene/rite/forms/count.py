"""§32 數獲, the counting: 釋獲者東面于中西坐先數右獲 … 興自前適左東面坐 … 其餘如右獲 — the right pile, a little
south (鄭 為其少南就右獲), then up, by his front, to a little north of where he first sat (鄭 起由中東就左獲
少北於故東面鄉之) for the left.  He ends seated there; the 司射 goes back (司射復位) before he takes the 賢獲
up (the form ``tell_count``)."""
from __future__ import annotations

from .. import choreography as chor
from .base import Acts

SOUTH = 1.0     # 尺: 少南 to the right pile (assumed figure for 少)
NORTH = 1.5     # 尺: 少北於故 for the left (assumed figure)
FRONT = 1.2     # 尺: 自前 — the step out in front of him (east) on his way to the left


def _counting_s(n: int) -> float:
    """二筭為純，一純以取: a pair of 筭 at a time, and a moment to lay each ten 純 (十純則縮而委之)."""
    return 2.0 + 0.6 * (n // 2 + n % 2) + 0.8 * (n // 20)


def run(acts: Acts, step: chor.Step, t0: float) -> float:
    a = step.who[0]
    here = acts.pos(a)                                    # 中西, where he sat to count (東面于中西坐)
    right, left = acts.counters["right"], acts.counters["left"]
    acts.pose(a, t0, "stand")
    t = acts.walk_path(a, t0 + 0.6, [here, (here[0], here[1] - SOUTH, here[2])])
    t = acts.turn(a, t, 90.0)
    acts.pose(a, t, "sit")                                # 先數右獲, facing east
    t += _counting_s(right)
    acts.pose(a, t, "stand")                              # 興
    t = acts.walk_path(a, t + 0.6, [acts.pos(a), (here[0] + FRONT, here[1], here[2]),
                                    (here[0], here[1] + NORTH, here[2])])     # 自前適左
    t = acts.turn(a, t, 90.0)                             # 東面
    acts.pose(a, t, "sit")                                # 坐兼斂筭實于左手 … 其餘如右獲
    t += _counting_s(left)
    return t
