"""What the rules ask of a compiled rite: where someone is, which way he faces, his posture, what he holds
and what role he has at a moment; which steps cite which words; who a name of the text means."""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cached_property
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from ...text import passage
from ...text.words import words
from .. import choreography as chor
from ..state import StepSpan
from . import phrase as ph

if TYPE_CHECKING:
    from ..timeline import Rite

PAIR_VERBS = ("approach", "shoot", "retire", "pick_arrows")


def interp_row(x: float, xp: np.ndarray, fp: np.ndarray) -> np.ndarray:
    """``np.interp(x, xp, fp[:, c])`` for every column c at once — the very numbers (the same search and the
    same arithmetic as numpy's, its edge cases included), a quarter of the cost: the checks ask it some
    90,000 times a rite."""
    x = float(x)
    if math.isnan(x):
        return np.full(fp.shape[1], np.nan)
    if len(xp) == 1 or x <= xp[0]:
        return np.array(fp[0], dtype=float)
    if x >= xp[-1]:
        return np.array(fp[-1], dtype=float)
    j = int(np.searchsorted(xp, x, side="right")) - 1
    if xp[j] == x:
        return np.array(fp[j], dtype=float)
    slope = (fp[j + 1] - fp[j]) / (xp[j + 1] - xp[j])
    out = slope * (x - xp[j]) + fp[j]
    bad = np.isnan(out)
    if bad.any():                  # an infinite slope (numpy's fallbacks, in its order)
        out[bad] = (slope * (x - xp[j + 1]) + fp[j + 1])[bad]
        same = np.isnan(out) & (fp[j] == fp[j + 1])
        out[same] = fp[j][same]
    return np.asarray(out, dtype=float)


@dataclass(frozen=True)
class Finding:
    """One thing the tracks do that the words do not allow (or fail to do that they require)."""

    rule: str          # posture, facing, stairs, motion, group, order, ji, things, world
    section: int
    step: int | None   # 0-based index of the step in its section (None: about the section or the rite)
    phrase: str
    word: str          # the word that failed
    requires: str
    shows: str         # what the tracks show, with numbers
    who: str = ""
    t: float | None = None

    def key(self) -> tuple[str, int, int | None, str, str]:
        return (self.rule, self.section, self.step, self.word, self.who)

    def line(self) -> str:
        where = f"§{self.section}" + (f" step {self.step + 1}" if self.step is not None else "")
        at = f" at {self.t:.1f} s" if self.t is not None else ""
        who = f" {self.who}" if self.who else ""
        return (f"{self.rule:8} {where:14}{who}{at}: 「{self.phrase}」 {self.word} requires {self.requires}; "
                f"the tracks show {self.shows}")

    def as_dict(self) -> dict[str, Any]:
        return {"rule": self.rule, "section": self.section, "step": None if self.step is None else self.step + 1,
                "phrase": self.phrase, "word": self.word, "requires": self.requires, "shows": self.shows,
                "who": self.who, "t": None if self.t is None else round(self.t, 2)}


def angle_diff(a: float, b: float) -> float:
    return abs(((a - b + 180.0) % 360.0) - 180.0)


def bearing(frm: Sequence[float] | np.ndarray, to: Sequence[float] | np.ndarray) -> float:
    """Compass bearing (0 = north, 90 = east) from one (x, y) to another."""
    return math.degrees(math.atan2(to[0] - frm[0], to[1] - frm[1])) % 360.0


