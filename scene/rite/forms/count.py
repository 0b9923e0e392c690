"""§32 數獲, the counting: 釋獲者東面于中西坐先數右獲 (鄭 為其少南就右獲) 二筭為純，一純以取實于左手，十純則縮而委之，
每委異之，有餘純則橫於下，一筭為奇，奇則又縮諸純下；興自前適左東面 (鄭 起由中東就左獲少北於故東面鄉之)，坐兼斂筭
實于左手，一純以委，十則異之，其餘如右獲.

As the tracks carry it: the right pile goes into his left hand one 純 at a time and back onto the ground ten 純
at a time (each 十純 laid apart) and, at the end, the 純 and the 奇 left over; the left pile goes into his hand
all at once (兼斂) and back one 純 at a time.  (The piles' drawing, ``render.meshes.props._counted``, lays what
lies there out in 十純 bundles, 餘純 across and the 奇 along.)  Between the two he rises and goes round by the
east of the 中 (and of whoever stands just south of it: the 司射 視筭 there) to a little north of where he first
sat.  He ends seated there; the 司射 goes back (司射復位) before he takes the 賢獲 up (the form ``tell_count``).
"""
from __future__ import annotations

import math

from .. import choreography as chor
from ..state import Point
from .base import Acts

SOUTH = 1.0     # 尺: 少南 to the right pile (assumed figure for 少)
NORTH = 1.5     # 尺: 少北於故 for the left (assumed figure)
PAIR_S = 0.6    # seconds to take (or lay) one 純
BUNDLE_S = 0.8  # seconds to lay ten 純 (縮而委之)
ZHONG_HALF = (1.3, 0.5)   # 尺: half the 鹿中's length (E–W, it lies facing east) and width, to walk round


def _counting_s(n: int) -> float:
    """二筭為純，一純以取: a pair of 筭 at a time, and a moment to lay each ten 純 (十純則縮而委之)."""
    return 2.0 + PAIR_S * (n // 2 + n % 2) + BUNDLE_S * (n // 20)


def run(acts: Acts, step: chor.Step, t0: float) -> float:
    a = step.who[0]
    here = acts.pos(a)                                    # 中西, where he sat to count (東面于中西坐)
    acts.pose(a, t0, "stand")
    t = acts.walk_path(a, t0 + 0.6, [here, (here[0], here[1] - SOUTH, here[2])])
    t = acts.turn(a, t, 90.0)
    acts.pose(a, t, "sit")                                # 先數右獲, facing east
    acts.give("counters.hand", t, None, a)                # his left hand (實于左手)
    t = _take_by_pairs(acts, t + 1.0, "right")
    t += 1.0
    acts.pose(a, t, "stand")                              # 興
    t = acts.walk_path(a, t + 0.6, _round_the_zhong(acts, a, here))   # 自前適左: 由中東
    t = acts.turn(a, t, 90.0)                             # 東面
    acts.pose(a, t, "sit")                                # 坐兼斂筭實于左手 … 其餘如右獲
    t = _lay_by_pairs(acts, t + 1.0, "left")
    return t + 1.0


def _take_by_pairs(acts: Acts, t: float, pile: str) -> float:
    """一純以取實于左手，十純則縮而委之 … 有餘純則橫於下，奇則又縮諸純下: into the hand two by two, back on the
    ground twenty at a time, and what is left in his hand laid at the end."""
    n = acts.counters[pile]
    held = 0                                              # in his left hand since the last 十純 laid
    for k in range(n // 2 + n % 2):
        c = acts.counters
        m = min(2, n - 2 * k)                             # a 純, or the 奇 at the end
        t += PAIR_S
        acts.set_counters(t, **{pile: c[pile] - m, "hand": c["hand"] + m})
        held += m
        if held == 20:                                    # 十純則縮而委之 (每委異之)
            t += BUNDLE_S
            c = acts.counters
            acts.set_counters(t, **{pile: c[pile] + 20, "hand": c["hand"] - 20})
            held = 0
    if held:                                              # 有餘純則橫於下 … 奇則又縮諸純下
        c = acts.counters
        t += PAIR_S
        acts.set_counters(t, **{pile: c[pile] + held, "hand": c["hand"] - held})
    return t


def _lay_by_pairs(acts: Acts, t: float, pile: str) -> float:
    """坐兼斂筭實于左手，一純以委，十則異之: all into the hand at once, then laid two by two (鄭 變於右)."""
    c = acts.counters
    n = c[pile]
    acts.set_counters(t, **{pile: 0, "hand": c["hand"] + n})
    for k in range(n // 2 + n % 2):
        c = acts.counters
        m = min(2, n - 2 * k)
        t += PAIR_S + (BUNDLE_S if k and k % 10 == 0 else 0.0)     # 十則異之: a moment to start a new bundle
        acts.set_counters(t, **{pile: c[pile] + m, "hand": c["hand"] - m})
    return t


def _round_the_zhong(acts: Acts, a: str, here: Point) -> list[Point]:
    """興自前適左 (鄭 起由中東): from the right pile's seat round by the south and the east of the 中 to a little
    north of his first seat — south also of anyone standing just south of the 中 (the 司射 視筭 there), a body
    clear of each."""
    zx, zy, _ = acts.layout["court.zhong"].xyz_chi
    gap = max(1.5, 1.2 * acts.min_gap)
    south = zy - ZHONG_HALF[1] - 1.5
    for p in acts.others((a,)):
        if abs(p[0] - zx) < gap + 1.0 and zy - 6.0 < p[1] < zy and abs(p[2]) < 0.5:
            south = min(south, p[1] - gap)
    east = zx + ZHONG_HALF[0] + 1.5
    north = zy + ZHONG_HALF[1] + 2.5
    start = acts.pos(a)
    x0 = start[0]
    pts = [start, (x0, south, 0.0), (east, south, 0.0), (east, north, 0.0), (x0, north, 0.0),
           (here[0], here[1] + NORTH, here[2])]
    return [p for i, p in enumerate(pts) if i == 0 or math.dist(p[:2], pts[i - 1][:2]) > 1e-6]
