"""鄭玄注: the notes of the zhengzhu file, each anchored to the 經 words it follows."""
from __future__ import annotations

import re
from dataclasses import dataclass
from difflib import SequenceMatcher
from functools import cache

from .jing import JING, ZHENGZHU, Key, _key, _sections, _text

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


_ZHU = re.compile(r"（([^（）]*)）")


def annotated(n: int | str) -> str:
    """Passage *n* as printed with 鄭注, each note in （…）."""
    return _sections(ZHENGZHU)[_key(n)][1]


def _map_offset(src: str, dst: str, p: int) -> int:
    """Carry position *p* in *src* over to *dst* (identity when they are equal)."""
    if src == dst:
        return p
    for _, i1, i2, j1, j2 in SequenceMatcher(None, src, dst, autojunk=False).get_opcodes():
        if p <= i2:
            return j1 + min(p - i1, j2 - j1)
    return len(dst)


def zheng_notes(n: int | str) -> list[Gloss]:
    """The 鄭注 of section *n* (int) or 記 item (``"記27"``), in order."""
    return list(_glosses(_key(n)))


@cache
def _glosses(key: Key) -> tuple[Gloss, ...]:
    raw, jing = annotated(key), _text(key)
    plain = _ZHU.sub("", raw)
    out, pos, last = [], 0, 0
    for m in _ZHU.finditer(raw):
        anchor = raw[last:m.start()]
        pos += len(anchor)
        # Offsets index the jing file, even where the zhengzhu file's 經 differs.
        out.append(Gloss(anchor, m[1], _map_offset(plain, jing, pos)))
        last = m.end()
    return tuple(out)


def zhengzhu_differences() -> dict[Key, tuple[str, str]]:
    """Passages whose 經 differs between the two files: ``{key: (jing, zhengzhu stripped)}``."""
    out = {}
    for key in _sections(JING):
        jing, plain = _text(key), _ZHU.sub("", annotated(key))
        if jing != plain:
            out[key] = (jing, plain)
    return out
