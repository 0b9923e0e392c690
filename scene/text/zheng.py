"""鄭玄注: the notes of the zhengzhu file, each anchored to the 經 words it follows."""
from __future__ import annotations

import re
from dataclasses import dataclass
from difflib import SequenceMatcher
from functools import cache

from ..chapter import Chapter, resolve
from .jing import ChapterLike, Key, _key, _read, _text

# Sections of the zhengzhu file whose 經 (notes stripped) differs from the jing file.
# The two files agree everywhere today; keep this in step with the data.
KNOWN_ZHENGZHU_DIFFERENCES: frozenset[int | str] = frozenset()


@dataclass(frozen=True)
class Gloss:
    """One 鄭注: the 經 words it follows (*anchor*) and the note.

    *offset* is where the note attaches in the plain 經 passage, i.e. just after
    the anchor: ``passage_text[offset - len(anchor):offset] == anchor``.
    """

    anchor: str
    note: str
    offset: int


_ZHU = re.compile(r"（([^（）]*)）")   # chapter 5's: its notes stand in full-width brackets


@cache
def _notes(brackets: str) -> re.Pattern[str]:
    """A note of a zhengzhu file whose notes stand in ``brackets`` (the chapter's ``notes``: '（）', '()')."""
    if brackets == "（）":
        return _ZHU
    o, c = (re.escape(b) for b in brackets)
    return re.compile(f"{o}([^{o}{c}]*){c}")


def annotated(n: int | str, *, chapter: ChapterLike = None) -> str:
    """Passage *n* as printed with 鄭注, each note in the chapter's brackets (（…） in chapter 5)."""
    ch = resolve(chapter)
    return _read(ch.zhengzhu)[_key(n, ch)][1]


def _map_offset(src: str, dst: str, p: int) -> int:
    """Carry position *p* in *src* over to *dst* (identity when they are equal)."""
    if src == dst:
        return p
    for _, i1, i2, j1, j2 in SequenceMatcher(None, src, dst, autojunk=False).get_opcodes():
        if p <= i2:
            return j1 + min(p - i1, j2 - j1)
    return len(dst)


def zheng_notes(n: int | str, *, chapter: ChapterLike = None) -> list[Gloss]:
    """The 鄭注 of section *n* (int) or 記 item (``"記27"``), in order."""
    ch = resolve(chapter)
    return list(_glosses(_key(n, ch), ch))


@cache
def _glosses(key: Key, ch: Chapter) -> tuple[Gloss, ...]:
    raw, jing = annotated(key, chapter=ch), _text(key, chapter=ch)
    zhu = _notes(ch.notes)
    plain = zhu.sub("", raw)
    out, pos, last = [], 0, 0
    for m in zhu.finditer(raw):
        anchor = raw[last:m.start()]
        pos += len(anchor)
        # Offsets index the jing file, even where the zhengzhu file's 經 differs.
        out.append(Gloss(anchor, m[1], _map_offset(plain, jing, pos)))
        last = m.end()
    return tuple(out)


def zhengzhu_differences(*, chapter: ChapterLike = None) -> dict[Key, tuple[str, str]]:
    """Passages whose 經 differs between the two files: ``{key: (jing, zhengzhu stripped)}``."""
    ch = resolve(chapter)
    zhu = _notes(ch.notes)
    out = {}
    for key in _read(ch.jing):
        jing, plain = _text(key, chapter=ch), zhu.sub("", annotated(key, chapter=ch))
        if jing != plain:
            out[key] = (jing, plain)
    return out
