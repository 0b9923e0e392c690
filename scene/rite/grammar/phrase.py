"""A step's phrase as the checker reads it: which parts of it speak of the step's actor.

The 經 is unpunctuated and names its subject once for a run of acts (主人坐取爵興適洗南面坐奠爵 …).  A
phrase is cut into *segments* at each name of a person (主人, 賓, 司射, 上射 …); a segment speaks of the
people that name means, and the part before the first name speaks of whoever the passage named last
before the phrase.  The rules read only the segments that speak of the step's actor.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from ...chapter import Chapter
from ...text import passage
from ...text.words import words


@dataclass(frozen=True)
class Name:
    word: str
    start: int      # in the passage
    end: int


def names_in(section: int, chapter: Chapter | None = None) -> tuple[Name, ...]:
    """Every name of a person in the passage (the chapter's words file's ``subjects``), the first that matches
    at a character, skipping words that only look like one (``not_subjects``), plus the subjects the text
    leaves implicit (the chapter's grammar file's [[subject]])."""
    return _names_in(section, chapter)


@lru_cache(maxsize=128)
def _names_in(section: int, chapter: Chapter | None) -> tuple[Name, ...]:
    from .exceptions import load
    text = passage(section, chapter=chapter).text
    w = words(chapter)
    out: list[Name] = [Name(s.name, s.start, s.start) for s in load(chapter)[1] if s.section == section]
    i = 0
    while i < len(text):
        blocked = next((b for b in w.not_subjects if text.startswith(b, i)), None)
        word = next((s for s in w.subjects if text.startswith(s, i)), None)
        if blocked and (word is None or len(blocked) >= len(word)):
            # a blocking word starting here: skip only its first character, so 賓主人 still yields 主人
            if blocked.startswith(w.lead_subjects) and word:
                out.append(Name(word, i, i + len(word)))
                i += len(word)
                continue
            i += 1
            continue
        if word:
            out.append(Name(word, i, i + len(word)))
            i += len(word)
        else:
            i += 1
    return tuple(sorted(out, key=lambda n: (n.start, n.end)))


@dataclass(frozen=True)
class Segment:
    subject: str | None   # the name it speaks of (None: nobody named in the passage before it)
    start: int            # passage offsets
    end: int
    text: str


def segments(section: int, offset: int, phrase: str, chapter: Chapter | None = None) -> tuple[Segment, ...]:
    """The phrase (at ``offset`` in the passage of ``section`` of the chapter) cut at each name of a person."""
    text = passage(section, chapter=chapter).text
    end = offset + len(phrase)
    names = names_in(section, chapter)
    before = [n for n in names if n.end <= offset]
    inside = [n for n in names if offset <= n.start < end]
    out = []
    cur_subject = before[-1].word if before else None
    cur_start = offset
    for n in inside:
        if n.start > cur_start:
            out.append(Segment(cur_subject, cur_start, n.start, text[cur_start:n.start]))
        cur_subject, cur_start = n.word, n.start
    if end > cur_start:
        out.append(Segment(cur_subject, cur_start, end, text[cur_start:end]))
    return tuple(out)


def named(section: int, offset: int, phrase: str, chapter: Chapter | None = None) -> tuple[str, ...]:
    """The names of people inside the phrase itself."""
    end = offset + len(phrase)
    return tuple(n.word for n in names_in(section, chapter) if offset <= n.start < end)
