"""A relay's turns (旅酬, the form relay): the checker holds the words of a relay's step in each drinker's own
turn alone, not over the whole relay (which goes round seven men in five minutes).

The form leaves each drinker's turns on the director's board (``relay_turns``: actor, start, end — see
``forms/relay.py``): his coming and 受, and as toaster his 坐奠觶拜 to the 興 and his 飲, 實, 授 after it.
Over the whole span, a 受 never done is hidden by his taking the cup up again after the 奠 (or a 興 never done
by the end of the relay, long after his own part): each turn, as a sub-step of the form's step, must show
every word (:meth:`predicates.Span.each`).
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..state import StepSpan

EPS = 1e-6


def relay_turns(rite: Any) -> list[tuple[str, float, float]]:
    """The turns the relays of this rite left (none for a rite compiled without a relay at one place)."""
    d = getattr(rite, "director", None)
    return list(getattr(d, "board", {}).get("relay_turns", ())) if d is not None else []


def split(spans: list[StepSpan], aid: str, turns: list[tuple[str, float, float]]) -> list[StepSpan]:
    """His steps, each relay's step cut into his turns within it (a step of another form, or a relay with no
    turn of his, as it is)."""
    out: list[StepSpan] = []
    for sp in spans:
        mine = [(a, b) for x, a, b in turns if x == aid and sp.do == "relay"
                and sp.start_s - EPS <= a and b <= sp.end_s + EPS]
        out += [replace(sp, start_s=a, end_s=b, acts=((aid, a, b),)) for a, b in mine] or [sp]
    return out
