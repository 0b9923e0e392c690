"""A chapter's own reading choices (讀法 of its acts), beside the geometry's :data:`readings.FIELDS`.

A chapter's manifest may declare choices where the commentaries disagree over an act of its rite
(``[[reading.choice]]``, :class:`scene.chapter.ReadingChoice`) and presets of them (``[[reading.preset]]``).  A
:class:`~scene.geometry.readings.Reading` carries them as ``picks`` — (key, value) pairs — so its repr, its
hash and every cache key built from them differ with them.

Every chapter the package carries is read here once, so ``jia`` or ``zheng,jie_ximo=south`` means the same
wherever it is written (a URL, a subprocess's ``--reading``, a reading file): a choice key names one choice of one
chapter, a preset name one preset (a clash with a geometry field or preset, or between two chapters, is one
line).  A reading holding another chapter's choice is **refused** for a chapter (:func:`for_chapter`): its name
and its choices are printed on every output of the rite, and a choice that did not act would be reported as if
it had (and one rite cached under two keys)."""
from __future__ import annotations

import dataclasses
from functools import lru_cache
from typing import TYPE_CHECKING

from ..chapter import Chapter, ReadingChoice, ReadingPreset, chapters
from ..chapter import chapter as chapter_of
from ..chapter import resolve as resolve_chapter

if TYPE_CHECKING:
    from .readings import Reading


@lru_cache(maxsize=1)
def registry() -> tuple[dict[str, tuple[Chapter, ReadingChoice]], dict[str, tuple[Chapter, ReadingPreset]]]:
    """Every chapter's choices (key → (chapter, choice)) and presets (name → (chapter, preset))."""
    from .readings import FIELD_BY_KEY, PRESETS, ReadingError
    choices: dict[str, tuple[Chapter, ReadingChoice]] = {}
    presets: dict[str, tuple[Chapter, ReadingPreset]] = {}
    for cid in chapters():
        ch = chapter_of(cid)
        for c in ch.choices:
            if c.key in FIELD_BY_KEY or c.key in ("base", "name", "title") or c.key in choices:
                raise ReadingError(f"chapter {cid}: reading choice {c.key!r} is already a key of the readings")
            choices[c.key] = (ch, c)
        for p in ch.presets:
            if p.name in PRESETS or p.name in presets:
                raise ReadingError(f"chapter {cid}: reading preset {p.name!r} is already a preset")
            presets[p.name] = (ch, p)
    return choices, presets


def choice(key: str) -> tuple[Chapter, ReadingChoice] | None:
    """The chapter and the choice a key names, or None."""
    return registry()[0].get(key)


def preset(name: str) -> Reading | None:
    """The reading a chapter's preset names (zheng's geometry, its choices), or None."""
    from .readings import DEFAULT
    got = registry()[1].get(name)
    if got is None:
        return None
    ch, p = got
    return dataclasses.replace(DEFAULT, name=p.name, title=f"{ch.title}: {p.title}", picks=fill(p.values, ch))


def check(key: str, value: object, where: str, ch: Chapter | None = None) -> str:
    """``value`` of the choice ``key`` (of ``ch``, else of any chapter), checked; one line when it is not."""
    from .readings import ReadingError, shorten
    got = next(((ch, c) for c in ch.choices if c.key == key), None) if ch is not None else None
    got = got or choice(key)
    if got is None:
        raise ReadingError(f"{where}: unknown key '{shorten(key, 40)}'")
    allowed = [v for v, _ in got[1].options]
    if value not in allowed:
        raise ReadingError(f"{where}: key '{key}' = {shorten(repr(value), 40)} is not allowed "
                           f"(allowed: {', '.join(allowed)}; a choice of chapter {got[0].id})")
    return str(value)


def fill(values: tuple[tuple[str, str], ...] | dict[str, str], ch: Chapter) -> tuple[tuple[str, str], ...]:
    """Every choice of ``ch`` with its value: the given one, else its default (in the manifest's order)."""
    given = dict(values)
    return tuple((c.key, given.get(c.key, c.default)) for c in ch.choices)


def merged(picks: tuple[tuple[str, str], ...], changes: dict[str, str]) -> tuple[tuple[str, str], ...]:
    """``picks`` with ``changes`` applied, in a stable order (a changed key keeps its place, a new one last)."""
    out = dict(picks)
    out.update(changes)
    return tuple(out.items())


def value(r: Reading, key: str) -> str | None:
    """The value of the choice ``key`` under ``r``: its pick, else the choice's default (None: no such key)."""
    given = dict(r.picks)
    if key in given:
        return given[key]
    got = choice(key)
    return got[1].default if got is not None else None


def for_chapter(r: Reading, ch: Chapter | str | None) -> Reading:
    """``r`` as the rite of ``ch`` reads it: every choice of the chapter with its value (the defaults filled in);
    a choice of another chapter refused with one line (see the module's docstring)."""
    from .readings import ReadingError
    c = resolve_chapter(ch)
    own = {x.key for x in c.choices}
    for key, _ in r.picks:
        if key not in own:
            other = choice(key)
            whose = f"of chapter {other[0].id} ({other[0].title})" if other else "of no chapter"
            raise ReadingError(f"reading {r.name}: '{key}' is a choice {whose}, not of {c.id} ({c.title})")
    if not c.choices:
        return r
    filled = fill(r.picks, c)
    return r if filled == r.picks else dataclasses.replace(r, picks=filled)


def rows(r: Reading) -> list[dict[str, object]]:
    """The reading's chapter choices as :meth:`Reading.choices` lists them."""
    out: list[dict[str, object]] = []
    for key, v in r.picks:
        got = choice(key)
        ch_id, label, source = (got[0].id, got[1].label, got[1].source_of(v)) if got else ("", key, "")
        out.append({"key": key, "label": label, "value": v, "source": source, "chapter": ch_id})
    return out


def names() -> list[str]:
    """The names of the chapters' presets."""
    return list(registry()[1])


def summary(r: Reading) -> str:
    """The reading's chapter choices in one line for a printed page (``""`` when it has none)."""
    return "; ".join(f"{row['label']} = {row['value']}" for row in rows(r))


def panel_fields() -> list[dict[str, object]]:
    """The app's readings panel: a row for each chapter's choice, with its chapter (the panel shows its own)."""
    return [{"key": c.key, "label": c.label, "kind": "str", "chapter": ch.id,
             "options": [{"value": v, "title": v, "source": s} for v, s in c.options]}
            for ch, c in registry()[0].values()]


def panel_presets() -> list[dict[str, object]]:
    """The chapters' presets for the panel's list (each with its chapter)."""
    return [{"value": p.name, "title": f"{p.name} — {p.title}", "chapter": ch.id} for ch, p in registry()[1].values()]


def panel_values(presets: dict[str, Reading]) -> dict[str, dict[str, object]]:
    """Every preset's (the geometry's and the chapters') values of every field and every chapter's choice."""
    from .readings import FIELDS
    every = {**presets, **{name: r for name in names() if (r := preset(name)) is not None}}
    return {k: {**{f.key: getattr(r, f.key) for f in FIELDS}, **{key: r.pick(key) for key in registry()[0]}}
            for k, r in every.items()}
