"""袒 and 襲: what an archer wears on his left arm and hands, read from the step that changes it.

An archer 袒決遂 before he shoots — bares the left arm (鄭: 袒，左免衣也), puts the 決 (the thumb ring,
鄭 以象骨為之，著右大擘指以鉤弦) on the right thumb and the 遂 (射韝, 鄭 以朱韋為之，著左臂) on the left
forearm — and 說決拾襲 after: takes both off (拾 is the 遂) and covers the arm again.  Not every 袒 is
whole: the 司馬 不決遂袒 (§21: he does not shoot), 司馬袒決 (§31), 司射遂袒 (§33).

The state is one word, the text's own: '袒決遂', '袒決', '袒', or '' (covered).  The data's ``bare``
verb stands for 袒決遂; what its phrase (or the earlier words it repeats, ``as_before``) says narrows it.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .choreography import Step

FULL = "袒決遂"


def bared(phrase: str) -> str:
    """What a ``bare`` step puts on, from its words: '袒決遂', '袒決' or '袒'."""
    if "袒" not in phrase:
        return FULL                       # 如初 / 亦如之 with no words of its own: the verb's meaning
    if "不決" in phrase:
        return "袒"                        # 不決遂袒
    if "決遂" in phrase:
        return FULL
    if "決" in phrase:
        return "袒決"
    return "袒"                            # 袒執弓 (the 遂 of 司射遂袒 is 'then', not the armlet)


def said(step: Step) -> str:
    """The step's words and the earlier words it repeats."""
    return step.phrase + (step.as_before[1] if step.as_before else "")


def after(step: Step, winner: Callable[[], bool | None] = lambda: None) -> str | None:
    """The dress after ``step`` (None: the step does not change it). ``winner()``: whether the actor is on the
    winning side of the last round counted (None: no side won, or nothing counted yet) — asked only of a
    勝者…袒 step."""
    if step.do == "bare":
        return bared(said(step))
    if step.do == "cover":
        return ""                          # 襲 / 說決拾襲: covered, the 決 and 拾 off
    words = said(step)
    if step.do == "take" and "勝者" in words and "袒" in words and winner():
        # §33 勝者皆袒決遂執張弓 (the 不勝者 stay 襲, 說決拾): only the simulated count knows who won
        return bared(words[words.index("勝者"):])
    return None
