"""Parallel sections of two chapters, and what differs between them (issue 43: the side-by-side of two rites).

鄉射禮 (chapter 5) repeats much of 鄉飲酒禮 (chapter 4) — the reception, the 獻, 酢, 酬, the music, the 旅酬, the
farewell — often saying so (如鄉飲酒之禮).  ``assets/parallels.toml`` pairs their sections; this module reads it
(every bad row is one line of a :class:`ParallelError`), measures each pairing from the two passages' own
characters, and aligns the two texts into what they share and what only one has.

How a pairing is known (a row's ``basis``), each measured here and held by ``tests/test_parallel.py``:

``text``
    the two passages are each other's best match among the other chapter's sections, and the alignment keeps at
    least :data:`MIN_TEXT_RATIO` of their characters (difflib's ratio: 2 × kept / both lengths);
``part``
    the first passage's words are mostly inside the second's (at least :data:`MIN_PART` of its characters kept):
    the second acts it among other things (鄉射 §45 旅酬 holds 鄉飲酒 §17–§19);
``title``
    neither: the titles name the same act and the row's note says what is shared.

The alignment works on the unpunctuated 經 as the text layer reads it (:mod:`.jing`), character by character
(difflib, no junk heuristic: every character counts).  A shared run shorter than :data:`MIN_SHARED` characters
between two differences is folded into the difference — a lone 之 or 而 in common is not a shared act.
"""
from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from difflib import SequenceMatcher
from functools import cache
from pathlib import Path

from ..chapter import Chapter, chapters, resolve
from ..paths import ASSETS
from . import jing

PARALLELS = ASSETS / "parallels.toml"
MIN_TEXT_RATIO = 0.5
MIN_PART = 0.7
MIN_SHARED = 3
BASES = ("text", "part", "title")
_REF = re.compile(r"([a-z][a-z0-9_]{0,39}):(\d{1,3})")


class ParallelError(ValueError):
    """A bad row of the parallels' file or a bad section reference (one line)."""


@dataclass(frozen=True)
class Ref:
    """A section of a chapter: ``xiangshe:6``."""

    chapter: Chapter
    n: int

    def __str__(self) -> str:
        return f"{self.chapter.id}:{self.n}"

    @property
    def text(self) -> str:
        return jing.passage(self.n, chapter=self.chapter).text

    @property
    def title(self) -> str:
        return jing.passage(self.n, chapter=self.chapter).title


def ref(value: str) -> Ref:
    """``"chapter:n"`` → a :class:`Ref` (one line when the chapter or the section does not exist)."""
    m = _REF.fullmatch(value.strip()) if isinstance(value, str) else None
    if m is None:
        raise ParallelError(f"{str(value)[:40]!r} is not a section reference (chapter:n, e.g. xiangshe:6)")
    cid, n = m.group(1), int(m.group(2))
    if cid not in chapters():
        raise ParallelError(f"{value!r}: no chapter {cid!r} (known: {', '.join(chapters())})")
    ch = resolve(cid)
    if not 1 <= n <= ch.sections:
        raise ParallelError(f"{value!r}: {ch.title} has sections 1–{ch.sections}")
    return Ref(ch, n)


@dataclass(frozen=True)
class Pair:
    """One row of the file: section ``a`` is acted again in section ``b``."""

    a: Ref
    b: Ref
    basis: str
    note: str


@dataclass(frozen=True)
class Unpaired:
    """A section with no parallel in the other chapter, and why (鄉射 無介 …)."""

    a: Ref
    why: str


@dataclass(frozen=True)
class Measure:
    """How much two passages share: ``ratio`` (difflib: 2 × kept / both lengths), ``part`` (kept / the first's
    length) and whether each is the other's best match by ratio among the other chapter's sections."""

    ratio: float
    part: float
    mutual_best: bool

    def holds(self, basis: str) -> bool:
        """Whether this measure supports a row's basis: ``title`` only when neither stronger basis does."""
        text = self.mutual_best and self.ratio >= MIN_TEXT_RATIO
        part = self.part >= MIN_PART
        return {"text": text, "part": part and not text, "title": not text and not part}[basis]


def _matcher(a: str, b: str) -> SequenceMatcher[str]:
    return SequenceMatcher(None, a, b, autojunk=False)


@cache
def _ratio(a: str, b: str) -> float:
    return _matcher(a, b).ratio()


def measure(a: Ref, b: Ref) -> Measure:
    """The measure of the pair (a, b) from the two passages' characters."""
    ta, tb = a.text, b.text
    m = _matcher(ta, tb)
    kept = sum(x.size for x in m.get_matching_blocks())
    r = m.ratio()
    best_b = max(range(1, b.chapter.sections + 1), key=lambda k: _ratio(ta, Ref(b.chapter, k).text))
    best_a = max(range(1, a.chapter.sections + 1), key=lambda k: _ratio(Ref(a.chapter, k).text, tb))
    return Measure(round(r, 3), round(kept / len(ta), 3) if ta else 0.0, best_b == b.n and best_a == a.n)


