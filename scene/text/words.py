"""A chapter's words as data: who its text names, the words that only look like a name, and what its place words
mean in its hall — its manifest's ``[data] words`` (the keys: :mod:`scene.chapter`'s docstring).

The clause splitter (:mod:`.clauses`) reads ``names`` / ``not_names``; the checker (:mod:`scene.rite.grammar`)
reads ``subjects``, ``not_subjects``, ``lead_subjects``, ``places``, ``not_at``, ``means``, ``by_role``,
``unpaired`` and ``ji_rules``.  A chapter without a words file names nobody and has no place words.  Every bad field is one line
of the :class:`WordsError` (the file, the key, what is wrong), all of them found before it is raised; whether
the place ids are its layout's and the actor ids its cast's is for the later layers (:func:`unknown_ids`).
"""
from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from ..chapter import Chapter, resolve

_LISTS = ("names", "not_names", "subjects", "not_subjects", "lead_subjects", "not_at", "ji_rules")
_TABLES = ("places", "means", "by_role", "unpaired")
_PLACE_ID = re.compile(r"[a-z][a-z0-9_]*\.[a-z0-9_]+")
_ACTOR_ID = re.compile(r"[a-z][a-z0-9_]{0,39}")
MAX_WORD = 12


class WordsError(ValueError):
    """A words file that cannot be read: one line per bad field."""


@dataclass(frozen=True)
class Words:
    """The words of one chapter (tuples in the file's order: the first that matches wins)."""

    names: tuple[str, ...] = ()
    not_names: tuple[str, ...] = ()
    subjects: tuple[str, ...] = ()
    not_subjects: tuple[str, ...] = ()
    lead_subjects: tuple[str, ...] = ()
    places: dict[str, tuple[str, ...]] = field(default_factory=dict)
    not_at: tuple[str, ...] = ()
    means: dict[str, tuple[str, ...]] = field(default_factory=dict)
    by_role: dict[str, tuple[str, ...]] = field(default_factory=dict)
    unpaired: dict[str, tuple[str, ...]] = field(default_factory=dict)
    #: the 記 rules of the checker (scene/rite/grammar/ji.py RULES) that hold in this chapter, in order
    ji_rules: tuple[str, ...] = ()

    @property
    def actor_ids(self) -> tuple[str, ...]:
        """Every actor id the file names (``means``, ``by_role``, ``unpaired``)."""
        return tuple(dict.fromkeys(a for t in (self.means, self.by_role, self.unpaired) for ids in t.values() for a in ids))

    @property
    def place_ids(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(p for ids in self.places.values() for p in ids))


def _is_word(w: object) -> bool:
    return isinstance(w, str) and 0 < len(w) <= MAX_WORD and w.isprintable() and not any(c.isspace() for c in w)


def _word_list(where: str, key: str, value: object) -> list[str]:
    if not isinstance(value, list):
        return [f"{where}: {key} must be a list of words, not {type(value).__name__}"]
    bad = [w for w in value if not _is_word(w)]
    if bad:
        return [f"{where}: {key}: {str(bad[0])[:20]!r} is not a word of 1–{MAX_WORD} characters"]
    dup = next((w for i, w in enumerate(value) if w in value[:i]), None)
    return [f"{where}: {key}: {dup!r} is listed twice"] if dup else []


def _id_table(where: str, key: str, value: object, pattern: re.Pattern[str], what: str) -> list[str]:
    if not isinstance(value, dict):
        return [f"{where}: [{key}] must be a table, not {type(value).__name__}"]
    bad = []
    for word, ids in value.items():
        if not _is_word(word):
            bad.append(f"{where}: [{key}] {word[:20]!r} is not a word of 1–{MAX_WORD} characters")
        elif not isinstance(ids, list) or not ids:
            bad.append(f"{where}: [{key}] {word}: must be a non-empty list of {what}s")
        elif wrong := [i for i in ids if not (isinstance(i, str) and pattern.fullmatch(i))]:
            bad.append(f"{where}: [{key}] {word}: {str(wrong[0])[:40]!r} is not {'an' if what[0] in 'aeiou' else 'a'} {what}")
    return bad


def parse(raw: dict[str, Any], where: str) -> Words:
    """The words of a parsed file; :class:`WordsError` lists every bad field."""
    bad = [f"{where}: unknown key {k} (known: {', '.join(_LISTS + _TABLES)})" for k in raw if k not in _LISTS + _TABLES]
    for k in _LISTS:
        if k in raw:
            bad += _word_list(where, k, raw[k])
    for k in _TABLES:
        if k in raw:
            bad += _id_table(where, k, raw[k], *((_PLACE_ID, "place id") if k == "places" else (_ACTOR_ID, "actor id")))
    if not bad:
        subjects, places = raw.get("subjects", []), raw.get("places", {})
        for k in ("lead_subjects",):
            bad += [f"{where}: {k}: {w!r} is not one of subjects" for w in raw.get(k, []) if w not in subjects]
        bad += [f"{where}: subjects: {w!r} is not one of names (the splitter must know whom the checker reads)"
                for w in subjects if w not in raw.get("names", [])]
        bad += [f"{where}: not_at: {w!r} is not a word of [places]" for w in raw.get("not_at", []) if w not in places]
        bad += [f"{where}: ji_rules: {w!r} is not a 記 item (記01, 記02 …)" for w in raw.get("ji_rules", [])
                if not re.fullmatch(r"記\d{2,3}", w)]
        for k in ("means", "by_role", "unpaired"):
            bad += [f"{where}: [{k}] {w}: not one of subjects" for w in raw.get(k, {}) if w not in subjects]
    if bad:
        raise WordsError("\n".join(bad))
    def lst(k: str) -> tuple[str, ...]:
        return tuple(raw.get(k, ()))

    def tab(k: str) -> dict[str, tuple[str, ...]]:
        return {w: tuple(ids) for w, ids in raw.get(k, {}).items()}
    return Words(names=lst("names"), not_names=lst("not_names"), subjects=lst("subjects"),
                 not_subjects=lst("not_subjects"), lead_subjects=lst("lead_subjects"), places=tab("places"),
                 not_at=lst("not_at"), means=tab("means"), by_role=tab("by_role"), unpaired=tab("unpaired"),
                 ji_rules=lst("ji_rules"))


def load_file(path: Path) -> Words:
    """The words of a file; :class:`WordsError` lists every bad field."""
    where = str(path)
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise WordsError(f"{where}: cannot read: {exc}") from None
    return parse(raw, where)


def words(chapter: Chapter | str | None = None) -> Words:
    """A chapter's words (None: chapter 5's); a chapter without a words file names nobody."""
    return _words(resolve(chapter))


@cache
def _words(ch: Chapter) -> Words:
    return load_file(ch.words) if ch.words is not None else Words()


def unknown_ids(w: Words, actor_ids: Iterable[str], place_ids: Iterable[str]) -> list[str]:
    """The lines naming the actor ids of ``w`` not in the cast and the place words none of whose ids is in the
    layout (what a chapter's test holds empty)."""
    actors, places = set(actor_ids), set(place_ids)
    bad = [f"actor id {a!r} is not in the cast" for a in w.actor_ids if a not in actors]
    bad += [f"place word {k}: none of {', '.join(ids)} is in the layout" for k, ids in w.places.items()
            if not any(i in places for i in ids)]
    return bad
