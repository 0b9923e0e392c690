"""Deliberate exceptions and the subjects the text leaves implicit, as data: a chapter's ``[data] grammar``
(chapter 5's: ``assets/grammar.toml``; a chapter without one has none).  Every reader takes ``chapter=`` (a
:class:`~scene.chapter.Chapter`; None is chapter 5).

``[[exception]]`` — a finding the team accepts, with its reason and reference: ``rule``, ``section``,
``word`` (as the finding names it) and optionally ``step`` (1-based) and ``who``; ``reason`` and
``reference`` are required.  An exception that matches nothing is itself reported, so the file cannot rot.

``[[subject]]`` — where the 經 changes its subject without naming him (賓答拜降洗升實之…: the 舉觶者 goes
down), the name the text means from the start of ``text`` on, with the reference that says so.
"""
from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from ...chapter import Chapter
from ...chapter import resolve as resolve_chapter
from ...text import passage
from ..choreography import ChoreographyError
from .context import Finding

#: chapter 5's file (a test points it at an edited copy)
FILE: Path = resolve_chapter(None).grammar or Path("grammar.toml")


def file_of(chapter: Chapter | None) -> Path | None:
    """The grammar file of a chapter: :data:`FILE` for chapter 5, None for a chapter without one."""
    return FILE if chapter is None or chapter == resolve_chapter(None) else chapter.grammar


@dataclass(frozen=True)
class Exception_:
    rule: str
    section: int
    word: str
    reason: str
    reference: str
    step: int | None = None
    who: str = ""

    def matches(self, f: Finding) -> bool:
        return (f.rule == self.rule and f.section == self.section and f.word == self.word
                and (self.step is None or (f.step is not None and f.step + 1 == self.step))
                and (not self.who or self.who == f.who))


@dataclass(frozen=True)
class Subject:
    section: int
    start: int          # offset in the passage
    name: str
    reason: str


@lru_cache(maxsize=4)
def _raw(chapter: Chapter | None = None) -> dict[str, Any]:
    from ...validation import Grammar, convert
    f = file_of(chapter)
    if f is None:
        return {}
    try:
        data = tomllib.loads(f.read_text(encoding="utf-8")) if f.exists() else {}
    except tomllib.TOMLDecodeError as exc:
        raise ChoreographyError(f"{f.name}: not valid TOML ({exc})") from None
    convert(data, Grammar, f.name, error=ChoreographyError, sections=resolve_chapter(chapter).sections)   # types, ranges and keys first, one line each
    return data


@lru_cache(maxsize=4)
def load(chapter: Chapter | None = None) -> tuple[tuple[Exception_, ...], tuple[Subject, ...]]:
    """A chapter's ``[[exception]]`` and ``[[subject]]`` entries."""
    raw = _raw(chapter)
    exc_out = []
    for e in raw.get("exception", []):
        # (keys, types and ranges: validation.Grammar, when the file is read)
        exc_out.append(Exception_(e["rule"], int(e["section"]), e["word"], e["reason"], e["reference"],
                                  e.get("step"), e.get("who", "")))
    subj = []
    for i, s in enumerate(raw.get("subject", [])):
        where = f"{_name(chapter)} subject {i + 1}"
        text = passage(int(s["section"]), chapter=chapter).text
        at = text.find(s["text"])
        if at < 0:
            raise ChoreographyError(f"{where}: {s['text']!r} is not in the 經 of §{s['section']}")
        subj.append(Subject(int(s["section"]), at, s["name"], s["reason"]))
    return tuple(exc_out), tuple(subj)


@dataclass(frozen=True)
class GroupReading:
    """What a name the text uses for a group means in some sections (眾賓 while they shoot: 眾賓射者)."""
    name: str
    first: int
    last: int
    members: tuple[str, ...]
    reason: str
    reference: str
    span: tuple[int, int] | None = None     # only these words of the first section's 經 (``text``)
    dafu_present: bool | None = None        # only under readings with (True) or without (False) the 大夫

    def covers(self, section: int, at: int | None, dafu_present: bool = True) -> bool:
        """Whether the reading holds at this place: its sections, its words when it names them, and the
        readings it is limited to (若無大夫則唯賓: the text's own condition)."""
        if not self.first <= section <= self.last:
            return False
        if self.dafu_present is not None and self.dafu_present != dafu_present:
            return False
        return self.span is None or (at is not None and self.span[0] <= at < self.span[1])


def _name(chapter: Chapter | None) -> str:
    f = file_of(chapter)
    return f.name if f is not None else "grammar.toml"


@lru_cache(maxsize=4)
def group_readings(chapter: Chapter | None = None) -> tuple[GroupReading, ...]:
    """``[[group]]`` of ``assets/grammar.toml``: name, sections = [first, last], members (actor ids),
    reason, reference, and optionally ``text``: the words of that section's 經 the reading is limited to
    (眾賓皆不拜受爵: the 眾賓 from the fourth on), and ``dafu_present``: true or false to hold only under
    readings with or without the 大夫.  Readings limited to words or readings come first."""
    out = []
    for i, g in enumerate(_raw(chapter).get("group", [])):
        where = f"{_name(chapter)} group {i + 1}"     # (keys, types and ranges: validation.Grammar, on read)
        secs = g["sections"]
        span = None
        if g.get("text"):
            if secs[0] != secs[1]:
                raise ChoreographyError(f"{where}: a reading limited to words (text) covers one section")
            at = passage(secs[0], chapter=chapter).text.find(g["text"])
            if at < 0:
                raise ChoreographyError(f"{where}: {g['text']!r} is not in the 經 of §{secs[0]}")
            span = (at, at + len(g["text"]))
        dafu = g.get("dafu_present")
        out.append(GroupReading(g["name"], secs[0], secs[1], tuple(g["members"]), g["reason"], g["reference"],
                                span, dafu))
    return tuple(sorted(out, key=lambda g: g.span is None and g.dafu_present is None))


def apply(findings: list[Finding], keep_excepted: bool = False, chapter: Chapter | None = None
          ) -> tuple[list[Finding], list[tuple[Finding, Exception_]]]:
    """(the findings no exception covers — plus one for each exception that covers nothing, the
    excepted ones with their exception)."""
    excs, _ = load(chapter)
    used: set[int] = set()
    left, excused = [], []
    for f in findings:
        hit = next((k for k, e in enumerate(excs) if e.matches(f)), None)
        if hit is None:
            left.append(f)
        else:
            used.add(hit)
            excused.append((f, excs[hit]))
    return left, excused


def unused(findings: list[Finding], rules: tuple[str, ...] | None = None, chapter: Chapter | None = None
           ) -> list[Finding]:
    """One finding for each exception (of these rules, or all) that covers none of ``findings``."""
    excs, _ = load(chapter)
    out = []
    for e in excs:
        if rules is not None and e.rule not in rules:
            continue
        if not any(e.matches(f) for f in findings):
            out.append(Finding("exception", e.section, None if e.step is None else e.step - 1, "", e.word,
                               f"the exception for {e.rule} {e.word} ({e.reason[:40]}…) to cover a finding",
                               f"no such finding any more: remove it from {_name(chapter)}", e.who))
    return out