@cache
def load(path: Path = PARALLELS) -> tuple[tuple[Pair, ...], tuple[Unpaired, ...]]:
    """The file's pairs and unpaired sections; every bad row found before one :class:`ParallelError` (its
    lines) is raised."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ParallelError(f"{path.name}: cannot read it: {exc}") from None
    bad: list[str] = []
    pairs: list[Pair] = []
    lone: list[Unpaired] = []
    unknown = set(data) - {"pair", "none"}
    if unknown:
        bad.append(f"{path.name}: unknown table(s) {sorted(unknown)} (pair, none)")
    for k, row in enumerate(data.get("pair", [])):
        where = f"{path.name} pair {k + 1}"
        if not isinstance(row, dict) or set(row) != {"a", "b", "basis", "note"}:
            bad.append(f"{where}: needs exactly a, b, basis, note")
            continue
        try:
            a, b = ref(row["a"]), ref(row["b"])
        except ParallelError as exc:
            bad.append(f"{where}: {exc}")
            continue
        if a.chapter == b.chapter:
            bad.append(f"{where}: {a} and {b} are of one chapter")
        if row["basis"] not in BASES:
            bad.append(f"{where}: basis {str(row['basis'])[:20]!r} is not one of {', '.join(BASES)}")
        if not isinstance(row["note"], str) or not row["note"].strip():
            bad.append(f"{where}: an empty note")
        pairs.append(Pair(a, b, str(row["basis"]), str(row["note"])))
    for k, row in enumerate(data.get("none", [])):
        where = f"{path.name} none {k + 1}"
        if not isinstance(row, dict) or set(row) != {"a", "why"} or not isinstance(row["why"], str) or not row["why"]:
            bad.append(f"{where}: needs exactly a and why (a reason)")
            continue
        try:
            lone.append(Unpaired(ref(row["a"]), row["why"]))
        except ParallelError as exc:
            bad.append(f"{where}: {exc}")
    seen: dict[str, str] = {}
    for p in pairs:
        for x, y in ((p.a, p.b), (p.b, p.a)):
            if seen.get(str(x)) == str(y):
                bad.append(f"{path.name}: the pair {p.a} – {p.b} twice")
        seen[str(p.a)] = str(p.b)
    for u in lone:
        if any(str(p.a) == str(u.a) or str(p.b) == str(u.a) for p in pairs):
            bad.append(f"{path.name}: {u.a} is both paired and unpaired")
    if bad:
        raise ParallelError("\n".join(bad))
    return tuple(pairs), tuple(lone)


def parallels_of(r: Ref) -> list[Ref]:
    """The sections of other chapters that act section ``r`` again (or that it acts again)."""
    pairs, _ = load()
    return [p.b for p in pairs if str(p.a) == str(r)] + [p.a for p in pairs if str(p.b) == str(r)]


@dataclass(frozen=True)
class Segment:
    """A run of the alignment: ``same`` (both say it), or what each says in its place (one may be empty)."""

    same: bool
    a: str
    b: str


def align(a: Ref, b: Ref) -> list[Segment]:
    """The two passages as shared runs and differences, in order (a shared run under :data:`MIN_SHARED`
    characters between differences folded into them)."""
    ta, tb = a.text, b.text
    raw: list[Segment] = []
    for op, i0, i1, j0, j1 in _matcher(ta, tb).get_opcodes():
        raw.append(Segment(op == "equal", ta[i0:i1], tb[j0:j1]))
    out: list[Segment] = []
    for k, s in enumerate(raw):
        inner = 0 < k < len(raw) - 1
        if s.same and inner and len(s.a) < MIN_SHARED:
            s = Segment(False, s.a, s.b)
        if out and not s.same and not out[-1].same:
            out[-1] = Segment(False, out[-1].a + s.a, out[-1].b + s.b)
        else:
            out.append(s)
    return out


def differences(a: Ref, b: Ref) -> list[tuple[str, str, str]]:
    """The differences only: ``(shared words before it, a's words, b's words)`` — the context is the last
    characters of the shared run before (at most 6), so that a reader finds the place."""
    out: list[tuple[str, str, str]] = []
    before = ""
    for s in align(a, b):
        if s.same:
            before = s.a[-6:]
        else:
            out.append((before, s.a, s.b))
    return out


def check_all(path: Path = PARALLELS) -> list[str]:
    """Every row whose basis the passages do not support, one line each (empty: the file holds)."""
    pairs, _ = load(path)
    lines = []
    for p in pairs:
        m = measure(p.a, p.b)
        if not m.holds(p.basis):
            lines.append(f"{p.a} – {p.b}: basis {p.basis} but ratio {m.ratio:.2f}, part {m.part:.2f}, "
                         f"{'mutual best' if m.mutual_best else 'not each other best'}")
    return lines


__all__ = ["BASES", "Measure", "Pair", "ParallelError", "Ref", "Segment", "Unpaired", "align",
           "check_all", "differences", "load", "measure", "parallels_of", "ref"]
