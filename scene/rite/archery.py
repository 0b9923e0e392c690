"""The range's part of the director (射器 and 三番射): what a chapter that shoots has and a chapter that only
drinks has not.  鄉射禮 (chapter 5) stands a 侯 in the court and gives each archer a bow and four arrows, lays
out 80 筭 (記62 箭籌八十) and shoots three rounds; 鄉飲酒禮 (chapter 4) has no range in its 庠 and no archer in
its cast.  :func:`plug` gives the :class:`Range` of a layout that has the 侯 (``target.centre``) and None
otherwise, so the director makes no bow, no 筭 and no round where the text has none.

The part owns its state — the things it sets out, the rounds' results, the pairs of each round and the 司射's
誘射 — and the director reads them (its ``results``, ``round_pairs``, ``demo`` and ``counters`` are the
part's, or empty without a range)."""
from __future__ import annotations

from collections.abc import Callable

from ..geometry.layout import Layout
from ..geometry.readings import Reading
from . import choreography as chor
from .counting import PILES
from .shooting import ARROWS, RoundResult, Shot, demonstrate, shoot_round
from .state import ObjectState, Point
from .step_cast import kept

#: where each archer's bow and arrows lie before the rite (鄭 §2 the 賓's and the 主人's bows on the 堂 西序 /
#: 東序; the others' at 堂西, the 司射's by the 扑): the place ids of chapter 5's range
_STORE = {"bin": "tang.bows_guest", "dafu": "tang.bows_guest", "zhuren": "tang.bows_host", "sishe": "court.pu"}
_PILE_AT = {"zhong": "court.zhong", "right": "court.counters_right", "left": "court.counters_left",
            "spare": "court.counters_spare", "hand": "court.counters_spare"}


def has_range(layout: Layout) -> bool:
    """Whether the hall has a range: the 侯 and its 中 (``target.centre``), which every shot aims at."""
    return "target.centre" in layout


class Range:
    """射 — the archery of one compiled rite: its things and its rounds, made once at the start.

    ``objects``: the bows and arrows (弓矢) of each archer and of the 司馬 (the 相, who holds a bow to give his
    orders, §21 執弓, and shoots none), the 司射's 一个 (§20 改取一个挾之) and the 筭 in their five piles, each
    with its first events; ``results``: each round shot (1–3) by its pairs (the data's ``shoot`` steps);
    ``demo``: the 司射's 誘射 (§20); ``counters``: how many 筭 each pile holds (0 at the start)."""

    def __init__(self, layout: Layout, choreo: chor.Choreography, reading: Reading, present: set[str],
                 place: Callable[[str], Point]) -> None:
        self.objects: dict[str, ObjectState] = {}
        for a in choreo.actors.values():
            if not (a.archer or a.id in ("sishe", "xiang")):
                continue
            base = place(_STORE.get(a.id, "court.bows_common"))
            arrows = [] if a.id == "xiang" else [f"arrow.{a.id}.{n}" for n in range(1, ARROWS + 1)]
            for oid in [f"bow.{a.id}", *arrows]:
                self.objects[oid] = ObjectState([(0.0, "at", base), (0.0, "state", "stored")])
        # the 司射's 一个: not one of the four he shoots, kept with the arrows at 堂西
        self.objects[chor.SISHE_ONE] = ObjectState([(0.0, "at", place("hall.west_of_tang")), (0.0, "state", "stored")])
        # the 80 筭 in five piles: in the 中, in the 釋獲者's hand, 右獲, 左獲, 餘 (中西)
        for pile in PILES:
            self.objects[f"counters.{pile}"] = ObjectState([(0.0, "at", place(_PILE_AT[pile])), (0.0, "state", "0")])
        self.counters: dict[str, int] = {p: 0 for p in PILES}
        pairs: dict[int, list[tuple[str, str]]] = {1: [], 2: [], 3: []}
        for sec in choreo.sections:
            for st in sec.steps:
                if st.do == "shoot" and st.round in pairs and kept(st, reading, present) and len(st.who) == 2:
                    pairs[st.round].append((st.who[0], st.who[1]))
        self.results: dict[int, RoundResult] = {rnd: shoot_round(rnd, ps, layout, reading.seed)
                                                for rnd, ps in pairs.items() if ps}
        self.round_pairs = pairs
        self.demo: tuple[Shot, ...] = demonstrate("sishe", layout, reading.seed)


def plug(layout: Layout, choreo: chor.Choreography, reading: Reading, present: set[str],
         place: Callable[[str], Point]) -> Range | None:
    """The range part of a rite whose hall has a range, or None (鄉飲酒禮: no 侯, no bow, no round)."""
    return Range(layout, choreo, reading, present, place) if has_range(layout) else None
