"""§32 釋獲者遂進取賢獲執以升自西階盡階不升堂告于賓: he takes up the 賢獲 (鄭: 勝黨之筭也，齊之而取其餘 — the
winning side's 筭 beyond the other's), or one 筭 from each pile when they are equal (左右皆執一筭), goes up the
西階 to the top 等 and tells the 賓 (右賢於左若干純若干奇 / 左右鈞).  He ends there; the data's 降復位 brings him
back."""
from __future__ import annotations

from .. import choreography as chor
from .base import Acts
from .count import NORTH, SOUTH


def run(acts: Acts, step: chor.Step, t0: float) -> float:
    a = step.who[0]
    assert step.round is not None          # (the loader holds a tell_count step to its round)
    res = acts.results.get(step.round)
    c = acts.counters
    right, left = c["right"], c["left"]
    sit = acts.pos(a)                                     # at the left pile, 少北 of his place
    place = (sit[0], sit[1] - NORTH, sit[2])
    # 進取賢獲: to the winning pile (the right one is south of his place, the left north), kneeling
    spot = (place[0], place[1] - SOUTH, place[2]) if right > left else sit
    acts.pose(a, t0, "stand")
    t = acts.walk_path(a, t0 + 0.6, [sit, spot]) if spot != sit else t0 + 0.6
    t = acts.turn(a, t, 90.0)
    acts.pose(a, t, "sit")
    t += 1.5
    if right == left:                                     # 左右皆執一筭
        take = {"right": right - min(1, right), "left": left - min(1, left)}
        n = min(1, right) + min(1, left)
    else:
        win = "right" if right > left else "left"
        n = abs(right - left)
        take = {win: c[win] - n}
    acts.set_counters(t, hand=c["hand"] + n, **take)
    acts.give("counters.hand", t, None, a)
    acts.pose(a, t + 0.3, "stand")
    t += 0.9
    top = acts.resolve(chor.parse_ref("hall.west_steps_last"), a)     # 盡階不升堂: the top 等
    t = acts.walk(a, t, top, "west")
    t = acts.turn(a, t, 0.0)
    text = res.announcement if res is not None else ""
    acts.say(a, t, text)
    acts.announce((t, step.round, text))
    t += 4.0
    acts.say(a, t, "")
    return t
