"""The seed page of chapter 5 (鄉射禮): a modern edition's 注釋 （22）…（164） (simplified) and the start of its 譯文."""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from ..chapter import DEFAULT_ID, chapter
from .jing import N_JI, N_SECTIONS, Key, _key, _text


@dataclass(frozen=True)
class SeedNote:
    """One 注釋 of the modern edition (simplified).

    *sections*: the 經 section(s) it explains; *ji*: the 記 item(s) it explains;
    *corrections*: misprints read differently, as ``"wrong→right"``.
    """

    n: int
    text: str
    sections: tuple[int, ...] = ()
    corrections: tuple[str, ...] = ()
    ji: tuple[int, ...] = ()

    @property
    def is_section_note(self) -> bool:
        """A note that opens a 節: ``此节述…之仪`` ('this section describes the rite of …')."""
        return self.text.startswith(_SECTION_NOTE) or f"以节述→{_SECTION_NOTE}" in self.corrections


_SECTION_NOTE = "此节述"
FIRST_SEED_SECTION = 15  # note 23 此节述纳射器之事 opens §15 弟子納射器
# Misprints fixed in the text: 小巨 for 小臣 (note 158 itself glosses 小臣).
_FIXES = (("小巨", "小臣"),)
# Misprints only *read* as corrected (the text is kept): note 97 has 以节述 for 此节述.
_READINGS = (("以节述", _SECTION_NOTE),)
_MARKER = re.compile(r"（(\d+)）")
_TRANSLATION = "【译文】"
_PAGE_FOOTER = re.compile(r"\n?（本[章篇]未完[^（）]*）\s*$")  # web-page footer, not translation
# Glyphs the seed writes differently from the (OpenCC-simplified) 經, for matching only:
# 算 for 筭, 纁 for OpenCC's 𫄸, and 胑 (a misprint) for 膱 in note 125.
_FOLD = str.maketrans({"筭": "算", "𫄸": "纁", "膱": "胑"})


@cache
def _seed() -> tuple[str, str]:
    """The seed split into (notes part, translation part): chapter 5's page (its manifest's ``text.seed``)."""
    page = chapter(DEFAULT_ID).seed
    assert page is not None, "chapter 5's manifest names its seed page"
    notes, _, translation = page.read_text(encoding="utf-8").partition(_TRANSLATION)
    return notes, translation


def _raw_seed_notes() -> dict[int, str]:
    """``{n: text}`` split at the markers （N）.

    The first marker that begins a line starts the sequence; after it only （N+1）
    is a marker, so cross-references such as 参阅注（55） and garbled pinyin such as
    笴（g7） stay inside the note text.  Several notes may share one line.
    """
    notes = _seed()[0]
    starts: list[tuple[int, int, int]] = []
    for m in _MARKER.finditer(notes):
        n = int(m[1])
        opens = not starts and (m.start() == 0 or notes[m.start() - 1] == "\n")
        follows = bool(starts) and n == starts[-1][0] + 1
        if opens or follows:
            starts.append((n, m.start(), m.end()))
    ends = [s for _, s, _ in starts[1:]] + [len(notes)]
    return {n: notes[e:end].strip() for (n, _, e), end in zip(starts, ends)}


def _headwords(text: str) -> list[str]:
    """The 經 words a note explains: what precedes its first '：', pinyin dropped."""
    if text.startswith((_SECTION_NOTE, "以节述")):
        text = text.partition("。")[2]  # skip '此节述…之仪。'
    head = re.sub(r"（[^（）]*）", "", text.partition("：")[0])
    return [w.translate(_FOLD) for w in re.split(r"[，、“”《》。；]", head) if w]


def _contains(key: Key, words: list[str]) -> bool:
    text = _text(key, "simplified").translate(_FOLD)
    return all(w in text for w in words)


@cache
def _seed_notes() -> dict[int, SeedNote]:
    out: dict[int, SeedNote] = {}
    # The page begins inside §14 司射請射 (notes 1–21 are on the previous page):
    # note 22 glosses 某不能為二三子 of §14.
    section = FIRST_SEED_SECTION - 1
    ji_item = 0  # last 記 item matched; 0 while still in the 經
    for n, raw in _raw_seed_notes().items():
        text, corrections = raw, []
        for wrong, right in _FIXES:
            if wrong in text:
                text = text.replace(wrong, right)
                corrections.append(f"{wrong}→{right}")
        for wrong, right in _READINGS:
            if text.startswith(wrong):
                corrections.append(f"{wrong}→{right}")
        note = SeedNote(n, text, corrections=tuple(corrections))
        words = _headwords(text)
        if note.is_section_note:
            section += 1  # each 此节述 note opens the next section, in order
        elif section == N_SECTIONS and not ji_item and words and not _contains(N_SECTIONS, words):
            ji_item = 1   # past the last section the notes gloss the 記, not §51
        if ji_item:
            # 記 notes go in 記 order: the first item from the last match on that has the words.
            found = [i for i in range(ji_item, N_JI + 1) if _contains(f"記{i:02d}", words)]
            ji_item = found[0] if found else ji_item
            out[n] = SeedNote(n, text, (), note.corrections, tuple(found[:1]))
        else:
            out[n] = SeedNote(n, text, (section,), note.corrections)
    return out


def seed_notes() -> dict[int, SeedNote]:
    """All notes of the seed page, ``{22: …, …, 164: …}``."""
    return dict(_seed_notes())


def seed_note(n: int) -> SeedNote:
    """Seed note *n* (22–164)."""
    notes = _seed_notes()
    if n not in notes or isinstance(n, bool):
        raise ValueError(f"unknown seed note {n!r} (seed notes are {min(notes)}–{max(notes)})")
    return notes[n]


def seed_notes_for_section(n: int | str) -> list[SeedNote]:
    """Seed notes explaining section *n* (int), or 記 item *n* (``"記61"``)."""
    key = _key(n)
    if isinstance(key, int):
        return [s for s in _seed_notes().values() if key in s.sections]
    return [s for s in _seed_notes().values() if int(key[1:]) in s.ji]


def seed_translation() -> str:
    """The seed's 譯文 (modern translation, simplified) verbatim, without the page footer.

    Only the beginning of the translation is on the page (it stops mid-sentence).
    """
    return _PAGE_FOOTER.sub("", _seed()[1].strip("\n"))
