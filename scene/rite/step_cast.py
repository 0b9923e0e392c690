"""Who plays a step, where the data leaves it to the rite: the one of its candidates that ``pick`` names, and a
company's step without those the reading leaves out.  (Pure functions of the step: the director asks them
before it plays each step.)"""
from __future__ import annotations

from collections.abc import Collection
from dataclasses import replace
from typing import Any

from . import choreography as chor


def picked(step: chor.Step, res: Any) -> chor.Step:
    """The step as played by the one of its candidates that ``pick`` names (§33 勝者之弟子: the youngest of the
    winning side of ``res``, the round last counted); a slot in its ``at`` moves with his place in the list."""
    won = [a for a in step.who if res is not None and res.winner is not None
           and a in {s.archer for s in res.shots} and a not in res.losers]
    chosen = (won or list(step.who))[-1]
    k = step.who.index(chosen)

    def moved(ref: chor.PlaceRef | None) -> chor.PlaceRef | None:
        if ref is None or ref.slot is None:
            return ref
        return replace(ref, slot=ref.slot + k, text=ref.text.replace(f"#{ref.slot}", f"#{ref.slot + k}", 1))
    return replace(step, who=(chosen,), at=moved(step.at))


#: the steps whose people act together as one routine: dropped whole when one of them is absent
WHOLE = ("forfeit", "relay", "collect_arrows", "count", "put_away")


def without_absent(step: chor.Step, present: Collection[str]) -> chor.Step:
    """A company's step without those the reading leaves out (大夫及眾賓皆說屨升坐 without a 大夫: the 眾賓
    still sit); a pair's or a standard form's step needs all its people, and is dropped whole."""
    absent = [w for w in step.who if w not in present]
    if (not absent or len(step.who) < 3 or len(step.who) - len(absent) < 2 or step.do in chor.PAIR_VERBS
            or step.do in WHOLE):
        return step
    return replace(step, who=tuple(w for w in step.who if w in present))


def kept(step: chor.Step, reading: Any, present: Collection[str]) -> bool:
    """Whether the step is played under the reading: its ``when`` (when = "dafu_present" needs the switch on,
    "not dafu_present" off, "jie_ximo=south" that value of the chapter's choice: :func:`chor.when_holds`) and
    all its people (and the one it is done to) present."""
    if not chor.when_holds(step.when, reading):
        return False
    return all(w in present for w in step.who) and (step.to is None or step.to in present)
