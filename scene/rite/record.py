"""What the director hands back besides the tracks (記: the record of the compilation): the span of every step
and stage, the sub-steps a form tells of its step, the 數獲 announcements and the hand-overs (whose two
parties may come within reach).  A part of :class:`.director.Director` that owns these lists alone."""
from __future__ import annotations

from dataclasses import replace

from . import choreography as chor
from .state import StageSpan, StepSpan


class Record:
    """記 — the spans, the told sub-steps, the announcements and the hand-overs, written only here."""

    def __init__(self) -> None:
        self._spans: list[StepSpan] = []
        self._stages: list[StageSpan] = []
        self._announcements: list[tuple[float, int, str]] = []
        self._handovers: list[tuple[float, float, str, str]] = []
        self._told: list[StepSpan] = []                    # the sub-steps a form has told (Acts.part)

    def spans(self) -> list[StepSpan]:
        return self._spans

    def stages(self) -> list[StageSpan]:
        return self._stages

    def announcements(self) -> list[tuple[float, int, str]]:
        return self._announcements

    def handovers(self) -> list[tuple[float, float, str, str]]:
        return self._handovers

    def step(self, spans: list[StepSpan]) -> int:
        """A step's spans (its own, or its sub-steps'); the index of the last."""
        self._spans += spans
        return len(self._spans) - 1

    def grow(self, k: int, end: float) -> None:
        """The step of span k goes on to ``end`` (a pair that waited to cross went on): so do its acts."""
        sp = self._spans[k]
        self._spans[k] = StepSpan(sp.section, sp.index, sp.phrase, sp.offset, sp.who, sp.do, sp.start_s,
                                 max(sp.end_s, end), tuple((a, t0, max(t1, end)) for a, t0, t1 in sp.acts))

    def stage(self, span: StageSpan) -> None:
        self._stages.append(span)

    def announce(self, entry: tuple[float, int, str]) -> None:
        self._announcements.append(entry)

    def handover(self, entry: tuple[float, float, str, str]) -> None:
        self._handovers.append(entry)

    def tell(self, section: int, text: str, step: chor.Step, phrase: str, who: tuple[str, ...], t0: float,
             t1: float, things: tuple[str, ...], after: str) -> None:
        """A sub-step of the form being played: its phrase the occurrence in the section's 經 (``text``) at or
        after ``after`` (the step's own phrase where the 經 has not the words: §42 升飲如初 plays §33's form)."""
        base = max(text.find(after), 0) if after else 0
        off = text.find(phrase, base)
        if off < 0:
            phrase, off = step.phrase, step.offset
        who = tuple(a for a in who if a)
        self._told.append(StepSpan(section, -1, phrase, off, who, step.do, t0, max(t1, t0),
                                   tuple((a, t0, max(t1, t0)) for a in who), things))

    def told(self, n: int, i: int, step: chor.Step, t0: float) -> list[StepSpan]:
        """The sub-steps a form told of its step, as ordinary steps of the section (each its own phrase, people
        and things; in time order, the first from the step's start so that no moment of it is without one)."""
        parts, self._told = sorted(self._told, key=lambda p: (p.start_s, p.offset)), []
        out = [StepSpan(n, i, p.phrase, p.offset, p.who, step.do, p.start_s, p.end_s, p.acts, p.things)
               for p in parts]
        if out and out[0].start_s > t0:
            out[0] = replace(out[0], start_s=t0)
        return out