class Ctx:
    """The compiled rite seen by the rules (positions in 尺, the text's unit)."""

    _ji_findings: list[Finding]                   # (set once by jirows.ji_findings)
    _clause_eval: dict[int, list[Any]]            # (set once by coverage.evaluate: its _Eval rows)

    def __init__(self, rite: Rite) -> None:
        self.rite = rite
        self.lay = rite.layout
        self.hall = rite.layout.hall
        self.chor: chor.Choreography = rite.choreography
        #: the chapter the rite acts (its grammar and clause data are that chapter's)
        self.chapter = rite.choreography.chapter
        #: who the text's names mean: the groups it names with 皆 / 辯, and the names of one person (the cast's)
        self.groups = rite.choreography.groups
        self.names = rite.choreography.names
        #: who the text names, what its place words mean, whom a name means beyond the cast (its words file)
        self.words = words(self.chapter)
        self.chi = rite.reading.chi_m
        self.reading = rite.reading
        self.index = {aid: k for k, aid in enumerate(rite.actor_ids)}
        self._pos = rite._actors.tracks                     # (t, [x y z (m), heading]) per actor
        self._posture = rite._posture.tracks
        self._holding = rite._holding.tracks
        self._role = rite._role.tracks
        self._visible = rite._visible.tracks
        self._dress = rite._dress.tracks
        self.sections = {s.n: s for s in self.chor.sections}
        #: the time the rules look at: the whole rite, or the sections a mutation run looks at
        #: (:func:`.mutate.windowed`, whose ``spans`` are those sections' alone)
        self.window: tuple[float, float] = getattr(rite, "window", None) or (0.0, rite.duration)
        self.windowed = getattr(rite, "window", None) is not None

    # ---------------------------------------------------------------- steps
    def step_of(self, span: StepSpan) -> chor.Step:
        step: chor.Step = self.sections[span.section].steps[span.index]
        return step

    @cached_property
    def whole_steps(self) -> list[StepSpan]:
        """One span a step of the choreography: a form's sub-steps (Acts.part, the §33 drinking told act by
        act) taken together again — from the first's start to the last's end, all their people — for the
        rules that hold the form's routine as a whole (the forms rule, 記49)."""
        out: list[StepSpan] = []
        at: dict[tuple[int, int], int] = {}
        for sp in self.rite.spans:
            k = (sp.section, sp.index)
            if k not in at:
                at[k] = len(out)
                out.append(sp)
                continue
            w = out[at[k]]
            step = self.step_of(sp)
            out[at[k]] = replace(w, phrase=step.phrase, offset=step.offset, start_s=min(w.start_s, sp.start_s),
                                 end_s=max(w.end_s, sp.end_s), who=tuple(dict.fromkeys(w.who + sp.who)),
                                 acts=w.acts + sp.acts, things=tuple(dict.fromkeys(w.things + sp.things)))
        return out

    @cached_property
    def spans_by_section(self) -> dict[int, list[StepSpan]]:
        out: dict[int, list[StepSpan]] = {}
        for sp in self.rite.spans:
            out.setdefault(sp.section, []).append(sp)
        return out

    @cached_property
    def pairs(self) -> dict[int, list[tuple[str, str]]]:
        """Per section, the pairs (上射, 下射) its standard forms act."""
        out: dict[int, list[tuple[str, str]]] = {}
        for sp in self.rite.spans:
            if sp.do in PAIR_VERBS and len(sp.who) == 2 and tuple(sp.who) not in out.get(sp.section, []):
                out.setdefault(sp.section, []).append((sp.who[0], sp.who[1]))
        return out

    @cached_property
    def all_pairs(self) -> list[tuple[str, str]]:
        """Every pair of the rite in the order they first shoot (三耦, then the 大夫's, then the 眾賓's)."""
        out: list[tuple[str, str]] = []
        for n in sorted(self.pairs):
            out += [p for p in self.pairs[n] if p not in out]
        return out

    def text(self, n: int) -> str:
        """The 經 of section ``n`` of the rite's chapter."""
        return passage(n, chapter=self.chapter).text

    # ---------------------------------------------------------------- who a name means
    def means(self, name: str | None, aid: str, section: int, t: float, at: int | None = None) -> bool:
        """Whether ``name`` in §``section`` (at offset ``at`` of its 經, when known) means ``aid`` at time t."""
        if name is None:
            return False
        role = self.role(aid, t)
        pairs = self.pairs.get(section, [])
        if name in ("上射", "下射"):
            k = 0 if name == "上射" else 1
            return any(p[k] == aid for p in pairs) or (not pairs and aid in self.words.unpaired.get(name, ()))
        if name in ("耦", "射者", "眾射者", "勝者", "不勝者"):
            return any(aid in p for p in pairs) or self.chor.actors[aid].archer
        from .exceptions import group_readings
        for g in group_readings(self.chapter):          # a reading of the name in these sections (grammar.toml [[group]])
            if g.name == name and g.covers(section, at, self.reading.dafu_present):
                return aid in g.members
        also = self.words.means.get(name, ())       # beyond the cast's group (chapter 5: 三耦 and 獲者 are 弟子)
        if name in self.groups:
            return aid in self.groups[name] or aid in also
        if name in self.names:
            return aid in self.names[name] or aid in also
        if name in self.words.by_role:             # the 相 while he is 司正 or 司馬
            return aid in self.words.by_role[name] and role.startswith(name)
        return aid in also

    def segments_of(self, span: StepSpan, aid: str) -> list[ph.Segment]:
        """The parts of the step's phrase that speak of ``aid`` (all of it when it names nobody and the
        passage named nobody before it)."""
        act = span.act_of(aid)
        t = act[0] if act else span.start_s
        segs = ph.segments(span.section, span.offset, span.phrase, self.chapter)
        mine = [s for s in segs if s.subject is None or self.means(s.subject, aid, span.section, t)]
        return mine

    def own_segments(self, span: StepSpan, aid: str) -> list[ph.Segment]:
        """:meth:`segments_of`, or — when the reading of subjects gives him no part of the phrase only because
        a subject named before it is carried over (祭如賓禮不告旨自席前適阼階上北面坐卒爵 read as the 賓's) —
        the phrase's parts that name nobody: the data names him as the one who does it."""
        mine = self.segments_of(span, aid)
        if mine:
            # 賓與大夫辭坐受觶: a name joined to the next by 與 / 及 shares what follows it
            segs = ph.segments(span.section, span.offset, span.phrase, self.chapter)
            out = list(mine)
            for k, sg in enumerate(segs[:-1]):
                if sg in mine and sg.text.endswith(("與", "及")) and segs[k + 1] not in out:
                    out.append(segs[k + 1])
            return out
        return [s for s in ph.segments(span.section, span.offset, span.phrase, self.chapter) if s.subject is None or s.subject not in span.phrase]

    # ---------------------------------------------------------------- tracks
    def _lin(self, aid: str, t: float) -> np.ndarray:
        ts, v = self._pos[self.index[aid]]
        return interp_row(t, ts, v)

    def pos(self, aid: str, t: float) -> np.ndarray:
        """(x, y, z) in 尺."""
        xyz: np.ndarray = self._lin(aid, t)[:3] / self.chi
        return xyz

    def heading(self, aid: str, t: float) -> float:
        return float(self._lin(aid, t)[3] % 360.0)

    def _step_value(self, tracks: Sequence[tuple[np.ndarray, Sequence[Any]]], aid: str, t: float) -> Any:
        ts, vs = tracks[self.index[aid]]
        i = int(np.searchsorted(ts, t, side="right")) - 1
        return vs[max(i, 0)]

    def _step_values(self, tracks: Sequence[tuple[np.ndarray, Sequence[Any]]], aid: str, ts: np.ndarray) -> np.ndarray:
        """:meth:`_step_value` at many times at once (an object array)."""
        t_, vs = tracks[self.index[aid]]
        i = np.maximum(np.searchsorted(t_, ts, side="right") - 1, 0)
        arr = np.empty(len(vs), dtype=object)
        arr[:] = list(vs)
        out: np.ndarray = arr[i]
        return out

    def posture(self, aid: str, t: float) -> str:
        return cast(str, self._step_value(self._posture, aid, t))

    def postures_at(self, aid: str, ts: np.ndarray) -> np.ndarray:
        """His posture at each of many times."""
        return self._step_values(self._posture, aid, ts)

    def holdings_at(self, aid: str, ts: np.ndarray) -> np.ndarray:
        """What he holds at each of many times."""
        return self._step_values(self._holding, aid, ts)

    def visible_at(self, aid: str, ts: np.ndarray) -> np.ndarray:
        """Whether he is seen at each of many times (bool)."""
        return self._step_values(self._visible, aid, ts).astype(bool)

    def counters_at(self, oid: str, ts: np.ndarray) -> np.ndarray:
        """How many 筭 a pile (``counters.…``) holds at each of many times (its state; none: 0)."""
        t_, vs = self.rite._ostate.tracks[self.rite.object_ids.index(oid)]
        i = np.maximum(np.searchsorted(t_, ts, side="right") - 1, 0)
        out: np.ndarray = np.array([int(v or 0) for v in vs])[i]
        return out

    def pos_at(self, aid: str, ts: np.ndarray) -> np.ndarray:
        """:meth:`pos` at many times: (len(ts), 3) in 尺."""
        t_, v = self._pos[self.index[aid]]
        out: np.ndarray = np.column_stack([np.interp(ts, t_, v[:, c]) for c in range(3)]) / self.chi
        return out

    @cached_property
    def people_10hz(self) -> dict[str, np.ndarray]:
        """The people over the whole rite at 10 Hz (:func:`..audit.sampled`): the body rules and the audit
        read the same samples."""
        from ..audit import sampled
        return sampled(self.rite, 10.0)

    def postures(self, aid: str, t0: float, t1: float) -> list[tuple[float, str]]:
        """(time, posture) changes in [t0, t1], with the posture in force at t0 first."""
        ts, vs = self._posture[self.index[aid]]
        out = [(t0, self.posture(aid, t0))]
        for t, v in zip(ts, vs):
            if t0 < t <= t1:
                out.append((float(t), v))
        return out

    def holding(self, aid: str, t: float) -> str:
        return cast(str, self._step_value(self._holding, aid, t))

    def dress(self, aid: str, t: float) -> str:
        """What he wears on his left arm and hands (袒決遂, 袒決, 袒, '' covered: :mod:`scene.rite.dress`)."""
        return cast(str, self._step_value(self._dress, aid, t))

    def role(self, aid: str, t: float) -> str:
        return self._step_value(self._role, aid, t) or self.chor.actors[aid].name

    def visible(self, aid: str, t: float) -> bool:
        return bool(self._step_value(self._visible, aid, t))

    def path(self, aid: str, t0: float, t1: float, dt: float = 0.25) -> tuple[np.ndarray, np.ndarray]:
        """Times and (x, y, z) in 尺 of ``aid`` from t0 to t1, every dt and at every key in between."""
        ts, v = self._pos[self.index[aid]]
        inner = ts[(ts > t0) & (ts < t1)]
        grid = np.unique(np.concatenate([np.arange(t0, t1, dt), inner, [t1]]))
        xyz = np.column_stack([np.interp(grid, ts, v[:, c]) for c in range(3)]) / self.chi
        return grid, xyz

    def place(self, pid: str) -> np.ndarray | None:
        return np.array(self.lay[pid].xyz_chi) if pid in self.lay else None

    def place_of(self, word: str) -> np.ndarray | None:
        """(x, y, z) in 尺 of what a place word of the text means here: the first of its places (the chapter's
        words file) that the layout has; None when the chapter has no such word or the layout no such place."""
        pid = next((p for p in self.words.places.get(word, ()) if p in self.lay), None)
        return self.place(pid) if pid else None

    def at(self, pid: str) -> np.ndarray:
        """(x, y, z) in 尺 of a place the rule needs (every layout has it)."""
        xyz = self.place(pid)
        assert xyz is not None, pid
        return xyz
