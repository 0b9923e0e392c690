"""What the text's clauses need that the tracks cannot give: a chapter's ``[data] clauses`` (chapter 5's:
``assets/clauses.toml``; a chapter without one has no entries), validated on load; :func:`load` takes
``chapter=`` (None: chapter 5).

``[[not_acted]]`` — clauses no step acts, with why: ``section``, ``text`` (verbatim in that section's 經;
every clause it overlaps) and ``reason``.

``[[unchecked]]`` — clauses steps act but no predicate over the tracks can hold (a statement of what is
there, words said, a recap), with why: ``section``, ``text``, ``reason``.

``[[subject]]`` — where a clause's subject is not the one carried forward from the last name (賓不辭洗卒洗:
the 主人 finishes the washing): ``section``, ``text`` (the clause's words, verbatim), ``name`` (names joined by 、 when several act) and ``reason``.

``[[form]]`` — words a standard form acts beyond the words its step cites (the forfeit form of §33 acts the
drinking of a 主人 or 大夫 who lost): ``section``, ``text``, ``do`` (the form's verb) and ``reason``.

``[[condition]]`` — words that hold only if a condition of the text holds (若大夫之耦不勝則…): no predicate
examines them (``section``, ``text``, ``reason``).

``[[ji]]`` — a 記 item the ``ji`` rule holds, listed in the coverage of every section where a step it governs
is acted: ``item`` ("記26"), ``text`` (verbatim in the item), ``reason``, and the steps it governs by ``do``
(verbs), ``phrase`` (words of the step's phrase) and/or ``who`` (an actor id).

A bad entry is one line naming it (:class:`ChoreographyError`).
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
from ...text.clauses import Clause, lexicon
from ..choreography import ChoreographyError

#: chapter 5's file (a test points it at an edited copy)
FILE: Path = resolve_chapter(None).clauses or Path("clauses.toml")
FORM_DOS = ("approach", "retire", "shoot", "pick_arrows", "forfeit", "count", "collect_arrows", "relay", "put_away")


@dataclass(frozen=True)
class _Entry:
    section: int
    start: int
    end: int
    value: str           # the reason, or the subject's name
    reason: str


@dataclass(frozen=True)
class ClauseData:
    not_acted: tuple[_Entry, ...]
    subjects: tuple[_Entry, ...]
    forms: tuple[_Entry, ...] = ()
    unchecked: tuple[_Entry, ...] = ()
    ji: tuple[JiEntry, ...] = ()
    conditions: tuple[_Entry, ...] = ()

    def condition_for(self, n: int, cl: Clause) -> str:
        return next((e.reason for e in self.conditions
                     if e.section == n and e.start < cl.end and cl.start < e.end), "")

    def reason_for(self, n: int, cl: Clause) -> str:
        return next((e.reason for e in self.not_acted + self.unchecked
                     if e.section == n and e.start < cl.end and cl.start < e.end), "")

    def not_acted_reason(self, n: int, cl: Clause) -> str:
        return next((e.reason for e in self.not_acted
                     if e.section == n and e.start < cl.end and cl.start < e.end), "")

    def subject_for(self, n: int, cl: Clause) -> str | None:
        return next((e.value for e in self.subjects if e.section == n and e.start < cl.end and cl.start < e.end), None)


def file_of(chapter: Chapter | None) -> Path | None:
    """The clauses file of a chapter: :data:`FILE` for chapter 5, None for a chapter without one."""
    return FILE if chapter is None or chapter == resolve_chapter(None) else chapter.clauses


def _entries(raw: list[Any], kind: str, keys: tuple[str, ...], chapter: Chapter | None = None) -> list[_Entry]:
    out = []
    name = (file_of(chapter) or FILE).name
    for i, e in enumerate(raw):
        where = f"{name} {kind} {i + 1}"     # (keys, types and ranges: validation.Clauses, on load)
        n = e["section"]
        at = passage(n, chapter=chapter).text.find(e["text"])
        if at < 0:
            raise ChoreographyError(f"{where}: {e['text']!r} is not in the 經 of §{n}")
        if kind == "subject" and not all(part in lexicon(chapter)[0] for part in e["name"].split("、")):
            raise ChoreographyError(f"{where}: {e['name']!r} is not a name the text uses")
        if kind == "form" and e["do"] not in FORM_DOS:
            raise ChoreographyError(f"{where}: do must be one of {', '.join(FORM_DOS)}")
        out.append(_Entry(n, at, at + len(e["text"]), str(e.get("name", e.get("do", e["reason"]))), e["reason"]))
    return out


@dataclass(frozen=True)
class JiEntry:
    item: str
    text: str
    reason: str
    do: tuple[str, ...] = ()
    phrase: str = ""
    who: str = ""


def _ji(raw: list[Any], chapter: Chapter | None = None) -> tuple[JiEntry, ...]:
    from ...text import ji as ji_text
    out = []
    name = (file_of(chapter) or FILE).name
    for i, e in enumerate(raw):
        where = f"{name} ji {i + 1}"        # (keys, types and ranges: validation.Clauses, on load)
        try:
            item = ji_text(int(str(e["item"]).lstrip("記")), chapter=chapter)
        except ValueError as exc:
            raise ChoreographyError(f"{where}: {exc}") from None
        if e["text"] not in item:
            raise ChoreographyError(f"{where}: {e['text']!r} is not in {e['item']}")
        if not (e.get("do") or e.get("phrase") or e.get("who")):
            raise ChoreographyError(f"{where}: give the steps it governs (do, phrase or who)")
        out.append(JiEntry(e["item"], e["text"], e["reason"], tuple(e.get("do", ())), e.get("phrase", ""),
                           e.get("who", "")))
    return tuple(out)


@lru_cache(maxsize=4)
def load(chapter: Chapter | None = None) -> ClauseData:
    """A chapter's clause data (None: chapter 5's)."""
    f = file_of(chapter)
    if f is None:
        return ClauseData((), ())
    try:
        raw = tomllib.loads(f.read_text(encoding="utf-8")) if f.exists() else {}
    except tomllib.TOMLDecodeError as exc:
        raise ChoreographyError(f"{f.name}: not valid TOML ({exc})") from None
    from ...validation import Clauses, convert
    convert(raw, Clauses, f.name, error=ChoreographyError, sections=resolve_chapter(chapter).sections)   # types, ranges and keys first, one line each
    ch = chapter

    def entries(kind: str, keys: tuple[str, ...]) -> tuple[_Entry, ...]:
        return tuple(_entries(raw.get(kind, []), kind, keys, ch))
    return ClauseData(entries("not_acted", ("section", "text", "reason")),
                      entries("subject", ("section", "text", "name", "reason")),
                      entries("form", ("section", "text", "do", "reason")),
                      entries("unchecked", ("section", "text", "reason")),
                      _ji(raw.get("ji", []), ch),
                      entries("condition", ("section", "text", "reason")))
