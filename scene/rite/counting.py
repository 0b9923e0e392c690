"""The 筭 (counters) as the text handles them: 80 (記62 箭籌八十) in five piles — in the 中, in the
釋獲者's hand, 右獲, 左獲 and the rest (中西) — moved only by the acts that move them. A part of
:class:`.director.Director` that owns the count of each pile; the piles as things (where each lies, who
holds it) are :class:`.things.Things`'s, told through its methods."""
from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from . import choreography as chor
from .people import People
from .places import Places
from .things import Things

PILES = ("zhong", "hand", "right", "left", "spare")
TOTAL_COUNTERS = 80      # 記62 箭籌八十


class Counters:
    """筭 — how many each pile holds (none without a range: 鄉飲酒禮 counts nothing)."""

    def __init__(self, counts: Mapping[str, int], things: Things, places: Places, people: People) -> None:
        self._counts: dict[str, int] = dict(counts)
        self.things = things
        self.places = places
        self.people = people

    def view(self) -> Mapping[str, int]:
        """How many each pile holds, to read (kept up to date)."""
        return MappingProxyType(self._counts)

    def count(self, pile: str) -> int:
        return self._counts.get(pile, 0)

    def total(self) -> int:
        return sum(self._counts.values())

    def piles(self) -> list[str]:
        """The piles of 筭 there are (any with counters in them)."""
        return [f"counters.{k}" for k, v in self._counts.items() if v > 0]

    def act(self, step: chor.Step, aid: str, t0: float, t1: float) -> None:
        """The 筭 handled as the text handles them (§26): 一人執筭以從之 (take the bundle of 80), 興受筭
        (receive it), 坐實八筭于中 (fill: eight into the 中), 橫委其餘于中西 (set the rest down west of it),
        取中之八筭 (take the 中's eight into the hand; they are laid one a hit)."""
        assert step.obj is not None             # (the director hands on only the steps done to a pile)
        pile = step.obj[len("counters."):]
        oid = step.obj
        c = self._counts
        if step.do == "take" and pile == "spare" and sum(c.values()) == 0:
            self.set(t0, spare=TOTAL_COUNTERS)
            self.things.give(oid, t0, None, aid)
        elif step.do == "take" and pile == "zhong":
            self.set(t0, hand=c["hand"] + c["zhong"], zhong=0)
            self.things.give("counters.hand", t0, None, aid)
        elif step.do == "take" and pile in ("right", "left"):
            # 兼斂筭 (§32): all of them into his hand — both piles, counted, the 賢獲 he holds, and the 中's
            # eight (兼: together; so that 實八筭于中 has an empty 中 to fill — our reading)
            self.set(t0, hand=c["hand"] + c["right"] + c["left"] + c["zhong"], right=0, left=0, zhong=0)
            self.things.give("counters.hand", t0, None, aid)
        elif step.do == "set_down" and pile == "zhong" and step.at is None:
            self.fill_zhong(t1, "hand")
        elif step.do == "set_down" and pile == "hand" and step.at is None:
            # 反委之 / 委餘獲于中西 / 委其餘于中西: what is in his hand joins the rest west of the 中
            # (鄭 §27 委之合於中西)
            if c["hand"]:
                self.set(t1, spare=c["spare"] + c["hand"], hand=0)
        elif step.do == "take":
            self.things.give(oid, t0, None, aid)
        elif step.do == "receive" and step.to is not None:
            self.things.give(oid, t0, step.to, aid)
        elif step.do == "set_down":
            at = (self.places.resolve(step.at, aid) if step.at is not None
                  else self.things.lying_at("zhong") or self.people.pos(aid))
            self.things.give(oid, t1, aid, None, at)
        else:
            raise chor.ChoreographyError(f"{step.do} is not something done to the 筭 ({step.obj})")

    def fill_zhong(self, t: float, src: str = "spare") -> None:
        """實八筭于中 / 改實八筭于中: eight into the 中 (where the 中 lies), from the rest — or from his hand
        (§32 兼斂筭實八筭于中: the data's set_down of counters.zhong)."""
        c = self._counts
        n = min(8 - c["zhong"], c[src])
        if n <= 0:
            return
        self.set(t, zhong=c["zhong"] + n, **{src: c[src] - n})
        at = self.things.lying_at("zhong")
        if at is not None:
            self.things.obj("counters.zhong", t, "at", at)

    def load_zhong(self, t: float) -> None:
        """§26 坐實八筭于中，橫委其餘于中西, when the data has not done it step by step: 80 counters
        (記62 箭籌八十), 8 of them in the 中, the rest beside it."""
        if sum(self._counts.values()) == 0:
            self.set(t, spare=TOTAL_COUNTERS)
        self.fill_zhong(t)

    def ready(self, t: float, who: str = "shihuozhe") -> None:
        """Before a pair shoots (rounds 2–3), where the data has not acted it after the pair before (若有餘筭則
        反委之，又取中之八筭改實八筭于中, §27; 如初 in the sections that only say so): what is left in his
        hand back beside the 中, the 中's eight into his hand, eight more into the 中.  After a round's last
        pair nothing is taken: he goes up 執餘獲 (鄭 §30 無餘筭則空手耳)."""
        c = self._counts
        if c["hand"] == 8 and c["zhong"] == 8:
            return
        if c["hand"] and c["zhong"]:
            self.set(t, spare=c["spare"] + c["hand"], hand=0)
        if c["hand"] == 0 and c["zhong"] > 0:
            self.set(t + 0.5, hand=c["zhong"], zhong=0)
            self.things.obj("counters.hand", t + 0.5, "held", who)
        self.fill_zhong(t + 0.5)

    def set(self, t: float, **changes: int) -> None:
        """New counts of some piles at t (each pile's state event says its count)."""
        for k, v in changes.items():
            if v < 0:
                raise RuntimeError(f"counter pile {k} would go negative at {t:.1f}s")
            self._counts[k] = v
            self.things.obj(f"counters.{k}", t, "state", str(v))
