"""The 經 in its 節 and the 記 in its items, by name: section ``1``–``N`` or ``"記01"``–``"記NN"``.

A chapter's texts (:class:`scene.chapter.Chapter`: the files and the counts of its manifest) are read whitespace
removed and never modified; every function takes ``chapter=`` (a :class:`~scene.chapter.Chapter` or an id),
chapter 5, 鄉射禮, when it is left out — its 51 sections and 73 items are the module's constants.  Bad names
raise a one-line ``ValueError``.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from ..chapter import HEADING, Chapter, resolve

_DEFAULT = resolve(None)
# chapter 5's files and counts, as names the later layers and the tests import (the default chapter's)
JING = _DEFAULT.jing.name
JING_SIMPLIFIED = _DEFAULT.jing_simplified.name
ZHENGZHU = _DEFAULT.zhengzhu.name
SEED = _DEFAULT.seed.name if _DEFAULT.seed else ""

N_SECTIONS = _DEFAULT.sections  # 節 of the 經
N_JI = _DEFAULT.ji              # items of the 記
SCRIPTS = {"traditional": JING, "simplified": JING_SIMPLIFIED}

Key = int | str  # 1..51 or "記01".."記73"
ChapterLike = Chapter | str | None   # a chapter, its id, or None: chapter 5


@dataclass(frozen=True)
class Passage:
    """One 節 (section) of the 經: its number, 節名 (title) and unpunctuated text."""

    n: int
    title: str
    text: str


_HEADING = HEADING


@cache
def _read(path: Path) -> dict[Key, tuple[str, str]]:
    """Parse a text file into ``{key: (title, text)}``, whitespace removed."""
    out: dict[Key, tuple[str, str]] = {}
    key: Key | None = None
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            m = _HEADING.fullmatch(line.strip())
            # The bare '## 記' heading only opens the 記; it carries no text.
            key = None if m is None else int(m[1]) if m[1] else f"記{int(m[3]):02d}"
            if key is not None:
                assert m is not None                  # a key comes only from a heading's match
                out[key] = (m[2] or m[4] or "", "")
        elif key is not None and not line.startswith("# "):
            title, text = out[key]
            out[key] = (title, text + "".join(line.split()))
    return out


def _sections(filename: str | Path, chapter: ChapterLike = None) -> dict[Key, tuple[str, str]]:
    """The passages of a text file: a :class:`~pathlib.Path`, or the name of one of the chapter's files."""
    if isinstance(filename, Path):
        return _read(filename)
    ch = resolve(chapter)
    by_name = {p.name: p for p in (ch.jing, ch.jing_simplified, ch.zhengzhu)}
    if filename not in by_name:
        raise ValueError(f"{filename!r} is not a text of chapter {ch.id} (its texts: {', '.join(by_name)})")
    return _read(by_name[filename])


def _key(n: int | str, chapter: ChapterLike = None) -> Key:
    """Validate a passage name: section ``1``–``N`` or 記 item ``"記01"``–``"記NN"`` of the chapter."""
    ch = resolve(chapter)
    n_sections, n_ji = ch.sections, ch.ji
    if isinstance(n, int) and not isinstance(n, bool):
        if 1 <= n <= n_sections:
            return n
        raise ValueError(f"unknown section {n} (sections are 1–{n_sections})")
    m = re.fullmatch(r"\s*[記记](\d+)\s*", n) if isinstance(n, str) else None
    if m is None:
        raise ValueError(f"unknown passage {n!r} (use a section 1–{n_sections} or a 記 item '記01'–'記{n_ji:02d}')")
    if not 1 <= int(m[1]) <= n_ji:
        raise ValueError(f"unknown 記 item {n} (記 items are 記01–記{n_ji:02d})")
    return f"記{int(m[1]):02d}"


def _file(script: str, chapter: ChapterLike = None) -> Path:
    if script not in SCRIPTS:
        raise ValueError(f"unknown script {script!r} (use 'traditional' or 'simplified')")
    return resolve(chapter).scripts[script]


def _text(n: int | str, script: str = "traditional", *, chapter: ChapterLike = None) -> str:
    return _read(_file(script, chapter))[_key(n, chapter)][1]


def passage(n: int, script: str = "traditional", *, chapter: ChapterLike = None) -> Passage:
    """Section *n* (1–51 in chapter 5) of the 經; ``script="simplified"`` reads the provided simplified file."""
    if not isinstance(n, int) or isinstance(n, bool):
        raise ValueError(f"unknown section {n!r} (sections are 1–{resolve(chapter).sections})")
    title, text = _read(_file(script, chapter))[_key(n, chapter)]
    return Passage(n, title, text)


def passages(script: str = "traditional", *, chapter: ChapterLike = None) -> list[Passage]:
    """All sections of the 經 (51 in chapter 5), in order."""
    return [passage(n, script, chapter=chapter) for n in range(1, resolve(chapter).sections + 1)]


def ji(n: int, script: str = "traditional", *, chapter: ChapterLike = None) -> str:
    """Text of 記 item *n* (1–73 in chapter 5)."""
    n_ji = resolve(chapter).ji
    if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= n_ji:
        raise ValueError(f"unknown 記 item {n!r} (記 items are 1–{n_ji})")
    return _text(f"記{n:02d}", script, chapter=chapter)


def ji_items(script: str = "traditional", *, chapter: ChapterLike = None) -> dict[int, str]:
    """All 記 items, ``{1: …, …, 73: …}`` in chapter 5."""
    return {n: ji(n, script, chapter=chapter) for n in range(1, resolve(chapter).ji + 1)}


def find_phrase(n: int | str, phrase: str, script: str = "traditional", *, chapter: ChapterLike = None) -> int:
    """Offset of *phrase* (verbatim) in passage *n*; ``ValueError`` naming both if absent."""
    text = _text(n, script, chapter=chapter)
    i = text.find(phrase) if phrase else -1
    if i < 0:
        where = f"section {n}" if isinstance(n, int) else f"{_key(n, chapter)}"
        raise ValueError(f"phrase {phrase!r} does not occur in {where}")
    return i
